/*
 * nx_paths.c - NetworkX's Dijkstra in C, for the NetworkX backend; the
 * dicts of its results (and the path dicts of the BFS visit); the CSR and
 * vertex-list readers that every search of the backend shares (ext.h).
 *
 * dijkstra_visit(offsets, indices, weights, first, cutoff=None, target=-1)
 *   the search of NetworkX's _dijkstra_multisource, step for step, over a
 *   CSR whose rows keep the adjacency order (adjacency_csr's arrays; weights
 *   float32 or float64 bytes, or None: every arc weighs 1): a heap of
 *   (distance, count, vertex), the count the order of pushes, so that ties
 *   pop in NetworkX's order (iheap_*: one entry a vertex); a vertex is
 *   settled when popped, stops the search when it is the target, and
 *   relaxes its arcs in adjacency order; a neighbour is pushed when first
 *   seen or seen at a larger distance, and arcs past the cutoff are skipped.
 *   Distances are summed in double, as Python adds floats (float64 weights:
 *   adjacency_csr's wide).
 *   Returns (order, dists, parents, found): the settled vertices in order
 *   (int32 bytes) and their distances (float64 bytes, aligned with order);
 *   each vertex's parent (int32 bytes, one a vertex: the settled vertex
 *   whose arc last lowered it, which NetworkX's paths[v] = paths[parent] +
 *   [v] follows; -1 for a source or a vertex never seen); the seen vertices
 *   in the order first seen (int32 bytes: the order of NetworkX's paths
 *   dict).  The search runs with the GIL released.
 * lengths(nodes, order, dists, sources=0, integral=False)
 *   {node: distance} in order: dists float64 bytes aligned with order; the
 *   first `sources` entries (the sources, which a search settles first) the
 *   int 0, as NetworkX's; integral: every distance an int.
 * paths(nodes, order, parents, found=None, aligned=False)
 *   {node: [nodes from a source to it]} for the vertices of order, each
 *   path its parent's plus itself (parents int32: one a vertex, or with
 *   aligned one an entry of order, as bfs_visit's; -1: a first vertex), the
 *   lists made in order (a parent before its children) and the dict's keys
 *   in the order of found (default: order).
 */
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the searches share (ext.h) ------------------------------------------------ */

void lgpy_csr_release(lgpy_csr_buffers *c)
{
    if (c->w.obj)
        PyBuffer_Release(&c->w);
    if (c->idx.obj)
        PyBuffer_Release(&c->idx);
    if (c->off.obj)
        PyBuffer_Release(&c->off);
}

/* 0, or -1 with an exception ("fn: offsets, indices and weights are not a
 * CSR"); release it either way.  w_o NULL: a search without weights. */
int lgpy_csr_get(lgpy_csr_buffers *c, PyObject *off_o, PyObject *idx_o, PyObject *w_o,
                   const char *fn)
{
    memset(c, 0, sizeof *c);
    if (PyObject_GetBuffer(off_o, &c->off, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(idx_o, &c->idx, PyBUF_SIMPLE) < 0 ||
        (w_o && w_o != Py_None && PyObject_GetBuffer(w_o, &c->w, PyBUF_SIMPLE) < 0))
        return -1;
    c->n = c->off.len / (Py_ssize_t)sizeof(int64_t) - 1;
    c->m = c->idx.len / (Py_ssize_t)sizeof(int32_t);
    c->offsets = c->off.buf;
    c->indices = c->idx.buf;
    const bool wide = c->w.obj && c->m > 0 && c->w.len == c->m * (Py_ssize_t)sizeof(double);
    c->w32 = c->w.obj && !wide ? c->w.buf : NULL;
    c->w64 = wide ? c->w.buf : NULL;
    if (c->n < 0 || c->off.len % sizeof(int64_t) || c->idx.len % sizeof(int32_t) ||
        c->offsets[0] != 0 || c->offsets[c->n] != c->m ||
        (c->w.obj && !wide && c->w.len != c->m * (Py_ssize_t)sizeof(float))) {
        PyErr_Format(PyExc_ValueError, "%s: %s are not a CSR", fn,
                     w_o ? "offsets, indices and weights" : "offsets and indices");
        return -1;
    }
    return 0;
}

/* The vertex ids of a sequence (first: a search's sources), each in [0, n),
 * into a new array of *k (PyMem); NULL with an exception. */
int32_t *lgpy_vertex_ids(PyObject *first_o, int64_t n, const char *fn, Py_ssize_t *k)
{
    PyObject *first = PySequence_Fast(first_o, "first: expected a sequence of vertex ids");
    if (!first)
        return NULL;
    *k = PySequence_Size(first);
    int32_t *ids = PyMem_Malloc(sizeof *ids * (size_t)(*k ? *k : 1));
    if (!ids)
        PyErr_NoMemory();
    const lgpy_item_fn get = PyList_Check(first) ? PyList_GetItem : PyTuple_GetItem;
    for (Py_ssize_t i = 0; ids && i < *k; i++) {
        PyObject *x = get(first, i);
        const long long v = x ? PyLong_AsLongLong(x) : -1;
        if (!(v == -1 && PyErr_Occurred()) && (v < 0 || v >= n))
            PyErr_Format(PyExc_ValueError, "%s: vertex %lld is not in [0, %lld)", fn, v,
                         (long long)n);
        if (PyErr_Occurred()) {
            PyMem_Free(ids);
            ids = NULL;
        } else {
            ids[i] = (int32_t)v;
        }
    }
    Py_DECREF(first);
    return ids;
}

/* An indexed 4-ary heap of (distance, count, vertex), a vertex at most once
 * (at[v]: its place, or -1): lowering a vertex's entry to its newest push
 * pops the vertices in the order of NetworkX's heap, where the newest push
 * is a vertex's smallest entry and its older ones pop after it is settled
 * and are skipped; it holds n entries, not one a push.  (Bidirectional
 * Dijkstra, nx_bidirectional.c, keeps a lazy heap: there a skipped entry
 * takes its side's turn.) */
static void iheap_up(lgpy_heap_item *h, int32_t *at, int64_t i, lgpy_heap_item x)
{
    while (i > 0 && lgpy_heap_before(&x, &h[(i - 1) / 4])) {
        h[i] = h[(i - 1) / 4];
        at[h[i].v] = (int32_t)i;
        i = (i - 1) / 4;
    }
    h[i] = x;
    at[x.v] = (int32_t)i;
}

/* Pushes x, or lowers x.v's entry to x (smaller: a strictly shorter distance). */
static void iheap_push(lgpy_heap_item *h, int32_t *at, int64_t *len, lgpy_heap_item x)
{
    iheap_up(h, at, at[x.v] >= 0 ? at[x.v] : (*len)++, x);
}

static lgpy_heap_item iheap_pop(lgpy_heap_item *h, int32_t *at, int64_t *len)
{
    const lgpy_heap_item top = h[0], x = h[--*len];
    at[top.v] = -1;
    if (*len == 0)
        return top;
    int64_t i = 0;
    for (;;) {
        const int64_t first = 4 * i + 1;
        if (first >= *len)
            break;
        const int64_t last = first + 4 < *len ? first + 4 : *len;
        int64_t c = first;
        for (int64_t k = first + 1; k < last; k++)
            if (lgpy_heap_before(&h[k], &h[c]))
                c = k;
        if (!lgpy_heap_before(&h[c], &x))
            break;
        h[i] = h[c];
        at[h[i].v] = (int32_t)i;
        i = c;
    }
    h[i] = x;
    at[x.v] = (int32_t)i;
    return top;
}

typedef struct {
    const int64_t *off;
    const int32_t *idx;
    const float *w;
    const double *w64; /* float64 weights, read instead of w */
    int64_t n, target;
    double cutoff; /* NaN: none (NetworkX's comparison with NaN is false) */
    lgpy_heap_item *heap; /* iheap_*: n entries */
    int32_t *at;       /* each vertex's place in heap, or -1 */
    unsigned char *state; /* 0 not seen, SEEN, SETTLED */
    double *seen;         /* the smallest distance pushed, once seen */
    int32_t *order, *parent, *found;
    double *dist;
    int64_t count, found_count, pushes;
    int bad;
} dijkstra_job;

enum { SEEN = 1, SETTLED = 2 };

/* The search; the job's arrays and counters are read into locals first, so
 * that the compiler keeps them in registers (the stores through the arrays
 * could otherwise alias the job's fields). */
static void dijkstra_run(dijkstra_job *j)
{
    const int64_t *const off = j->off;
    const int32_t *const idx = j->idx;
    const float *const w = j->w;
    const double *const w64 = j->w64, cutoff = j->cutoff;
    const int64_t n = j->n, target = j->target;
    lgpy_heap_item *const heap = j->heap;
    int32_t *const at = j->at, *const order = j->order, *const parent = j->parent;
    int32_t *const found = j->found;
    unsigned char *const state = j->state;
    double *const seen = j->seen, *const dist = j->dist;
    int64_t len = 0, count = j->count, found_count = j->found_count, pushes = j->pushes;
    for (int64_t k = 0; k < found_count; k++)
        iheap_push(heap, at, &len, (lgpy_heap_item){0.0, pushes++, found[k]});
    while (len > 0) {
        const lgpy_heap_item it = iheap_pop(heap, at, &len);
        const int32_t v = it.v;
        state[v] = SETTLED;
        order[count] = v;
        dist[count++] = it.d;
        if (v == target)
            break;
        for (int64_t e = off[v]; e < off[v + 1]; e++) {
            const int32_t u = idx[e];
            if (u < 0 || u >= n) {
                j->bad = 1;
                break;
            }
            const double d = it.d + (w64 ? w64[e] : w ? (double)w[e] : 1.0);
            if (d > cutoff || state[u] == SETTLED)
                continue;
            if (!state[u] || d < seen[u]) {
                if (!state[u])
                    found[found_count++] = u;
                state[u] = SEEN;
                seen[u] = d;
                parent[u] = v;
                iheap_push(heap, at, &len, (lgpy_heap_item){d, pushes++, u});
            }
        }
        if (j->bad)
            break;
    }
    j->count = count;
    j->found_count = found_count;
    j->pushes = pushes;
}

static PyObject *mod_dijkstra_visit(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"offsets", "indices", "weights", "first", "cutoff", "target", NULL};
    PyObject *off_o, *idx_o, *w_o, *first_o, *cutoff_o = Py_None;
    long long target = -1;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO|OL:dijkstra_visit", kw, &off_o, &idx_o,
                                     &w_o, &first_o, &cutoff_o, &target))
        return NULL;
    lgpy_csr_buffers c;
    PyObject *result = NULL;
    int32_t *first = NULL;
    Py_ssize_t k = 0;
    dijkstra_job j = {0};
    j.cutoff = NAN;
    if (cutoff_o != Py_None && (j.cutoff = PyFloat_AsDouble(cutoff_o)) == -1.0 && PyErr_Occurred())
        return NULL;
    if (lgpy_csr_get(&c, off_o, idx_o, w_o, "dijkstra_visit") < 0 ||
        !(first = lgpy_vertex_ids(first_o, c.n, "dijkstra_visit", &k)))
        goto cleanup;
    j.n = c.n;
    j.off = c.offsets;
    j.idx = c.indices;
    j.w = c.w32;
    j.w64 = c.w64;
    j.target = target;
    const size_t n1 = (size_t)(j.n ? j.n : 1);
    j.heap = PyMem_Malloc(sizeof *j.heap * n1);
    j.at = PyMem_Malloc(sizeof *j.at * n1);
    j.state = PyMem_Calloc(n1, 1);
    j.seen = PyMem_Malloc(sizeof *j.seen * n1);
    j.order = PyMem_Malloc(sizeof *j.order * n1);
    j.parent = PyMem_Malloc(sizeof *j.parent * n1);
    j.found = PyMem_Malloc(sizeof *j.found * n1);
    j.dist = PyMem_Malloc(sizeof *j.dist * n1);
    if (!j.heap || !j.at || !j.state || !j.seen || !j.order || !j.parent || !j.found || !j.dist) {
        PyErr_NoMemory();
        goto cleanup;
    }
    for (int64_t v = 0; v < j.n; v++)
        j.parent[v] = j.at[v] = -1;
    for (Py_ssize_t i = 0; i < k; i++) {
        const int32_t v = first[i];
        if (!j.state[v]) { /* NetworkX's dicts hold a repeated source once */
            j.state[v] = SEEN;
            j.seen[v] = 0.0;
            j.found[j.found_count++] = v;
        }
    }
    PyThreadState *saved = PyEval_SaveThread();
    dijkstra_run(&j);
    PyEval_RestoreThread(saved);
    if (j.bad) {
        PyErr_SetString(PyExc_ValueError, "dijkstra_visit: an index is not a vertex");
        goto cleanup;
    }
    result = Py_BuildValue("(y#y#y#y#)", (const char *)j.order, (Py_ssize_t)(4 * j.count),
                           (const char *)j.dist, (Py_ssize_t)(8 * j.count),
                           (const char *)j.parent, (Py_ssize_t)(4 * j.n), (const char *)j.found,
                           (Py_ssize_t)(4 * j.found_count));

cleanup:
    PyMem_Free(j.heap);
    PyMem_Free(j.at);
    PyMem_Free(j.state);
    PyMem_Free(j.seen);
    PyMem_Free(j.order);
    PyMem_Free(j.parent);
    PyMem_Free(j.found);
    PyMem_Free(j.dist);
    PyMem_Free(first);
    lgpy_csr_release(&c);
    return result;
}

static PyObject *mod_lengths(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"nodes", "order", "dists", "sources", "integral", NULL};
    PyObject *nodes_o, *order_o, *dists_o;
    Py_ssize_t sources = 0;
    int integral = 0;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|np:lengths", kw, &nodes_o, &order_o,
                                     &dists_o, &sources, &integral))
        return NULL;
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence");
    if (!nodes)
        return NULL;
    Py_buffer ob = {0}, db = {0};
    PyObject *result = NULL;
    if (PyObject_GetBuffer(order_o, &ob, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(dists_o, &db, PyBUF_SIMPLE) < 0)
        goto cleanup;
    const int32_t *order = ob.buf;
    const double *dists = db.buf;
    const Py_ssize_t count = ob.len / 4;
    if (db.len != count * 8) {
        PyErr_SetString(PyExc_ValueError, "lengths: dists are not one a vertex of order");
        goto cleanup;
    }
    if (!(result = PyDict_New()))
        goto cleanup;
    const lgpy_item_fn get = PyList_Check(nodes) ? PyList_GetItem : PyTuple_GetItem;
    for (Py_ssize_t k = 0; k < count; k++) {
        /* read each time: a node's hash or __eq__ may be Python code that
           changes the list */
        if (order[k] < 0 || order[k] >= PySequence_Size(nodes)) {
            PyErr_SetString(PyExc_ValueError, "lengths: an order entry is not a node");
            goto fail;
        }
        PyObject *node = get(nodes, order[k]);
        PyObject *d = integral || k < sources ? PyLong_FromDouble(dists[k])
                                              : PyFloat_FromDouble(dists[k]);
        if (!node || !d) {
            Py_XDECREF(d);
            goto fail;
        }
        Py_INCREF(node);
        const int rc = PyDict_SetItem(result, node, d);
        Py_DECREF(node);
        Py_DECREF(d);
        if (rc < 0)
            goto fail;
    }
    goto cleanup;
fail:
    Py_CLEAR(result);
cleanup:
    if (db.obj)
        PyBuffer_Release(&db);
    if (ob.obj)
        PyBuffer_Release(&ob);
    Py_DECREF(nodes);
    return result;
}

static PyObject *mod_paths(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"nodes", "order", "parents", "found", "aligned", NULL};
    PyObject *nodes_o, *order_o, *parents_o, *found_o = Py_None;
    int aligned = 0;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|Op:paths", kw, &nodes_o, &order_o,
                                     &parents_o, &found_o, &aligned))
        return NULL;
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence");
    if (!nodes)
        return NULL;
    Py_buffer ob = {0}, pb = {0}, fb = {0};
    PyObject *result = NULL, **path = NULL;
    const Py_ssize_t n = PySequence_Size(nodes);
    if (PyObject_GetBuffer(order_o, &ob, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(parents_o, &pb, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(found_o == Py_None ? order_o : found_o, &fb, PyBUF_SIMPLE) < 0)
        goto cleanup;
    const int32_t *order = ob.buf, *parents = pb.buf, *found = fb.buf;
    const Py_ssize_t count = ob.len / 4, found_count = fb.len / 4;
    if (pb.len != (aligned ? count : n) * 4) {
        PyErr_SetString(PyExc_ValueError, "paths: parents are not one a vertex");
        goto cleanup;
    }
    if (!(path = PyMem_Calloc((size_t)(n ? n : 1), sizeof *path))) {
        PyErr_NoMemory();
        goto cleanup;
    }
    const lgpy_item_fn get = PyList_Check(nodes) ? PyList_GetItem : PyTuple_GetItem;
    for (Py_ssize_t k = 0; k < count; k++) {
        const int32_t v = order[k], p = parents[aligned ? k : (v >= 0 && v < n ? v : 0)];
        if (v < 0 || v >= n || p >= n || (p >= 0 && !path[p]) || path[v] ||
            n != PySequence_Size(nodes)) {
            PyErr_SetString(PyExc_ValueError, "paths: order and parents are not a search's");
            goto cleanup;
        }
        const Py_ssize_t len = p >= 0 ? PyList_Size(path[p]) : 0;
        PyObject *list = PyList_New(len + 1), *node = get(nodes, v);
        if (!list || !node) {
            Py_XDECREF(list);
            goto cleanup;
        }
        for (Py_ssize_t i = 0; i < len; i++)
            PyList_SetItem(list, i, Py_NewRef(PyList_GetItem(path[p], i)));
        PyList_SetItem(list, len, Py_NewRef(node));
        path[v] = list;
    }
    if (!(result = PyDict_New()))
        goto cleanup;
    for (Py_ssize_t k = 0; k < found_count; k++) {
        const int32_t v = found[k];
        if (v < 0 || v >= n || !path[v] || n != PySequence_Size(nodes)) {
            PyErr_SetString(PyExc_ValueError, "paths: found is not the search's vertices");
            Py_CLEAR(result);
            goto cleanup;
        }
        PyObject *node = Py_NewRef(get(nodes, v));
        const int rc = PyDict_SetItem(result, node, path[v]);
        Py_DECREF(node);
        if (rc < 0) {
            Py_CLEAR(result);
            goto cleanup;
        }
    }

cleanup:
    if (path)
        for (Py_ssize_t v = 0; v < n; v++)
            Py_XDECREF(path[v]);
    PyMem_Free(path);
    if (fb.obj)
        PyBuffer_Release(&fb);
    if (pb.obj)
        PyBuffer_Release(&pb);
    if (ob.obj)
        PyBuffer_Release(&ob);
    Py_DECREF(nodes);
    return result;
}

PyMethodDef lgpy_nx_paths_methods[] = {
    {"dijkstra_visit", (PyCFunction)(void (*)(void))mod_dijkstra_visit,
     METH_VARARGS | METH_KEYWORDS,
     "dijkstra_visit(offsets, indices, weights, first, cutoff=None, target=-1)\n--\n\n"
     "NetworkX's Dijkstra over an adjacency-order CSR (nx_paths.c)."},
    {"lengths", (PyCFunction)(void (*)(void))mod_lengths, METH_VARARGS | METH_KEYWORDS,
     "lengths(nodes, order, dists, sources=0, integral=False)\n--\n\n{node: distance} in order "
     "(nx_paths.c)."},
    {"paths", (PyCFunction)(void (*)(void))mod_paths, METH_VARARGS | METH_KEYWORDS,
     "paths(nodes, order, parents, found=None, aligned=False)\n--\n\n{node: [path]} "
     "(nx_paths.c)."},
    {NULL, NULL, 0, NULL},
};
