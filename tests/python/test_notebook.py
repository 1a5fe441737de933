"""The notebooks in examples/ are committed with their outputs (results,
checks and plots, no errors), and run again from top to bottom without an
error (their cells assert that libgraph agrees with NetworkX)."""
import copy
import pathlib

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
