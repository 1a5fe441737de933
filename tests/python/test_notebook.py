"""examples/quickstart.ipynb runs from top to bottom without an error (its
cells assert that libgraph agrees with NetworkX)."""
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"


def _need(module):
    try:
        return __import__(module)
    except ImportError:
        pytest.skip(f"{module} is not installed (pip install -r python/requirements-test.txt)")


def test_notebook_is_committed_without_outputs():
    nbformat = _need("nbformat")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "clear the outputs"


def test_quickstart_runs():
    nbformat = _need("nbformat")
    nbclient = _need("nbclient")
    _need("ipykernel")
    _need("matplotlib")
    pytest.importorskip("libgraph")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # the kernel is this interpreter's (ipykernel's own "python3" spec), run
    # in examples/ as Jupyter would
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:  # the cell's traceback
        pytest.fail(f"the notebook failed:\n{e}")
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.get("outputs", []) if o.get("output_type") == "stream")
    assert text.count("max abs difference vs NetworkX") == 3
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) == 1, "the PageRank histogram"
