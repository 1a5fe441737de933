"""Arrays out of the extension: numpy views when numpy is there."""

from types import ModuleType

_np: ModuleType | None
try:
    import numpy as _np
except ImportError:  # a dependency, but absent where installed with --no-deps
    _np = None

_DTYPES = {"i": "int32", "q": "int64", "f": "float32", "d": "float64"}


def wrap(buf):
    """A numpy array viewing a _libgraph.Buffer (no copy), or a memoryview."""
    if buf is None:
        return None
    view = memoryview(buf)
    if _np is None:
        return view
    return _np.frombuffer(view, dtype=_DTYPES[view.format])


def have_numpy():
    return _np is not None
