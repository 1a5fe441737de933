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
    """No libgraph.so among the libraries the extension loads (a repaired
    wheel's grafted libraries sit in libgraph.libs/, so the names are
    checked, not the paths)."""
    out = subprocess.run(["ldd", str(extension())], capture_output=True, text=True, check=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert not [n for n in names if os.path.basename(n).startswith("libgraph")], out


@pytest.mark.skipif(shutil.which("nm") is None, reason="no nm")
def test_extension_exports_only_its_init():
    out = subprocess.run(["nm", "-D", "--defined-only", str(extension())], capture_output=True,
                         text=True, check=True).stdout
    names = {line.split()[-1] for line in out.splitlines() if line.strip()}
    assert names == {"PyInit__libgraph"}, names


def test_abi3_wheel_holds_the_limited_api_module():
    """The installed wheel says it needs CPython 3.11 or later, and one
    tagged cp311-abi3 (tools/build-wheel.sh's, and pip's: python/pyproject.toml's
    wheel.py-api) holds the module built with Py_LIMITED_API,
    _libgraph.abi3.so, which every CPython from 3.11 on imports."""
    import importlib.metadata

    try:
        dist = importlib.metadata.distribution("libgraph")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("libgraph is not installed from a wheel")
    if pathlib.Path(dist.locate_file("libgraph/__init__.py")).resolve() != pathlib.Path(lg.__file__).resolve():
        pytest.skip("the libgraph imported is not the one installed")
    assert dist.metadata["Requires-Python"] == ">=3.11"
    tags = [line.split(":", 1)[1].strip() for line in (dist.read_text("WHEEL") or "").splitlines()
            if line.startswith("Tag:")]
    assert tags, "no Tag in the wheel's WHEEL file"
    if all(tag.startswith("cp311-abi3-") for tag in tags):
        assert extension().name == "_libgraph.abi3.so", extension()


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


def test_numpy_is_a_dependency_and_results_are_numpy_arrays():
    """numpy is required by the distribution (no extra, no marker), so a
    plain `pip install` gives what the README shows: numpy arrays."""
    import importlib.metadata
    import re

    np = pytest.importorskip("numpy")
    requires = importlib.metadata.requires("libgraph") or []
    plain = [r for r in requires if ";" not in r]
    assert any(re.match(r"numpy\b", r) for r in plain), requires
    g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=True)
    d = lg.bfs(g, 0)
    assert isinstance(d, np.ndarray) and d.dtype == np.int32 and d.tolist() == [0, 1, 2, 3]
    assert isinstance(lg.pagerank(g), np.ndarray)


def test_licence_in_the_distribution():
    """The installed distribution carries LICENSE (MIT, the same text as
    the repository's) in its metadata, and says MIT."""
    import importlib.metadata

    dist = importlib.metadata.distribution("libgraph")
    licences = [f for f in dist.files or [] if f.name == "LICENSE" and ".dist-info" in str(f)]
    assert licences, [str(f) for f in dist.files or []]
    text = licences[0].read_text()
    assert text.startswith("MIT License") and "the libgraph authors" in text
    repo = pathlib.Path(__file__).parents[2] / "LICENSE"
    if repo.exists():
        assert text == repo.read_text()
    assert dist.metadata["License"] == "MIT" or "MIT" in (dist.metadata.get("License-Expression") or "")


def test_imports_without_numpy():
    """The extension and package work with numpy absent, as after an install
    with --no-deps (memoryviews out)."""
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


def test_extras_declare_what_the_tests_and_notebooks_import():
    """The `test` extra is python/requirements-test.txt (install.sh's list),
    and the `notebook` extra has every third-party module the notebooks in
    examples/ import."""
    import ast
    import json
    import re
    import tomllib

    root = os.path.join(os.path.dirname(__file__), "..", "..")
    with open(os.path.join(root, "python", "pyproject.toml"), "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    with open(os.path.join(root, "python", "requirements-test.txt")) as f:
        listed = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    assert sorted(extras["test"]) == sorted(listed)

    def name(requirement):
        return re.split(r"[<>=!~\[ ]", requirement, maxsplit=1)[0].lower()

    declared = {name(r) for r in extras["notebook"]}
    examples = os.path.join(root, "examples")
    imported = set()
    for fname in os.listdir(examples):
        if not fname.endswith(".ipynb"):
            continue
        with open(os.path.join(examples, fname)) as f:
            cells = json.load(f)["cells"]
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            source = "\n".join(l for l in source.splitlines() if not l.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Import):
                    imported |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    imported.add(node.module.split(".")[0])
    third_party = {m for m in imported if m not in sys.stdlib_module_names and m != "libgraph"}
    assert third_party, "no notebook imports found"
    assert third_party <= declared, third_party - declared


def test_stubs_match_the_package(tmp_path):
    """mypy's stubtest finds no difference between the .pyi stubs and the
    installed package, beyond python/stubtest-allowlist.txt's entries."""
    pytest.importorskip("mypy")
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nignore_missing_imports = True\n")  # scipy has no stubs
    # the allowlist's entry for the GPU plugin is unused where the package has
    # none (a CPU-only build or wheel): left out there, so that stubtest does
    # not report it
    with open(os.path.join(root, "python", "stubtest-allowlist.txt")) as f:
        entries = f.read().splitlines()
    if not list(PKG.glob("libgraph_*.so")):
        entries = [e for e in entries if not e.startswith("libgraph\\.libgraph_")]
    # libgraph.dist cannot import where libgraph._dist was not built (no MPI
    # at build time: the wheels), which stubtest reports: expected there
    if not list(PKG.glob("_dist*.so")):
        entries.append("libgraph\\.dist")
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("\n".join(entries) + "\n")
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "libgraph", "--mypy-config-file", str(config),
         "--allowlist", str(allowlist)],
        capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
