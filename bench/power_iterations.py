"""The time an iteration of eigenvector, Katz and HITS takes beside
PageRank's on the same graph and backend (libgraph's own), for the issue's
target "within 1.2x of the PageRank iteration".

    python bench/power_iterations.py kron:20 [--device cpu|gpu] [--iterations 20]

Each algorithm runs --iterations iterations exactly (tol 0: max_iter runs
out, NotConverged caught), --repeat times; prints the best time an
iteration of each and its ratio to PageRank's (HITS's is two pulls an
iteration, also shown per pull).  Threads: OMP_NUM_THREADS.
"""
import argparse
import time

import libgraph as lg


def graph_of(spec, directed):
    kind, scale = spec.split(":")
    src, dst = lg.generate_edges(kind, int(scale), seed=1)
    return lg.Graph.from_edges(src, dst, directed=directed)


def per_iteration(name, G, iterations, repeat, device, **params):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            lg.run(name, G, device=device, tol=0.0, max_iter=iterations, **params)
        except lg.NotConverged:
            pass
        best = min(best, time.perf_counter() - t)
    return best / iterations


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graph")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--directed", action="store_true")
    a = ap.parse_args()
    G = graph_of(a.graph, a.directed)
    runs = {"pagerank": {}, "eigenvector_centrality": {},
            "katz_centrality": {"alpha": 1e-4}, "hits": {}}
    base = None
    for name, params in runs.items():
        s = per_iteration(name, G, a.iterations, a.repeat, a.device, **params)
        base = base or s
        extra = f"  ({s / 2 * 1e3:.2f} ms a pull)" if name == "hits" else ""
        print(f"{name:24s} {a.graph} {a.device}: {s * 1e3:8.2f} ms an iteration, "
              f"{s / base:.2f}x PageRank's{extra}")


if __name__ == "__main__":
    main()
