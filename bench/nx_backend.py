#!/usr/bin/env python3
"""NetworkX with and without the libgraph backend (python/nx_libgraph), on
one graph held as a NetworkX Graph.

    python3 bench/nx_backend.py [SCALE] [--skip-networkx]

Builds the Graph500 Kronecker graph of 2**SCALE vertices (default 18, edge
factor 16: libgraph's generator, then a networkx.Graph of its edges), then
times, each in a fresh state:
  - the conversion alone (nx_libgraph.interface.convert_from_nx, as NetworkX
    calls it), with and without weights, and networkx.to_scipy_sparse_array;
  - each function three ways: NetworkX's own; libgraph's first call on the
    graph (conversion included: the cache cleared first); libgraph with the
    converted graph cached (best of 3).
Prints one "row:" line per measurement and the ratios.  The NetworkX runs
take about a minute at scale 18 on 2 cores (--skip-networkx leaves them out).
"""
import sys
import time
import warnings

import networkx as nx
import numpy as np

import libgraph as lg
from nx_libgraph import interface

warnings.filterwarnings("ignore", message=".*conversions to backend graphs.*")


def seconds(f, repeat=1):
    """The best time of f() over repeat calls, and its result; earlier
    results are freed after the timing (freeing 10^5 sets takes ms)."""
    best, kept = float("inf"), []
    for _ in range(repeat):
        t = time.perf_counter()
        kept.append(f())
        best = min(best, time.perf_counter() - t)
    return best, kept[-1]


def consume(x):
    """Results that are iterators are consumed, as a caller would."""
    if isinstance(x, (dict, set, list, nx.Graph, int, float, bool)):
        return x
    return list(x)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    scale = int(args[0]) if args else 18
    skip_nx = "--skip-networkx" in sys.argv
    g0 = lg.Graph.generate("kron", scale, 16, 1)
    off, idx, _ = g0.csr()
    src = np.repeat(np.arange(g0.num_vertices), np.diff(off))
    keep = src <= np.asarray(idx)  # each undirected edge once
    G = nx.Graph()
    G.add_nodes_from(range(g0.num_vertices))
    G.add_edges_from(zip(src[keep].tolist(), np.asarray(idx)[keep].tolist()))
    print(f"graph kron:{scale}: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges "
          f"(networkx {nx.__version__}, libgraph {lg.__version__})")
    source = max(G, key=G.degree)

    for label, attrs in (("unweighted", None), ("weighted", {"weight": 1})):
        t, _ = seconds(lambda: interface.convert_from_nx(G, edge_attrs=attrs), 3)
        print(f"row: conversion ({label}, convert_from_nx): {t:.3f} s")
    if not skip_nx:
        t, _ = seconds(lambda: nx.to_scipy_sparse_array(G))
        print(f"row: networkx.to_scipy_sparse_array: {t:.3f} s")

    calls = [
        ("pagerank", lambda **kw: nx.pagerank(G, **kw)),
        ("connected_components", lambda **kw: list(nx.connected_components(G, **kw))),
        ("number_connected_components", lambda **kw: nx.number_connected_components(G, **kw)),
        ("single_source_shortest_path_length",
         lambda **kw: nx.single_source_shortest_path_length(G, source, **kw)),
        ("bfs_edges", lambda **kw: list(nx.bfs_edges(G, source, **kw))),
        ("bfs_layers", lambda **kw: list(nx.bfs_layers(G, source, **kw))),
    ]
    for name, call in calls:
        t_nx = None
        if not skip_nx:
            t_nx, want = seconds(lambda: consume(call()))
        G.__networkx_cache__.clear()
        t_first, got = seconds(lambda: consume(call(backend="libgraph")))
        t_cached, got = seconds(lambda: consume(call(backend="libgraph")), 3)
        line = f"row: {name}: libgraph first call {t_first:.3f} s, cached {t_cached * 1e3:.1f} ms"
        if t_nx is not None:
            line += (f"; networkx {t_nx:.3f} s: {t_nx / t_first:.1f}x first, "
                     f"{t_nx / t_cached:.0f}x cached")
            if name != "pagerank":
                assert got == want, name
        print(line, flush=True)


if __name__ == "__main__":
    main()
