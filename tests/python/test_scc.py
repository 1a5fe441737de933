"""Strongly connected components: lg.strongly_connected_components against
NetworkX (each label its component's smallest vertex), and the NetworkX
backend's functions against NetworkX's own, the order of the components
included."""

import random
import warnings

import networkx as nx
import numpy as np
import pytest

import libgraph as lg

CPU = "cpu"


@pytest.fixture(autouse=True)
def _quiet_cache_note():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(conversions to backend graphs|cached "
                                "graph is being used).*")
        yield


def random_digraph(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 80)
    G = nx.DiGraph()
    G.add_nodes_from(rng.sample(range(1000), n))
    nodes = list(G)
    for _ in range(rng.randint(0, 3 * n)):
        G.add_edge(rng.choice(nodes), rng.choice(nodes))
    for _ in range(rng.randint(0, 3)):  # a few cycles through many nodes
        ring = rng.sample(nodes, rng.randint(1, n))
        nx.add_cycle(G, ring)
    return G


@pytest.mark.parametrize("seed", range(60))
def test_labels_equal_networkx(seed):
    G = random_digraph(seed)
    g = lg.Graph.from_edges(*zip(*G.edges()) if G.number_of_edges() else ([], []),
                            num_vertices=max(G) + 1, directed=True)
    labels = lg.strongly_connected_components(g, device=CPU)
    want = np.arange(g.num_vertices, dtype=np.int32)
    for c in nx.strongly_connected_components(G):
        want[list(c)] = min(c)
    assert np.array_equal(labels, want)
    assert lg.number_strongly_connected_components(g, device=CPU) == len(np.unique(want))
    assert lg.run("strongly_connected_components", g, device=CPU)["count"] == len(np.unique(want))


def test_undirected_is_connected_components():
    G = nx.gnm_random_graph(200, 150, seed=3)
    g = lg.Graph.from_networkx(G)
    assert np.array_equal(lg.strongly_connected_components(g), lg.connected_components(g))


@pytest.mark.parametrize("seed", range(40))
def test_backend_equals_networkx(seed):
    G = random_digraph(100 + seed)
    want = list(nx.strongly_connected_components(G))
    got = list(nx.strongly_connected_components(G, backend="libgraph"))
    assert got == want  # the same sets in the same order
    assert (nx.number_strongly_connected_components(G, backend="libgraph")
            == nx.number_strongly_connected_components(G))
    assert nx.is_strongly_connected(G, backend="libgraph") == nx.is_strongly_connected(G)
    if seed % 4 == 0:
        M = nx.MultiDiGraph(G)
        M.add_edges_from(list(G.edges())[:5])
        assert (list(nx.strongly_connected_components(M, backend="libgraph"))
                == list(nx.strongly_connected_components(M)))


def test_backend_errors():
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_strongly_connected(nx.DiGraph(), backend="libgraph")
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.strongly_connected_components(nx.Graph([(0, 1)]), backend="libgraph")
