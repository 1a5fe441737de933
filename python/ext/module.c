/*
 * module.c - the module libgraph._libgraph: its definition and multi-phase
 * init, its state's contents and its exception types (state.c reads them),
 * and the functions about the library itself.
 *
 * Init (Py_mod_exec) makes the heap types Buffer, Context and Graph and the
 * exception types in the module's state, so several interpreters each get
 * their own; each function finds the state through its module or its type.
 *
 * Every library call that may take time goes through lgpy_call (watch.c):
 * it releases the GIL around the call, which touches no Python object, and
 * maps a failed lg_status_t to the exception type users catch (state.c),
 * with lg_last_error() as the message (the O(1) getters are called
 * directly).  The exception types are libgraph.Error subclasses that are
 * also the matching builtins (InvalidArgumentError is a ValueError, ...).
 *
 * Documentation for users: docs/PYTHON.md.
 */
#include "ext.h"

/* ---- functions about the library itself ----------------------------------- */

static PyObject *mod_last_backend(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(unused))
{
    switch (lg_last_backend()) {
    case LG_BACKEND_CPU: return PyUnicode_FromString("cpu");
    case LG_BACKEND_GPU: return PyUnicode_FromString("gpu");
    default: Py_RETURN_NONE;
    }
}

static PyObject *mod_last_backend_reason(PyObject *Py_UNUSED(module),
                                         PyObject *Py_UNUSED(unused))
{
    return lgpy_text(lg_last_backend_reason());
}

static lg_status_t build_info(void *info)
{
    *(const char **)info = lg_build_info(); /* may look for the GPU plugin */
    return LG_OK;
}

static PyObject *mod_build_info(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(unused))
{
    const char *info = "";
    (void)lgpy_nogil(build_info, &info);
    return lgpy_text(info);
}

/* The C library's test hook (src/graph/internal.h): after n more successful
 * allocations every allocation of the library fails; n < 0 stops that.
 * Returns the allocations made since the last call. */
long lg__alloc_fail_after(long n);

static PyObject *mod_fail_allocations_after(PyObject *Py_UNUSED(module), PyObject *arg)
{
    const long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromLong(lg__alloc_fail_after(n));
}

static PyMethodDef library_methods[] = {
    {"last_backend", mod_last_backend, METH_NOARGS,
     "last_backend() -> 'cpu', 'gpu' or None: where this thread's last algorithm call ran."},
    {"last_backend_reason", mod_last_backend_reason, METH_NOARGS,
     "last_backend_reason() -> str: why, when an 'auto' context chose ('' otherwise)."},
    {"build_info", mod_build_info, METH_NOARGS,
     "build_info() -> str: how the C library was built and which GPU plugin it finds."},
    {"_fail_allocations_after", mod_fail_allocations_after, METH_O,
     "_fail_allocations_after(n) -> int: testing only: the C library's allocations fail after "
     "n more succeed (n < 0: never); returns the allocations made since the last call."},
    {NULL, NULL, 0, NULL},
};

/* ---- init ----------------------------------------------------------------- */

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

/* An exception type that is both a libgraph.Error and the builtin. */
static int add_exception2(PyObject *m, lgpy_state *st, PyObject **slot, const char *name,
                          PyObject *builtin, const char *doc)
{
    PyObject *bases = PyTuple_Pack(2, st->Error, builtin);
    if (!bases)
        return -1;
    int rc = add_exception(m, slot, name, bases, doc);
    Py_DECREF(bases);
    return rc;
}

static int add_type(PyObject *m, PyTypeObject **slot, PyType_Spec *spec)
{
    *slot = (PyTypeObject *)PyType_FromModuleAndSpec(m, spec, NULL);
    return *slot ? PyModule_AddType(m, *slot) : -1;
}

static int add_exceptions(PyObject *m, lgpy_state *st)
{
    if (add_exception(m, &st->Error, "Error", NULL, "The base of libgraph's errors.") < 0 ||
        add_exception2(m, st, &st->InvalidArgumentError, "InvalidArgumentError", PyExc_ValueError,
                       "An argument the library rejects (LG_ERR_INVALID_ARGUMENT).") < 0 ||
        add_exception2(m, st, &st->OutOfMemoryError, "OutOfMemoryError", PyExc_MemoryError,
                       "Host or device memory ran out (LG_ERR_OUT_OF_MEMORY).") < 0 ||
        add_exception2(m, st, &st->DeviceError, "DeviceError", PyExc_RuntimeError,
                       "The GPU runtime failed or is absent (LG_ERR_DEVICE).") < 0 ||
        add_exception2(m, st, &st->UnsupportedError, "UnsupportedError", PyExc_NotImplementedError,
                       "Valid, but not supported by this build or device "
                       "(LG_ERR_UNSUPPORTED).") < 0 ||
        add_exception2(m, st, &st->FileFormatError, "FileFormatError", PyExc_OSError,
                       "A file could not be read, written or parsed (LG_ERR_IO).") < 0 ||
        add_exception2(m, st, &st->NotConverged, "NotConverged", PyExc_RuntimeError,
                       "An iteration hit its limit (LG_ERR_NOT_CONVERGED); .scores holds the "
                       "last iterate, .iterations the iterations run and .residual the last "
                       "L1 change.") < 0 ||
        add_exception2(m, st, &st->Unbounded, "Unbounded", PyExc_ArithmeticError,
                       "A negative cycle: shortest paths have no minimum (LG_ERR_UNBOUNDED); "
                       "the message names a vertex on the cycle.") < 0 ||
        add_exception2(m, st, &st->InternalError, "InternalError", PyExc_RuntimeError,
                       "A bug in libgraph (LG_ERR_INTERNAL); please report it.") < 0)
        return -1;
    return 0;
}

static int module_exec(PyObject *m)
{
    lgpy_state *st = lgpy_state_of_module(m);
    if (PyModule_AddFunctions(m, lgpy_builder_methods) < 0 ||
        PyModule_AddFunctions(m, lgpy_algorithm_methods) < 0 ||
        PyModule_AddFunctions(m, lgpy_networkx_methods) < 0 ||
        PyModule_AddFunctions(m, lgpy_nx_backend_methods) < 0 ||
        PyModule_AddFunctions(m, lgpy_nx_paths_methods) < 0 ||
        PyModule_AddFunctions(m, lgpy_nx_bidirectional_methods) < 0 ||
        PyModule_AddFunctions(m, lgpy_nx_scc_methods) < 0 ||
        PyModule_AddFunctions(m, lgpy_nx_bellman_ford_methods) < 0 ||
        PyModule_AddFunctions(m, lgpy_watch_methods) < 0 ||
        PyModule_AddFunctions(m, library_methods) < 0)
        return -1;
    if (add_type(m, &st->buffer_type, &lgpy_buffer_spec) < 0 ||
        add_type(m, &st->context_type, &lgpy_context_spec) < 0 ||
        add_type(m, &st->graph_type, &lgpy_graph_spec) < 0 || add_exceptions(m, st) < 0)
        return -1;
    if (PyModule_AddStringConstant(m, "__version__", lg_version_string()) < 0 ||
        PyModule_AddIntConstant(m, "MAX_VERTICES", (long)LG_MAX_VERTICES) < 0)
        return -1;
    return 0;
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
    lgpy_state *st = lgpy_state_of_module(m);
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
    Py_VISIT(st->Unbounded);
    Py_VISIT(st->InternalError);
    Py_VISIT(st->progress);
    return 0;
}

static int module_clear(PyObject *m)
{
    lgpy_state *st = lgpy_state_of_module(m);
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
    Py_CLEAR(st->Unbounded);
    Py_CLEAR(st->InternalError);
    Py_CLEAR(st->progress);
    return 0;
}

static void module_free(void *m)
{
    module_clear((PyObject *)m);
}

/* Each interpreter has its own module state and types, so the module may
 * be imported by interpreters with a GIL of their own (CPython 3.12+).
 * Built against 3.11's limited API, the slot that says so is not in the
 * headers: its stable numbers (Py_mod_multiple_interpreters = 3,
 * Py_MOD_PER_INTERPRETER_GIL_SUPPORTED = 2) are given where the running
 * CPython knows them (3.11 refuses a slot it does not know). */
#ifndef Py_mod_multiple_interpreters
#define Py_mod_multiple_interpreters 3
#define Py_MOD_PER_INTERPRETER_GIL_SUPPORTED ((void *)2)
#endif

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
    {0, NULL},
};

static PyModuleDef_Slot module_slots_311[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static const char module_doc[] =
    "libgraph's C extension: graphs, BFS, PageRank and connected components over the C "
    "library.  Use the libgraph package; see docs/PYTHON.md.";

/* The functions are added by module_exec, from the tables of the files that
 * define them.  Two definitions: with the slots above (CPython 3.12 and
 * later), and without the interpreters' one (3.11). */
static struct PyModuleDef libgraph_module = {
    PyModuleDef_HEAD_INIT, "libgraph._libgraph", module_doc, sizeof(lgpy_state), NULL,
    module_slots,          module_traverse,      module_clear, module_free,
};
static struct PyModuleDef libgraph_module_311 = {
    PyModuleDef_HEAD_INIT, "libgraph._libgraph", module_doc, sizeof(lgpy_state), NULL,
    module_slots_311,      module_traverse,      module_clear, module_free,
};

PyMODINIT_FUNC PyInit__libgraph(void); /* the one exported symbol */
PyMODINIT_FUNC PyInit__libgraph(void)
{
    /* Py_Version: the running CPython's version (its headers' may be older) */
    return PyModuleDef_Init(Py_Version >= 0x030C0000 ? &libgraph_module : &libgraph_module_311);
}
