"""Graphs and references shared by the module's tests (test_module_*.py).

The seeded graph shapes (random, isolated vertices, self-loops, duplicate
edges, empty, one vertex, disconnected pieces, a star, a path), each built
once by libgraph and by NetworkX from the same edges (`case`), with
`cases()` for pytest parameters; the NetworkX answers to compare with
(`nx_distances`, `nx_pagerank`, `nx_labels`, `check_parents`, `close`); and
the CSR helpers (`scipy_csr`, SciPy's matrix of the same edges; `csr_arcs`;
`same_graph`).  Every comparison runs on the CPU (`CPU`);
tests/python/test_gpu.py does the GPU.
"""
import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

lg = pytest.importorskip("libgraph")

CPU = "cpu"


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
        base = 0
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
# CSR helpers: SciPy's matrix of the same edges, a graph's arcs, equal graphs
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
