/*
 * algorithms.c - the module functions that run the algorithms: bfs, pagerank
 * and connected_components.
 *
 * Each takes a Graph, an optional Context and an optional out= array per
 * result (one element per vertex; buffer.c), reads its other array arguments
 * (arrays.c), and calls the library with the GIL released; the cost is the
 * algorithm's own (BFS and connected components O(n + m), PageRank
 * O(n + m) per iteration), the extension adds O(1) or, for an argument that
 * must be converted, one pass over it.  Results come back as the out= arrays
 * or new Buffers; a failed call raises the exception of its status, and
 * PageRank's NotConverged carries the last iterate.  Every call is watched
 * (watch.c): Ctrl-C stops it between two steps with KeyboardInterrupt.
 */
#include "ext.h"

#include <stdint.h>

/* With device_outputs, an out= argument is the address of a GPU array
 * (the Python layer checked its length and type): *p gets it.  0, or -1
 * with TypeError set. */
static int device_address(PyObject *obj, const char *name, void **p)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: with device_outputs, expected an address, not %s",
                     name, lgpy_type_name(obj));
        return -1;
    }
    *p = PyLong_AsVoidPtr(obj);
    return *p || !PyErr_Occurred() ? 0 : -1;
}

/* ---- BFS ------------------------------------------------------------------ */

typedef struct {
    lgpy_on_graph on;
    lg_bfs_options_t options;
    lg_vertex_t one; /* the source, when one id is given */
    const lg_vertex_t *sources;
    int64_t num_sources;
    int32_t *distances;
    lg_vertex_t *parents; /* NULL: not asked for */
} bfs_job;

static lg_status_t bfs(void *job)
{
    bfs_job *j = job;
    return lg_bfs_multi(j->on.ctx, j->on.g, j->sources, j->num_sources, &j->options, j->distances,
                        j->parents);
}

/* bfs's source: one vertex id (an int, a numpy integer) or an array of them,
 * copied into *copy (the library checks the ids and then reads them again).
 * A numpy array claims __index__ too, but only a scalar one answers it.
 * 0, or -1 with an exception set. */
static int source_arg(PyObject *obj, bfs_job *j, lgpy_array *copy)
{
    if (PyBool_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "source: expected a vertex id, not a bool");
        return -1;
    }
    if (PyIndex_Check(obj)) {
        Py_ssize_t v = PyNumber_AsSsize_t(obj, NULL); /* clamps to Py_ssize_t */
        if (v == -1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError) ||
                !(PyObject_CheckBuffer(obj) || PySequence_Check(obj)))
                return -1;
            PyErr_Clear();
        } else {
            if (v < INT32_MIN || v > INT32_MAX) {
                PyErr_Format(PyExc_ValueError,
                             "source: %zd is not a vertex of a graph with %lld vertices", v,
                             (long long)j->on.n);
                return -1;
            }
            j->one = (lg_vertex_t)v;
            j->sources = &j->one;
            j->num_sources = 1;
            return 0;
        }
    }
    if (lgpy_array_get_private(obj, "source", LGPY_I32, copy) < 0)
        return -1;
    j->sources = copy->data;
    j->num_sources = copy->length;
    return 0;
}

static PyObject *mod_bfs(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"graph",       "source",         "parents", "max_depth",
                         "direction_alpha", "direction_beta", "context", "out",
                         "parents_out", "device_outputs", NULL};
    PyObject *graph_o, *src_o, *ctx_o = Py_None, *out_o = Py_None, *pout_o = Py_None;
    int parents = 0, max_depth = -1, on_device = 0;
    bfs_job j;
    lg_bfs_options_t *o = &j.options;
    lg_bfs_options_init(o);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|$piiiOOOp:bfs", kw, &graph_o, &src_o,
                                     &parents, &max_depth, &o->direction_alpha, &o->direction_beta,
                                     &ctx_o, &out_o, &pout_o, &on_device) ||
        lgpy_on_graph_args(module, graph_o, ctx_o, &j.on) < 0)
        return NULL;
    o->compute_parents = parents != 0;
    o->max_depth = max_depth;
    o->output_memory = on_device ? LG_MEMORY_DEVICE : LG_MEMORY_HOST;
    lgpy_array sources = LGPY_ARRAY_INIT;
    lgpy_result dist = LGPY_RESULT_INIT, par = LGPY_RESULT_INIT;
    PyObject *result = NULL;
    void *dev_dist = NULL, *dev_par = NULL;
    if (source_arg(src_o, &j, &sources) < 0)
        goto done;
    if (on_device ? device_address(out_o, "out", &dev_dist) < 0 ||
                        (parents && device_address(pout_o, "parents_out", &dev_par) < 0)
                  : lgpy_result_get(j.on.st, out_o, "out", 'i', j.on.n, &dist) < 0 ||
                        (parents &&
                         lgpy_result_get(j.on.st, pout_o, "parents_out", 'i', j.on.n, &par) < 0))
        goto done;
    j.distances = on_device ? dev_dist : dist.data;
    j.parents = !parents ? NULL : on_device ? dev_par : par.data;
    lgpy_watch w;
    lgpy_watch_init(&w, j.on.st, false);
    LGPY_WATCH(o, &w);
    if (lgpy_call_watched(j.on.st, bfs, &j, &w) == 0)
        result = Py_BuildValue("(OO)", dist.obj ? dist.obj : Py_None, par.obj ? par.obj : Py_None);
done:
    lgpy_array_release(&sources);
    lgpy_result_drop(&dist);
    lgpy_result_drop(&par);
    return result;
}

/* ---- PageRank ------------------------------------------------------------- */

typedef struct {
    lgpy_on_graph on;
    lg_pagerank_options_t options;
    int precision; /* 64: lg_pagerank's doubles, 32: lg_pagerank_f32's floats */
    void *scores;
    lg_pagerank_result_t result;
} pagerank_job;

static lg_status_t pagerank(void *job)
{
    pagerank_job *j = job;
    if (j->precision == 64)
        return lg_pagerank(j->on.ctx, j->on.g, &j->options, j->scores, &j->result);
    return lg_pagerank_f32(j->on.ctx, j->on.g, &j->options, j->scores, &j->result);
}

/* Raises NotConverged(message) carrying the last iterate (.scores,
 * .iterations, .residual). */
static void raise_not_converged(lgpy_state *st, PyObject *scores, const lg_pagerank_result_t *r)
{
    PyObject *exc = PyObject_CallFunction(st->NotConverged, "s", lg_last_error());
    PyObject *it = exc ? PyLong_FromLong(r->iterations) : NULL;
    PyObject *res = it ? PyFloat_FromDouble(r->residual) : NULL;
    if (res && PyObject_SetAttrString(exc, "scores", scores) == 0 &&
        PyObject_SetAttrString(exc, "iterations", it) == 0 &&
        PyObject_SetAttrString(exc, "residual", res) == 0)
        PyErr_SetObject(st->NotConverged, exc);
    Py_XDECREF(res);
    Py_XDECREF(it);
    Py_XDECREF(exc);
}

static PyObject *mod_pagerank(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"graph",       "alpha",           "tol",    "max_iter",
                         "use_weights", "personalization", "nstart", "dangling",
                         "precision",   "context",         "out",    "device_outputs",
                         NULL};
    PyObject *graph_o, *pers_o = Py_None, *nstart_o = Py_None, *dang_o = Py_None, *ctx_o = Py_None,
                       *out_o = Py_None;
    pagerank_job j = {.precision = 64};
    lg_pagerank_options_t *o = &j.options;
    lg_pagerank_options_init(o);
    int use_weights = 1, on_device = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|ddipOOO$iOOp:pagerank", kw, &graph_o,
                                     &o->alpha, &o->tol, &o->max_iter, &use_weights, &pers_o,
                                     &nstart_o, &dang_o, &j.precision, &ctx_o, &out_o,
                                     &on_device) ||
        lgpy_on_graph_args(module, graph_o, ctx_o, &j.on) < 0)
        return NULL;
    if (j.precision != 32 && j.precision != 64) {
        PyErr_Format(PyExc_ValueError, "precision: must be 32 or 64, not %d", j.precision);
        return NULL;
    }
    o->use_weights = use_weights != 0;
    const Py_ssize_t n = j.on.n;
    lgpy_array pers = LGPY_ARRAY_INIT, nstart = LGPY_ARRAY_INIT, dang = LGPY_ARRAY_INIT;
    /* read by every iteration after the library checked them: copies (arrays.c) */
    pers.private_copy = nstart.private_copy = dang.private_copy = 1;
    lgpy_result out = LGPY_RESULT_INIT;
    PyObject *result = NULL;
    if (lgpy_array_get_optional(pers_o, "personalization", LGPY_F64, n, &pers) < 0 ||
        lgpy_array_get_optional(nstart_o, "nstart", LGPY_F64, n, &nstart) < 0 ||
        lgpy_array_get_optional(dang_o, "dangling", LGPY_F64, n, &dang) < 0 ||
        (on_device ? device_address(out_o, "out", &j.scores) < 0
                   : lgpy_result_get(j.on.st, out_o, "out", j.precision == 64 ? 'd' : 'f', n,
                                     &out) < 0))
        goto done;
    o->personalization = pers.data;
    o->nstart = nstart.data;
    o->dangling = dang.data;
    o->output_memory = on_device ? LG_MEMORY_DEVICE : LG_MEMORY_HOST;
    if (!on_device)
        j.scores = out.data;
    lgpy_watch w;
    lgpy_watch_init(&w, j.on.st, false);
    LGPY_WATCH(o, &w);
    const lg_status_t s = lgpy_nogil_watched(pagerank, &j, &w);
    lgpy_result_release(&out);
    if (w.failed && PyErr_Occurred())
        ; /* KeyboardInterrupt: raised as it is */
    else if (s == LG_OK)
        result = Py_BuildValue("(Oid)", out.obj ? out.obj : Py_None, j.result.iterations,
                               j.result.residual);
    else if (s == LG_ERR_NOT_CONVERGED)
        raise_not_converged(j.on.st, out.obj ? out.obj : Py_None, &j.result);
    else
        lgpy_raise_status(j.on.st, s);
done:
    lgpy_result_drop(&out);
    lgpy_array_release(&pers);
    lgpy_array_release(&nstart);
    lgpy_array_release(&dang);
    return result;
}

/* ---- connected components ------------------------------------------------- */

typedef struct {
    lgpy_on_graph on;
    lg_components_options_t options;
    lg_vertex_t *labels;
    int64_t count;
} components_job;

static lg_status_t components(void *job)
{
    components_job *j = job;
    return lg_connected_components(j->on.ctx, j->on.g, &j->options, j->labels, &j->count);
}

static PyObject *mod_connected_components(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"graph", "context", "out", "device_outputs", NULL};
    PyObject *graph_o, *ctx_o = Py_None, *out_o = Py_None;
    int on_device = 0;
    components_job j = {.count = 0};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OOp:connected_components", kw, &graph_o,
                                     &ctx_o, &out_o, &on_device) ||
        lgpy_on_graph_args(module, graph_o, ctx_o, &j.on) < 0)
        return NULL;
    lgpy_result labels = LGPY_RESULT_INIT;
    PyObject *result = NULL;
    void *dev_labels = NULL;
    if (on_device ? device_address(out_o, "out", &dev_labels) < 0
                  : lgpy_result_get(j.on.st, out_o, "out", 'i', j.on.n, &labels) < 0)
        return NULL;
    j.labels = on_device ? dev_labels : labels.data;
    lgpy_watch w;
    lgpy_watch_init(&w, j.on.st, false);
    lg_components_options_init(&j.options);
    j.options.output_memory = on_device ? LG_MEMORY_DEVICE : LG_MEMORY_HOST;
    LGPY_WATCH(&j.options, &w);
    if (lgpy_call_watched(j.on.st, components, &j, &w) == 0)
        result = Py_BuildValue("(OL)", labels.obj ? labels.obj : Py_None, (long long)j.count);
    lgpy_result_drop(&labels);
    return result;
}

PyMethodDef lgpy_algorithm_methods[] = {
    {"bfs", (PyCFunction)(void (*)(void))mod_bfs, METH_VARARGS | METH_KEYWORDS,
     "bfs(graph, source, *, parents=False, max_depth=-1, direction_alpha=15, "
     "direction_beta=18, context=None, out=None, parents_out=None, device_outputs=False) -> "
     "(distances, parents or None)\n\nsource: a vertex id or an array of them (multi-source).  "
     "out / parents_out: int32 arrays of num_vertices to write into (returned), instead of new "
     "ones; with device_outputs, the addresses of GPU arrays (then None is returned for them)."},
    {"pagerank", (PyCFunction)(void (*)(void))mod_pagerank, METH_VARARGS | METH_KEYWORDS,
     "pagerank(graph, alpha=0.85, tol=1e-6, max_iter=100, use_weights=True, "
     "personalization=None, nstart=None, dangling=None, *, precision=64, context=None, "
     "out=None, device_outputs=False) -> (scores, iterations, residual)\n\nRaises "
     "NotConverged (with .scores, .iterations, .residual) when max_iter runs out.  out: a "
     "float64 (float32) array of num_vertices to write into; with device_outputs, a GPU "
     "array's address."},
    {"connected_components", (PyCFunction)(void (*)(void))mod_connected_components,
     METH_VARARGS | METH_KEYWORDS,
     "connected_components(graph, *, context=None, out=None, device_outputs=False) -> "
     "(labels, count)"},
    {NULL, NULL, 0, NULL},
};
