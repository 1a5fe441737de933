#!/usr/bin/env python3
"""bench/sssp_delta.py - lg.sssp's time against delta-stepping's bucket width.

    .venv/bin/python bench/sssp_delta.py [--scale 18] [--threads 2] [--sources 8]

On a Kronecker and a uniform random graph (GAPBS's generators as libgraph
makes them, undirected) with GAPBS's weights (uniform integers in [1, 255]),
times lg.sssp from the same random sources at each delta of a sweep and at
delta 0 (the rule of src/kernels/cpu/sssp.c), median over the sources, and
checks every run's distances against the first.  What docs/decisions/
sssp-delta.md records comes from this.
"""

import argparse
import statistics
import time

import numpy as np

import libgraph as lg


def weighted(kind, scale, seed):
    src, dst = lg.generate_edges(kind, scale, seed=seed)
    rng = np.random.default_rng(seed)
    w = rng.integers(1, 256, size=len(src)).astype(np.float32)
    return lg.Graph.from_edges(src, dst, weights=w, drop_self_loops=True, duplicates="first")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=18)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sources", type=int, default=8)
    ap.add_argument("--deltas", default="1,2,4,8,16,32,64,128,256,512")
    a = ap.parse_args()
    ctx = lg.Context(device="cpu", num_threads=a.threads)
    for kind in ("kron", "urand"):
        g = weighted(kind, a.scale, 7)
        degree = np.asarray(g.out_degrees())
        rng = np.random.default_rng(1)
        sources = [int(v) for v in rng.choice(np.flatnonzero(degree), a.sources)]
        print(f"{kind}:{a.scale}  {g.num_vertices} vertices, {g.num_edges} arcs, "
              f"{a.threads} threads, {a.sources} sources")
        reference = {}
        for delta in [0.0] + [float(x) for x in a.deltas.split(",")]:
            times = []
            for s in sources:
                t0 = time.perf_counter()
                d = lg.sssp(g, s, delta=delta, device=ctx)
                times.append(time.perf_counter() - t0)
                if s in reference:
                    assert np.array_equal(d, reference[s]), (kind, delta, s)
                else:
                    reference[s] = d
            label = "rule" if delta == 0 else f"{delta:g}"
            print(f"  delta {label:>5}: median {1e3 * statistics.median(times):8.1f} ms, "
                  f"min {1e3 * min(times):8.1f} ms")


if __name__ == "__main__":
    main()
