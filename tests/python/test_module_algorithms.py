"""BFS, PageRank and connected components of the Python module against NetworkX.

Every option of docs/PYTHON.md's algorithms on the seeded graph shapes of
graph_cases.py, directed and undirected, weighted and not: distances and
parents, multi-source and depth-limited BFS, PageRank in float64 and
float32 with personalization, nstart, dangling weights and NotConverged,
and canonical component labels.
"""
import array
import math

import networkx as nx
import numpy as np
import pytest

lg = pytest.importorskip("libgraph")

from graph_cases import (CPU, case, cases, check_parents, close, nx_distances,  # noqa: E402
                         nx_labels, nx_pagerank)


# ---------------------------------------------------------------------------
# BFS
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape,seed,directed,weighted", cases())
def test_bfs_matches_networkx(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    if c.n == 0:
        with pytest.raises(ValueError):
            lg.bfs(c.g, 0, device=CPU)
        return
    rng = np.random.default_rng(seed)
    sources = sorted({0, c.n - 1, int(rng.integers(0, c.n))})
    if shape == "star":
        sources.append(int(c.src[0]))  # the hub
    for s in sources:
        dist = lg.bfs(c.g, s, device=CPU)
        assert isinstance(dist, np.ndarray) and dist.dtype == np.int32 and dist.shape == (c.n,)
        np.testing.assert_array_equal(dist, nx_distances(c.G, c.n, [s]))
        # top-down only, and with parents: the same distances
        np.testing.assert_array_equal(lg.bfs(c.g, s, direction_alpha=0, device=CPU), dist)
        d2, parents = lg.bfs(c.g, s, parents=True, device=CPU)
        np.testing.assert_array_equal(d2, dist)
        check_parents(c, d2, parents, [s])


@pytest.mark.parametrize("shape,seed,directed,weighted",
                         cases(["random", "disconnected", "path", "star", "duplicates"], (3,)))
def test_bfs_multi_source_and_max_depth(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    rng = np.random.default_rng(seed + 7)
    for k in (1, 2, 5):
        sources = rng.integers(0, c.n, k)
        sources = np.concatenate([sources, sources[:1]])  # a repeated source is allowed
        srcs = sorted(set(sources.tolist()))
        want = nx_distances(c.G, c.n, srcs)
        for as_type in (list, np.array, lambda s: np.array(s, dtype=np.int64), tuple):
            got = lg.bfs(c.g, as_type(sources.tolist()), device=CPU)
            np.testing.assert_array_equal(got, want)
        d, p = lg.bfs(c.g, sources, parents=True, device=CPU)
        np.testing.assert_array_equal(d, want)
        check_parents(c, d, p, srcs)
        for depth in (0, 1, 2, 5):
            wd = nx_distances(c.G, c.n, srcs, max_depth=depth)
            np.testing.assert_array_equal(lg.bfs(c.g, sources, max_depth=depth, device=CPU), wd)
            d, p = lg.bfs(c.g, sources, parents=True, max_depth=depth, device=CPU)
            np.testing.assert_array_equal(d, wd)
            check_parents(c, d, p, srcs)
    # the bfs tuning knobs change nothing in the answer
    s = int(c.src[0])
    want = nx_distances(c.G, c.n, [s])
    for a, b in ((1, 1), (100, 2), (0, 18), (15, 1000)):
        got = lg.bfs(c.g, s, direction_alpha=a, direction_beta=b, device=CPU)
        np.testing.assert_array_equal(got, want)


def test_bfs_numpy_scalar_sources():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True)
    for s in (np.int8(1), np.int64(1), np.uint32(1), np.array(1)):
        np.testing.assert_array_equal(lg.bfs(g, s, device=CPU), [-1, 0, 1, 2])


def test_one_element_array_source():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True)
    for s in (np.array([1]), [1], (1,), np.array([1], np.uint8), array.array("i", [1])):
        np.testing.assert_array_equal(lg.bfs(g, s, device=CPU), [-1, 0, 1, 2])


# ---------------------------------------------------------------------------
# PageRank
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape,seed,directed,weighted", cases())
def test_pagerank_matches_networkx(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    got = lg.pagerank(c.g, tol=1e-10, max_iter=1000, device=CPU)
    assert isinstance(got, np.ndarray) and got.dtype == np.float64 and got.shape == (c.n,)
    want = nx_pagerank(c, tol=1e-10, max_iter=1000)
    close(got, want)
    if c.n:
        assert abs(got.sum() - 1) < 1e-9
    # NetworkX's default tol as well
    close(lg.pagerank(c.g, device=CPU), nx_pagerank(c), rtol=1e-6)
    # weights ignored: weight=None and weight=False are the unweighted ranks
    want_uw = nx_pagerank(c, tol=1e-10, max_iter=1000, weight=None)
    for off in (None, False):
        close(lg.pagerank(c.g, tol=1e-10, max_iter=1000, weight=off, device=CPU), want_uw)
    close(lg.pagerank(c.g, tol=1e-10, max_iter=1000, weight=True, device=CPU), want)
    close(lg.pagerank(c.g, tol=1e-10, max_iter=1000, weight="weight", device=CPU), want)


@pytest.mark.parametrize("shape,seed,directed,weighted", cases())
def test_pagerank_float32(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    for tol in (1e-6, 1e-8):
        got = lg.pagerank(c.g, tol=tol, max_iter=1000, dtype="float32", device=CPU)
        assert got.dtype == np.float32 and got.shape == (c.n,)
        # against NetworkX with the same stopping rule: float32 rounding only
        want = nx_pagerank(c, tol=tol, max_iter=1000)
        close(got, want, rtol=2e-5, atol=1e-9)
    if c.n > 2:
        got = lg.pagerank(c.g, personalization=np.arange(c.n) % 3, dtype="float32",
                          weight=None, device=CPU)
        want = nx_pagerank(c, personalization={v: v % 3 for v in range(c.n)}, weight=None)
        close(got, want, rtol=2e-5, atol=1e-9)


@pytest.mark.parametrize("shape,seed,directed,weighted",
                         cases(["random", "isolated", "selfloops", "star", "disconnected"], (5,)))
def test_pagerank_options(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    n = c.n
    rng = np.random.default_rng(seed)
    pers = rng.random(n)
    pers[rng.random(n) < 0.3] = 0.0
    pers[0] = 0.5
    nstart = rng.random(n) + 0.01
    dang = rng.random(n)
    dang[rng.random(n) < 0.5] = 0.0
    dang[n - 1] = 1.0
    as_dict = lambda a: {v: float(x) for v, x in enumerate(a) if x != 0}  # noqa: E731

    kw = dict(tol=1e-10, max_iter=2000)
    for alpha in (0.85, 0.5, 0.99, 0.0):
        close(lg.pagerank(c.g, alpha=alpha, device=CPU, **kw), nx_pagerank(c, alpha=alpha, **kw))
    # personalization, nstart, dangling: as arrays and as dicts (missing keys 0)
    want = nx_pagerank(c, personalization=as_dict(pers), **kw)
    close(lg.pagerank(c.g, personalization=pers, device=CPU, **kw), want)
    close(lg.pagerank(c.g, personalization=as_dict(pers), device=CPU, **kw), want)
    close(lg.pagerank(c.g, personalization=list(pers), device=CPU, **kw), want)
    want = nx_pagerank(c, nstart=as_dict(nstart), **kw)
    close(lg.pagerank(c.g, nstart=nstart, device=CPU, **kw), want)
    close(lg.pagerank(c.g, nstart=as_dict(nstart), device=CPU, **kw), want)
    want = nx_pagerank(c, personalization=as_dict(pers), dangling=as_dict(dang), **kw)
    close(lg.pagerank(c.g, personalization=pers, dangling=dang, device=CPU, **kw), want)
    close(lg.pagerank(c.g, personalization=as_dict(pers), dangling=as_dict(dang), device=CPU,
                      **kw), want)
    # everything at once, weights ignored, float32 vectors given
    want = nx_pagerank(c, alpha=0.7, personalization=as_dict(pers), nstart=as_dict(nstart),
                       dangling=as_dict(dang), weight=None, **kw)
    got = lg.pagerank(c.g, alpha=0.7, personalization=pers.astype(np.float32),
                      nstart=nstart.astype(np.float32), dangling=dang.astype(np.float32),
                      weight=None, device=CPU, **kw)
    close(got, nx_pagerank(c, alpha=0.7, personalization=as_dict(pers.astype(np.float32)),
                           nstart=as_dict(nstart.astype(np.float32)),
                           dangling=as_dict(dang.astype(np.float32)), weight=None, **kw))
    # nstart only moves the start: the same fixed point
    close(lg.pagerank(c.g, nstart=nstart, device=CPU, **kw),
          lg.pagerank(c.g, device=CPU, **kw), rtol=1e-5)
    del want


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_pagerank_not_converged(dtype):
    c = case("random", 0, True, True)
    with pytest.raises(lg.NotConverged) as info:
        lg.pagerank(c.g, max_iter=3, tol=1e-15, dtype=dtype, device=CPU)
    e = info.value
    assert isinstance(e, lg.Error) and isinstance(e, RuntimeError)
    assert e.iterations == 3
    assert len(e.scores) == c.n and np.asarray(e.scores).dtype == np.dtype(dtype)
    assert abs(float(np.sum(e.scores)) - 1) < 1e-4
    assert str(e)  # the C library's message
    # NetworkX agrees that 3 iterations are not enough
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(c.G, max_iter=3, tol=1e-15)
    # the last iterate is what 3 iterations give: converging from there matches
    x3 = np.asarray(e.scores, dtype=np.float64)
    with pytest.raises(lg.NotConverged) as info2:
        lg.pagerank(c.g, max_iter=2, tol=1e-15, dtype=dtype, device=CPU)
    assert info2.value.iterations == 2
    assert not np.array_equal(np.asarray(info2.value.scores, dtype=np.float64), x3)
    # tol=0 never converges either
    with pytest.raises(lg.NotConverged) as info3:
        lg.pagerank(c.g, max_iter=20, tol=0.0, dtype=dtype, device=CPU)
    assert info3.value.iterations == 20


def test_pagerank_empty_graph():
    g = lg.Graph.from_edges([], [], num_vertices=0)
    x = lg.pagerank(g, device=CPU)
    assert len(x) == 0 and x.dtype == np.float64
    assert nx.pagerank(nx.DiGraph()) == {}


def test_zero_weights_make_dangling_vertices():
    rng = np.random.default_rng(12)
    n, m = 60, 240
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 3, m).astype(np.float32)  # a third of the edges weigh 0
    w[src < 10] = 0.0  # vertices 0..9: out-weight 0, dangling
    for directed in (True, False):
        g = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed)
        G = nx.MultiDiGraph() if directed else nx.MultiGraph()
        G.add_nodes_from(range(n))
        for s, d, x in zip(src.tolist(), dst.tolist(), w.tolist()):
            G.add_edge(s, d, weight=x)
        want = nx.pagerank(G, tol=1e-10, max_iter=1000)
        close(lg.pagerank(g, tol=1e-10, max_iter=1000, device=CPU),
              np.array([want[v] for v in range(n)]))


# ---------------------------------------------------------------------------
# Connected components
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape,seed,directed,weighted", cases())
def test_connected_components_match_networkx(shape, seed, directed, weighted):
    c = case(shape, seed, directed, weighted)
    labels = lg.connected_components(c.g, device=CPU)
    assert isinstance(labels, np.ndarray) and labels.dtype == np.int32 and labels.shape == (c.n,)
    want, count = nx_labels(c.G, c.n)
    np.testing.assert_array_equal(labels, want)
    assert lg.number_connected_components(c.g, device=CPU) == count
    assert isinstance(lg.number_connected_components(c.g, device=CPU), int)


def test_connected_components_big_random():
    """A larger graph with many small components (many ids, few edges)."""
    rng = np.random.default_rng(11)
    n, m = 20000, 12000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    for directed in (False, True):
        g = lg.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
        G = nx.DiGraph() if directed else nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from(zip(src.tolist(), dst.tolist()))
        want, count = nx_labels(G, n)
        np.testing.assert_array_equal(lg.connected_components(g, device=CPU), want)
        assert lg.number_connected_components(g, device=CPU) == count


def test_math_sanity():
    # isolated guard: the comparison helpers do fail on a wrong answer
    with pytest.raises(AssertionError):
        close(np.array([0.5, 0.5]), np.array([0.5, 0.5 + 1e-5]))
    assert math.isclose(1.0, 1.0)
