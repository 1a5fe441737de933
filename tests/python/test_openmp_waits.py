"""How OpenMP's threads wait under the Python module and lgraph: LLVM's
libomp (the wheels') spins 10 ms instead of its 200 ms, libgomp as it
would (300,000 pauses), unless the user chose a policy; and the environment
of the process as it was once the runtime has read it.  The runtime says
what it runs with when OMP_DISPLAY_ENV=verbose: libgomp its GOMP_SPINCOUNT,
libomp its KMP_BLOCKTIME."""
import os
import re
import subprocess
import sys

import pytest

from conftest import _lgraph_path

lg = pytest.importorskip("libgraph")
pytestmark = pytest.mark.skipif("OpenMP" not in lg.build_info(), reason="built without OpenMP")

KNOBS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME", "KMP_LIBRARY")
REPORT = ("import os, libgraph; "
          "print('after:', os.environ.get('KMP_BLOCKTIME'))")
BOUNDED = {"GOMP_SPINCOUNT": "300000", "KMP_BLOCKTIME": "10"}
# libgomp displays GOMP_SPINCOUNT = '300000'; LLVM's libomp 21 (the wheels')
# KMP_BLOCKTIME='200ms, its unit and no closing quote
SPIN = re.compile(r"(GOMP_SPINCOUNT|KMP_BLOCKTIME)\s*=\s*'(\d+)")


def spin(cmd, **extra):
    """The spin setting the runtime ran `cmd` with, (name, value) (the last
    it displayed: lgraph displays twice, before and after it starts itself
    again), and what `cmd` printed."""
    env = {k: v for k, v in os.environ.items() if k not in KNOBS}
    env.update(OMP_DISPLAY_ENV="verbose", **extra)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    shown = SPIN.findall(proc.stdout + proc.stderr)
    assert shown, proc.stdout + proc.stderr  # the runtime displayed its settings
    return shown[-1], proc.stdout


def bounded(setting):
    return setting[1] == BOUNDED[setting[0]]


def test_import_bounds_the_spin_and_leaves_the_environment():
    setting, out = spin([sys.executable, "-c", REPORT])
    assert bounded(setting), setting
    assert "after: None" in out  # subprocesses see the environment as it was


@pytest.mark.parametrize("knob,value", [("OMP_WAIT_POLICY", "active"),
                                        ("GOMP_SPINCOUNT", "1000"),
                                        ("KMP_BLOCKTIME", "20")])
def test_import_keeps_the_users_choice(knob, value):
    setting, out = spin([sys.executable, "-c", REPORT], **{knob: value})
    if setting[0] == knob:
        assert setting[1] == value  # the runtime's own knob, as the user set it
    elif knob == "OMP_WAIT_POLICY":
        assert not bounded(setting), setting
    assert f"after: {value if knob == 'KMP_BLOCKTIME' else None}" in out


def test_lgraph_bounds_the_spin_unless_told():
    exe = _lgraph_path()
    if not exe.exists():
        pytest.skip(f"lgraph not built: {exe}")
    # a command that runs a parallel region: LLVM's libomp starts (and
    # displays its settings) at the first one, libgomp when it is loaded
    cmd = [str(exe), "bfs", "kron:4"]
    assert bounded(spin(cmd)[0])
    assert not bounded(spin(cmd, OMP_WAIT_POLICY="active")[0])
    assert not bounded(spin(cmd, GOMP_SPINCOUNT="1000", KMP_BLOCKTIME="20")[0])
