/*
 * state.c - what every file of the extension reads: the module's state
 * (found through a module or a type), a type's name for messages, text from
 * C strings, and the exception of a failed lg_status_t.
 */
#include "ext.h"

lgpy_state *lgpy_state_of_module(PyObject *module)
{
    return (lgpy_state *)PyModule_GetState(module);
}

/* The module's types cannot be subclassed (no Py_TPFLAGS_BASETYPE), so the
 * module that made an instance's type is the type's own. */
lgpy_state *lgpy_state_of_type(PyTypeObject *type)
{
    PyObject *m = PyType_GetModule(type);
    return m ? lgpy_state_of_module(m) : NULL;
}

const char *lgpy_type_name(PyObject *obj)
{
    static _Thread_local char names[3][128];
    static _Thread_local unsigned turn;
    char *out = names[turn++ % 3];
    PyTypeObject *type = Py_TYPE(obj);
    /* an exception the caller has set stays as it is */
    PyObject *exc_type, *exc_value, *exc_tb;
    PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
    PyObject *qualname = PyType_GetQualName(type);
    PyObject *module = qualname ? PyObject_GetAttrString((PyObject *)type, "__module__") : NULL;
    const char *q = qualname ? PyUnicode_AsUTF8AndSize(qualname, NULL) : NULL;
    const char *m = module && PyUnicode_Check(module) ? PyUnicode_AsUTF8AndSize(module, NULL) : NULL;
    if (!q)
        snprintf(out, sizeof names[0], "object");
    else if (m && strcmp(m, "builtins") != 0 && strcmp(m, "__main__") != 0)
        snprintf(out, sizeof names[0], "%s.%s", m, q);
    else
        snprintf(out, sizeof names[0], "%s", q);
    Py_XDECREF(module);
    Py_XDECREF(qualname);
    PyErr_Clear();
    PyErr_Restore(exc_type, exc_value, exc_tb);
    return out;
}

PyObject *lgpy_text(const char *s)
{
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "backslashreplace");
}

/* ---- errors --------------------------------------------------------------- */

/* Raises type(message); an empty message says the status's name. */
static void set_message(PyObject *type, const char *msg, lg_status_t status)
{
    if (!msg || !*msg)
        msg = lg_status_string(status);
    PyObject *text = lgpy_text(msg);
    if (text) {
        PyErr_SetObject(type, text);
        Py_DECREF(text);
    }
}

PyObject *lgpy_raise_status(lgpy_state *st, lg_status_t status)
{
    PyObject *type;
    switch (status) {
    case LG_ERR_INVALID_ARGUMENT: type = st->InvalidArgumentError; break;
    case LG_ERR_OUT_OF_MEMORY: type = st->OutOfMemoryError; break;
    case LG_ERR_DEVICE: type = st->DeviceError; break;
    case LG_ERR_UNSUPPORTED: type = st->UnsupportedError; break;
    case LG_ERR_IO: type = st->FileFormatError; break;
    case LG_ERR_NOT_CONVERGED: type = st->NotConverged; break;
    case LG_ERR_UNBOUNDED: type = st->Unbounded; break;
    default: type = st->InternalError; break;
    }
    set_message(type, lg_last_error(), status);
    return NULL;
}
