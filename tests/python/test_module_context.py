"""Devices and contexts of the Python module: Context, last_backend, the
default device, and the version and build information.
"""
import numpy as np
import pytest

lg = pytest.importorskip("libgraph")

from graph_cases import case, close  # noqa: E402


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
        assert lg.last_backend_reason() == ""  # a CPU context: nothing was chosen
    x = lg.pagerank(c.g, tol=1e-10, device="auto")
    assert lg.last_backend() in ("cpu", "gpu")
    assert isinstance(lg.last_backend_reason(), str)
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


def test_thread_counts_past_the_limit_are_refused():
    """A context of 100000 threads crashed the OpenMP runtime on first use."""
    with pytest.raises(lg.InvalidArgumentError, match=r"outside \[0, 4096\]"):
        lg.Context(num_threads=100000)
    assert lg.Context(num_threads=4096).num_threads == 4096
