/*
 * arrays.c - array arguments: Python objects -> the C arrays the library takes.
 *
 * An argument with the buffer protocol (a numpy array, array.array,
 * memoryview) is used in place when its layout already fits: one dimension,
 * contiguous, aligned, native byte order, exactly the element type the
 * library takes (int32 ids, int64 offsets, float32 weights, float64
 * vectors).  Otherwise, and for any other sequence of numbers, it is copied
 * (O(n), one pass) into PyMem_Malloc'd memory, every value checked on the
 * way: integers must fit, floats must not round to 0 or overflow float32, and
 * an integer target takes no floats.  Integer format letters are read by
 * their itemsize ('l' is 4 or 8 bytes), float letters by their fixed size.
 *
 * A sequence is snapshotted into a tuple first, so an __index__ that changes
 * the list cannot pull the items away under the loop.
 */
#include "ext.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static const size_t elem_size[] = {4, 8, 4, 8};

void lgpy_array_release(lgpy_array *a)
{
    if (a->have_view)
        PyBuffer_Release(&a->view);
    a->have_view = 0;
    PyMem_Free(a->copy);
    a->copy = NULL;
    a->data = NULL;
}

char lgpy_element_kind(const char *format, Py_ssize_t itemsize, int *swap)
{
    const int little = PY_LITTLE_ENDIAN;
    *swap = 0;
    if (!format)
        format = "B";
    switch (*format) {
    case '@':
    case '=': format++; break;
    case '<':
        *swap = !little;
        format++;
        break;
    case '>':
    case '!':
        *swap = little;
        format++;
        break;
    default: break;
    }
    if (format[0] == '\0' || format[1] != '\0')
        return 0; /* a struct, a repeat count, complex 'Zd': not one number */
    switch (*format) {
    /* integer letters: the itemsize decides (their sizes vary: 'l' is 4 or
     * 8 bytes with '@', 4 with '<'); float letters have one size each */
    case 'b':
    case 'h':
    case 'i':
    case 'l':
    case 'q':
    case 'n': return itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8 ? 'i' : 0;
    case 'B':
    case 'H':
    case 'I':
    case 'L':
    case 'Q':
    case 'N': return itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8 ? 'u' : 0;
    case '?': return itemsize == 1 ? 'u' : 0; /* False, True: 0, 1 */
    case 'e': return itemsize == 2 ? 'f' : 0;
    case 'f': return itemsize == 4 ? 'f' : 0;
    case 'd': return itemsize == 8 ? 'f' : 0;
    default: return 0;
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
    case 2: {
        uint16_t v;
        memcpy(&v, b, 2);
        return kind == 'i' ? (int64_t)(int16_t)v : (int64_t)v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, b, 4);
        return kind == 'i' ? (int64_t)(int32_t)v : (int64_t)v;
    }
    default: {
        uint64_t v;
        memcpy(&v, b, 8);
        if (kind == 'u' && v > (uint64_t)INT64_MAX)
            *big = 1;
        return (int64_t)v;
    }
    }
}

/* An IEEE 754 half-precision number (numpy's float16) as a double: exact. */
static double half_to_double(uint16_t h)
{
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    double v;
    if (exponent == 0)
        v = ldexp(mantissa, -24); /* zero, subnormal */
    else if (exponent == 31)
        v = mantissa ? NAN : INFINITY;
    else
        v = ldexp(mantissa | 0x400, exponent - 25);
    return h & 0x8000 ? -v : v;
}

static double load_float(const char *p, Py_ssize_t size, int swap)
{
    unsigned char b[8];
    load_bytes(b, p, size, swap);
    if (size == 2) {
        uint16_t h;
        memcpy(&h, b, 2);
        return half_to_double(h);
    }
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
static int store_int(void *out, Py_ssize_t i, lgpy_elem el, int64_t v, const char *name)
{
    if (el == LGPY_I32) {
        if (v < INT32_MIN || v > INT32_MAX) {
            PyErr_Format(PyExc_ValueError,
                         "%s[%zd] = %lld does not fit a vertex id (int32: at most %d)", name, i,
                         (long long)v, INT32_MAX);
            return -1;
        }
        ((int32_t *)out)[i] = (int32_t)v;
    } else if (el == LGPY_I64) {
        ((int64_t *)out)[i] = v;
    } else if (el == LGPY_F32) {
        ((float *)out)[i] = (float)v;
    } else {
        ((double *)out)[i] = (double)v;
    }
    return 0;
}

const char *lgpy_float32_trouble(double v)
{
    return isfinite(v) && fabs(v) > (double)FLT_MAX ? "is too large for float32"
           : v != 0.0 && (float)v == 0.0f           ? "rounds to 0 in float32"
                                                    : NULL;
}

static int store_float(void *out, Py_ssize_t i, lgpy_elem el, double v, const char *name)
{
    if (el == LGPY_F32) {
        const char *why = lgpy_float32_trouble(v);
        if (why) { /* PyErr_Format has no %g */
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

static const char *const elem_name[] = {"int32", "int64", "float32", "float64"};

/* MemoryError for argument `name`'s copy of n elements of type el, which
 * cannot be had: the argument, the length and the size in the message. */
static void no_memory(const char *name, Py_ssize_t n, lgpy_elem el)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double size = (double)n * (double)elem_size[el];
    int u = 0;
    while (size >= 1024.0 && u < 6) {
        size /= 1024.0;
        u++;
    }
    char text[32]; /* PyErr_Format has no %f */
    snprintf(text, sizeof text, u ? "%.1f %s" : "%.0f %s", size, units[u]);
    PyErr_Format(PyExc_MemoryError, "%s: a copy of its %zd elements as %s (%s) cannot be allocated",
                 name, n, elem_name[el], text);
}

/* Bytes a copy of argument `name` (n elements of type el) takes, or -1 with
 * MemoryError set when that does not fit (a broadcast view claims any
 * length). */
static Py_ssize_t array_bytes(const char *name, Py_ssize_t n, lgpy_elem el)
{
    const size_t size = elem_size[el];
    if (n < 0 || (size_t)n > (size_t)PY_SSIZE_T_MAX / size) {
        no_memory(name, n, el);
        return -1;
    }
    return (Py_ssize_t)((size_t)(n ? n : 1) * size);
}

static int from_buffer(PyObject *obj, const char *name, lgpy_elem el, lgpy_array *a)
{
    if (PyObject_GetBuffer(obj, &a->view, PyBUF_RECORDS_RO) < 0) {
        /* the exporter's reason, under the argument's name */
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_BufferError) ||
            PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_Format(PyExc_TypeError, "%s: cannot read the %s object as an array (%S)", name,
                         lgpy_type_name(obj), value ? value : Py_None);
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
    const char kind = lgpy_element_kind(v->format, v->itemsize, &swap);
    if (!kind) {
        PyErr_Format(PyExc_TypeError, "%s: elements of format '%s' are not numbers libgraph reads",
                     name, v->format ? v->format : "B");
        return -1;
    }
    if (kind == 'f' && (el == LGPY_I32 || el == LGPY_I64) && v->shape[0] > 0) {
        /* (an empty one holds no float: numpy's np.array([]), an empty
         * DataFrame's columns) */
        PyErr_Format(PyExc_TypeError,
                     "%s: must hold integers (vertex ids or offsets), not floats: convert them "
                     "(numpy, pandas: .astype(\"int64\")), dropping missing values (NaN) first "
                     "(.dropna())",
                     name);
        return -1;
    }
    const Py_ssize_t n = v->shape[0];
    a->length = n;
    const Py_ssize_t stride = v->strides ? v->strides[0] : v->itemsize;
    const int fits = !swap && (size_t)v->itemsize == elem_size[el] &&
                     (el == LGPY_F32 || el == LGPY_F64 ? kind == 'f' : kind == 'i') &&
                     (n <= 1 || stride == v->itemsize) && ((uintptr_t)v->buf % elem_size[el]) == 0;
    if (fits && !a->private_copy) {
        a->data = v->buf; /* used in place */
        return 0;
    }
    const Py_ssize_t bytes = array_bytes(name, n, el);
    if (bytes < 0)
        return -1;
    a->copy = PyMem_Malloc((size_t)bytes);
    if (!a->copy) {
        no_memory(name, n, el);
        return -1;
    }
    if (fits) { /* a private copy of the library's own layout: one memcpy */
        memcpy(a->copy, v->buf, (size_t)n * elem_size[el]);
        a->data = a->copy;
        return 0;
    }
    const char *p = (const char *)v->buf;
    for (Py_ssize_t i = 0; i < n; i++, p += stride) {
        int rc;
        if (kind == 'f') {
            rc = store_float(a->copy, i, el, load_float(p, v->itemsize, swap), name);
        } else {
            int big;
            int64_t x = load_int(p, kind, v->itemsize, swap, &big);
            if (big && (el == LGPY_I32 || el == LGPY_I64)) {
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

static int from_sequence(PyObject *obj, const char *name, lgpy_elem el, lgpy_array *a)
{
    /* a tuple of the items: it owns them, and an __index__ or __float__
     * that changes the list cannot pull them away */
    PyObject *seq = PySequence_Tuple(obj);
    if (!seq)
        return -1;
    const Py_ssize_t n = PyTuple_Size(seq);
    a->length = n;
    const Py_ssize_t bytes = array_bytes(name, n, el);
    a->copy = bytes < 0 ? NULL : PyMem_Malloc((size_t)bytes);
    if (!a->copy) {
        Py_DECREF(seq);
        if (bytes >= 0)
            no_memory(name, n, el);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GetItem(seq, i); /* borrowed from seq */
        int rc;
        if (el == LGPY_I32 || el == LGPY_I64) {
            if (!PyIndex_Check(item)) {
                PyErr_Format(PyExc_TypeError, "%s[%zd]: expected an integer, got %s", name, i,
                             lgpy_type_name(item));
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
                                 lgpy_type_name(item));
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

/* An object without the buffer protocol that converts itself to an array
 * (__array__: a pandas Series or Index, a pyarrow or torch CPU array, an
 * xarray DataArray): the array it gives, whose buffer is then read as any
 * other (pandas and pyarrow give a view of their data when they can).  NULL
 * with no exception when obj has no __array__, NULL with one when it fails. */
static PyObject *as_array(PyObject *obj)
{
    PyObject *method = PyObject_GetAttrString(obj, "__array__");
    if (!method) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError))
            PyErr_Clear();
        return NULL;
    }
    PyObject *arr = PyObject_CallNoArgs(method);
    Py_DECREF(method);
    if (arr && !PyObject_CheckBuffer(arr)) {
        PyErr_Format(PyExc_TypeError, "%s.__array__() gave %s, which has no buffer protocol",
                     lgpy_type_name(obj), lgpy_type_name(arr));
        Py_CLEAR(arr);
    }
    return arr;
}

int lgpy_array_get(PyObject *obj, const char *name, lgpy_elem el, lgpy_array *a)
{
    int rc;
    PyObject *arr = NULL;
    if (PyObject_CheckBuffer(obj))
        rc = from_buffer(obj, name, el, a);
    else if ((arr = as_array(obj)) != NULL) {
        rc = from_buffer(arr, name, el, a); /* the view holds arr */
        Py_DECREF(arr);
    } else if (PyErr_Occurred())
        rc = -1;
    else if (PySequence_Check(obj) && !PyUnicode_Check(obj))
        rc = from_sequence(obj, name, el, a);
    else {
        PyErr_Format(PyExc_TypeError,
                     "%s: expected an array (an object with the buffer protocol, such as a numpy "
                     "array) or a sequence of numbers, not %s",
                     name, lgpy_type_name(obj));
        rc = -1;
    }
    if (rc < 0)
        lgpy_array_release(a);
    return rc;
}

/* As lgpy_array_get, into a copy of the extension's own whatever the layout:
 * for every array the library checks and then reads again (edges, CSR
 * arrays, weights, BFS sources, PageRank's vectors), so that Python code
 * that runs during the call (another thread, a progress function, a signal
 * handler) cannot turn a checked value into a wild one by writing the
 * caller's array.  Where the layout fits, the copy is one memcpy. */
int lgpy_array_get_private(PyObject *obj, const char *name, lgpy_elem el, lgpy_array *a)
{
    a->private_copy = 1;
    return lgpy_array_get(obj, name, el, a);
}

int lgpy_array_get_optional(PyObject *obj, const char *name, lgpy_elem el, Py_ssize_t expected,
                            lgpy_array *a)
{
    if (!obj || obj == Py_None)
        return 0;
    if (lgpy_array_get(obj, name, el, a) < 0)
        return -1;
    if (expected >= 0 && a->length != expected) {
        PyErr_Format(PyExc_ValueError, "%s: has %zd entries, needs %zd (one per %s)", name,
                     a->length, expected, el == LGPY_F64 ? "vertex" : "edge");
        lgpy_array_release(a);
        return -1;
    }
    return 0;
}
