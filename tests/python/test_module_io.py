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
def test_save_load_roundtrip(tmp_path, fmt, directed, weighted):
    rng = np.random.default_rng(21)
    n = 90
    src = rng.integers(0, n, 300)
    dst = rng.integers(0, n, 300)
    src[0] = dst[0] = n - 1  # the largest id has an edge (.el/.wel count to it); a self-loop
    w = rng.uniform(0.1, 9.0, 300).astype(np.float32) if weighted else None
    g = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed, duplicates="sum")
    for path, kw in ((tmp_path / f"g.{fmt}", {}), (tmp_path / "g.data", {"format": fmt}),
                     (str(tmp_path / f"s.{fmt.upper()}"), {})):
        g.save(path, **kw)
        h = lg.Graph.load(path, directed=directed, **kw)
        assert h.num_vertices == n and h.directed == directed
        if fmt == "el":
            assert not h.weighted
        elif fmt == "wel":
            assert h.weighted  # (an unweighted graph is written with weights 1)
        else:
            assert h.weighted == weighted
        off, idx, hw = h.csr()
        np.testing.assert_array_equal(off, g.csr()[0])
        np.testing.assert_array_equal(idx, g.csr()[1])
        if weighted and fmt in ("wel", "lgb", "mtx"):
            np.testing.assert_allclose(hw, g.csr()[2], rtol=1e-6)
            if fmt == "lgb":
                np.testing.assert_array_equal(hw, g.csr()[2])
    # default directedness: .mtx and .lgb keep it; .el/.wel read directed
    g.save(tmp_path / f"d.{fmt}")
    h = lg.Graph.load(tmp_path / f"d.{fmt}")
    if fmt in ("mtx", "lgb"):
        assert h.directed == directed
    else:
        assert h.directed
    if fmt == "lgb":
        with pytest.raises(ValueError):
            lg.Graph.load(tmp_path / f"d.{fmt}", directed=not directed)


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
