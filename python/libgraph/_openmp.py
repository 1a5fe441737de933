"""How OpenMP's threads wait in a process that imports libgraph.

Between two parallel regions, and at a barrier, an OpenMP thread first spins:
libgomp 300,000 times by default, LLVM's libomp (the wheels') for 200 ms.  On
a machine whose cores other programs want (a browser beside the notebook, a
build), a spinning thread takes the core from the thread that has the work,
and a call of a millisecond takes a hundred (docs/PERFORMANCE.md, "A busy
machine").  So, unless the user has chosen a policy (one of CHOSEN is set),
the import asks the runtime to put waiting threads to sleep at once
(OMP_WAIT_POLICY=passive), and takes the variable out of the environment
again once the runtime has read it: subprocesses see the environment as it
was.  libgomp reads it when it is loaded (the extension's import), libomp
at its first use (a CPU context's thread count); a runtime already loaded
by another module keeps its own settings.
"""
import os

CHOSEN = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME", "KMP_LIBRARY")


def passive_waits():
    """Sets OMP_WAIT_POLICY=passive unless a policy was chosen; returns
    whether it did (pass it to restore())."""
    if any(k in os.environ for k in CHOSEN):
        return False
    os.environ["OMP_WAIT_POLICY"] = "passive"
    return True


def restore(was_set):
    if was_set:
        os.environ.pop("OMP_WAIT_POLICY", None)
