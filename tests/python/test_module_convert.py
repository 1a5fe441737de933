"""Graphs from other forms: Graph.from_csr, from_scipy (every scipy.sparse
format) and from_networkx (node keys, weight attributes, multigraphs),
against the same graph built from edges and against NetworkX's answers.
"""
import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

lg = pytest.importorskip("libgraph")

from graph_cases import CPU, case, cases, close, same_graph, scipy_csr  # noqa: E402


# ---------------------------------------------------------------------------
# from_csr, from_scipy, from_networkx
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape,seed,directed,weighted",
                         cases(["random", "selfloops", "duplicates", "isolated", "no_edges",
                                "single"], (4,)))
def test_from_csr_and_from_scipy(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    A = scipy_csr(c.n, c.src, c.dst, c.w, directed)
    A32 = sp.csr_array((A.data.astype(np.float32), A.indices, A.indptr), shape=A.shape)
    gs = lg.Graph.from_edges(c.src, c.dst, c.w, num_vertices=c.n, directed=directed,
                             duplicates="sum")
    w = A32.data if weighted else None
    g = lg.Graph.from_csr(A.indptr, A.indices, w, directed=directed)
    same_graph(g, gs, rtol=1e-6)
    g = lg.Graph.from_csr(A.indptr.astype(np.int64), A.indices.astype(np.int32),
                          None if w is None else w.astype(np.float32), directed=directed)
    same_graph(g, gs, rtol=1e-6)
    # every scipy.sparse format of the same matrix gives the same graph
    # (a symmetric COO matrix too: it is the same matrix as its CSR)
    for M in (A32, sp.csr_matrix(A32), A32.tocsc(), A32.tocoo(), sp.coo_matrix(A32),
              A32.tolil(), A32.todok()):
        g = lg.Graph.from_scipy(M, directed=directed, weighted=weighted)
        same_graph(g, gs, rtol=1e-6)
    # the answers are SciPy's/NetworkX's on the matrix
    if c.n:
        Gm = nx.from_scipy_sparse_array(A32, create_using=nx.DiGraph if directed else nx.Graph)
        g = lg.Graph.from_scipy(A32, directed=directed)
        r = nx.pagerank(Gm, tol=1e-10, max_iter=1000, weight="weight")
        close(lg.pagerank(g, tol=1e-10, max_iter=1000, device=CPU),
              np.array([r[v] for v in range(c.n)]))


def test_from_scipy_coo_duplicates_sum():
    row = np.array([0, 0, 1, 2, 0])
    col = np.array([1, 1, 2, 0, 1])
    data = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    M = sp.coo_array((data, (row, col)), shape=(4, 4))
    g = lg.Graph.from_scipy(M, directed=True)
    A = M.tocsr()
    A.sort_indices()
    off, idx, w = g.csr()
    np.testing.assert_array_equal(off, A.indptr)
    np.testing.assert_array_equal(idx, A.indices)
    np.testing.assert_array_equal(w, A.data.astype(np.float32))
    assert g.num_vertices == 4 and g.directed


def test_from_scipy_undirected_and_symmetrize():
    rng = np.random.default_rng(5)
    M = sp.random_array((50, 50), density=0.1, random_state=rng, format="csr")
    M.data = np.round(M.data * 8 + 1)  # exact in float32
    M.setdiag(0)
    M.eliminate_zeros()  # (a loop is stored once: M + M.T would double it)
    S = (M + M.T).tocsr()
    g = lg.Graph.from_scipy(S, directed=False)
    assert not g.directed and g.num_edges == S.nnz
    with pytest.raises(ValueError):
        lg.Graph.from_scipy(M, directed=False)  # not symmetric
    g2 = lg.Graph.from_scipy(M, directed=False, symmetrize=True, duplicates="sum")
    same_graph(g2, g)
    with pytest.raises(ValueError):
        lg.Graph.from_scipy(sp.csr_array((3, 4)))


def test_from_networkx_keys():
    rng = np.random.default_rng(8)
    for directed in (False, True):
        G = nx.DiGraph() if directed else nx.Graph()
        names = [f"n{i}" for i in range(40)] + [("t", 1), 3.5, frozenset({1})]
        rng.shuffle(names)
        G.add_nodes_from(names)
        for _ in range(120):
            a, b = rng.integers(0, len(names), 2)
            G.add_edge(names[a], names[b], weight=float(rng.integers(1, 5)))
        G.add_node("lonely")
        # a few edges without the attribute: weight 1, as NetworkX
        G.add_edge(names[0], "lonely")
        for u, v in list(G.edges())[:5]:
            G[u][v].pop("weight", None)
        g = lg.Graph.from_networkx(G)
        assert g.nodes == list(G.nodes) and g.num_vertices == len(G)
        assert g.directed == directed and g.weighted
        assert "networkx" in repr(g) or "nodes" in repr(g) or str(len(G)) in repr(g)
        idx = {k: i for i, k in enumerate(g.nodes)}
        # PageRank with and without weights, personalization keyed by node keys
        pers = {names[0]: 1.0, names[5]: 2.0, "lonely": 0.5}
        for kw in ({}, {"weight": None}, {"personalization": pers},
                   {"personalization": pers, "dangling": {names[3]: 1.0}},
                   {"nstart": {k: 1.0 for k in names[:10]}}):
            want = nx.pagerank(G, tol=1e-10, max_iter=1000, **kw)
            got = lg.pagerank(g, tol=1e-10, max_iter=1000, device=CPU, **kw)
            close(got, np.array([want[k] for k in g.nodes]))
        # BFS from a node key, and from a list of keys
        for s in (names[1], ("t", 1), 3.5):
            want = nx.single_source_shortest_path_length(G, s)
            d = lg.bfs(g, s, device=CPU)
            assert {g.nodes[i]: int(x) for i, x in enumerate(d) if x >= 0} == want
        d = lg.bfs(g, [names[1], names[2]], device=CPU)
        w1 = nx.single_source_shortest_path_length(G, names[1])
        w2 = nx.single_source_shortest_path_length(G, names[2])
        for k in G:
            x = min(w1.get(k, 10 ** 9), w2.get(k, 10 ** 9))
            assert d[idx[k]] == (x if x < 10 ** 9 else -1)
        # components
        labels = lg.connected_components(g, device=CPU)
        comps = nx.weakly_connected_components(G) if directed else nx.connected_components(G)
        for comp in comps:
            ids = [idx[k] for k in comp]
            assert set(labels[ids].tolist()) == {min(ids)}
        # an unweighted copy
        gu = lg.Graph.from_networkx(G, weight=None)
        assert not gu.weighted
        want = nx.pagerank(G, weight=None, tol=1e-10, max_iter=1000)
        close(lg.pagerank(gu, tol=1e-10, max_iter=1000, device=CPU),
              np.array([want[k] for k in g.nodes]))
        # a key that is not a node
        with pytest.raises((KeyError, ValueError)):
            lg.bfs(g, "nope", device=CPU)
        with pytest.raises((KeyError, ValueError)):
            lg.pagerank(g, personalization={"nope": 1.0}, device=CPU)


def test_from_networkx_multigraph_and_integer_keys():
    G = nx.MultiDiGraph()
    G.add_nodes_from([10, 3, 7, 42])
    G.add_edge(10, 3, weight=1.0)
    G.add_edge(10, 3, weight=2.0)  # parallel: PageRank adds them
    G.add_edge(3, 7, weight=1.0)
    G.add_edge(7, 10, weight=0.5)
    g = lg.Graph.from_networkx(G)
    # the parallel edges are one arc weighing their sum, as in NetworkX's matrices
    assert g.nodes == [10, 3, 7, 42] and g.num_edges == 3
    off, idx, w = g.csr()
    assert off.tolist() == [0, 1, 2, 3, 3] and idx.tolist() == [1, 2, 0]
    assert w.tolist() == [3.0, 1.0, 0.5]
    # weight=None: an arc weighs its number of parallel edges
    assert lg.Graph.from_networkx(G, weight=None).csr()[2].tolist() == [2.0, 1.0, 1.0]
    want = nx.pagerank(G, tol=1e-12, max_iter=1000)
    close(lg.pagerank(g, tol=1e-12, max_iter=1000, device=CPU),
          np.array([want[k] for k in g.nodes]))
    # integer keys are node keys, not vertex ids
    d = lg.bfs(g, 3, device=CPU)
    assert d.tolist() == [2, 0, 1, -1]
    x = lg.pagerank(g, personalization={42: 1.0}, tol=1e-12, max_iter=1000, device=CPU)
    want = nx.pagerank(G, personalization={42: 1.0}, tol=1e-12, max_iter=1000)
    close(x, np.array([want[k] for k in g.nodes]))
    # an empty NetworkX graph
    g = lg.Graph.from_networkx(nx.Graph())
    assert g.num_vertices == 0 and g.nodes == []


def test_from_scipy_symmetric_coo_is_the_same_graph_as_its_csr():
    """A symmetric matrix read as an undirected graph: the same graph whether
    it comes as COO or as CSR (entries (u, v) and (v, u) are the two arcs of
    one edge of weight A[u, v], not two copies to add up)."""
    A = sp.csr_array(np.array([[0, 2, 0], [2, 0, 3], [0, 3, 1]], dtype=np.float32))
    g_csr = lg.Graph.from_scipy(A, directed=False)
    g_coo = lg.Graph.from_scipy(A.tocoo(), directed=False)
    np.testing.assert_array_equal(g_csr.csr()[2], [2, 2, 3, 3, 1])
    same_graph(g_coo, g_csr)
    # and a non-symmetric COO matrix is refused as the CSR one is
    B = sp.coo_array(np.array([[0, 2, 0], [0, 0, 3], [0, 0, 0]], dtype=np.float32))
    with pytest.raises(ValueError):
        lg.Graph.from_scipy(B.tocsr(), directed=False)
    with pytest.raises(ValueError):
        lg.Graph.from_scipy(B, directed=False)


def test_from_networkx_other_weight_attribute():
    G = nx.DiGraph()
    G.add_edge("a", "b", cap=3.0, weight=1.0)
    G.add_edge("b", "c", cap=1.0, weight=5.0)
    G.add_edge("c", "a", cap=2.0, weight=1.0)
    G.add_edge("a", "c", cap=0.5, weight=1.0)
    G.add_edge("b", "a")  # no attributes: weight 1
    for attr in ("cap", "weight"):
        g = lg.Graph.from_networkx(G, weight=attr)
        want = nx.pagerank(G, weight=attr, tol=1e-12, max_iter=1000)
        close(lg.pagerank(g, tol=1e-12, max_iter=1000, device=CPU),
              np.array([want[k] for k in g.nodes]))


def _arcs(G):
    """Every stored arc of a NetworkX graph with its data: both ways for an
    undirected edge, once for a self-loop."""
    for u, nbrs in G.adjacency():
        for v, d in nbrs.items():
            yield u, v, d


def test_from_networkx_reads_any_node_keys_like_networkx():
    """The adjacency read in C (networkx.c) against NetworkX's own matrix, for
    string, tuple, mixed and integer keys (ints in a short span take an array
    path, others the node dict), keys equal but not identical (True is 1),
    missing and present weights, self-loops and isolated nodes."""
    import random

    rng = random.Random(7)
    for keys in (lambda i: f"v{i}", lambda i: (i, "x"), lambda i: i * 1000003,
                 lambda i: 5 - i, lambda i: i if i % 2 else str(i)):
        for directed in (False, True):
            G = nx.DiGraph() if directed else nx.Graph()
            n = 60
            G.add_nodes_from(keys(i) for i in range(n))
            for _ in range(150):
                u, v = keys(rng.randrange(n)), keys(rng.randrange(n))
                if rng.random() < 0.5:
                    G.add_edge(u, v, weight=rng.choice([0.5, 2, 3.25]))
                else:
                    G.add_edge(u, v)
            # rebuilt keys: equal objects that are not the nodes' own
            u, v = keys(1), keys(2)
            if isinstance(u, str):
                u, v = "".join(list(u)), "".join(list(v))
            G.add_edge(u, v, weight=1.5)
            g = lg.Graph.from_networkx(G)  # a missing weight is 1, as in NetworkX's matrix
            assert g.nodes == list(G)
            want = nx.to_scipy_sparse_array(G, nodelist=g.nodes, weight="weight", format="csr")
            assert g.num_edges == want.nnz
            assert abs(g.to_scipy() - want).max() == 0
            g = lg.Graph.from_networkx(G, default_weight=0.25)
            assert sorted(g.csr()[2].tolist()) == sorted(
                d.get("weight", 0.25) for a, b, d in _arcs(G))
    G = nx.Graph()
    G.add_edge(1, 2)
    G.add_edge(True, 3)  # True is node 1
    g = lg.Graph.from_networkx(G, weight=None)
    assert g.nodes == [1, 2, 3] and g.csr()[1].tolist() == [1, 2, 0, 0]
    G = nx.Graph()
    G.add_edge("a", "b", weight="heavy")
    with pytest.raises(ValueError, match="weight"):
        lg.Graph.from_networkx(G)
    assert lg.Graph.from_networkx(G, weight=None).num_edges == 2
    G = nx.Graph()
    G.add_edge("a", "b")
    G._adj["a"]["ghost"] = {}  # a neighbour that is not a node
    with pytest.raises(KeyError, match="ghost"):
        lg.Graph.from_networkx(G)


def test_from_networkx_graph_changed_by_its_own_objects_while_read():
    """A weight whose __float__, or a key whose __eq__, changes the graph in
    the middle of the read: a clear error (or a graph read consistently),
    never a crash, whichever path of the C read it takes."""

    class Meddling:
        def __init__(self, G, whole):
            self.G, self.whole = G, whole

        def __float__(self):
            if self.whole:  # every row and edge dict loses the graph's references
                self.G._adj.clear()
            else:  # the row being read
                self.G._adj[3].clear()
            return 2.0

    for directed in (False, True):
        for whole in (True, False):
            G = nx.DiGraph() if directed else nx.Graph()
            G.add_edges_from((i, i + 1) for i in range(50))
            G.add_edge(3, 4, weight=Meddling(G, whole))
            G.add_edge(3, 9, weight=1.0)
            if whole:  # the rows were held: the graph as it was when the read began
                g = lg.Graph.from_networkx(G)
                assert (g.num_vertices, g.num_edges) == (51, 51 if directed else 102)
                w = g.csr()[2].tolist()
                assert w.count(2.0) == (1 if directed else 2) and w.count(1.0) == len(w) - w.count(2.0)
            else:
                with pytest.raises(RuntimeError, match="changed while read"):
                    lg.Graph.from_networkx(G)

    class Key:
        """Equal to the node key it names, but not the same object, so the
        read looks it up in the node dict, which runs this __eq__."""

        def __init__(self, name, G=None):
            self.name, self.G = name, G

        def __hash__(self):
            return hash(self.name)

        def __eq__(self, other):
            if self.G is not None and self.G._adj:
                for row in list(self.G._adj.values()):
                    row.clear()
            return isinstance(other, Key) and other.name == self.name

    G = nx.Graph()
    G.add_nodes_from(Key(i) for i in range(20))
    for i in range(19):
        G._adj[Key(i)][Key(i + 1, G)] = {}
        G._adj[Key(i + 1)][Key(i, G)] = {}
    for weight in (None, "weight"):
        try:
            g = lg.Graph.from_networkx(G, weight=weight)
        except (RuntimeError, KeyError):
            continue
        assert g.num_vertices == 20  # read before the rows emptied: consistent


def test_from_networkx_weights_that_float32_cannot_hold_are_refused():
    """A positive weight that would round to 0 makes its vertex dangling and
    changes PageRank without a word: refused, as from_edges refuses it."""
    for w, why in [(1e-50, "rounds to 0 in float32"), (1e39, "too large for float32")]:
        G = nx.cycle_graph(3)
        nx.set_edge_attributes(G, 1.0, "weight")
        G[0][1]["weight"] = w
        with pytest.raises(ValueError, match=f"the weight of edge .* {why}"):
            lg.Graph.from_networkx(G, weight="weight", weight_dtype="float32")
        with pytest.raises(ValueError, match=why):
            lg.Graph.from_edges([0, 1], [1, 2], weights=[w, 1.0], weight_dtype="float32")
        # float64, NetworkX's own type, holds them
        g = lg.Graph.from_networkx(G, weight="weight")
        assert g.weight_dtype == "float64" and w in g.csr()[2].tolist()
    with pytest.raises(ValueError, match="default_weight: 1e-50 rounds to 0"):
        lg.Graph.from_networkx(nx.path_graph(3), weight="weight", default_weight=1e-50,
                               weight_dtype="float32")
    for bad in (float("nan"), float("inf")):
        G = nx.path_graph(3)
        G[0][1]["weight"] = bad
        with pytest.raises(ValueError, match="the weight of edge"):
            lg.Graph.from_networkx(G, weight="weight")
