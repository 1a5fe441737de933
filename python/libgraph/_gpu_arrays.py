"""GPU arrays in and out: CuPy arrays, PyTorch CUDA tensors, Numba device
arrays and anything else that exports __cuda_array_interface__ (version 2
or 3) or DLPack (__dlpack__ with __dlpack_device__ saying CUDA or ROCm).

A graph lives in host memory (its device copy is a cache made from it), so
a GPU array that goes into a graph or an option is copied to the host first,
by one lg_context_copy on a GPU context of the array's device.  A result
asked for in a GPU array (out=) is written there by the GPU kernel itself
(output_memory LG_MEMORY_DEVICE: no host copy) when the call runs on that
array's GPU, and otherwise computed into host memory and copied into it.  The copies run on libgraph's stream, after work queued on
the default stream (CuPy's and PyTorch's unless you chose another): an array
filled on a stream of your own must be synchronized first.
"""

import ctypes
import operator
import re
from collections.abc import Mapping, Sequence

# DLPack's device types (dlpack.h, DLDeviceType) that are GPU memory
_DL_CUDA, _DL_CUDA_MANAGED, _DL_ROCM = 2, 13, 10
# DLPack's type codes (DLDataTypeCode) as array-interface type letters
_DL_KINDS = {0: "i", 1: "u", 2: "f"}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    """DLPack's DLTensor, the head of an (unversioned) DLManagedTensor."""

    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class DeviceArray:
    """A one-dimensional, contiguous GPU array: its address, length, numpy
    dtype string ("<i4", "<f8", ...) and device ordinal.  `keep` holds what
    keeps the memory alive (a DLPack capsule) while it is used."""

    __slots__ = ("ptr", "length", "typestr", "device", "keep")

    def __init__(self, ptr, length, typestr, device, keep=None):
        self.ptr, self.length, self.typestr, self.device, self.keep = (
            ptr, length, typestr, device, keep)

    @property
    def nbytes(self):
        return self.length * int(self.typestr[2:])


def _contiguous(name, shape, strides, itemsize):
    if len(shape) != 1:
        raise ValueError(f"{name}: expected one dimension, not {len(shape)}")
    if strides is not None and shape[0] > 1 and strides[0] != itemsize:
        raise ValueError(f"{name}: a GPU array must be contiguous (a stride of {strides[0]} "
                         f"bytes, elements of {itemsize})")


# a numpy type string of one element: byte order, kind letter, itemsize
_TYPESTR = re.compile(r"[<>|=][a-zA-Z]([1-9][0-9]*)")


def _ints(value, name, what):
    """A shape or strides entry of an array interface: a tuple (or list) of
    ints, else TypeError naming the argument."""
    if type(value) is tuple and all(type(v) is int for v in value):
        return value  # what producers give: no conversion to make
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise TypeError(f"{name}: __cuda_array_interface__['{what}'] must be a tuple of ints, "
                        f"not {type(value).__name__}")
    try:
        return tuple(operator.index(v) for v in value)
    except TypeError:
        raise TypeError(f"{name}: __cuda_array_interface__['{what}'] must be a tuple of ints, "
                        f"not {value!r}") from None


def _interface(cai, name):
    """(address, shape, typestr, itemsize) of a __cuda_array_interface__
    dict, checked: TypeError for a missing entry or one of the wrong type,
    ValueError for a value no array has (a negative length, an unknown type
    string, a mask)."""
    if type(cai) is not dict and not isinstance(cai, Mapping):  # the ABC's check is slow
        raise TypeError(f"{name}: __cuda_array_interface__ must be a dict, not "
                        f"{type(cai).__name__}")
    for key in ("typestr", "shape", "data"):
        if key not in cai:
            raise TypeError(f"{name}: __cuda_array_interface__ has no {key!r} entry")
    typestr = cai["typestr"]
    if not isinstance(typestr, str):
        raise TypeError(f"{name}: __cuda_array_interface__['typestr'] must be a str, not "
                        f"{type(typestr).__name__}")
    match = _TYPESTR.fullmatch(typestr)
    if match is None:
        raise ValueError(f"{name}: __cuda_array_interface__['typestr'] {typestr!r} is not a "
                         f"type string such as '<i4'")
    shape = _ints(cai["shape"], name, "shape")
    if any(side < 0 for side in shape):
        raise ValueError(f"{name}: __cuda_array_interface__['shape'] {shape} has a negative side")
    data = cai["data"]
    if type(data) is not tuple and (not isinstance(data, Sequence) or
                                    isinstance(data, (str, bytes))) or len(data) != 2:
        raise TypeError(f"{name}: __cuda_array_interface__['data'] must be a pair (address, "
                        f"read-only flag), not {data!r}")
    try:
        address = operator.index(data[0] if data[0] is not None else 0)
    except TypeError:
        raise TypeError(f"{name}: __cuda_array_interface__['data'][0] must be an int (the "
                        f"address), not {type(data[0]).__name__}") from None
    if not 0 <= address < 2**64:
        raise ValueError(f"{name}: __cuda_array_interface__['data'][0] {address} is no address")
    if cai.get("mask") is not None:
        raise ValueError(f"{name}: a masked GPU array (__cuda_array_interface__['mask']) is not "
                         f"read")
    strides = cai.get("strides")
    if strides is not None:
        strides = _ints(strides, name, "strides")
        if len(strides) != len(shape):
            raise ValueError(f"{name}: __cuda_array_interface__ has {len(strides)} strides for "
                             f"{len(shape)} dimensions")
    return address, shape, strides, typestr, int(match.group(1))


def _dlpack_device(x, name):
    """(DLPack device type, ordinal) of x.__dlpack_device__(): TypeError
    when it is not a pair of ints."""
    dev = x.__dlpack_device__()
    try:
        kind, ordinal = dev
        return operator.index(kind), operator.index(ordinal)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: __dlpack_device__() must give a pair of ints (device type, "
                        f"ordinal), not {dev!r}") from None


def device_array(x, name):
    """x as a DeviceArray when it is GPU memory, else None."""
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        address, shape, strides, typestr, itemsize = _interface(cai, name)
        _contiguous(name, shape, strides, itemsize)
        device = 0
        if hasattr(getattr(x, "device", None), "id"):
            device = int(x.device.id)  # CuPy, Numba: an attribute (CuPy's __dlpack_device__
            # asks the runtime about the pointer)
        elif hasattr(x, "__dlpack_device__"):
            device = _dlpack_device(x, name)[1]  # PyTorch
        return DeviceArray(address, shape[0], typestr, device)
    dev = getattr(x, "__dlpack_device__", None)
    if dev is None or not hasattr(x, "__dlpack__"):
        return None
    kind, ordinal = _dlpack_device(x, name)
    if kind not in (_DL_CUDA, _DL_CUDA_MANAGED, _DL_ROCM):
        return None
    capsule = x.__dlpack__()
    return from_capsule(capsule, ordinal, name)


def from_capsule(capsule, device, name):
    """The DeviceArray a DLPack capsule ("dltensor") describes; the capsule is
    kept with it, not consumed (its producer frees the tensor when the
    capsule goes).  TypeError for something else than such a capsule,
    ValueError for a tensor libgraph cannot read."""
    if type(capsule).__name__ != "PyCapsule":
        raise TypeError(f"{name}: __dlpack__() must give a DLPack capsule, not "
                        f"{type(capsule).__name__}")
    try:
        address = _capsule_pointer(capsule, b"dltensor")
    except ValueError:  # another name: a used ("used_dltensor") or versioned capsule
        raise ValueError(f"{name}: __dlpack__() gave a capsule that is not an unused "
                         f"'dltensor'") from None
    t = _DLTensor.from_address(address)
    if t.dtype.code not in _DL_KINDS or t.dtype.lanes != 1:
        raise TypeError(f"{name}: DLPack type code {t.dtype.code} with {t.dtype.lanes} lanes is "
                        f"not a number libgraph reads")
    if t.dtype.bits not in (8, 16, 32, 64):
        raise TypeError(f"{name}: DLPack elements of {t.dtype.bits} bits are not numbers "
                        f"libgraph reads")
    if t.ndim != 1:
        raise ValueError(f"{name}: expected one dimension, not {t.ndim}")
    if not t.shape:
        raise ValueError(f"{name}: the DLPack tensor has no shape")
    itemsize = t.dtype.bits // 8
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if shape[0] < 0:
        raise ValueError(f"{name}: the DLPack tensor has a negative length, {shape[0]}")
    strides = (t.strides[0] * itemsize,) if t.strides and t.ndim == 1 else None
    _contiguous(name, shape, strides, itemsize)
    typestr = f"<{_DL_KINDS[t.dtype.code]}{itemsize}"
    return DeviceArray((t.data or 0) + t.byte_offset, shape[0], typestr, device, capsule)


def _gpu_context(device):
    from ._device import context

    return context(f"gpu:{device}")


def to_host(x, name):
    """x itself, or a numpy copy of it when it is a GPU array."""
    d = device_array(x, name)
    if d is None:
        return x
    import numpy as np

    host = np.empty(d.length, dtype=np.dtype(d.typestr))
    _gpu_context(d.device)._copy(host.ctypes.data, d.ptr, d.nbytes)
    return host


def host_out(out, name):
    """(host out= argument, GPU array or None): a GPU out= array is replaced
    by None (a fresh host result), to be copied into it by into_device."""
    d = device_array(out, name) if out is not None else None
    return (None, (out, d)) if d is not None else (out, None)


def on_device(target, ctx, typestr, length, name):
    """The address to hand the extension (device_outputs=True) when the call
    can write the GPU out= array of host_out itself: its context runs on the
    GPU that holds the array (a "gpu:N" context of its ordinal, or an "auto"
    one that found GPU 0 there); else None, and into_device copies.  Checks
    the array's type and length first (ValueError)."""
    if target is None:
        return None
    d = target[1]
    if d.typestr[1:] != typestr[1:] or d.length != length:
        import numpy as np

        raise ValueError(f"{name}: expected {length} elements of {np.dtype(typestr)}, not "
                         f"{d.length} of {np.dtype(d.typestr)}")
    if ctx is None or ctx.backend != "gpu" or not ctx.device.startswith(f"gpu {d.device}:"):
        return None
    return d.ptr


def into_device(result, target, name):
    """The host result copied into the GPU out= array of host_out (returned);
    the result itself when there is none."""
    if target is None:
        return result
    import numpy as np

    out, d = target
    host = np.ascontiguousarray(result)
    if d.length != host.shape[0] or np.dtype(d.typestr) != host.dtype:
        raise ValueError(f"{name}: expected {host.shape[0]} elements of {host.dtype}, not "
                         f"{d.length} of {np.dtype(d.typestr)}")
    _gpu_context(d.device)._copy(d.ptr, host.ctypes.data, d.nbytes)
    return out
