/*
 * nx_bellman_ford.c - NetworkX's Bellman-Ford in C, for the NetworkX
 * backend, and the first paths of its predecessor lists.
 *
 * bellman_ford_visit(offsets, indices, weights, first, heuristic=True)
 *   NetworkX's Bellman-Ford (_inner_bellman_ford: its queue, its skip of a
 *   vertex one of whose predecessors is queued, its lists of tight
 *   predecessors, and its two negative-cycle tests: a vertex queued n
 *   times, and with heuristic an update path that meets itself) over an
 *   adjacency-order CSR: (order, dists, pred_offsets, preds, cycle): the
 *   vertices in the order NetworkX's dist dict gets them (sources first),
 *   their distances (float64 bytes), each one's predecessor list (int64
 *   offsets aligned with order, int32 vertices), and the vertex NetworkX
 *   returns for a negative cycle, or -1.  Runs with the GIL released.
 * predecessor_paths(nodes, order, pred_offsets, preds, sources, target=-1)
 *   {node: path} for each vertex of order (or only target): the first path
 *   NetworkX's _build_paths_from_predecessors yields (a depth-first walk of
 *   the predecessor lists back to one of the first `sources` vertices of
 *   order).
 */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const int64_t *off;
    const int32_t *idx;
    const float *w;
    const double *w64;
    int64_t n;
    bool heuristic;
    double *dist;
    unsigned char *has, *in_q, *has_edge;
    int32_t *order, *queue, *pred_edge, *ru_a, *ru_b;
    int64_t *count, count_order;
    int32_t **pred; /* each vertex's list, grown by doubling */
    int64_t *plen, *pcap;
    int32_t cycle;
    int bad; /* 1: an index is not a vertex; 2: out of memory */
} bf_job;

static bool pred_push(bf_job *j, int32_t v, int32_t u)
{
    if (j->plen[v] == j->pcap[v]) {
        const int64_t cap = j->pcap[v] ? 2 * j->pcap[v] : 2;
        int32_t *p = realloc(j->pred[v], sizeof *p * (size_t)cap); /* no GIL held: libc */
        if (!p)
            return false;
        j->pred[v] = p, j->pcap[v] = cap;
    }
    j->pred[v][j->plen[v]++] = u;
    return true;
}

/* _inner_bellman_ford, step for step (this file's top says what). */
static void bf_run(bf_job *j, const int32_t *sources, int64_t k)
{
    const int64_t n = j->n;
    int64_t head = 0, size = 0;
    for (int64_t i = 0; i < k; i++) {
        const int32_t s = sources[i];
        j->queue[(head + size++) % n] = s;
        j->in_q[s] = 1;
    }
    while (size > 0) {
        const int32_t u = j->queue[head];
        head = (head + 1) % n, size--, j->in_q[u] = 0;
        bool skip = false;
        for (int64_t i = 0; i < j->plen[u] && !skip; i++)
            skip = j->in_q[j->pred[u][i]] != 0;
        if (skip)
            continue;
        const double du = j->dist[u];
        for (int64_t e = j->off[u]; e < j->off[u + 1]; e++) {
            const int32_t v = j->idx[e];
            if (v < 0 || v >= n) {
                j->bad = 1;
                return;
            }
            const double dv = du + (j->w64 ? j->w64[e] : j->w ? (double)j->w[e] : 1.0);
            if (!j->has[v] || dv < j->dist[v]) {
                if (j->heuristic) {
                    if (v == j->ru_a[u] || v == j->ru_b[u]) {
                        if (!pred_push(j, v, u))
                            j->bad = 2;
                        j->cycle = v;
                        return;
                    }
                    if (j->has_edge[v] && j->pred_edge[v] == u)
                        j->ru_a[v] = j->ru_a[u], j->ru_b[v] = j->ru_b[u];
                    else
                        j->ru_a[v] = u, j->ru_b[v] = v;
                }
                if (!j->in_q[v]) {
                    j->queue[(head + size++) % n] = v;
                    j->in_q[v] = 1;
                    if (++j->count[v] == n) {
                        j->cycle = v;
                        return;
                    }
                }
                if (!j->has[v])
                    j->has[v] = 1, j->order[j->count_order++] = v;
                j->dist[v] = dv;
                j->plen[v] = 0;
                if (!pred_push(j, v, u)) {
                    j->bad = 2;
                    return;
                }
                j->pred_edge[v] = u, j->has_edge[v] = 1;
            } else if (j->has[v] && dv == j->dist[v] && !pred_push(j, v, u)) {
                j->bad = 2;
                return;
            }
        }
    }
}

static PyObject *mod_bellman_ford_visit(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"offsets", "indices", "weights", "first", "heuristic", NULL};
    PyObject *off_o, *idx_o, *w_o, *first_o;
    int heuristic = 1;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO|p:bellman_ford_visit", kw, &off_o,
                                     &idx_o, &w_o, &first_o, &heuristic))
        return NULL;
    lgpy_csr_buffers c;
    PyObject *result = NULL;
    int32_t *first = NULL, *sources = NULL, *flat = NULL;
    int64_t *poff = NULL;
    Py_ssize_t k = 0;
    bf_job j = {0};
    j.heuristic = heuristic != 0;
    j.cycle = -1;
    if (lgpy_csr_get(&c, off_o, idx_o, w_o, "bellman_ford_visit") < 0 ||
        !(first = lgpy_vertex_ids(first_o, c.n, "bellman_ford_visit", &k)))
        goto cleanup;
    j.n = c.n;
    j.off = c.offsets;
    j.idx = c.indices;
    j.w = c.w32;
    j.w64 = c.w64;
    const size_t n1 = (size_t)(j.n ? j.n : 1);
    j.dist = PyMem_Malloc(sizeof *j.dist * n1);
    j.has = PyMem_Calloc(n1, 1);
    j.in_q = PyMem_Calloc(n1, 1);
    j.has_edge = PyMem_Calloc(n1, 1);
    j.order = PyMem_Malloc(sizeof *j.order * n1);
    j.queue = PyMem_Malloc(sizeof *j.queue * n1);
    j.pred_edge = PyMem_Malloc(sizeof *j.pred_edge * n1);
    j.ru_a = PyMem_Malloc(sizeof *j.ru_a * n1);
    j.ru_b = PyMem_Malloc(sizeof *j.ru_b * n1);
    j.count = PyMem_Calloc(n1, sizeof *j.count);
    j.pred = PyMem_Calloc(n1, sizeof *j.pred);
    j.plen = PyMem_Calloc(n1, sizeof *j.plen);
    j.pcap = PyMem_Calloc(n1, sizeof *j.pcap);
    sources = PyMem_Malloc(sizeof *sources * (size_t)(k ? k : 1));
    if (!j.dist || !j.has || !j.in_q || !j.has_edge || !j.order || !j.queue || !j.pred_edge ||
        !j.ru_a || !j.ru_b || !j.count || !j.pred || !j.plen || !j.pcap || !sources) {
        PyErr_NoMemory();
        goto cleanup;
    }
    /* the sources: at distance 0, no predecessor, an empty update path */
    int64_t distinct = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        const int32_t v = first[i];
        if (!j.has[v]) {
            j.has[v] = 1, j.dist[v] = 0.0, j.order[j.count_order++] = v;
            j.has_edge[v] = 1, j.pred_edge[v] = -1, j.ru_a[v] = j.ru_b[v] = -1;
            sources[distinct++] = v;
        }
    }
    PyThreadState *saved = PyEval_SaveThread();
    if (j.n > 0)
        bf_run(&j, sources, distinct);
    PyEval_RestoreThread(saved);
    if (j.bad) {
        if (j.bad == 2)
            PyErr_NoMemory();
        else
            PyErr_SetString(PyExc_ValueError, "bellman_ford_visit: an index is not a vertex");
        goto cleanup;
    }
    /* the predecessor lists, in order */
    int64_t total = 0;
    for (int64_t i = 0; i < j.count_order; i++)
        total += j.plen[j.order[i]];
    poff = PyMem_Malloc(sizeof *poff * (size_t)(j.count_order + 1));
    flat = PyMem_Malloc(sizeof *flat * (size_t)(total ? total : 1));
    if (!poff || !flat) {
        PyErr_NoMemory();
        goto cleanup;
    }
    poff[0] = 0;
    for (int64_t i = 0; i < j.count_order; i++) {
        const int32_t v = j.order[i];
        memcpy(flat + poff[i], j.pred[v], sizeof *flat * (size_t)j.plen[v]);
        poff[i + 1] = poff[i] + j.plen[v];
    }
    double *dists = PyMem_Malloc(sizeof *dists * (size_t)(j.count_order ? j.count_order : 1));
    if (!dists) {
        PyErr_NoMemory();
        goto cleanup;
    }
    for (int64_t i = 0; i < j.count_order; i++)
        dists[i] = j.dist[j.order[i]];
    result = Py_BuildValue("(y#y#y#y#i)", (const char *)j.order, (Py_ssize_t)(4 * j.count_order),
                           (const char *)dists, (Py_ssize_t)(8 * j.count_order),
                           (const char *)poff, (Py_ssize_t)(8 * (j.count_order + 1)),
                           (const char *)flat, (Py_ssize_t)(4 * total), (int)j.cycle);
    PyMem_Free(dists);

cleanup:
    if (j.pred)
        for (int64_t v = 0; v < j.n; v++)
            free(j.pred[v]);
    PyMem_Free(j.pred);
    PyMem_Free(j.plen);
    PyMem_Free(j.pcap);
    PyMem_Free(j.dist);
    PyMem_Free(j.has);
    PyMem_Free(j.in_q);
    PyMem_Free(j.has_edge);
    PyMem_Free(j.order);
    PyMem_Free(j.queue);
    PyMem_Free(j.pred_edge);
    PyMem_Free(j.ru_a);
    PyMem_Free(j.ru_b);
    PyMem_Free(j.count);
    PyMem_Free(sources);
    PyMem_Free(poff);
    PyMem_Free(flat);
    PyMem_Free(first);
    lgpy_csr_release(&c);
    return result;
}

/* The first path _build_paths_from_predecessors yields for vertex t (a
 * list of nodes from a source to t), or NULL: an exception set (a
 * StopIteration where every walk dead-ends, as NetworkX's next() would). */
static PyObject *first_path(PyObject *nodes, lgpy_item_fn get, int32_t t, const int64_t *at,
                            const int64_t *poff, const int32_t *preds, int64_t sources,
                            unsigned char *seen, int32_t *stack_v, int64_t *stack_i)
{
    int64_t top = 0;
    stack_v[0] = t, stack_i[0] = 0, seen[t] = 1;
    PyObject *path = NULL;
    while (top >= 0) {
        const int32_t node = stack_v[top];
        const int64_t i = stack_i[top], a = at[node];
        if (a < sources) { /* a source: the walk, reversed, is the path */
            if (!(path = PyList_New(top + 1)))
                break;
            for (int64_t d = 0; d <= top; d++)
                PyList_SetItem(path, d, Py_NewRef(get(nodes, stack_v[top - d])));
            break;
        }
        if (a >= 0 && poff[a + 1] - poff[a] > i) {
            stack_i[top] = i + 1;
            const int32_t next = preds[poff[a] + i];
            if (seen[next])
                continue;
            seen[next] = 1;
            top++;
            stack_v[top] = next, stack_i[top] = 0;
        } else {
            seen[node] = 0;
            top--;
        }
    }
    for (int64_t d = 0; d <= top; d++)
        seen[stack_v[d]] = 0;
    if (!path && !PyErr_Occurred())
        PyErr_SetNone(PyExc_StopIteration);
    return path;
}

static PyObject *mod_predecessor_paths(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"nodes", "order", "pred_offsets", "preds", "sources", "target", NULL};
    PyObject *nodes_o, *order_o, *poff_o, *preds_o;
    Py_ssize_t sources = 0;
    long long target = -1;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOn|L:predecessor_paths", kw, &nodes_o,
                                     &order_o, &poff_o, &preds_o, &sources, &target))
        return NULL;
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence");
    if (!nodes)
        return NULL;
    Py_buffer ob = {0}, fb = {0}, pb = {0};
    PyObject *result = NULL;
    int64_t *at = NULL, *stack_i = NULL;
    int32_t *stack_v = NULL;
    unsigned char *seen = NULL;
    const Py_ssize_t n = PySequence_Size(nodes);
    if (PyObject_GetBuffer(order_o, &ob, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(poff_o, &fb, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(preds_o, &pb, PyBUF_SIMPLE) < 0)
        goto cleanup;
    const int32_t *order = ob.buf, *preds = pb.buf;
    const int64_t *poff = fb.buf;
    const Py_ssize_t count = ob.len / 4;
    bool fine = fb.len == (count + 1) * 8 && sources <= count && count <= n && poff[0] == 0 &&
                poff[count] == pb.len / 4;
    for (Py_ssize_t i = 0; fine && i < count; i++)
        fine = order[i] >= 0 && order[i] < n && poff[i] <= poff[i + 1];
    for (Py_ssize_t e = 0; fine && e < pb.len / 4; e++)
        fine = preds[e] >= 0 && preds[e] < n;
    if (!fine) {
        PyErr_SetString(PyExc_ValueError, "predecessor_paths: not bellman_ford_visit's arrays");
        goto cleanup;
    }
    const size_t n1 = (size_t)(n ? n : 1);
    at = PyMem_Malloc(sizeof *at * n1);
    stack_i = PyMem_Malloc(sizeof *stack_i * n1);
    stack_v = PyMem_Malloc(sizeof *stack_v * n1);
    seen = PyMem_Calloc(n1, 1);
    if (!at || !stack_i || !stack_v || !seen || !(result = PyDict_New())) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto cleanup;
    }
    for (Py_ssize_t v = 0; v < n; v++)
        at[v] = -1;
    for (Py_ssize_t i = 0; i < count; i++)
        at[order[i]] = i;
    const lgpy_item_fn get = PyList_Check(nodes) ? PyList_GetItem : PyTuple_GetItem;
    for (Py_ssize_t i = 0; i < count; i++) {
        const int32_t t = target >= 0 ? (int32_t)target : order[i];
        if (t < 0 || t >= n || at[t] < 0) {
            PyErr_SetString(PyExc_ValueError, "predecessor_paths: target is not a found vertex");
            Py_CLEAR(result);
            goto cleanup;
        }
        PyObject *path = first_path(nodes, get, t, at, poff, preds, sources, seen, stack_v,
                                    stack_i);
        const int rc = path ? PyDict_SetItem(result, get(nodes, t), path) : -1;
        Py_XDECREF(path);
        if (rc < 0) {
            Py_CLEAR(result);
            goto cleanup;
        }
        if (target >= 0)
            break;
    }

cleanup:
    PyMem_Free(at);
    PyMem_Free(stack_i);
    PyMem_Free(stack_v);
    PyMem_Free(seen);
    if (ob.obj)
        PyBuffer_Release(&ob);
    if (fb.obj)
        PyBuffer_Release(&fb);
    if (pb.obj)
        PyBuffer_Release(&pb);
    Py_DECREF(nodes);
    return result;
}

PyMethodDef lgpy_nx_bellman_ford_methods[] = {
    {"bellman_ford_visit", (PyCFunction)(void (*)(void))mod_bellman_ford_visit,
     METH_VARARGS | METH_KEYWORDS,
     "bellman_ford_visit(offsets, indices, weights, first, heuristic=True)\n--\n\n"
     "NetworkX's Bellman-Ford over an adjacency-order CSR (nx_bellman_ford.c)."},
    {"predecessor_paths", (PyCFunction)(void (*)(void))mod_predecessor_paths,
     METH_VARARGS | METH_KEYWORDS,
     "predecessor_paths(nodes, order, pred_offsets, preds, sources, target=-1)\n--\n\n"
     "The first path from the predecessor lists to each vertex (nx_bellman_ford.c)."},
    {NULL, NULL, 0, NULL},
};
