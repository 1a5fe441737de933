"""Where calls run: the device= argument, resolved to a cached Context."""

import os
import threading

from ._libgraph import Context

_lock = threading.RLock()
_contexts: dict[str, Context] = {}  # device string -> Context (opened once: a GPU context is costly)
_default = "auto"

# a child process must not use its parent's GPU contexts
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_contexts.clear)


def set_default_device(device):
    """Sets what device=None means for later calls: "auto", "cpu", "gpu",
    "gpu:N" or a Context.  A device string is checked (and its context
    opened) now, so a "gpu" that cannot be had raises DeviceError here."""
    global _default
    if device is None:
        device = "auto"
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
    if device == "gpu":
        device = "gpu:0"  # one context per GPU, however it is named
    ctx = _contexts.get(device)
    if ctx is None:
        with _lock:
            ctx = _contexts.get(device)
            if ctx is None:
                ctx = Context(device)  # ValueError for a bad string, DeviceError for no GPU
                _contexts[device] = ctx
    return ctx
