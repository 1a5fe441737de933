#!/usr/bin/env python3
"""Betweenness (or closeness, harmonic, eigenvector) centrality by one tool
on one graph, in this process:

    python3 bench/betweenness.py TOOL GRAPH [--k K] [--threads T] [--repeat R]
                                 [--measure betweenness|closeness|harmonic|eigenvector]
                                 [--tol TOL] [--save FILE]

TOOL: libgraph (lg.betweenness_centrality on a libgraph.Graph), backend
(networkx.betweenness_centrality with backend="libgraph", the conversion
cached), networkx (NetworkX's own), networkit (networkit.centrality.
Betweenness, or ApproxBetweenness-free exact sampling by its
EstimateBetweenness with K sources), igraph (Graph.betweenness, exact
only).  GRAPH: an edge-list file (undirected: the shared ego-Facebook and
oregon1 files in tests/data) or kron:SCALE (libgraph's generator,
undirected).  --k K: K sampled sources (None: exact; betweenness only).
--measure closeness: NetworkX's closeness_centrality (networkit's
Closeness, GENERALIZED: Wasserman and Faust's; igraph's closeness), harmonic
its harmonic_centrality (networkit's HarmonicCloseness unnormalized,
igraph's harmonic_centrality unnormalized); eigenvector:
eigenvector_centrality to --tol (networkit's EigenvectorCentrality, whose
tol is its own rule: compare the tools at equal error against an exact
eigenvector, from --save), libgraph and networkit only.  (networkit's
KatzCentrality is not NetworkX's Katz: on kron:16 with the same alpha and
beta its unit vector correlates 0.16 with libgraph's.)  --save FILE: the vector, scaled to unit 2-norm, one
value a line in vertex order (to compare the tools with an exact
solution).  Prints one "row:"
line: the tool, graph, k, threads, the best of --repeat runs in seconds and
the largest value (to check that the tools agree).  Run each tool in its own
process (networkit and igraph may live in another venv, without libgraph:
kron: graphs then need libgraph to write the .el first, `lgraph generate`).
"""
import argparse
import os
import time


def edges_of(spec):
    if spec.startswith("kron:"):
        import libgraph as lg
        src, dst = lg.generate_edges("kron", int(spec.split(":")[1]), seed=1)
        return list(zip(src.tolist(), dst.tolist()))
    with open(spec) as f:
        return [tuple(map(int, line.split()[:2])) for line in f if line[:1].isdigit()]


SAVE = []


def saved(values):
    """The largest of values scaled to unit 2-norm, values written to --save
    when it was given."""
    norm = sum(x * x for x in values) ** 0.5 or 1.0
    unit = [x / norm for x in values]
    if SAVE:
        with open(SAVE[0], "w") as f:
            f.write("\n".join(repr(x) for x in unit) + "\n")
    return max(unit)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("graph")
    ap.add_argument("--k", type=int, default=None)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--measure", default="betweenness",
                    choices=("betweenness", "closeness", "harmonic", "eigenvector"))
    ap.add_argument("--tol", type=float, default=1e-9)
    ap.add_argument("--save", default=None)
    a = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(a.threads))
    if a.save:
        SAVE.append(a.save)
    edges = edges_of(a.graph)
    if a.tool in ("libgraph", "backend", "networkx"):
        import networkx as nx
        G = nx.Graph()
        G.add_edges_from(edges)
        args = {"k": a.k, "seed": 1} if a.measure == "betweenness" else {}
        if a.tool == "libgraph" and a.measure == "eigenvector":
            import libgraph as lg
            g = lg.Graph.from_networkx(G)
            nodes = g.nodes  # the file's ids, in NetworkX's order: saved by id

            def run():
                x = lg.eigenvector_centrality(g, tol=a.tol, max_iter=100000)
                by_id = [0.0] * (max(nodes) + 1)
                for node, value in zip(nodes, x.tolist()):
                    by_id[node] = value
                return saved(by_id)
        elif a.tool == "libgraph":
            import libgraph as lg
            g = lg.Graph.from_networkx(G)
            f = getattr(lg, f"{a.measure}_centrality")
            run = lambda: max(f(g, **args).tolist())  # noqa: E731
        else:
            kw = {"backend": "libgraph"} if a.tool == "backend" else {}
            f = getattr(nx, f"{a.measure}_centrality")
            if kw:
                import warnings
                warnings.filterwarnings("ignore", message=".*conversions to backend graphs.*")
                f(nx.path_graph(300), **kw)  # the module loaded
            run = lambda: max(f(G, **args, **kw).values())  # noqa: E731
    elif a.tool == "networkit":
        import networkit as nk
        nk.setNumberOfThreads(a.threads)
        n = max(max(e) for e in edges) + 1
        G = nk.Graph(n)
        for u, v in edges:
            if u != v and not G.hasEdge(u, v):
                G.addEdge(u, v)

        def run():
            if a.measure == "eigenvector":
                b = nk.centrality.EigenvectorCentrality(G, tol=a.tol)
                b.run()
                return saved(b.scores())
            if a.measure == "closeness":
                b = nk.centrality.Closeness(G, True, nk.centrality.ClosenessVariant.GENERALIZED)
            elif a.measure == "harmonic":
                b = nk.centrality.HarmonicCloseness(G, normalized=False)
            elif a.k is None:
                b = nk.centrality.Betweenness(G, normalized=True)
            else:
                b = nk.centrality.EstimateBetweenness(G, a.k, normalized=True, parallel=True)
            b.run()
            return max(b.scores())
    elif a.tool == "igraph":
        import igraph as ig
        G = ig.Graph(edges=edges, directed=False).simplify()
        n = G.vcount()
        if a.measure == "closeness":
            run = lambda: max(G.closeness())  # noqa: E731
        elif a.measure == "harmonic":
            run = lambda: max(G.harmonic_centrality(normalized=False))  # noqa: E731
        else:
            run = lambda: max(G.betweenness()) / ((n - 1) * (n - 2) / 2)  # noqa: E731
    else:
        raise SystemExit(f"unknown tool {a.tool}")
    best, top = float("inf"), None
    for _ in range(a.repeat):
        t = time.perf_counter()
        top = run()
        best = min(best, time.perf_counter() - t)
    print(f"row: {a.measure} {a.tool} {os.path.basename(a.graph)} k={a.k} threads={a.threads} "
          f"best={best:.4f}s top={top:.6g}", flush=True)


if __name__ == "__main__":
    main()
