"""The Python module (`import libgraph`) against NetworkX and SciPy.

Every function and option of docs/PYTHON.md on seeded random graphs of many
shapes: directed and undirected, weighted and not, with isolated vertices,
self-loops, duplicate edges, the empty graph, one vertex, disconnected
pieces, a star and a path.  Bad inputs are in test_module_errors.py, leaks
and threads in test_module_threads.py.
"""
import array
import math
import pathlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

lg = pytest.importorskip("libgraph")

ROOT = pathlib.Path(__file__).resolve().parents[2]
CPU = "cpu"  # every comparison runs on the CPU; tests/python/test_gpu.py does the GPU

# ---------------------------------------------------------------------------
# Graph shapes: (num_vertices, src, dst) as int64 arrays
# ---------------------------------------------------------------------------


def _shape(name, seed):
    rng = np.random.default_rng(seed)
    if name == "random":
        n = int(rng.integers(50, 200))
        m = int(rng.integers(n, 4 * n))
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        return n, src, dst
    if name == "isolated":  # only the first half of the vertices have edges
        n = int(rng.integers(60, 150))
        m = 2 * n
        src, dst = rng.integers(0, n // 2, m), rng.integers(0, n // 2, m)
        return n, src, dst
    if name == "selfloops":
        n = 80
        src = rng.integers(0, n, 200)
        dst = rng.integers(0, n, 200)
        loops = rng.integers(0, n, 40)
        return n, np.concatenate([src, loops]), np.concatenate([dst, loops])
    if name == "duplicates":
        n = 60
        src = rng.integers(0, n, 150)
        dst = rng.integers(0, n, 150)
        pick = rng.integers(0, 150, 100)  # repeat 100 of the edges, some both ways
        flip = rng.random(100) < 0.3
        s2 = np.where(flip, dst[pick], src[pick])
        d2 = np.where(flip, src[pick], dst[pick])
        return n, np.concatenate([src, s2]), np.concatenate([dst, d2])
    if name == "empty":
        return 0, np.zeros(0, np.int64), np.zeros(0, np.int64)
    if name == "no_edges":
        return 7, np.zeros(0, np.int64), np.zeros(0, np.int64)
    if name == "single":
        return 1, np.zeros(0, np.int64), np.zeros(0, np.int64)
    if name == "single_loop":
        return 1, np.zeros(1, np.int64), np.zeros(1, np.int64)
    if name == "disconnected":  # three random blocks with no edges between them
        parts, base = [], 0
        srcs, dsts = [], []
        for size in (30, 45, 20):
            m = 2 * size
            srcs.append(base + rng.integers(0, size, m))
            dsts.append(base + rng.integers(0, size, m))
            base += size
        perm = rng.permutation(base)  # scatter the blocks over the ids
        return base, perm[np.concatenate(srcs)], perm[np.concatenate(dsts)]
    if name == "star":  # a hub pointing at everyone, plus a few back-edges
        n = 120
        hub = int(rng.integers(0, n))
        leaves = np.array([v for v in range(n) if v != hub])
        back = rng.choice(leaves, 10, replace=False)
        return n, np.concatenate([np.full(n - 1, hub), back]), np.concatenate([leaves, np.full(10, hub)])
    if name == "path":
        n = 100
        perm = rng.permutation(n)
        return n, perm[:-1], perm[1:]
    raise AssertionError(name)


SHAPES = ["random", "isolated", "selfloops", "duplicates", "empty", "no_edges", "single",
          "single_loop", "disconnected", "star", "path"]


class Case:
    """One graph, built by libgraph and by NetworkX from the same edges."""

    def __init__(self, shape, seed, directed, weighted):
        self.n, self.src, self.dst = _shape(shape, seed)
        m = len(self.src)
        rng = np.random.default_rng(seed + 1000)
        # float32 values, so both sides see the same numbers
        self.w = rng.uniform(0.1, 3.0, m).astype(np.float32) if weighted else None
        self.directed = directed
        self.g = lg.Graph.from_edges(self.src, self.dst, self.w, num_vertices=self.n,
                                     directed=directed, device=CPU)
        G = nx.MultiDiGraph() if directed else nx.MultiGraph()
        G.add_nodes_from(range(self.n))
        for i in range(m):
            attrs = {"weight": float(self.w[i])} if weighted else {}
            G.add_edge(int(self.src[i]), int(self.dst[i]), **attrs)
        self.G = G

    def arcs(self):
        """The set of (u, v) arcs libgraph follows."""
        out = set(zip(self.src.tolist(), self.dst.tolist()))
        if not self.directed:
            out |= set(zip(self.dst.tolist(), self.src.tolist()))
        return out


def cases(shapes=SHAPES, seeds=(0, 1)):
    out = []
    for shape in shapes:
        for seed in seeds if shape in ("random", "isolated", "selfloops", "duplicates",
                                       "disconnected") else seeds[:1]:
            for directed in (False, True):
                for weighted in (False, True):
                    out.append(pytest.param(shape, seed, directed, weighted,
                                            id=f"{shape}-{seed}-{'dir' if directed else 'undir'}"
                                               f"-{'w' if weighted else 'uw'}"))
    return out


_cache = {}


def case(shape, seed, directed, weighted):
    key = (shape, seed, directed, weighted)
    if key not in _cache:
        _cache[key] = Case(*key)
    return _cache[key]


def nx_distances(G, n, sources, max_depth=None):
    want = np.full(n, -1, np.int64)
    for s in sources:
        for v, d in nx.single_source_shortest_path_length(G, s, cutoff=max_depth).items():
            if want[v] < 0 or d < want[v]:
                want[v] = d
    return want


def check_parents(c, dist, parents, sources):
    arcs = c.arcs()
    assert parents.dtype == np.int32 and len(parents) == c.n
    for s in sources:
        assert parents[s] == s and dist[s] == 0
    for v in range(c.n):
        if dist[v] < 0:
            assert parents[v] == -1, v
        elif dist[v] > 0:
            u = int(parents[v])
            assert 0 <= u < c.n, (v, u)
            assert (u, v) in arcs, f"parent {u} of {v} is not an in-neighbour"
            assert dist[u] + 1 == dist[v], (v, u, dist[u], dist[v])


def nx_pagerank(c, **kw):
    r = nx.pagerank(c.G, **kw)
    return np.array([r[v] for v in range(c.n)], dtype=np.float64)


def nx_labels(G, n):
    comps = nx.weakly_connected_components(G) if G.is_directed() else nx.connected_components(G)
    labels = np.full(n, -1, np.int64)
    count = 0
    for comp in comps:
        labels[list(comp)] = min(comp)
        count += 1
    return labels, count


def close(got, want, rtol=1e-6, atol=1e-12):
    got = np.asarray(got, dtype=np.float64)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


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


# ---------------------------------------------------------------------------
# Building: from_edges options, csr(), degrees, repr
# ---------------------------------------------------------------------------


def scipy_csr(n, src, dst, w, directed, sum_duplicates=True):
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    data = np.ones(len(src), np.float64) if w is None else np.asarray(w, np.float64)
    if not directed:
        off = src != dst  # a self-loop is stored once
        src, dst, data = (np.concatenate([src, dst[off]]), np.concatenate([dst, src[off]]),
                          np.concatenate([data, data[off]]))
    A = sp.coo_array((data, (src, dst)), shape=(n, n))
    A = A.tocsr()  # sums duplicates
    A.sort_indices()
    return A


def csr_arcs(g):
    off, idx, w = g.csr()
    rows = np.repeat(np.arange(g.num_vertices), np.diff(off))
    return rows, np.asarray(idx), None if w is None else np.asarray(w)


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


# ---------------------------------------------------------------------------
# Input arrays: dtypes, containers, layouts
# ---------------------------------------------------------------------------

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _reference_graph():
    rng = np.random.default_rng(99)
    n = 100  # ids fit int8
    src, dst = rng.integers(0, n, 400), rng.integers(0, n, 400)
    w = rng.uniform(0.5, 2.0, 400).astype(np.float32)
    ref = lg.Graph.from_edges(src.astype(np.int32), dst.astype(np.int32), w, num_vertices=n,
                              directed=True)
    return src, dst, w, ref


def same_graph(a, b, rtol=0.0):
    """Equal CSR arrays (weights within rtol: sums of float32 copies may round
    differently from SciPy's float64 sums)."""
    assert a.num_vertices == b.num_vertices and a.num_edges == b.num_edges
    assert a.directed == b.directed and a.weighted == b.weighted
    for k, (x, y) in enumerate(zip(a.csr(), b.csr())):
        if x is None or y is None:
            assert x is None and y is None
        elif k == 2 and rtol:
            np.testing.assert_allclose(x, y, rtol=rtol)
        else:
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_integer_dtype(dtype):
    src, dst, w, ref = _reference_graph()
    g = lg.Graph.from_edges(src.astype(dtype), dst.astype(dtype), w, num_vertices=100,
                            directed=True)
    same_graph(g, ref)
    # ids, sources, offsets, indices in the same dtype
    d_ref = lg.bfs(ref, 3, device=CPU)
    np.testing.assert_array_equal(lg.bfs(g, dtype(3), device=CPU), d_ref)
    np.testing.assert_array_equal(lg.bfs(g, np.array([3, 3], dtype=dtype), device=CPU), d_ref)
    off, idx, cw = ref.csr()
    if np.iinfo(dtype).max >= off[-1]:
        g2 = lg.Graph.from_csr(off.astype(dtype), idx.astype(dtype), cw, directed=True)
        same_graph(g2, ref)


@pytest.mark.parametrize("wdtype", [np.float64, np.float32, np.float16, np.int32, np.uint8])
def test_weight_dtypes(wdtype):
    src, dst, _, _ = _reference_graph()
    w = np.random.default_rng(1).integers(1, 8, len(src)).astype(wdtype)  # exact in all
    g = lg.Graph.from_edges(src, dst, w, num_vertices=100, directed=True)
    np.testing.assert_array_equal(np.sort(g.csr()[2]), np.sort(w.astype(np.float32)))


def test_containers():
    src, dst, w, ref = _reference_graph()
    s32, d32 = src.astype(np.int32), dst.astype(np.int32)
    variants = {
        "list": (src.tolist(), dst.tolist(), w.tolist()),
        "tuple": (tuple(src.tolist()), tuple(dst.tolist()), tuple(w.tolist())),
        "array.array i/f": (array.array("i", s32.tolist()), array.array("i", d32.tolist()),
                            array.array("f", w.tolist())),
        "array.array q/d": (array.array("q", src.tolist()), array.array("q", dst.tolist()),
                            array.array("d", w.tolist())),
        "array.array B/H": (array.array("B", src.tolist()), array.array("H", dst.tolist()),
                            array.array("d", w.tolist())),
        "memoryview": (memoryview(s32), memoryview(d32), memoryview(w)),
        "memoryview of array.array": (memoryview(array.array("l", src.tolist())),
                                      memoryview(array.array("l", dst.tolist())),
                                      memoryview(array.array("f", w.tolist()))),
        "bytes": (bytes(src.astype(np.uint8)), bytes(dst.astype(np.uint8)), w),
        "numpy ints": ([np.int64(x) for x in src], [np.uint16(x) for x in dst],
                       [np.float32(x) for x in w]),
    }
    for name, (s, d, ww) in variants.items():
        g = lg.Graph.from_edges(s, d, ww, num_vertices=100, directed=True)
        same_graph(g, ref)
    # bool arrays read as 0/1
    g = lg.Graph.from_edges(np.array([True, False]), np.array([False, True]), directed=True)
    np.testing.assert_array_equal(g.csr()[1], [1, 0])  # arcs 1 -> 0 and 0 -> 1


def test_non_contiguous_and_big_endian():
    src, dst, w, ref = _reference_graph()
    # every other element of a twice-as-long array
    s2 = np.empty(2 * len(src), np.int32)
    s2[::2], s2[1::2] = src, -5
    d2 = np.empty(2 * len(dst), np.int64)
    d2[::2], d2[1::2] = dst, 10 ** 6
    w2 = np.empty(2 * len(w), np.float32)
    w2[::2], w2[1::2] = w, np.nan
    g = lg.Graph.from_edges(s2[::2], d2[::2], w2[::2], num_vertices=100, directed=True)
    same_graph(g, ref)
    # reversed (negative strides), and a column of a 2-D array
    g = lg.Graph.from_edges(src[::-1].astype(np.int32)[::-1], dst.astype(np.int32)[::-1][::-1],
                            w[::-1][::-1], num_vertices=100, directed=True)
    same_graph(g, ref)
    both = np.stack([src, dst], axis=1).astype(np.int32)  # columns are strided
    g = lg.Graph.from_edges(both[:, 0], both[:, 1], w, num_vertices=100, directed=True)
    same_graph(g, ref)
    # big-endian ids and weights
    for it, ft in ((">i4", ">f4"), (">i8", ">f8"), (">u2", ">f8"), ("<i4", "<f4")):
        g = lg.Graph.from_edges(src.astype(it), dst.astype(it), w.astype(ft), num_vertices=100,
                                directed=True)
        same_graph(g, ref)
    # big-endian and strided per-vertex vectors and sources
    pers = np.random.default_rng(3).random(100)
    want = lg.pagerank(ref, personalization=pers, tol=1e-10, device=CPU)
    for p in (pers.astype(">f8"), np.repeat(pers, 2)[::2], pers.astype(np.float32).astype(">f4")):
        close(lg.pagerank(ref, personalization=p, tol=1e-10, device=CPU), want, rtol=1e-6)
    d_ref = lg.bfs(ref, [3, 7], device=CPU)
    np.testing.assert_array_equal(lg.bfs(ref, np.array([3, 9, 7, 9], ">i8")[::2], device=CPU),
                                  d_ref)
    # CSR arrays strided and big-endian
    off, idx, cw = ref.csr()
    g = lg.Graph.from_csr(np.asarray(off).astype(">i8"), np.repeat(idx, 2)[::2],
                          np.asarray(cw).astype(">f4"), directed=True)
    same_graph(g, ref)


def test_input_arrays_are_not_modified_or_kept():
    src = np.array([2, 0, 1, 0], np.int32)
    dst = np.array([0, 1, 2, 2], np.int32)
    w = np.array([1, 2, 3, 4], np.float32)
    s0, d0, w0 = src.copy(), dst.copy(), w.copy()
    g = lg.Graph.from_edges(src, dst, w, directed=True)
    np.testing.assert_array_equal(src, s0)
    np.testing.assert_array_equal(dst, d0)
    np.testing.assert_array_equal(w, w0)
    csr_before = [np.array(a) for a in g.csr()]
    src[:] = 0
    dst[:] = 0
    w[:] = 9  # the graph copied them
    for a, b in zip(g.csr(), csr_before):
        np.testing.assert_array_equal(a, b)


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
    g = lg.Graph.from_scipy(M)
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
    assert g.nodes == [10, 3, 7, 42] and g.num_edges == 4
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


# ---------------------------------------------------------------------------
# Devices, contexts, misc
# ---------------------------------------------------------------------------


def test_contexts_and_last_backend():
    c = case("random", 0, False, True)
    want = lg.pagerank(c.g, tol=1e-10, device="cpu")
    assert lg.last_backend() == "cpu"
    for ctx in (lg.Context(device="cpu", num_threads=1), lg.Context(device="cpu", num_threads=2),
                lg.Context("cpu")):
        assert ctx.backend == "cpu"
        close(lg.pagerank(c.g, tol=1e-10, device=ctx), want, rtol=1e-12)
        np.testing.assert_array_equal(lg.bfs(c.g, 0, device=ctx), lg.bfs(c.g, 0, device="cpu"))
        assert lg.last_backend() == "cpu"
    x = lg.pagerank(c.g, tol=1e-10, device="auto")
    assert lg.last_backend() in ("cpu", "gpu")
    close(x, want, rtol=1e-9)
    assert lg.Context().backend in ("cpu", "gpu")
    assert lg.Context(device="cpu", num_threads=1).num_threads == 1
    assert lg.Context(device="cpu").num_threads >= 1


def test_default_device():
    old = lg.get_default_device()
    assert old == "auto"
    try:
        lg.set_default_device("cpu")
        assert lg.get_default_device() == "cpu"
        g = lg.Graph.from_edges([0, 1], [1, 2])
        lg.bfs(g, 0)
        assert lg.last_backend() == "cpu"
        with pytest.raises(ValueError):
            lg.set_default_device("tpu")
        assert lg.get_default_device() == "cpu"
    finally:
        lg.set_default_device(old)
    assert lg.get_default_device() == "auto"


def test_version_and_build_info():
    assert lg.__version__ == "0.1.0"
    info = lg.build_info()
    assert isinstance(info, str) and "0.1.0" in info
    assert lg.MAX_VERTICES == 2 ** 31 - 1


def test_math_sanity():
    # isolated guard: the comparison helpers do fail on a wrong answer
    with pytest.raises(AssertionError):
        close(np.array([0.5, 0.5]), np.array([0.5, 0.5 + 1e-5]))
    assert math.isclose(1.0, 1.0)


# ---------------------------------------------------------------------------
# More corners
# ---------------------------------------------------------------------------


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


def test_one_element_array_source():
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True)
    for s in (np.array([1]), [1], (1,), np.array([1], np.uint8), array.array("i", [1])):
        np.testing.assert_array_equal(lg.bfs(g, s, device=CPU), [-1, 0, 1, 2])


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


def test_extension_buffers_without_numpy():
    """The extension's own arrays: one-dimensional Buffers (buffer protocol)."""
    from libgraph import _libgraph

    g = lg.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0], directed=True)
    raw = g._g if hasattr(g, "_g") else None
    if raw is None:
        pytest.skip("no raw extension graph to look at")
    off, idx, w = raw.csr()
    for b, fmt in ((off, "q"), (idx, "i"), (w, "f")):
        mv = memoryview(b)
        assert mv.format == fmt and mv.ndim == 1 and mv.readonly
    assert memoryview(off).tolist() == [0, 1, 2, 2]
    d, p = _libgraph.bfs(raw, 0, parents=True)
    assert memoryview(d).tolist() == [0, 1, 2] and memoryview(p).tolist() == [0, 0, 1]
    assert len(d) == 3
