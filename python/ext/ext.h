/*
 * ext.h - what the files of the extension libgraph._libgraph share.
 *
 * The extension is the C library seen from Python, against the CPython C API
 * only.  Its files, one purpose each:
 *   module.c      the module: definition, multi-phase init, the module state's
 *                 contents, the exception types, last_backend and build_info;
 *   watch.c       a library call with the GIL released: Ctrl-C, progress, and
 *                 no re-entry from a progress callback;
 *   state.c       the module state found, type names, lg_status_t -> exception;
 *   buffer.c      results out: the Buffer type, and the caller's out= arrays;
 *   arrays.c      arguments in: Python arrays and sequences -> C arrays;
 *   context.c     the Context type (lg_context_t);
 *   graph.c       the Graph type (lg_graph_t);
 *   builders.c    functions that make, read, write and generate graphs;
 *   algorithms.c  BFS, PageRank, connected components;
 *   networkx.c    a NetworkX graph's adjacency dicts read as CSR arrays;
 *   nx_backend.c  the NetworkX backend's BFS visit and result objects.
 *   nx_paths.c    its Dijkstra, the path dicts of its results, and the CSR
 *                 readers its searches share;
 *   nx_bidirectional.c  its bidirectional BFS and bidirectional Dijkstra;
 *   nx_scc.c      its strongly connected components' search;
 *   nx_bellman_ford.c  its Bellman-Ford and the paths of its predecessors.
 *
 * Rules every file keeps: heap types and module state (so each interpreter has
 * its own); no Python object is touched while the GIL is released (buffers are
 * acquired before a call and released after); every error path drops what it
 * took; only CPython's limited API of 3.11 is used (the wheels are built with
 * Py_LIMITED_API: one cp311-abi3 module for 3.11 and every later CPython;
 * docs/decisions/python-abi3.md).  The shared names start with lgpy_; the
 * rest are static.
 */
#ifndef LIBGRAPH_PYEXT_H
#define LIBGRAPH_PYEXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdio.h>
#include <string.h>

#include <libgraph.h>

/* ---- state.c (the state's contents: module.c), watch.c: state, errors, calls ---- */

/* The module's state: its types and exception types. */
typedef struct {
    PyTypeObject *buffer_type, *context_type, *graph_type;
    PyObject *Error, *InvalidArgumentError, *OutOfMemoryError, *DeviceError, *UnsupportedError,
        *FileFormatError, *NotConverged, *Unbounded, *InternalError;
    PyObject *progress; /* set_progress's function, or NULL (watch.c) */
} lgpy_state;

lgpy_state *lgpy_state_of_module(PyObject *module);
/* The state of the module that made a heap type (NULL, exception set, if none). */
lgpy_state *lgpy_state_of_type(PyTypeObject *type);

/* Sets the exception of a failed library call (its message is the thread's
 * lg_last_error()) and returns NULL. */
PyObject *lgpy_raise_status(lgpy_state *st, lg_status_t status);

/* A library call to make with the GIL released: it reads and writes C memory
 * only, never a Python object.  job holds its arguments and results. */
typedef lg_status_t (*lgpy_job_fn)(void *job);

/* Runs fn(job) with the GIL released and returns its status. */
lg_status_t lgpy_nogil(lgpy_job_fn fn, void *job);

/* As lgpy_nogil; returns 0, or -1 with the status's exception set (or
 * RuntimeError, made without the call, under lgpy_refuse_reentry's rule). */
int lgpy_call(lgpy_state *st, lgpy_job_fn fn, void *job);

/* A C string as str; bytes that are not UTF-8 are escaped (a file name). */
PyObject *lgpy_text(const char *s);

/* The name of obj's type, for messages: its module and qualified name
 * ("numpy.ndarray"; "int" for a builtin).  The text stays valid for the
 * next three calls on the same thread. */
const char *lgpy_type_name(PyObject *obj);

/* ---- buffer.c: results ---------------------------------------------------- */

extern PyType_Spec lgpy_buffer_spec;

/* A Buffer of length elements of itemsize bytes in struct format `format`:
 * with owner NULL, memory of its own (PyMem_Malloc'd; the library may fill
 * it without the GIL); else a read-only view of data, which owner keeps
 * alive. */
PyObject *lgpy_buffer_new(lgpy_state *st, char format, Py_ssize_t itemsize, Py_ssize_t length,
                          void *data, PyObject *owner);
void *lgpy_buffer_data(PyObject *buffer);

/* A result: a new Buffer, or the caller's `out` array written in place. */
typedef struct {
    PyObject *obj; /* a new reference either way */
    Py_buffer view;
    int have_view;
    void *data;
} lgpy_result;

#define LGPY_RESULT_INIT                                                                           \
    {                                                                                              \
        .obj = NULL, .have_view = 0, .data = NULL                                                  \
    }

/* The result array argument `name` (out_o None: a new Buffer) of n elements
 * in format 'i' (int32), 'f' (float32) or 'd' (float64), one per `per`
 * ("vertex", "arc": for the message of a wrong length).  0, or -1 with an
 * exception set and nothing held. */
int lgpy_result_get(lgpy_state *st, PyObject *out_o, const char *name, char format, Py_ssize_t n,
                    const char *per, lgpy_result *r);
/* Lets go of the caller's buffer; the result object stays in r->obj. */
void lgpy_result_release(lgpy_result *r);
/* On failure: lets go of the buffer and drops the result too. */
void lgpy_result_drop(lgpy_result *r);

/* ---- arrays.c: array arguments -------------------------------------------- */

/* The C element types array arguments become. */
typedef enum {
    LGPY_I32,
    LGPY_I64,
    LGPY_F32,
    LGPY_F64
} lgpy_elem;

/* An array argument: data points into the caller's buffer (no copy) or to
 * copy (converted). */
typedef struct {
    Py_buffer view;
    int have_view;
    int private_copy; /* copy even when the layout fits (see lgpy_array_get_private) */
    void *copy;
    void *data;
    Py_ssize_t length;
} lgpy_array;

#define LGPY_ARRAY_INIT                                                                            \
    {                                                                                              \
        .have_view = 0, .private_copy = 0, .copy = NULL, .data = NULL, .length = 0                 \
    }

/* Reads array argument `name` as elements of type el.  Returns 0, or -1 with
 * an exception set (a has then nothing to release, but releasing is safe). */
int lgpy_array_get(PyObject *obj, const char *name, lgpy_elem el, lgpy_array *a);
/* As lgpy_array_get, always into a copy of the extension's own. */
int lgpy_array_get_private(PyObject *obj, const char *name, lgpy_elem el, lgpy_array *a);
/* As lgpy_array_get, for an optional argument (None: data NULL) of an exact
 * length (expected >= 0). */
int lgpy_array_get_optional(PyObject *obj, const char *name, lgpy_elem el, Py_ssize_t expected,
                            lgpy_array *a);
void lgpy_array_release(lgpy_array *a);

/* Why double v cannot become a float32 weight ("is too large for float32",
 * "rounds to 0 in float32"), or NULL when it can (NaN, inf and negatives
 * pass: the library names them). */
const char *lgpy_float32_trouble(double v);

/* How a buffer's elements read: kind 'i' signed, 'u' unsigned, 'f' float
 * (of itemsize bytes), 0 unusable; *swap when the byte order is not native. */
char lgpy_element_kind(const char *format, Py_ssize_t itemsize, int *swap);

/* ---- context.c, graph.c: the handles -------------------------------------- */

extern PyType_Spec lgpy_context_spec;
extern PyType_Spec lgpy_graph_spec;

/* A new Graph that owns g (freed, NULL returned, when it cannot be made). */
PyObject *lgpy_graph_wrap(lgpy_state *st, lg_graph_t *g);

/* The arguments every call on a graph takes: the module's state, the graph
 * (a Graph) and the context (a Context, or None: the CPU). */
typedef struct {
    lgpy_state *st;
    lg_graph_t *g;
    lg_context_t *ctx;
    Py_ssize_t n; /* the graph's vertices: the length of a per-vertex array */
} lgpy_on_graph;

/* The lg_context_t of a context argument: NULL for None (the CPU).  0, or -1
 * with TypeError set. */
int lgpy_context_arg(lgpy_state *st, PyObject *obj, lg_context_t **ctx);
/* Fills on with the module's state, graph_o's graph and ctx_o's context.
 * 0, or -1 with TypeError set. */
int lgpy_on_graph_args(PyObject *module, PyObject *graph_o, PyObject *ctx_o, lgpy_on_graph *on);

/* ---- watch.c: Ctrl-C and progress during a long call ---------------------- */

/* One long call's watch: its options' progress_data, with lgpy_watch_step as
 * their progress callback. */
typedef struct {
    PyObject *progress;    /* the module's progress function (shown calls only), or NULL */
    PyThreadState *tstate; /* saved while the call runs without the GIL */
    double start, next_check;
    bool shown;  /* progress was called: it gets "done" at the end */
    bool failed; /* a step raised (KeyboardInterrupt, progress's exception) */
} lgpy_watch;

/* show: a load or build, whose steps go to the progress function. */
void lgpy_watch_init(lgpy_watch *w, lgpy_state *st, bool show);
bool lgpy_watch_step(const lg_progress_info_t *info, void *data);
/* -1 with RuntimeError set when Python run by a step of a library call on
 * this thread (its progress function, a signal handler) calls into the
 * library again (watch.c says why that is refused); else 0. */
int lgpy_refuse_reentry(void);
/* fn(job) with the GIL released under the watch: its status (w->failed
 * tells that a Python exception is set and caused the stop; a refused
 * re-entry is one, without the call). */
lg_status_t lgpy_nogil_watched(lgpy_job_fn fn, void *job, lgpy_watch *w);
/* The same, as lgpy_call: 0, or -1 with the step's exception or the status's. */
int lgpy_call_watched(lgpy_state *st, lgpy_job_fn fn, void *job, lgpy_watch *w);
/* Points options' progress fields (any options struct has them) at w. */
#define LGPY_WATCH(options, w)                                                                     \
    ((options)->progress = lgpy_watch_step, (options)->progress_data = (w))

/* ---- nx_paths.c: what the NetworkX backend's searches share --------------- */

/* Item i of a PySequence_Fast result, borrowed (PyList_GetItem or PyTuple_GetItem). */
typedef PyObject *(*lgpy_item_fn)(PyObject *, Py_ssize_t);

/* An adjacency-order CSR given as buffers (adjacency_csr's arrays), held
 * while a search reads it: offsets (int64, from 0 to the arcs), indices
 * (int32) and weights (None, or float32 or float64 ones, told apart by
 * their length). */
typedef struct {
    Py_buffer off, idx, w;
    const int64_t *offsets;
    const int32_t *indices;
    const float *w32;
    const double *w64;
    int64_t n, m;
} lgpy_csr_buffers;

/* 0, or -1 with an exception ("fn: offsets, indices and weights are not a
 * CSR"); release it either way.  w_o NULL: a search without weights. */
int lgpy_csr_get(lgpy_csr_buffers *c, PyObject *off_o, PyObject *idx_o, PyObject *w_o,
                 const char *fn);
void lgpy_csr_release(lgpy_csr_buffers *c);
/* The vertex ids of a sequence (a search's sources), each in [0, n), into
 * a new array of *k (PyMem); NULL with an exception. */
int32_t *lgpy_vertex_ids(PyObject *first_o, int64_t n, const char *fn, Py_ssize_t *k);

/* An entry of NetworkX's Dijkstra heaps (nx_paths.c, nx_bidirectional.c):
 * (distance, count, vertex), the count the order of pushes, which breaks
 * ties as NetworkX's heap of tuples does. */
typedef struct {
    double d;
    int64_t c;
    int32_t v;
} lgpy_heap_item;

static inline bool lgpy_heap_before(const lgpy_heap_item *a, const lgpy_heap_item *b)
{
    return a->d < b->d || (a->d == b->d && a->c < b->c);
}

/* ---- builders.c, algorithms.c: the module's functions ---------------------- */

extern PyMethodDef lgpy_builder_methods[];
extern PyMethodDef lgpy_algorithm_methods[];
extern PyMethodDef lgpy_networkx_methods[];
extern PyMethodDef lgpy_nx_backend_methods[];
extern PyMethodDef lgpy_nx_paths_methods[];
extern PyMethodDef lgpy_nx_bidirectional_methods[];
extern PyMethodDef lgpy_nx_scc_methods[];
extern PyMethodDef lgpy_nx_bellman_ford_methods[];
extern PyMethodDef lgpy_watch_methods[];

#endif
