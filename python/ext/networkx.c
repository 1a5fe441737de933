/*
 * networkx.c - a NetworkX graph's adjacency read in C: adjacency_csr, the
 * fast path of Graph.from_networkx and of the NetworkX backend's
 * conversion (python/nx_libgraph).
 *
 * NetworkX keeps a graph as dicts: G._adj[u][v] is the attribute dict of
 * the edge u -> v (a multigraph: a dict {key: attribute dict} of its
 * parallel edges); an undirected graph's edge sits in both rows, a
 * self-loop in one, which is exactly libgraph's undirected CSR.  Reading
 * those dicts with PyDict_Next and the node -> index dict with one lookup
 * an entry costs tens of nanoseconds an arc, where the same loop in Python
 * (G.edges(data=...), an index lookup, an array store) costs about a
 * microsecond.
 *
 * adjacency_csr(nodes, adj, weight=None, default=1.0, multigraph=False,
 *               count_parallel=False)
 *   nodes   a list of the node keys, in the order vertex ids follow;
 *   adj     the adjacency dict (G._adj, G._succ for a directed graph);
 *   weight  None: no weights, unless count_parallel: a multigraph's arc
 *           weighs its number of parallel edges; else the attribute name:
 *           an arc weighs its value (default when missing), summed over a
 *           multigraph's parallel edges, as NetworkX's matrix conversions do.
 * returns (index, offsets, indices, weights): index the dict {node: vertex
 * id}, offsets (int64, n + 1), indices (int32) and weights (float32, or
 * None) as bytearrays, rows in adjacency order (the builder sorts them).
 * Raises TypeError for adjacency that is not dicts, KeyError for a
 * neighbour that is not a node, ValueError for a weight that is not a
 * number or a graph beyond LG_MAX_VERTICES vertices.
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
 * tree_edges(nodes, order, parents)
 *   [(parent, node), ...] in visit order for every visited node with a
 *   parent (bfs_visit's arrays): bfs_edges' result.
 * levels(nodes, order, ends)
 *   {node: layer} for bfs_visit's order and layer ends, in visit order:
 *   single_source_shortest_path_length's result.
 * Building these objects is most of those calls' time, so it is done here
 * rather than in a Python loop.
 */
#include "ext.h"

/* The node key objects themselves, by address: a neighbour key is usually
 * the very object the node was added with (NetworkX stores the keys it was
 * given, and strings and tuples are reused), and then its id is found
 * without touching the object (open addressing, a table of twice the nodes). */
typedef struct {
    size_t mask;
    PyObject **key;
    int32_t *id;
} same_keys;

static size_t address_hash(const PyObject *p)
{
    return (size_t)(((uintptr_t)p >> 4) * (uintptr_t)0x9E3779B97F4A7C15ull);
}

static int same_keys_make(same_keys *t, PyObject **keys, Py_ssize_t n)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)n)
        cap *= 2;
    t->mask = cap - 1;
    t->key = PyMem_Calloc(cap, sizeof *t->key);
    t->id = PyMem_Malloc(cap * sizeof *t->id);
    if (!t->key || !t->id) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        size_t h = address_hash(keys[i]) & t->mask;
        while (t->key[h])
            h = (h + 1) & t->mask;
        t->key[h] = keys[i];
        t->id[h] = (int32_t)i;
    }
    return 0;
}

/* nbr's id when it is one of the node key objects, else -1. */
static int64_t same_key_id(const same_keys *t, const PyObject *nbr)
{
    for (size_t h = address_hash(nbr) & t->mask; t->key[h]; h = (h + 1) & t->mask)
        if (t->key[h] == nbr)
            return t->id[h];
    return -1;
}

/* Node keys that are exactly ints within a span of at most 4 n values
 * (0..n-1 in any order, the usual labels) map to vertex ids through an
 * array: a neighbour's id is then one read of its int, where the index
 * dict's lookup hashes it, probes a table the size of the graph and
 * compares it with the node's own int (usually another object of the same
 * value): three cache misses an arc on a graph of 10^5+ nodes.  NULL (no
 * error) when the keys are not such ints. */
typedef struct {
    long low, span;
    int32_t *id; /* id[key - low], -1: no such node */
} int_keys;

static int int_keys_make(int_keys *k, PyObject **keys, Py_ssize_t n)
{
    k->id = NULL;
    if (n == 0)
        return 0;
    long low = 0, high = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_CheckExact(keys[i]))
            return 0;
        int overflow;
        const long x = PyLong_AsLongAndOverflow(keys[i], &overflow);
        if (overflow)
            return 0;
        if (i == 0 || x < low)
            low = x;
        if (i == 0 || x > high)
            high = x;
    }
    if ((unsigned long)high - (unsigned long)low >= 4 * (unsigned long)n)
        return 0;
    k->low = low;
    k->span = high - low + 1;
    if (!(k->id = PyMem_Malloc(sizeof *k->id * (size_t)k->span))) {
        PyErr_NoMemory();
        return -1;
    }
    for (long j = 0; j < k->span; j++)
        k->id[j] = -1;
    for (Py_ssize_t i = 0; i < n; i++)
        k->id[PyLong_AsLong(keys[i]) - low] = (int32_t)i;
    return 0;
}

/* The vertex id of neighbour key nbr, or -1 (no exception) when it is no
 * node: by the int array when the nodes are such ints, else by address,
 * else (another object equal to a key: True for 1, a rebuilt string) by the
 * index dict. */
static int64_t vertex_of(const same_keys *t, const int_keys *k, PyObject *index, PyObject *nbr)
{
    if (k->id && PyLong_CheckExact(nbr)) {
        int overflow;
        const long x = PyLong_AsLongAndOverflow(nbr, &overflow);
        return overflow || x < k->low || x - k->low >= k->span ? -1 : k->id[x - k->low];
    }
    const int64_t same = same_key_id(t, nbr);
    if (same >= 0)
        return same;
    PyObject *id = PyDict_GetItemWithError(index, nbr);
    return id ? (int64_t)PyLong_AsLong(id) : -1;
}

/* The weight of one edge from its attribute dict. */
static int edge_weight(PyObject *attrs, PyObject *weight, double fallback, double *w)
{
    PyObject *value = PyDict_Check(attrs) ? PyDict_GetItemWithError(attrs, weight) : NULL;
    if (!value && PyErr_Occurred())
        return -1;
    if (!value) {
        *w = fallback;
        return 0;
    }
    *w = PyFloat_AsDouble(value);
    if (*w == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "edge attribute %R: expected a number, not %s", weight,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *mod_adjacency_csr(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"nodes", "adj", "weight", "default", "multigraph", "count_parallel", NULL};
    PyObject *nodes_o, *adj, *weight = Py_None;
    double fallback = 1.0;
    int multigraph = 0, count_parallel = 0;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO!|Odpp:adjacency_csr", kw, &nodes_o,
                                     &PyDict_Type, &adj, &weight, &fallback, &multigraph,
                                     &count_parallel))
        return NULL;
    const bool weighted = weight != Py_None || (multigraph && count_parallel);
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence of node keys");
    if (!nodes)
        return NULL;
    PyObject *index = NULL, *offsets = NULL, *indices = NULL, *weights = NULL, *result = NULL;
    PyObject **rows = NULL;
    int_keys ik = {0, 0, NULL};
    same_keys sk = {0, NULL, NULL};
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(nodes);
    PyObject **keys = PySequence_Fast_ITEMS(nodes);
    if (n > (Py_ssize_t)LG_MAX_VERTICES) {
        PyErr_Format(PyExc_ValueError, "the graph has %zd nodes, more than libgraph's %lld", n,
                     (long long)LG_MAX_VERTICES);
        goto cleanup;
    }
    if (!(index = PyDict_New()) || !(rows = PyMem_Malloc(sizeof *rows * (size_t)(n ? n : 1))))
        goto cleanup;
    if (!(offsets = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)sizeof(int64_t) * (n + 1))))
        goto cleanup;
    int64_t *off = (int64_t *)PyByteArray_AS_STRING(offsets);
    off[0] = 0;
    /* pass 1: the index, each row's dict, its length */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *id = PyLong_FromSsize_t(i);
        if (!id || PyDict_SetItem(index, keys[i], id) < 0) {
            Py_XDECREF(id);
            goto cleanup;
        }
        Py_DECREF(id);
        rows[i] = PyDict_GetItemWithError(adj, keys[i]); /* borrowed: adj holds it */
        if (!rows[i]) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_KeyError, "node %R has no adjacency entry", keys[i]);
            goto cleanup;
        }
        if (!PyDict_Check(rows[i])) {
            PyErr_Format(PyExc_TypeError, "adjacency of node %R: expected a dict, not %s", keys[i],
                         Py_TYPE(rows[i])->tp_name);
            goto cleanup;
        }
        off[i + 1] = off[i] + PyDict_GET_SIZE(rows[i]);
    }
    if (PyDict_GET_SIZE(index) != n) {
        PyErr_SetString(PyExc_ValueError, "nodes: a node key appears twice");
        goto cleanup;
    }
    if (same_keys_make(&sk, keys, n) < 0 || int_keys_make(&ik, keys, n) < 0)
        goto cleanup;
    const int64_t m = off[n];
    if (!(indices = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(sizeof(int32_t) * m))))
        goto cleanup;
    if (weighted &&
        !(weights = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(sizeof(float) * m))))
        goto cleanup;
    int32_t *idx = (int32_t *)PyByteArray_AS_STRING(indices);
    float *w = weighted ? (float *)PyByteArray_AS_STRING(weights) : NULL;
    /* pass 2: the arcs */
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t pos = 0;
        PyObject *nbr, *data;
        int64_t e = off[i];
#if defined(__GNUC__)
        /* the row's key (and attribute) objects asked for at once, so that
         * their cache misses overlap rather than come one an arc */
        for (Py_ssize_t p = 0; PyDict_Next(rows[i], &p, &nbr, &data);) {
            __builtin_prefetch(nbr);
            if (w)
                __builtin_prefetch(data);
        }
#endif
        while (PyDict_Next(rows[i], &pos, &nbr, &data)) {
            const int64_t id = vertex_of(&sk, &ik, index, nbr);
            if (id < 0) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_KeyError, "neighbour %R of node %R is not a node", nbr,
                                 keys[i]);
                goto cleanup;
            }
            idx[e] = (int32_t)id;
            if (w) {
                double sum = 0.0;
                if (!multigraph) {
                    if (edge_weight(data, weight, fallback, &sum) < 0)
                        goto cleanup;
                } else if (!PyDict_Check(data)) {
                    PyErr_Format(PyExc_TypeError,
                                 "multigraph edge %R-%R: expected a dict of keys, not %s", keys[i],
                                 nbr, Py_TYPE(data)->tp_name);
                    goto cleanup;
                } else if (weight == Py_None) {
                    sum = (double)PyDict_GET_SIZE(data);
                } else {
                    Py_ssize_t kpos = 0;
                    PyObject *key, *attrs;
                    while (PyDict_Next(data, &kpos, &key, &attrs)) {
                        double x;
                        if (edge_weight(attrs, weight, fallback, &x) < 0)
                            goto cleanup;
                        sum += x;
                    }
                }
                w[e] = (float)sum;
            }
            e++;
        }
        if (e != off[i + 1]) {
            PyErr_Format(PyExc_RuntimeError, "the adjacency of node %R changed while read",
                         keys[i]);
            goto cleanup;
        }
    }
    result = PyTuple_Pack(4, index, offsets, indices, weights ? weights : Py_None);

cleanup:
    PyMem_Free(rows);
    PyMem_Free(ik.id);
    PyMem_Free(sk.key);
    PyMem_Free(sk.id);
    Py_XDECREF(index);
    Py_XDECREF(offsets);
    Py_XDECREF(indices);
    Py_XDECREF(weights);
    Py_DECREF(nodes);
    return result;
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
    int64_t begin = 0, depth = 0;
    j->ends[j->layers++] = j->count;
    while (begin < j->count && (j->depth_limit < 0 || depth < j->depth_limit)) {
        const int64_t end = j->count;
        for (int64_t i = begin; i < end; i++) {
            const int32_t u = j->order[i];
            for (int64_t e = j->off[u]; e < j->off[u + 1]; e++) {
                const int32_t v = j->idx[e];
                if (v < 0 || v >= j->n) {
                    j->bad = 1;
                    return;
                }
                if (!j->seen[v]) {
                    j->seen[v] = 1;
                    j->order[j->count] = v;
                    j->parent[j->count++] = u;
                }
            }
        }
        if (j->count == end)
            break;
        j->ends[j->layers++] = j->count;
        begin = end;
        depth++;
    }
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
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(first); i++) {
        const long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(first, i));
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
        PyList_SET_ITEM(ends, (Py_ssize_t)i, x);
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
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(nodes);
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
        if (PySet_Add(sets[l], PySequence_Fast_GET_ITEM(nodes, i)) < 0) {
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

static PyObject *mod_tree_edges(PyObject *module, PyObject *args)
{
    PyObject *nodes_o, *order_o, *parents_o;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOO:tree_edges", &nodes_o, &order_o, &parents_o))
        return NULL;
    PyObject *nodes = PySequence_Fast(nodes_o, "nodes: expected a sequence");
    if (!nodes)
        return NULL;
    Py_buffer ob = {0}, pb = {0};
    PyObject *result = NULL;
    if (PyObject_GetBuffer(order_o, &ob, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(parents_o, &pb, PyBUF_SIMPLE) < 0)
        goto cleanup;
    const int32_t *order = ob.buf, *parent = pb.buf;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(nodes), count = ob.len / 4;
    if (pb.len != ob.len) {
        PyErr_SetString(PyExc_ValueError, "tree_edges: one parent a visited node");
        goto cleanup;
    }
    if (!(result = PyList_New(0)))
        goto cleanup;
    for (Py_ssize_t k = 0; k < count; k++) {
        if (parent[k] < 0)
            continue;
        if (order[k] >= n || parent[k] >= n || order[k] < 0) {
            PyErr_SetString(PyExc_ValueError, "tree_edges: an entry is not a node");
            Py_CLEAR(result);
            goto cleanup;
        }
        PyObject *edge = PyTuple_Pack(2, PySequence_Fast_GET_ITEM(nodes, parent[k]),
                                      PySequence_Fast_GET_ITEM(nodes, order[k]));
        if (!edge || PyList_Append(result, edge) < 0) {
            Py_XDECREF(edge);
            Py_CLEAR(result);
            goto cleanup;
        }
        Py_DECREF(edge);
    }

cleanup:
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
    PyObject *result = NULL;
    if (!ends || PyObject_GetBuffer(order_o, &ob, PyBUF_SIMPLE) < 0)
        goto cleanup;
    const int32_t *order = ob.buf;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(nodes), count = ob.len / 4;
    if (!(result = PyDict_New()))
        goto cleanup;
    Py_ssize_t k = 0;
    for (Py_ssize_t layer = 0; layer < PySequence_Fast_GET_SIZE(ends); layer++) {
        const Py_ssize_t end = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(ends, layer));
        if (end == -1 && PyErr_Occurred())
            goto fail;
        PyObject *level = PyLong_FromSsize_t(layer);
        if (!level)
            goto fail;
        for (; k < end && k < count; k++) {
            if (order[k] < 0 || order[k] >= n) {
                Py_DECREF(level);
                PyErr_SetString(PyExc_ValueError, "levels: an order entry is not a node");
                goto fail;
            }
            if (PyDict_SetItem(result, PySequence_Fast_GET_ITEM(nodes, order[k]), level) < 0) {
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
    if (ob.obj)
        PyBuffer_Release(&ob);
    Py_XDECREF(ends);
    Py_DECREF(nodes);
    return result;
}

PyMethodDef lgpy_networkx_methods[] = {
    {"adjacency_csr", (PyCFunction)(void (*)(void))mod_adjacency_csr, METH_VARARGS | METH_KEYWORDS,
     "adjacency_csr(nodes, adj, weight=None, default=1.0, multigraph=False, "
     "count_parallel=False)\n--\n\nA NetworkX adjacency dict as CSR arrays (networkx.c)."},
    {"bfs_visit", (PyCFunction)(void (*)(void))mod_bfs_visit, METH_VARARGS | METH_KEYWORDS,
     "bfs_visit(offsets, indices, first, depth_limit=-1)\n--\n\nNetworkX's breadth-first "
     "visit order over an adjacency-order CSR (networkx.c)."},
    {"components", mod_components, METH_VARARGS,
     "components(nodes, labels)\n--\n\nSets of nodes by label, in first-node order "
     "(networkx.c)."},
    {"tree_edges", mod_tree_edges, METH_VARARGS,
     "tree_edges(nodes, order, parents)\n--\n\n[(parent, node), ...] in visit order "
     "(networkx.c)."},
    {"levels", mod_levels, METH_VARARGS,
     "levels(nodes, order, ends)\n--\n\n{node: layer} in visit order (networkx.c)."},
    {NULL, NULL, 0, NULL},
};
