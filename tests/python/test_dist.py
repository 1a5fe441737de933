"""libgraph.dist (libgraph_dist from Python, with mpi4py) on 1, 2 and 3 MPI
ranks: dist_ranks.py runs under mpiexec and checks every rank's share against
single-process libgraph.  Skipped where mpiexec, mpi4py or the _dist module
(built only where MPI was found) is missing."""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def _why_not():
    if not shutil.which("mpiexec"):
        return "no mpiexec"
    if importlib.util.find_spec("mpi4py") is None:
        return "no mpi4py (pip install 'libgraph[mpi]')"
    if importlib.util.find_spec("libgraph._dist") is None:
        return "libgraph was built without MPI (no libgraph._dist)"
    return None


@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_dist_ranks(ranks):
    why = _why_not()
    if why:
        pytest.skip(why)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none", OMPI_MCA_mpi_yield_when_idle="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMP_WAIT_POLICY="passive")
    proc = subprocess.run(["mpiexec", "-n", str(ranks), sys.executable,
                           str(HERE / "dist_ranks.py")],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{ranks} ranks: 0 failures" in proc.stdout


def test_dist_import_error_without_mpi4py(monkeypatch):
    """Without mpi4py, libgraph.dist says what to install."""
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    monkeypatch.delitem(sys.modules, "libgraph.dist", raising=False)
    with pytest.raises(ImportError, match="needs mpi4py"):
        importlib.import_module("libgraph.dist")
