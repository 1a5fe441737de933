/*
 * graph.c - the Graph type: an immutable lg_graph_t, made by the functions of
 * builders.c (Graph() itself is not callable).
 *
 * It answers its sizes, hands out its CSR and CSC arrays as read-only Buffers
 * that keep the graph alive (no copy; the CSC is built on first use, O(m)),
 * and its degrees as new int64 Buffers (O(n)); it gets and sets the vertex
 * names libgraph keeps for the binary format (copies, as bytes).  Work that may take a while
 * (building the CSC, degrees, freeing a big graph) runs with the GIL released.
 */
#include "ext.h"

#include <stdint.h>

typedef struct {
    PyObject_HEAD lg_graph_t *g;
} GraphObject;

PyObject *lgpy_graph_wrap(lgpy_state *st, lg_graph_t *g)
{
    GraphObject *self = PyObject_New(GraphObject, st->graph_type);
    if (!self) {
        lg_graph_free(&g);
        return NULL;
    }
    self->g = g;
    return (PyObject *)self;
}

static lg_status_t destroy(void *g)
{
    lg_graph_free((lg_graph_t **)g);
    return LG_OK;
}

static void graph_dealloc(GraphObject *self)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)self);
    lg_graph_t *g = self->g;
    self->g = NULL;
    /* a big graph takes a while to free: not under the GIL (the object is
     * unreachable by now, as io's file objects do when closing) */
    if (g)
        (void)lgpy_nogil(destroy, &g);
    PyObject_Free(self); /* the tp_free of a heap type without Py_TPFLAGS_HAVE_GC */
    Py_DECREF(tp);
}

/* The getters' closures: which property. */
enum {
    NUM_VERTICES,
    NUM_EDGES,
    DIRECTED,
    WEIGHTED,
    HOST_BYTES,
    WEIGHT_DTYPE,
    NEGATIVE_WEIGHTS
};

static PyObject *graph_property(GraphObject *self, void *which)
{
    switch ((intptr_t)which) {
    case NUM_VERTICES: return PyLong_FromLongLong(lg_graph_num_vertices(self->g));
    case NUM_EDGES: return PyLong_FromLongLong(lg_graph_num_edges(self->g));
    case DIRECTED: return PyBool_FromLong(lg_graph_is_directed(self->g));
    case HOST_BYTES: return PyLong_FromSize_t(lg_graph_host_bytes(self->g));
    case WEIGHT_DTYPE:
        switch (lg_graph_weight_type(self->g)) {
        case LG_WEIGHTS_FLOAT32: return PyUnicode_FromString("float32");
        case LG_WEIGHTS_FLOAT64: return PyUnicode_FromString("float64");
        default: Py_RETURN_NONE;
        }
    case NEGATIVE_WEIGHTS: return PyBool_FromLong(lg_graph_has_negative_weights(self->g));
    default: return PyBool_FromLong(lg_graph_is_weighted(self->g));
    }
}

/* The arrays of one direction: lg_graph_csr's or lg_graph_csc's. */
typedef struct {
    const lg_graph_t *g;
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    const double *w64; /* a float64 graph's weights, given instead of w */
} arrays_job;

static lg_status_t csc(void *job)
{
    arrays_job *j = job;
    const lg_status_t s = lg_graph_csc(j->g, &j->off, &j->idx, &j->w);
    return s == LG_OK ? lg_graph_weights_f64(j->g, true, &j->w64) : s;
}

static lg_status_t csr(arrays_job *j)
{
    const lg_status_t s = lg_graph_csr(j->g, &j->off, &j->idx, &j->w);
    return s == LG_OK ? lg_graph_weights_f64(j->g, false, &j->w64) : s;
}

/* (offsets, indices, weights or None): read-only views that keep the graph;
 * a float64 graph's weights are its exact ones. */
static PyObject *graph_arrays(GraphObject *self, int in_edges)
{
    lgpy_state *st = lgpy_state_of_type(Py_TYPE((PyObject *)self));
    if (!st)
        return NULL;
    arrays_job j = {.g = self->g};
    /* the first csc call builds the CSC; the CSR is there */
    const lg_status_t s = in_edges ? lgpy_nogil(csc, &j) : csr(&j);
    if (s != LG_OK)
        return lgpy_raise_status(st, s);
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(self->g);
    const Py_ssize_t m = (Py_ssize_t)lg_graph_num_edges(self->g);
    PyObject *me = (PyObject *)self;
    PyObject *o = lgpy_buffer_new(st, 'q', 8, n + 1, (void *)j.off, me);
    PyObject *i = o ? lgpy_buffer_new(st, 'i', 4, m, (void *)j.idx, me) : NULL;
    PyObject *wb = NULL;
    if (i)
        wb = j.w64 ? lgpy_buffer_new(st, 'd', 8, m, (void *)j.w64, me)
             : j.w ? lgpy_buffer_new(st, 'f', 4, m, (void *)j.w, me)
                   : Py_NewRef(Py_None);
    if (!wb) {
        Py_XDECREF(o);
        Py_XDECREF(i);
        return NULL;
    }
    return Py_BuildValue("(NNN)", o, i, wb);
}

static PyObject *graph_csr(GraphObject *self, PyObject *Py_UNUSED(unused))
{
    return graph_arrays(self, 0);
}

static PyObject *graph_csc(GraphObject *self, PyObject *Py_UNUSED(unused))
{
    return graph_arrays(self, 1);
}

typedef struct {
    const lg_graph_t *g;
    int in;
    lg_edge_t *degrees;
} degrees_job;

static lg_status_t degrees(void *job)
{
    degrees_job *j = job;
    return j->in ? lg_graph_in_degrees(j->g, j->degrees) : lg_graph_out_degrees(j->g, j->degrees);
}

static PyObject *graph_degrees(GraphObject *self, int in)
{
    lgpy_state *st = lgpy_state_of_type(Py_TYPE((PyObject *)self));
    if (!st)
        return NULL;
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(self->g);
    PyObject *out = lgpy_buffer_new(st, 'q', 8, n, NULL, NULL);
    if (!out)
        return NULL;
    degrees_job j = {.g = self->g, .in = in, .degrees = lgpy_buffer_data(out)};
    if (lgpy_call(st, degrees, &j) < 0)
        Py_CLEAR(out);
    return out;
}

static PyObject *graph_out_degrees(GraphObject *self, PyObject *Py_UNUSED(unused))
{
    return graph_degrees(self, 0);
}

static PyObject *graph_in_degrees(GraphObject *self, PyObject *Py_UNUSED(unused))
{
    return graph_degrees(self, 1);
}

/* names() -> None, (1, int64 bytes) or (2, int64 offset bytes, UTF-8 text
 * bytes): copies, since names may be set again. */
static PyObject *graph_names(GraphObject *self, PyObject *Py_UNUSED(unused))
{
    lg_names_t v;
    lg_status_t s = lg_graph_names(self->g, &v);
    if (s != LG_OK)
        return lgpy_raise_status(lgpy_state_of_type(Py_TYPE((PyObject *)self)), s);
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(self->g);
    if (v.kind == LG_NAMES_INT64)
        return Py_BuildValue("(iy#)", 1, (const char *)v.ints, n * 8);
    if (v.kind == LG_NAMES_UTF8)
        return Py_BuildValue("(iy#y#)", 2, (const char *)v.offsets, (n + 1) * 8, v.text,
                             (Py_ssize_t)v.offsets[n]);
    Py_RETURN_NONE;
}

/* set_names(kind, ints, offsets, text): lg_graph_set_names of bytes-like
 * arrays (kind 0: no names; 1: ints of n int64; 2: offsets of n + 1 int64
 * and text), the lengths checked here, the rest by libgraph. */
static PyObject *graph_set_names(GraphObject *self, PyObject *args)
{
    int kind;
    Py_buffer a = {0}, b = {0}, c = {0};
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "iy*y*y*:set_names", &kind, &a, &b, &c))
        return NULL;
    const Py_ssize_t n = (Py_ssize_t)lg_graph_num_vertices(self->g);
    lg_names_t v = {(lg_names_kind_t)kind, a.buf, b.buf, c.buf};
    if ((kind == LG_NAMES_INT64 && a.len != n * 8) ||
        (kind == LG_NAMES_UTF8 &&
         (b.len != (n + 1) * 8 || ((const int64_t *)b.buf)[n] != (int64_t)c.len))) {
        PyErr_Format(PyExc_ValueError, "set_names: arrays of the wrong length for %zd vertices",
                     n);
        goto done;
    }
    const lg_status_t s = lg_graph_set_names(self->g, &v);
    result = s == LG_OK ? Py_NewRef(Py_None)
                        : lgpy_raise_status(lgpy_state_of_type(Py_TYPE((PyObject *)self)), s);
done:
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&c);
    return result;
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
    {"num_vertices", (getter)graph_property, NULL, "The number of vertices.", (void *)NUM_VERTICES},
    {"num_edges", (getter)graph_property, NULL,
     "Stored arcs: an undirected edge u-v (u != v) counts twice, a self-loop once.",
     (void *)NUM_EDGES},
    {"directed", (getter)graph_property, NULL, "Whether the graph is directed.", (void *)DIRECTED},
    {"weighted", (getter)graph_property, NULL, "Whether the edges carry weights.",
     (void *)WEIGHTED},
    {"weight_dtype", (getter)graph_property, NULL,
     "The weights' type: \"float32\", \"float64\", or None when unweighted.",
     (void *)WEIGHT_DTYPE},
    {"negative_weights", (getter)graph_property, NULL, "Whether some weight is < 0.",
     (void *)NEGATIVE_WEIGHTS},
    {"host_bytes", (getter)graph_property, NULL,
     "Bytes of host memory the graph's arrays take (lg_graph_host_bytes).", (void *)HOST_BYTES},
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
    {"names", (PyCFunction)graph_names, METH_NOARGS,
     "names() -> None, (1, int64 bytes) or (2, int64 offset bytes, UTF-8 bytes): copies of "
     "the vertex names libgraph holds (lg_graph_names)."},
    {"set_names", (PyCFunction)graph_set_names, METH_VARARGS,
     "set_names(kind, ints, offsets, text): lg_graph_set_names (kind 0 none, 1 int64, 2 "
     "UTF-8; unused arrays b'')."},
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

PyType_Spec lgpy_graph_spec = {
    "libgraph._libgraph.Graph", sizeof(GraphObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION, graph_slots};

int lgpy_on_graph_args(PyObject *module, PyObject *graph_o, PyObject *ctx_o, lgpy_on_graph *on)
{
    on->st = lgpy_state_of_module(module);
    if (!PyObject_TypeCheck(graph_o, on->st->graph_type)) {
        PyErr_Format(PyExc_TypeError, "graph: expected a libgraph._libgraph.Graph, not %s",
                     lgpy_type_name(graph_o));
        return -1;
    }
    on->g = ((GraphObject *)graph_o)->g;
    on->n = (Py_ssize_t)lg_graph_num_vertices(on->g);
    return lgpy_context_arg(on->st, ctx_o, &on->ctx);
}
