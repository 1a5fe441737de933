"""Devices and contexts of the Python module: Context, last_backend, the
default device, and the version and build information.
"""
import re

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


def test_a_fifo_on_the_plugin_path_is_skipped(tmp_path):
    """A FIFO named on LIBGRAPH_PLUGIN_PATH, or under the plugin's name in a
    directory on it, is no plugin: looking for a GPU skips it with its reason
    instead of waiting in dlopen for a writer (a fresh process each: the
    plugin is looked for once a process)."""
    import os
    import subprocess
    import sys

    from conftest import _lgraph_path

    fifo = tmp_path / "p.so"
    os.mkfifo(fifo)
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "dir" / "libgraph_cuda.so")
    env = dict(os.environ, LIBGRAPH_PLUGIN_PATH=f"{fifo}:{tmp_path / 'dir'}")
    code = ("import libgraph as lg\n"
            "g = lg.Graph.from_edges([0, 1], [1, 2])\n"
            "print(lg.pagerank(g, device='auto').round(6).tolist())\n"
            "print(lg.build_info())\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    want = lg.pagerank(lg.Graph.from_edges([0, 1], [1, 2]), device="cpu").round(6).tolist()
    assert out.stdout.splitlines()[0] == str(want)
    # a plugin beside the module is found first, and the path is not searched
    assert "GPU plugin: " in out.stdout or f"{fifo}: not a regular file" in out.stdout, out.stdout
    exe = _lgraph_path()
    if exe.exists():
        version = subprocess.run([str(exe), "--version"], env=env, capture_output=True,
                                 text=True, timeout=120)
        assert version.returncode == 0, version.stderr
        assert "GPU plugin: " in version.stdout or "not a regular file" in version.stdout


def test_gpu_asked_for_where_none_answers_says_so():
    """device="gpu" where a GPU plugin loads but opens no GPU (no device, or
    no driver fit for its runtime, as on CI machines): DeviceError saying
    plainly that no usable GPU or driver was found, with the runtime's own
    words as the detail, and what to do instead."""
    info = lg.build_info()
    if "GPU plugin: " not in info:
        pytest.skip(f"no GPU plugin here (LIBGRAPH_PLUGIN_PATH names one): {info}")
    try:
        ctx = lg.Context("gpu")
    except lg.DeviceError as e:
        message = str(e)
    else:
        pytest.skip(f"a GPU answered: {ctx.device}")
    plugin = r"lg_context_create: (cuda|hip) plugin, GPU 0: "
    why = (r"(no usable GPU or GPU driver was found \(the (cuda|hip) runtime says: [^)]+\)"
           r"|no GPU was found \(the (cuda|hip) runtime sees none\))")
    advice = ('; to run on the CPU, ask for device "cpu", or "auto", which uses a GPU only '
              "where one answers")
    assert re.fullmatch(plugin + why + re.escape(advice), message), message
    g = lg.Graph.from_edges([0, 1], [1, 2])
    with pytest.raises(lg.DeviceError, match=re.escape(advice)):
        lg.pagerank(g, device="gpu")
    assert lg.pagerank(g, device="auto").shape == (3,)  # auto falls back to the CPU
    assert lg.last_backend() == "cpu"
