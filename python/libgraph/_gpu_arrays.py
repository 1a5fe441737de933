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


def device_array(x, name):
    """x as a DeviceArray when it is GPU memory, else None."""
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        typestr, shape = cai["typestr"], tuple(cai["shape"])
        _contiguous(name, shape, cai.get("strides"), int(typestr[2:]))
        device = 0
        if hasattr(x, "__dlpack_device__"):
            device = int(x.__dlpack_device__()[1])
        elif hasattr(x, "device") and hasattr(x.device, "id"):
            device = int(x.device.id)  # CuPy, Numba
        return DeviceArray(int(cai["data"][0] or 0), shape[0], typestr, device)
    dev = getattr(x, "__dlpack_device__", None)
    if dev is None or not hasattr(x, "__dlpack__"):
        return None
    kind, ordinal = x.__dlpack_device__()
    if kind not in (_DL_CUDA, _DL_CUDA_MANAGED, _DL_ROCM):
        return None
    capsule = x.__dlpack__()
    return from_capsule(capsule, int(ordinal), name)


def from_capsule(capsule, device, name):
    """The DeviceArray a DLPack capsule ("dltensor") describes; the capsule is
    kept with it, not consumed (its producer frees the tensor when the
    capsule goes)."""
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    if t.dtype.code not in _DL_KINDS or t.dtype.lanes != 1:
        raise TypeError(f"{name}: DLPack type code {t.dtype.code} with {t.dtype.lanes} lanes is "
                        f"not a number libgraph reads")
    itemsize = t.dtype.bits // 8
    shape = tuple(t.shape[i] for i in range(t.ndim))
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
