"""How OpenMP's threads wait under the Python module and lgraph: asleep at
once (OMP_WAIT_POLICY=passive) unless the user chose a policy, and the
environment of the process as it was once the runtime has read it.  The
runtime says what it runs with when OMP_DISPLAY_ENV=verbose: libgomp its
GOMP_SPINCOUNT (0 when passive, 300000 by default), LLVM's libomp its
KMP_BLOCKTIME (0 when passive, 200 ms by default)."""
import os
import re
import subprocess
import sys

import pytest

from conftest import _lgraph_path

lg = pytest.importorskip("libgraph")
pytestmark = pytest.mark.skipif("OpenMP" not in lg.build_info(), reason="built without OpenMP")

KNOBS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME", "KMP_LIBRARY")
REPORT = "import os, libgraph; print('after:', os.environ.get('OMP_WAIT_POLICY'))"
# libgomp displays GOMP_SPINCOUNT = '300000'; LLVM's libomp 21 (the wheels')
# KMP_BLOCKTIME='200ms, its unit and no closing quote
SPIN = re.compile(r"(GOMP_SPINCOUNT|KMP_BLOCKTIME)\s*=\s*'(\d+)")


def spin(cmd, **extra):
    """The spin setting the runtime ran `cmd` with (the last it displayed:
    lgraph displays twice, before and after it starts itself again), and
    what `cmd` printed."""
    env = {k: v for k, v in os.environ.items() if k not in KNOBS}
    env.update(OMP_DISPLAY_ENV="verbose", **extra)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    shown = SPIN.findall(proc.stdout + proc.stderr)
    assert shown, proc.stdout + proc.stderr  # the runtime displayed its settings
    return shown[-1][1], proc.stdout


def test_import_makes_waits_passive_and_leaves_the_environment():
    value, out = spin([sys.executable, "-c", REPORT])
    assert value == "0"
    assert "after: None" in out  # subprocesses see the environment as it was


@pytest.mark.parametrize("knob,value", [("OMP_WAIT_POLICY", "active"),
                                        ("GOMP_SPINCOUNT", "1000"),
                                        ("KMP_BLOCKTIME", "20")])
def test_import_keeps_the_users_choice(knob, value):
    shown, out = spin([sys.executable, "-c", REPORT], **{knob: value})
    assert shown != "0"
    assert f"after: {value if knob == 'OMP_WAIT_POLICY' else None}" in out


def test_lgraph_waits_passively_unless_told():
    exe = _lgraph_path()
    if not exe.exists():
        pytest.skip(f"lgraph not built: {exe}")
    # a command that runs a parallel region: LLVM's libomp starts (and
    # displays its settings) at the first one, libgomp when it is loaded
    cmd = [str(exe), "bfs", "kron:4"]
    assert spin(cmd)[0] == "0"
    assert spin(cmd, OMP_WAIT_POLICY="active")[0] != "0"
