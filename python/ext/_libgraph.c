/*
 * _libgraph.c - libgraph's Python extension, against the CPython C API.
 *
 * Thin: each function parses its arguments, turns array arguments into the C
 * types the library takes (in place when they already fit, else a checked
 * copy: arrays.c-style conversion below), releases the GIL around the library
 * call, and maps an lg_status_t to an exception.  Arrays come back as Buffer
 * objects (buffer protocol, one dimension), which the pure-Python package
 * wraps in numpy arrays without copying; so the extension needs no numpy.
 *
 * CPython conventions kept here: multi-phase init, module state, heap types
 * (so several interpreters each get their own); no Python object is touched
 * while the GIL is released (argument buffers are acquired before and
 * released after); every error path drops what it took.
 *
 * Documentation for users: docs/PYTHON.md.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <libgraph.h>

/* ------------------------------------------------------------------------ */
/* Module state                                                             */
/* ------------------------------------------------------------------------ */

typedef struct {
    PyTypeObject *buffer_type, *context_type, *graph_type;
    PyObject *Error, *InvalidArgumentError, *OutOfMemoryError, *DeviceError, *UnsupportedError,
        *FileFormatError, *NotConverged, *InternalError;
} module_state;

static struct PyModuleDef libgraph_module;

static module_state *state_of_module(PyObject *module)
{
    return (module_state *)PyModule_GetState(module);
}

static module_state *state_of_type(PyTypeObject *type)
{
    PyObject *m = PyType_GetModuleByDef(type, &libgraph_module);
    return m ? state_of_module(m) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Buffer: a one-dimensional array the extension hands out                  */
/* ------------------------------------------------------------------------ */

/* Either memory of its own (owner NULL, freed with it) or a read-only view of
 * memory an owner keeps alive (a graph's CSR arrays). */
typedef struct {
    PyObject_HEAD
    void *data;
    Py_ssize_t length, itemsize;
    char format[2];
    int readonly;
    PyObject *owner;
    Py_ssize_t shape, stride;
} BufferObject;

static PyObject *buffer_new(module_state *st, char format, Py_ssize_t itemsize, Py_ssize_t length,
                            void *data, PyObject *owner)
{
    BufferObject *b = PyObject_GC_New(BufferObject, st->buffer_type);
    if (!b)
        return NULL;
    b->length = length;
    b->itemsize = itemsize;
    b->format[0] = format;
    b->format[1] = '\0';
    b->shape = length;
    b->stride = itemsize;
    b->owner = owner;
    if (owner) {
        Py_INCREF(owner);
        b->data = data;
        b->readonly = 1;
    } else {
        /* raw: filled while the GIL is released */
        b->data = PyMem_RawMalloc((size_t)(length ? length : 1) * (size_t)itemsize);
        b->readonly = 0;
        if (!b->data) {
            b->owner = NULL;
            Py_DECREF(b);
            return PyErr_Format(PyExc_MemoryError,
                                "out of memory for a result of %zd elements of %zd bytes", length,
                                itemsize);
        }
    }
    PyObject_GC_Track(b);
    return (PyObject *)b;
}

static void buffer_dealloc(BufferObject *b)
{
    PyTypeObject *tp = Py_TYPE(b);
    PyObject_GC_UnTrack(b);
    if (b->owner)
        Py_CLEAR(b->owner);
    else
        PyMem_RawFree(b->data);
    tp->tp_free(b);
    Py_DECREF(tp);
}

static int buffer_traverse(BufferObject *b, visitproc visit, void *arg)
{
    Py_VISIT(b->owner);
    Py_VISIT(Py_TYPE(b));
    return 0;
}

static int buffer_getbuffer(BufferObject *b, Py_buffer *view, int flags)
{
    if ((flags & PyBUF_WRITABLE) && b->readonly) {
        PyErr_SetString(PyExc_BufferError, "a view of a graph's arrays is read-only");
        view->obj = NULL;
        return -1;
    }
    view->buf = b->data;
    view->obj = (PyObject *)b;
    Py_INCREF(b);
    view->len = b->length * b->itemsize;
    view->itemsize = b->itemsize;
    view->readonly = b->readonly;
    view->ndim = 1;
    view->format = (flags & PyBUF_FORMAT) ? b->format : NULL;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? &b->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? &b->stride : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static Py_ssize_t buffer_length(BufferObject *b)
{
    return b->length;
}

static PyObject *buffer_repr(BufferObject *b)
{
    return PyUnicode_FromFormat("<libgraph Buffer '%s' x %zd%s>", b->format, b->length,
                                b->readonly ? ", read-only" : "");
}

static PyType_Slot buffer_slots[] = {
    {Py_tp_doc, "A one-dimensional array from libgraph; use it through the buffer protocol "
                "(memoryview, numpy.frombuffer)."},
    {Py_tp_dealloc, buffer_dealloc},
    {Py_tp_traverse, buffer_traverse},
    {Py_tp_repr, buffer_repr},
    {Py_bf_getbuffer, buffer_getbuffer},
    {Py_sq_length, buffer_length},
    {0, NULL},
};

static PyType_Spec buffer_spec = {
    "libgraph._libgraph.Buffer", sizeof(BufferObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE |
        Py_TPFLAGS_DISALLOW_INSTANTIATION,
    buffer_slots};

static void *buffer_data(PyObject *b)
{
    return ((BufferObject *)b)->data;
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

/* Raises type(message); the message may hold a file name that is not UTF-8
 * (escaped, not a UnicodeDecodeError in its place). */
static void set_message(PyObject *type, const char *msg, lg_status_t status)
{
    if (!msg || !*msg)
        msg = lg_status_string(status);
    PyObject *text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "backslashreplace");
    if (text) {
        PyErr_SetObject(type, text);
        Py_DECREF(text);
    }
}

static PyObject *text_of(const char *s)
{
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "backslashreplace");
}

/* Sets the exception of a failed library call (its message is the thread's
 * lg_last_error()) and returns NULL. */
static PyObject *raise_status(module_state *st, lg_status_t status)
{
    PyObject *type;
    switch (status) {
    case LG_ERR_INVALID_ARGUMENT: type = st->InvalidArgumentError; break;
    case LG_ERR_OUT_OF_MEMORY: type = st->OutOfMemoryError; break;
    case LG_ERR_DEVICE: type = st->DeviceError; break;
    case LG_ERR_UNSUPPORTED: type = st->UnsupportedError; break;
    case LG_ERR_IO: type = st->FileFormatError; break;
    case LG_ERR_NOT_CONVERGED: type = st->NotConverged; break;
    default: type = st->InternalError; break;
    }
    set_message(type, lg_last_error(), status);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Array arguments                                                          */
/* ------------------------------------------------------------------------ */

/* The C element types array arguments become. */
typedef enum { EL_I32, EL_I64, EL_F32, EL_F64 } elem_t;

static const size_t elem_size[] = {4, 8, 4, 8};

/* An array argument: data points into the caller's buffer (no copy) or to
 * copy (converted). */
typedef struct {
    Py_buffer view;
    int have_view;
    int private_copy; /* copy even when the layout fits (see array_get_private) */
    void *copy;
    void *data;
    Py_ssize_t length;
} array_arg;

#define ARRAY_ARG_INIT {.have_view = 0, .private_copy = 0, .copy = NULL, .data = NULL, .length = 0}

static void array_release(array_arg *a)
{
    if (a->have_view)
        PyBuffer_Release(&a->view);
    a->have_view = 0;
    PyMem_RawFree(a->copy);
    a->copy = NULL;
    a->data = NULL;
}

/* How a buffer's elements read: kind 'i' signed, 'u' unsigned, 'f' float
 * (of itemsize bytes), 0 unusable; *swap when the byte order is not native. */
static char element_kind(const char *format, Py_ssize_t itemsize, int *swap)
{
    const int little = PY_LITTLE_ENDIAN;
    *swap = 0;
    if (!format)
        format = "B";
    switch (*format) {
    case '@': case '=': format++; break;
    case '<': *swap = !little; format++; break;
    case '>': case '!': *swap = little; format++; break;
    default: break;
    }
    if (format[0] == '\0' || format[1] != '\0')
        return 0; /* a struct, a repeat count, complex 'Zd': not one number */
    switch (*format) {
    /* integer letters: the itemsize decides (their sizes vary: 'l' is 4 or
     * 8 bytes with '@', 4 with '<'); float letters have one size each */
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
        return itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8 ? 'i' : 0;
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
        return itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8 ? 'u' : 0;
    case '?':
        return itemsize == 1 ? 'u' : 0; /* False, True: 0, 1 */
    case 'e': return itemsize == 2 ? 'f' : 0;
    case 'f': return itemsize == 4 ? 'f' : 0;
    case 'd': return itemsize == 8 ? 'f' : 0;
    default:
        return 0;
    }
}

static void load_bytes(unsigned char *dst, const char *src, Py_ssize_t n, int swap)
{
    for (Py_ssize_t k = 0; k < n; k++)
        dst[k] = (unsigned char)src[swap ? n - 1 - k : k];
}

/* Element i of a buffer as an integer (kind 'i' or 'u'); *big when an
 * unsigned value exceeds INT64_MAX. */
static int64_t load_int(const char *p, char kind, Py_ssize_t size, int swap, int *big)
{
    unsigned char b[8];
    load_bytes(b, p, size, swap);
    *big = 0;
    switch (size) {
    case 1: return kind == 'i' ? (int64_t)(int8_t)b[0] : (int64_t)b[0];
    case 2: { uint16_t v; memcpy(&v, b, 2); return kind == 'i' ? (int64_t)(int16_t)v : (int64_t)v; }
    case 4: { uint32_t v; memcpy(&v, b, 4); return kind == 'i' ? (int64_t)(int32_t)v : (int64_t)v; }
    default: {
        uint64_t v;
        memcpy(&v, b, 8);
        if (kind == 'u' && v > (uint64_t)INT64_MAX)
            *big = 1;
        return (int64_t)v;
    }
    }
}

static double load_float(const char *p, Py_ssize_t size, int swap)
{
    unsigned char b[8];
    load_bytes(b, p, size, swap);
    if (size == 2)
        return PyFloat_Unpack2((const char *)b, PY_LITTLE_ENDIAN);
    if (size == 4) {
        float f;
        memcpy(&f, b, 4);
        return f;
    }
    double d;
    memcpy(&d, b, 8);
    return d;
}

/* Stores v as element i of out (type el), or sets ValueError when it does not
 * fit.  Integer targets get integers only (checked by the callers). */
static int store_int(void *out, Py_ssize_t i, elem_t el, int64_t v, const char *name)
{
    if (el == EL_I32) {
        if (v < INT32_MIN || v > INT32_MAX) {
            PyErr_Format(PyExc_ValueError,
                         "%s[%zd] = %lld does not fit a vertex id (int32: at most %d)", name, i,
                         (long long)v, INT32_MAX);
            return -1;
        }
        ((int32_t *)out)[i] = (int32_t)v;
    } else if (el == EL_I64) {
        ((int64_t *)out)[i] = v;
    } else if (el == EL_F32) {
        ((float *)out)[i] = (float)v;
    } else {
        ((double *)out)[i] = (double)v;
    }
    return 0;
}

static int store_float(void *out, Py_ssize_t i, elem_t el, double v, const char *name)
{
    if (el == EL_F32) {
        /* PyErr_Format has no %g */
        const char *why = isfinite(v) && fabs(v) > (double)FLT_MAX ? "is too large for float32"
                          : v != 0.0 && (float)v == 0.0f           ? "rounds to 0 in float32"
                                                                   : NULL;
        if (why) {
            char text[64];
            snprintf(text, sizeof text, "%.17g", v);
            PyErr_Format(PyExc_ValueError, "%s[%zd] = %s %s", name, i, text, why);
            return -1;
        }
        ((float *)out)[i] = (float)v; /* NaN and inf pass: the library names them */
    } else {
        ((double *)out)[i] = v;
    }
    return 0;
}

static const char *type_name(PyObject *obj)
{
    return Py_TYPE(obj)->tp_name;
}

/* Bytes an array of n elements of `size` takes, or -1 (MemoryError set) when
 * that does not fit (a broadcast view claims any length). */
static Py_ssize_t array_bytes(Py_ssize_t n, size_t size)
{
    if (n < 0 || (size_t)n > (size_t)PY_SSIZE_T_MAX / size) {
        PyErr_NoMemory();
        return -1;
    }
    return (Py_ssize_t)((size_t)(n ? n : 1) * size);
}

static int from_buffer(PyObject *obj, const char *name, elem_t el, array_arg *a)
{
    if (PyObject_GetBuffer(obj, &a->view, PyBUF_RECORDS_RO) < 0) {
        /* the exporter's reason, under the argument's name */
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_BufferError) ||
            PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_Format(PyExc_TypeError, "%s: cannot read the %s object as an array (%S)", name,
                         type_name(obj), value ? value : Py_None);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
        }
        return -1;
    }
    a->have_view = 1;
    Py_buffer *v = &a->view;
    if (v->ndim != 1) {
        PyErr_Format(PyExc_ValueError, "%s: must be one-dimensional, not %d-dimensional", name,
                     v->ndim);
        return -1;
    }
    int swap;
    const char kind = element_kind(v->format, v->itemsize, &swap);
    if (!kind) {
        PyErr_Format(PyExc_TypeError, "%s: elements of format '%s' are not numbers libgraph reads",
                     name, v->format ? v->format : "B");
        return -1;
    }
    if (kind == 'f' && (el == EL_I32 || el == EL_I64)) {
        PyErr_Format(PyExc_TypeError, "%s: must hold integers (vertex ids or offsets), not floats",
                     name);
        return -1;
    }
    const Py_ssize_t n = v->shape[0];
    a->length = n;
    const Py_ssize_t stride = v->strides ? v->strides[0] : v->itemsize;
    const int fits = !a->private_copy && !swap && (size_t)v->itemsize == elem_size[el] &&
                     (el == EL_F32 || el == EL_F64 ? kind == 'f' : kind == 'i') &&
                     (n <= 1 || stride == v->itemsize) &&
                     ((uintptr_t)v->buf % elem_size[el]) == 0;
    if (fits) {
        a->data = v->buf; /* used in place */
        return 0;
    }
    const Py_ssize_t bytes = array_bytes(n, elem_size[el]);
    if (bytes < 0)
        return -1;
    a->copy = PyMem_RawMalloc((size_t)bytes);
    if (!a->copy) {
        PyErr_NoMemory();
        return -1;
    }
    const char *p = (const char *)v->buf;
    for (Py_ssize_t i = 0; i < n; i++, p += stride) {
        int rc;
        if (kind == 'f') {
            rc = store_float(a->copy, i, el, load_float(p, v->itemsize, swap), name);
        } else {
            int big;
            int64_t x = load_int(p, kind, v->itemsize, swap, &big);
            if (big && (el == EL_I32 || el == EL_I64)) {
                PyErr_Format(PyExc_ValueError, "%s[%zd] is larger than int64 can hold", name, i);
                return -1;
            }
            rc = big ? store_float(a->copy, i, el, (double)(uint64_t)x, name)
                     : store_int(a->copy, i, el, x, name);
        }
        if (rc < 0)
            return -1;
    }
    a->data = a->copy;
    return 0;
}

static int from_sequence(PyObject *obj, const char *name, elem_t el, array_arg *a)
{
    /* a tuple of the items: it owns them, and an __index__ or __float__
     * that changes the list cannot pull them away */
    PyObject *seq = PySequence_Tuple(obj);
    if (!seq)
        return -1;
    const Py_ssize_t n = PyTuple_GET_SIZE(seq);
    a->length = n;
    const Py_ssize_t bytes = array_bytes(n, elem_size[el]);
    a->copy = bytes < 0 ? NULL : PyMem_RawMalloc((size_t)bytes);
    if (!a->copy) {
        Py_DECREF(seq);
        if (bytes >= 0)
            PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i); /* borrowed from seq */
        int rc;
        if (el == EL_I32 || el == EL_I64) {
            if (!PyIndex_Check(item)) {
                PyErr_Format(PyExc_TypeError, "%s[%zd]: expected an integer, got %s", name, i,
                             type_name(item));
                rc = -1;
            } else {
                int overflow;
                PyObject *idx = PyNumber_Index(item);
                long long x = idx ? PyLong_AsLongLongAndOverflow(idx, &overflow) : -1;
                Py_XDECREF(idx);
                if (!idx || (x == -1 && PyErr_Occurred()))
                    rc = -1;
                else if (overflow) {
                    PyErr_Format(PyExc_ValueError, "%s[%zd] does not fit int64", name, i);
                    rc = -1;
                } else
                    rc = store_int(a->copy, i, el, (int64_t)x, name);
            }
        } else {
            double x = PyFloat_AsDouble(item);
            if (x == -1.0 && PyErr_Occurred()) {
                if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                    PyErr_Clear();
                    PyErr_Format(PyExc_TypeError, "%s[%zd]: expected a number, got %s", name, i,
                                 type_name(item));
                } else if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                    PyErr_Clear();
                    PyErr_Format(PyExc_ValueError, "%s[%zd]: too large for a float", name, i);
                }
                rc = -1;
            } else
                rc = store_float(a->copy, i, el, x, name);
        }
        if (rc < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    a->data = a->copy;
    return 0;
}

/* Reads array argument `name` as elements of type el.  Returns 0, or -1 with
 * an exception set (a has then nothing to release, but releasing is safe). */
static int array_get(PyObject *obj, const char *name, elem_t el, array_arg *a)
{
    int rc;
    if (PyObject_CheckBuffer(obj))
        rc = from_buffer(obj, name, el, a);
    else if (PySequence_Check(obj) && !PyUnicode_Check(obj))
        rc = from_sequence(obj, name, el, a);
    else {
        PyErr_Format(PyExc_TypeError, "%s: expected an array (an object with the buffer protocol, such as a numpy "
                     "array) or a sequence of numbers, not %s", name, type_name(obj));
        rc = -1;
    }
    if (rc < 0)
        array_release(a);
    return rc;
}

/* As array_get, into a copy of the extension's own whatever the layout: for
 * small arrays that are checked before the library reads them again (CSR
 * offsets, BFS sources), so that another thread writing the caller's array
 * meanwhile cannot turn a checked value into a wild one.  (Large arrays are
 * used in place: they must not be written while a call reads them, as with
 * any GIL-releasing extension; docs/PYTHON.md says so.) */
static int array_get_private(PyObject *obj, const char *name, elem_t el, array_arg *a)
{
    a->private_copy = 1;
    return array_get(obj, name, el, a);
}

/* As array_get, for an optional argument (None: data NULL) of an exact length
 * (expected >= 0). */
static int array_get_optional(PyObject *obj, const char *name, elem_t el, Py_ssize_t expected,
                              array_arg *a)
{
    if (!obj || obj == Py_None)
        return 0;
    if (array_get(obj, name, el, a) < 0)
        return -1;
    if (expected >= 0 && a->length != expected) {
        PyErr_Format(PyExc_ValueError, "%s: has %zd entries, needs %zd (one per %s)", name,
                     a->length, expected, el == EL_F64 ? "vertex" : "edge");
        array_release(a);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Result arrays                                                            */
/* ------------------------------------------------------------------------ */

/* A result: a new Buffer, or the caller's `out` array written in place (so
 * that a loop can reuse its memory): writable, one-dimensional, C-contiguous,
 * native, exactly the result's element type and length.  obj is a new
 * reference either way. */
typedef struct {
    PyObject *obj;
    Py_buffer view;
    int have_view;
    void *data;
} result_arg;

static int result_get(module_state *st, PyObject *out_o, const char *name, char format,
                      Py_ssize_t itemsize, Py_ssize_t n, result_arg *r)
{
    r->obj = NULL;
    r->have_view = 0;
    if (!out_o || out_o == Py_None) {
        r->obj = buffer_new(st, format, itemsize, n, NULL, NULL);
        r->data = r->obj ? buffer_data(r->obj) : NULL;
        return r->obj ? 0 : -1;
    }
    if (PyObject_GetBuffer(out_o, &r->view, PyBUF_RECORDS) < 0) {
        /* numpy says ValueError for a read-only array, bytes BufferError */
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_BufferError) ||
            PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: must be a writable array, not a read-only or "
                         "unreadable %s", name, type_name(out_o));
        }
        return -1;
    }
    r->have_view = 1;
    const Py_buffer *v = &r->view;
    int swap;
    const char kind = element_kind(v->format, v->itemsize, &swap);
    const char want = format == 'f' || format == 'd' ? 'f' : 'i';
    const char *type = format == 'd' ? "float64" : format == 'f' ? "float32" : "int32";
    if (v->ndim != 1 || kind != want || v->itemsize != itemsize || swap) {
        PyErr_Format(PyExc_TypeError, "%s: must be a one-dimensional %s array (native byte order)",
                     name, type);
    } else if (v->shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "%s: has %zd entries, needs %zd (one per vertex)", name,
                     v->shape[0], n);
    } else if (!PyBuffer_IsContiguous(v, 'C') || (uintptr_t)v->buf % (uintptr_t)itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: must be contiguous and aligned", name);
    } else {
        r->data = v->buf;
        r->obj = Py_NewRef(out_o);
        return 0;
    }
    PyBuffer_Release(&r->view);
    r->have_view = 0;
    return -1;
}

/* Lets go of the caller's buffer (the result object stays with r->obj). */
static void result_release(result_arg *r)
{
    if (r->have_view)
        PyBuffer_Release(&r->view);
    r->have_view = 0;
}

/* On failure: the result is dropped too. */
static void result_drop(result_arg *r)
{
    result_release(r);
    Py_CLEAR(r->obj);
}

/* ------------------------------------------------------------------------ */
/* Context                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    lg_context_t *ctx;
} ContextObject;

/* device: "auto", "cpu", "gpu" or "gpu:N". */
static int parse_device(const char *device, lg_context_options_t *o)
{
    if (strcmp(device, "auto") == 0) {
        o->backend = LG_BACKEND_AUTO;
        return 0;
    }
    if (strcmp(device, "cpu") == 0) {
        o->backend = LG_BACKEND_CPU;
        return 0;
    }
    if (strncmp(device, "gpu", 3) == 0) {
        o->backend = LG_BACKEND_GPU;
        if (device[3] == '\0')
            return 0;
        if (device[3] == ':' && device[4] >= '0' && device[4] <= '9') {
            char *end;
            long id = strtol(device + 4, &end, 10);
            if (*end == '\0' && id <= INT_MAX) {
                o->device_id = (int)id;
                return 0;
            }
        }
    }
    PyErr_Format(PyExc_ValueError, "device: must be 'auto', 'cpu', 'gpu' or 'gpu:N', not '%s'",
                 device);
    return -1;
}

static PyObject *context_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"device", "num_threads", NULL};
    const char *device = "auto";
    int num_threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|s$i:Context", kw, &device, &num_threads))
        return NULL;
    module_state *st = state_of_type(type);
    if (!st)
        return NULL;
    lg_context_options_t o;
    lg_context_options_init(&o);
    if (parse_device(device, &o) < 0)
        return NULL;
    if (num_threads < 0) {
        PyErr_Format(PyExc_ValueError, "num_threads: must be >= 0 (0: OpenMP's default), not %d",
                     num_threads);
        return NULL;
    }
    o.num_threads = num_threads;
    ContextObject *self = (ContextObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = lg_context_create(&self->ctx, &o);
    Py_END_ALLOW_THREADS
    if (s != LG_OK) {
        Py_DECREF(self);
        return raise_status(st, s);
    }
    return (PyObject *)self;
}

static void context_dealloc(ContextObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    lg_context_t *ctx = self->ctx;
    self->ctx = NULL;
    /* a GPU context's teardown may wait on the device; the object is already
     * unreachable, so nothing else can see it while the GIL is released */
    Py_BEGIN_ALLOW_THREADS
    lg_context_free(&ctx);
    Py_END_ALLOW_THREADS
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *context_backend(ContextObject *self, void *closure)
{
    (void)closure;
    lg_backend_t b = LG_BACKEND_CPU;
    (void)lg_context_get_backend(self->ctx, &b);
    return PyUnicode_FromString(b == LG_BACKEND_GPU ? "gpu" : "cpu");
}

static PyObject *context_device(ContextObject *self, void *closure)
{
    (void)closure;
    const char *d = "";
    (void)lg_context_get_device(self->ctx, &d);
    return text_of(d);
}

static PyObject *context_threads(ContextObject *self, void *closure)
{
    (void)closure;
    int t = 1;
    (void)lg_context_get_num_threads(self->ctx, &t);
    return PyLong_FromLong(t);
}

static PyObject *context_repr(ContextObject *self)
{
    const char *d = "";
    (void)lg_context_get_device(self->ctx, &d);
    return PyUnicode_FromFormat("<libgraph.Context: %s>", d);
}

static PyGetSetDef context_getset[] = {
    {"backend", (getter)context_backend, NULL, "Where the context runs: 'cpu' or 'gpu'.", NULL},
    {"device", (getter)context_device, NULL, "What the context runs on, as one line.", NULL},
    {"num_threads", (getter)context_threads, NULL, "The CPU threads it uses.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot context_slots[] = {
    {Py_tp_doc, "Context(device='auto', *, num_threads=0)\n--\n\n"
                "Where libgraph runs: device 'auto' (the GPU when one answers, else the CPU), "
                "'cpu', 'gpu' or 'gpu:N'; num_threads CPU threads (0: OpenMP's default).  "
                "Opening a GPU context that cannot be had raises DeviceError."},
    {Py_tp_new, context_new},
    {Py_tp_dealloc, context_dealloc},
    {Py_tp_repr, context_repr},
    {Py_tp_getset, context_getset},
    {0, NULL},
};

static PyType_Spec context_spec = {"libgraph._libgraph.Context", sizeof(ContextObject), 0,
                                   Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, context_slots};

/* The lg_context_t of a context argument: NULL for None (the CPU). */
static int context_arg(module_state *st, PyObject *obj, lg_context_t **ctx)
{
    *ctx = NULL;
    if (!obj || obj == Py_None)
        return 0;
    if (!PyObject_TypeCheck(obj, st->context_type)) {
        PyErr_Format(PyExc_TypeError, "context: expected a libgraph Context or None, not %s", type_name(obj));
        return -1;
    }
    *ctx = ((ContextObject *)obj)->ctx;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Graph                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    lg_graph_t *g;
} GraphObject;

static PyObject *graph_wrap(module_state *st, lg_graph_t *g)
{
    GraphObject *self = PyObject_New(GraphObject, st->graph_type);
    if (!self) {
        lg_graph_free(&g);
        return NULL;
    }
    self->g = g;
    return (PyObject *)self;
}

static void graph_dealloc(GraphObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    lg_graph_t *g = self->g;
    self->g = NULL;
    if (g) {
        /* a big graph takes a while to free: not under the GIL (the object
         * is unreachable by now, as io's file objects do when closing) */
        Py_BEGIN_ALLOW_THREADS
        lg_graph_free(&g);
        Py_END_ALLOW_THREADS
    }
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *graph_num_vertices(GraphObject *self, void *c)
{
    (void)c;
    return PyLong_FromLongLong(lg_graph_num_vertices(self->g));
}

static PyObject *graph_num_edges(GraphObject *self, void *c)
{
    (void)c;
    return PyLong_FromLongLong(lg_graph_num_edges(self->g));
}

static PyObject *graph_directed(GraphObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(lg_graph_is_directed(self->g));
}

static PyObject *graph_weighted(GraphObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(lg_graph_is_weighted(self->g));
}

/* (offsets, indices, weights or None): read-only views that keep the graph. */
static PyObject *graph_arrays(GraphObject *self, int in_edges)
{
    module_state *st = state_of_type(Py_TYPE(self));
    if (!st)
        return NULL;
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    lg_status_t s;
    if (in_edges) {
        Py_BEGIN_ALLOW_THREADS /* the first call builds the CSC */
        s = lg_graph_csc(self->g, &off, &idx, &w);
        Py_END_ALLOW_THREADS
    } else {
        s = lg_graph_csr(self->g, &off, &idx, &w);
    }
    if (s != LG_OK)
        return raise_status(st, s);
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(self->g);
    const Py_ssize_t m = (Py_ssize_t)lg_graph_num_edges(self->g);
    PyObject *o = buffer_new(st, 'q', 8, n + 1, (void *)off, (PyObject *)self);
    PyObject *i = o ? buffer_new(st, 'i', 4, m, (void *)idx, (PyObject *)self) : NULL;
    PyObject *wb = NULL;
    if (i)
        wb = w ? buffer_new(st, 'f', 4, m, (void *)w, (PyObject *)self) : Py_NewRef(Py_None);
    if (!wb) {
        Py_XDECREF(o);
        Py_XDECREF(i);
        return NULL;
    }
    return Py_BuildValue("(NNN)", o, i, wb);
}

static PyObject *graph_csr(GraphObject *self, PyObject *unused)
{
    (void)unused;
    return graph_arrays(self, 0);
}

static PyObject *graph_csc(GraphObject *self, PyObject *unused)
{
    (void)unused;
    return graph_arrays(self, 1);
}

static PyObject *graph_degrees(GraphObject *self, int in)
{
    module_state *st = state_of_type(Py_TYPE(self));
    if (!st)
        return NULL;
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(self->g);
    PyObject *out = buffer_new(st, 'q', 8, n, NULL, NULL);
    if (!out)
        return NULL;
    lg_edge_t *d = (lg_edge_t *)buffer_data(out);
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = in ? lg_graph_in_degrees(self->g, d) : lg_graph_out_degrees(self->g, d);
    Py_END_ALLOW_THREADS
    if (s != LG_OK) {
        Py_DECREF(out);
        return raise_status(st, s);
    }
    return out;
}

static PyObject *graph_out_degrees(GraphObject *self, PyObject *unused)
{
    (void)unused;
    return graph_degrees(self, 0);
}

static PyObject *graph_in_degrees(GraphObject *self, PyObject *unused)
{
    (void)unused;
    return graph_degrees(self, 1);
}

static PyObject *graph_repr(GraphObject *self)
{
    return PyUnicode_FromFormat("<libgraph._libgraph.Graph: %lld vertices, %lld arcs, %s%s>",
                                (long long)lg_graph_num_vertices(self->g),
                                (long long)lg_graph_num_edges(self->g),
                                lg_graph_is_directed(self->g) ? "directed" : "undirected",
                                lg_graph_is_weighted(self->g) ? ", weighted" : "");
}

static PyGetSetDef graph_getset[] = {
    {"num_vertices", (getter)graph_num_vertices, NULL, "The number of vertices.", NULL},
    {"num_edges", (getter)graph_num_edges, NULL,
     "Stored arcs: an undirected edge u-v (u != v) counts twice, a self-loop once.", NULL},
    {"directed", (getter)graph_directed, NULL, "Whether the graph is directed.", NULL},
    {"weighted", (getter)graph_weighted, NULL, "Whether the edges carry weights.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef graph_methods[] = {
    {"csr", (PyCFunction)graph_csr, METH_NOARGS,
     "csr() -> (offsets, indices, weights or None): read-only views of the out-edge arrays."},
    {"csc", (PyCFunction)graph_csc, METH_NOARGS,
     "csc() -> (offsets, indices, weights or None): read-only views of the in-edge arrays "
     "(built on first use; an undirected graph's are its CSR)."},
    {"out_degrees", (PyCFunction)graph_out_degrees, METH_NOARGS,
     "out_degrees() -> Buffer of int64: out-arcs of every vertex."},
    {"in_degrees", (PyCFunction)graph_in_degrees, METH_NOARGS,
     "in_degrees() -> Buffer of int64: in-arcs of every vertex."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot graph_slots[] = {
    {Py_tp_doc, "An immutable graph in CSR form (made by from_edges, from_csr, read, generate)."},
    {Py_tp_dealloc, graph_dealloc},
    {Py_tp_repr, graph_repr},
    {Py_tp_getset, graph_getset},
    {Py_tp_methods, graph_methods},
    {0, NULL},
};

static PyType_Spec graph_spec = {"libgraph._libgraph.Graph", sizeof(GraphObject), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE |
                                     Py_TPFLAGS_DISALLOW_INSTANTIATION,
                                 graph_slots};

static int graph_arg(module_state *st, PyObject *obj, lg_graph_t **g)
{
    if (!PyObject_TypeCheck(obj, st->graph_type)) {
        PyErr_Format(PyExc_TypeError, "graph: expected a libgraph._libgraph.Graph, not %s", type_name(obj));
        return -1;
    }
    *g = ((GraphObject *)obj)->g;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Building graphs                                                          */
/* ------------------------------------------------------------------------ */

/* directed: 0 default, 1 directed, 2 undirected (lg_directedness_t);
 * duplicates: lg_duplicates_t. */
static int graph_options(int directed, int symmetrize, int drop_self_loops, int duplicates,
                         lg_graph_options_t *o)
{
    lg_graph_options_init(o);
    if (directed < 0 || directed > 2) {
        PyErr_Format(PyExc_ValueError, "directed: must be 0 (default), 1 (directed) or 2 "
                     "(undirected), not %d", directed);
        return -1;
    }
    if (duplicates < LG_DUPLICATES_KEEP || duplicates > LG_DUPLICATES_LAST) {
        PyErr_Format(PyExc_ValueError, "duplicates: must be 0..5 (lg_duplicates_t), not %d",
                     duplicates);
        return -1;
    }
    o->directedness = (lg_directedness_t)directed;
    o->symmetrize = symmetrize != 0;
    o->drop_self_loops = drop_self_loops != 0;
    o->duplicates = (lg_duplicates_t)duplicates;
    return 0;
}

static PyObject *mod_from_edges(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"num_vertices", "src", "dst", "weights", "directed", "symmetrize",
                         "drop_self_loops", "duplicates", "context", NULL};
    long long nv;
    PyObject *src_o, *dst_o, *w_o = Py_None, *ctx_o = Py_None;
    int directed = 0, symmetrize = 0, drop = 0, dups = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LOO|Oipp$iO:from_edges", kw, &nv, &src_o,
                                     &dst_o, &w_o, &directed, &symmetrize, &drop, &dups, &ctx_o))
        return NULL;
    module_state *st = state_of_module(module);
    lg_context_t *ctx;
    lg_graph_options_t o;
    if (context_arg(st, ctx_o, &ctx) < 0 || graph_options(directed, symmetrize, drop, dups, &o) < 0)
        return NULL;
    array_arg src = ARRAY_ARG_INIT, dst = ARRAY_ARG_INIT, w = ARRAY_ARG_INIT;
    PyObject *result = NULL;
    if (array_get(src_o, "src", EL_I32, &src) < 0 || array_get(dst_o, "dst", EL_I32, &dst) < 0)
        goto done;
    if (src.length != dst.length) {
        PyErr_Format(PyExc_ValueError, "src and dst: must have the same length, not %zd and %zd",
                     src.length, dst.length);
        goto done;
    }
    if (array_get_optional(w_o, "weights", EL_F32, src.length, &w) < 0)
        goto done;
    lg_graph_t *g = NULL;
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    if (nv < 0) {
        /* one more than the largest id */
        const int32_t *a = (const int32_t *)src.data, *b = (const int32_t *)dst.data;
        int64_t top = -1;
        for (Py_ssize_t i = 0; i < src.length; i++) {
            if (a[i] > top)
                top = a[i];
            if (b[i] > top)
                top = b[i];
        }
        nv = top + 1;
    }
    s = lg_graph_from_edges(ctx, (int64_t)nv, (int64_t)src.length, (const lg_vertex_t *)src.data,
                            (const lg_vertex_t *)dst.data, (const float *)w.data, &o, &g);
    Py_END_ALLOW_THREADS
    result = s == LG_OK ? graph_wrap(st, g) : raise_status(st, s);
done:
    array_release(&src);
    array_release(&dst);
    array_release(&w);
    return result;
}

static PyObject *mod_from_csr(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"offsets", "indices", "weights", "directed", "symmetrize",
                         "drop_self_loops", "duplicates", "context", NULL};
    PyObject *off_o, *idx_o, *w_o = Py_None, *ctx_o = Py_None;
    int directed = 0, symmetrize = 0, drop = 0, dups = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|Oipp$iO:from_csr", kw, &off_o, &idx_o, &w_o,
                                     &directed, &symmetrize, &drop, &dups, &ctx_o))
        return NULL;
    module_state *st = state_of_module(module);
    lg_context_t *ctx;
    lg_graph_options_t o;
    if (context_arg(st, ctx_o, &ctx) < 0 || graph_options(directed, symmetrize, drop, dups, &o) < 0)
        return NULL;
    array_arg off = ARRAY_ARG_INIT, idx = ARRAY_ARG_INIT, w = ARRAY_ARG_INIT;
    PyObject *result = NULL;
    if (array_get_private(off_o, "offsets", EL_I64, &off) < 0 ||
        array_get(idx_o, "indices", EL_I32, &idx) < 0)
        goto done;
    if (off.length < 1) {
        PyErr_SetString(PyExc_ValueError, "offsets: needs num_vertices + 1 >= 1 entries");
        goto done;
    }
    const int64_t *offs = (const int64_t *)off.data;
    if (offs[off.length - 1] != (int64_t)idx.length) {
        PyErr_Format(PyExc_ValueError, "indices: has %zd entries, but offsets[-1] is %lld",
                     idx.length, (long long)offs[off.length - 1]);
        goto done;
    }
    if (array_get_optional(w_o, "weights", EL_F32, idx.length, &w) < 0)
        goto done;
    lg_graph_t *g = NULL;
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = lg_graph_from_csr(ctx, (int64_t)off.length - 1, offs, (const lg_vertex_t *)idx.data,
                          (const float *)w.data, &o, &g);
    Py_END_ALLOW_THREADS
    result = s == LG_OK ? graph_wrap(st, g) : raise_status(st, s);
done:
    array_release(&off);
    array_release(&idx);
    array_release(&w);
    return result;
}

static PyObject *mod_read(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"path", "format", "directed", "symmetrize", "drop_self_loops",
                         "duplicates", "context", NULL};
    PyObject *path = NULL, *ctx_o = Py_None;
    int format = 0, directed = 0, symmetrize = 0, drop = 0, dups = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|iipp$iO:read", kw, PyUnicode_FSConverter,
                                     &path, &format, &directed, &symmetrize, &drop, &dups, &ctx_o))
        return NULL;
    module_state *st = state_of_module(module);
    lg_context_t *ctx;
    lg_graph_options_t o;
    PyObject *result = NULL;
    if (context_arg(st, ctx_o, &ctx) < 0 || graph_options(directed, symmetrize, drop, dups, &o) < 0)
        goto done;
    if (format < LG_FORMAT_AUTO || format > LG_FORMAT_BINARY) {
        PyErr_Format(PyExc_ValueError, "format: must be 0..4 (lg_file_format_t), not %d", format);
        goto done;
    }
    const char *p = PyBytes_AS_STRING(path);
    lg_graph_t *g = NULL;
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = lg_graph_read(ctx, p, (lg_file_format_t)format, &o, &g);
    Py_END_ALLOW_THREADS
    result = s == LG_OK ? graph_wrap(st, g) : raise_status(st, s);
done:
    Py_DECREF(path);
    return result;
}

static PyObject *mod_write(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"graph", "path", "format", "context", NULL};
    PyObject *graph_o, *path = NULL, *ctx_o = Py_None;
    int format = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO&|i$O:write", kw, &graph_o,
                                     PyUnicode_FSConverter, &path, &format, &ctx_o))
        return NULL;
    module_state *st = state_of_module(module);
    lg_context_t *ctx;
    lg_graph_t *g;
    PyObject *result = NULL;
    if (graph_arg(st, graph_o, &g) < 0 || context_arg(st, ctx_o, &ctx) < 0)
        goto done;
    if (format < LG_FORMAT_AUTO || format > LG_FORMAT_BINARY) {
        PyErr_Format(PyExc_ValueError, "format: must be 0..4 (lg_file_format_t), not %d", format);
        goto done;
    }
    const char *p = PyBytes_AS_STRING(path);
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = lg_graph_write(ctx, g, p, (lg_file_format_t)format);
    Py_END_ALLOW_THREADS
    result = s == LG_OK ? Py_NewRef(Py_None) : raise_status(st, s);
done:
    Py_DECREF(path);
    return result;
}

/* A seed: an integer in [0, 2^64) (not wrapped: seeds 5 and 2^64 + 5 differ). */
static int seed_arg(PyObject *obj, unsigned long long *seed)
{
    if (!obj)
        return 0;
    PyObject *v = PyNumber_Index(obj);
    if (!v)
        return -1;
    *seed = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    if (*seed == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "seed: must be in [0, 2**64)");
        }
        return -1;
    }
    return 0;
}

static PyObject *mod_generate(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"generator", "scale", "edge_factor", "seed", "context", NULL};
    int generator, scale, edge_factor = 16;
    PyObject *seed_o = NULL, *ctx_o = Py_None;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ii|iO$O:generate", kw, &generator, &scale,
                                     &edge_factor, &seed_o, &ctx_o) ||
        seed_arg(seed_o, &seed) < 0)
        return NULL;
    module_state *st = state_of_module(module);
    lg_context_t *ctx;
    if (context_arg(st, ctx_o, &ctx) < 0)
        return NULL;
    lg_graph_t *g = NULL;
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = lg_generate(ctx, (lg_generator_t)generator, scale, edge_factor, (uint64_t)seed, NULL, &g);
    Py_END_ALLOW_THREADS
    return s == LG_OK ? graph_wrap(st, g) : raise_status(st, s);
}

static PyObject *mod_generate_edges(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"generator", "scale", "edge_factor", "seed", "context", NULL};
    int generator, scale, edge_factor = 16;
    PyObject *seed_o = NULL, *ctx_o = Py_None;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ii|iO$O:generate_edges", kw, &generator,
                                     &scale, &edge_factor, &seed_o, &ctx_o) ||
        seed_arg(seed_o, &seed) < 0)
        return NULL;
    module_state *st = state_of_module(module);
    lg_context_t *ctx;
    if (context_arg(st, ctx_o, &ctx) < 0)
        return NULL;
    /* sizes checked here: the arrays are allocated before the library sees them */
    if (scale < 1 || scale > 30 || edge_factor < 1 ||
        (int64_t)edge_factor > (PY_SSIZE_T_MAX / 8) >> scale) {
        PyErr_Format(PyExc_ValueError, "scale %d, edge_factor %d: need scale in [1, 30], "
                     "edge_factor >= 1 and edge_factor << scale edges that fit memory",
                     scale, edge_factor);
        return NULL;
    }
    const Py_ssize_t m = (Py_ssize_t)edge_factor << scale;
    PyObject *src = buffer_new(st, 'i', 4, m, NULL, NULL);
    PyObject *dst = src ? buffer_new(st, 'i', 4, m, NULL, NULL) : NULL;
    if (!dst) {
        Py_XDECREF(src);
        return NULL;
    }
    lg_vertex_t *s_data = (lg_vertex_t *)buffer_data(src), *d_data = (lg_vertex_t *)buffer_data(dst);
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = lg_generate_edges(ctx, (lg_generator_t)generator, scale, edge_factor, (uint64_t)seed,
                          s_data, d_data);
    Py_END_ALLOW_THREADS
    if (s != LG_OK) {
        Py_DECREF(src);
        Py_DECREF(dst);
        return raise_status(st, s);
    }
    return Py_BuildValue("(NN)", src, dst);
}

/* ------------------------------------------------------------------------ */
/* Algorithms                                                               */
/* ------------------------------------------------------------------------ */

static PyObject *mod_bfs(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"graph", "source", "parents", "max_depth", "direction_alpha",
                         "direction_beta", "context", "out", "parents_out", NULL};
    PyObject *graph_o, *src_o, *ctx_o = Py_None, *out_o = Py_None, *pout_o = Py_None;
    int parents = 0, max_depth = -1;
    lg_bfs_options_t o;
    lg_bfs_options_init(&o);
    int alpha = o.direction_alpha, beta = o.direction_beta;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$piiiOOO:bfs", kw, &graph_o, &src_o,
                                     &parents, &max_depth, &alpha, &beta, &ctx_o, &out_o, &pout_o))
        return NULL;
    module_state *st = state_of_module(module);
    lg_graph_t *g;
    lg_context_t *ctx;
    if (graph_arg(st, graph_o, &g) < 0 || context_arg(st, ctx_o, &ctx) < 0)
        return NULL;
    o.compute_parents = parents != 0;
    o.max_depth = max_depth;
    o.direction_alpha = alpha;
    o.direction_beta = beta;
    array_arg sources = ARRAY_ARG_INIT;
    lg_vertex_t one = 0;
    const lg_vertex_t *srcs = &one;
    int64_t num_sources = 1;
    /* one id (an int, a numpy integer) or an array of them; a numpy array
     * claims __index__ too, but only a scalar one answers it */
    int scalar = 0;
    if (PyBool_Check(src_o)) {
        PyErr_SetString(PyExc_TypeError, "source: expected a vertex id, not a bool");
        return NULL;
    }
    if (PyIndex_Check(src_o)) {
        Py_ssize_t v = PyNumber_AsSsize_t(src_o, NULL); /* clamps to Py_ssize_t */
        if (v == -1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError) ||
                !(PyObject_CheckBuffer(src_o) || PySequence_Check(src_o)))
                return NULL;
            PyErr_Clear();
        } else {
            if (v < INT32_MIN || v > INT32_MAX) {
                PyErr_Format(PyExc_ValueError,
                             "source: %zd is not a vertex of a graph with %lld vertices", v,
                             (long long)lg_graph_num_vertices(g));
                return NULL;
            }
            one = (lg_vertex_t)v;
            scalar = 1;
        }
    }
    if (!scalar) {
        if (array_get_private(src_o, "source", EL_I32, &sources) < 0)
            return NULL;
        srcs = (const lg_vertex_t *)sources.data;
        num_sources = sources.length;
    }
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(g);
    result_arg dist, par = {.obj = NULL, .have_view = 0, .data = NULL};
    if (result_get(st, out_o, "out", 'i', 4, n, &dist) < 0) {
        array_release(&sources);
        return NULL;
    }
    if (parents && result_get(st, pout_o, "parents_out", 'i', 4, n, &par) < 0) {
        result_drop(&dist);
        array_release(&sources);
        return NULL;
    }
    int32_t *d = (int32_t *)dist.data;
    lg_vertex_t *p = parents ? (lg_vertex_t *)par.data : NULL;
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = lg_bfs_multi(ctx, g, srcs, num_sources, &o, d, p);
    Py_END_ALLOW_THREADS
    array_release(&sources);
    result_release(&dist);
    result_release(&par);
    if (s != LG_OK) {
        result_drop(&dist);
        result_drop(&par);
        return raise_status(st, s);
    }
    return Py_BuildValue("(NN)", dist.obj, par.obj ? par.obj : Py_NewRef(Py_None));
}

static PyObject *mod_pagerank(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"graph", "alpha", "tol", "max_iter", "use_weights", "personalization",
                         "nstart", "dangling", "precision", "context", "out", NULL};
    PyObject *graph_o, *pers_o = Py_None, *nstart_o = Py_None, *dang_o = Py_None, *ctx_o = Py_None,
             *out_o = Py_None;
    lg_pagerank_options_t o;
    lg_pagerank_options_init(&o);
    int use_weights = 1, precision = 64;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|ddipOOO$iOO:pagerank", kw, &graph_o,
                                     &o.alpha, &o.tol, &o.max_iter, &use_weights, &pers_o,
                                     &nstart_o, &dang_o, &precision, &ctx_o, &out_o))
        return NULL;
    module_state *st = state_of_module(module);
    lg_graph_t *g;
    lg_context_t *ctx;
    if (graph_arg(st, graph_o, &g) < 0 || context_arg(st, ctx_o, &ctx) < 0)
        return NULL;
    if (precision != 32 && precision != 64) {
        PyErr_Format(PyExc_ValueError, "precision: must be 32 or 64, not %d", precision);
        return NULL;
    }
    o.use_weights = use_weights != 0;
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(g);
    array_arg pers = ARRAY_ARG_INIT, nstart = ARRAY_ARG_INIT, dang = ARRAY_ARG_INIT;
    PyObject *scores = NULL, *result = NULL;
    result_arg out = {.obj = NULL, .have_view = 0, .data = NULL};
    if (array_get_optional(pers_o, "personalization", EL_F64, n, &pers) < 0 ||
        array_get_optional(nstart_o, "nstart", EL_F64, n, &nstart) < 0 ||
        array_get_optional(dang_o, "dangling", EL_F64, n, &dang) < 0)
        goto done;
    o.personalization = (const double *)pers.data;
    o.nstart = (const double *)nstart.data;
    o.dangling = (const double *)dang.data;
    if (result_get(st, out_o, "out", precision == 64 ? 'd' : 'f', precision / 8, n, &out) < 0)
        goto done;
    scores = out.obj; /* owned: released at done */
    void *x = out.data;
    int iterations = 0;
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = precision == 64 ? lg_pagerank(ctx, g, &o, (double *)x, &iterations)
                        : lg_pagerank_f32(ctx, g, &o, (float *)x, &iterations);
    Py_END_ALLOW_THREADS
    result_release(&out);
    if (s == LG_OK) {
        result = Py_BuildValue("(Oi)", scores, iterations);
    } else if (s == LG_ERR_NOT_CONVERGED) {
        /* NotConverged(message) carrying the last iterate */
        PyObject *exc = PyObject_CallFunction(st->NotConverged, "s", lg_last_error());
        PyObject *it = exc ? PyLong_FromLong(iterations) : NULL;
        if (it && PyObject_SetAttrString(exc, "scores", scores) == 0 &&
            PyObject_SetAttrString(exc, "iterations", it) == 0)
            PyErr_SetObject(st->NotConverged, exc);
        Py_XDECREF(it);
        Py_XDECREF(exc);
    } else {
        raise_status(st, s);
    }
done:
    result_release(&out);
    Py_XDECREF(scores);
    array_release(&pers);
    array_release(&nstart);
    array_release(&dang);
    return result;
}

static PyObject *mod_connected_components(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"graph", "context", "out", NULL};
    PyObject *graph_o, *ctx_o = Py_None, *out_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OO:connected_components", kw, &graph_o,
                                     &ctx_o, &out_o))
        return NULL;
    module_state *st = state_of_module(module);
    lg_graph_t *g;
    lg_context_t *ctx;
    if (graph_arg(st, graph_o, &g) < 0 || context_arg(st, ctx_o, &ctx) < 0)
        return NULL;
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(g);
    result_arg labels;
    if (result_get(st, out_o, "out", 'i', 4, n, &labels) < 0)
        return NULL;
    lg_vertex_t *l = (lg_vertex_t *)labels.data;
    int64_t count = 0;
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS
    s = lg_connected_components(ctx, g, l, &count);
    Py_END_ALLOW_THREADS
    result_release(&labels);
    if (s != LG_OK) {
        result_drop(&labels);
        return raise_status(st, s);
    }
    return Py_BuildValue("(NL)", labels.obj, (long long)count);
}

static PyObject *mod_last_backend(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    switch (lg_last_backend()) {
    case LG_BACKEND_CPU: return PyUnicode_FromString("cpu");
    case LG_BACKEND_GPU: return PyUnicode_FromString("gpu");
    default: Py_RETURN_NONE;
    }
}

static PyObject *mod_build_info(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    const char *info;
    Py_BEGIN_ALLOW_THREADS /* may look for the GPU plugin */
    info = lg_build_info();
    Py_END_ALLOW_THREADS
    return text_of(info);
}

static PyMethodDef module_methods[] = {
    {"from_edges", (PyCFunction)(void (*)(void))mod_from_edges, METH_VARARGS | METH_KEYWORDS,
     "from_edges(num_vertices, src, dst, weights=None, directed=0, symmetrize=False, "
     "drop_self_loops=False, *, duplicates=0, context=None) -> Graph\n\n"
     "lg_graph_from_edges.  num_vertices < 0: one more than the largest id.  directed: "
     "0 default (directed), 1 directed, 2 undirected; duplicates: lg_duplicates_t."},
    {"from_csr", (PyCFunction)(void (*)(void))mod_from_csr, METH_VARARGS | METH_KEYWORDS,
     "from_csr(offsets, indices, weights=None, directed=0, symmetrize=False, "
     "drop_self_loops=False, *, duplicates=0, context=None) -> Graph\n\nlg_graph_from_csr."},
    {"read", (PyCFunction)(void (*)(void))mod_read, METH_VARARGS | METH_KEYWORDS,
     "read(path, format=0, directed=0, symmetrize=False, drop_self_loops=False, *, "
     "duplicates=0, context=None) -> Graph\n\nlg_graph_read; format: lg_file_format_t."},
    {"write", (PyCFunction)(void (*)(void))mod_write, METH_VARARGS | METH_KEYWORDS,
     "write(graph, path, format=0, *, context=None)\n\nlg_graph_write."},
    {"generate", (PyCFunction)(void (*)(void))mod_generate, METH_VARARGS | METH_KEYWORDS,
     "generate(generator, scale, edge_factor=16, seed=1, *, context=None) -> Graph\n\n"
     "lg_generate with the GAP benchmark's convention (undirected, no self-loops, "
     "duplicates merged); generator 0 Kronecker, 1 uniform random."},
    {"generate_edges", (PyCFunction)(void (*)(void))mod_generate_edges,
     METH_VARARGS | METH_KEYWORDS,
     "generate_edges(generator, scale, edge_factor=16, seed=1, *, context=None) -> (src, dst)\n\n"
     "lg_generate_edges: the raw edges (self-loops and duplicates included)."},
    {"bfs", (PyCFunction)(void (*)(void))mod_bfs, METH_VARARGS | METH_KEYWORDS,
     "bfs(graph, source, *, parents=False, max_depth=-1, direction_alpha=15, "
     "direction_beta=18, context=None, out=None, parents_out=None) -> (distances, parents or "
     "None)\n\nsource: a vertex id or an array of them (multi-source).  out / parents_out: "
     "int32 arrays of num_vertices to write into (returned), instead of new ones."},
    {"pagerank", (PyCFunction)(void (*)(void))mod_pagerank, METH_VARARGS | METH_KEYWORDS,
     "pagerank(graph, alpha=0.85, tol=1e-6, max_iter=100, use_weights=True, "
     "personalization=None, nstart=None, dangling=None, *, precision=64, context=None, "
     "out=None) -> (scores, iterations)\n\nRaises NotConverged (with .scores, .iterations) "
     "when max_iter runs out.  out: a float64 (float32) array of num_vertices to write into."},
    {"connected_components", (PyCFunction)(void (*)(void))mod_connected_components,
     METH_VARARGS | METH_KEYWORDS,
     "connected_components(graph, *, context=None, out=None) -> (labels, count)"},
    {"last_backend", mod_last_backend, METH_NOARGS,
     "last_backend() -> 'cpu', 'gpu' or None: where this thread's last algorithm call ran."},
    {"build_info", mod_build_info, METH_NOARGS,
     "build_info() -> str: how the C library was built and which GPU plugin it finds."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------------ */
/* Module                                                                   */
/* ------------------------------------------------------------------------ */

static int add_exception(PyObject *m, PyObject **slot, const char *name, PyObject *bases,
                         const char *doc)
{
    char qualified[96];
    snprintf(qualified, sizeof qualified, "libgraph.%s", name); /* as users see it */
    *slot = PyErr_NewExceptionWithDoc(qualified, doc, bases, NULL);
    if (!*slot)
        return -1;
    return PyModule_AddObjectRef(m, name, *slot);
}

static int add_exception2(PyObject *m, module_state *st, PyObject **slot, const char *name,
                          PyObject *builtin, const char *doc)
{
    PyObject *bases = PyTuple_Pack(2, st->Error, builtin);
    if (!bases)
        return -1;
    int rc = add_exception(m, slot, name, bases, doc);
    Py_DECREF(bases);
    return rc;
}

static int module_exec(PyObject *m)
{
    module_state *st = state_of_module(m);
    st->buffer_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &buffer_spec, NULL);
    if (!st->buffer_type || PyModule_AddType(m, st->buffer_type) < 0)
        return -1;
    st->context_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &context_spec, NULL);
    if (!st->context_type || PyModule_AddType(m, st->context_type) < 0)
        return -1;
    st->graph_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &graph_spec, NULL);
    if (!st->graph_type || PyModule_AddType(m, st->graph_type) < 0)
        return -1;
    if (add_exception(m, &st->Error, "Error", NULL, "The base of libgraph's errors.") < 0 ||
        add_exception2(m, st, &st->InvalidArgumentError, "InvalidArgumentError",
                       PyExc_ValueError, "An argument the library rejects (LG_ERR_INVALID_ARGUMENT).") < 0 ||
        add_exception2(m, st, &st->OutOfMemoryError, "OutOfMemoryError", PyExc_MemoryError,
                       "Host or device memory ran out (LG_ERR_OUT_OF_MEMORY).") < 0 ||
        add_exception2(m, st, &st->DeviceError, "DeviceError", PyExc_RuntimeError,
                       "The GPU runtime failed or is absent (LG_ERR_DEVICE).") < 0 ||
        add_exception2(m, st, &st->UnsupportedError, "UnsupportedError",
                       PyExc_NotImplementedError,
                       "Valid, but not supported by this build or device (LG_ERR_UNSUPPORTED).") < 0 ||
        add_exception2(m, st, &st->FileFormatError, "FileFormatError", PyExc_OSError,
                       "A file could not be read, written or parsed (LG_ERR_IO).") < 0 ||
        add_exception2(m, st, &st->NotConverged, "NotConverged", PyExc_RuntimeError,
                       "An iteration hit its limit (LG_ERR_NOT_CONVERGED); .scores holds the "
                       "last iterate and .iterations the iterations run.") < 0 ||
        add_exception2(m, st, &st->InternalError, "InternalError", PyExc_RuntimeError,
                       "A bug in libgraph (LG_ERR_INTERNAL); please report it.") < 0)
        return -1;
    if (PyModule_AddStringConstant(m, "__version__", lg_version_string()) < 0 ||
        PyModule_AddIntConstant(m, "MAX_VERTICES", (long)LG_MAX_VERTICES) < 0)
        return -1;
    return 0;
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
    module_state *st = state_of_module(m);
    Py_VISIT(st->buffer_type);
    Py_VISIT(st->context_type);
    Py_VISIT(st->graph_type);
    Py_VISIT(st->Error);
    Py_VISIT(st->InvalidArgumentError);
    Py_VISIT(st->OutOfMemoryError);
    Py_VISIT(st->DeviceError);
    Py_VISIT(st->UnsupportedError);
    Py_VISIT(st->FileFormatError);
    Py_VISIT(st->NotConverged);
    Py_VISIT(st->InternalError);
    return 0;
}

static int module_clear(PyObject *m)
{
    module_state *st = state_of_module(m);
    Py_CLEAR(st->buffer_type);
    Py_CLEAR(st->context_type);
    Py_CLEAR(st->graph_type);
    Py_CLEAR(st->Error);
    Py_CLEAR(st->InvalidArgumentError);
    Py_CLEAR(st->OutOfMemoryError);
    Py_CLEAR(st->DeviceError);
    Py_CLEAR(st->UnsupportedError);
    Py_CLEAR(st->FileFormatError);
    Py_CLEAR(st->NotConverged);
    Py_CLEAR(st->InternalError);
    return 0;
}

static void module_free(void *m)
{
    module_clear((PyObject *)m);
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL},
};

static struct PyModuleDef libgraph_module = {
    PyModuleDef_HEAD_INIT,
    "libgraph._libgraph",
    "libgraph's C extension: graphs, BFS, PageRank and connected components over the C "
    "library.  Use the libgraph package; see docs/PYTHON.md.",
    sizeof(module_state),
    module_methods,
    module_slots,
    module_traverse,
    module_clear,
    module_free,
};

PyMODINIT_FUNC PyInit__libgraph(void); /* the one exported symbol */
PyMODINIT_FUNC PyInit__libgraph(void)
{
    return PyModuleDef_Init(&libgraph_module);
}
