"""The notebooks in examples/ are committed with their outputs (results,
checks and plots, no errors), and run again from top to bottom without an
error (their cells assert that libgraph agrees with NetworkX): in this
environment through nbclient, and as docs/PYTHON.md tells a user to run them:
the package installed with its notebook extra into a fresh environment, then
`jupyter nbconvert --execute`."""
import copy
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# notebook -> (plots it draws, lines that report a check against NetworkX)
NOTEBOOKS = {"quickstart.ipynb": (5, 2), "les_miserables.ipynb": (1, 1)}


def _need(module):
    try:
        return __import__(module)
    except ImportError:
        pytest.skip(f"{module} is not installed (pip install -r python/requirements-test.txt)")


def _outputs(nb, kind):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if (kind == "image" and "image/png" in o.get("data", {})) or o.get("output_type") == kind]


def _check(nb, name):
    images, checks = NOTEBOOKS[name]
    assert not _outputs(nb, "error")
    assert len(_outputs(nb, "image")) == images
    text = "".join(o.get("text", "") for o in _outputs(nb, "stream"))
    assert text.count("max abs difference vs NetworkX") == checks


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_is_committed_with_its_outputs(name):
    nbformat = _need("nbformat")
    nb = nbformat.read(ROOT / "examples" / name, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.execution_count is not None, "run the notebook before committing it"
    _check(nb, name)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name):
    nbformat = _need("nbformat")
    nbclient = _need("nbclient")
    _need("ipykernel")
    _need("matplotlib")
    _need("pandas")
    pytest.importorskip("libgraph")
    path = ROOT / "examples" / name
    nb = copy.deepcopy(nbformat.read(path, as_version=4))
    for cell in nb.cells:  # from a clean state
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    # the kernel is this interpreter's (ipykernel's own "python3" spec), run
    # in examples/ as Jupyter would
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:  # the cell's traceback
        pytest.fail(f"the notebook failed:\n{e}")
    _check(nb, name)


# docs/PYTHON.md's commands, run from the repository root (the wheel stands in
# for "./python": the same package, built once by ./install.sh)
INSTALL = 'pip install "{package}[notebook]"'
EXECUTE = "jupyter nbconvert --to notebook --execute --output-dir {out} examples/*.ipynb"


def test_the_documented_commands_are_in_the_docs():
    text = (ROOT / "docs" / "PYTHON.md").read_text()
    assert INSTALL.format(package="./python") in text
    assert EXECUTE.format(out="executed") in text


def _wheel():
    given = os.environ.get("LIBGRAPH_WHEEL")
    if given:
        return pathlib.Path(given)
    found = sorted((ROOT / "python" / "build" / "wheels").glob("libgraph-*.whl"))
    return found[-1] if found else None


def test_examples_run_as_documented(tmp_path):
    """A fresh virtual environment, `pip install "libgraph[notebook]"` (from
    the wheel ./install.sh builds, its dependencies from PyPI), then
    `jupyter nbconvert --execute` of every notebook in examples/: the extra
    brings everything the run needs (nbconvert, the kernel, what the
    notebooks import), and each notebook runs to the end with its checks and
    plots."""
    nbformat = _need("nbformat")
    wheel = _wheel()
    if wheel is None:
        pytest.skip("no wheel in python/build/wheels (./install.sh builds it; or set "
                    "LIBGRAPH_WHEEL)")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "JUPYTER_PATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
               JUPYTER_DATA_DIR=str(tmp_path / "jupyter"),  # no user kernels but the venv's
               JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
               MPLCONFIGDIR=str(tmp_path / "matplotlib"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    install = INSTALL.format(package=wheel).split()
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", *install[:2], "-q",
                          install[2].strip('"')], env=env, capture_output=True, text=True,
                         timeout=1800)
    assert pip.returncode == 0, (f"{' '.join(install)} failed (its packages come from PyPI):\n"
                                 f"{pip.stdout[-2000:]}{pip.stderr[-4000:]}")
    assert (venv / "bin" / "jupyter").exists(), "the notebook extra brought no jupyter command"
    out = tmp_path / "executed"
    run = subprocess.run(EXECUTE.format(out=out), shell=True, cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, f"{EXECUTE} failed:\n{run.stderr[-6000:]}"
    for name in NOTEBOOKS:
        executed = sorted(out.glob(f"{name[:-len('.ipynb')]}*.ipynb"))
        assert len(executed) == 1, (name, sorted(out.iterdir()))
        _check(nbformat.read(executed[0], as_version=4), name)
