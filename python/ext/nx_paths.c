/*
 * nx_paths.c - NetworkX's Dijkstra, its bidirectional Dijkstra and its
 * bidirectional breadth-first search in C, for the NetworkX backend; the
 * dicts of their results (and the path dicts of the BFS visit); the CSR and
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
 * bidirectional_visit(offsets, indices, in_offsets, in_indices, source, target)
 *   NetworkX's bidirectional breadth-first search (_bidirectional_pred_succ:
 *   the smaller fringe grows a level at a time, forward over the out-arcs,
 *   backward over the in-arcs, each row in adjacency order, until an arc
 *   reaches a vertex the other side has seen) and its path through the
 *   meeting vertex: the path's vertices as int32 bytes, or None (no path).
 * bidirectional_dijkstra(offsets, indices, weights, in_offsets, in_indices,
 *                        in_weights, source, target, snapshot=False)
 *   NetworkX's bidirectional_dijkstra between two distinct vertices, step
 *   for step (bidijkstra_run says how), over the out- and in-arcs in
 *   adjacency order with their weights (float32 or float64 bytes, or None:
 *   each arc 1); snapshot: the path as NetworkX before 3.6 records it.
 *   Returns (distance, path as int32 bytes), or None (no path); ValueError
 *   "Contradictory paths found: negative weights?" where NetworkX raises it.
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

struct item {
    double d;
    int64_t c;
    int32_t v;
};

static inline bool before(const struct item *a, const struct item *b)
{
    return a->d < b->d || (a->d == b->d && a->c < b->c);
}

static void heap_push(struct item *h, int64_t *len, struct item x)
{
    int64_t i = (*len)++;
    while (i > 0 && before(&x, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static struct item heap_pop(struct item *h, int64_t *len)
{
    const struct item top = h[0], x = h[--*len];
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= *len)
            break;
        if (c + 1 < *len && before(&h[c + 1], &h[c]))
            c++;
        if (!before(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*len > 0)
        h[i] = x;
    return top;
}

/* An indexed 4-ary heap of (distance, count, vertex), a vertex at most once
 * (at[v]: its place, or -1): lowering a vertex's entry to its newest push
 * pops the vertices in the order of NetworkX's heap, where the newest push
 * is a vertex's smallest entry and its older ones pop after it is settled
 * and are skipped; it holds n entries, not one a push.  (Bidirectional
 * Dijkstra keeps heap_push's heap: there a skipped entry takes its side's
 * turn.) */
static void iheap_up(struct item *h, int32_t *at, int64_t i, struct item x)
{
    while (i > 0 && before(&x, &h[(i - 1) / 4])) {
        h[i] = h[(i - 1) / 4];
        at[h[i].v] = (int32_t)i;
        i = (i - 1) / 4;
    }
    h[i] = x;
    at[x.v] = (int32_t)i;
}

/* Pushes x, or lowers x.v's entry to x (smaller: a strictly shorter distance). */
static void iheap_push(struct item *h, int32_t *at, int64_t *len, struct item x)
{
    iheap_up(h, at, at[x.v] >= 0 ? at[x.v] : (*len)++, x);
}

static struct item iheap_pop(struct item *h, int32_t *at, int64_t *len)
{
    const struct item top = h[0], x = h[--*len];
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
            if (before(&h[k], &h[c]))
                c = k;
        if (!before(&h[c], &x))
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
    struct item *heap; /* iheap_*: n entries */
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
    struct item *const heap = j->heap;
    int32_t *const at = j->at, *const order = j->order, *const parent = j->parent;
    int32_t *const found = j->found;
    unsigned char *const state = j->state;
    double *const seen = j->seen, *const dist = j->dist;
    int64_t len = 0, count = j->count, found_count = j->found_count, pushes = j->pushes;
    for (int64_t k = 0; k < found_count; k++)
        iheap_push(heap, at, &len, (struct item){0.0, pushes++, found[k]});
    while (len > 0) {
        const struct item it = iheap_pop(heap, at, &len);
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
                iheap_push(heap, at, &len, (struct item){d, pushes++, u});
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

/* ---- bidirectional breadth-first search --------------------------------------------- */

enum { UNSEEN = -2, NONE = -1 };

/* One level of one side (bidirectional_visit's top): the fringe's arcs
 * over rows r, each end not yet seen by this side (mine) claimed and put on
 * the next fringe; the first end the other side (theirs) has seen, or -1. */
static int32_t grow_level(const lgpy_csr_buffers *r, const int32_t *fringe, int64_t size,
                          int32_t *mine, const int32_t *theirs, int32_t *next, int64_t *next_size)
{
    *next_size = 0;
    for (int64_t i = 0; i < size; i++) {
        const int32_t v = fringe[i];
        for (int64_t e = r->offsets[v]; e < r->offsets[v + 1]; e++) {
            const int32_t w = r->indices[e];
            if (mine[w] == UNSEEN) {
                next[(*next_size)++] = w;
                mine[w] = v;
            }
            if (theirs[w] != UNSEEN)
                return w;
        }
    }
    return -1;
}

/* Whether f and r are the out- and in-arcs of one graph holding source and
 * target; false with an exception. */
static bool one_graph(const lgpy_csr_buffers *f, const lgpy_csr_buffers *r, long long source,
                      long long target, const char *fn)
{
    const int64_t n = f->n;
    bool fine = r->n == n && source >= 0 && source < n && target >= 0 && target < n;
    for (int64_t e = 0; fine && e < f->m; e++)
        fine = f->indices[e] >= 0 && f->indices[e] < n;
    for (int64_t e = 0; fine && e < r->m; e++)
        fine = r->indices[e] >= 0 && r->indices[e] < n;
    if (!fine)
        PyErr_Format(PyExc_ValueError, "%s: not two CSRs of one graph, or a vertex not in it", fn);
    return fine;
}

static PyObject *mod_bidirectional_visit(PyObject *module, PyObject *args)
{
    PyObject *off_o, *idx_o, *roff_o, *ridx_o;
    long long source, target;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOOOLL:bidirectional_visit", &off_o, &idx_o, &roff_o, &ridx_o,
                          &source, &target))
        return NULL;
    lgpy_csr_buffers f, r;
    memset(&r, 0, sizeof r);
    PyObject *result = NULL;
    int32_t *pred = NULL, *succ = NULL, *buf = NULL, *path = NULL;
    if (lgpy_csr_get(&f, off_o, idx_o, NULL, "bidirectional_visit") < 0 ||
        lgpy_csr_get(&r, roff_o, ridx_o, NULL, "bidirectional_visit") < 0)
        goto cleanup;
    const int64_t n = f.n;
    if (!one_graph(&f, &r, source, target, "bidirectional_visit"))
        goto cleanup;
    const size_t n1 = (size_t)(n ? n : 1);
    pred = PyMem_Malloc(sizeof *pred * n1);
    succ = PyMem_Malloc(sizeof *succ * n1);
    buf = PyMem_Malloc(sizeof *buf * 4 * n1);
    path = PyMem_Malloc(sizeof *path * (2 * n1 + 1)); /* the two sides: n vertices in all */
    if (!pred || !succ || !buf || !path) {
        PyErr_NoMemory();
        goto cleanup;
    }
    for (int64_t v = 0; v < n; v++)
        pred[v] = succ[v] = UNSEEN;
    pred[source] = NONE, succ[target] = NONE;
    int32_t *fwd = buf, *fwd_next = buf + n1, *rev = buf + 2 * n1, *rev_next = buf + 3 * n1;
    int64_t fsize = 1, rsize = 1, next_size = 0;
    fwd[0] = (int32_t)source, rev[0] = (int32_t)target;
    int32_t meet = source == target ? (int32_t)source : -1;
    while (meet < 0 && fsize > 0 && rsize > 0) {
        if (fsize <= rsize) {
            meet = grow_level(&f, fwd, fsize, pred, succ, fwd_next, &next_size);
            int32_t *t = fwd;
            fwd = fwd_next, fwd_next = t, fsize = next_size;
        } else {
            meet = grow_level(&r, rev, rsize, succ, pred, rev_next, &next_size);
            int32_t *t = rev;
            rev = rev_next, rev_next = t, rsize = next_size;
        }
    }
    if (meet < 0) {
        result = Py_NewRef(Py_None);
        goto cleanup;
    }
    /* the source's side back from the meeting vertex, reversed, then the target's */
    int64_t len = 0;
    for (int32_t w = meet; w != NONE && len <= n; w = pred[w])
        path[len++] = w;
    for (int64_t a = 0, b = len - 1; a < b; a++, b--) {
        const int32_t t = path[a];
        path[a] = path[b], path[b] = t;
    }
    for (int32_t w = succ[meet]; w != NONE && len <= n; w = succ[w])
        path[len++] = w;
    result = PyBytes_FromStringAndSize((const char *)path, (Py_ssize_t)(4 * len));

cleanup:
    PyMem_Free(pred);
    PyMem_Free(succ);
    PyMem_Free(buf);
    PyMem_Free(path);
    lgpy_csr_release(&f);
    lgpy_csr_release(&r);
    return result;
}

/* ---- bidirectional Dijkstra --------------------------------------------------------- */

static inline double arc_weight(const lgpy_csr_buffers *c, int64_t e)
{
    return c->w64 ? c->w64[e] : c->w32 ? (double)c->w32[e] : 1.0;
}

/* One side of the search: 0 grows from the source over the out-arcs, 1
 * from the target over the in-arcs. */
typedef struct {
    const lgpy_csr_buffers *rows;
    struct item *heap;
    int64_t len;
    unsigned char *state; /* 0 not seen, SEEN, SETTLED */
    double *seen;         /* the smallest distance pushed; the final one once settled */
    int32_t *pred;        /* the settled vertex whose arc last lowered it, or NONE */
} side;

typedef struct {
    side s[2];
    int64_t pushes;
    bool snapshot;     /* keep the meeting vertex's predecessors as they were when it was chosen */
    bool found, contradiction, done;
    double dist;
    int32_t meet, meet_pred[2];
} bidijkstra_job;

/* NetworkX's bidirectional_dijkstra, step for step: the sides alternate a
 * pop each (forward first); a popped vertex already settled by this side is
 * skipped, one settled by the other side ends the search; relaxing an arc
 * to a vertex the other side has seen offers the sum of the two seen
 * distances as the best path, taken when strictly shorter.  Until NetworkX
 * 3.6 the best path's lists are copied when it is taken (snapshot); from
 * 3.6 they are read from the predecessors at the end, which differ only
 * when a later, shorter arc to the meeting vertex leaves the sum unchanged
 * by rounding. */
static void bidijkstra_run(bidijkstra_job *j)
{
    int dir = 1;
    while (j->s[0].len > 0 && j->s[1].len > 0) {
        dir = 1 - dir;
        side *me = &j->s[dir], *other = &j->s[1 - dir];
        const struct item it = heap_pop(me->heap, &me->len);
        const int32_t v = it.v;
        if (me->state[v] == SETTLED)
            continue;
        me->state[v] = SETTLED;
        if (other->state[v] == SETTLED) {
            j->done = true;
            return;
        }
        for (int64_t e = me->rows->offsets[v]; e < me->rows->offsets[v + 1]; e++) {
            const int32_t w = me->rows->indices[e];
            const double d = it.d + arc_weight(me->rows, e);
            if (me->state[w] == SETTLED) {
                if (d < me->seen[w]) {
                    j->contradiction = true;
                    return;
                }
            } else if (!me->state[w] || d < me->seen[w]) {
                me->state[w] = SEEN;
                me->seen[w] = d;
                heap_push(me->heap, &me->len, (struct item){d, j->pushes++, w});
                me->pred[w] = v;
                if (other->state[w]) {
                    const double total = d + other->seen[w];
                    if (!j->found || j->dist > total) {
                        j->found = true;
                        j->dist = total;
                        j->meet = w;
                        j->meet_pred[0] = j->s[0].pred[w];
                        j->meet_pred[1] = j->s[1].pred[w];
                    }
                }
            }
        }
    }
}

static PyObject *mod_bidirectional_dijkstra(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"offsets", "indices", "weights", "in_offsets", "in_indices",
                         "in_weights", "source", "target", "snapshot", NULL};
    PyObject *off_o, *idx_o, *w_o, *roff_o, *ridx_o, *rw_o;
    long long source, target;
    int snapshot = 0;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOLL|p:bidirectional_dijkstra", kw,
                                     &off_o, &idx_o, &w_o, &roff_o, &ridx_o, &rw_o, &source,
                                     &target, &snapshot))
        return NULL;
    lgpy_csr_buffers f, r;
    memset(&r, 0, sizeof r);
    PyObject *result = NULL;
    int32_t *path = NULL;
    bidijkstra_job j = {0};
    if (lgpy_csr_get(&f, off_o, idx_o, w_o, "bidirectional_dijkstra") < 0 ||
        lgpy_csr_get(&r, roff_o, ridx_o, rw_o, "bidirectional_dijkstra") < 0 ||
        !one_graph(&f, &r, source, target, "bidirectional_dijkstra"))
        goto cleanup;
    const int64_t n = f.n;
    const size_t n1 = (size_t)(n ? n : 1);
    const lgpy_csr_buffers *rows[2] = {&f, &r};
    bool fine = true;
    for (int d = 0; d < 2; d++) {
        side *s = &j.s[d];
        s->rows = rows[d];
        s->heap = PyMem_Malloc(sizeof *s->heap * ((size_t)rows[d]->m + 1));
        s->state = PyMem_Calloc(n1, 1);
        s->seen = PyMem_Malloc(sizeof *s->seen * n1);
        s->pred = PyMem_Malloc(sizeof *s->pred * n1);
        fine = fine && s->heap && s->state && s->seen && s->pred;
    }
    path = PyMem_Malloc(sizeof *path * (2 * n1 + 1)); /* the two sides: n vertices in all */
    if (!fine || !path) {
        PyErr_NoMemory();
        goto cleanup;
    }
    const int32_t ends[2] = {(int32_t)source, (int32_t)target};
    for (int d = 0; d < 2; d++) {
        side *s = &j.s[d];
        s->state[ends[d]] = SEEN;
        s->seen[ends[d]] = 0.0;
        s->pred[ends[d]] = NONE;
        heap_push(s->heap, &s->len, (struct item){0.0, j.pushes++, ends[d]});
    }
    j.snapshot = snapshot;
    PyThreadState *saved = PyEval_SaveThread();
    bidijkstra_run(&j);
    PyEval_RestoreThread(saved);
    if (j.contradiction) {
        PyErr_SetString(PyExc_ValueError, "Contradictory paths found: negative weights?");
        goto cleanup;
    }
    if (!j.done || !j.found) {
        result = Py_NewRef(Py_None);
        goto cleanup;
    }
    /* the source's side back from the meeting vertex, reversed, then the target's */
    const int32_t *pred0 = j.s[0].pred, *pred1 = j.s[1].pred;
    const int32_t first0 = j.snapshot ? j.meet_pred[0] : pred0[j.meet];
    const int32_t first1 = j.snapshot ? j.meet_pred[1] : pred1[j.meet];
    int64_t len = 0;
    path[len++] = j.meet;
    for (int32_t w = first0; w != NONE && len <= n; w = pred0[w])
        path[len++] = w;
    for (int64_t a = 0, b = len - 1; a < b; a++, b--) {
        const int32_t t = path[a];
        path[a] = path[b], path[b] = t;
    }
    for (int32_t w = first1; w != NONE && len <= n; w = pred1[w])
        path[len++] = w;
    result = Py_BuildValue("(dy#)", j.dist, (const char *)path, (Py_ssize_t)(4 * len));

cleanup:
    for (int d = 0; d < 2; d++) {
        PyMem_Free(j.s[d].heap);
        PyMem_Free(j.s[d].state);
        PyMem_Free(j.s[d].seen);
        PyMem_Free(j.s[d].pred);
    }
    PyMem_Free(path);
    lgpy_csr_release(&f);
    lgpy_csr_release(&r);
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
    {"bidirectional_visit", mod_bidirectional_visit, METH_VARARGS,
     "bidirectional_visit(offsets, indices, in_offsets, in_indices, source, target, /)\n--\n\n"
     "NetworkX's bidirectional breadth-first search and its path (nx_paths.c)."},
    {"bidirectional_dijkstra", (PyCFunction)(void (*)(void))mod_bidirectional_dijkstra,
     METH_VARARGS | METH_KEYWORDS,
     "bidirectional_dijkstra(offsets, indices, weights, in_offsets, in_indices, in_weights, "
     "source, target, snapshot=False)\n--\n\n"
     "NetworkX's bidirectional Dijkstra: (distance, path) or None (nx_paths.c)."},
    {NULL, NULL, 0, NULL},
};
