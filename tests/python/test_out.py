"""out= / parents_out=: results written into the caller's arrays."""
import sys

import numpy as np
import pytest

import libgraph as lg


@pytest.fixture(scope="module")
def g():
    rng = np.random.default_rng(7)
    n, m = 300, 1500
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    return lg.Graph.from_edges(src, dst, num_vertices=n, directed=True)


def test_results_equal_and_out_is_returned(g):
    n = g.num_vertices
    d, p = np.full(n, 99, np.int32), np.full(n, 99, np.int32)
    rd, rp = lg.bfs(g, [0, 5], parents=True, out=d, parents_out=p, device="cpu")
    assert rd is d and rp is p
    want_d, want_p = lg.bfs(g, [0, 5], parents=True, device="cpu")
    np.testing.assert_array_equal(d, want_d)
    np.testing.assert_array_equal(p, want_p)

    x = np.empty(n)
    assert lg.pagerank(g, out=x, device="cpu") is x
    np.testing.assert_array_equal(x, lg.pagerank(g, device="cpu"))
    xf = np.empty(n, np.float32)
    assert lg.pagerank(g, dtype="float32", out=xf, device="cpu") is xf
    np.testing.assert_array_equal(xf, lg.pagerank(g, dtype="float32", device="cpu"))

    labels = np.empty(n, np.int32)
    assert lg.connected_components(g, out=labels, device="cpu") is labels
    np.testing.assert_array_equal(labels, lg.connected_components(g, device="cpu"))


def test_other_writable_buffers(g):
    import array
    n = g.num_vertices
    a = array.array("i", bytes(4 * n))
    assert lg.bfs(g, 0, out=a, device="cpu") is a
    np.testing.assert_array_equal(np.frombuffer(a, np.int32), lg.bfs(g, 0, device="cpu"))
    b = bytearray(8 * n)
    lg.pagerank(g, out=memoryview(b).cast("d"), device="cpu")
    np.testing.assert_array_equal(np.frombuffer(b), lg.pagerank(g, device="cpu"))


def test_not_converged_carries_the_out_array(g):
    x = np.empty(g.num_vertices)
    with pytest.raises(lg.NotConverged) as e:
        lg.pagerank(g, tol=0, max_iter=2, out=x, device="cpu")
    assert e.value.scores is x and e.value.iterations == 2
    assert np.isclose(x.sum(), 1.0)


@pytest.mark.parametrize("bad, exc", [
    (lambda n: np.empty(n, np.int64), TypeError),           # wrong type
    (lambda n: np.empty(n, np.uint32), TypeError),          # unsigned
    (lambda n: np.empty(n + 1, np.int32), ValueError),      # wrong length
    (lambda n: np.empty(2 * n, np.int32)[::2], ValueError), # not contiguous
    (lambda n: np.empty((n, 1), np.int32), TypeError),      # two-dimensional
    (lambda n: np.empty(n, ">i4"), TypeError),              # not native
    (lambda n: bytes(4 * n), TypeError),                    # read-only
    (lambda n: [0] * n, TypeError),                         # no buffer
])
def test_bad_out_arrays(g, bad, exc):
    n = g.num_vertices
    with pytest.raises(exc, match="out"):
        lg.bfs(g, 0, out=bad(n), device="cpu")
    with pytest.raises(exc, match="out"):
        lg.connected_components(g, out=bad(n), device="cpu")


def test_read_only_numpy_array_is_refused(g):
    x = np.empty(g.num_vertices)
    x.flags.writeable = False
    with pytest.raises(TypeError, match="out"):
        lg.pagerank(g, out=x, device="cpu")
    with pytest.raises(TypeError, match="out"):
        lg.pagerank(g, out=np.empty(g.num_vertices), dtype="float32", device="cpu")


def test_out_keeps_its_reference_count(g):
    n = g.num_vertices
    d, x, labels = np.empty(n, np.int32), np.empty(n), np.empty(n, np.int32)
    before = [sys.getrefcount(a) for a in (d, x, labels)]
    for _ in range(2000):
        lg.bfs(g, 0, out=d, device="cpu")
        lg.pagerank(g, out=x, device="cpu")
        lg.connected_components(g, out=labels, device="cpu")
        try:
            lg.pagerank(g, tol=0, max_iter=1, out=x, device="cpu")
        except lg.NotConverged:
            pass
        with pytest.raises(ValueError):
            lg.bfs(g, 10**6, out=d, device="cpu")  # bad source: the error path
    assert [sys.getrefcount(a) for a in (d, x, labels)] == before
