#!/usr/bin/env python3
"""PageRank iterations with CuPy's cuSPARSE SpMV, the GPU anchor for
bench/gpu_pagerank.c (run by tests/gpu/run_on_device.sh on the GPU machine).

    python3 bench/cupy_pagerank.py GRAPH.lgb [ITERATIONS]

Reads a libgraph binary graph (.lgb, layout in docs/ARCHITECTURE.md), puts
the transposed adjacency on the GPU as a float32 CSR (cupyx.scipy.sparse,
whose @ is cuSPARSE SpMV), and times NetworkX's power-iteration step (as
networkx.pagerank's SciPy variant does it, uniform personalization and
dangling) in float32 and float64: x = alpha * (A^T (x / outdeg) + D / n) +
(1 - alpha) / n and the L1 change.  Prints the median time of one iteration
over ITERATIONS (default 20), measured with CUDA events after a warm-up.
"""
import sys

import numpy as np

try:
    import cupy as cp
    import cupyx
    import cupyx.scipy.sparse as cps
except ImportError as e:  # pragma: no cover - only on the GPU machine
    print(f"cupy_pagerank: skipped: {e}")
    sys.exit(0)

MAGIC = b"\x89LGB\r\n\x1a\n"


def read_lgb(path):
    with open(path, "rb") as f:
        head = f.read(40)
    if head[:8] != MAGIC:
        raise SystemExit(f"{path}: not a .lgb file")
    version, flags = np.frombuffer(head[8:16], dtype="<u4")
    n, m = np.frombuffer(head[16:32], dtype="<i8")
    if version != 1:
        raise SystemExit(f"{path}: .lgb version {version}")
    offsets = np.fromfile(path, dtype="<i8", count=n + 1, offset=40)
    indices = np.fromfile(path, dtype="<i4", count=m, offset=40 + 8 * (n + 1))
    directed = bool(flags & 1)
    return int(n), int(m), directed, offsets, indices


def event_median_ms(fn, repeat):
    """The median time of fn() in ms over `repeat` calls, by CUDA events
    around it on the current stream (the device idle before each)."""
    times = []
    for _ in range(repeat):
        cp.cuda.Device().synchronize()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


def main():
    path = sys.argv[1]
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    n, m, directed, offsets, indices = read_lgb(path)
    outdeg = np.diff(offsets).astype(np.float64)
    print(f"cupy_pagerank: {path}: {n} vertices, {m} arcs, {'directed' if directed else 'undirected'}; "
          f"CuPy {cp.__version__}, {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    # the two ceilings of this run: a device-to-device copy (bytes read plus
    # written) and the upload of the index array from pageable host memory
    big = cp.empty(1 << 28, dtype=np.float32)  # 1 GiB
    dst = cp.empty_like(big)
    cp.copyto(dst, big)
    ms = event_median_ms(lambda: cp.copyto(dst, big), 10)
    print(f"row: device-to-device copy: {2 * big.nbytes / ms / 1e6:.0f} GB/s "
          f"(1 GiB, read + written, median of 10)")
    del big, dst
    ms = event_median_ms(lambda: cp.asarray(indices), 3)
    print(f"row: upload of the index array ({indices.nbytes / 1e6:.0f} MB, pageable): "
          f"{ms:.1f} ms = {indices.nbytes / ms / 1e6:.1f} GB/s")
    # and the link's own rate: the same bytes from page-locked memory (the
    # floor of any upload, however it is staged)
    pinned = cupyx.empty_pinned(indices.shape, indices.dtype)
    pinned[...] = indices
    d_idx = cp.empty(indices.shape, indices.dtype)
    ms = event_median_ms(lambda: d_idx.set(pinned), 5)
    print(f"row: upload of the index array ({indices.nbytes / 1e6:.0f} MB, pinned): "
          f"{ms:.1f} ms = {indices.nbytes / ms / 1e6:.1f} GB/s (median of 5)")
    del d_idx, pinned
    for dtype in (np.float32, np.float64):
        # A[u, v] = 1 for each arc u -> v; the pull needs A^T (in-edges)
        a = cps.csr_matrix((cp.ones(m, dtype=dtype), cp.asarray(indices), cp.asarray(offsets)),
                           shape=(n, n))
        at = a.T.tocsr()
        inv = cp.asarray(np.where(outdeg > 0, 1.0 / np.maximum(outdeg, 1), 0.0).astype(dtype))
        dangling = cp.asarray(outdeg == 0)
        alpha = dtype(0.85)
        x = cp.full(n, 1.0 / n, dtype=dtype)

        def step(x):
            xlast = x
            d = xlast[dangling].sum()
            x = alpha * (at @ (xlast * inv) + d / n) + (1 - alpha) / n
            err = cp.abs(x - xlast).sum()
            return x, err

        for _ in range(3):
            x, err = step(x)
        float(err)
        state = [x]

        def iteration():
            state[0], err = step(state[0])
            float(err)  # the convergence test reads the error back, as libgraph's does

        ms = event_median_ms(iteration, iters)
        name = "float" if dtype == np.float32 else "double"
        print(f"row: cupy {name} iteration: {ms:.4f} ms "
              f"(median of {iters}; cuSPARSE SpMV + the vector steps + the error read back)")
        del a, at


if __name__ == "__main__":
    main()
