"""Property tests of every public entry point (hypothesis): arrays of every
dtype, shape and layout (memoryviews of any format included), options out
of range or of the wrong type, damaged files, pickles, matrices and tables
either give a correct result or raise an ordinary exception -- never a
SystemError, an OverflowError, an IndexError, an lg.InternalError or a
crash; and memory stays flat over
10,000 calls of a mix of them.  Examples are derandomized, so every run
draws the same ones."""
import collections
import copy
import gc
import pickle

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, event, given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

lg = pytest.importorskip("libgraph")
from graph_cases import CPU, same_graph  # noqa: E402
from test_module_leaks import _rss  # noqa: E402

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])
ORDINARY = (ValueError, TypeError, MemoryError, KeyError, lg.Error)
RAISED = object()


def attempt(fn, *args, **kwargs):
    """fn's result, or RAISED for an ordinary exception; anything else
    (SystemError, lg.InternalError, NotImplementedError, ...) fails the test."""
    try:
        result = fn(*args, **kwargs)
    except lg.InternalError:
        raise
    except ORDINARY as e:
        event(f"{fn.__name__}: {type(e).__name__}")
        return RAISED
    event(f"{fn.__name__}: returned")
    return result


def call(bad, fn, *args, **kwargs):
    """attempt(fn, ...) when some argument is hostile; with none, fn(...):
    valid arguments must not raise."""
    return attempt(fn, *args, **kwargs) if bad else fn(*args, **kwargs)


# ---- Strategies -------------------------------------------------------------


def hostile_ints(lo=-2**70, hi=2**70):
    """Integers in [lo, hi]: negative, small, or beyond libgraph's largest
    vertex id -- never a large valid id, whose graph would take gigabytes."""
    parts = [st.integers(max(lo, 0), min(hi, 64))]
    if lo < 0:
        parts.append(st.integers(lo, -1))
    if hi >= lg.MAX_VERTICES:
        parts.append(st.integers(lg.MAX_VERTICES, hi))
    return st.one_of(parts)


OBJECTS = st.one_of(st.none(), st.booleans(), hostile_ints(), st.floats(), st.text(max_size=3),
                    st.complex_numbers())
SCALARS = OBJECTS | st.sampled_from([b"1", object()])
NON_INTS = st.one_of(st.none(), st.floats(), st.text(max_size=3), st.sampled_from([b"1", [1]]))
OPTIONS = st.sampled_from(["keep", "sum", "max", "first", "mean", ""]) | SCALARS
BOOLS = (st.booleans(), OPTIONS)
DEVICES = st.sampled_from([None, CPU, "auto", "gpu", "gpu:7", "gpu:-1", "tpu", "", 3, b"cpu"])
ON_CPU = (st.just(CPU), DEVICES)
DTYPES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", ">i4", ">i8", "f2", "f4", "f8", ">f8",
          "?", "c8", "c16", "M8[ns]", "m8[s]", "U3", "S3", "O"]
INT_DTYPES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", ">i2", ">i8"]
LAYOUTS = ["c", "reversed", "step", "column", "readonly", "memoryview"]
NODE_KEYS = st.one_of(hostile_ints(), st.text(max_size=3), st.floats(),
                      st.tuples(st.integers(0, 3)), st.booleans(),
                      st.sampled_from([float("nan"), pd.NaT]))  # missing: names no node


def mostly(valid, hostile):
    """valid three times in four, else hostile."""
    return st.integers(0, 3).flatmap(lambda i: hostile if i == 0 else valid)


def arguments(data, **choices):
    """(keyword arguments, the names of the hostile ones): each drawn from its
    (valid, hostile) pair, at most two hostile, so that a bad argument among
    good ones gets past the first check."""
    bad = data.draw(st.sets(st.sampled_from(sorted(choices)), max_size=2), label="hostile")
    return {name: data.draw(pair[name in bad], label=name) for name, pair in choices.items()}, bad


def ints(lo, hi):
    """A C-int option: in [lo, hi], beyond a C int, or not an integer."""
    return st.integers(lo, hi) | st.sampled_from([-2**31 - 1, 2**31, 2**63, 2**64]) | NON_INTS


def laid_out(a, layout):
    """a as an equal array of another memory layout, or a strided memoryview
    (of any format but dates, which numpy exports to no buffer)."""
    if a.ndim != 1 or layout == "c":
        return a.T if layout == "column" else a
    if layout == "reversed":
        return np.ascontiguousarray(a[::-1])[::-1]
    if layout in ("step", "memoryview"):
        a = np.repeat(a, 2)[::2]
        return memoryview(a) if layout == "memoryview" and a.dtype.kind not in "mM" else a
    if layout == "column":
        return np.stack([a, a], axis=1)[:, 0]
    a = a.copy()
    a.setflags(write=False)
    return a


@st.composite
def hostile_arrays(draw, shape=None):
    """An array of any dtype, shape (0-d to 2-d) and layout; integers (and
    dates) as hostile_ints, floats any (NaN, inf, huge, subnormal)."""
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    if shape is None:
        shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=6))
    if dtype.kind in "iumM":
        base = np.dtype("i8") if dtype.kind in "mM" else dtype
        info = np.iinfo(base)
        a = draw(hnp.arrays(base, shape, elements=hostile_ints(int(info.min), int(info.max))))
        a = a.view(dtype)
    else:
        a = draw(hnp.arrays(dtype, shape, elements=OBJECTS if dtype.kind == "O" else None))
    return laid_out(a, draw(st.sampled_from(LAYOUTS)))


ANYTHING = st.one_of(SCALARS, hostile_arrays(), st.lists(SCALARS, max_size=6),
                     st.lists(st.lists(st.integers(0, 3), max_size=2), max_size=4),
                     st.dictionaries(st.none() | hostile_ints(), SCALARS, max_size=3))


@st.composite
def id_arrays(draw, values, damage=False):
    """values (ints) as a list or an integer array of any dtype and layout;
    with damage, one entry replaced by a hostile number, as a list or array."""
    if damage and values:
        values = list(values)
        values[draw(st.integers(0, len(values) - 1))] = draw(hostile_ints() | st.floats())
        return draw(st.sampled_from([list, np.array]))(values)
    layout = draw(st.sampled_from(LAYOUTS + ["list"]))
    if layout == "list":
        return list(values)
    fits = [d for d in INT_DTYPES if np.iinfo(d).max >= max(values, default=0)]
    return laid_out(np.array(values, dtype=draw(st.sampled_from(fits))), layout)


def overwritten(data, at, junk):
    """data with junk written at byte at (mod its length + 1); no junk cuts it there."""
    at %= len(data) + 1
    return data[:at] + junk + (data[at + len(junk):] if junk else b"")


Edges = collections.namedtuple("Edges", "n src dst w directed")


@st.composite
def graphs(draw, min_n=0):
    """(graph, its Edges): up to 12 vertices and 24 edges, of any shape,
    weighted or not, some with node names (str or int)."""
    n = draw(st.integers(min_n, 12))
    m = draw(st.integers(0, 24)) if n else 0
    ends = st.lists(st.integers(0, max(n - 1, 0)), min_size=m, max_size=m)
    src, dst = draw(ends), draw(ends)
    directed = draw(st.booleans())
    w = draw(st.none() | st.lists(st.floats(0.25, 4, width=32), min_size=len(src),
                                  max_size=len(src)))
    g = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed, device=CPU)
    names = draw(st.sampled_from([None, str, lambda i: 1000 - i]))
    if names is not None:
        g.names = [names(i) for i in range(n)]
    return g, Edges(n, src, dst, w, directed)


@st.composite
def out_arrays(draw, n, dtype):
    """An out= array: of the right dtype and length or not, of any layout,
    read-only, or not an array."""
    kind = draw(st.sampled_from(LAYOUTS + ["bytearray", "list", "2d"]))
    length = draw(st.sampled_from([n, max(n - 1, 0), n + 1]))
    dtype = draw(st.sampled_from([dtype, "i4", "i8", "f4", "f8", ">" + dtype]))
    if kind in ("bytearray", "list"):
        return bytearray(8 * length) if kind == "bytearray" else [0] * length
    a = np.full(length, 7, dtype)
    return a.reshape(length, 1) if kind == "2d" else laid_out(a, kind)


def vectors(n, names=None):
    """Valid pagerank vectors: None, or values >= 0 (some > 0) as a list, an
    array or a dict keyed by vertex (by name when the graph has names)."""
    values = st.lists(st.floats(0, 1), min_size=n, max_size=n).map(
        lambda p: [x + (i == 0) for i, x in enumerate(p)])
    keyed = values.map(lambda p: dict(zip(range(n) if names is None else names, p)))
    return st.none() | values | values.map(np.array) | keyed


def memoryviews(n):
    """0 .. n-1 in a memoryview of a format Python unpacks, or one only numpy reads."""
    return st.sampled_from(["<i4", "u8", ">i4", "f2", "c16", "O", "S3", "U3"]).map(
        lambda dtype: memoryview(np.arange(n).astype(dtype)))


def hostile_vectors(n):
    return st.one_of(hostile_arrays(shape=(n,)), hostile_arrays(),
                     st.lists(st.floats(-1, 2) | SCALARS, min_size=n, max_size=n),
                     st.dictionaries(st.integers(-2, n + 1) | st.none(), st.floats(0, 2) | SCALARS,
                                     max_size=4))


# ---- What a correct result is (SciPy's csgraph for the algorithms) ----------


def missing(name):
    return pd.api.types.is_scalar(name) and bool(pd.isna(name))


def check_graph(g):
    """The CSR is well formed: offsets rising from 0 to num_edges, ids in
    range, finite weights, an undirected graph symmetric; names, if any,
    one a vertex, distinct and none missing."""
    n, m = g.num_vertices, g.num_edges
    off, idx, w = g.csr()
    off, idx = np.asarray(off), np.asarray(idx)
    assert 0 <= n <= lg.MAX_VERTICES and off.shape == (n + 1,) and off[0] == 0 and off[-1] == m
    assert np.all(np.diff(off) >= 0) and idx.shape == (m,) and np.all((idx >= 0) & (idx < n))
    assert (w is None) == (not g.weighted)
    assert w is None or (len(w) == m and np.all(np.isfinite(w)))
    if not g.directed:
        assert graph_arcs(g) == collections.Counter((v, u) for u, v in graph_arcs(g).elements())
    if g.names is not None:
        assert len(g.names) == len(set(g.names)) == n and not any(map(missing, g.names))


def arcs(src, dst, directed):
    """The multiset of arcs libgraph stores for these edges."""
    out = collections.Counter(zip(src, dst))
    if not directed:
        out.update((d, s) for s, d in zip(src, dst) if s != d)
    return out


def graph_arcs(g):
    off, idx, _ = g.csr()
    return collections.Counter(zip(np.repeat(np.arange(g.num_vertices), np.diff(off)).tolist(),
                                   np.asarray(idx).tolist()))


def adjacency(e):
    return sp.csr_array((np.ones(len(e.src)), (e.src, e.dst)), shape=(e.n, e.n))


def reference_bfs(e, sources, max_depth=None):
    d = csgraph.shortest_path(adjacency(e), directed=e.directed, unweighted=True,
                              indices=sorted(set(sources))).min(axis=0)
    reached = np.isfinite(d) & (d <= (e.n if max_depth is None else max_depth))
    return np.where(reached, d, -1).astype(int).tolist()


def reference_labels(e):
    """Each vertex's weakly connected component, named by its smallest vertex."""
    if not e.n:
        return []
    _, label = csgraph.connected_components(adjacency(e), directed=True, connection="weak")
    smallest = np.full(e.n, e.n)
    np.minimum.at(smallest, label, np.arange(e.n))
    return smallest[label].tolist()


# ---- Constructors -----------------------------------------------------------


@SETTINGS
@given(graphs(), st.data())
def test_from_edges(graph, data):
    """Ids of any integer dtype and layout give the graph of the edges."""
    _, (n, src, dst, _, _) = graph
    m = len(src)
    bad_array = hostile_arrays(shape=(m,)) | ANYTHING
    args, bad = arguments(
        data, src=(id_arrays(src), bad_array), dst=(id_arrays(dst), bad_array),
        weights=(st.none() | st.lists(st.floats(0, 4, width=32, allow_subnormal=False),
                                      min_size=m, max_size=m), bad_array),
        num_vertices=(st.none() | st.integers(n, n + 3), ints(-2, 20)), directed=BOOLS,
        names=(st.sampled_from([None, False]), OPTIONS), symmetrize=(st.just(False), OPTIONS),
        drop_self_loops=BOOLS, duplicates=(st.sampled_from(["keep", "sum", "min"]), OPTIONS),
        device=ON_CPU)
    g = call(bad, lg.Graph.from_edges, **args)
    if g is RAISED:
        return
    check_graph(g)
    if not bad:
        kept = [(s, d) for s, d in zip(src, dst) if s != d or not args["drop_self_loops"]]
        want = arcs([s for s, _ in kept], [d for _, d in kept], args["directed"])
        got = graph_arcs(g)
        if args["duplicates"] != "keep":
            got, want = set(got), set(want)
        assert got == want
        assert g.num_vertices == (max(src + dst, default=-1) + 1 if args["num_vertices"] is None
                                  else args["num_vertices"])


@SETTINGS
@given(graphs(), st.data())
def test_from_csr(graph, data):
    """A graph's own CSR, in any layout, is the graph; with entries replaced,
    arrays swapped for others or bad options, an error or a sound graph."""
    g = graph[0]
    off, idx, w = (np.asarray(a).tolist() if a is not None else None for a in g.csr())
    args, bad = arguments(
        data, offsets=(id_arrays(off), id_arrays(off, True) | ANYTHING),
        indices=(id_arrays(idx), id_arrays(idx, True) | ANYTHING),
        weights=(st.just(w), hostile_vectors(len(idx))), directed=(st.just(g.directed), OPTIONS),
        symmetrize=(st.just(False), OPTIONS), drop_self_loops=(st.just(False), OPTIONS),
        duplicates=(st.just("keep"), OPTIONS), device=ON_CPU)
    h = call(bad, lg.Graph.from_csr, **args)
    if h is not RAISED:
        check_graph(h)
    if not bad:
        same_graph(g, h)


NODE_LISTS = st.one_of(ANYTHING, st.lists(NODE_KEYS | st.none(), max_size=4),
                       st.integers(0, 12).map(lambda n: ["a"] * n))


@SETTINGS
@given(graphs(), st.integers(0, 4), st.integers(0, 2**12), st.binary(max_size=9), ANYTHING,
       NODE_LISTS)
def test_unpickle_damaged(graph, which, at, junk, other, nodes):
    """A pickle's arguments (directed, offsets, indices, weights) with bytes
    overwritten or cut off, or replaced; its node list replaced by names of
    any length, repeated or missing, or not names: an error or a sound graph
    whose names the names setter takes too."""
    restore, args = graph[0].__reduce_ex__(2)
    args = list(args)
    if which == 4:
        args[4] = nodes
    else:
        args[which] = overwritten(args[which], at, junk) if isinstance(
            args[which], bytes) else other
    h = attempt(restore, *args)
    if h is not RAISED:
        check_graph(h)
        h.names = h.names


@SETTINGS
@given(st.integers(0, 6), mostly(st.none(), st.integers(0, 6)),
       st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.floats()), max_size=12),
       st.sampled_from(["?", "i1", "u2", "i8", "u8", "f4", "f8", "c8"]),
       st.sampled_from([sp.coo_array, sp.coo_matrix]),
       st.sampled_from(["csr", "csc", "coo", "lil", "dok", "bsr", "dia"]), st.booleans(),
       st.booleans(), mostly(st.just(False), OPTIONS))
def test_from_scipy(rows, cols, entries, dtype, cls, fmt, directed, mirrored, symmetrize):
    """Any matrix: not square (cols not None), not symmetric (unless
    mirrored), of any dtype and format, with NaN, inf or beyond its dtype."""
    cols = rows if cols is None else cols
    entries = [e for e in entries if e[0] < rows and e[1] < cols]
    entries += [(c, r, x) for r, c, x in entries if mirrored and r < cols and c < rows]
    r, c, x = zip(*entries) if entries else ((), (), ())
    with np.errstate(all="ignore"):  # floats beyond the dtype: inf, or any integer
        A = cls((np.array(x, np.float64).astype(dtype), (r, c)), shape=(rows, cols)).asformat(fmt)
    g = attempt(lg.Graph.from_scipy, A, directed, symmetrize=symmetrize, device=CPU)
    if g is not RAISED:
        check_graph(g)
        assert g.num_vertices == rows == cols
        if directed and symmetrize is False and fmt in ("csr", "csc", "coo"):
            assert set(graph_arcs(g)) == set(zip(r, c))
    assert attempt(lg.Graph.from_scipy, A.toarray()) is RAISED


@SETTINGS
@given(st.integers(0, 6).flatmap(lambda m: st.tuples(*[hostile_arrays(shape=(m,))] * 3)),
       mostly(st.just("source"), st.sampled_from(["target", "nope", 0])),
       st.sampled_from([None, "weight", "source", "nope"]), st.booleans(), OPTIONS)
def test_from_pandas(columns, source, weight, directed, names):
    df = pd.DataFrame(dict(zip(["source", "target", "weight"], map(np.asarray, columns))))
    g = attempt(lg.Graph.from_pandas, df, source, "target", weight, directed=directed, names=names,
                device=CPU)
    if g is not RAISED:
        check_graph(g)
        assert g.names is None or g.num_vertices <= 2 * len(df)


WEIGHTS = SCALARS.map(lambda x: 0.0 if isinstance(x, float) and 0 < abs(x) < 1e-30 else x)


@SETTINGS
@given(st.sampled_from([nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph]),
       st.lists(NODE_KEYS, max_size=8),
       st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), mostly(st.floats(0, 9), WEIGHTS)),
                max_size=12),
       mostly(st.just("weight"), st.sampled_from([None, "other", 3])),
       mostly(st.just(1.0), WEIGHTS))
def test_from_networkx(cls, nodes, edges, weight, default_weight):
    """Any node keys (a NaN one refused), weights of any type and value (not
    below 1e-30: they are known to become 0); the graph has G's nodes, in
    order, and arcs."""
    G = cls()
    G.add_nodes_from(nodes)
    keys = list(G)
    for u, v, w in edges if keys else ():
        G.add_edge(keys[u % len(keys)], keys[v % len(keys)], weight=w)
    g = attempt(lg.Graph.from_networkx, G, weight, default_weight=default_weight, device=CPU)
    assert g is RAISED or not any(map(missing, keys))
    if g is not RAISED:
        check_graph(g)
        assert g.num_vertices == len(G) and g.names == keys and g.directed == G.is_directed()
        assert set(graph_arcs(g)) == arcs([keys.index(u) for u, _ in G.edges()],
                                          [keys.index(v) for _, v in G.edges()], g.directed).keys()
    assert attempt(lg.Graph.from_networkx, nodes) is RAISED


@SETTINGS
@given(st.data())
def test_generate(data):
    """generate's graph is generate_edges' edges, undirected, self-loops dropped, merged."""
    args, bad = arguments(
        data, kind=(st.sampled_from(["kron", "urand"]), st.sampled_from(["rmat", "", None, 1])),
        scale=(st.integers(1, 8), ints(-1, 8)), edge_factor=(st.integers(1, 8), ints(-1, 8)),
        seed=(st.integers(0, 2**64 - 1), st.integers(-2**65, 2**65) | SCALARS), device=ON_CPU)
    g = call(bad, lg.Graph.generate, **args)
    edges = call(bad, lg.generate_edges, **args)
    assert (edges is RAISED) == (g is RAISED)
    if g is not RAISED:
        check_graph(g)
        same_graph(g, lg.Graph.from_edges(*edges, num_vertices=2 ** args["scale"],
                                          drop_self_loops=True, duplicates="first", device=CPU))


# ---- Files ------------------------------------------------------------------

FORMATS = ["mtx", "el", "wel", "lgb"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("properties")


HOSTILE_PATHS = ["dir", "no_dir", "nul", "bytes", "int", "none", "list", "no_ext"]


@settings(SETTINGS, max_examples=120)
@given(graphs(), st.sampled_from(FORMATS), st.integers(0, 2**16), st.binary(max_size=8),
       mostly(st.none(), st.sampled_from(FORMATS + ["txt", 1])),
       mostly(st.none(), st.sampled_from([True, False, "x"])),
       mostly(st.just("ok"), st.sampled_from(HOSTILE_PATHS)), mostly(st.just(None), OPTIONS))
def test_save_and_load(workdir, graph, fmt, at, junk, read_as, directed, where, names):
    """A saved graph loads back as it was (.el drops the weights, only .lgb
    keeps names); with bytes overwritten or cut off at any place, read as
    any format, an error or a sound graph.  Paths that cannot be written
    and bad options: an error, or a file that loads back with the arcs."""
    g, _ = graph
    path = {"dir": workdir, "no_dir": workdir / "none" / "g.lgb", "nul": f"{workdir}/g\0.lgb",
            "bytes": bytes(workdir / "b.lgb"), "int": 2, "none": None, "list": [str(workdir)],
            "no_ext": workdir / "g.out", "ok": workdir / f"g.{fmt}"}[where]
    if where != "ok" or names is not None:
        if attempt(g.save, path, read_as, names=names, device=CPU) is None:
            h = lg.Graph.load(path, read_as, g.directed, device=CPU)
            assert h.num_vertices == g.num_vertices and set(graph_arcs(h)) == set(graph_arcs(g))
        return
    g.save(path, names=fmt == "lgb", device=CPU)
    h = lg.Graph.load(path, device=CPU)
    if fmt == "el" and g.weighted:
        assert not h.weighted and graph_arcs(h) == graph_arcs(g)
    else:
        same_graph(g, h)
    assert h.names == (g.names if fmt == "lgb" else None)
    path.write_bytes(overwritten(path.read_bytes(), at, junk))
    h = attempt(lg.Graph.load, path, read_as, directed, device=CPU)
    if h is not RAISED:
        check_graph(h)


# ---- Algorithms -------------------------------------------------------------


@SETTINGS
@given(graphs(min_n=1), st.data())
def test_bfs(graph, data):
    """Valid sources (ids in any layout, or names) give the reference's
    distances and parents one level up; bad arguments an error, and out= and
    parents_out= sharing memory a ValueError."""
    g, e = graph
    name = (lambda v: v) if g.names is None else g.names.__getitem__

    def as_source(ids):
        """(the source argument, its vertex ids): one, or several as an array or list."""
        many = id_arrays(ids) if g.names is None else st.just([name(v) for v in ids])
        return st.just((name(ids[0]), ids[:1])) | many.map(lambda a: (a, ids))
    out = (st.none() | st.builds(np.full, st.just(e.n), st.just(7), st.just(np.int32)),
           out_arrays(e.n, "i4"))
    args, bad = arguments(
        data, source=(st.lists(st.integers(0, e.n - 1), min_size=1, max_size=3).flatmap(as_source),
                      (st.integers(-3, e.n + 2) | ANYTHING).map(lambda a: (a, None))),
        parents=BOOLS, max_depth=(st.none() | st.integers(0, e.n), ints(-2, 20)),
        direction_alpha=(st.integers(0, 40), ints(-2, 40)),
        direction_beta=(st.integers(1, 40), ints(-2, 40)), device=ON_CPU, out=out,
        parents_out=out)
    args["source"], sources = args["source"]
    shared = data.draw(st.integers(0, 7), label="shared") == 0  # one array for both
    if shared:
        args["out"] = args["parents_out"] = np.full(e.n, 7, np.int32)
    out = args["out"]
    r = call(bad or shared, lg.bfs, g, **args)
    assert r is RAISED or not (shared and args["parents"])  # results in shared memory: garbage
    if r is RAISED:
        return
    dist, parents = r if isinstance(r, tuple) else (r, None)
    assert out is None or dist is out
    dist = np.asarray(dist)
    assert dist.shape == (e.n,) and dist.dtype == np.int32 and 0 in dist
    assert np.all((dist >= -1) & (dist < e.n))
    if not bad:
        assert dist.tolist() == reference_bfs(e, sources, args["max_depth"])
        arcs_ = arcs(e.src, e.dst, e.directed)
        for v, p in enumerate([] if parents is None else parents.tolist()):
            if dist[v] <= 0:  # a source is its own parent; an unreached vertex has none
                assert p == (v if dist[v] == 0 else -1)
            else:
                assert (p, v) in arcs_ and dist[p] == dist[v] - 1


def test_bfs_refuses_out_and_parents_out_sharing_memory():
    """Distances and parents written into the same memory are garbage:
    ValueError for one array, overlapping views, and GPU arrays at one address."""
    g = lg.Graph.from_edges([0, 1], [1, 2])
    a, b = np.zeros(3, np.int32), np.zeros(6, np.int32)
    for out, parents_out in ((a, a), (b[:3], b[2:5]), (b[3:], memoryview(b)[:4])):
        with pytest.raises(ValueError, match="out and parents_out share memory"):
            lg.bfs(g, 0, parents=True, out=out, parents_out=parents_out, device=CPU)
    d, p = lg.bfs(g, 0, parents=True, out=b[:3], parents_out=b[3:], device=CPU)
    assert b.tolist() == [0, 1, 2, 0, 0, 1] and d.base is b and p.base is b
    assert lg.bfs(g, 0, out=a, parents_out=a, device=CPU).tolist() == [0, 1, 2]  # no parents

    class OnGpu:  # read, never dereferenced: refused before any GPU work
        __cuda_array_interface__ = {"shape": (3,), "typestr": "<i4", "data": (4096, False),
                                    "version": 3}
    with pytest.raises(ValueError, match="share memory"):
        lg.bfs(g, 0, parents=True, out=OnGpu(), parents_out=OnGpu(), device=CPU)


@SETTINGS
@given(graphs(), st.data())
def test_pagerank(graph, data):
    """Whatever is accepted gives scores >= 0 that sum to 1; valid arguments
    are accepted (or run out of max_iter)."""
    g, e = graph
    vector = (vectors(e.n, g.names), hostile_vectors(e.n))
    args, bad = arguments(
        data, alpha=(st.floats(0, 1), st.floats(-0.5, 1.5) | SCALARS),
        personalization=vector, nstart=vector, dangling=vector,
        max_iter=(st.integers(1, 200), ints(-2, 200)),
        tol=(st.floats(1e-10, 1e-3), st.floats(0, 1e-3) | SCALARS),
        weight=(st.booleans(), st.sampled_from([None, "weight", "w", 1])),
        dtype=(st.sampled_from(["float64", "float32"]),
               st.sampled_from(["float16", None, np.float32, 1])),
        device=ON_CPU, out=(st.none(), out_arrays(e.n, "f8")), return_info=BOOLS)
    try:
        r = call(bad, lg.pagerank, g, **args)
    except lg.NotConverged:  # valid arguments, too few iterations for tol
        r = RAISED
    if r is not RAISED:
        x = r[0] if isinstance(r, tuple) else r
        assert args["out"] is None or x is args["out"]
        x = np.asarray(x)
        assert x.shape == (e.n,) and np.all(x >= 0)
        assert e.n == 0 or abs(x.sum() - 1) < (1e-9 if x.dtype == np.float64 else 1e-5)


@SETTINGS
@given(graphs(), mostly(st.just(CPU), DEVICES), st.data())
def test_connected_components(graph, device, data):
    g, e = graph
    out = data.draw(mostly(st.none(), out_arrays(e.n, "i4")))
    got = attempt(lg.connected_components, g, device=device, out=out)
    if got is not RAISED:
        assert np.asarray(got).tolist() == reference_labels(e) and (out is None or got is out)
        assert lg.number_connected_components(g, device=device) == len(set(reference_labels(e)))


# ---- Graph methods, contexts, defaults --------------------------------------


@SETTINGS
@given(graphs(), st.data(), ANYTHING)
def test_graph_methods(graph, data, key):
    """Names of any kind (missing ones refused), lookups, per-vertex results
    and named edges of anything (arrays of any format and layout); pickles
    and copies keep the graph and its names."""
    g, e = graph
    names = data.draw(st.lists(NODE_KEYS | st.none(), min_size=e.n, max_size=e.n) |
                      memoryviews(e.n) | hostile_vectors(e.n), label="names")
    values = data.draw(memoryviews(e.n) | hostile_vectors(e.n), label="values")
    if attempt(setattr, g, "names", names) is None:
        check_graph(g)
    keys = list(range(e.n)) if g.names is None else g.names
    assert g.index_of(keys).tolist() == [g.vertex(k) for k in keys] == list(range(e.n))
    assert list(g.to_dict(np.arange(e.n))) == keys
    assert g.to_pandas(np.arange(e.n)).tolist() == list(range(e.n))
    for fn in (g.vertex, g.index_of, g.to_dict, g.to_pandas, lambda x: lg.bfs(g, x, device=CPU),
               lambda x: lg.Graph.from_edges(x, x, names=True)):
        attempt(fn, key)
        attempt(fn, values)
    attempt(g.to_pandas, np.arange(e.n), name=key)
    assert g.out_degrees().sum() == g.in_degrees().sum() == g.num_edges
    assert g.to_scipy().nnz == g.num_edges and len(g.csc()[1]) == g.num_edges
    for h in [pickle.loads(pickle.dumps(g, p)) for p in (2, 5)] + [copy.copy(g), copy.deepcopy(g)]:
        same_graph(g, h)  # names alike: a bare object() equals only itself, not its copy
        assert h.names == g.names or pickle.dumps(h.names) == pickle.dumps(g.names)


@SETTINGS
@given(graphs(min_n=1), DEVICES, st.sampled_from([True, False, None, print, 3, "x"]), st.data())
def test_context_default_device_and_progress(graph, default, progress, data):
    """Contexts of any device and thread count (not above 4: a large count
    is known to crash), and any default device and progress setting."""
    g, e = graph
    want = reference_bfs(e, [0])
    source = 0 if g.names is None else g.names[0]
    args, bad = arguments(
        data, device=(st.sampled_from([CPU, "auto"]), DEVICES),
        num_threads=(st.integers(0, 4), st.integers(-3, -1) | st.sampled_from([2**31, 2**64]) |
                     NON_INTS))
    ctx = call(bad, lg.Context, args.pop("device"), **args)
    if ctx is not RAISED:
        assert ctx.num_threads >= 1 and repr(ctx)
        assert lg.bfs(g, source, device=ctx).tolist() == want
    saved_device, saved_progress = lg.get_default_device(), lg.get_progress()
    try:
        if attempt(lg.set_default_device, default) is None:
            assert lg.get_default_device() == ("auto" if default is None else default)
        attempt(lg.set_progress, progress)
        r = attempt(lg.bfs, g, source)
        assert r is RAISED or r.tolist() == want
    finally:
        lg.set_default_device(saved_device)
        lg.set_progress(saved_progress)


# ---- Memory -----------------------------------------------------------------


def test_memory_is_stable_over_10000_calls():
    """A round of building, the three algorithms and one failing call, 10,000
    times: the resident size after warm-up grows by less than 8 MB."""
    n = 17
    src, dst = np.arange(40) % n, (np.arange(40) * 5 + 3) % n
    failing = [lambda g: lg.Graph.from_edges(src, dst - 5, device=CPU),
               lambda g: lg.pagerank(g, alpha=2.0, device=CPU),
               lambda g: lg.bfs(g, n, device=CPU),
               lambda g: lg.connected_components(g, out=np.empty(3, np.int32), device=CPU)]

    def one_round(i):
        g = lg.Graph.from_edges(src, dst, device=CPU)
        assert abs(lg.pagerank(g, device=CPU).sum() - 1) < 1e-9
        assert lg.bfs(g, i % n, device=CPU)[i % n] == 0
        assert lg.connected_components(g, device=CPU)[i % n] <= i % n
        with pytest.raises(ValueError):
            failing[i % len(failing)](g)

    for i in range(500):
        one_round(i)
    gc.collect()
    before = _rss()
    for i in range(10000):
        one_round(i)
    gc.collect()
    grown = _rss() - before
    assert grown < 8 * 1024 * 1024, f"RSS grew {grown} bytes over 10,000 rounds"
