"""Where calls run: the device= argument, resolved to a cached Context."""

import threading

from ._libgraph import Context

_lock = threading.Lock()
_contexts = {}  # device string -> Context (opened once: a GPU context is costly)
_default = "auto"


def set_default_device(device):
    """Sets what device=None means for later calls: "auto", "cpu", "gpu",
    "gpu:N" or a Context.  A device string is checked (and its context
    opened) now, so a "gpu" that cannot be had raises DeviceError here."""
    global _default
    if not isinstance(device, Context):
        context(device)
    _default = device


def get_default_device():
    """What device=None means (initially "auto")."""
    return _default


def context(device):
    """The Context of a device= argument."""
    if device is None:
        device = _default
    if isinstance(device, Context):
        return device
    if not isinstance(device, str):
        raise TypeError(
            f"device: expected None, 'auto', 'cpu', 'gpu', 'gpu:N' or a Context, "
            f"not {type(device).__name__}"
        )
    ctx = _contexts.get(device)
    if ctx is None:
        with _lock:
            ctx = _contexts.get(device)
            if ctx is None:
                ctx = Context(device)  # ValueError for a bad string, DeviceError for no GPU
                _contexts[device] = ctx
    return ctx
