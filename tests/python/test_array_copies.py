"""Input arrays are copied once into the extension's own memory (a memcpy
where the layout fits, a conversion otherwise; never both); the graph's CSR
comes back as views of its own memory.  tracemalloc sees the extension's
allocations (PyMem_Malloc; not the C library's own), so the peak during a
call shows what it copied."""
import tracemalloc

import numpy as np

import libgraph as lg

M = 1 << 20  # edges: a copy of src and dst as int32 is 8 MiB


def peak_during(fn):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def edges(dtype):
    rng = np.random.default_rng(3)
    return (rng.integers(0, 1000, M).astype(dtype), rng.integers(0, 1000, M).astype(dtype))


def test_int32_edges_are_copied_once():
    src, dst = edges(np.int32)
    w = np.ones(M, np.float32)
    peak = peak_during(lambda: lg.Graph.from_edges(src, dst, w, num_vertices=1000, directed=True))
    assert 3 * 4 * M <= peak < 3 * 4 * M + (1 << 20), peak  # src, dst, weights: once each


def test_int64_edges_are_converted():
    src, dst = edges(np.int64)
    w = np.ones(M, np.float64)
    peak = peak_during(lambda: lg.Graph.from_edges(src, dst, w, num_vertices=1000, directed=True))
    assert 4 * 4 * M <= peak < 4 * 4 * M + (1 << 20), peak  # int32 src, dst; float64 weights kept
    peak = peak_during(lambda: lg.Graph.from_edges(src, dst, w, num_vertices=1000, directed=True,
                                                   weight_dtype="float32"))
    assert 3 * 4 * M <= peak < 3 * 4 * M + (1 << 20), peak  # int32 src, dst and float32 weights


def test_strided_int32_is_copied_and_right():
    src, dst = edges(np.int32)
    s2, d2 = np.repeat(src, 2)[::2], np.repeat(dst, 2)[::2]
    assert not s2.flags.c_contiguous
    peak = peak_during(lambda: lg.Graph.from_edges(s2, d2, num_vertices=1000, directed=True))
    assert peak >= 2 * 4 * M, peak
    a = lg.Graph.from_edges(s2, d2, num_vertices=1000, directed=True)
    b = lg.Graph.from_edges(src, dst, num_vertices=1000, directed=True)
    for x, y in zip(a.csr()[:2], b.csr()[:2]):
        np.testing.assert_array_equal(x, y)


def test_csr_views_share_the_graph_memory():
    src, dst = edges(np.int32)
    g = lg.Graph.from_edges(src, dst, num_vertices=1000, directed=True)
    off1, idx1, _ = g.csr()
    off2, idx2, _ = g.csr()
    assert not off1.flags.writeable and not idx1.flags.writeable
    assert off1.__array_interface__["data"][0] == off2.__array_interface__["data"][0]
    assert idx1.__array_interface__["data"][0] == idx2.__array_interface__["data"][0]
    peak = peak_during(g.csr)
    assert peak < 64 << 10, peak  # views, not copies of 4 MiB of indices
