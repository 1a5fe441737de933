/*
 * algorithms.c - every algorithm from Python through its descriptor
 * (libgraph.h, "Algorithms as data"): algorithms() lists the descriptors,
 * run() runs one by name.
 *
 * run converts each parameter by its type (a flag, an integer, a number, a
 * precision's name, one vertex id or an array of them, a per-vertex vector
 * of doubles), makes or takes each result's array by its shape (an out=
 * array written in place, a new Buffer, or with device_outputs a GPU
 * array's address), and calls lg_algorithm_run with the GIL released,
 * watched for Ctrl-C (watch.c).  What a value means is checked once, by the
 * library, whose message the exception carries; this file checks only that
 * a Python object is of the parameter's type.  The cost is the algorithm's,
 * plus O(1) a parameter, or one pass over an array argument that must be
 * converted (copied: the library checks an array and then reads it again,
 * docs/decisions/python-input-copies.md).  A call that stops with results
 * (LG_ERR_NOT_CONVERGED) raises NotConverged with each result as an
 * attribute of its name.
 */
#include "ext.h"

#include <stdint.h>

/* The most parameters and results a descriptor has; one with more is
 * refused, so that a call needs no allocation for them. */
enum {
    MAX_PARAMS = 24,
    MAX_RESULTS = 12
};

/* ---- algorithms(): the descriptors as Python values ------------------------------- */

static const char *type_name(lg_type_t t)
{
    static const char *const names[] = {
        [LG_TYPE_BOOL] = "bool",         [LG_TYPE_INT] = "int",
        [LG_TYPE_DOUBLE] = "double",     [LG_TYPE_PRECISION] = "precision",
        [LG_TYPE_VERTICES] = "vertices", [LG_TYPE_VERTEX_DOUBLES] = "vertex_doubles",
        [LG_TYPE_INT32] = "int32",       [LG_TYPE_REAL] = "real",
        [LG_TYPE_FLOAT64] = "float64",   [LG_TYPE_FLOAT32] = "float32",
        [LG_TYPE_INT64] = "int64",
    };
    return (unsigned)t < sizeof names / sizeof names[0] && names[t] ? names[t] : "?";
}

/* A parameter's default as Python has it: a bool, int, float, a
 * precision's name, or None (no vector; a required parameter). */
static PyObject *default_of(const lg_param_info_t *p)
{
    if (p->required)
        Py_RETURN_NONE;
    switch (p->type) {
    case LG_TYPE_BOOL: return PyBool_FromLong((long)p->default_value.i);
    case LG_TYPE_INT: return PyLong_FromLongLong(p->default_value.i);
    case LG_TYPE_DOUBLE: return PyFloat_FromDouble(p->default_value.d);
    case LG_TYPE_PRECISION: return PyUnicode_FromString(p->choices[p->default_value.i]);
    default: Py_RETURN_NONE;
    }
}

static PyObject *choices_of(const lg_param_info_t *p)
{
    if (!p->choices)
        Py_RETURN_NONE;
    Py_ssize_t k = 0;
    while (p->choices[k])
        k++;
    PyObject *t = PyTuple_New(k);
    for (Py_ssize_t i = 0; t && i < k; i++) {
        PyObject *s = PyUnicode_FromString(p->choices[i]);
        if (!s || PyTuple_SetItem(t, i, s) < 0)
            Py_CLEAR(t);
    }
    return t;
}

static PyObject *param_dict(const lg_param_info_t *p)
{
    PyObject *def = default_of(p), *choices = def ? choices_of(p) : NULL;
    PyObject *d =
        choices ? Py_BuildValue("{s:s,s:s,s:O,s:O,s:O,s:s}", "name", p->name, "type",
                                type_name(p->type), "required", p->required ? Py_True : Py_False,
                                "default", def, "choices", choices, "help", p->help)
                : NULL;
    Py_XDECREF(def);
    Py_XDECREF(choices);
    return d;
}

/* Whether a result is an array: one element a vertex, or one an arc. */
static bool is_array(const lg_result_info_t *r)
{
    return r->per_vertex || r->per_arc;
}

static PyObject *result_dict(const lg_result_info_t *r)
{
    return Py_BuildValue("{s:s,s:s,s:O,s:O,s:z,s:s}", "name", r->name, "type", type_name(r->type),
                         "per_vertex", r->per_vertex ? Py_True : Py_False, "per_arc",
                         r->per_arc ? Py_True : Py_False, "when", r->when, "help", r->help);
}

/* A tuple of count dicts made by each(&items[i]). */
#define TUPLE_OF(count, items, each)                                                               \
    do {                                                                                           \
        t = PyTuple_New(count);                                                                    \
        for (int i_ = 0; t && i_ < (count); i_++) {                                                \
            PyObject *x_ = each(&(items)[i_]);                                                     \
            if (!x_ || PyTuple_SetItem(t, i_, x_) < 0)                                             \
                Py_CLEAR(t);                                                                       \
        }                                                                                          \
    } while (0)

static PyObject *algorithm_dict(const lg_algorithm_info_t *a)
{
    PyObject *t, *params, *results;
    TUPLE_OF(a->num_params, a->params, param_dict);
    params = t;
    TUPLE_OF(a->num_results, a->results, result_dict);
    results = t;
    PyObject *d = params && results
                      ? Py_BuildValue("{s:s,s:s,s:s,s:s,s:O,s:O,s:O}", "name", a->name, "title",
                                      a->title, "summary", a->summary, "function", a->function,
                                      "uses_weights", a->uses_weights ? Py_True : Py_False,
                                      "params", params, "results", results)
                      : NULL;
    Py_XDECREF(params);
    Py_XDECREF(results);
    return d;
}

static PyObject *mod_algorithms(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    const int count = lg_algorithm_count();
    PyObject *t = PyTuple_New(count);
    for (int i = 0; t && i < count; i++) {
        PyObject *d = algorithm_dict(lg_algorithm_at(i));
        if (!d || PyTuple_SetItem(t, i, d) < 0)
            Py_CLEAR(t);
    }
    return t;
}

/* ---- run(): parameters in ------------------------------------------------------------ */

typedef struct {
    lgpy_on_graph on;
    const lg_algorithm_info_t *alg;
    lg_value_t params[MAX_PARAMS];
    void *results[MAX_RESULTS];
    lg_shape_t shapes[MAX_RESULTS];
    lg_run_options_t options;
    lg_vertex_t one[MAX_PARAMS]; /* a VERTICES parameter given as one id */
    union {
        int64_t i;
        double d;
        bool b;
    } scalars[MAX_RESULTS]; /* the one-value results */
} run_job;

static lg_status_t run(void *job)
{
    run_job *j = job;
    return lg_algorithm_run(j->on.ctx, j->on.g, j->alg, j->params, j->results, &j->options);
}

/* A flag: any object's truth, as Python and NetworkX read flags. */
static int bool_arg(PyObject *obj, const char *name, lg_value_t *v)
{
    const int t = PyObject_IsTrue(obj);
    if (t < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected True or False, not %s", name,
                     lgpy_type_name(obj));
        return -1;
    }
    v->i = t;
    return 0;
}

/* An integer (anything with __index__; not a float), within int64: the
 * library checks the range its option has. */
static int int_arg(PyObject *obj, const char *name, lg_value_t *v)
{
    PyObject *i = PyNumber_Index(obj);
    if (!i) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected an integer, not %s", name, lgpy_type_name(obj));
        return -1;
    }
    int overflow = 0;
    v->i = PyLong_AsLongLongAndOverflow(i, &overflow);
    if (overflow)
        PyErr_Format(PyExc_ValueError, "%s: %R is out of range [%d, %d]", name, i, INT32_MIN,
                     INT32_MAX);
    Py_DECREF(i);
    return overflow || (v->i == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* Whether obj is a numbers.Real (a float, an int, a bool, numpy's scalars):
 * 1, 0, or -1 with an exception set. */
static int is_real(PyObject *obj)
{
    if (PyFloat_Check(obj) || PyLong_Check(obj))
        return 1;
    PyObject *numbers = PyImport_ImportModule("numbers");
    PyObject *real = numbers ? PyObject_GetAttrString(numbers, "Real") : NULL;
    const int is = real ? PyObject_IsInstance(obj, real) : -1;
    Py_XDECREF(real);
    Py_XDECREF(numbers);
    return is;
}

/* A real number (numbers.Real: not a string, a complex or an array). */
static int double_arg(PyObject *obj, const char *name, lg_value_t *v)
{
    const int is = is_real(obj);
    if (is <= 0) {
        if (is == 0)
            PyErr_Format(PyExc_TypeError, "%s: expected a number, not %s", name,
                         lgpy_type_name(obj));
        return -1;
    }
    v->d = PyFloat_AsDouble(obj);
    if (v->d == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s: %R is too large for a float", name, obj);
        }
        return -1;
    }
    return 0;
}

/* One of the parameter's choices, by name. */
static int choice_arg(PyObject *obj, const lg_param_info_t *p, lg_value_t *v)
{
    const char *s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8AndSize(obj, NULL) : NULL;
    for (int64_t k = 0; s && p->choices[k]; k++)
        if (!strcmp(s, p->choices[k])) {
            v->i = k;
            return 0;
        }
    if (PyErr_Occurred())
        return -1;
    PyErr_Format(PyExc_ValueError, "%s: must be '%s' or '%s', not %R", p->name, p->choices[0],
                 p->choices[1], obj);
    return -1;
}

/* Vertices: one vertex id (an int, a numpy integer: into *one) or an array
 * of them, copied into *copy.  A numpy array claims __index__ too, but only
 * a scalar one answers it. */
static int vertices_arg(PyObject *obj, const char *name, Py_ssize_t n, lg_vertex_t *one,
                        lgpy_array *copy, lg_value_t *v)
{
    if (PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a vertex id, not a bool", name);
        return -1;
    }
    if (PyIndex_Check(obj)) {
        Py_ssize_t x = PyNumber_AsSsize_t(obj, NULL); /* clamps to Py_ssize_t */
        if (x == -1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError) ||
                !(PyObject_CheckBuffer(obj) || PySequence_Check(obj)))
                return -1;
            PyErr_Clear();
        } else {
            if (x < INT32_MIN || x > INT32_MAX) {
                PyErr_Format(PyExc_ValueError,
                             "%s: %zd is not a vertex of a graph with %zd vertices", name, x, n);
                return -1;
            }
            *one = (lg_vertex_t)x;
            *v = (lg_value_t){.array = one, .length = 1};
            return 0;
        }
    }
    if (lgpy_array_get_private(obj, name, LGPY_I32, copy) < 0)
        return -1;
    *v = (lg_value_t){.array = copy->data, .length = copy->length};
    return 0;
}

/* params[k] from obj, the value given for parameter k. */
static int param_arg(run_job *j, int k, PyObject *obj, lgpy_array *copy)
{
    const lg_param_info_t *p = &j->alg->params[k];
    lg_value_t *v = &j->params[k];
    switch (p->type) {
    case LG_TYPE_BOOL: return bool_arg(obj, p->name, v);
    case LG_TYPE_INT: return int_arg(obj, p->name, v);
    case LG_TYPE_DOUBLE: return double_arg(obj, p->name, v);
    case LG_TYPE_PRECISION: return choice_arg(obj, p, v);
    case LG_TYPE_VERTICES: return vertices_arg(obj, p->name, j->on.n, &j->one[k], copy, v);
    case LG_TYPE_VERTEX_DOUBLES:
        if (obj == Py_None) {
            *v = (lg_value_t){0};
            return 0;
        }
        copy->private_copy = 1;
        if (lgpy_array_get(obj, p->name, LGPY_F64, copy) < 0)
            return -1;
        *v = (lg_value_t){.array = copy->data, .length = copy->length};
        return 0;
    default:
        PyErr_Format(PyExc_SystemError, "%s: parameter %s has a type this module does not know",
                     j->alg->name, p->name);
        return -1;
    }
}

/* The names of alg's parameters, for a message: "a, b, c". */
static void param_names(const lg_algorithm_info_t *alg, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < alg->num_params && used < size; k++) {
        int w = snprintf(buf + used, size - used, "%s%s", k ? ", " : "", alg->params[k].name);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* j->params from the dict params_o (name: value; a name left out takes its
 * default), copies[k] holding what parameter k's array became. */
static int params_from(run_job *j, PyObject *params_o, lgpy_array *copies)
{
    const lg_algorithm_info_t *a = j->alg;
    bool given[MAX_PARAMS] = {false};
    if (lg_algorithm_defaults(a, j->params) != LG_OK)
        return lgpy_raise_status(j->on.st, LG_ERR_INTERNAL), -1;
    if (params_o != Py_None) {
        if (!PyDict_Check(params_o)) {
            PyErr_Format(PyExc_TypeError, "%s: params must be a dict, not %s", a->name,
                         lgpy_type_name(params_o));
            return -1;
        }
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(params_o, &pos, &key, &value)) {
            const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8AndSize(key, NULL) : NULL;
            const int k = name ? lg_algorithm_index(a, name, false) : -1;
            if (k < 0) {
                char names[512];
                param_names(a, names, sizeof names);
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_TypeError, "%s: no parameter is named %R (it has %s)",
                                 a->name, key, names[0] ? names : "none");
                return -1;
            }
            if (param_arg(j, k, value, &copies[k]) < 0)
                return -1;
            given[k] = true;
        }
    }
    for (int k = 0; k < a->num_params; k++)
        if (a->params[k].required && !given[k]) {
            PyErr_Format(PyExc_TypeError, "%s: the parameter '%s' is required", a->name,
                         a->params[k].name);
            return -1;
        }
    return 0;
}

/* ---- run(): results out -------------------------------------------------------------- */

/* With device_outputs, an out array is the address of a GPU array (the
 * Python layer checked its length and type): *p gets it.  0, or -1 with
 * TypeError set. */
static int device_address(PyObject *obj, const char *name, void **p)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s out: with device_outputs, expected an address, not %s",
                     name, lgpy_type_name(obj));
        return -1;
    }
    *p = PyLong_AsVoidPtr(obj);
    return *p || !PyErr_Occurred() ? 0 : -1;
}

static char buffer_format(lg_type_t t)
{
    return t == LG_TYPE_FLOAT64 ? 'd' : t == LG_TYPE_FLOAT32 ? 'f' : t == LG_TYPE_INT64 ? 'q' : 'i';
}

/* j->results: per-vertex results into outs_o's arrays (result name: array)
 * or new Buffers (bufs[k]); one-value results into j->scalars. */
static int results_from(run_job *j, PyObject *outs_o, bool on_device, lgpy_result *bufs)
{
    const lg_algorithm_info_t *a = j->alg;
    if (outs_o != Py_None && !PyDict_Check(outs_o)) {
        PyErr_Format(PyExc_TypeError, "%s: outs must be a dict, not %s", a->name,
                     lgpy_type_name(outs_o));
        return -1;
    }
    if (lg_algorithm_shapes(a, j->on.g, j->params, j->shapes) != LG_OK)
        return lgpy_raise_status(j->on.st, LG_ERR_INTERNAL), -1;
    char label[96] = "";
    for (int k = 0; k < a->num_results; k++) {
        const lg_result_info_t *r = &a->results[k];
        PyObject *out = outs_o == Py_None ? NULL : PyDict_GetItemString(outs_o, r->name);
        j->results[k] = NULL;
        if (!j->shapes[k].made)
            continue;
        if (!is_array(r)) {
            j->results[k] = &j->scalars[k];
            continue;
        }
        if (out && out != Py_None) /* a name for its messages */
            snprintf(label, sizeof label, "%s out", r->name);
        if (on_device
                ? device_address(out ? out : Py_None, r->name, &j->results[k]) < 0
                : lgpy_result_get(j->on.st, out, label, buffer_format(j->shapes[k].type),
                                  j->shapes[k].length, r->per_arc ? "arc" : "vertex", &bufs[k]) < 0)
            return -1;
        if (!on_device)
            j->results[k] = bufs[k].data;
    }
    return 0;
}

/* Result k as Python has it: its array (None on the device or when not
 * made), or its one value. */
static PyObject *result_object(const run_job *j, int k, const lgpy_result *bufs)
{
    if (!j->shapes[k].made || (is_array(&j->alg->results[k]) && !bufs[k].obj))
        Py_RETURN_NONE;
    if (is_array(&j->alg->results[k]))
        return Py_NewRef(bufs[k].obj);
    switch (j->shapes[k].type) {
    case LG_TYPE_BOOL: return PyBool_FromLong(j->scalars[k].b);
    case LG_TYPE_DOUBLE: return PyFloat_FromDouble(j->scalars[k].d);
    default: return PyLong_FromLongLong(j->scalars[k].i);
    }
}

static PyObject *results_tuple(const run_job *j, const lgpy_result *bufs)
{
    PyObject *t = PyTuple_New(j->alg->num_results);
    for (int k = 0; t && k < j->alg->num_results; k++) {
        PyObject *x = result_object(j, k, bufs);
        if (!x || PyTuple_SetItem(t, k, x) < 0)
            Py_CLEAR(t);
    }
    return t;
}

/* Raises NotConverged(message) with each result as an attribute of its name
 * (PageRank's .scores, .iterations, .residual, .converged). */
static void raise_not_converged(const run_job *j, const lgpy_result *bufs)
{
    PyObject *exc = PyObject_CallFunction(j->on.st->NotConverged, "s", lg_last_error());
    for (int k = 0; exc && k < j->alg->num_results; k++) {
        PyObject *x = result_object(j, k, bufs);
        if (!x || PyObject_SetAttrString(exc, j->alg->results[k].name, x) < 0)
            Py_CLEAR(exc);
        Py_XDECREF(x);
    }
    if (exc)
        PyErr_SetObject(j->on.st->NotConverged, exc);
    Py_XDECREF(exc);
}

/* The descriptor of the algorithm named by name_o.  The last one found is
 * remembered: a loop of calls of one algorithm compares one string. */
static const lg_algorithm_info_t *algorithm_arg(lgpy_state *st, PyObject *name_o)
{
    static _Thread_local const lg_algorithm_info_t *last;
    const char *name = PyUnicode_Check(name_o) ? PyUnicode_AsUTF8AndSize(name_o, NULL) : NULL;
    if (!name) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "algorithm: expected a name (str), not %s",
                         lgpy_type_name(name_o));
        return NULL;
    }
    if (last && !strcmp(last->name, name))
        return last;
    const lg_algorithm_info_t *a = lg_algorithm_find(name);
    if (!a)
        return lgpy_raise_status(st, LG_ERR_INVALID_ARGUMENT), NULL;
    if (a->num_params > MAX_PARAMS || a->num_results > MAX_RESULTS) {
        PyErr_Format(PyExc_SystemError, "%s has more parameters or results than this module holds",
                     name);
        return NULL;
    }
    return last = a;
}

static PyObject *mod_run(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"algorithm", "graph", "params", "context", "outs", "device_outputs", NULL};
    PyObject *name_o, *graph_o, *params_o = Py_None, *ctx_o = Py_None, *outs_o = Py_None;
    int on_device = 0;
    run_job j;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O$OOp:run", kw, &name_o, &graph_o, &params_o,
                                     &ctx_o, &outs_o, &on_device) ||
        lgpy_on_graph_args(module, graph_o, ctx_o, &j.on) < 0 ||
        !(j.alg = algorithm_arg(j.on.st, name_o)))
        return NULL;
    lgpy_array copies[MAX_PARAMS];
    lgpy_result bufs[MAX_RESULTS];
    for (int k = 0; k < MAX_PARAMS; k++)
        copies[k] = (lgpy_array)LGPY_ARRAY_INIT;
    for (int k = 0; k < MAX_RESULTS; k++)
        bufs[k] = (lgpy_result)LGPY_RESULT_INIT;
    PyObject *result = NULL;
    if (params_from(&j, params_o, copies) < 0 || results_from(&j, outs_o, on_device, bufs) < 0)
        goto done;
    lg_run_options_init(&j.options);
    j.options.output_memory = on_device ? LG_MEMORY_DEVICE : LG_MEMORY_HOST;
    lgpy_watch w;
    lgpy_watch_init(&w, j.on.st, false);
    LGPY_WATCH(&j.options, &w);
    const lg_status_t s = lgpy_nogil_watched(run, &j, &w);
    for (int k = 0; k < j.alg->num_results; k++)
        lgpy_result_release(&bufs[k]);
    if (w.failed && PyErr_Occurred())
        ; /* KeyboardInterrupt, or a refused re-entry: raised as it is */
    else if (s == LG_OK)
        result = results_tuple(&j, bufs);
    else if (s == LG_ERR_NOT_CONVERGED)
        raise_not_converged(&j, bufs);
    else
        lgpy_raise_status(j.on.st, s);
done:
    for (int k = 0; k < j.alg->num_params; k++)
        lgpy_array_release(&copies[k]);
    for (int k = 0; k < j.alg->num_results; k++)
        lgpy_result_drop(&bufs[k]);
    return result;
}

PyMethodDef lgpy_algorithm_methods[] = {
    {"algorithms", mod_algorithms, METH_NOARGS,
     "algorithms() -> tuple of dicts\n\nThe library's algorithm descriptors: name, title, "
     "summary, function, uses_weights, params (name, type, required, default, choices, help) "
     "and results (name, type, per_vertex, per_arc, when, help)."},
    {"run", (PyCFunction)(void (*)(void))mod_run, METH_VARARGS | METH_KEYWORDS,
     "run(algorithm, graph, params=None, *, context=None, outs=None, device_outputs=False) -> "
     "tuple\n\nRuns the algorithm of that name with params (a dict of parameter values; the "
     "rest take their defaults).  Returns its results in the descriptor's order: a Buffer "
     "(or the outs array of its name) for a per-vertex or per-arc result, an int, float or bool "
     "for one "
     "value, None for one not asked for.  With device_outputs, outs gives the address of a "
     "GPU array for every per-vertex result, and those come back None.  Raises NotConverged, "
     "with each result as an attribute, when an iteration runs out."},
    {NULL, NULL, 0, NULL},
};
