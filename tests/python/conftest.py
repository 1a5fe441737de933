"""Shared fixtures: where the installed lgraph is, and how to run it."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def _lgraph_path():
    prefix = os.environ.get("LIBGRAPH_PREFIX", str(ROOT / ".local"))
    exe = pathlib.Path(prefix) / "bin" / "lgraph"
    if not exe.exists():
        exe = ROOT / "build" / "lgraph"
    return exe


@pytest.fixture(scope="session")
def lgraph():
    exe = _lgraph_path()
    assert exe.exists(), f"lgraph not built: {exe} (run ./install.sh first)"

    def run(*args, check=True):
        proc = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True)
        if check and proc.returncode != 0:
            raise AssertionError(f"lgraph {' '.join(map(str, args))} exited {proc.returncode}:\n"
                                 f"{proc.stdout}\n{proc.stderr}")
        return proc

    return run


@pytest.fixture(scope="session")
def data_dir():
    return DATA
