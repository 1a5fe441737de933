"""The input arrays the Python module takes: every integer and weight dtype,
lists, tuples, array.array, memoryview and bytes, objects that convert
themselves (__array__: pandas, pyarrow, torch), strided, reversed and
big-endian layouts, each building the same graph; and inputs neither
modified nor kept.
"""
import array

import numpy as np
import pytest

lg = pytest.importorskip("libgraph")

from graph_cases import CPU, close, same_graph  # noqa: E402


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


class _ArrayLike:
    """An object that is no buffer and no sequence but converts itself to a
    numpy array, as pandas, pyarrow and torch objects do."""

    def __init__(self, values, result=None):
        self.values, self.result = values, result

    def __array__(self, dtype=None, copy=None):
        if self.result is not None:
            if isinstance(self.result, Exception):
                raise self.result
            return self.result
        return np.asarray(self.values)


def test_objects_with_array_conversion():
    src, dst, w, ref = _reference_graph()
    g = lg.Graph.from_edges(_ArrayLike(src), _ArrayLike(dst), _ArrayLike(w), num_vertices=100,
                            directed=True)
    same_graph(g, ref)
    # a vector argument too (pagerank's personalization)
    p = np.arange(100, dtype=np.float64)
    np.testing.assert_array_equal(lg.pagerank(ref, personalization=_ArrayLike(p), device=CPU),
                                  lg.pagerank(ref, personalization=p, device=CPU))
    with pytest.raises(TypeError, match="no buffer protocol"):
        lg.Graph.from_edges(_ArrayLike(None, result=[1, 2]), [0, 1])
    with pytest.raises(ZeroDivisionError):  # the conversion's own error, unchanged
        lg.Graph.from_edges(_ArrayLike(None, result=ZeroDivisionError("no")), [0, 1])
    with pytest.raises(ValueError):  # a bad id read through __array__ names the argument
        lg.Graph.from_edges(_ArrayLike([0, -1]), [0, 1])


def test_pandas_inputs():
    pd = pytest.importorskip("pandas")
    src, dst, w, ref = _reference_graph()
    for make in (pd.Series, pd.Index, lambda a: pd.DataFrame({"x": a})["x"]):
        g = lg.Graph.from_edges(make(src), make(dst), pd.Series(w), num_vertices=100,
                                directed=True)
        same_graph(g, ref)
    # a nullable column with a missing value: a clear error, not a wrong graph
    with pytest.raises((TypeError, ValueError)):
        lg.Graph.from_edges(pd.Series([0, None], dtype="Int64"), [1, 0])


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
# GPU arrays (__cuda_array_interface__, DLPack): what can be checked without
# a GPU; test_gpu.py copies CuPy and PyTorch arrays on one
# ---------------------------------------------------------------------------


def test_dlpack_capsule_layout():
    """The DLTensor read through ctypes: numpy's own capsule describes the
    array's address, length and type."""
    from libgraph._gpu_arrays import device_array, from_capsule

    for dtype, typestr in ((np.int32, "<i4"), (np.float64, "<f8"), (np.uint8, "<u1")):
        a = np.arange(7, dtype=dtype)
        d = from_capsule(a.__dlpack__(), 3, "a")
        assert (d.ptr, d.length, d.typestr, d.device, d.nbytes) == (
            a.ctypes.data, 7, typestr, 3, a.nbytes)
        assert device_array(a, "a") is None  # host memory: used as any array
    with pytest.raises(ValueError, match="contiguous"):
        from_capsule(np.arange(8, dtype=np.int32)[::2].__dlpack__(), 0, "a")
    with pytest.raises(ValueError, match="one dimension"):
        from_capsule(np.zeros((2, 2)).__dlpack__(), 0, "a")
    with pytest.raises(TypeError, match="type code"):
        from_capsule(np.zeros(2, dtype=np.complex64).__dlpack__(), 0, "a")


class FakeGpuArray:
    """An object that says its memory is on a GPU (it is not)."""

    def __init__(self, shape=(3,), strides=None, typestr="<i4"):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (4096, False),
                                         "version": 3, "strides": strides}


def test_gpu_arrays_need_a_gpu_and_one_dimension():
    with pytest.raises(ValueError, match="one dimension"):
        lg.Graph.from_edges(FakeGpuArray(shape=(2, 2)), [0, 1])
    with pytest.raises(ValueError, match="contiguous"):
        lg.Graph.from_edges(FakeGpuArray(strides=(8,)), [0, 1, 2])
    try:
        lg.Context("gpu")
    except lg.DeviceError:
        pass
    else:
        pytest.skip("a GPU answers here: test_gpu.py copies real GPU arrays")
    g = lg.Graph.from_edges([0, 1], [1, 2])
    for call in (lambda: lg.Graph.from_edges(FakeGpuArray(), [0, 1, 2]),
                 lambda: lg.pagerank(g, out=FakeGpuArray(typestr="<f8")),
                 lambda: lg.bfs(g, 0, out=FakeGpuArray())):
        with pytest.raises(lg.DeviceError, match="GPU"):
            call()
