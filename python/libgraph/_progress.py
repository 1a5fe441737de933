"""Progress of loads and builds that take more than a second.

The extension calls the function set here (set_progress) on the thread that
made the call, at the steps of a read, parse, build, generation or write once the call has run
for a second, as fn(stage, done, total), and fn("done", 0, 0) when the call
ends (python/ext/watch.c).  The default draws a tqdm bar (tqdm.auto: a
widget in a notebook, text in a terminal) when tqdm is installed, and
nothing otherwise.
"""

import threading

from . import _libgraph

_UNITS = {"read": "B", "parse": "B", "build": "step", "generate": "edge", "write": "B"}


class _TqdmBars:
    """One tqdm bar a stage, per thread (calls on two threads draw two)."""

    def __init__(self):
        self._local = threading.local()

    def __call__(self, stage, done, total):
        local = self._local
        bar = getattr(local, "bar", None)
        if stage == "done" or stage != getattr(local, "stage", None):
            if bar is not None:
                bar.close()
            local.bar = local.stage = None
            if stage == "done":
                return
            try:
                from tqdm.auto import tqdm
            except ImportError:
                return
            unit = _UNITS.get(stage, "step")
            local.bar = bar = tqdm(total=total if total >= 0 else None, desc=f"libgraph: {stage}",
                                   unit=unit, unit_scale=unit == "B", leave=False)
            local.stage, local.done = stage, 0
        if bar is not None:
            bar.update(done - local.done)
            local.done = done


_current = None


def set_progress(fn=True):
    """How loads and builds that run for more than a second show progress:
    True (the default) a tqdm bar when tqdm is installed; False or None
    nothing; or a function fn(stage, done, total) of your own, called on
    the calling thread with stage "read", "parse", "build", "generate" or
    "write" (done and total in bytes, steps or edges; total -1 when
    unknown), then ("done", 0, 0).
    An exception it raises stops the call and reaches its caller.  It runs
    in the middle of that call, so a libgraph call made from it (a build,
    an algorithm, a pickle round trip) raises RuntimeError.  Ctrl-C
    interrupts long calls whatever is set here."""
    global _current
    if fn is True:
        fn = _TqdmBars()
    elif fn is False:
        fn = None
    elif fn is not None and not callable(fn):
        raise TypeError(f"set_progress: expected True, False, None or a function, not "
                        f"{type(fn).__name__}")
    _libgraph.set_progress(fn)
    _current = fn


def get_progress():
    """The progress function in use (None when progress is not shown)."""
    return _current


set_progress(True)
