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
 *               count_parallel=False, strict=False, exact=False, wide=False,
 *               ints=False)
 *   nodes   a list of the node keys, in the order vertex ids follow;
 *   adj     the adjacency dict (G._adj, G._succ for a directed graph);
 *   weight  None: no weights, unless count_parallel: a multigraph's arc
 *           weighs its number of parallel edges; else the attribute name:
 *           an arc weighs its value (default when missing), summed over a
 *           multigraph's parallel edges, as NetworkX's matrix conversions do;
 *   strict  refuse, besides what float32 cannot hold, a weight that libgraph
 *           cannot take as NetworkX gives it: an edge's weight that is
 *           negative or NaN, an arc's that is not finite or is below
 *           float32's normal range (where float32 keeps fewer digits);
 *   exact   strict, and refuse a weight that float32 would round (a path's
 *           length would then differ from NetworkX's sum of the given ones);
 *   wide    weights as float64, exactly as NetworkX holds them: only NaN and
 *           infinite weights are refused (and negative ones when strict);
 *   ints    (with wide) also say whether every weight is a Python int (a
 *           missing one: an integral default, as NetworkX's 1) of at most
 *           2^22 in size, so that NetworkX's sums along paths are ints and
 *           a double's sums of them exact.
 * returns (index, offsets, indices, weights): index the dict {node: vertex
 * id}, offsets (int64, n + 1), indices (int32) and weights (float32, or
 * float64 when wide, or None) as bytearrays, rows in adjacency order (the
 * builder sorts them); with ints, that flag as a fifth.
 * Raises TypeError for adjacency that is not dicts, KeyError for a
 * neighbour that is not a node, ValueError for a weight that is not a
 * number (or that strict refuses) or a graph beyond LG_MAX_VERTICES
 * vertices.
 *
 * The traversals and the result objects of the backend are nx_backend.c's.
 */
#include "ext.h"

#include <float.h>
#include <math.h>

/* The largest int weight whose sums along any path (at most LG_MAX_VERTICES
 * arcs) stay exact in a double: 2^53 / 2^31. */
#define LGPY_INT_WEIGHT_MAX 4194304.0

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

/* The vertex id of neighbour key nbr by the int array when the nodes are
 * such ints, else by address; -1 when neither knows it.  Runs no Python
 * code. */
static int64_t known_vertex(const same_keys *t, const int_keys *k, PyObject *nbr)
{
    if (k->id && PyLong_CheckExact(nbr)) {
        int overflow;
        const long x = PyLong_AsLongAndOverflow(nbr, &overflow);
        return overflow || x < k->low || x - k->low >= k->span ? -1 : k->id[x - k->low];
    }
    return same_key_id(t, nbr);
}

/* Why an arc's weight v (an edge's, or a multigraph's parallel edges' sum)
 * is not one the NetworkX backend takes exactly (adjacency_csr's strict),
 * or NULL: libgraph's graphs take finite weights >= 0, kept as float32,
 * whose precision drops below its normal range. */
static const char *strict_trouble(double v, bool exact)
{
    return isnan(v)                  ? "is not a number"
           : v < 0.0                 ? "is negative"
           : isinf(v)                ? "is infinite"
           : v != 0.0 && v < FLT_MIN ? "is below float32's normal range"
           : exact && (double)(float)v != v
               ? "is not exactly a float32 (distances would differ from NetworkX's)"
               : lgpy_float32_trouble(v);
}

/* Why an arc's weight v cannot be a float64 weight (adjacency_csr's wide;
 * strict: nor a negative one), or NULL. */
static const char *wide_trouble(double v, bool strict)
{
    return isnan(v) ? "is not a number" : isinf(v) ? "is infinite"
           : strict && v < 0.0 ? "is negative" : NULL;
}

/* The weight of one edge from its attribute dict; *ints cleared when it is
 * not a Python int (NetworkX's sums of ints are ints). */
static int edge_weight(PyObject *attrs, PyObject *weight, double fallback, double *w, int *ints)
{
    PyObject *value = PyDict_Check(attrs) ? PyDict_GetItemWithError(attrs, weight) : NULL;
    if (!value && PyErr_Occurred())
        return -1;
    if (!value) {
        *w = fallback;
        return 0;
    }
    if (!PyLong_Check(value))
        *ints = 0;
    *w = PyFloat_AsDouble(value);
    if (*w == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "edge attribute %R: expected a number, not %s", weight,
                     lgpy_type_name(value));
        return -1;
    }
    return 0;
}

/* The weight of one arc from its data (a multigraph's: the dict of its
 * parallel edges, their weights summed): 0, or -1 with an exception. */
static int arc_weight(PyObject *data, PyObject *node, PyObject *nbr, PyObject *weight,
                      double fallback, int multigraph, int strict, double *sum, int *ints)
{
    *sum = 0.0;
    if (!multigraph)
        return edge_weight(data, weight, fallback, sum, ints);
    if (!PyDict_Check(data)) {
        PyErr_Format(PyExc_TypeError, "multigraph edge %R-%R: expected a dict of keys, not %s",
                     node, nbr, lgpy_type_name(data));
        return -1;
    }
    if (weight == Py_None) {
        *sum = (double)PyDict_Size(data);
        return 0;
    }
    Py_ssize_t kpos = 0;
    PyObject *key, *attrs;
    while (PyDict_Next(data, &kpos, &key, &attrs)) {
        double x;
        Py_INCREF(attrs);
        const int ok = edge_weight(attrs, weight, fallback, &x, ints);
        Py_DECREF(attrs);
        if (ok < 0)
            return -1;
        if (strict && (x < 0.0 || isnan(x))) { /* a sum would hide it */
            char text[32];
            snprintf(text, sizeof text, "%.17g", x);
            PyErr_Format(PyExc_ValueError, "the weight of an edge (%R, %R) = %s %s", node, nbr,
                         text, strict_trouble(x, false));
            return -1;
        }
        *sum += x;
    }
    return 0;
}

/* One arc: its neighbour's id into *id and, when w is not NULL, its weight
 * into *w; 0, or -1 with an exception.  The node dict's lookup (a key that
 * is another object equal to a node: True for 1, a rebuilt string) may run
 * the keys' __eq__, and reading a weight a value's __float__: Python code
 * that may change the graph meanwhile, so nbr and data are held across
 * those, and only those (node is held by the caller's tuple): an arc
 * without attributes needs no lookup and no reference count written (the
 * weighted read of kron:18, whose edges have none: 0.51-0.54 s holding
 * every arc's data and looking in it, 0.41-0.44 s so). */
static int read_arc(PyObject *nbr, PyObject *data, PyObject *node, const same_keys *sk,
                    const int_keys *ik, PyObject *index, PyObject *weight, double fallback,
                    int multigraph, int strict, int32_t *id, float *w, double *w64, int *ints)
{
    int rc = -1;
    int64_t v = known_vertex(sk, ik, nbr);
    const int lookup = v < 0 && !(ik->id && PyLong_CheckExact(nbr));
    if (lookup) {
        Py_INCREF(nbr);
        PyObject *found = PyDict_GetItemWithError(index, nbr);
        v = found ? (int64_t)PyLong_AsLong(found) : -1;
    }
    if (v < 0) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_KeyError, "neighbour %R of node %R is not a node", nbr, node);
        goto done;
    }
    *id = (int32_t)v;
    rc = 0;
    if (!w && !w64)
        goto done;
    if (!multigraph && PyDict_CheckExact(data) && PyDict_Size(data) == 0) {
        /* no attributes: nothing to look up, no code to run */
        if (w64)
            *w64 = fallback;
        else
            *w = (float)fallback;
        goto done;
    }
    double sum;
    Py_INCREF(data);
    rc = arc_weight(data, node, nbr, weight, fallback, multigraph, strict, &sum, ints);
    Py_DECREF(data);
    const char *why = rc != 0  ? NULL
                      : w64    ? wide_trouble(sum, strict != 0)
                      : strict ? strict_trouble(sum, strict > 1)
                               : lgpy_float32_trouble(sum);
    if (why) {
        char text[32]; /* PyErr_Format has no %g */
        snprintf(text, sizeof text, "%.17g", sum);
        PyErr_Format(PyExc_ValueError, "the weight of edge (%R, %R) = %s %s", node, nbr, text, why);
        rc = -1;
    } else if (rc == 0 && w64) {
        *w64 = sum;
        if (*ints && !(fabs(sum) <= LGPY_INT_WEIGHT_MAX))
            *ints = 0;
    } else if (rc == 0) {
        *w = (float)sum;
    }
done:
    if (lookup)
        Py_DECREF(nbr);
    return rc;
}

/* An unweighted row whose neighbours known_vertex all knows, read into
 * idx[0..len): 1, else 0 (nothing raised: read_row reads it).  The keys are
 * first copied out of the dict, each one asked for as it is copied, so
 * that their cache misses overlap rather than come one an arc (kron:17
 * with int keys: 136 -> 105 ms, string keys 173 -> 130 ms).  Borrowed
 * pointers are safe here: nothing in this loop runs Python code. */
static int read_row_known(PyObject *row, PyObject **nbrs, const same_keys *sk, const int_keys *ik,
                          int32_t *idx, int64_t len)
{
    Py_ssize_t pos = 0, got = 0;
    PyObject *nbr, *data;
    while (got < len && PyDict_Next(row, &pos, &nbr, &data)) {
#if defined(__GNUC__)
        __builtin_prefetch(nbr);
#endif
        nbrs[got++] = nbr;
    }
    if (got != len || PyDict_Size(row) != len)
        return 0;
    for (Py_ssize_t a = 0; a < got; a++) {
        const int64_t id = known_vertex(sk, ik, nbrs[a]);
        if (id < 0)
            return 0;
        idx[a] = (int32_t)id;
    }
    return 1;
}

/* Any row, read into idx[0..len) and w[0..len) (NULL: unweighted): 0, or
 * -1 with an exception.  A key's __eq__ (in the index lookup) or a weight's
 * __float__ may run Python code that changes the graph meanwhile: the
 * caller holds the row, read_arc what that code could drop, and the row's
 * length is checked after. */
static int read_row(PyObject *row, PyObject *node, const same_keys *sk, const int_keys *ik,
                    PyObject *index, PyObject *weight, double fallback, int multigraph, int strict,
                    int32_t *idx, float *w, double *w64, int64_t len, int *ints)
{
    Py_ssize_t pos = 0;
    PyObject *nbr, *data;
    int64_t e = 0;
#if defined(__GNUC__)
    /* the row's key (and attribute) objects asked for at once */
    for (Py_ssize_t p = 0; PyDict_Next(row, &p, &nbr, &data);) {
        __builtin_prefetch(nbr);
        if (w || w64)
            __builtin_prefetch(data);
    }
#endif
    while (e < len && PyDict_Next(row, &pos, &nbr, &data)) {
        if (read_arc(nbr, data, node, sk, ik, index, weight, fallback, multigraph, strict, idx + e,
                     w ? w + e : NULL, w64 ? w64 + e : NULL, ints) < 0)
            return -1;
        e++;
    }
    if (e != len || PyDict_Size(row) != len) {
        PyErr_Format(PyExc_RuntimeError, "the adjacency of node %R changed while read", node);
        return -1;
    }
    return 0;
}

static PyObject *mod_adjacency_csr(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"nodes",  "adj",   "weight", "default", "multigraph", "count_parallel",
                         "strict", "exact", "wide",   "ints",    NULL};
    PyObject *nodes_o, *adj, *weight = Py_None;
    double fallback = 1.0;
    int multigraph = 0, count_parallel = 0, strict = 0, exact = 0, wide = 0, want_ints = 0;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO!|Odpppppp:adjacency_csr", kw, &nodes_o,
                                     &PyDict_Type, &adj, &weight, &fallback, &multigraph,
                                     &count_parallel, &strict, &exact, &wide, &want_ints))
        return NULL;
    if (exact && !wide)
        strict = 2; /* strict, and each weight exactly a float32 */
    const bool weighted = weight != Py_None || (multigraph && count_parallel);
    const char *why = !weighted ? NULL
                      : wide    ? wide_trouble(fallback, strict != 0)
                      : strict  ? strict_trouble(fallback, strict > 1)
                                : lgpy_float32_trouble(fallback);
    if (why) {
        char text[32];
        snprintf(text, sizeof text, "%.17g", fallback);
        PyErr_Format(PyExc_ValueError, "default_weight: %s %s", text, why);
        return NULL;
    }
    /* a tuple of its own: the keys stay whatever Python code runs meanwhile */
    PyObject *nodes = PySequence_Tuple(nodes_o);
    if (!nodes)
        return NULL;
    /* every weight a Python int (a missing one: NetworkX's int 1, when the
     * default is integral), small enough that sums along any path are exact */
    int ints = weight != Py_None && wide && fallback == floor(fallback) &&
               fabs(fallback) <= LGPY_INT_WEIGHT_MAX;
    PyObject *index = NULL, *offsets = NULL, *indices = NULL, *weights = NULL, *result = NULL;
    PyObject **rows = NULL, **nbrs = NULL, **keys = NULL;
    Py_ssize_t held_rows = 0;
    int_keys ik = {0, 0, NULL};
    same_keys sk = {0, NULL, NULL};
    const Py_ssize_t n = PyTuple_Size(nodes);
    if (n > (Py_ssize_t)LG_MAX_VERTICES) {
        PyErr_Format(PyExc_ValueError, "the graph has %zd nodes, more than libgraph's %lld", n,
                     (long long)LG_MAX_VERTICES);
        goto cleanup;
    }
    if (!(index = PyDict_New()) || !(rows = PyMem_Malloc(sizeof *rows * (size_t)(n ? n : 1))) ||
        !(keys = PyMem_Malloc(sizeof *keys * (size_t)(n ? n : 1)))) {
        if (index)
            PyErr_NoMemory();
        goto cleanup;
    }
    /* the keys, borrowed from the tuple, which holds them */
    for (Py_ssize_t i = 0; i < n; i++)
        keys[i] = PyTuple_GetItem(nodes, i);
    if (!(offsets = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)sizeof(int64_t) * (n + 1))))
        goto cleanup;
    int64_t *off = (int64_t *)PyByteArray_AsString(offsets);
    off[0] = 0;
    /* pass 1: the index, each row's dict, its length */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *id = PyLong_FromSsize_t(i);
        if (!id || PyDict_SetItem(index, keys[i], id) < 0) {
            Py_XDECREF(id);
            goto cleanup;
        }
        Py_DECREF(id);
        rows[i] = PyDict_GetItemWithError(adj, keys[i]);
        if (!rows[i]) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_KeyError, "node %R has no adjacency entry", keys[i]);
            goto cleanup;
        }
        /* held: a key's __eq__ or a weight's __float__ may run Python code
         * that drops the graph's own references while it is read */
        Py_INCREF(rows[i]);
        held_rows++;
        if (!PyDict_Check(rows[i])) {
            PyErr_Format(PyExc_TypeError, "adjacency of node %R: expected a dict, not %s", keys[i],
                         lgpy_type_name(rows[i]));
            goto cleanup;
        }
        off[i + 1] = off[i] + PyDict_Size(rows[i]);
    }
    if (PyDict_Size(index) != n) {
        PyErr_SetString(PyExc_ValueError, "nodes: a node key appears twice");
        goto cleanup;
    }
    if (same_keys_make(&sk, keys, n) < 0 || int_keys_make(&ik, keys, n) < 0)
        goto cleanup;
    const int64_t m = off[n];
    if (!(indices = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(sizeof(int32_t) * m))))
        goto cleanup;
    const size_t wsize = wide ? sizeof(double) : sizeof(float);
    if (weighted && !(weights = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(wsize * m))))
        goto cleanup;
    int32_t *idx = (int32_t *)PyByteArray_AsString(indices);
    float *w = weighted && !wide ? (float *)PyByteArray_AsString(weights) : NULL;
    double *w64 = weighted && wide ? (double *)(void *)PyByteArray_AsString(weights) : NULL;
    /* pass 2: the arcs, a row at a time */
    int64_t widest = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (off[i + 1] - off[i] > widest)
            widest = off[i + 1] - off[i];
    if (!(nbrs = PyMem_Malloc(sizeof *nbrs * (size_t)(widest ? widest : 1)))) {
        PyErr_NoMemory();
        goto cleanup;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!weighted && read_row_known(rows[i], nbrs, &sk, &ik, idx + off[i], off[i + 1] - off[i]))
            continue;
        if (read_row(rows[i], keys[i], &sk, &ik, index, weight, fallback, multigraph, strict,
                     idx + off[i], w ? w + off[i] : NULL, w64 ? w64 + off[i] : NULL,
                     off[i + 1] - off[i], &ints) < 0)
            goto cleanup;
    }
    result = want_ints ? Py_BuildValue("(OOOOO)", index, offsets, indices,
                                       weights ? weights : Py_None, ints ? Py_True : Py_False)
                       : PyTuple_Pack(4, index, offsets, indices, weights ? weights : Py_None);

cleanup:
    for (Py_ssize_t i = 0; i < held_rows; i++)
        Py_DECREF(rows[i]);
    PyMem_Free(rows);
    PyMem_Free(keys);
    PyMem_Free(nbrs);
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

PyMethodDef lgpy_networkx_methods[] = {
    {"adjacency_csr", (PyCFunction)(void (*)(void))mod_adjacency_csr, METH_VARARGS | METH_KEYWORDS,
     "adjacency_csr(nodes, adj, weight=None, default=1.0, multigraph=False, "
     "count_parallel=False, strict=False, exact=False, wide=False, ints=False)\n--\n\n"
     "A NetworkX adjacency dict as CSR arrays (networkx.c)."},
    {NULL, NULL, 0, NULL},
};
