/*
 * buffer.c - the arrays the extension hands out: the Buffer type, and the
 * caller's out= arrays that a result may be written into instead.
 *
 * A Buffer is a one-dimensional array behind the buffer protocol, which the
 * pure-Python package wraps in a numpy array without copying (so the
 * extension needs no numpy).  It either owns its memory, taken (and given
 * back) with PyMem_Malloc while the GIL is held and filled by the library
 * while it is released, or is a read-only view of memory an owner keeps
 * alive (a graph's CSR arrays).
 *
 * An out= array is used in place (so that a loop can reuse its memory) when
 * it is writable, one-dimensional, C-contiguous, aligned, native and exactly
 * the result's element type and length; else TypeError or ValueError.
 */
#include "ext.h"

#include <stdint.h>

typedef struct {
    PyObject_HEAD void *data;
    Py_ssize_t length, itemsize;
    char format[2];
    int readonly;
    PyObject *owner; /* NULL: data is the Buffer's own */
    Py_ssize_t shape, stride;
} BufferObject;

PyObject *lgpy_buffer_new(lgpy_state *st, char format, Py_ssize_t itemsize, Py_ssize_t length,
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
        b->data = PyMem_Malloc((size_t)(length ? length : 1) * (size_t)itemsize);
        b->readonly = 0;
        if (!b->data) {
            b->owner = NULL;
            Py_DECREF((PyObject *)b);
            return PyErr_Format(PyExc_MemoryError,
                                "out of memory for a result of %zd elements of %zd bytes", length,
                                itemsize);
        }
    }
    PyObject_GC_Track(b);
    return (PyObject *)b;
}

void *lgpy_buffer_data(PyObject *b)
{
    return ((BufferObject *)b)->data;
}

static void buffer_dealloc(BufferObject *b)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)b);
    PyObject_GC_UnTrack(b);
    if (b->owner)
        Py_CLEAR(b->owner);
    else
        PyMem_Free(b->data);
    PyObject_GC_Del(b); /* the tp_free of a heap type with Py_TPFLAGS_HAVE_GC */
    Py_DECREF(tp);
}

static int buffer_traverse(BufferObject *b, visitproc visit, void *arg)
{
    Py_VISIT(b->owner);
    Py_VISIT(Py_TYPE((PyObject *)b));
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
    view->obj = Py_NewRef((PyObject *)b);
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

PyType_Spec lgpy_buffer_spec = {"libgraph._libgraph.Buffer", sizeof(BufferObject), 0,
                                Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE |
                                    Py_TPFLAGS_DISALLOW_INSTANTIATION,
                                buffer_slots};

/* ---- out= arrays ---------------------------------------------------------- */

int lgpy_result_get(lgpy_state *st, PyObject *out_o, const char *name, char format, Py_ssize_t n,
                    const char *per, lgpy_result *r)
{
    const Py_ssize_t itemsize = format == 'd' || format == 'q' ? 8 : 4;
    r->obj = NULL;
    r->have_view = 0;
    if (!out_o || out_o == Py_None) {
        r->obj = lgpy_buffer_new(st, format, itemsize, n, NULL, NULL);
        r->data = r->obj ? lgpy_buffer_data(r->obj) : NULL;
        return r->obj ? 0 : -1;
    }
    if (PyObject_GetBuffer(out_o, &r->view, PyBUF_RECORDS) < 0) {
        /* numpy says ValueError for a read-only array, bytes BufferError */
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_BufferError) ||
            PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%s: must be a writable array, not a read-only or "
                         "unreadable %s",
                         name, lgpy_type_name(out_o));
        }
        return -1;
    }
    r->have_view = 1;
    const Py_buffer *v = &r->view;
    int swap;
    const char kind = lgpy_element_kind(v->format, v->itemsize, &swap);
    const char want = format == 'f' || format == 'd' ? 'f' : 'i';
    const char *type = format == 'd'   ? "float64"
                       : format == 'f' ? "float32"
                       : format == 'q' ? "int64"
                                       : "int32";
    if (v->ndim != 1 || kind != want || v->itemsize != itemsize || swap) {
        PyErr_Format(PyExc_TypeError, "%s: must be a one-dimensional %s array (native byte order)",
                     name, type);
    } else if (v->shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "%s: has %zd entries, needs %zd (one per %s)", name,
                     v->shape[0], n, per);
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

void lgpy_result_release(lgpy_result *r)
{
    if (r->have_view)
        PyBuffer_Release(&r->view);
    r->have_view = 0;
}

void lgpy_result_drop(lgpy_result *r)
{
    lgpy_result_release(r);
    Py_CLEAR(r->obj);
}
