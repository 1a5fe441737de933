#!/usr/bin/env python3
"""NetworkX with and without the libgraph backend (python/nx_libgraph), on
one graph held as a NetworkX Graph.

    python3 bench/nx_backend.py [SCALE] [--device cpu|gpu|auto] [--skip-networkx]
                                [--only TEXT]

Builds the Graph500 Kronecker graph of 2**SCALE vertices (default 18, edge
factor 16: libgraph's generator, then a networkx.Graph of its edges, and a
copy weighted by uniform integers in [1, 255] for the Dijkstra functions),
then times, each in a fresh state:
  - the conversion alone (nx_libgraph.interface.convert_from_nx, as NetworkX
    calls it), with and without weights, and networkx.to_scipy_sparse_array;
  - each function three ways: NetworkX's own (best of 2); libgraph's first
    call on the graph (conversion included: NetworkX's cache cleared before
    each of 3 calls, the best kept); libgraph with the converted graph cached
    (best of 3), its result checked against NetworkX's;
  - what bounds the cached calls that build many Python objects: the C
    builders of their results alone, with the collection their objects
    cause afterwards.
--only TEXT times only the functions whose row name holds TEXT (and skips
the conversion rows and the builders).  --device sets the backend's device (nx.config.backends.libgraph.device);
the traversals run on the CPU whatever it says.  Prints one "row:" line a
measurement.  The NetworkX runs take about two minutes at scale 18 on 2
cores (--skip-networkx leaves them out).
"""
import gc
import sys
import time
import warnings

import networkx as nx
import numpy as np

import libgraph as lg
from libgraph import nxkit
from nx_libgraph import interface

warnings.filterwarnings("ignore", message=".*conversions to backend graphs.*")


def seconds(f, repeat=1, before=None):
    """The best time of f() over repeat calls (before() run untimed ahead of
    each), and its result; earlier results are freed after the timing
    (freeing 10^5 sets takes ms)."""
    best, kept = float("inf"), []
    for _ in range(repeat):
        if before is not None:
            before()
        t = time.perf_counter()
        kept.append(f())
        best = min(best, time.perf_counter() - t)
    return best, kept[-1]


def builders(G, source):
    """The cached calls' result builders alone (best of 5): the C code
    that makes the sets, the dict and the tuples from arrays already
    computed, with the cyclic collector paused, then the young-generation
    collection that the new containers cost when it resumes."""
    B = interface.convert_from_nx(G)
    labels = lg.connected_components(B.graph())
    order, parents, ends = nxkit.bfs_visit(*B.adjacency, [B.vertex(source)])
    for name, make in (
            ("connected_components: sets", lambda: nxkit.components(B.nodes, labels)),
            ("single_source_shortest_path_length: dict",
             lambda: nxkit.levels(B.nodes, order, ends)),
            ("bfs_edges: tuples", lambda: nxkit.tree_edges(B.nodes, order, parents))):
        best_make = best_collect = float("inf")
        objects = len(make())
        for _ in range(5):
            gc.collect()
            gc.disable()
            t = time.perf_counter()
            result = make()
            t1 = time.perf_counter()
            gc.enable()
            gc.collect(0)
            t2 = time.perf_counter()
            best_make, best_collect = min(best_make, t1 - t), min(best_collect, t2 - t1)
            del result
        print(f"row: builder {name} ({objects} objects): {best_make * 1e3:.1f} ms, "
              f"then a young-generation collection {best_collect * 1e3:.1f} ms")
    t, _ = seconds(lambda: nxkit.bfs_visit(*B.adjacency, [B.vertex(source)]), 5)
    print(f"row: the visit in NetworkX's order alone (bfs_visit, {len(order) // 4} nodes): "
          f"{t * 1e3:.1f} ms")
    t, _ = seconds(lambda: lg.connected_components(B.graph()), 5)
    print(f"row: the components kernel alone: {t * 1e3:.1f} ms")


def consume(x):
    """Results that are iterators are consumed, as a caller would."""
    if isinstance(x, (dict, set, list, nx.Graph, int, float, bool)):
        return x
    return list(x)


def main():
    argv = sys.argv[1:]
    device = "cpu"
    if "--device" in argv:
        at = argv.index("--device")
        device = argv[at + 1]
        del argv[at:at + 2]
    only = None
    if "--only" in argv:
        at = argv.index("--only")
        only = argv[at + 1]
        del argv[at:at + 2]
    args = [a for a in argv if not a.startswith("--")]
    scale = int(args[0]) if args else 18
    skip_nx = "--skip-networkx" in argv
    nx.config.backends.libgraph.device = device
    g0 = lg.Graph.generate("kron", scale, 16, 1)
    off, idx, _ = g0.csr()
    src = np.repeat(np.arange(g0.num_vertices), np.diff(off))
    keep = src <= np.asarray(idx)  # each undirected edge once
    G = nx.Graph()
    G.add_nodes_from(range(g0.num_vertices))
    G.add_edges_from(zip(src[keep].tolist(), np.asarray(idx)[keep].tolist()))
    print(f"graph kron:{scale}: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges "
          f"(networkx {nx.__version__}, libgraph {lg.__version__}, device {device}, "
          f"{lg.Context().num_threads} threads)")
    source = max(G, key=G.degree)
    # the same graph weighted as GAPBS weighs its graphs (uniform integers in
    # [1, 255], exact in float32: the Dijkstra family runs on libgraph)
    W = G.copy()
    rng = np.random.default_rng(5)
    for (u, v), x in zip(W.edges(), rng.integers(1, 256, W.number_of_edges()).tolist()):
        W[u][v]["weight"] = x

    for label, attrs in (("unweighted", None), ("weighted", {"weight": 1})) if not only else ():
        t, _ = seconds(lambda: interface.convert_from_nx(G, edge_attrs=attrs), 3)
        print(f"row: conversion ({label}, convert_from_nx): {t:.3f} s")
    if not skip_nx and not only:
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
        ("bfs_tree", lambda **kw: nx.bfs_tree(G, source, **kw)),
        ("bfs_predecessors", lambda **kw: list(nx.bfs_predecessors(G, source, **kw))),
        ("bfs_successors", lambda **kw: list(nx.bfs_successors(G, source, **kw))),
        ("descendants_at_distance 2",
         lambda **kw: nx.descendants_at_distance(G, source, 2, **kw)),
        ("node_connected_component", lambda **kw: nx.node_connected_component(G, source, **kw)),
        ("single_source_dijkstra_path_length (weighted)",
         lambda **kw: nx.single_source_dijkstra_path_length(W, source, **kw)),
        ("single_source_dijkstra_path (weighted)",
         lambda **kw: nx.single_source_dijkstra_path(W, source, **kw)),
    ]
    for name, call in calls:
        if only and only not in name:
            continue
        t_nx = None
        if not skip_nx:
            t_nx, want = seconds(lambda: consume(call()), 2)
        H = W if "weighted" in name else G
        t_first, got = seconds(lambda: consume(call(backend="libgraph")), 3,
                               H.__networkx_cache__.clear)
        t_cached, got = seconds(lambda: consume(call(backend="libgraph")), 3)
        line = f"row: {name}: libgraph first call {t_first:.3f} s, cached {t_cached * 1e3:.1f} ms"
        if t_nx is not None:
            line += (f"; networkx {t_nx:.3f} s: {t_nx / t_first:.1f}x first, "
                     f"{t_nx / t_cached:.0f}x cached")
            if name == "bfs_tree":
                assert list(got.edges) == list(want.edges), name
            elif name != "pagerank":
                assert got == want, name
        print(line, flush=True)
    if not only:
        builders(G, source)


if __name__ == "__main__":
    main()
