"""The Graph object of the Python module: from_edges' options and the accessors.

csr() against SciPy's CSR of the same edges, degrees against bincount,
the duplicate policies, symmetrize and drop_self_loops, num_vertices, repr,
and the read-only, zero-copy views that keep their graph alive.  The input
arrays are in test_module_arrays.py, the other constructors in
test_module_convert.py.
"""
import numpy as np
import pytest
import scipy.sparse as sp

lg = pytest.importorskip("libgraph")

from graph_cases import CPU, case, cases, csr_arcs, scipy_csr  # noqa: E402


# ---------------------------------------------------------------------------
# Building: from_edges options, csr(), degrees, repr
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape,seed,directed,weighted", cases())
def test_csr_matches_scipy(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    g = c.g
    assert g.num_vertices == c.n and g.directed == directed and g.weighted == weighted
    off, idx, w = g.csr()
    assert off.dtype == np.int64 and idx.dtype == np.int32 and len(off) == c.n + 1
    assert (w is None) == (not weighted)
    if weighted:
        assert w.dtype == np.float32 and len(w) == len(idx)
    assert g.num_edges == len(idx) == off[-1]
    # rows sorted by destination
    rows, cols, ws = csr_arcs(g)
    key = rows.astype(np.int64) * max(c.n, 1) + cols
    assert np.all(np.diff(key) >= 0)
    # "keep": every arc of the input, as a multiset (undirected: both ways, loops once)
    A = scipy_csr(c.n, c.src, c.dst, c.w, directed)
    m_want = len(c.src) if directed else 2 * len(c.src) - int(np.sum(c.src == c.dst))
    assert g.num_edges == m_want
    counts = sp.coo_array((np.ones(len(rows)), (rows, cols)), shape=(c.n, c.n)).tocsr()
    want_counts = scipy_csr(c.n, c.src, c.dst, None, directed)
    assert (counts != want_counts).nnz == 0
    # "sum" merges the copies: exactly SciPy's CSR of the same edges
    gs = lg.Graph.from_edges(c.src, c.dst, c.w, num_vertices=c.n, directed=directed,
                             duplicates="sum")
    off, idx, w = gs.csr()
    np.testing.assert_array_equal(off, A.indptr)
    np.testing.assert_array_equal(idx, A.indices)
    if weighted:
        np.testing.assert_allclose(w, A.data, rtol=1e-6)
    # views: read-only, zero-copy, keep the graph alive
    assert not off.flags.writeable and not idx.flags.writeable
    with pytest.raises(ValueError):
        off[0] = 1
    off2, _, _ = gs.csr()
    assert np.shares_memory(off, off2)


@pytest.mark.parametrize("shape,seed,directed,weighted", cases())
def test_degrees_match_bincount(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    out_d, in_d, deg = c.g.out_degrees(), c.g.in_degrees(), c.g.degrees()
    for d in (out_d, in_d, deg):
        assert d.dtype == np.int64 and d.shape == (c.n,)
    bs = np.bincount(c.src, minlength=c.n)
    bd = np.bincount(c.dst, minlength=c.n)
    if directed:
        np.testing.assert_array_equal(out_d, bs)
        np.testing.assert_array_equal(in_d, bd)
    else:
        loops = np.bincount(c.src[c.src == c.dst], minlength=c.n)
        np.testing.assert_array_equal(out_d, bs + bd - loops)
        np.testing.assert_array_equal(in_d, out_d)
    np.testing.assert_array_equal(deg, out_d)
    np.testing.assert_array_equal(out_d, np.diff(c.g.csr()[0]))


def test_duplicates_policies():
    src = [0, 0, 0, 1, 2, 2]
    dst = [1, 1, 1, 2, 0, 0]
    w = [3.0, 1.0, 2.0, 5.0, 4.0, 0.5]
    want = {"sum": [6.0, 5.0, 4.5], "min": [1.0, 5.0, 0.5], "max": [3.0, 5.0, 4.0],
            "first": [3.0, 5.0, 4.0], "last": [2.0, 5.0, 0.5]}
    for policy, ws in want.items():
        g = lg.Graph.from_edges(src, dst, w, directed=True, duplicates=policy)
        off, idx, gw = g.csr()
        assert g.num_edges == 3
        np.testing.assert_array_equal(idx, [1, 2, 0])
        np.testing.assert_array_equal(gw, np.array(ws, np.float32), err_msg=policy)
    g = lg.Graph.from_edges(src, dst, w, directed=True, duplicates="keep")
    off, idx, gw = g.csr()
    assert g.num_edges == 6
    np.testing.assert_array_equal(idx, [1, 1, 1, 2, 0, 0])
    np.testing.assert_array_equal(gw, np.array(w, np.float32))  # input order kept
    # undirected: (u, v) and (v, u) are the same edge
    g = lg.Graph.from_edges([0, 1], [1, 0], [1.0, 2.0], directed=False, duplicates="sum")
    assert g.num_edges == 2
    np.testing.assert_array_equal(g.csr()[2], [3.0, 3.0])


def test_symmetrize_and_drop_self_loops():
    src = np.array([0, 1, 2, 2, 3])
    dst = np.array([1, 2, 2, 0, 3])
    g = lg.Graph.from_edges(src, dst, directed=True, symmetrize=True, duplicates="sum")
    u = lg.Graph.from_edges(src, dst, directed=False, duplicates="sum")
    assert g.directed and not u.directed
    for a, b in zip(g.csr()[:2], u.csr()[:2]):
        np.testing.assert_array_equal(a, b)
    g = lg.Graph.from_edges(src, dst, directed=True, drop_self_loops=True)
    rows, cols, _ = csr_arcs(g)
    assert g.num_edges == 3 and not np.any(rows == cols)
    assert g.num_vertices == 4  # vertex 3 stays, without its loop


def test_num_vertices_default_and_explicit():
    g = lg.Graph.from_edges([0, 5], [2, 1])
    assert g.num_vertices == 6
    g = lg.Graph.from_edges([0, 5], [2, 1], num_vertices=10)
    assert g.num_vertices == 10
    assert lg.connected_components(g, device=CPU).tolist() == [0, 1, 0, 3, 4, 1, 6, 7, 8, 9]
    g = lg.Graph.from_edges([], [])
    assert g.num_vertices == 0 and g.num_edges == 0
    assert len(lg.connected_components(g, device=CPU)) == 0
    assert lg.number_connected_components(g, device=CPU) == 0
    g = lg.Graph.from_edges(np.zeros(0, np.int32), np.zeros(0, np.int32), num_vertices=3)
    assert g.num_vertices == 3 and g.num_edges == 0
    assert lg.number_connected_components(g, device=CPU) == 3


def test_repr_is_informative():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], num_vertices=5, directed=True)
    r = repr(g)
    assert "5" in r and "3" in r and "directed" in r and "weighted" in r
    r = repr(lg.Graph.from_edges([0, 1], [1, 2]))
    assert "3" in r and "4" in r and "undirected" in r
    ctx = lg.Context(device="cpu", num_threads=1)
    assert ctx.backend == "cpu" and ctx.num_threads == 1 and "cpu" in ctx.device
    assert repr(ctx).startswith("<")


def test_graph_cannot_be_constructed_directly():
    with pytest.raises(TypeError):
        lg.Graph()


def test_csr_views_keep_graph_alive():
    import gc
    import weakref

    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], directed=True)
    off, idx, w = g.csr()
    ref = weakref.ref(g)
    del g
    gc.collect()
    # the Python wrapper may go; the arrays must stay valid and unchanged
    for _ in range(3):
        junk = [np.arange(1000) for _ in range(100)]  # reuse freed memory, if any
        del junk
    np.testing.assert_array_equal(off, [0, 1, 2, 3])
    np.testing.assert_array_equal(idx, [1, 2, 0])
    np.testing.assert_array_equal(w, [1.0, 2.0, 3.0])
    del ref


def test_extension_buffers_without_numpy():
    """The extension's own arrays: one-dimensional Buffers (buffer protocol)."""
    from libgraph import _libgraph

    g = lg.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0], directed=True)
    g32 = lg.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0], directed=True, weight_dtype="float32")
    raw = g._g if hasattr(g, "_g") else None
    if raw is None:
        pytest.skip("no raw extension graph to look at")
    off, idx, w = raw.csr()
    for b, fmt in ((off, "q"), (idx, "i"), (w, "d"), (g32._g.csr()[2], "f")):
        mv = memoryview(b)
        assert mv.format == fmt and mv.ndim == 1 and mv.readonly
    assert memoryview(off).tolist() == [0, 1, 2, 2]
    d, p = _libgraph.run("bfs", raw, {"source": 0, "parents": True})
    assert memoryview(d).tolist() == [0, 1, 2] and memoryview(p).tolist() == [0, 0, 1]
    assert len(d) == 3


# ---------------------------------------------------------------------------
# Pickling, copying, size
# ---------------------------------------------------------------------------


def _same_graph(a, b):
    assert (a.num_vertices, a.num_edges, a.directed, a.weighted) == (
        b.num_vertices, b.num_edges, b.directed, b.weighted)
    for x, y in zip(a.csr(), b.csr()):
        if x is None:
            assert y is None
        else:
            np.testing.assert_array_equal(x, y)
    assert a.nodes == b.nodes


@pytest.mark.parametrize("shape,seed,directed,weighted", cases())
def test_pickle_and_copies_keep_the_graph(shape, seed, directed, weighted):
    import copy
    import pickle

    g = case(shape, seed, directed, weighted).g
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        h = pickle.loads(pickle.dumps(g, protocol=protocol))
        _same_graph(g, h)
        assert not np.shares_memory(g.csr()[0], h.csr()[0])
    # protocol 5 with out-of-band buffers: the arrays are not copied into the pickle
    buffers = []
    data = pickle.dumps(g, protocol=5, buffer_callback=buffers.append)
    _same_graph(g, pickle.loads(data, buffers=buffers))
    assert len(data) < 200 + 8 * g.num_vertices  # the arrays went out of band
    _same_graph(g, copy.deepcopy(g))
    c = copy.copy(g)
    _same_graph(g, c)
    assert np.shares_memory(g.csr()[1], c.csr()[1]) or g.num_edges == 0
    # the copies answer as the original
    assert lg.connected_components(h, device=CPU).tolist() == \
        lg.connected_components(g, device=CPU).tolist()


def test_pickle_keeps_node_keys_and_lookups():
    import copy
    import pickle

    nx = pytest.importorskip("networkx")
    G = nx.Graph([("a", "b"), ("b", ("c", 1)), ("x", "y")])
    G.add_edge("a", "a", weight=2.5)
    g = lg.Graph.from_networkx(G)
    for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), copy.copy(g)):
        _same_graph(g, h)
        assert h.vertex(("c", 1)) == g.vertex(("c", 1)) == 2
        with pytest.raises(KeyError):
            h.vertex("missing")
    assert "named nodes" in repr(g) and "named" not in repr(lg.Graph.from_edges([0], [1]))
    d = copy.deepcopy(g)
    assert d.nodes is not g.nodes  # deep: its own node list


def test_unpickling_a_damaged_pickle_raises():
    import pickle

    from libgraph._graph import _restore

    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    off, idx, _ = (bytes(memoryview(a)) if a is not None else None for a in g._g.csr())
    with pytest.raises(ValueError):  # an index beyond the vertices
        _restore(True, off, np.array([0, 9, 1], np.int32).tobytes(), None, None)
    with pytest.raises(ValueError):  # offsets that do not end at the arcs
        _restore(True, np.array([0, 1, 2, 5], np.int64).tobytes(), idx, None, None)
    with pytest.raises(ValueError):  # an undirected graph's CSR that is not symmetric
        _restore(False, off, idx, None, None)
    assert pickle.loads(pickle.dumps(g)).num_edges == 3


@pytest.mark.parametrize("nodes,error", [
    (["a", "b", "c"], ValueError),  # more names than vertices
    (["a"], ValueError),  # fewer
    (["a", "a"], ValueError),  # a name twice
    (["a", None], ValueError),  # a missing value
    ([["a"], "b"], TypeError),  # unhashable
    (3, TypeError),  # no list
])
def test_unpickling_checks_the_node_list(nodes, error):
    """A pickle's node list is checked as the names setter checks names."""
    import pickle

    g = lg.Graph.from_edges([0], [1])
    restore, (directed, *arrays, _) = g.__reduce_ex__(2)
    with pytest.raises(error):
        restore(directed, *arrays, nodes)  # the call pickle.loads makes
    with pytest.raises(error):
        g.names = nodes
    h = restore(directed, *arrays, ("x", "y"))
    assert h.names == ["x", "y"] and h.index_of(["y"]).tolist() == [1]
    g.names = ["x", "y"]
    assert pickle.loads(pickle.dumps(g)).names == ["x", "y"]


def test_sizeof_counts_the_arrays():
    import sys

    small = lg.Graph.from_edges([0], [1])
    g = lg.Graph.generate("kron", 12, 16, 1)
    csr = 8 * (g.num_vertices + 1) + 4 * g.num_edges
    extra = sys.getsizeof(g) - sys.getsizeof(small)
    assert csr - 100 <= extra <= csr + 100
    g.csc()  # an undirected graph's in-edges are its CSR: nothing more
    assert sys.getsizeof(g) - sys.getsizeof(small) == extra
    # a directed weighted graph: its in-edges count once built
    rng = np.random.default_rng(3)
    d = lg.Graph.from_edges(rng.integers(0, 500, 4000), rng.integers(0, 500, 4000),
                            rng.uniform(1, 2, 4000).astype(np.float32), num_vertices=500,
                            directed=True)
    csr = 8 * 501 + 8 * d.num_edges
    before = sys.getsizeof(d)
    d.csc()
    assert sys.getsizeof(d) - before == csr
    g.names = [f"v{i}" for i in range(g.num_vertices)]
    assert sys.getsizeof(g) - sys.getsizeof(small) >= extra + 8 * g.num_vertices
