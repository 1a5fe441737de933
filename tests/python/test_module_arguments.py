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
                                          rf"(int32|int64|float32) \((4\.0|8\.0) TiB\)"):
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
    with pytest.raises(TypeError, match=r"df\['a'\]: a column of float64 holds no vertex ids "
                                        r".*names=True"):
        lg.Graph.from_pandas(df, "a", "b", device=CPU)
    g = lg.Graph.from_pandas(df, "a", "b", names=True, device=CPU)
    assert g.names == [0.0, 1, 2]  # 1 == 1.0: one name, as in NetworkX
    with pytest.raises(TypeError, match=r"df\['w'\]: a column of .* holds no weights"):
        lg.Graph.from_pandas(df, "b", "b", "w", device=CPU)
    with pytest.raises(ValueError, match=r"df\['n'\] at row 1: a missing value"):
        lg.Graph.from_pandas(df, "b", "n", device=CPU)
    with pytest.raises(ValueError, match=r"df\['f'\] at row 1: a missing value .* is no weight"):
        lg.Graph.from_pandas(df, "b", "b", "f", device=CPU)
    with pytest.raises(TypeError, match=r"df\[\['a'\]\]"):
        lg.Graph.from_pandas(df, ["a"], "b", device=CPU)


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
