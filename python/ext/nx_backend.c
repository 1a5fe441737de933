/*
 * nx_backend.c - what the NetworkX backend (python/nx_libgraph) does in C
 * besides reading a graph (networkx.c): NetworkX's breadth-first visit, and
 * the Python objects its results are made of.
 *
 * bfs_visit(offsets, indices, first, depth_limit=-1)
 *   the breadth-first visit NetworkX's traversals make (generic_bfs_edges,
 *   bfs_layers, _single_shortest_path_length), over a CSR whose rows keep
 *   the adjacency order (adjacency_csr's arrays, not the sorted graph): the
 *   first layer is the vertex ids `first` in that order, each later layer
 *   the unseen neighbours of the one before, parent by parent and in each
 *   parent's adjacency order, for at most depth_limit layers after the first
 *   (-1: all).  Returns (order, parents, ends): the vertices in visit order
 *   and each one's discoverer (-1 for the first layer) as int32 bytes, and
 *   the end of each layer in order (a list).  The visit runs with the GIL
 *   released.  This is the order NetworkX's results are in; its distances
 *   are libgraph's BFS distances.
 *
 * components(nodes, labels)
 *   the sets of nodes with one label each (labels: int32, one a node, each
 *   a node's position, as libgraph's smallest-id labels are), in the order
 *   of each one's first node: connected_components' result.
 * tree_edges(nodes, order, parents, form="edges")
 *   [(parent, node), ...] in visit order for every visited node with a
 *   parent (bfs_visit's arrays): bfs_edges' result; form "reversed":
 *   [(node, parent), ...], bfs_predecessors'; form "successors":
 *   [(parent, [its children]), ...], bfs_successors'.
 * levels(nodes, order, ends)
 *   {node: layer} for bfs_visit's order and layer ends, in visit order:
 *   single_source_shortest_path_length's result.
 * take(nodes, order, begin, end)
 *   [nodes[v] for v in order[begin:end]]: one of bfs_layers' layers.
 * Building these objects is most of those calls' time, so it is done here
 * rather than in a Python loop.
 */
#include "ext.h"

/* Item i of a PySequence_Fast result (a list or a tuple), borrowed: the
 * list's or the tuple's getter, chosen once a call (the limited API has no
 * macro for either).  NULL with IndexError when i is out of range (Python
 * code run meanwhile shortened the list). */
typedef PyObject *(*node_get)(PyObject *, Py_ssize_t);
static node_get item_getter(PyObject *fast)
{
    return PyList_Check(fast) ? PyList_GetItem : PyTuple_GetItem;
}

/* The visit of bfs_visit, on C arrays only (the GIL released). */
typedef struct {
    const int64_t *off;
    const int32_t *idx;
    int64_t n, depth_limit, count, layers;
    unsigned char *seen;
    int32_t *order, *parent;
    int64_t *ends; /* n + 1 at most */
    int bad;       /* an index outside [0, n) */
} bfs_job;

static void bfs_run(bfs_job *j)
{
    /* locals, not j's fields: the stores into seen (bytes) may alias them */
    const int64_t *off = j->off, n = j->n, limit = j->depth_limit;
    const int32_t *idx = j->idx;
    unsigned char *seen = j->seen;
    int32_t *order = j->order, *parent = j->parent;
    int64_t begin = 0, depth = 0, count = j->count;
    j->ends[j->layers++] = count;
    while (begin < count && (limit < 0 || depth < limit)) {
        const int64_t end = count;
        for (int64_t i = begin; i < end; i++) {
            const int32_t u = order[i];
            /* the rows are visited in an order unrelated to memory: fetch
               the offsets and the row's start ahead */
            if (i + 16 < end)
                __builtin_prefetch(&off[order[i + 16]]);
            if (i + 8 < end)
                __builtin_prefetch(&idx[off[order[i + 8]]]);
            for (int64_t e = off[u]; e < off[u + 1]; e++) {
                const int32_t v = idx[e];
                if (v < 0 || v >= n) {
                    j->bad = 1;
                    j->count = count;
                    return;
                }
                if (!seen[v]) {
                    seen[v] = 1;
                    order[count] = v;
                    parent[count++] = u;
                }
            }
        }
        if (count == end)
            break;
        j->ends[j->layers++] = count;
        begin = end;
        depth++;
    }
    j->count = count;
}

static PyObject *mod_bfs_visit(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"offsets", "indices", "first", "depth_limit", NULL};
    PyObject *off_o, *idx_o, *first_o;
    long long depth_limit = -1;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|L:bfs_visit", kw, &off_o, &idx_o, &first_o,
                                     &depth_limit))
        return NULL;
    Py_buffer off = {0}, idx = {0};
    PyObject *first = NULL, *result = NULL, *order = NULL, *parents = NULL, *ends = NULL;
    bfs_job j = {0};
    if (PyObject_GetBuffer(off_o, &off, PyBUF_SIMPLE) < 0)
        return NULL;
    if (PyObject_GetBuffer(idx_o, &idx, PyBUF_SIMPLE) < 0)
        goto cleanup;
    j.n = off.len / (Py_ssize_t)sizeof(int64_t) - 1;
    j.off = off.buf;
    j.idx = idx.buf;
    j.depth_limit = depth_limit;
    if (j.n < 0 || off.len % sizeof(int64_t) || idx.len % sizeof(int32_t) || j.off[0] != 0 ||
        j.off[j.n] != (int64_t)(idx.len / (Py_ssize_t)sizeof(int32_t))) {
        PyErr_SetString(PyExc_ValueError, "bfs_visit: offsets and indices are not a CSR");
        goto cleanup;
    }
    if (!(first = PySequence_Fast(first_o, "first: expected a sequence of vertex ids")))
        goto cleanup;
    j.seen = PyMem_Calloc((size_t)(j.n ? j.n : 1), 1);
    j.order = PyMem_Malloc(sizeof *j.order * (size_t)(j.n ? j.n : 1));
    j.parent = PyMem_Malloc(sizeof *j.parent * (size_t)(j.n ? j.n : 1));
    j.ends = PyMem_Malloc(sizeof *j.ends * (size_t)(j.n + 1));
    if (!j.seen || !j.order || !j.parent || !j.ends) {
        PyErr_NoMemory();
        goto cleanup;
    }
    const node_get first_item = item_getter(first);
    for (Py_ssize_t i = 0; i < PySequence_Size(first); i++) {
        PyObject *x = first_item(first, i);
        const long long v = x ? PyLong_AsLongLong(x) : -1;
        if (v == -1 && PyErr_Occurred())
            goto cleanup;
        if (v < 0 || v >= j.n) {
            PyErr_Format(PyExc_ValueError, "bfs_visit: vertex %lld is not in [0, %lld)", v,
                         (long long)j.n);
            goto cleanup;
        }
        if (!j.seen[v]) {
            j.seen[v] = 1;
            j.order[j.count] = (int32_t)v;
            j.parent[j.count++] = -1;
        }
    }
    PyThreadState *saved = PyEval_SaveThread();
    bfs_run(&j);
    PyEval_RestoreThread(saved);
    if (j.bad) {
        PyErr_SetString(PyExc_ValueError, "bfs_visit: an index is not a vertex");
        goto cleanup;
    }
    order =
        PyBytes_FromStringAndSize((const char *)j.order, (Py_ssize_t)(sizeof(int32_t) * j.count));
    parents =
        PyBytes_FromStringAndSize((const char *)j.parent, (Py_ssize_t)(sizeof(int32_t) * j.count));
    if (!order || !parents || !(ends = PyList_New((Py_ssize_t)j.layers)))
        goto cleanup;
    for (int64_t i = 0; i < j.layers; i++) {
        PyObject *x = PyLong_FromLongLong(j.ends[i]);
        if (!x)
            goto cleanup;
        PyList_SetItem(ends, (Py_ssize_t)i, x); /* takes x; i is in range */
    }
    result = PyTuple_Pack(3, order, parents, ends);

cleanup:
    PyMem_Free(j.seen);
    PyMem_Free(j.order);
    PyMem_Free(j.parent);
    PyMem_Free(j.ends);
    Py_XDECREF(order);
    Py_XDECREF(parents);
    Py_XDECREF(ends);
    Py_XDECREF(first);
    if (idx.obj)
        PyBuffer_Release(&idx);
    PyBuffer_Release(&off);
    return result;
}

/* The results below take node objects in visit order, which is unrelated
 * to where the objects lie in memory.  gather_nodes first reads the nodes'
 * list entries in one pass of independent reads, which the processor
 * overlaps (read one at a time as a result is built, each would be a cache
 * miss of its own: the limited API has no pointer to a list's entries to
 * fetch ahead); the loops that build the results then fetch each node
 * object a few iterations ahead (docs/decisions/networkx-backend.md).  PREFETCH_NODE is a
 * macro: GCC deletes calls of a function whose only effect is a prefetch. */
#define PREFETCH_NODE(items, count, k)                                                             \
    do {                                                                                           \
        if ((k) + 8 < (count) && (items)[(k) + 8])                                                 \
            __builtin_prefetch((items)[(k) + 8]);                                                  \
    } while (0)

/* gather_nodes' array: held, its references are let go of too. */
static void release_nodes(PyObject **items, Py_ssize_t count, bool held)
{
    if (!items)
        return;
    for (Py_ssize_t k = 0; held && k < count; k++)
        Py_XDECREF(items[k]);
    PyMem_Free(items);
}

/* nodes[at[k]] for k in [0, count) (nodes: a PySequence_Fast list or tuple
 * of n items), NULL where skip (NULL: none) has skip[k] < 0; hold: as new
 * references, else borrowed, which only a caller that runs no Python code
 * until it is done with them may take (Python code may change the list).
 * NULL with ValueError ("WHAT is not a node") for a position outside
 * [0, n), or MemoryError. */
static PyObject **gather_nodes(PyObject *nodes, Py_ssize_t n, const int32_t *at,
                               const int32_t *skip, Py_ssize_t count, bool hold, const char *what)
{
    PyObject **items = PyMem_Malloc(sizeof *items * (size_t)(count ? count : 1));
    if (!items) {
        PyErr_NoMemory();
        return NULL;
    }
    const node_get get = item_getter(nodes);
    for (Py_ssize_t k = 0; k < count; k++) {
        items[k] = NULL;
        if (skip && skip[k] < 0)
            continue;
        if (at[k] < 0 || at[k] >= n) {
            PyErr_Format(PyExc_ValueError, "%s is not a node", what);
            release_nodes(items, k, hold);
            return NULL;
        }
        items[k] = get(nodes, at[k]); /* in range: no Python code has run since n was read */
        if (hold)
            Py_INCREF(items[k]);
    }
    return items;
}

static PyObject *mod_components(PyObject *module, PyObject *args)
{
    PyObject *nodes_o, *labels_o;
    (void)module;
    if (!PyArg_ParseTuple(args, "OO:components", &nodes_o, &labels_o))
        return NULL;
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence");
    if (!nodes)
        return NULL;
    Py_buffer lb = {0};
    PyObject *result = NULL, **sets = NULL;
    const Py_ssize_t n = PySequence_Size(nodes);
    const node_get get = item_getter(nodes);
    if (PyObject_GetBuffer(labels_o, &lb, PyBUF_SIMPLE) < 0)
        goto cleanup;
    if (lb.len != (Py_ssize_t)sizeof(int32_t) * n) {
        PyErr_SetString(PyExc_ValueError, "components: one int32 label a node");
        goto cleanup;
    }
    const int32_t *label = lb.buf;
    if (!(sets = PyMem_Calloc((size_t)(n ? n : 1), sizeof *sets)) || !(result = PyList_New(0)))
        goto cleanup;
    for (Py_ssize_t i = 0; i < n; i++) {
        const int32_t l = label[i];
        if (l < 0 || l >= n) {
            PyErr_SetString(PyExc_ValueError, "components: a label is not a node position");
            Py_CLEAR(result);
            goto cleanup;
        }
        if (!sets[l]) {
            if (!(sets[l] = PySet_New(NULL)) || PyList_Append(result, sets[l]) < 0) {
                Py_CLEAR(result);
                goto cleanup;
            }
            Py_DECREF(sets[l]); /* the list holds it */
        }
        PyObject *node = get(nodes, i);
        if (!node || PySet_Add(sets[l], node) < 0) {
            Py_CLEAR(result);
            goto cleanup;
        }
    }

cleanup:
    PyMem_Free(sets);
    if (lb.obj)
        PyBuffer_Release(&lb);
    Py_DECREF(nodes);
    return result;
}

/* Appends (a, b) to list: 0, or -1 with an exception. */
static int append_pair(PyObject *list, PyObject *a, PyObject *b)
{
    PyObject *pair = PyTuple_Pack(2, a, b);
    const int rc = pair ? PyList_Append(list, pair) : -1;
    Py_XDECREF(pair);
    return rc;
}

static PyObject *mod_tree_edges(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"nodes", "order", "parents", "form", NULL};
    PyObject *nodes_o, *order_o, *parents_o;
    const char *form = "edges";
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|s:tree_edges", kw, &nodes_o, &order_o,
                                     &parents_o, &form))
        return NULL;
    const int child_first = !strcmp(form, "reversed"), grouped = !strcmp(form, "successors");
    if (!child_first && !grouped && strcmp(form, "edges")) {
        PyErr_Format(PyExc_ValueError,
                     "tree_edges: form is 'edges', 'reversed' or 'successors', not '%s'", form);
        return NULL;
    }
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence");
    if (!nodes)
        return NULL;
    Py_buffer ob = {0}, pb = {0};
    PyObject *result = NULL, *children = NULL, **kids = NULL, **dads = NULL;
    /* The nodes are borrowed: the loop runs no Python code but what a
     * collection would (finalizers), so the collector is paused until the
     * result is built (which also spares the collections that making 10^5
     * containers would start). */
    const int collecting = PyGC_Disable();
    if (PyObject_GetBuffer(order_o, &ob, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(parents_o, &pb, PyBUF_SIMPLE) < 0)
        goto cleanup;
    const int32_t *order = ob.buf, *parent = pb.buf;
    const Py_ssize_t n = PySequence_Size(nodes), count = ob.len / 4;
    if (pb.len != ob.len) {
        PyErr_SetString(PyExc_ValueError, "tree_edges: one parent a visited node");
        goto cleanup;
    }
    if (!(kids = gather_nodes(nodes, n, order, parent, count, false, "tree_edges: an entry")) ||
        !(dads = gather_nodes(nodes, n, parent, parent, count, false, "tree_edges: an entry")) ||
        !(result = PyList_New(0)))
        goto cleanup;
    for (Py_ssize_t k = 0; k < count; k++) {
        PREFETCH_NODE(kids, count, k);
        PREFETCH_NODE(dads, count, k);
        if (parent[k] < 0)
            continue;
        PyObject *p = dads[k], *c = kids[k];
        if (!grouped) {
            if ((child_first ? append_pair(result, c, p) : append_pair(result, p, c)) < 0)
                goto fail;
            continue;
        }
        /* a parent's children follow one another in visit order */
        if (!children || parent[k] != parent[k - 1]) {
            Py_XDECREF(children);
            if (!(children = PyList_New(0)) || append_pair(result, p, children) < 0)
                goto fail;
        }
        if (PyList_Append(children, c) < 0)
            goto fail;
    }
    goto cleanup;
fail:
    Py_CLEAR(result);
cleanup:
    release_nodes(kids, 0, false);
    release_nodes(dads, 0, false);
    if (collecting)
        PyGC_Enable();
    Py_XDECREF(children);
    if (ob.obj)
        PyBuffer_Release(&ob);
    if (pb.obj)
        PyBuffer_Release(&pb);
    Py_DECREF(nodes);
    return result;
}

static PyObject *mod_levels(PyObject *module, PyObject *args)
{
    PyObject *nodes_o, *order_o, *ends_o;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOO:levels", &nodes_o, &order_o, &ends_o))
        return NULL;
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence");
    if (!nodes)
        return NULL;
    PyObject *ends = PySequence_Fast(ends_o, "ends: expected a sequence");
    Py_buffer ob = {0};
    PyObject *result = NULL, **items = NULL;
    Py_ssize_t count = 0;
    if (!ends || PyObject_GetBuffer(order_o, &ob, PyBUF_SIMPLE) < 0)
        goto cleanup;
    const int32_t *order = ob.buf;
    const Py_ssize_t n = PySequence_Size(nodes);
    count = ob.len / 4;
    const node_get get_end = item_getter(ends);
    /* held: a node's hash and __eq__ may be Python code that changes the list */
    if (!(items = gather_nodes(nodes, n, order, NULL, count, true, "levels: an order entry")) ||
        !(result = PyDict_New()))
        goto cleanup;
    Py_ssize_t k = 0;
    for (Py_ssize_t layer = 0; layer < PySequence_Size(ends); layer++) {
        PyObject *end_o = get_end(ends, layer);
        const Py_ssize_t end = end_o ? PyLong_AsSsize_t(end_o) : -1;
        if (end == -1 && PyErr_Occurred())
            goto fail;
        PyObject *level = PyLong_FromSsize_t(layer);
        if (!level)
            goto fail;
        for (; k < end && k < count; k++) {
            PREFETCH_NODE(items, count, k);
            const int rc = PyDict_SetItem(result, items[k], level);
            Py_CLEAR(items[k]); /* the dict holds it; still in the cache */
            if (rc < 0) {
                Py_DECREF(level);
                goto fail;
            }
        }
        Py_DECREF(level);
    }
    goto cleanup;
fail:
    Py_CLEAR(result);
cleanup:
    release_nodes(items, count, true);
    if (ob.obj)
        PyBuffer_Release(&ob);
    Py_XDECREF(ends);
    Py_DECREF(nodes);
    return result;
}

static PyObject *mod_take(PyObject *module, PyObject *args)
{
    PyObject *nodes_o, *order_o;
    Py_ssize_t begin, end;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOnn:take", &nodes_o, &order_o, &begin, &end))
        return NULL;
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence");
    if (!nodes)
        return NULL;
    Py_buffer ob = {0};
    PyObject *result = NULL, **items = NULL;
    if (PyObject_GetBuffer(order_o, &ob, PyBUF_SIMPLE) < 0)
        goto cleanup;
    const int32_t *order = ob.buf;
    const Py_ssize_t n = PySequence_Size(nodes), count = ob.len / 4;
    if (begin < 0 || end < begin || end > count) {
        PyErr_SetString(PyExc_ValueError, "take: [begin, end) is not within the order");
        goto cleanup;
    }
    /* the nodes borrowed: nothing between gather_nodes and the end runs Python code */
    if (!(result = PyList_New(end - begin)) ||
        !(items = gather_nodes(nodes, n, order + begin, NULL, end - begin, false,
                               "take: an order entry"))) {
        Py_CLEAR(result);
        goto cleanup;
    }
    for (Py_ssize_t k = 0; k < end - begin; k++) {
        PREFETCH_NODE(items, end - begin, k);
        PyList_SetItem(result, k, Py_NewRef(items[k])); /* takes the new reference */
    }

cleanup:
    release_nodes(items, 0, false);
    if (ob.obj)
        PyBuffer_Release(&ob);
    Py_DECREF(nodes);
    return result;
}

PyMethodDef lgpy_nx_backend_methods[] = {
    {"bfs_visit", (PyCFunction)(void (*)(void))mod_bfs_visit, METH_VARARGS | METH_KEYWORDS,
     "bfs_visit(offsets, indices, first, depth_limit=-1)\n--\n\nNetworkX's breadth-first "
     "visit order over an adjacency-order CSR (nx_backend.c)."},
    {"components", mod_components, METH_VARARGS,
     "components(nodes, labels, /)\n--\n\nSets of nodes by label, in first-node order "
     "(nx_backend.c)."},
    {"tree_edges", (PyCFunction)(void (*)(void))mod_tree_edges, METH_VARARGS | METH_KEYWORDS,
     "tree_edges(nodes, order, parents, form='edges')\n--\n\n[(parent, node), ...] in visit "
     "order, or [(node, parent), ...], or [(parent, [children]), ...] "
     "(nx_backend.c)."},
    {"levels", mod_levels, METH_VARARGS,
     "levels(nodes, order, ends, /)\n--\n\n{node: layer} in visit order (nx_backend.c)."},
    {"take", mod_take, METH_VARARGS,
     "take(nodes, order, begin, end, /)\n--\n\n[nodes[v] for v in order[begin:end]] "
     "(nx_backend.c)."},
    {NULL, NULL, 0, NULL},
};
