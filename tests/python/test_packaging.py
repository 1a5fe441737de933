"""The installed package is self-contained: the C library is inside the
extension (no libgraph.so needed, none of its symbols exported), and a GPU
plugin built with the package is found beside it without
LIBGRAPH_PLUGIN_PATH."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

lg = pytest.importorskip("libgraph")
PKG = pathlib.Path(lg.__file__).parent


def extension():
    found = list(PKG.glob("_libgraph*.so"))
    assert len(found) == 1, found
    return found[0]


@pytest.mark.skipif(shutil.which("ldd") is None, reason="no ldd")
def test_extension_needs_no_libgraph_so():
    out = subprocess.run(["ldd", str(extension())], capture_output=True, text=True, check=True).stdout
    assert "libgraph" not in out, out


@pytest.mark.skipif(shutil.which("nm") is None, reason="no nm")
def test_extension_exports_only_its_init():
    out = subprocess.run(["nm", "-D", "--defined-only", str(extension())], capture_output=True,
                         text=True, check=True).stdout
    names = {line.split()[-1] for line in out.splitlines() if line.strip()}
    assert names == {"PyInit__libgraph"}, names


def test_plugin_found_beside_the_extension():
    plugins = sorted(p.name for p in PKG.glob("libgraph_*.so"))
    env = dict(os.environ)
    env.pop("LIBGRAPH_PLUGIN_PATH", None)
    info = subprocess.run([sys.executable, "-c", "import libgraph; print(libgraph.build_info())"],
                          capture_output=True, text=True, check=True, env=env).stdout
    if plugins:
        assert f"GPU plugin: {PKG / plugins[0]}" in info, info
    else:
        assert "no GPU plugin found" in info and str(PKG) in info, info


def test_imports_without_numpy():
    """The extension and package work with numpy absent (memoryviews out)."""
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import libgraph as lg\n"
        "g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True)\n"
        "d = lg.bfs(g, 0)\n"
        "assert isinstance(d, memoryview) and d.tolist() == [0, 1, 2, 3], d\n"
        "x = lg.pagerank(g)\n"
        "assert isinstance(x, memoryview) and abs(sum(x.tolist()) - 1) < 1e-12\n"
        "assert lg.connected_components(g).tolist() == [0, 0, 0, 0]\n"
        "off, idx, w = g.csr()\n"
        "assert off.tolist() == [0, 1, 2, 3, 3] and idx.tolist() == [1, 2, 3] and w is None\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
