"""Betweenness, closeness and harmonic centrality: the module's functions
and the NetworkX backend's against NetworkX's own, on random graphs
(directed and undirected, weighted and not, disconnected, stars, paths,
ties); betweenness exact and from sampled sources (the same sources for
the same seed), every scaling; values to a relative 1e-12 where libgraph
sums in another order, unweighted closeness to the bit; keys in NetworkX's
order."""

import math
import random
import warnings

import networkx as nx
import numpy as np
import pytest

import libgraph as lg

CPU = {"device": "cpu"}
# NetworkX 3.5 changed how a sampled betweenness is scaled; lg's follows 3.5
NEW_RESCALE = tuple(int(x) for x in nx.__version__.split(".")[:2]) >= (3, 5)


@pytest.fixture(autouse=True)
def _quiet_cache_note():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(conversions to backend graphs|cached "
                                "graph is being used).*")
        yield


def random_graph(seed, directed):
    """Random shapes: sparse and dense random graphs, clusters, a star, a
    path; small integer weights on some (equal-length paths tie)."""
    rng = random.Random(seed)
    shape = seed % 5
    n = rng.randint(1, 60)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(rng.sample(range(10 * n + 10), n))
    nodes = list(G)
    if shape == 0:
        for _ in range(rng.randint(0, 3 * n)):
            G.add_edge(rng.choice(nodes), rng.choice(nodes))
    elif shape == 1:  # dense: many shortest paths of one length
        for u in nodes:
            for v in nodes:
                if u != v and rng.random() < 0.3:
                    G.add_edge(u, v)
    elif shape == 2:  # disconnected clusters
        for lo in range(0, n, 7):
            part = nodes[lo:lo + 7]
            for _ in range(2 * len(part)):
                G.add_edge(rng.choice(part), rng.choice(part))
    elif shape == 3:  # a star, both ways when directed
        for v in nodes[1:]:
            G.add_edge(nodes[0], v)
            if directed and rng.random() < 0.5:
                G.add_edge(v, nodes[0])
    else:  # a path
        nx.add_path(G, nodes)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(1, 3)
        G[u][v]["w"] = rng.choice([0.5, 1.5, 0.1, 0.2])
    return G


def close(got, want):
    assert list(got) == list(want)
    for v in want:
        if math.isnan(want[v]):
            assert math.isnan(got[v]), v
        else:
            assert got[v] == pytest.approx(want[v], rel=1e-12, abs=1e-12), v


CASES = [{}, {"normalized": False}, {"endpoints": True}, {"normalized": False, "endpoints": True},
         {"weight": "weight"}, {"weight": "w", "normalized": False}]


@pytest.mark.parametrize("seed", range(60))
def test_backend_equals_networkx(seed):
    G = random_graph(seed, directed=seed % 2 == 1)
    for kw in CASES:
        close(nx.betweenness_centrality(G, backend="libgraph", **kw, **CPU),
              nx.betweenness_centrality(G, **kw))


@pytest.mark.parametrize("seed", range(40))
def test_backend_samples_what_networkx_samples(seed):
    G = random_graph(seed, directed=seed % 2 == 0)
    n = len(G)
    for k in sorted(k for k in {1, 2, n // 2, n - 1, n} if 0 < k <= n):
        for kw in CASES[:4]:
            close(nx.betweenness_centrality(G, k=k, seed=seed, backend="libgraph", **kw, **CPU),
                  nx.betweenness_centrality(G, k=k, seed=seed, **kw))
    # a Random as the seed: the same draws, and the generator left as NetworkX leaves it
    a, b = random.Random(7), random.Random(7)
    k = max(1, n // 3)
    close(nx.betweenness_centrality(G, k=k, seed=a, backend="libgraph"),
          nx.betweenness_centrality(G, k=k, seed=b))
    assert a.random() == b.random()


def test_backend_on_a_real_graph():
    G = nx.read_edgelist(_data("facebook_combined.el"), nodetype=int)
    sub = G.subgraph(list(G)[:600]).copy()
    close(nx.betweenness_centrality(sub, backend="libgraph", **CPU),
          nx.betweenness_centrality(sub))
    close(nx.betweenness_centrality(G, k=40, seed=1, backend="libgraph", **CPU),
          nx.betweenness_centrality(G, k=40, seed=1))


def _data(name):
    import pathlib
    return str(pathlib.Path(__file__).resolve().parents[1] / "data" / name)


def declined(call, reason):
    """call raises NetworkX's NotImplementedError, caused by the backend's
    own saying reason."""
    with pytest.raises(NotImplementedError) as e:
        call()
    assert reason in str(e.value.__cause__ or e.value)


def weighted_path(weights):
    G = nx.path_graph(len(weights) + 1)
    for i, w in enumerate(weights):
        G[i][i + 1]["weight"] = w
    return G


def test_backend_declines_what_it_cannot_match():
    declined(lambda: nx.betweenness_centrality(weighted_path([1, 0.0, 2]), weight="weight",
                                               backend="libgraph"), "zero weight")
    declined(lambda: nx.betweenness_centrality(weighted_path([1, -1.0, 2]), weight="weight",
                                               backend="libgraph"), "betweenness_centrality")
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    declined(lambda: nx.betweenness_centrality(M, weight="weight", backend="libgraph"),
             "multigraph")
    declined(lambda: nx.betweenness_centrality(weighted_path([1, 2]), weight=lambda u, v, d: 1,
                                               backend="libgraph"), "function")
    # unweighted, a multigraph counts each neighbour once, as NetworkX's BFS does
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 3), (1, 3)])
    close(nx.betweenness_centrality(M, backend="libgraph"), nx.betweenness_centrality(M))
    assert nx.betweenness_centrality(nx.Graph(), backend="libgraph") == {}
    with pytest.raises(ValueError):  # NetworkX's own error for k > n
        nx.betweenness_centrality(weighted_path([1, 2]), k=9, seed=1, backend="libgraph")
    declined(lambda: nx.betweenness_centrality(weighted_path([1, 2]), k=0, backend="libgraph"),
             "k 0 is not an int >= 1")


def test_scales_of_either_networkx():
    """The backend's scaling follows the running NetworkX's _rescale; the
    rule before 3.5 (n / k on every node) is checked here against its
    formula, whichever NetworkX runs the suite."""
    from nx_libgraph import interface as nl
    saved = list(nl._NEW_RESCALE)
    try:
        nl._NEW_RESCALE[:] = [False]
        assert nl._betweenness_scales(10, True, False, False, None) == (1 / 72, 1 / 72)
        assert nl._betweenness_scales(10, True, False, False, [1, 2]) == (1 / 72 * 10 / 2,) * 2
        assert nl._betweenness_scales(10, False, False, True, [1, 2]) == (0.5 * 10 / 2,) * 2
        assert nl._betweenness_scales(10, False, True, False, [1, 2]) == (None, None)
        assert nl._betweenness_scales(2, True, False, False, None) == (None, None)
        nl._NEW_RESCALE[:] = [True]
        scale, source = nl._betweenness_scales(10, True, False, False, [1, 2])
        assert (scale, source) == (1 / (2 * 8), 1 / (1 * 8))
        assert math.isnan(nl._betweenness_scales(10, True, False, False, [1])[1])
    finally:
        nl._NEW_RESCALE[:] = saved


@pytest.mark.parametrize("seed", range(20))
def test_module_function_equals_networkx(seed):
    G = random_graph(seed + 100, directed=seed % 2 == 0)
    g = lg.Graph.from_networkx(G)
    for kw in CASES[:4]:
        want = nx.betweenness_centrality(G, **kw)
        got = lg.betweenness_centrality(g, **kw, **CPU)
        assert isinstance(got, np.ndarray) and got.dtype == np.float64
        close(dict(zip(G, got.tolist())), want)
    want = nx.betweenness_centrality(G, weight="weight")
    close(dict(zip(G, lg.betweenness_centrality(g, weight="weight").tolist())), want)
    if not NEW_RESCALE:
        return  # the module scales samples as NetworkX 3.5 and later do
    k = max(1, len(G) // 2)
    want = nx.betweenness_centrality(G, k=k, seed=seed)
    close(dict(zip(G, lg.betweenness_centrality(g, k=k, seed=seed).tolist())), want)
    # the sample given as node keys: the same result
    sample = random.Random(seed).sample(list(G), k)
    if k != len(G):
        close(dict(zip(G, lg.betweenness_centrality(g, sources=sample).tolist())), want)


def test_module_function_arguments():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3])
    got = lg.betweenness_centrality(g, normalized=False)
    assert got.tolist() == [0.0, 2.0, 2.0, 0.0]
    out = np.full(4, -1.0)
    assert lg.betweenness_centrality(g, normalized=False, out=out) is out
    assert out.tolist() == [0.0, 2.0, 2.0, 0.0]
    with pytest.raises(TypeError, match="not both"):
        lg.betweenness_centrality(g, k=2, sources=[0, 1])
    with pytest.raises(ValueError, match="k >= 1"):
        lg.betweenness_centrality(g, k=0)
    with pytest.raises(ValueError, match="empty"):
        lg.betweenness_centrality(g, sources=[])
    one = lg.betweenness_centrality(g, sources=1, normalized=False)  # one vertex: a sample of 1
    assert np.array_equal(one, lg.betweenness_centrality(g, sources=[1], normalized=False),
                          equal_nan=True)
    with pytest.raises(ValueError, match="given twice"):
        lg.betweenness_centrality(g, sources=[0, 0])
    with pytest.raises(ValueError, match="not a vertex"):
        lg.betweenness_centrality(g, sources=[7])
    assert lg.run("betweenness_centrality", g, normalized=False)["centrality"].tolist() == \
        [0.0, 2.0, 2.0, 0.0]
    assert lg.run("betweenness_centrality", g, rescale=False)["centrality"].tolist() == \
        [0.0, 4.0, 4.0, 0.0]
    s = g.to_pandas(got, "betweenness")
    assert s.tolist() == got.tolist()


# ---- edge betweenness --------------------------------------------------------------------

EDGE_CASES = [{}, {"normalized": False}, {"weight": "weight"},
              {"weight": "w", "normalized": False}]


@pytest.mark.parametrize("seed", range(40))
def test_edge_betweenness_equals_networkx(seed):
    G = random_graph(seed + 200, directed=seed % 2 == 1)
    if seed % 3 == 0 and len(G):
        G.add_edge(next(iter(G)), next(iter(G)))  # a self-loop: in G.edges(), on no path
    for kw in EDGE_CASES:
        close(nx.edge_betweenness_centrality(G, backend="libgraph", **kw, **CPU),
              nx.edge_betweenness_centrality(G, **kw))
    # sampled sources: the same draws for the same seed, either NetworkX's scaling
    n = len(G)
    for k in sorted({1, max(1, n // 2), n}):
        for kw in EDGE_CASES[:3]:
            close(nx.edge_betweenness_centrality(G, k=k, seed=seed, backend="libgraph", **kw,
                                                 **CPU),
                  nx.edge_betweenness_centrality(G, k=k, seed=seed, **kw))


SUBSET_CASES = [{}, {"normalized": True}, {"weight": "weight"},
                {"weight": "w", "normalized": True}]


@pytest.mark.parametrize("seed", range(40))
def test_betweenness_subset_equals_networkx(seed):
    """The backend's and the module's subset betweenness against NetworkX's:
    random sources and targets (repeated targets, a target among the
    sources, a key not in G among the targets, no targets)."""
    G = random_graph(seed + 300, directed=seed % 2 == 1)
    nodes = list(G)
    rng = random.Random(seed)
    sources = rng.sample(nodes, rng.randint(1, len(nodes)))
    targets = [rng.choice(nodes) for _ in range(rng.randint(1, 2 * len(nodes)))]
    for kw in SUBSET_CASES:
        want = nx.betweenness_centrality_subset(G, sources, targets, **kw)
        close(nx.betweenness_centrality_subset(G, sources, targets, backend="libgraph", **kw,
                                               **CPU), want)
        g = lg.Graph.from_networkx(G, weight=kw.get("weight"))  # the call's weights
        got = lg.betweenness_centrality_subset(g, sources, targets, **kw, **CPU)
        close(dict(zip(g.nodes, got.tolist())), want)
    close(nx.betweenness_centrality_subset(G, sources, targets + [-1], backend="libgraph",
                                           **CPU),
          nx.betweenness_centrality_subset(G, sources, targets))
    close(nx.betweenness_centrality_subset(G, sources, [], backend="libgraph", **CPU),
          nx.betweenness_centrality_subset(G, sources, []))
    assert not lg.betweenness_centrality_subset(lg.Graph.from_networkx(G), [], targets).any()


def test_betweenness_subset_declines():
    G = random_graph(5, directed=False)
    nodes = list(G)
    interface = pytest.importorskip("nx_libgraph.interface")
    for sources, targets, why in [
            ([nodes[0], nodes[0]], nodes, "not distinct"),
            ([-1], nodes, "not distinct"),
            (iter(nodes), nodes, "sources is not a collection"),
            (nodes, iter(nodes), "targets is not a collection")]:
        got = interface._refusal("betweenness_centrality_subset", (G, sources, targets), {})
        assert isinstance(got, str) and why in got, got
    with pytest.raises(ValueError, match="given twice"):
        lg.betweenness_centrality_subset(lg.Graph.from_networkx(G), [nodes[0]] * 2, nodes)


def test_edge_betweenness_module_function():
    for directed in (False, True):
        G = random_graph(7, directed)
        g = lg.Graph.from_networkx(G)
        offsets, indices, _ = g.csr()
        tails = np.repeat(np.arange(g.num_vertices), np.diff(offsets))
        for kw in EDGE_CASES[:3]:
            got = lg.edge_betweenness_centrality(g, **kw, **CPU)
            assert got.dtype == np.float64 and len(got) == g.num_edges
            want = nx.edge_betweenness_centrality(G, **kw)
            nodes = g.nodes
            arcs = {(nodes[u], nodes[v]): x
                    for u, v, x in zip(tails.tolist(), indices.tolist(), got.tolist())}
            # every edge's arc (both arcs of an undirected edge) holds its value
            for (u, v), x in want.items():
                for arc in [(u, v)] if directed else [(u, v), (v, u)]:
                    assert arcs[arc] == pytest.approx(x, rel=1e-12, abs=1e-12), arc
        k = max(1, len(G) // 3)
        got = lg.edge_betweenness_centrality(g, k=k, seed=3, **CPU)
        sample = random.Random(3).sample(list(G), k)
        assert np.array_equal(got, lg.edge_betweenness_centrality(g, sources=sample, **CPU))
    # a path: edge i - (i + 1) on (i + 1) (n - 1 - i) paths, each arc of it
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3])
    assert lg.edge_betweenness_centrality(g, normalized=False).tolist() == \
        [3.0, 3.0, 4.0, 4.0, 3.0, 3.0]
    out = np.zeros(6)
    assert lg.edge_betweenness_centrality(g, normalized=False, out=out) is out
    assert lg.run("edge_betweenness_centrality", g, rescale=False)["centrality"].tolist() == \
        [6.0, 6.0, 8.0, 8.0, 6.0, 6.0]
    with pytest.raises(ValueError, match=r"needs 6 \(one per arc\)"):
        lg.edge_betweenness_centrality(g, out=np.zeros(4))
    with pytest.raises(TypeError, match="not both"):
        lg.edge_betweenness_centrality(g, k=2, sources=[0, 1])
    with pytest.raises(ValueError, match="lg_edge_betweenness: source 0 is given twice"):
        lg.edge_betweenness_centrality(g, sources=[0, 0])


def test_edge_betweenness_declines():
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    declined(lambda: nx.edge_betweenness_centrality(M, backend="libgraph"), "multigraph")
    declined(lambda: nx.edge_betweenness_centrality(weighted_path([1, 0.0, 2]), weight="weight",
                                                    backend="libgraph"), "zero weight")
    assert nx.edge_betweenness_centrality(nx.Graph(), backend="libgraph") == {}


# ---- closeness and harmonic centrality -------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_closeness_and_harmonic_equal_networkx(seed):
    G = random_graph(seed + 200, directed=seed % 2 == 0)
    for wf in (True, False):
        got = nx.closeness_centrality(G, wf_improved=wf, backend="libgraph", **CPU)
        assert got == nx.closeness_centrality(G, wf_improved=wf)  # to the bit, in order
        close(nx.closeness_centrality(G, distance="w", wf_improved=wf, backend="libgraph"),
              nx.closeness_centrality(G, distance="w", wf_improved=wf))
    for distance in (None, "weight", "w"):
        got = nx.harmonic_centrality(G, distance=distance, backend="libgraph", **CPU)
        want = nx.harmonic_centrality(G, distance=distance)
        close(got, want)
        assert [type(x) for x in got.values()] == [type(x) for x in want.values()]


def test_closeness_declines_and_module_functions():
    G = weighted_path([1.0, 2.0, 0.5])
    declined(lambda: nx.closeness_centrality(G, u=1, backend="libgraph"), "u is given")
    declined(lambda: nx.harmonic_centrality(G, nbunch=[1], backend="libgraph"), "nbunch")
    declined(lambda: nx.harmonic_centrality(G, sources=[1], backend="libgraph"), "sources")
    declined(lambda: nx.closeness_centrality(G, distance=lambda u, v, d: 1, backend="libgraph"),
             "function")
    declined(lambda: nx.closeness_centrality(weighted_path([1, -1.0]), distance="weight",
                                             backend="libgraph"), "closeness_centrality")
    g = lg.Graph.from_networkx(G)
    assert lg.closeness_centrality(g).tolist() == list(nx.closeness_centrality(G).values())
    close(dict(zip(G, lg.closeness_centrality(g, "weight").tolist())),
          nx.closeness_centrality(G, distance="weight"))
    close(dict(zip(G, lg.harmonic_centrality(g, distance="weight").tolist())),
          nx.harmonic_centrality(G, distance="weight"))
    out = np.zeros(4)
    assert lg.harmonic_centrality(g, out=out) is out
    got = lg.run("closeness_centrality", g, harmonic=True, use_weights=False)["centrality"]
    assert got.tolist() == \
        out.tolist()


@pytest.mark.parametrize("seed", range(30))
def test_degree_centralities_equal_networkx(seed):
    G = random_graph(seed + 300, directed=seed % 2 == 0)
    G.add_edges_from([(v, v) for v in list(G)[::5]])  # self-loops count twice undirected
    assert nx.degree_centrality(G, backend="libgraph") == nx.degree_centrality(G)
    if G.is_directed():
        for f in (nx.in_degree_centrality, nx.out_degree_centrality):
            assert f(G, backend="libgraph") == f(G)
    declined(lambda: nx.degree_centrality(nx.MultiGraph(G), backend="libgraph"), "multigraph")
