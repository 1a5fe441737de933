/*
 * context.c - the Context type: an lg_context_t, where libgraph runs.
 *
 * Context(device='auto', *, num_threads=0) opens one: device 'auto' (a GPU
 * when one answers, used by libgraph.h's rule for LG_BACKEND_AUTO; else the
 * CPU), 'cpu', 'gpu' or 'gpu:N'.  Opening and
 * closing a GPU context may wait on the device, so both run with the GIL
 * released.  Functions take a Context, or None for the CPU
 * (lgpy_context_arg).
 */
#include "ext.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    PyObject_HEAD lg_context_t *ctx;
} ContextObject;

typedef struct {
    const lg_context_options_t *options;
    lg_context_t *ctx;
} create_job;

static lg_status_t create(void *job)
{
    create_job *j = job;
    return lg_context_create(&j->ctx, j->options);
}

static lg_status_t destroy(void *ctx)
{
    lg_context_free((lg_context_t **)ctx);
    return LG_OK;
}

/* num_threads: an integer in [0, LG_MAX_THREADS] (TypeError for a
 * non-integer; InvalidArgumentError, a ValueError, as the library's own
 * check raises, for any integer outside, however large). */
static int threads_arg(lgpy_state *st, PyObject *obj, int *num_threads)
{
    if (!PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "num_threads: expected an integer, not %s",
                     lgpy_type_name(obj));
        return -1;
    }
    PyObject *v = PyNumber_Index(obj);
    if (!v) { /* a numpy array of several values has __index__, and refuses */
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "num_threads: expected an integer, not %s",
                         lgpy_type_name(obj));
        }
        return -1;
    }
    int overflow;
    const long long t = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (t == -1 && PyErr_Occurred()) {
        Py_DECREF(v);
        return -1;
    }
    if (overflow || t < 0 || t > LG_MAX_THREADS) {
        PyErr_Format(st->InvalidArgumentError,
                     "num_threads: %R is outside [0, %d] (0 means OpenMP's default)", v,
                     LG_MAX_THREADS);
        Py_DECREF(v);
        return -1;
    }
    Py_DECREF(v);
    *num_threads = (int)t;
    return 0;
}

static PyObject *context_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"device", "num_threads", NULL};
    PyObject *device_o = NULL, *threads_o = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$O:Context", kw, &device_o, &threads_o))
        return NULL;
    const char *device = "auto";
    if (device_o) {
        if (!PyUnicode_Check(device_o)) {
            PyErr_Format(PyExc_TypeError,
                         "device: expected 'auto', 'cpu', 'gpu' or 'gpu:N', not %s",
                         lgpy_type_name(device_o));
            return NULL;
        }
        Py_ssize_t size;
        device = PyUnicode_AsUTF8AndSize(device_o, &size);
        if (!device || strlen(device) != (size_t)size) { /* a lone surrogate, a NUL */
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "device: %R is not a device name", device_o);
            return NULL;
        }
    }
    lgpy_state *st = lgpy_state_of_type(type);
    if (!st)
        return NULL;
    int num_threads = 0;
    if (threads_o && threads_arg(st, threads_o, &num_threads) < 0)
        return NULL;
    lg_context_options_t o;
    lg_context_options_init(&o);
    lg_status_t parsed = lg_context_options_parse(&o, device); /* the library's one parser */
    if (parsed != LG_OK)
        return lgpy_raise_status(st, parsed);
    o.num_threads = num_threads;
    ContextObject *self = (ContextObject *)PyType_GenericAlloc(type, 0);
    if (!self)
        return NULL;
    create_job job = {.options = &o, .ctx = NULL};
    const int rc = lgpy_call(st, create, &job);
    self->ctx = job.ctx;
    if (rc < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void context_dealloc(ContextObject *self)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)self);
    lg_context_t *ctx = self->ctx;
    self->ctx = NULL;
    /* the object is already unreachable, so nothing else can see it while
     * the GIL is released */
    (void)lgpy_nogil(destroy, &ctx);
    PyObject_Free(self); /* the tp_free of a heap type without Py_TPFLAGS_HAVE_GC */
    Py_DECREF(tp);
}

static PyObject *context_backend(ContextObject *self, void *Py_UNUSED(closure))
{
    lg_backend_t b = LG_BACKEND_CPU;
    (void)lg_context_get_backend(self->ctx, &b);
    return PyUnicode_FromString(b == LG_BACKEND_GPU ? "gpu" : "cpu");
}

static PyObject *context_device(ContextObject *self, void *Py_UNUSED(closure))
{
    const char *d = "";
    (void)lg_context_get_device(self->ctx, &d);
    return lgpy_text(d);
}

static PyObject *context_threads(ContextObject *self, void *Py_UNUSED(closure))
{
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

typedef struct {
    lg_context_t *ctx;
    void *dst;
    const void *src;
    size_t bytes;
} copy_job;

static lg_status_t copy(void *job)
{
    copy_job *j = job;
    return lg_context_copy(j->ctx, j->dst, j->src, j->bytes);
}

/* _copy(dst, src, nbytes): lg_context_copy between addresses given as ints
 * (a GPU array's pointer, a numpy array's ctypes.data), the GIL released. */
static PyObject *context_copy(ContextObject *self, PyObject *args)
{
    unsigned long long dst, src;
    Py_ssize_t bytes;
    if (!PyArg_ParseTuple(args, "KKn:_copy", &dst, &src, &bytes))
        return NULL;
    if (bytes < 0) {
        PyErr_SetString(PyExc_ValueError, "_copy: nbytes < 0");
        return NULL;
    }
    copy_job j = {self->ctx, (void *)(uintptr_t)dst, (const void *)(uintptr_t)src, (size_t)bytes};
    if (lgpy_call(lgpy_state_of_type(Py_TYPE((PyObject *)self)), copy, &j) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef context_methods[] = {
    {"_copy", (PyCFunction)context_copy, METH_VARARGS,
     "_copy(dst, src, nbytes): lg_context_copy between two addresses (ints), one of them, "
     "or both, in the context's GPU memory."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef context_getset[] = {
    {"backend", (getter)context_backend, NULL, "Where the context runs: 'cpu' or 'gpu'.", NULL},
    {"device", (getter)context_device, NULL, "What the context runs on, as one line.", NULL},
    {"num_threads", (getter)context_threads, NULL, "The CPU threads it uses.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot context_slots[] = {
    {Py_tp_doc, "Context(device='auto', *, num_threads=0)\n--\n\n"
                "Where libgraph runs: device 'auto' (a GPU when one answers, a graph moving to it "
                "once its CPU calls have cost about its upload; else the CPU), "
                "'cpu', 'gpu' or 'gpu:N'; num_threads CPU threads (0: OpenMP's default).  "
                "Opening a GPU context that cannot be had raises DeviceError."},
    {Py_tp_new, context_new},
    {Py_tp_dealloc, context_dealloc},
    {Py_tp_repr, context_repr},
    {Py_tp_getset, context_getset},
    {Py_tp_methods, context_methods},
    {0, NULL},
};

PyType_Spec lgpy_context_spec = {"libgraph._libgraph.Context", sizeof(ContextObject), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, context_slots};

int lgpy_context_arg(lgpy_state *st, PyObject *obj, lg_context_t **ctx)
{
    *ctx = NULL;
    if (!obj || obj == Py_None)
        return 0;
    if (!PyObject_TypeCheck(obj, st->context_type)) {
        PyErr_Format(PyExc_TypeError, "context: expected a libgraph Context or None, not %s",
                     lgpy_type_name(obj));
        return -1;
    }
    *ctx = ((ContextObject *)obj)->ctx;
    return 0;
}
