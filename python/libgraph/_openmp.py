"""How OpenMP's threads wait in a process that imports libgraph.

Between two parallel regions, and at a barrier, an OpenMP thread first spins,
then sleeps: libgomp for 300,000 pauses (6-8 ms), LLVM's libomp (the
wheels') for 200 ms.  Spinning answers the next region at once; a thread
woken from sleep costs tens of microseconds, on a virtual machine's idle
cores more, and a call meets that at every region (a GPU call's copy to the
host runs one a chunk).  On a machine whose cores other programs want, the
library does not start a team larger than the cores they leave
(include/libgraph.h), so the spin costs them little; libomp's 200 ms,
though, holds the cores long after a call.  So, unless the user has chosen
a policy (one of CHOSEN is set), the import sets libomp's spin to 10 ms,
about libgomp's (docs/decisions/openmp-waits.md has the measurements), and
takes the variable out of os.environ again once the runtime has read it:
subprocesses see the environment as it was.  libomp reads it at its first
use (a CPU context's thread count); a runtime already loaded by another
module keeps its own settings.
"""
import os

CHOSEN = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME", "KMP_LIBRARY")
SPIN = {"KMP_BLOCKTIME": "10"}


def bounded_waits():
    """Sets SPIN's variables unless a policy was chosen; returns whether it
    did (pass it to restore())."""
    if any(k in os.environ for k in CHOSEN):
        return False
    os.environ.update(SPIN)
    return True


def restore(was_set):
    if was_set:
        for k in SPIN:
            os.environ.pop(k, None)
