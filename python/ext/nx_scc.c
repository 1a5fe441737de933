/*
 * nx_scc.c - NetworkX's strongly connected components' search in C, for
 * the NetworkX backend, and the sets of its results.
 *
 * scc_visit(offsets, indices)
 *   the search of NetworkX's strongly_connected_components (its iterative
 *   Tarjan: each vertex's neighbours taken in adjacency order, a vertex's
 *   lowlink computed when it finishes, sources in node order), over an
 *   adjacency-order CSR: (order, ends), the vertices component by component
 *   in the order NetworkX yields the components (int32 bytes) and the end
 *   of each in order (a list).  Runs with the GIL released.
 * groups(nodes, order, ends)
 *   [set(nodes of order[previous end:end]) for each end]: scc_visit's
 *   components as NetworkX's sets.
 */
#include "ext.h"

typedef struct {
    const int64_t *off;
    const int32_t *idx;
    int64_t n;
    int64_t *preorder, *lowlink, *next_arc, *ends;
    unsigned char *found;
    int32_t *queue, *pending, *order;
    int64_t count, groups;
    int bad;
} scc_job;

static void scc_run(scc_job *j)
{
    int64_t counter = 0, pending = 0;
    for (int64_t v = 0; v < j->n; v++)
        j->next_arc[v] = j->off[v];
    for (int64_t source = 0; source < j->n; source++) {
        if (j->found[source])
            continue;
        int64_t top = 0;
        j->queue[top++] = (int32_t)source;
        while (top > 0) {
            const int32_t v = j->queue[top - 1];
            if (!j->preorder[v])
                j->preorder[v] = ++counter;
            bool done = true;
            while (j->next_arc[v] < j->off[v + 1]) {
                const int32_t w = j->idx[j->next_arc[v]++];
                if (w < 0 || w >= j->n) {
                    j->bad = 1;
                    return;
                }
                if (!j->preorder[w]) {
                    j->queue[top++] = w;
                    done = false;
                    break;
                }
            }
            if (!done)
                continue;
            int64_t low = j->preorder[v];
            for (int64_t e = j->off[v]; e < j->off[v + 1]; e++) {
                const int32_t w = j->idx[e];
                if (j->found[w])
                    continue;
                const int64_t x = j->preorder[w] > j->preorder[v] ? j->lowlink[w] : j->preorder[w];
                if (x < low)
                    low = x;
            }
            j->lowlink[v] = low;
            top--;
            if (low == j->preorder[v]) { /* v and the pending vertices after it */
                j->found[v] = 1;
                j->order[j->count++] = v;
                while (pending > 0 && j->preorder[j->pending[pending - 1]] > j->preorder[v]) {
                    const int32_t k = j->pending[--pending];
                    j->found[k] = 1;
                    j->order[j->count++] = k;
                }
                j->ends[j->groups++] = j->count;
            } else {
                j->pending[pending++] = v;
            }
        }
    }
}

static PyObject *mod_scc_visit(PyObject *module, PyObject *args)
{
    PyObject *off_o, *idx_o;
    (void)module;
    if (!PyArg_ParseTuple(args, "OO:scc_visit", &off_o, &idx_o))
        return NULL;
    lgpy_csr_buffers c;
    PyObject *result = NULL, *ends = NULL;
    scc_job j = {0};
    if (lgpy_csr_get(&c, off_o, idx_o, NULL, "scc_visit") < 0)
        goto cleanup;
    j.n = c.n;
    j.off = c.offsets;
    j.idx = c.indices;
    const size_t n1 = (size_t)(j.n ? j.n : 1);
    j.preorder = PyMem_Calloc(n1, sizeof *j.preorder);
    j.lowlink = PyMem_Malloc(n1 * sizeof *j.lowlink);
    j.next_arc = PyMem_Malloc(n1 * sizeof *j.next_arc);
    j.ends = PyMem_Malloc(n1 * sizeof *j.ends);
    j.found = PyMem_Calloc(n1, 1);
    j.queue = PyMem_Malloc(n1 * sizeof *j.queue);
    j.pending = PyMem_Malloc(n1 * sizeof *j.pending);
    j.order = PyMem_Malloc(n1 * sizeof *j.order);
    if (!j.preorder || !j.lowlink || !j.next_arc || !j.ends || !j.found || !j.queue ||
        !j.pending || !j.order) {
        PyErr_NoMemory();
        goto cleanup;
    }
    PyThreadState *saved = PyEval_SaveThread();
    scc_run(&j);
    PyEval_RestoreThread(saved);
    if (j.bad) {
        PyErr_SetString(PyExc_ValueError, "scc_visit: an index is not a vertex");
        goto cleanup;
    }
    if (!(ends = PyList_New((Py_ssize_t)j.groups)))
        goto cleanup;
    for (int64_t i = 0; i < j.groups; i++) {
        PyObject *x = PyLong_FromLongLong(j.ends[i]);
        if (!x)
            goto cleanup;
        PyList_SetItem(ends, (Py_ssize_t)i, x); /* takes x; i is in range */
    }
    result = Py_BuildValue("(y#O)", (const char *)j.order, (Py_ssize_t)(4 * j.count), ends);

cleanup:
    PyMem_Free(j.preorder);
    PyMem_Free(j.lowlink);
    PyMem_Free(j.next_arc);
    PyMem_Free(j.ends);
    PyMem_Free(j.found);
    PyMem_Free(j.queue);
    PyMem_Free(j.pending);
    PyMem_Free(j.order);
    Py_XDECREF(ends);
    lgpy_csr_release(&c);
    return result;
}

static PyObject *mod_groups(PyObject *module, PyObject *args)
{
    PyObject *nodes_o, *order_o, *ends_o;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOO:groups", &nodes_o, &order_o, &ends_o))
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
    const Py_ssize_t count = ob.len / 4, groups = PySequence_Size(ends);
    const lgpy_item_fn get = PyList_Check(nodes) ? PyList_GetItem : PyTuple_GetItem;
    const lgpy_item_fn get_end = PyList_Check(ends) ? PyList_GetItem : PyTuple_GetItem;
    if (!(result = PyList_New(groups)))
        goto cleanup;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < groups; i++) {
        PyObject *end_o = get_end(ends, i);
        const Py_ssize_t end = end_o ? PyLong_AsSsize_t(end_o) : -1;
        PyObject *set = end < 0 ? NULL : PySet_New(NULL);
        if (!set)
            goto fail;
        PyList_SetItem(result, i, set); /* takes set */
        for (; k < end && k < count; k++) {
            /* checked each time: a node's hash or __eq__ may change the list */
            if (order[k] < 0 || order[k] >= PySequence_Size(nodes)) {
                PyErr_SetString(PyExc_ValueError, "groups: an order entry is not a node");
                goto fail;
            }
            PyObject *node = Py_NewRef(get(nodes, order[k]));
            const int rc = PySet_Add(set, node);
            Py_DECREF(node);
            if (rc < 0)
                goto fail;
        }
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


PyMethodDef lgpy_nx_scc_methods[] = {
    {"scc_visit", mod_scc_visit, METH_VARARGS,
     "scc_visit(offsets, indices, /)\n--\n\nNetworkX's strongly connected components' search "
     "over an adjacency-order CSR (nx_scc.c)."},
    {"groups", mod_groups, METH_VARARGS,
     "groups(nodes, order, ends, /)\n--\n\n[set of nodes] a group (nx_scc.c)."},
    {NULL, NULL, 0, NULL},
};
