"""Arguments of every public entry point, each given the wrong type or an
edge value (floats where ints go, sets and generators where sequences go,
bytes where text goes, NaN, 2**64, 2**1000, negatives, empty, None): each
call gives the correct result or raises TypeError or ValueError (or one of
libgraph's documented exceptions) whose message names the argument --
never SystemError, OverflowError, KeyError, a bare MemoryError, a crash or
a hang.  Before the sweep, the cases it grew from: huge broadcast arrays,
thread counts, DataFrame columns of dates and of nothing, and malformed
GPU array interfaces."""
import ctypes
import faulthandler
import os

import numpy as np
import pandas as pd
import pytest

lg = pytest.importorskip("libgraph")
from libgraph import _gpu_arrays  # noqa: E402
from graph_cases import CPU  # noqa: E402


@pytest.fixture(autouse=True)
def no_hang():
    """A call that hangs fails the run (a traceback of every thread) instead
    of stalling it."""
    faulthandler.dump_traceback_later(120, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


# ---- The cases -------------------------------------------------------------


@pytest.mark.parametrize("name, call", [
    ("src", lambda big: lg.Graph.from_edges(big, big, device=CPU)),
    ("dst", lambda big: lg.Graph.from_edges([0], big, device=CPU)),
    ("weights", lambda big: lg.Graph.from_edges([0], [1], big, device=CPU)),
    ("offsets", lambda big: lg.Graph.from_csr(big, [0], device=CPU)),
    ("source", lambda big: lg.bfs(lg.Graph.from_edges([0], [1], device=CPU), big, device=CPU)),
])
def test_a_copy_too_large_for_memory_names_the_argument(name, call):
    """A broadcast view claims 2**40 elements (4 TiB as int32) in 4 bytes:
    its copy is a MemoryError that says which argument and how large."""
    big = np.broadcast_to(np.int64(1), 2**40)
    with pytest.raises(MemoryError, match=rf"^{name}: a copy of its 1099511627776 elements as "
                                          rf"(int32|int64|float32|float64) \((4\.0|8\.0) TiB\)"):
        call(big)


def test_thread_counts_of_any_size():
    for n in (-1, 4097, 2**31, 2**40, 2**64, 2**1000, -2**1000):
        with pytest.raises(lg.InvalidArgumentError, match=rf"num_threads: {n} is outside "
                                                          rf"\[0, 4096\]"):
            lg.Context(device="cpu", num_threads=n)
    for x in (2.0, "2", None, b"2"):
        with pytest.raises(TypeError, match="num_threads: expected an integer"):
            lg.Context(device="cpu", num_threads=x)
    assert lg.Context(device="cpu", num_threads=np.int64(3)).num_threads == 3
    assert lg.Context(device="cpu", num_threads=True).num_threads == 1


def test_dataframe_columns_of_dates_are_node_names_as_in_networkx():
    nx = pytest.importorskip("networkx")
    # two units (ns, us) in two columns, and a time one nanosecond past midnight
    days = pd.to_datetime(["2020-01-01", "2020-01-02 00:00:00.000000001"], format="mixed")
    df = pd.DataFrame({"source": days, "target": pd.to_datetime(["2020-01-02", "2020-01-03"])})
    for frame in (df, df.assign(source=df.source.dt.tz_localize("UTC"),
                                target=df.target.dt.tz_localize("UTC")),
                  pd.DataFrame({"source": pd.to_timedelta([1, 2]),
                                "target": pd.to_timedelta([2, 3])})):
        g = lg.Graph.from_pandas(frame, device=CPU)
        G = nx.from_pandas_edgelist(frame)
        assert g.names == list(G) and g.num_edges == 2 * G.number_of_edges()
        assert all(type(a) is type(b) for a, b in zip(g.names, G))
        hops = nx.single_source_shortest_path_length(G, g.names[0])
        assert lg.bfs(g, g.names[0], device=CPU).tolist() == [hops.get(v, -1) for v in g.names]


def test_an_empty_dataframe_is_a_graph_of_no_edges():
    nx = pytest.importorskip("networkx")
    for df in (pd.DataFrame({"source": [], "target": []}),  # float64 columns
               pd.DataFrame({"source": pd.Series([], dtype="int64"),
                             "target": pd.Series([], dtype="int64"), "weight": []}),
               pd.DataFrame({"source": pd.Series([], dtype=object),
                             "target": pd.Series([], dtype=str)})):
        g = lg.Graph.from_pandas(df, weight="weight" if "weight" in df else None, device=CPU)
        assert g.num_vertices == g.num_edges == 0
        assert len(nx.from_pandas_edgelist(df)) == 0
    assert lg.Graph.from_edges(np.array([]), np.array([]), device=CPU).num_vertices == 0
    with pytest.raises(KeyError, match="df has no column 'source'"):
        lg.Graph.from_pandas(pd.DataFrame(), device=CPU)


def test_dataframe_columns_that_cannot_be_read_are_named():
    df = pd.DataFrame({"a": [0.0, 1.0], "b": [1, 2], "w": ["x", "y"],
                       "n": pd.array([0, None], dtype="Int64"), "f": [0.5, float("nan")]})
    with pytest.raises(TypeError, match=r"^source: df\['a'\], a column of float64, holds no "
                                        r"vertex ids .*names=True"):
        lg.Graph.from_pandas(df, "a", "b", device=CPU)
    g = lg.Graph.from_pandas(df, "a", "b", names=True, device=CPU)
    assert g.names == [0.0, 1, 2]  # 1 == 1.0: one name, as in NetworkX
    with pytest.raises(TypeError, match=r"^weight: df\['w'\], a column of .* holds no weights"):
        lg.Graph.from_pandas(df, "b", "b", "w", device=CPU)
    with pytest.raises(ValueError, match=r"^target: df\['n'\] at row 1: a missing value"):
        lg.Graph.from_pandas(df, "b", "n", device=CPU)
    with pytest.raises(ValueError, match=r"^weight: df\['f'\] at row 1: a missing value .* is "
                                         r"no weight"):
        lg.Graph.from_pandas(df, "b", "b", "f", device=CPU)
    with pytest.raises(TypeError, match=r"^source: df\[\['a'\]\] is not one column"):
        lg.Graph.from_pandas(df, ["a"], "b", device=CPU)


def test_a_column_of_ids_with_a_missing_value_says_which_row_and_what_to_do():
    """pandas stores a column of integers with a missing value as float64:
    the message names the first NaN's row (its index label) and says to drop
    it and convert, from from_pandas and from from_edges alike."""
    df = pd.DataFrame({"source": [0, 1, None, 3, None], "target": [1, 2, 3, 4, 0]},
                      index=["a", "b", "c", "d", "e"])
    assert df.source.dtype == np.float64
    with pytest.raises(TypeError) as info:
        lg.Graph.from_pandas(df, device=CPU)
    assert str(info.value) == (
        "source: df['source'], a column of float64, holds no vertex ids (integers) or node "
        "names: row 'c' is NaN, a missing value, which makes pandas store a column of "
        "integers as floats: drop the rows that miss one (df.dropna(subset=['source'])), then "
        'convert the column (.astype("int64"))')
    with pytest.raises(TypeError, match=r"^target: df\['source'\], .* row 'c' is NaN.*"
                                        r"df\.dropna\(subset=\['source'\]\)"):
        lg.Graph.from_pandas(df, "target", "source", device=CPU)
    for src, dst, param in [(df.source, df.target, "src"), (df.target, df.source, "dst")]:
        with pytest.raises(TypeError) as info:
            lg.Graph.from_edges(src, dst, device=CPU)
        assert str(info.value) == (
            f"{param}: must hold integers (vertex ids), not floats (float64): row 'c' is NaN, a "
            "missing value, which makes pandas store a column of integers as floats: drop the "
            'edges that miss one (.dropna()), then convert the ids (.astype("int64"))')
    with pytest.raises(TypeError, match=r"^src: .*: element 2 is NaN.*\.dropna\(\).*"
                                        r'\.astype\("int64"\)'):
        lg.Graph.from_edges(df.source.to_numpy(), df.target.to_numpy(), device=CPU)
    with pytest.raises(TypeError, match=r'^src: .*not floats \(float32\): convert them '
                                        r'\(\.astype\("int64"\)\), or pass names=True'):
        lg.Graph.from_edges(np.array([0, 1], np.float32), [1, 2], device=CPU)
    # what the messages say to do gives the graph
    kept = df.dropna()
    g = lg.Graph.from_pandas(kept.astype("int64"), device=CPU)
    assert g.num_vertices == 5 and g.num_edges == 2 * len(kept)


def test_a_missing_column_is_named_with_the_columns_there_are():
    df = pd.DataFrame({"from": [0, 1], "to": [1, 2], "w": [1.0, 2.0]})
    with pytest.raises(KeyError) as info:
        lg.Graph.from_pandas(df, device=CPU)
    assert info.value.args[0] == ("df has no column 'source': its columns are 'from', 'to', "
                                  "'w'; pass the source column's name as source=")
    with pytest.raises(KeyError, match="df has no column 'weight': its columns are 'from', 'to', "
                                       "'w'; pass the weight column's name as weight="):
        lg.Graph.from_pandas(df, "from", "to", "weight", device=CPU)
    wide = pd.DataFrame({f"c{i}": [0] for i in range(30)})
    with pytest.raises(KeyError, match=r"its columns are 'c0', 'c1', .*'c19', \.\.\.; pass"):
        lg.Graph.from_pandas(wide, device=CPU)
    g = lg.Graph.from_pandas(df, "from", "to", "w", device=CPU)
    assert g.weighted and g.num_edges == 4


def test_an_algorithm_given_another_kind_of_graph_says_how_to_make_one():
    nx = pytest.importorskip("networkx")
    sp = pytest.importorskip("scipy.sparse")
    G = nx.path_graph(4)
    for call, kind, networkx_call in [
            (lambda x: lg.pagerank(x), "networkx.Graph", "networkx.pagerank(G, "),
            (lambda x: lg.bfs(nx.DiGraph(x), 0), "networkx.DiGraph",
             "networkx.single_source_shortest_path_length(G, source, "),
            (lambda x: lg.connected_components(x), "networkx.Graph",
             "networkx.connected_components(G, "),
            (lambda x: lg.number_connected_components(nx.DiGraph(x)), "networkx.DiGraph",
             "networkx.number_weakly_connected_components(G, ")]:
        with pytest.raises(TypeError) as info:
            call(G)
        assert str(info.value) == (
            f"G: expected a libgraph.Graph, not a {kind}: convert it with "
            "libgraph.Graph.from_networkx(G) (its node keys become the names), or run "
            "NetworkX's own function on libgraph through the NetworkX backend: "
            f'{networkx_call}backend="libgraph")')
    with pytest.raises(TypeError, match=r"^G: expected a libgraph\.Graph, not a scipy\.sparse "
                                        r"csr_array: convert it with libgraph\.Graph\.from_scipy"):
        lg.pagerank(sp.csr_array(np.eye(3)))
    with pytest.raises(TypeError, match=r"^G: expected a libgraph\.Graph, not a pandas DataFrame: "
                                        r".*libgraph\.Graph\.from_pandas\(df"):
        lg.bfs(pd.DataFrame({"source": [0], "target": [1]}), 0)
    with pytest.raises(TypeError, match=r"^G: expected a libgraph\.Graph, not list: build one "
                                        r"with libgraph\.Graph\.from_edges"):
        lg.connected_components([(0, 1)])
    # what the message says works
    g = lg.Graph.from_networkx(G)
    np.testing.assert_allclose(lg.pagerank(g, device=CPU),
                               list(nx.pagerank(G, backend="libgraph").values()), rtol=1e-12)


class Interface:
    """An object that says it is GPU memory through a given interface dict."""

    def __init__(self, cai):
        self.__cuda_array_interface__ = cai


GOOD = {"typestr": "<i4", "shape": (3,), "data": (4096, False), "version": 3}


@pytest.mark.parametrize("damage, error, message", [
    ({"typestr": None}, TypeError, r"\['typestr'\] must be a str"),
    ({"typestr": "<ix"}, ValueError, r"\['typestr'\] '<ix' is not a type string"),
    ({"typestr": "i4"}, ValueError, r"\['typestr'\] 'i4' is not a type string"),
    ({"shape": 3}, TypeError, r"\['shape'\] must be a tuple of ints"),
    ({"shape": (3.0,)}, TypeError, r"\['shape'\] must be a tuple of ints"),
    ({"shape": (-3,)}, ValueError, r"\['shape'\] \(-3,\) has a negative side"),
    ({"shape": (3, 1)}, ValueError, "expected one dimension, not 2"),
    ({"data": 4096}, TypeError, r"\['data'\] must be a pair"),
    ({"data": (4096, False, 1)}, TypeError, r"\['data'\] must be a pair"),
    ({"data": ("4096", False)}, TypeError, r"\['data'\]\[0\] must be an int"),
    ({"data": (-1, False)}, ValueError, r"\['data'\]\[0\] -1 is no address"),
    ({"data": (2**64, False)}, ValueError, "is no address"),
    ({"strides": 4}, TypeError, r"\['strides'\] must be a tuple of ints"),
    ({"strides": (4, 4)}, ValueError, "2 strides for 1 dimensions"),
    ({"strides": (8,)}, ValueError, "must be contiguous"),
    ({"mask": object()}, ValueError, "masked GPU array"),
    ({"typestr": ...}, TypeError, "has no 'typestr' entry"),
    ({"shape": ...}, TypeError, "has no 'shape' entry"),
    ({"data": ...}, TypeError, "has no 'data' entry"),
])
def test_a_malformed_cuda_array_interface_is_named(damage, error, message):
    cai = {k: v for k, v in {**GOOD, **damage}.items() if v is not ...}
    g = lg.Graph.from_edges([0, 1], [1, 2], device=CPU)
    calls = {"src": lambda a: lg.Graph.from_edges(a, [0, 1, 2], device=CPU),
             "indices": lambda a: lg.Graph.from_csr([0, 3], a, directed=True, device=CPU),
             "source": lambda a: lg.bfs(g, a, device=CPU),
             "out": lambda a: lg.connected_components(g, out=a, device=CPU),
             "personalization": lambda a: lg.pagerank(g, personalization=a, device=CPU)}
    for name, call in calls.items():
        with pytest.raises(error, match=rf"^{name}: __cuda_array_interface__.*{message}|"
                                        rf"^{name}: .*{message}"):
            call(Interface(cai))
    with pytest.raises(TypeError, match=r"^src: __cuda_array_interface__ must be a dict, not list"):
        lg.Graph.from_edges(Interface([1]), [0], device=CPU)


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class DLPacked:
    """An object that says it is CUDA memory through DLPack, with a given
    device answer and a capsule over a DLTensor of the given fields (never
    dereferenced: refused before any GPU work)."""

    def __init__(self, device=(2, 0), capsule=None, ndim=1, code=0, bits=32, lanes=1,
                 shape=(3,), name=b"dltensor"):
        self.device = device
        self.shape = (ctypes.c_int64 * len(shape))(*shape) if shape is not None else None
        self.tensor = _gpu_arrays._DLTensor(
            4096, _gpu_arrays._DLDevice(2, 0), ndim, _gpu_arrays._DLDataType(code, bits, lanes),
            ctypes.cast(self.shape, ctypes.POINTER(ctypes.c_int64)) if shape is not None else None,
            None, 0)
        self.capsule = (capsule if capsule is not None
                        else _capsule_new(ctypes.addressof(self.tensor), name, None))

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, **kwargs):
        return self.capsule


@pytest.mark.parametrize("kwargs, error, message", [
    ({"device": (2, 0, 1)}, TypeError, r"__dlpack_device__\(\) must give a pair of ints"),
    ({"device": "cuda"}, TypeError, r"__dlpack_device__\(\) must give a pair of ints"),
    ({"device": (2.0, 0)}, TypeError, r"__dlpack_device__\(\) must give a pair of ints"),
    ({"capsule": 5}, TypeError, r"__dlpack__\(\) must give a DLPack capsule, not int"),
    ({"name": b"used_dltensor"}, ValueError, "not an unused 'dltensor'"),
    ({"ndim": 2, "shape": (3, 1)}, ValueError, "expected one dimension, not 2"),
    ({"ndim": 0, "shape": None}, ValueError, "expected one dimension, not 0"),
    ({"shape": None}, ValueError, "the DLPack tensor has no shape"),
    ({"shape": (-3,)}, ValueError, "a negative length, -3"),
    ({"bits": 12}, TypeError, "elements of 12 bits are not numbers"),
    ({"lanes": 2}, TypeError, "2 lanes is not a number"),
    ({"code": 5}, TypeError, "type code 5 with 1 lanes"),
])
def test_a_malformed_dlpack_array_is_named(kwargs, error, message):
    with pytest.raises(error, match=rf"^src: .*{message}"):
        lg.Graph.from_edges(DLPacked(**kwargs), [0, 1, 2], device=CPU)
    with pytest.raises(error, match=rf"^weights: .*{message}"):
        lg.Graph.from_edges([0, 1, 2], [0, 1, 2], DLPacked(**kwargs), device=CPU)


# ---- The sweep -------------------------------------------------------------

NAN, INF = float("nan"), float("inf")

# Each hostile value as a factory (a generator is used up by one call).
HOSTILE = {
    "float": lambda: 1.5, "whole float": lambda: 2.0, "nan": lambda: NAN, "inf": lambda: INF,
    "-inf": lambda: -INF, "numpy nan": lambda: np.float64(NAN), "negative": lambda: -1,
    "-2**31-1": lambda: -2**31 - 1, "2**31": lambda: 2**31, "2**63": lambda: 2**63,
    "2**64": lambda: 2**64, "2**1000": lambda: 2**1000, "-2**1000": lambda: -2**1000,
    "numpy int": lambda: np.int64(1), "bool": lambda: True, "complex": lambda: 1j,
    "None": lambda: None, "empty str": lambda: "", "str": lambda: "x", "bytes": lambda: b"cpu",
    "bytearray": lambda: bytearray(b"\x00\x01"), "empty list": lambda: [],
    "empty tuple": lambda: (), "empty array": lambda: np.array([]), "set": lambda: {0, 1},
    "frozenset": lambda: frozenset({1}), "generator": lambda: (i for i in (0, 1)),
    "dict": lambda: {0: 1}, "empty dict": lambda: {}, "object": lambda: object(),
    "list of nan": lambda: [NAN, NAN, NAN], "list of 2**64": lambda: [2**64] * 3,
    "list of str": lambda: ["a", "b", "c"], "list of lists": lambda: [[0], [1], [2]],
    "2-d array": lambda: np.zeros((3, 3)), "float array": lambda: np.array([0.5, 1.0, 2.0]),
    "type": lambda: int, "function": lambda: print,
}


def small():
    return lg.Graph.from_edges([0, 1, 2], [1, 2, 0], device=CPU)


def named():
    return lg.Graph.from_edges(["a", "b", "c"], ["b", "c", "a"], device=CPU)


def sound_graph(g, _arguments=None):
    """A Graph whose CSR is well formed."""
    assert isinstance(g, lg.Graph)
    off, idx, w = (None if a is None else np.asarray(a) for a in g.csr())
    n = g.num_vertices
    assert len(off) == n + 1 and off[0] == 0 and off[-1] == g.num_edges == len(idx)
    assert np.all(np.diff(off) >= 0) and np.all((idx >= 0) & (idx < n))
    assert w is None or (len(w) == len(idx) and np.all(np.isfinite(w)) and np.all(w >= 0))
    assert g.names is None or len(g.names) == n


def sound_distances(d, g):
    d = np.asarray(d[0] if isinstance(d, tuple) else d)
    assert d.shape == (g.num_vertices,) and d.dtype == np.int32 and 0 in d
    assert np.all((d >= -1) & (d < g.num_vertices))


def sound_scores(r, g):
    x = np.asarray(r[0] if isinstance(r, tuple) else r)
    assert x.shape == (g.num_vertices,) and np.all(x >= 0) and abs(x.sum() - 1) < 1e-5


def sound_labels(labels, g):
    labels = np.asarray(labels)
    assert labels.shape == (g.num_vertices,) and np.all(labels <= np.arange(g.num_vertices))


# Words besides its name that a message may name an argument by: the C
# library's messages about an array's values speak of an edge's source,
# destination and weight, and of a file by its name.
WORDS = {"src": ("src", "source"), "dst": ("dst", "destination"),
         "indices": ("indices", "destination"), "weights": ("weights", "weight"),
         "G": ("G",), "df": ("df",), "fn": ("set_progress",)}


class Entry:
    """A public entry point: call(**arguments) with valid arguments `valid`
    (a factory), of which the sweep replaces all but those in `fixed`;
    the parameters whose missing key is a documented KeyError; and
    check(result, arguments) for a call that succeeds: False or an
    AssertionError when the result is not sound."""

    def __init__(self, name, call, valid, check, fixed=(), key_errors=()):
        self.name, self.call, self.valid, self.check = name, call, valid, check
        self.fixed, self.key_errors = set(fixed), set(key_errors)

    def params(self):
        return [p for p in self.valid() if p not in self.fixed]


def _save(g, path, **kw):
    g.save(path, **kw)
    return lg.Graph.load(path, directed=g.directed, device=CPU)


def _set_names(names):
    g = small()
    g.names = names
    return g


def _with_default_device(device):
    before = lg.get_default_device()
    try:
        lg.set_default_device(device)
        return lg.bfs(small(), 0)
    finally:
        lg.set_default_device(before)


def _with_progress(fn):
    before = lg.get_progress()
    try:
        lg.set_progress(fn)
        return lg.Graph.from_edges([0, 1, 2], [1, 2, 0], device=CPU)
    finally:
        lg.set_progress(before if before is not None else False)


def _context(**kw):
    ctx = lg.Context(**kw)
    return lg.bfs(small(), 0, device=ctx)


BUILD = dict(device=CPU, symmetrize=False, drop_self_loops=False, duplicates="keep")


def entries(tmp):
    import networkx as nx
    import scipy.sparse as sp

    return [
        Entry("from_edges", lg.Graph.from_edges,
              lambda: dict(src=[0, 1, 2], dst=[1, 2, 0], weights=None, num_vertices=None,
                           directed=False, names=None, **BUILD), sound_graph),
        Entry("from_pandas", lg.Graph.from_pandas,
              lambda: dict(df=pd.DataFrame({"source": [0, 1], "target": [1, 2],
                                            "weight": [1.0, 2.0]}),
                           source="source", target="target", weight="weight", directed=False,
                           names=None, **BUILD), sound_graph,
              key_errors={"source", "target", "weight"}),
        Entry("from_csr", lg.Graph.from_csr,
              lambda: dict(offsets=[0, 1, 2, 3], indices=[1, 2, 0], weights=None, directed=True,
                           **BUILD), sound_graph),
        Entry("from_scipy", lg.Graph.from_scipy,
              lambda: dict(matrix=sp.csr_array(np.eye(3)), directed=True, weighted=True,
                           **{**BUILD, "duplicates": "sum"}), sound_graph),
        Entry("from_networkx", lg.Graph.from_networkx,
              lambda: dict(G=nx.path_graph(3), weight="weight", default_weight=1.0, device=CPU),
              sound_graph),
        Entry("load", lg.Graph.load,
              lambda: dict(path=tmp / "g.el", format=None, directed=None, **BUILD), sound_graph),
        Entry("save", _save,
              lambda: dict(g=small(), path=tmp / "s.lgb", format=None, names=True, device=CPU),
              sound_graph, fixed={"g"}),
        Entry("generate", lg.Graph.generate,
              lambda: dict(kind="kron", scale=3, edge_factor=2, seed=1, device=CPU), sound_graph),
        Entry("generate_edges", lg.generate_edges,
              lambda: dict(kind="urand", scale=3, edge_factor=2, seed=1, device=CPU),
              lambda e, a: len(e[0]) == len(e[1]) == a["edge_factor"] << a["scale"] and
              0 <= min(e[0].min(), e[1].min()) and max(e[0].max(), e[1].max()) < 2**a["scale"]),
        Entry("names", _set_names, lambda: dict(names=["x", "y", "z"]), sound_graph),
        Entry("index_of", lambda names: named().index_of(names), lambda: dict(names=["a", "c"]),
              lambda ids, a: np.all((np.asarray(ids) >= 0) & (np.asarray(ids) < 3)),
              key_errors={"names"}),
        Entry("index_of (ids)", lambda names: small().index_of(names),
              lambda: dict(names=[0, 2]),
              lambda ids, a: np.all((np.asarray(ids) >= 0) & (np.asarray(ids) < 3)),
              key_errors={"names"}),
        Entry("to_pandas", lambda **kw: named().to_pandas(**kw),
              lambda: dict(values=[1, 2, 3], name=None), lambda s, a: len(s) == 3),
        Entry("to_dict", lambda **kw: named().to_dict(**kw), lambda: dict(values=[1, 2, 3]),
              lambda d, a: list(d) == ["a", "b", "c"]),
        Entry("bfs", lambda G, **kw: lg.bfs(G, **kw),
              lambda: dict(G=small(), source=0, parents=False, max_depth=None,
                           direction_alpha=15, direction_beta=18, device=CPU, out=None,
                           parents_out=None), lambda r, a: sound_distances(r, small())),
        Entry("bfs (named)", lambda G, **kw: lg.bfs(G, **kw),
              lambda: dict(G=named(), source="a"), lambda r, a: sound_distances(r, small()),
              key_errors={"source"}),
        Entry("pagerank", lambda G, **kw: lg.pagerank(G, **kw),
              lambda: dict(G=small(), alpha=0.85, personalization=None, max_iter=100, tol=1e-6,
                           nstart=None, weight="weight", dangling=None, dtype="float64",
                           device=CPU, out=None, return_info=False),
              lambda r, a: sound_scores(r, small())),
        Entry("connected_components", lambda G, **kw: lg.connected_components(G, **kw),
              lambda: dict(G=small(), device=CPU, out=None), lambda r, a: sound_labels(r, small())),
        Entry("number_connected_components",
              lambda G, **kw: lg.number_connected_components(G, **kw),
              lambda: dict(G=small(), device=CPU), lambda r, a: r == 1),
        Entry("set_default_device", _with_default_device, lambda: dict(device=CPU),
              lambda r, a: sound_distances(r, small())),
        Entry("set_progress", _with_progress, lambda: dict(fn=False), sound_graph),
        Entry("Context", _context, lambda: dict(device="cpu", num_threads=1),
              lambda r, a: sound_distances(r, small())),
    ]


# Exceptions an argument may raise: TypeError and ValueError (libgraph's
# InvalidArgumentError among them) naming it, and the library's documented
# classes for what the argument asks of the machine (a GPU that is not
# there, a file that is not one).
NAMED = (TypeError, ValueError, MemoryError)
DOCUMENTED = (lg.DeviceError, lg.FileFormatError, lg.UnsupportedError)


def verdict(entry, param, value):
    """None when entry's call with param = value gives a sound result or an
    allowed exception naming param; else what went wrong."""
    args = entry.valid()
    args[param] = value
    try:
        result = entry.call(**args)
    except DOCUMENTED:
        return None
    except KeyError as e:
        if param in entry.key_errors:
            return None
        return f"KeyError {e}"
    except NAMED as e:
        text = str(e)
        if isinstance(e, OverflowError):
            return f"OverflowError {text!r}"
        words = WORDS.get(param, (param,))
        if isinstance(value, (str, bytes)) and param == "path":  # the file, by its name
            words += (os.fsdecode(value),)
        if not any(word in text for word in words):
            return f"{type(e).__name__} not naming {param}: {text!r}"
        return None
    except Exception as e:  # noqa: BLE001 -- the sweep reports any other class
        return f"{type(e).__name__} {e}"
    try:
        sound = entry.check(result, args) is not False
    except AssertionError:
        sound = False
    return None if sound else f"accepted, with a result that is not sound: {result!r}"


def pytest_generate_tests(metafunc):
    if "entry_name" in metafunc.fixturenames:
        import pathlib

        names = [(e.name, p) for e in entries(pathlib.Path("/nonexistent")) for p in e.params()]
        metafunc.parametrize("entry_name, param", names, ids=[f"{e}-{p}" for e, p in names])


def test_every_argument_given_every_wrong_value(tmp_path, entry_name, param):
    """One parameter of one entry point, given each hostile value in turn
    (the others valid): a sound result or an exception naming it."""
    (tmp_path / "g.el").write_text("0 1\n1 2\n")
    entry = next(e for e in entries(tmp_path) if e.name == entry_name)
    wrong = {}
    for label, make in HOSTILE.items():
        why = verdict(entry, param, make())
        if why is not None:
            wrong[label] = why
    assert not wrong, "\n".join(f"{entry_name}({param}={k}): {v}" for k, v in wrong.items())
