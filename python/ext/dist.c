/*
 * dist.c - the extension libgraph._dist: libgraph_dist (graphs across MPI
 * ranks) seen from Python, for libgraph.dist (python/libgraph/dist.py),
 * which holds the user-facing API.  Built when CMake finds MPI; the
 * communicator comes from mpi4py as its Fortran handle (comm.py2f()), so no
 * mpi4py header is needed here.
 *
 * Handles are capsules (contexts and graphs); freeing them is collective, so
 * the Python layer frees them explicitly (close(), with-blocks), and a
 * capsule's destructor frees only what is left once MPI has finalized or a
 * close was forgotten.  Arrays come in and go out through the buffer
 * protocol: the Python layer makes the numpy arrays, of the right type and
 * length, and this file checks them.  A failure raises _dist.Failure(status
 * name, message), which libgraph.dist turns into libgraph's exceptions.
 * Calls release the GIL: they only read and write C memory.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <libgraph_dist.h>

#include <string.h>

static PyObject *Failure; /* set in module init, one interpreter: the module is single-phase */

static PyObject *fail(lg_status_t st)
{
    PyObject *args = Py_BuildValue("(ss)", lg_status_string(st), lg_last_error());
    if (args) {
        PyErr_SetObject(Failure, args);
        Py_DECREF(args);
    }
    return NULL;
}

static const char CONTEXT[] = "libgraph._dist.context", GRAPH[] = "libgraph._dist.graph",
                  CLOSED[] = "libgraph._dist.closed";

static void context_destructor(PyObject *capsule)
{
    lg_dist_context_t *c = PyCapsule_GetPointer(capsule, CONTEXT);
    lg_dist_context_free(&c);
}

static void graph_destructor(PyObject *capsule)
{
    lg_dist_graph_t *g = PyCapsule_GetPointer(capsule, GRAPH);
    lg_dist_graph_free(&g);
}

/* A live handle from a capsule (NULL with TypeError / ValueError). */
static void *handle(PyObject *capsule, const char *name)
{
    if (PyCapsule_CheckExact(capsule) && PyCapsule_IsValid(capsule, CLOSED)) {
        PyErr_SetString(PyExc_ValueError, "the handle is closed");
        return NULL;
    }
    if (!PyCapsule_IsValid(capsule, name)) {
        PyErr_Format(PyExc_TypeError, "expected a %s", name);
        return NULL;
    }
    void *p = PyCapsule_GetPointer(capsule, name);
    if (!p)
        PyErr_SetString(PyExc_ValueError, "the handle is closed");
    return p;
}

/* A C-contiguous buffer of items of `size` bytes whose format is one of
 * `formats`, writable if asked; None gives an empty view (buf NULL) when
 * optional. */
static int get_array(PyObject *obj, Py_buffer *view, Py_ssize_t size, const char *formats,
                     bool writable, bool optional, const char *what)
{
    memset(view, 0, sizeof *view);
    if (obj == Py_None && optional)
        return 0;
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    if (view->itemsize != size || !f[0] || f[1] || !strchr(formats, f[0])) {
        PyErr_Format(PyExc_TypeError, "%s: an array of %zd-byte items (%s) is needed", what, size,
                     formats);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static void release(Py_buffer *v)
{
    if (v->obj)
        PyBuffer_Release(v);
}

/* ---- contexts ------------------------------------------------------------ */

static PyObject *context_create(PyObject *self, PyObject *args)
{
    (void)self;
    long long fcomm;
    int threads, gpu, device_id;
    if (!PyArg_ParseTuple(args, "Liii", &fcomm, &threads, &gpu, &device_id))
        return NULL;
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
        PyErr_SetString(PyExc_RuntimeError, "MPI is not initialized (import mpi4py.MPI first)");
        return NULL;
    }
    lg_dist_context_options_t o;
    lg_dist_context_options_init(&o);
    o.num_threads = threads;
    if (gpu) {
        o.backend = LG_BACKEND_GPU;
        o.device_id = device_id;
    }
    MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)fcomm);
    lg_dist_context_t *c = NULL;
    lg_status_t st;
    Py_BEGIN_ALLOW_THREADS st = lg_dist_context_create(comm, &o, &c);
    Py_END_ALLOW_THREADS if (st != LG_OK) return fail(st);
    PyObject *cap = PyCapsule_New(c, CONTEXT, context_destructor);
    if (!cap)
        lg_dist_context_free(&c);
    return cap;
}

/* Frees a handle collectively now; the capsule is left empty. */
static PyObject *close_handle(PyObject *self, PyObject *capsule)
{
    (void)self;
    if (PyCapsule_IsValid(capsule, GRAPH)) {
        lg_dist_graph_t *g = PyCapsule_GetPointer(capsule, GRAPH);
        lg_dist_graph_free(&g);
        PyCapsule_SetDestructor(capsule, NULL);
    } else if (PyCapsule_IsValid(capsule, CONTEXT)) {
        lg_dist_context_t *c = PyCapsule_GetPointer(capsule, CONTEXT);
        Py_BEGIN_ALLOW_THREADS lg_dist_context_free(&c);
        Py_END_ALLOW_THREADS PyCapsule_SetDestructor(capsule, NULL);
    } else if (PyCapsule_CheckExact(capsule) && PyCapsule_IsValid(capsule, CLOSED)) {
        Py_RETURN_NONE; /* closed already */
    } else {
        PyErr_SetString(PyExc_TypeError, "expected a libgraph._dist handle");
        return NULL;
    }
    /* a capsule cannot hold NULL: the name marks it closed */
    PyCapsule_SetName(capsule, CLOSED);
    Py_RETURN_NONE;
}

static PyObject *context_info(PyObject *self, PyObject *capsule)
{
    (void)self;
    lg_dist_context_t *c = handle(capsule, CONTEXT);
    if (!c)
        return NULL;
    int threads = 1;
    lg_context_get_num_threads(lg_dist_context_local(c), &threads);
    return Py_BuildValue("(iiis)", lg_dist_context_rank(c), lg_dist_context_size(c), threads,
                         lg_dist_context_device(c));
}

/* ---- graphs -------------------------------------------------------------- */

static PyObject *graph_capsule(lg_dist_graph_t *g)
{
    PyObject *cap = PyCapsule_New(g, GRAPH, graph_destructor);
    if (!cap)
        lg_dist_graph_free(&g);
    return cap;
}

static int parse_graph_options(PyObject *opts, lg_dist_graph_options_t *o)
{
    long long n;
    int directedness, symmetrize, drop, dup;
    if (!PyArg_ParseTuple(opts, "Liiii", &n, &directedness, &symmetrize, &drop, &dup))
        return -1;
    lg_dist_graph_options_init(o);
    o->num_vertices = n;
    o->directedness = (lg_directedness_t)directedness;
    o->symmetrize = symmetrize;
    o->drop_self_loops = drop;
    o->duplicates = (lg_duplicates_t)dup;
    return 0;
}

static PyObject *graph_from_edges(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap, *src, *dst, *w, *opts;
    if (!PyArg_ParseTuple(args, "OOOOO!", &cap, &src, &dst, &w, &PyTuple_Type, &opts))
        return NULL;
    lg_dist_context_t *c = handle(cap, CONTEXT);
    lg_dist_graph_options_t o;
    if (!c || parse_graph_options(opts, &o) < 0)
        return NULL;
    Py_buffer s, d, wv;
    if (get_array(src, &s, 8, "lq", false, false, "src") < 0)
        return NULL;
    if (get_array(dst, &d, 8, "lq", false, false, "dst") < 0) {
        release(&s);
        return NULL;
    }
    if (get_array(w, &wv, 4, "f", false, true, "weights") < 0) {
        release(&s);
        release(&d);
        return NULL;
    }
    lg_dist_graph_t *g = NULL;
    lg_status_t st = LG_OK;
    if (s.len != d.len || (wv.buf && wv.len / 4 != s.len / 8)) {
        PyErr_SetString(PyExc_ValueError, "src, dst (and weights) must have one length");
    } else {
        Py_BEGIN_ALLOW_THREADS st =
            lg_dist_graph_from_edges(c, s.buf, d.buf, wv.buf, s.len / 8, &o, &g);
        Py_END_ALLOW_THREADS
    }
    release(&s);
    release(&d);
    release(&wv);
    if (PyErr_Occurred())
        return NULL;
    return st == LG_OK ? graph_capsule(g) : fail(st);
}

static PyObject *graph_generate(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    int gen, scale, ef;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OiiiK", &cap, &gen, &scale, &ef, &seed))
        return NULL;
    lg_dist_context_t *c = handle(cap, CONTEXT);
    if (!c)
        return NULL;
    lg_dist_graph_t *g = NULL;
    lg_status_t st;
    Py_BEGIN_ALLOW_THREADS st =
        lg_dist_generate(c, (lg_generator_t)gen, scale, ef, (uint64_t)seed, NULL, &g);
    Py_END_ALLOW_THREADS return st == LG_OK ? graph_capsule(g) : fail(st);
}

static PyObject *graph_read(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap, *opts;
    const char *path;
    int format;
    if (!PyArg_ParseTuple(args, "OsiO!", &cap, &path, &format, &PyTuple_Type, &opts))
        return NULL;
    lg_dist_context_t *c = handle(cap, CONTEXT);
    lg_dist_graph_options_t o;
    if (!c || parse_graph_options(opts, &o) < 0)
        return NULL;
    lg_dist_graph_t *g = NULL;
    lg_status_t st;
    Py_BEGIN_ALLOW_THREADS st = lg_dist_graph_read(c, path, (lg_file_format_t)format, &o, &g);
    Py_END_ALLOW_THREADS return st == LG_OK ? graph_capsule(g) : fail(st);
}

static PyObject *graph_info(PyObject *self, PyObject *capsule)
{
    (void)self;
    lg_dist_graph_t *g = handle(capsule, GRAPH);
    if (!g)
        return NULL;
    int64_t first, count;
    lg_dist_graph_local_range(g, &first, &count);
    return Py_BuildValue("(LLiiLLLL)", (long long)lg_dist_graph_num_vertices(g),
                         (long long)lg_dist_graph_num_edges(g), lg_dist_graph_is_directed(g),
                         lg_dist_graph_is_weighted(g), (long long)first, (long long)count,
                         (long long)lg_dist_graph_local_edges(g),
                         (long long)lg_dist_graph_num_ghosts(g));
}

/* ---- algorithms ---------------------------------------------------------- */

static PyObject *traffic_tuple(const lg_dist_traffic_t *t)
{
    return Py_BuildValue("(LLLi)", (long long)t->bytes_sent, (long long)t->max_bytes_sent,
                         (long long)t->total_bytes, t->rounds);
}

static PyObject *bfs(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ccap, *gcap, *sources, *out_dist, *out_par;
    int alpha, beta, max_depth;
    if (!PyArg_ParseTuple(args, "OOOOOiii", &ccap, &gcap, &sources, &out_dist, &out_par, &alpha,
                          &beta, &max_depth))
        return NULL;
    lg_dist_context_t *c = handle(ccap, CONTEXT);
    lg_dist_graph_t *g = c ? handle(gcap, GRAPH) : NULL;
    if (!g)
        return NULL;
    Py_buffer s, d, p;
    if (get_array(sources, &s, 8, "lq", false, false, "sources") < 0)
        return NULL;
    if (get_array(out_dist, &d, 4, "i", true, false, "dist") < 0) {
        release(&s);
        return NULL;
    }
    if (get_array(out_par, &p, 8, "lq", true, true, "parents") < 0) {
        release(&s);
        release(&d);
        return NULL;
    }
    lg_bfs_options_t o;
    lg_bfs_options_init(&o);
    o.direction_alpha = alpha;
    o.direction_beta = beta;
    o.max_depth = max_depth;
    o.compute_parents = p.buf != NULL;
    lg_dist_traffic_t t = {0, 0, 0, 0};
    lg_status_t st;
    Py_BEGIN_ALLOW_THREADS st = lg_dist_bfs(c, g, s.buf, s.len / 8, &o, d.buf, p.buf, &t);
    Py_END_ALLOW_THREADS release(&s);
    release(&d);
    release(&p);
    return st == LG_OK ? traffic_tuple(&t) : fail(st);
}

static PyObject *pagerank(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ccap, *gcap, *out, *vec[3];
    double alpha, tol;
    int max_iter, use_weights;
    if (!PyArg_ParseTuple(args, "OOOddipOOO", &ccap, &gcap, &out, &alpha, &tol, &max_iter,
                          &use_weights, &vec[0], &vec[1], &vec[2]))
        return NULL;
    lg_dist_context_t *c = handle(ccap, CONTEXT);
    lg_dist_graph_t *g = c ? handle(gcap, GRAPH) : NULL;
    if (!g)
        return NULL;
    Py_buffer x, v[3];
    memset(v, 0, sizeof v);
    if (get_array(out, &x, 8, "d", true, false, "scores") < 0)
        return NULL;
    static const char *const names[3] = {"personalization", "nstart", "dangling"};
    for (int k = 0; k < 3; k++)
        if (get_array(vec[k], &v[k], 8, "d", false, true, names[k]) < 0) {
            release(&x);
            for (int j = 0; j < k; j++)
                release(&v[j]);
            return NULL;
        }
    lg_pagerank_options_t o;
    lg_pagerank_options_init(&o);
    o.alpha = alpha;
    o.tol = tol;
    o.max_iter = max_iter;
    o.use_weights = use_weights;
    o.personalization = v[0].buf;
    o.nstart = v[1].buf;
    o.dangling = v[2].buf;
    lg_pagerank_result_t r = {0, 0.0, false};
    lg_dist_traffic_t t = {0, 0, 0, 0};
    lg_status_t st;
    Py_BEGIN_ALLOW_THREADS st = lg_dist_pagerank(c, g, &o, x.buf, &r, &t);
    Py_END_ALLOW_THREADS release(&x);
    for (int k = 0; k < 3; k++)
        release(&v[k]);
    if (st != LG_OK && st != LG_ERR_NOT_CONVERGED)
        return fail(st);
    return Py_BuildValue("(idiN)", r.iterations, r.residual, r.converged, traffic_tuple(&t));
}

static PyObject *components(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ccap, *gcap, *out;
    if (!PyArg_ParseTuple(args, "OOO", &ccap, &gcap, &out))
        return NULL;
    lg_dist_context_t *c = handle(ccap, CONTEXT);
    lg_dist_graph_t *g = c ? handle(gcap, GRAPH) : NULL;
    if (!g)
        return NULL;
    Py_buffer l;
    if (get_array(out, &l, 8, "lq", true, false, "labels") < 0)
        return NULL;
    int64_t count = 0;
    lg_dist_traffic_t t = {0, 0, 0, 0};
    lg_status_t st;
    Py_BEGIN_ALLOW_THREADS st = lg_dist_connected_components(c, g, l.buf, &count, &t);
    Py_END_ALLOW_THREADS release(&l);
    return st == LG_OK ? Py_BuildValue("(LN)", (long long)count, traffic_tuple(&t)) : fail(st);
}

static PyObject *gather(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *ccap, *gcap, *local, *all;
    int root;
    if (!PyArg_ParseTuple(args, "OOOiO", &ccap, &gcap, &local, &root, &all))
        return NULL;
    lg_dist_context_t *c = handle(ccap, CONTEXT);
    lg_dist_graph_t *g = c ? handle(gcap, GRAPH) : NULL;
    if (!g)
        return NULL;
    Py_buffer l, a;
    if (PyObject_GetBuffer(local, &l, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    memset(&a, 0, sizeof a);
    if (all != Py_None && PyObject_GetBuffer(all, &a, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        release(&l);
        return NULL;
    }
    int64_t first, count;
    lg_dist_graph_local_range(g, &first, &count);
    const size_t elem = count > 0 ? (size_t)(l.len / count) : (size_t)l.itemsize;
    lg_status_t st;
    Py_BEGIN_ALLOW_THREADS st = lg_dist_gather(c, g, l.buf, elem, root, a.buf);
    Py_END_ALLOW_THREADS release(&l);
    release(&a);
    if (st != LG_OK)
        return fail(st);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"context_create", context_create, METH_VARARGS,
     "context_create(fcomm, threads, gpu, device_id)"},
    {"context_info", context_info, METH_O, "(rank, size, threads)"},
    {"close", close_handle, METH_O, "frees a context or graph (collective)"},
    {"graph_from_edges", graph_from_edges, METH_VARARGS, NULL},
    {"graph_generate", graph_generate, METH_VARARGS, NULL},
    {"graph_read", graph_read, METH_VARARGS, NULL},
    {"graph_info", graph_info, METH_O,
     "(n, m, directed, weighted, first, count, local_arcs, ghosts)"},
    {"bfs", bfs, METH_VARARGS, NULL},
    {"pagerank", pagerank, METH_VARARGS, NULL},
    {"components", components, METH_VARARGS, NULL},
    {"gather", gather, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "libgraph._dist",
                                    "libgraph_dist (graphs across MPI ranks); see libgraph.dist",
                                    -1,
                                    methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__dist(void);

PyMODINIT_FUNC PyInit__dist(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Failure = PyErr_NewException("libgraph._dist.Failure", PyExc_RuntimeError, NULL);
    if (!Failure || PyModule_AddObjectRef(m, "Failure", Failure) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
