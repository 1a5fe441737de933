/*
 * nx_bidirectional.c - NetworkX's two searches between one pair of vertices
 * in C, for the NetworkX backend and libgraph.shortest_path:
 *
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

#include <string.h>

/* NetworkX's own heap (heapq): an entry a push, a stale one skipped when it
 * pops, and each pop, stale or not, one side's turn. */
static void heap_push(lgpy_heap_item *h, int64_t *len, lgpy_heap_item x)
{
    int64_t i = (*len)++;
    while (i > 0 && lgpy_heap_before(&x, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static lgpy_heap_item heap_pop(lgpy_heap_item *h, int64_t *len)
{
    const lgpy_heap_item top = h[0], x = h[--*len];
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= *len)
            break;
        if (c + 1 < *len && lgpy_heap_before(&h[c + 1], &h[c]))
            c++;
        if (!lgpy_heap_before(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*len > 0)
        h[i] = x;
    return top;
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

enum { SEEN = 1, SETTLED = 2 };

/* One side of the search: 0 grows from the source over the out-arcs, 1
 * from the target over the in-arcs. */
typedef struct {
    const lgpy_csr_buffers *rows;
    lgpy_heap_item *heap;
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
        const lgpy_heap_item it = heap_pop(me->heap, &me->len);
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
                heap_push(me->heap, &me->len, (lgpy_heap_item){d, j->pushes++, w});
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
        heap_push(s->heap, &s->len, (lgpy_heap_item){0.0, j.pushes++, ends[d]});
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

PyMethodDef lgpy_nx_bidirectional_methods[] = {
    {"bidirectional_visit", mod_bidirectional_visit, METH_VARARGS,
     "bidirectional_visit(offsets, indices, in_offsets, in_indices, source, target, /)\n--\n\n"
     "NetworkX's bidirectional breadth-first search and its path (nx_bidirectional.c)."},
    {"bidirectional_dijkstra", (PyCFunction)(void (*)(void))mod_bidirectional_dijkstra,
     METH_VARARGS | METH_KEYWORDS,
     "bidirectional_dijkstra(offsets, indices, weights, in_offsets, in_indices, in_weights, "
     "source, target, snapshot=False)\n--\n\n"
     "NetworkX's bidirectional Dijkstra: (distance, path) or None (nx_bidirectional.c)."},
    {NULL, NULL, 0, NULL},
};
