"""How OpenMP's threads wait in a process that imports libgraph.

Between two parallel regions, and at a barrier, an OpenMP thread first spins:
libgomp 300,000 times by default (6-8 ms), LLVM's libomp (the wheels') for
200 ms.  On a machine whose cores other programs want (a browser beside the
notebook, a build), a spinning thread takes the core from the thread that
has the work, and a call of a millisecond takes a hundred (docs/PERFORMANCE.md,
"A busy machine").  Sleeping at once costs a wake-up at every region
instead, a tenth of a millisecond for a team of 16: a GPU call's copy to
the host runs a region a chunk, and its BFS on kron:22 took 0.83 ms that way
against 0.71 with a spin (docs/decisions/bounded-spin.md).  So, unless the
user has chosen a policy (one of CHOSEN is set), the import bounds the spin
to about a millisecond, then the thread sleeps: GOMP_SPINCOUNT for libgomp
(30,000 pauses: 0.6 ms on a Xeon, 0.8 ms on an EPYC), KMP_BLOCKTIME for
libomp (1 ms).  The variables leave os.environ again once the runtime has
read them: subprocesses see the environment as it was.  libgomp reads them
when it is loaded (the extension's import), libomp at its first use (a CPU
context's thread count); a runtime already loaded by another module keeps
its own settings.
"""
import os

CHOSEN = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME", "KMP_LIBRARY")
BOUNDED = {"GOMP_SPINCOUNT": "30000", "KMP_BLOCKTIME": "1"}


def bounded_waits():
    """Sets BOUNDED's variables unless a policy was chosen; returns whether
    it did (pass it to restore())."""
    if any(k in os.environ for k in CHOSEN):
        return False
    os.environ.update(BOUNDED)
    return True


def restore(was_set):
    if was_set:
        for k in BOUNDED:
            os.environ.pop(k, None)
