#!/usr/bin/env python3
"""The Python layer's cost, for docs/PERFORMANCE.md.

    .venv/bin/python bench/python_api.py [--lgraph PATH] [--call-time PATH]
                                         [--threads T] [--scale S] [--runs R]
                                         [--groups overhead,...] [--device D]

1. Call overhead on a 10-vertex graph (the undirected path 0-1-...-9): the
   best of 7 rounds of 20000 calls of libgraph.bfs / pagerank /
   connected_components (device: a CPU Context of T threads) and of the raw
   extension functions, against bench_call_time (the C library's own time
   for the same calls, same threads) run in the same invocation.  Overhead =
   Python time - C time.
2. Building a Graph from numpy arrays: the Kronecker edges of scale S
   (libgraph.generate_edges, int32 numpy arrays) built with
   Graph.from_edges(undirected, self-loops dropped, duplicates merged) vs the
   CLI building the same edges (lgraph bfs kron:S --json: its build_s, same
   options, same threads), R runs each, interleaved.
3. Inputs from pandas: Graph.from_edges of the same edges as numpy int32
   arrays and as pandas Series of them (read through __array__), R runs
   each, interleaved (skipped without pandas).
4. Named nodes: Graph.from_pandas on a DataFrame of string names (the
   kron edges of scale S - 3) against pandas.factorize of its two columns.
5. Pickling: a pickle round trip (protocol 5, to bytes and back) of the
   scale-S graph against save + load of the binary format (.lgb, in a
   temporary directory), R runs each, interleaved.
6. Ctrl-C latency: SIGINT sent to the process a random 0.05-0.5 s into each
   long call (PageRank with tol 0 on kron:S, BFS down a path of 4M vertices,
   connected components of kron:S, from_edges of kron:S's raw edges, loading
   its .el and its .lgb), R runs each: the seconds from the signal to the
   KeyboardInterrupt (a call that ended first is counted as such).
7. GPU results into a CuPy array (group gpu_out, not run by default: it
   needs a GPU and CuPy): PageRank of kron:S on the GPU with out= a CuPy
   array (written device to device) against out= a numpy array then
   cupy.asarray, 7 runs each, device copy cached.
8. A graph from GPU arrays (group gpu_build, GPU and CuPy): kron:S's raw
   edges as CuPy arrays, built on the GPU then a first GPU PageRank, against
   cupy.asnumpy + the host build + a first GPU PageRank (which uploads), and
   each build alone, 5 runs each.
9. GPU calls from C and from Python (group gpu_calls, not run by default:
   it needs a GPU, and CuPy for the device results): on each of
   --gpu-graphs, --sources vertices of the largest component drawn at
   random (seed 1), R rounds (--rounds) of BFS from each (and with
   max_depth 0: the call without the search), PageRank and connected
   components, each call into a host array (numpy out=) and into a device
   array (CuPy out=), timed three ways: bench_gpu_calls (--gpu-calls, the C
   library's own calls, same graph, sources and outputs), the extension
   function (libgraph._libgraph) and the package's function, these two
   alternating call by call; and the package's own steps of a BFS call,
   each alone.  The same on a CPU Context for comparison (--cpu-sources of
   them; --calls-devices chooses).  Medians, in ms.
10. Two calls on two threads (group threads): PageRank of kron:S (300
   iterations, tol 0, a one-thread CPU Context each) alone, then two at once
   on two Python threads, R runs each, interleaved: the wall time of the
   pair over one call's (1.0: they overlap fully; 2.0: serialized).
Prints "row:" lines; the medians and ratios at the end.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import timeit

import numpy as np

import libgraph as lg
from libgraph import _libgraph

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CALLS, ROUNDS = 20000, 7


def best_us(fn):
    return min(timeit.repeat(fn, number=CALLS, repeat=ROUNDS)) / CALLS * 1e6


def overhead(opts):
    ctx = lg.Context("cpu", num_threads=opts.threads)
    path = np.arange(10, dtype=np.int32)
    g = lg.Graph.from_edges(path[:-1], path[1:], device=ctx)
    raw = g._g
    ext = lg._libgraph
    py = {
        "bfs": best_us(lambda: lg.bfs(g, 0, device=ctx)),
        "pagerank": best_us(lambda: lg.pagerank(g, device=ctx)),
        "cc": best_us(lambda: lg.connected_components(g, device=ctx)),
    }
    ext_us = {
        "bfs": best_us(lambda: ext.run("bfs", raw, {"source": 0}, context=ctx)),
        "pagerank": best_us(lambda: ext.run("pagerank", raw, context=ctx)),
        "cc": best_us(lambda: ext.run("connected_components", raw, context=ctx)),
    }
    out = subprocess.run([opts.call_time, str(opts.threads)], check=True, capture_output=True,
                         text=True).stdout
    c_us = {line.split()[1]: float(line.split()[2]) for line in out.splitlines()
            if line.startswith("c_us")}
    for name in py:
        print(f"row: call {name}: libgraph {py[name]:.2f} us, extension {ext_us[name]:.2f} us, "
              f"C {c_us[name]:.2f} us -> Python overhead {py[name] - c_us[name]:.2f} us "
              f"(extension alone {ext_us[name] - c_us[name]:.2f} us); {opts.threads} thread(s)")


def build(opts):
    src, dst = lg.generate_edges("kron", opts.scale)
    ctx = lg.Context("cpu", num_threads=opts.threads)
    py, cli = [], []
    for _ in range(opts.runs):
        t0 = time.perf_counter()
        g = lg.Graph.from_edges(src, dst, num_vertices=1 << opts.scale, directed=False,
                                drop_self_loops=True, duplicates="first", device=ctx)
        py.append(time.perf_counter() - t0)
        arcs = g.num_edges
        del g
        out = subprocess.run([opts.lgraph, "bfs", f"kron:{opts.scale}", "--json", "--threads",
                              str(opts.threads), "--device", "cpu"], check=True,
                             capture_output=True, text=True).stdout
        j = json.loads(out.strip().splitlines()[-1])
        assert j["arcs"] == arcs, (j["arcs"], arcs)
        cli.append(j["build_s"])
    mp, mc = statistics.median(py), statistics.median(cli)
    print(f"row: build kron:{opts.scale} ({len(src)} edges -> {arcs} arcs), {opts.threads} "
          f"thread(s), {opts.runs} interleaved runs: Graph.from_edges(numpy) "
          f"{' '.join(f'{t:.3f}' for t in py)} s (median {mp:.3f}); lgraph build_s "
          f"{' '.join(f'{t:.3f}' for t in cli)} s (median {mc:.3f}); ratio {mp / mc:.2f}")


def pandas_inputs(opts):
    try:
        import pandas as pd
    except ImportError:
        print("row: pandas inputs: skipped (no pandas)")
        return
    src, dst = lg.generate_edges("kron", opts.scale)
    ssrc, sdst = pd.Series(src), pd.Series(dst)
    ctx = lg.Context("cpu", num_threads=opts.threads)
    times = {"ndarray": [], "Series": []}
    for _ in range(opts.runs):
        for name, (s, d) in (("ndarray", (src, dst)), ("Series", (ssrc, sdst))):
            t0 = time.perf_counter()
            g = lg.Graph.from_edges(s, d, num_vertices=1 << opts.scale, device=ctx)
            times[name].append(time.perf_counter() - t0)
            del g
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"row: from_edges kron:{opts.scale} ({len(src)} int32 edges), {opts.runs} interleaved "
          f"runs: ndarray {' '.join(f'{t:.3f}' for t in times['ndarray'])} s (median "
          f"{med['ndarray']:.3f}); pandas Series {' '.join(f'{t:.3f}' for t in times['Series'])} "
          f"s (median {med['Series']:.3f}); ratio {med['Series'] / med['ndarray']:.2f}")


def pandas_names(opts):
    """from_pandas on a DataFrame of string node names (the kron edges of
    scale S - 3, about 2M at S = 20) against pandas.factorize of its two
    columns, R runs each, interleaved."""
    try:
        import pandas as pd
    except ImportError:
        print("row: from_pandas: skipped (no pandas)")
        return
    src, dst = lg.generate_edges("kron", opts.scale - 3)
    names = np.array([f"user{i}" for i in range(1 << (opts.scale - 3))], dtype=object)
    df = pd.DataFrame({"source": names[src], "target": names[dst]})
    ctx = lg.Context("cpu", num_threads=opts.threads)
    ours, theirs = [], []
    for _ in range(opts.runs):
        t0 = time.perf_counter()
        g = lg.Graph.from_pandas(df, device=ctx)
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        pd.factorize(df["source"])
        pd.factorize(df["target"])
        theirs.append(time.perf_counter() - t0)
    mo, mt = statistics.median(ours), statistics.median(theirs)
    print(f"row: from_pandas ({len(df)} edges, {len(g.names)} string names), {opts.runs} "
          f"interleaved runs: Graph.from_pandas {' '.join(f'{t:.3f}' for t in ours)} s (median "
          f"{mo:.3f}); pandas.factorize of the two columns "
          f"{' '.join(f'{t:.3f}' for t in theirs)} s (median {mt:.3f}); ratio {mo / mt:.2f}")


def pickling(opts):
    import pickle
    import tempfile

    g = lg.Graph.generate("kron", opts.scale)
    pk, io = [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "g.lgb")
        for _ in range(opts.runs):
            t0 = time.perf_counter()
            h = pickle.loads(pickle.dumps(g, protocol=5))
            pk.append(time.perf_counter() - t0)
            assert h.num_edges == g.num_edges
            del h
            t0 = time.perf_counter()
            g.save(path)
            h = lg.Graph.load(path)
            io.append(time.perf_counter() - t0)
            assert h.num_edges == g.num_edges
            del h
            os.remove(path)
    mp, mi = statistics.median(pk), statistics.median(io)
    print(f"row: pickle kron:{opts.scale} ({g.num_edges} arcs), {opts.runs} interleaved runs: "
          f"pickle round trip {' '.join(f'{t:.3f}' for t in pk)} s (median {mp:.3f}); "
          f"save + load .lgb {' '.join(f'{t:.3f}' for t in io)} s (median {mi:.3f}); "
          f"ratio {mp / mi:.2f}")


def interrupt_latency(opts):
    import random
    import signal
    import tempfile
    import threading

    rng = random.Random(1)
    lg.set_default_device(opts.device)
    g = lg.Graph.generate("kron", opts.scale)
    src, dst = lg.generate_edges("kron", opts.scale)
    n = 4_000_000 if opts.device == "cpu" else 2
    path = lg.Graph.from_edges(np.arange(n - 1, dtype=np.int32), np.arange(1, n, dtype=np.int32))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with tempfile.TemporaryDirectory() as tmp:
        el, lgb = os.path.join(tmp, "g.el"), os.path.join(tmp, "g.lgb")
        g.save(el)
        g.save(lgb)
        calls = {
            "pagerank": lambda: lg.pagerank(g, tol=0.0, max_iter=10**6),
            "bfs (path, 4M levels)": lambda: lg.bfs(path, 0, direction_alpha=0),
            "connected_components": lambda: lg.connected_components(g),
            "from_edges": lambda: lg.Graph.from_edges(src, dst),
            "load .el": lambda: lg.Graph.load(el),
            "load .lgb": lambda: lg.Graph.load(lgb),
            "Graph.generate": lambda: lg.Graph.generate("kron", opts.scale),
            "generate_edges": lambda: lg.generate_edges("kron", opts.scale),
            "save .el": lambda: g.save(os.path.join(tmp, "out.el")),
            "save .lgb": lambda: g.save(os.path.join(tmp, "out.lgb")),
        }
        if opts.device != "cpu":
            # loads and builds run on the CPU whatever the device; a GPU BFS
            # runs every level in one cooperative launch, with no step between
            calls = {"pagerank": calls["pagerank"],
                     "bfs (kron)": lambda: lg.bfs(g, 0),
                     "connected_components": calls["connected_components"]}
        for name, call in calls.items():
            lat, finished = [], 0
            for _ in range(opts.runs):
                delay = rng.uniform(0.05, 0.5)
                sent = []

                def fire():
                    time.sleep(delay)
                    sent.append(time.perf_counter())
                    os.kill(os.getpid(), signal.SIGINT)

                t = threading.Thread(target=fire)
                t.start()
                try:
                    call()
                    finished += 1
                except KeyboardInterrupt as e:
                    tb = e.__traceback__
                    while tb.tb_next:
                        tb = tb.tb_next
                    # raised by the extension's call (the innermost frame is
                    # libgraph's), not in this loop after the call ended
                    if "libgraph" in tb.tb_frame.f_code.co_filename:
                        lat.append(time.perf_counter() - sent[0])
                    else:
                        finished += 1
                while t.is_alive():  # the signal may still come: let it land here
                    try:
                        t.join()
                        time.sleep(0.05)
                    except KeyboardInterrupt:
                        pass
            shown = " ".join(f"{x * 1e3:.1f}" for x in lat)
            print(f"row: Ctrl-C {name} on kron:{opts.scale}, device {opts.device}: {len(lat)} "
                  f"interrupted, latency "
                  f"{shown} ms (max {max(lat) * 1e3 if lat else float('nan'):.1f} ms); "
                  f"{finished} ended before the signal")


def interrupt_cli(opts):
    """lgraph stopped by SIGINT a random 0.05 to --max-delay s into a
    generation and build (info), and a generation, build and write
    (convert): the seconds from the signal to the process's exit (130), or
    "ended" first."""
    import random
    import signal
    import subprocess
    import tempfile

    rng = random.Random(2)
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in (("info", ["info", f"kron:{opts.scale}"]),
                           ("convert to .el", ["convert", f"kron:{opts.scale}",
                                               os.path.join(tmp, "k.el")]),
                           ("convert to .lgb", ["convert", f"kron:{opts.scale}",
                                                os.path.join(tmp, "k.lgb")])):
            lat, ended = [], 0
            for _ in range(opts.runs):
                proc = subprocess.Popen([opts.lgraph, *args, "--threads", str(opts.threads)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                         signal.SIG_DFL))
                time.sleep(rng.uniform(0.05, opts.max_delay))
                sent = time.perf_counter()
                proc.send_signal(signal.SIGINT)
                rc = proc.wait()
                if rc == 130:
                    lat.append(time.perf_counter() - sent)
                else:
                    ended += 1
            shown = " ".join(f"{x * 1e3:.1f}" for x in lat)
            print(f"row: Ctrl-C lgraph {name} kron:{opts.scale}, {opts.threads} threads: "
                  f"{len(lat)} interrupted, latency {shown} ms "
                  f"(max {max(lat) * 1e3 if lat else float('nan'):.1f} ms); {ended} ended first")


def gpu_runs(fn, k, digits):
    """k timed runs of fn, the GPU idle before and after each: the seconds as
    "t1 t2 ... ms (median m)" with `digits` decimals."""
    import cupy as cp

    t = []
    for _ in range(k):
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        fn()
        cp.cuda.Device().synchronize()
        t.append(time.perf_counter() - t0)
    return (" ".join(f"{x * 1e3:.{digits}f}" for x in t) +
            f" ms (median {statistics.median(t) * 1e3:.{digits}f})")


def gpu_out(opts):
    import cupy as cp

    g = lg.Graph.generate("kron", opts.scale)
    gpu = lg.Context("gpu")
    lg.pagerank(g, device=gpu)  # the device copy made
    out = cp.zeros(g.num_vertices, dtype=cp.float64)
    host = np.zeros(g.num_vertices)
    direct = gpu_runs(lambda: lg.pagerank(g, device=gpu, out=out), 7, 2)
    via_host = gpu_runs(lambda: cp.asarray(lg.pagerank(g, device=gpu, out=host)), 7, 2)
    print(f"row: kron:{opts.scale} PageRank on the GPU into a CuPy array: out=cupy {direct}; "
          f"out=numpy then cupy.asarray {via_host}")


def gpu_build(opts):
    import cupy as cp

    src, dst = lg.generate_edges("kron", opts.scale)
    gpu = lg.Context("gpu")
    ds, dd = cp.asarray(src), cp.asarray(dst)
    kw = dict(drop_self_loops=True, duplicates="first")  # the GAP convention
    on_gpu = gpu_runs(lambda: lg.pagerank(lg.Graph.from_edges(ds, dd, device=gpu, **kw),
                                          device=gpu), 5, 0)
    via_host = gpu_runs(lambda: lg.pagerank(lg.Graph.from_edges(cp.asnumpy(ds), cp.asnumpy(dd),
                                                                device="cpu", **kw),
                                            device=gpu), 5, 0)
    gpu_only = gpu_runs(lambda: lg.Graph.from_edges(ds, dd, device=gpu, **kw), 5, 0)
    host_only = gpu_runs(lambda: lg.Graph.from_edges(src, dst, device="cpu", **kw), 5, 0)
    print(f"row: kron:{opts.scale} raw edges in CuPy arrays: GPU build + first GPU PageRank "
          f"{on_gpu}; cupy.asnumpy + host build + first GPU PageRank {via_host}; GPU build "
          f"{gpu_only}; host build from numpy {host_only}")


GPU_CALLS = ("bfs", "bfs_floor", "pagerank", "components")


def python_call(g, name, ctx, out, raw, at=None):
    """A function of no argument but the source that makes call `name` on g
    with ctx into `out`: the package's function, or with raw the extension's
    (into the device address `at` when given)."""
    if raw:
        dest = out if at is None else at
        kw = dict(context=ctx, device_outputs=at is not None)
        if name in ("bfs", "bfs_floor"):
            depth = 0 if name == "bfs_floor" else -1
            return lambda s: _libgraph.run("bfs", g._g, {"source": s, "max_depth": depth},
                                           outs={"distances": dest}, **kw)
        if name == "pagerank":
            return lambda s: _libgraph.run("pagerank", g._g, outs={"scores": dest}, **kw)
        return lambda s: _libgraph.run("connected_components", g._g, outs={"labels": dest}, **kw)
    if name in ("bfs", "bfs_floor"):
        depth = 0 if name == "bfs_floor" else None
        return lambda s: lg.bfs(g, s, max_depth=depth, device=ctx, out=out)
    if name == "pagerank":
        return lambda s: lg.pagerank(g, device=ctx, out=out)
    return lambda s: lg.connected_components(g, device=ctx, out=out)


def median_ms(fns, sources, rounds):
    """The median milliseconds of each of fns over `rounds` rounds of the
    sources, the functions alternating call by call (so that a drift of the
    machine's speed falls on each alike)."""
    t = [[] for _ in fns]
    for _ in range(rounds):
        for s in sources:
            for k, fn in enumerate(fns):
                t0 = time.perf_counter()
                fn(s)
                t[k].append(time.perf_counter() - t0)
    return [statistics.median(x) * 1e3 for x in t]


def c_calls(opts, spec, sources, device):
    """bench_gpu_calls' medians: {(call, "host" or "device"): ms}."""
    cmd = [opts.gpu_calls, "--device", device, "--rounds", str(opts.rounds), spec,
           ",".join(map(str, sources))]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:6])} ...: {proc.stderr.strip()}")
    rows = [line.split() for line in proc.stdout.splitlines() if line.startswith("row: c ")]
    return {(r[2], r[3]): float(r[4]) for r in rows}


def python_steps(g, ctx, host_out, gpu_out):
    """The package's own steps of lg.bfs(g, s, device=ctx, out=...), each
    timed alone (best of 7 rounds of 2000), microseconds: what Python adds
    to the extension's call."""
    from libgraph._device import context
    from libgraph._gpu_arrays import device_array, host_out as split_out, on_device, to_host

    n = g.num_vertices
    steps = {"context(device)": lambda: context(ctx),
             "to_host(source)": lambda: to_host(1, "source"),
             "host_out(numpy)": lambda: split_out(host_out, "out")}
    if gpu_out is not None:
        target = split_out(gpu_out, "out")[1]
        steps.update({
            "__cuda_array_interface__": lambda: gpu_out.__cuda_array_interface__,
            "device_array(cupy)": lambda: device_array(gpu_out, "out"),
            "on_device(cupy)": lambda: on_device(target, ctx, "<i4", n, "out")})
    return {k: min(timeit.repeat(f, number=2000, repeat=7)) / 2000 * 1e6
            for k, f in steps.items()}


def gpu_calls(opts):
    from libgraph._gpu_arrays import device_array

    try:
        import cupy as cp
    except ImportError:
        cp = None
        print("gpu_calls: no CuPy: host results only")
    for spec in opts.gpu_graphs.split(","):
        kind, scale, *ef = spec.split(":")
        g = lg.Graph.generate(kind, int(scale), edge_factor=int(ef[0]) if ef else 16)
        n = g.num_vertices
        labels = np.asarray(lg.connected_components(g, device="cpu"))
        degree = np.diff(np.asarray(g.csr()[0]))
        giant = np.bincount(labels).argmax()
        pool = np.flatnonzero((labels == giant) & (degree > 0))
        sources = [int(v) for v in np.random.default_rng(1).choice(pool, opts.sources)]
        print(f"gpu_calls {spec}: {n} vertices, {g.num_edges} arcs; {opts.sources} sources, "
              f"{opts.rounds} rounds")
        for device in opts.calls_devices.split(","):
            srcs = sources if device != "cpu" else sources[:opts.cpu_sources]
            c = c_calls(opts, spec, srcs, device)
            ctx = lg.Context(device)
            lg.bfs(g, srcs[0], device=ctx)  # the upload
            outs = {"host": {"bfs": np.empty(n, np.int32), "pagerank": np.empty(n),
                             "components": np.empty(n, np.int32)}}
            if cp is not None and device == "gpu":
                outs["device"] = {"bfs": cp.empty(n, cp.int32), "pagerank": cp.empty(n),
                                  "components": cp.empty(n, cp.int32)}
            gpu_bfs_out = outs["device"]["bfs"] if "device" in outs else None
            steps = python_steps(g, ctx, outs["host"]["bfs"], gpu_bfs_out)
            print(f"row: gpu_calls {spec} {device} Python steps of bfs: " +
                  "; ".join(f"{k} {v:.2f} us" for k, v in steps.items()), flush=True)
            for where, arrays in outs.items():
                for name in GPU_CALLS:
                    out = arrays[name.replace("_floor", "")]
                    at = device_array(out, "out").ptr if where == "device" else None
                    ext, py = median_ms([python_call(g, name, ctx, out, True, at),
                                         python_call(g, name, ctx, out, False)],
                                        srcs, opts.rounds)
                    ref = c.get((name, where), float("nan"))
                    print(f"row: gpu_calls {spec} {device} {name} {where}: C {ref:.4f} "
                          f"extension {ext:.4f} Python {py:.4f} ms; Python - C "
                          f"{(py - ref) * 1e3:+.1f} us; Python - extension "
                          f"{(py - ext) * 1e3:+.1f} us", flush=True)


def two_threads(opts):
    import threading

    g = lg.Graph.generate("kron", opts.scale, device="cpu")
    ctxs = [lg.Context(device="cpu", num_threads=1) for _ in range(2)]

    def call(ctx):
        try:
            lg.pagerank(g, max_iter=300, tol=0.0, device=ctx)
        except lg.NotConverged:
            pass

    call(ctxs[0])  # warm: the transpose built, pages touched
    one, two = [], []
    for _ in range(opts.runs):
        t0 = time.perf_counter()
        call(ctxs[0])
        one.append(time.perf_counter() - t0)
        threads = [threading.Thread(target=call, args=(c,)) for c in ctxs]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        two.append(time.perf_counter() - t0)
    m1, m2 = statistics.median(one), statistics.median(two)
    print(f"row: two threads, PageRank kron:{opts.scale} x300 iterations at 1 thread each, "
          f"{opts.runs} interleaved runs: one call {' '.join(f'{t:.3f}' for t in one)} s "
          f"(median {m1:.3f}); two at once {' '.join(f'{t:.3f}' for t in two)} s "
          f"(median {m2:.3f}); ratio {m2 / m1:.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lgraph", default=os.path.join(ROOT, ".local", "bin", "lgraph"))
    p.add_argument("--call-time", default=os.path.join(ROOT, "build", "bench_call_time"))
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--scale", type=int, default=20)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--gpu-calls", default=os.path.join(ROOT, "build", "bench_gpu_calls"),
                   help="gpu_calls: the C side's program")
    p.add_argument("--gpu-graphs", default="kron:21:48,kron:22", help="gpu_calls: the graphs")
    p.add_argument("--sources", type=int, default=64, help="gpu_calls: sources on the GPU")
    p.add_argument("--cpu-sources", type=int, default=8, help="gpu_calls: sources on the CPU")
    p.add_argument("--rounds", type=int, default=3, help="gpu_calls: rounds")
    p.add_argument("--calls-devices", default="gpu,cpu", help="gpu_calls: the devices")
    p.add_argument("--groups", default="overhead,build,pandas,names,pickle,interrupt",
                   help="which of the groups above to run")
    p.add_argument("--device", default="cpu", help="device of the Ctrl-C group's calls")
    p.add_argument("--max-delay", type=float, default=1.5,
                   help="interrupt_cli: the latest moment of the signal, seconds into the call")
    opts = p.parse_args()
    print(f"libgraph {lg.__version__}; Python {sys.version.split()[0]}; numpy {np.__version__}; "
          f"{os.cpu_count()} CPUs")
    groups = {"overhead": overhead, "build": build, "pandas": pandas_inputs,
              "names": pandas_names, "pickle": pickling, "interrupt": interrupt_latency,
              "interrupt_cli": interrupt_cli,
              "gpu_out": gpu_out, "gpu_build": gpu_build, "gpu_calls": gpu_calls,
              "threads": two_threads}
    for name in opts.groups.split(","):
        groups[name](opts)


if __name__ == "__main__":
    main()
