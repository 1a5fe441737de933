#!/usr/bin/env python3
"""libgraph's calls on a busy machine, for docs/PERFORMANCE.md.

    .venv/bin/python bench/busy.py [--graphs facebook,kron:16,kron:20]
                                   [--busy 0,2] [--runs R] [--calls bfs,...]

Each call (BFS from vertex 0, PageRank, connected components, Graph.from_edges
and Graph.from_pandas of the graph's edge list) on each graph, with `--busy`
processes spinning beside it (Python loops that never sleep: a browser, a
compile), timed with libgraph's default thread count, with one thread, and
as NetworkX and SciPy do the same: BFS distances (networkx
single_source_shortest_path_length; scipy.sparse.csgraph.breadth_first_order),
PageRank (networkx.pagerank, which runs on SciPy's sparse matrices),
components (networkx.connected_components; csgraph.connected_components)
and building (networkx.from_pandas_edgelist; a SciPy CSR matrix of the
edges in both directions, rows sorted, as from_edges makes).  NetworkX runs
only where it takes under 10 s a call.  The rounds alternate the
contenders, in a new random order each round; a round times one call, or
as many as take 5 ms for calls shorter than that; a row gives the median
of R rounds in milliseconds a call, the load average, and the ratio of the
default to one thread.

facebook is tests/data/facebook_combined.el (ego-Facebook, SNAP); kron:S is
the Graph500 Kronecker generator's graph of scale S, edge factor 16.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import time

import numpy as np

import libgraph as lg

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SPIN = "while True:\n    pass\n"


def load_graph(name):
    if name == "facebook":
        return lg.Graph.load(os.path.join(ROOT, "tests", "data", "facebook_combined.el"),
                             device="cpu")
    kind, scale = name.split(":")
    return lg.Graph.generate(kind, int(scale), device="cpu")


def edge_list(g):
    """The graph's edges, each once (u < v), as int64 arrays."""
    off, idx = (np.asarray(a) for a in g.csr()[:2])
    src = np.repeat(np.arange(g.num_vertices, dtype=np.int64), np.diff(off))
    dst = idx.astype(np.int64)
    keep = src < dst
    return src[keep], dst[keep]


def contenders(g, calls):
    """{call: [(who, function)]} for the calls asked for."""
    import pandas as pd
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    src, dst = edge_list(g)
    n = g.num_vertices
    df = pd.DataFrame({"source": src, "target": dst})
    m = sp.csr_matrix((np.ones(len(src), dtype=np.float64), (src, dst)), shape=(n, n))
    m = (m + m.T).tocsr()
    ctx = {"default": lg.Context(device="cpu"), "1 thread": lg.Context(device="cpu", num_threads=1)}
    out = {}
    for who, c in ctx.items():
        for call, fn in (
                ("bfs", lambda c=c: lg.bfs(g, 0, device=c)),
                ("pagerank", lambda c=c: lg.pagerank(g, device=c)),
                ("components", lambda c=c: lg.connected_components(g, device=c)),
                ("from_edges", lambda c=c: lg.Graph.from_edges(src, dst, num_vertices=n, device=c)),
                ("from_pandas", lambda c=c: lg.Graph.from_pandas(df, device=c))):
            out.setdefault(call, []).append((f"libgraph {who}", fn))
    out["bfs"].append(("scipy", lambda: csgraph.breadth_first_order(m, 0, return_predecessors=False)))
    out["components"].append(("scipy", lambda: csgraph.connected_components(m, directed=False)))
    both = (np.concatenate([src, dst]), np.concatenate([dst, src]))
    out["from_edges"].append(("scipy", lambda: sp.csr_matrix(
        (np.ones(2 * len(src), dtype=np.float32), both), shape=(n, n))))
    if g.num_edges <= 4_000_000:  # NetworkX: seconds a call beyond
        import networkx as nx
        G = nx.from_pandas_edgelist(df)
        G.add_nodes_from(range(n))
        out["bfs"].append(("networkx", lambda: nx.single_source_shortest_path_length(G, 0)))
        out["pagerank"].append(("networkx (scipy)", lambda: nx.pagerank(G)))
        out["components"].append(("networkx", lambda: list(nx.connected_components(G))))
        out["from_pandas"].append(("networkx", lambda: nx.from_pandas_edgelist(df)))
    return {k: v for k, v in out.items() if k in calls}


def spinners(k):
    return [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(k)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graphs", default="facebook,kron:16,kron:20")
    p.add_argument("--busy", default="0,2", help="numbers of busy processes beside the calls")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--calls", default="bfs,pagerank,components,from_edges,from_pandas")
    opts = p.parse_args()
    print(f"libgraph {lg.__version__}; Python {sys.version.split()[0]}; {os.cpu_count()} CPUs; "
          f"default threads {lg.Context(device='cpu').num_threads}; "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}", flush=True)
    rng = random.Random(1)
    for name in opts.graphs.split(","):
        g = load_graph(name)
        table = contenders(g, opts.calls.split(","))
        for busy in (int(b) for b in opts.busy.split(",")):
            procs = spinners(busy)
            try:
                time.sleep(0.5 if busy else 0)
                for call, who in table.items():
                    reps = {}
                    for w, fn in who:  # warm (transposes, caches, pages), and
                        t0 = time.perf_counter()  # calls a timing of 5 ms at least
                        fn()
                        reps[w] = max(1, int(0.005 / max(time.perf_counter() - t0, 1e-6)))
                    times = {w: [] for w, _ in who}
                    for _ in range(opts.runs):
                        # a new order each round: none always follows the
                        # one that churns the caches
                        for w, fn in rng.sample(who, len(who)):
                            t0 = time.perf_counter()
                            for _ in range(reps[w]):
                                fn()
                            times[w].append((time.perf_counter() - t0) * 1e3 / reps[w])
                    med = {w: statistics.median(t) for w, t in times.items()}
                    ratio = med["libgraph default"] / med["libgraph 1 thread"]
                    load = os.getloadavg()[0]
                    print(f"row: {name} ({g.num_vertices} vertices, {g.num_edges} arcs), {busy} busy "
                          f"(load {load:.1f}), "
                          f"{call}: " + "; ".join(f"{w} {m:.3f}" for w, m in med.items())
                          + f" ms; default / 1 thread {ratio:.2f}", flush=True)
            finally:
                for pr in procs:
                    pr.kill()
                    pr.wait()


if __name__ == "__main__":
    main()
