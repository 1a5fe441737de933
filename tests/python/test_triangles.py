"""Triangles and clustering: the module's functions and the NetworkX
backend's against NetworkX's own on random undirected graphs (self-loops,
isolated nodes, clusters, stars, paths, cliques, multigraphs for
triangles), exactly: the counts are integers, and the coefficients, their
mean and the transitivity come from them by NetworkX's formulas in node
order; nodes= forms; the refusals (directed graphs) and what the backend
declines."""

import random

import networkx as nx
import numpy as np
import pytest

import libgraph as lg
from test_centrality import declined, random_graph


def with_loops(seed):
    """random_graph's shapes, undirected, some with self-loops and a clique."""
    G = random_graph(seed, False)
    rng = random.Random(seed)
    nodes = list(G)
    if seed % 3 == 0 and nodes:
        for v in rng.sample(nodes, min(3, len(nodes))):
            G.add_edge(v, v)
    if seed % 4 == 1 and len(nodes) >= 5:
        clique = rng.sample(nodes, 5)
        G.add_edges_from((u, v) for u in clique for v in clique if u != v)
    return G


@pytest.mark.parametrize("seed", range(40))
def test_equal_networkx(seed):
    G = with_loops(seed)
    g = lg.Graph.from_networkx(G)
    t, c = lg.triangles(g), lg.clustering(g)
    assert t.dtype == np.int64 and c.dtype == np.float64
    want_t, want_c = nx.triangles(G), nx.clustering(G)
    assert dict(zip(G, t.tolist())) == want_t
    assert dict(zip(G, c.tolist())) == want_c
    assert lg.transitivity(g) == nx.transitivity(G)
    assert lg.average_clustering(g) == nx.average_clustering(G)
    if any(want_c.values()):
        assert lg.average_clustering(g, count_zeros=False) == \
            nx.average_clustering(G, count_zeros=False)
    # the backend, its results' keys in NetworkX's order
    for f in (nx.triangles, nx.clustering):  # the values' types too (NetworkX's int 0)
        got, want = f(G, backend="libgraph"), f(G)
        assert list(got.items()) == list(want.items())
        assert [type(x) for x in got.values()] == [type(x) for x in want.values()]
    got, want = nx.transitivity(G, backend="libgraph"), nx.transitivity(G)
    assert got == want and type(got) is type(want)
    assert nx.average_clustering(G, backend="libgraph") == nx.average_clustering(G)
    nodes = list(G)
    if nodes:
        some = random.Random(seed).sample(nodes, min(4, len(nodes)))
        for f in (nx.triangles, nx.clustering):
            assert f(G, some, backend="libgraph") == f(G, some)
            assert f(G, some[0], backend="libgraph") == f(G, some[0])
        assert nx.average_clustering(G, some, backend="libgraph") == \
            nx.average_clustering(G, some)


def test_multigraph_and_out_arrays():
    G = nx.MultiGraph([(0, 1), (1, 2), (2, 0), (0, 1), (2, 3), (3, 3)])
    assert nx.triangles(G, backend="libgraph") == nx.triangles(G)
    g = lg.Graph.from_networkx(nx.complete_graph(30))
    out = np.empty(30, np.int64)
    assert lg.triangles(g, out=out) is out and (out == 29 * 28 // 2).all()
    cout = np.empty(30)
    assert lg.clustering(g, out=cout) is cout and (cout == 1.0).all()
    with pytest.raises(TypeError, match="int64 array"):
        lg.triangles(g, out=np.empty(30, np.int32))
    r = lg.run("triangles", g)
    assert r["total"] == 30 * 29 * 28 // 6 and r["triangles"].dtype == np.int64
    r = lg.run("clustering", g)
    assert r["average"] == 1.0 and r["transitivity"] == 1.0


def test_refusals_and_declines():
    D = lg.Graph.from_networkx(nx.DiGraph([(0, 1), (1, 2), (2, 0)]))
    with pytest.raises(ValueError, match="the graph is directed"):
        lg.triangles(D)
    with pytest.raises(ValueError, match="the graph is directed"):
        lg.clustering(D)
    empty = lg.Graph.from_networkx(nx.Graph())
    assert len(lg.triangles(empty)) == 0 and lg.transitivity(empty) == 0.0
    with pytest.raises(ZeroDivisionError):
        lg.average_clustering(empty)
    with pytest.raises(ZeroDivisionError):
        nx.average_clustering(nx.Graph(), backend="libgraph")
    G = nx.DiGraph(nx.gnp_random_graph(30, 0.2, seed=3, directed=True))
    declined(lambda: nx.clustering(G, backend="libgraph"), "a directed graph")
    W = nx.path_graph(5)
    declined(lambda: nx.clustering(W, weight="weight", backend="libgraph"), "weight is given")
    M = nx.MultiGraph([(0, 1), (1, 2)])
    declined(lambda: nx.clustering(M, backend="libgraph"), "a multigraph")
    declined(lambda: nx.triangles(M, [0], backend="libgraph"), "nodes of a multigraph")
