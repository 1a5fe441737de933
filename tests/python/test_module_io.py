"""Graphs from files and from the generators: Graph.save and Graph.load in
every format (.mtx, .el, .wel, .lgb) and back, Matrix Market files written
by SciPy, the bundled graph against NetworkX, and Graph.generate /
generate_edges (Kronecker and uniform random) against their definition.
"""
import pathlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

lg = pytest.importorskip("libgraph")

from graph_cases import CPU, close, csr_arcs, same_graph  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["mtx", "el", "wel", "lgb"])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("named", [None, "str", "int"])
def test_save_load_roundtrip(tmp_path, fmt, directed, weighted, named):
    """Every format x directedness x weights x names: what is saved loads
    back with the default options as it was, nothing lost or doubled (.el
    drops the weights; only .lgb keeps names)."""
    rng = np.random.default_rng(21)
    n = 90
    src = rng.integers(0, n - 2, 300)  # vertices 88 and 89 isolated, past the largest id
    dst = rng.integers(0, n - 2, 300)
    src[0] = dst[0] = 5  # a self-loop
    w = rng.uniform(0.1, 9.0, 300).astype(np.float32) if weighted else None
    g = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed, duplicates="sum")
    if named == "str":
        g.names = [f"node {i} \u00e9" for i in range(n)]  # not ASCII, with a blank
    elif named == "int":
        g.names = [3 * i - 2**40 for i in range(n)]  # beyond int32
    for path, kw in ((tmp_path / f"g.{fmt}", {}), (tmp_path / "g.data", {"format": fmt}),
                     (str(tmp_path / f"s.{fmt.upper()}"), {})):
        if named and fmt != "lgb":
            with pytest.raises(ValueError, match="only the binary format"):
                g.save(path, **kw)
            g.save(path, names=False, **kw)
        else:
            g.save(path, **kw)
        h = lg.Graph.load(path, **kw)
        assert h.num_vertices == n and h.num_edges == g.num_edges and h.directed == directed
        assert h.weighted == (weighted and fmt != "el")
        off, idx, hw = h.csr()
        np.testing.assert_array_equal(off, g.csr()[0])
        np.testing.assert_array_equal(idx, g.csr()[1])
        if h.weighted:
            np.testing.assert_array_equal(hw, g.csr()[2])  # text keeps 9 digits: exact
        assert h.names == (g.names if fmt == "lgb" else None)
        # the directedness asked for overrides a text file's record
        if fmt != "lgb":
            other = lg.Graph.load(path, directed=not directed, **kw)
            assert other.directed != directed
        else:
            with pytest.raises(ValueError):
                lg.Graph.load(path, directed=not directed, **kw)


def test_save_names_errors(tmp_path):
    g = lg.Graph.from_edges([0, 1], [1, 2])
    g.names = ["a", 1, "c"]  # mixed: pickles keep them, .lgb cannot
    with pytest.raises(ValueError, match="all str or all int, not int and str"):
        g.save(tmp_path / "g.lgb")
    g.names = [("a", 1), ("b", 2), ("c", 3)]
    with pytest.raises(ValueError, match="tuple"):
        g.save(tmp_path / "g.lgb")
    g.names = [2**63, 0, 1]
    with pytest.raises(ValueError, match="int64"):
        g.save(tmp_path / "g.lgb")
    g.names = ["\ud800", "b", "c"]  # a lone surrogate is no UTF-8
    with pytest.raises(ValueError, match="Unicode"):
        g.save(tmp_path / "g.lgb")
    assert not (tmp_path / "g.lgb").exists()
    g.save(tmp_path / "g.lgb", names=False)
    assert lg.Graph.load(tmp_path / "g.lgb").names is None
    # the names lent to libgraph for a write are taken back after it
    g.names = ["x", "y", "z"]
    g.save(tmp_path / "n.lgb")
    assert g._g.names() is None
    h = lg.Graph.load(tmp_path / "n.lgb")
    assert h.names == ["x", "y", "z"] and h._g.names() is None
    assert h.index_of(["z", "x"]).tolist() == [2, 0]


def test_edge_list_without_header_is_undirected(tmp_path):
    p = tmp_path / "snap.el"
    p.write_text("# from elsewhere\n0 1\n1 2\n")
    g = lg.Graph.load(p)
    assert not g.directed and g.num_edges == 4
    d = lg.Graph.load(p, directed=True)
    assert d.directed and d.num_edges == 2
    # what libgraph writes records itself
    d.save(tmp_path / "d.el")
    assert (tmp_path / "d.el").read_text().splitlines()[0] == (
        "# libgraph edge list: directed, 3 vertices, unweighted")
    assert lg.Graph.load(tmp_path / "d.el").directed
    G = nx.read_edgelist(tmp_path / "d.el", nodetype=int, create_using=nx.DiGraph)
    assert sorted(G.edges) == [(0, 1), (1, 2)]  # other readers skip the line


def _same(a, b):
    """Whether graphs a and b are equal (same_graph without the asserts)."""
    try:
        same_graph(a, b)
    except AssertionError:
        return False
    return True


def _unweighted(g):
    off, idx, _ = g.csr()
    return lg.Graph.from_csr(off, idx, directed=g.directed)


# label -> (graph, whether its .el needs the header line, whether its .wel does)
HEADER_CASES = {
    "undirected": (lambda: lg.Graph.from_edges([0, 1, 2], [1, 2, 3]), False, True),
    "weighted": (lambda: lg.Graph.from_edges([0, 1, 2], [1, 2, 3], [0.5, 2.0, 1.0]), False, False),
    "isolated tail": (lambda: lg.Graph.from_edges([0, 1], [1, 2], num_vertices=5), True, True),
    "no edges": (lambda: lg.Graph.from_edges([], [], num_vertices=3), True, True),
    "directed": (lambda: lg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True), True, True),
}


@pytest.mark.parametrize("fmt", ["el", "wel"])
@pytest.mark.parametrize("label", HEADER_CASES)
def test_edge_list_header_line_only_where_needed(tmp_path, fmt, label):
    """save writes the header line exactly where the file read without it
    would be another graph (undirected, max id + 1 vertices, a .wel
    weighted); plain=True leaves it out anyway.  Both load back as the graph
    where the line is; the plain file as the line's absence says."""
    make, el, wel = HEADER_CASES[label]
    g = make()
    want = g if fmt == "wel" else _unweighted(g)
    path = tmp_path / f"g.{fmt}"
    g.save(path)
    header = path.read_text().startswith("# libgraph edge list: ")
    assert header == (el if fmt == "el" else wel)
    same_graph(lg.Graph.load(path), want)
    g.save(path, plain=True)
    assert not path.read_text().startswith("#")
    plain = lg.Graph.load(path)
    assert _same(plain, want) == (not header)
    if g.directed:  # the arcs are all there, read as directed
        assert plain.directed is False
        same_graph(_unweighted(lg.Graph.load(path, directed=True)), _unweighted(want))


def test_plain_edge_lists_read_by_pandas_and_numpy(tmp_path):
    """A plain file (and a bare one the rule writes) is "u v[ w]" lines that
    pandas.read_csv(sep=" ", header=None) and numpy.loadtxt read to the
    graph's edges, each undirected edge once (u <= v)."""
    pd = pytest.importorskip("pandas")
    d = lg.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 2, 3, 3], [0.5, 1.0, 2.25, 3.0, 7.5],
                            num_vertices=6, directed=True)  # needs the line: plain drops it
    d.save(tmp_path / "d.wel", plain=True)
    want = [[0, 1, 0.5], [0, 2, 1.0], [1, 2, 2.25], [2, 3, 3.0], [3, 3, 7.5]]
    df = pd.read_csv(tmp_path / "d.wel", sep=" ", header=None)
    assert df.shape == (5, 3) and df.values.tolist() == want
    assert df[0].dtype.kind == df[1].dtype.kind == "i"
    assert np.loadtxt(tmp_path / "d.wel").tolist() == want
    d.save(tmp_path / "d.el", plain=True)
    assert np.loadtxt(tmp_path / "d.el", dtype=np.int64).tolist() == [r[:2] for r in want]

    u = lg.Graph.from_edges([1, 0, 3, 2], [0, 2, 2, 3])  # undirected: bare without asking
    u.save(tmp_path / "u.el")
    df = pd.read_csv(tmp_path / "u.el", sep=" ", header=None, names=["u", "v"])
    assert df.values.tolist() == [[0, 1], [0, 2], [2, 3], [2, 3]]
    G = nx.from_pandas_edgelist(df, "u", "v", create_using=nx.MultiGraph)
    assert sorted(G.edges()) == [(0, 1), (0, 2), (2, 3), (2, 3)]


def test_plain_is_for_edge_lists(tmp_path):
    g = lg.Graph.from_edges([0, 1], [1, 2])
    for name in ("g.mtx", "g.lgb"):
        with pytest.raises(ValueError, match=r"plain \(no header line\) is for edge lists "
                                             r"\(\.el, \.wel\); a \.(mtx|lgb) file keeps its "
                                             r"header"):
            g.save(tmp_path / name, plain=True)
        assert not (tmp_path / name).exists()
    with pytest.raises(TypeError, match="plain"):
        g.save(tmp_path / "g.el", plain=np.array([True, False]))


@pytest.mark.parametrize("fmt", ["mtx", "wel"])
def test_load_text_as_float64(tmp_path, fmt):
    """weight_dtype="float64" reads a text file's decimals as Python's float()
    does: a float64 graph's 17 digits back to the bit, and hand-written ones
    (0.1, 1e300, 5e-324, -0.3) equal to float(text); float32, the default,
    refuses 1e300."""
    rng = np.random.default_rng(4)
    src, dst = rng.integers(0, 50, 400), rng.integers(0, 50, 400)
    w = rng.uniform(-3.0, 3.0, 400) * 10.0 ** rng.integers(-200, 200, 400)
    g = lg.Graph.from_edges(src, dst, w, num_vertices=50, directed=True, duplicates="sum")
    assert g.weight_dtype == "float64"
    path = tmp_path / f"g.{fmt}"
    g.save(path)
    h = lg.Graph.load(path, weight_dtype="float64")
    assert h.weight_dtype == "float64"
    for x, y in zip(h.csr(), g.csr()):
        np.testing.assert_array_equal(x, y)  # every bit: %.17g and strtod
    texts = ["0.1", "1e300", "5e-324", "-0.3", "2.5000000000000001", "7"]
    one = tmp_path / f"one.{fmt}"
    body = "".join(f"{i + (fmt == 'mtx')} {i + 1 + (fmt == 'mtx')} {t}\n"
                   for i, t in enumerate(texts))
    head = (f"%%MatrixMarket matrix coordinate real general\n{len(texts) + 1} "
            f"{len(texts) + 1} {len(texts)}\n" if fmt == "mtx" else "")
    one.write_text(head + body)
    h = lg.Graph.load(one, directed=True, weight_dtype="float64")
    assert h.csr()[2].tolist() == [float(t) for t in texts]
    with pytest.raises(lg.FileFormatError, match="too large for a float"):
        lg.Graph.load(one, directed=True)


def test_load_bundled_graph_matches_networkx():
    path = ROOT / "tests" / "data" / "facebook_combined.el"
    g = lg.Graph.load(path, directed=False)
    assert g.num_vertices == 4039 and g.num_edges == 2 * 88234 and not g.directed
    G = nx.read_edgelist(path, nodetype=int)
    want = nx.single_source_shortest_path_length(G, 0)
    d = lg.bfs(g, 0, device=CPU)
    assert {v: int(x) for v, x in enumerate(d) if x >= 0} == want
    assert lg.number_connected_components(g, device=CPU) == 1
    r = nx.pagerank(G, tol=1e-10)
    close(lg.pagerank(g, tol=1e-10, device=CPU), np.array([r[v] for v in range(4039)]))


@pytest.mark.parametrize("symmetry", ["general", "symmetric"])
@pytest.mark.parametrize("field", ["real", "integer", "pattern"])
def test_load_mtx_matches_scipy(tmp_path, symmetry, field):
    import scipy.io

    rng = np.random.default_rng(13)
    n = 40
    M = sp.random_array((n, n), density=0.08, random_state=rng, format="coo")
    M.data = np.round(M.data * 8 + 1)
    if symmetry == "symmetric":
        M = sp.coo_array(sp.tril(M + M.T))
    p = tmp_path / "m.mtx"
    scipy.io.mmwrite(str(p), M, field=field, symmetry=symmetry)
    A = sp.csr_array(scipy.io.mmread(str(p)))
    A.sort_indices()
    g = lg.Graph.load(p)
    assert g.directed == (symmetry == "general") and g.num_vertices == n
    off, idx, w = g.csr()
    np.testing.assert_array_equal(off, A.indptr)
    np.testing.assert_array_equal(idx, A.indices)
    if field == "pattern":
        assert w is None or np.all(np.asarray(w) == 1)
    else:
        np.testing.assert_array_equal(w, A.data.astype(np.float32))
    # a symmetric file read as directed: both arcs of every entry
    if symmetry == "symmetric":
        gd = lg.Graph.load(p, directed=True)
        assert gd.directed
        np.testing.assert_array_equal(gd.csr()[1], idx)


# ---------------------------------------------------------------------------
# Generators
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["kron", "urand"])
def test_generate(kind):
    scale, ef = 10, 8
    g = lg.Graph.generate(kind, scale=scale, edge_factor=ef, seed=3)
    assert g.num_vertices == 2 ** scale and not g.directed and not g.weighted
    rows, cols, _ = csr_arcs(g)
    assert not np.any(rows == cols)  # self-loops dropped
    key = rows.astype(np.int64) * g.num_vertices + cols
    assert np.all(np.diff(key) > 0)  # duplicates merged, rows sorted
    # symmetric
    A = sp.csr_array((np.ones(len(cols)), cols, g.csr()[0]), shape=(g.num_vertices,) * 2)
    assert (A != A.T).nnz == 0
    # the raw edges, and the graph built from them the GAP way
    src, dst = lg.generate_edges(kind, scale=scale, edge_factor=ef, seed=3)
    assert len(src) == len(dst) == ef << scale
    assert src.dtype == np.int32 and dst.dtype == np.int32
    assert src.min() >= 0 and max(src.max(), dst.max()) < 2 ** scale
    h = lg.Graph.from_edges(src, dst, num_vertices=2 ** scale, directed=False,
                            drop_self_loops=True, duplicates="first")
    same_graph(g, h)
    # deterministic for a seed; another seed, another graph
    same_graph(g, lg.Graph.generate(kind, scale=scale, edge_factor=ef, seed=3))
    s2, d2 = lg.generate_edges(kind, scale=scale, edge_factor=ef, seed=3)
    np.testing.assert_array_equal(s2, src)
    np.testing.assert_array_equal(d2, dst)
    s3, _ = lg.generate_edges(kind, scale=scale, edge_factor=ef, seed=4)
    assert not np.array_equal(s3, src)
    # the defaults
    g = lg.Graph.generate(kind, scale=6)
    assert g.num_vertices == 64
    # the degree distribution: kron is skewed, urand is not
    deg = g.degrees()
    if kind == "kron":
        big = lg.Graph.generate("kron", scale=12, edge_factor=16, seed=1).degrees()
        assert big.max() > 20 * big.mean()
    else:
        big = lg.Graph.generate("urand", scale=12, edge_factor=16, seed=1).degrees()
        assert big.max() < 3 * big.mean()
    del deg
