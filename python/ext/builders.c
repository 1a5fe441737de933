/*
 * builders.c - the module functions that make graphs and take them out:
 * from_edges, from_csr, read, write, generate and generate_edges.
 *
 * Each parses its arguments, checks what the library cannot see (array
 * lengths, enum ranges, sizes to allocate), then makes the library call with
 * the GIL released: building is O(n + m) and often the largest cost a user
 * pays, so other threads run meanwhile.  A graph comes back as a Graph, raw
 * generator edges as two int32 Buffers; a failed call raises the exception of
 * its status (module.c).
 */
#include "ext.h"

#include <stdint.h>

/* ---- what the builders share ---------------------------------------------- */

/* The trailing arguments of from_edges, from_csr and read.  directed: 0
 * default, 1 directed, 2 undirected (lg_directedness_t); duplicates:
 * lg_duplicates_t; weight_type: lg_weight_type_t (from_edges and from_csr:
 * 1 reads the weights as float32, 2 as float64). */
typedef struct {
    int directed, symmetrize, drop_self_loops, duplicates, weight_type;
    PyObject *ctx_o;
} build_args;

/* Their C form, and the graph the call makes. */
typedef struct {
    lgpy_state *st;
    lg_context_t *ctx;
    lg_graph_options_t options;
    lg_graph_t *g;
} build;

static int build_setup(PyObject *module, const build_args *a, build *b)
{
    b->st = lgpy_state_of_module(module);
    b->g = NULL;
    lg_graph_options_init(&b->options);
    if (lgpy_context_arg(b->st, a->ctx_o, &b->ctx) < 0)
        return -1;
    if (a->directed < 0 || a->directed > 2) {
        PyErr_Format(PyExc_ValueError,
                     "directed: must be 0 (default), 1 (directed) or 2 "
                     "(undirected), not %d",
                     a->directed);
        return -1;
    }
    if (a->duplicates < LG_DUPLICATES_KEEP || a->duplicates > LG_DUPLICATES_LAST) {
        PyErr_Format(PyExc_ValueError, "duplicates: must be 0..5 (lg_duplicates_t), not %d",
                     a->duplicates);
        return -1;
    }
    if (a->weight_type < LG_WEIGHTS_NONE || a->weight_type > LG_WEIGHTS_FLOAT64) {
        PyErr_Format(PyExc_ValueError,
                     "weight_type: must be 0 (the input's), 1 (float32) or 2 (float64), not %d",
                     a->weight_type);
        return -1;
    }
    b->options.directedness = (lg_directedness_t)a->directed;
    b->options.weight_type = (lg_weight_type_t)a->weight_type;
    b->options.symmetrize = a->symmetrize != 0;
    b->options.drop_self_loops = a->drop_self_loops != 0;
    b->options.duplicates = (lg_duplicates_t)a->duplicates;
    return 0;
}

/* Runs fn(job), which makes *g with the options o, watched (Ctrl-C, a
 * progress bar: watch.c): the new Graph, or NULL with the exception of the
 * failure set. */
static PyObject *made_graph(lgpy_state *st, lgpy_job_fn fn, void *job, lg_graph_options_t *o,
                            lg_graph_t **g)
{
    lgpy_watch w;
    lgpy_watch_init(&w, st, true);
    LGPY_WATCH(o, &w);
    if (lgpy_call_watched(st, fn, job, &w) < 0) {
        lg_graph_free(g); /* made, when the stop came after the last step */
        return NULL;
    }
    return lgpy_graph_wrap(st, *g);
}

static int format_arg(int format)
{
    if (format < LG_FORMAT_AUTO || format > LG_FORMAT_BINARY) {
        PyErr_Format(PyExc_ValueError, "format: must be 0..4 (lg_file_format_t), not %d", format);
        return -1;
    }
    return 0;
}

/* ---- from arrays ---------------------------------------------------------- */

/* from_edges and from_csr: two arrays (src and dst, or offsets and indices)
 * and optional weights, one per edge. */
typedef struct {
    build b;
    int64_t num_vertices; /* from_edges: < 0, one more than the largest id */
    lgpy_array first, second, weights;
} arrays_build;

/* Reads first and second from their arguments and checks them: the number
 * of edges, or -1 with an exception set. */
typedef Py_ssize_t (*read_arrays_fn)(arrays_build *j, PyObject *first_o, PyObject *second_o);

/* Reads the arrays (read, then the weights), makes the graph (make), lets go
 * of the arrays: the Graph, or NULL with an exception set. */
static PyObject *build_from_arrays(PyObject *module, const build_args *a, int64_t num_vertices,
                                   PyObject *const arrays[3], read_arrays_fn read, lgpy_job_fn make)
{
    arrays_build j = {.num_vertices = num_vertices,
                      .first = LGPY_ARRAY_INIT,
                      .second = LGPY_ARRAY_INIT,
                      .weights = LGPY_ARRAY_INIT};
    if (build_setup(module, a, &j.b) < 0)
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t m = read(&j, arrays[0], arrays[1]);
    j.weights.private_copy = 1;
    const lgpy_elem wel = a->weight_type == LG_WEIGHTS_FLOAT64 ? LGPY_F64 : LGPY_F32;
    if (m >= 0 && lgpy_array_get_optional(arrays[2], "weights", wel, m, &j.weights) == 0)
        result = made_graph(j.b.st, make, &j, &j.b.options, &j.b.g);
    lgpy_array_release(&j.first);
    lgpy_array_release(&j.second);
    lgpy_array_release(&j.weights);
    return result;
}

static Py_ssize_t read_edges(arrays_build *j, PyObject *src_o, PyObject *dst_o)
{
    if (lgpy_array_get_private(src_o, "src", LGPY_I32, &j->first) < 0 ||
        lgpy_array_get_private(dst_o, "dst", LGPY_I32, &j->second) < 0)
        return -1;
    if (j->first.length != j->second.length) {
        PyErr_Format(PyExc_ValueError, "src and dst: must have the same length, not %zd and %zd",
                     j->first.length, j->second.length);
        return -1;
    }
    return j->first.length;
}

static lg_status_t from_edges(void *job)
{
    arrays_build *j = job;
    const int64_t m = j->first.length;
    const lg_vertex_t *src = j->first.data, *dst = j->second.data;
    if (j->num_vertices < 0) {
        int64_t top = -1;
        for (int64_t i = 0; i < m; i++) {
            if (src[i] > top)
                top = src[i];
            if (dst[i] > top)
                top = dst[i];
        }
        j->num_vertices = top + 1;
    }
    if (j->b.options.weight_type == LG_WEIGHTS_FLOAT64)
        return lg_graph_from_edges_f64(j->b.ctx, j->num_vertices, m, src, dst, j->weights.data,
                                       &j->b.options, &j->b.g);
    return lg_graph_from_edges(j->b.ctx, j->num_vertices, m, src, dst, j->weights.data,
                               &j->b.options, &j->b.g);
}

static PyObject *mod_from_edges(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"num_vertices", "src",        "dst",     "weights",
                         "directed",     "symmetrize", "drop_self_loops",
                         "duplicates",   "context",    "weight_type", NULL};
    long long nv;
    PyObject *arrays[3] = {NULL, NULL, Py_None}; /* src, dst, weights */
    build_args a = {.ctx_o = Py_None};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LOO|Oipp$iOi:from_edges", kw, &nv, &arrays[0],
                                     &arrays[1], &arrays[2], &a.directed, &a.symmetrize,
                                     &a.drop_self_loops, &a.duplicates, &a.ctx_o, &a.weight_type))
        return NULL;
    return build_from_arrays(module, &a, (int64_t)nv, arrays, read_edges, from_edges);
}

/* the arrays are private copies: offsets checked here, all of them by the library */
static Py_ssize_t read_csr(arrays_build *j, PyObject *off_o, PyObject *idx_o)
{
    if (lgpy_array_get_private(off_o, "offsets", LGPY_I64, &j->first) < 0 ||
        lgpy_array_get_private(idx_o, "indices", LGPY_I32, &j->second) < 0)
        return -1;
    if (j->first.length < 1) {
        PyErr_SetString(PyExc_ValueError, "offsets: needs num_vertices + 1 >= 1 entries");
        return -1;
    }
    const int64_t last = ((const int64_t *)j->first.data)[j->first.length - 1];
    if (last != (int64_t)j->second.length) {
        PyErr_Format(PyExc_ValueError, "indices: has %zd entries, but offsets[-1] is %lld",
                     j->second.length, (long long)last);
        return -1;
    }
    j->num_vertices = (int64_t)j->first.length - 1;
    return j->second.length;
}

static lg_status_t from_csr(void *job)
{
    arrays_build *j = job;
    if (j->b.options.weight_type == LG_WEIGHTS_FLOAT64)
        return lg_graph_from_csr_f64(j->b.ctx, j->num_vertices, j->first.data, j->second.data,
                                     j->weights.data, &j->b.options, &j->b.g);
    return lg_graph_from_csr(j->b.ctx, j->num_vertices, j->first.data, j->second.data,
                             j->weights.data, &j->b.options, &j->b.g);
}

static PyObject *mod_from_csr(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"offsets",         "indices",    "weights", "directed",    "symmetrize",
                         "drop_self_loops", "duplicates", "context", "weight_type", NULL};
    PyObject *arrays[3] = {NULL, NULL, Py_None}; /* offsets, indices, weights */
    build_args a = {.ctx_o = Py_None};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|Oipp$iOi:from_csr", kw, &arrays[0],
                                     &arrays[1], &arrays[2], &a.directed, &a.symmetrize,
                                     &a.drop_self_loops, &a.duplicates, &a.ctx_o, &a.weight_type))
        return NULL;
    return build_from_arrays(module, &a, -1, arrays, read_csr, from_csr);
}

/* ---- from GPU memory ------------------------------------------------------ */

typedef struct {
    build b;
    int64_t num_vertices, num_edges;
    const lg_vertex_t *src, *dst;
    const float *weights;
} device_build;

static lg_status_t from_device_edges(void *job)
{
    device_build *j = job;
    return lg_graph_from_device_edges(j->b.ctx, j->num_vertices, j->num_edges, j->src, j->dst,
                                      j->weights, &j->b.options, &j->b.g);
}

/* from_device_edges(num_vertices, src, dst, weights, num_edges, ...): the
 * arrays as addresses in GPU memory (weights 0: none), checked by the
 * Python layer for type and length. */
static PyObject *mod_from_device_edges(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"num_vertices", "src",        "dst",     "weights",
                         "num_edges",    "directed",   "symmetrize", "drop_self_loops",
                         "duplicates",   "context",    NULL};
    unsigned long long src, dst, weights;
    long long n, E;
    build_args a = {.ctx_o = Py_None};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LKKKL|ipp$iO:from_device_edges", kw, &n,
                                     &src, &dst, &weights, &E, &a.directed, &a.symmetrize,
                                     &a.drop_self_loops, &a.duplicates, &a.ctx_o))
        return NULL;
    device_build j = {.num_vertices = n,
                      .num_edges = E,
                      .src = (const lg_vertex_t *)(uintptr_t)src,
                      .dst = (const lg_vertex_t *)(uintptr_t)dst,
                      .weights = (const float *)(uintptr_t)weights};
    if (build_setup(module, &a, &j.b) < 0)
        return NULL;
    return made_graph(j.b.st, from_device_edges, &j, &j.b.options, &j.b.g);
}

/* ---- files ---------------------------------------------------------------- */

/* read's (b) or write's (on) arguments, and the file. */
typedef struct {
    build b;
    lgpy_on_graph on;
    const char *path;
    lg_file_format_t format;
    lg_write_options_t write_options; /* write's: the watch's callback */
} file_job;

static lg_status_t read_graph(void *job)
{
    file_job *j = job;
    return lg_graph_read(j->b.ctx, j->path, j->format, &j->b.options, &j->b.g);
}

static PyObject *mod_read(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"path",       "format",  "directed",   "symmetrize",  "drop_self_loops",
                         "duplicates", "context", "skip_names", "weight_type", NULL};
    PyObject *path = NULL;
    int format = 0, skip_names = 0;
    build_args a = {.ctx_o = Py_None};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|iipp$iOpi:read", kw, PyUnicode_FSConverter,
                                     &path, &format, &a.directed, &a.symmetrize, &a.drop_self_loops,
                                     &a.duplicates, &a.ctx_o, &skip_names, &a.weight_type))
        return NULL;
    file_job j = {.path = PyBytes_AsString(path), .format = (lg_file_format_t)format};
    PyObject *result = NULL;
    if (build_setup(module, &a, &j.b) == 0 && format_arg(format) == 0) {
        j.b.options.skip_names = skip_names != 0;
        result = made_graph(j.b.st, read_graph, &j, &j.b.options, &j.b.g);
    }
    Py_DECREF(path);
    return result;
}

static lg_status_t write_graph(void *job)
{
    file_job *j = job;
    return lg_graph_write_with(j->on.ctx, j->on.g, j->path, j->format, &j->write_options);
}

static PyObject *mod_write(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"graph", "path", "format", "context", "plain", NULL};
    PyObject *graph_o, *path = NULL, *ctx_o = Py_None;
    int format = 0, plain = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO&|i$Op:write", kw, &graph_o,
                                     PyUnicode_FSConverter, &path, &format, &ctx_o, &plain))
        return NULL;
    file_job j = {.path = PyBytes_AsString(path), .format = (lg_file_format_t)format};
    PyObject *result = NULL;
    if (lgpy_on_graph_args(module, graph_o, ctx_o, &j.on) == 0 && format_arg(format) == 0) {
        lgpy_watch w;
        lgpy_watch_init(&w, j.on.st, true);
        lg_write_options_init(&j.write_options);
        j.write_options.plain = plain != 0;
        LGPY_WATCH(&j.write_options, &w);
        if (lgpy_call_watched(j.on.st, write_graph, &j, &w) == 0)
            result = Py_NewRef(Py_None);
    }
    Py_DECREF(path);
    return result;
}

/* ---- generators ----------------------------------------------------------- */

/* A seed: an integer in [0, 2^64) (not wrapped: seeds 5 and 2^64 + 5 differ). */
static int seed_arg(PyObject *obj, unsigned long long *seed)
{
    if (!obj)
        return 0;
    PyObject *v = PyNumber_Index(obj);
    if (!v)
        return -1;
    *seed = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    if (*seed == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "seed: must be in [0, 2**64)");
        }
        return -1;
    }
    return 0;
}

typedef struct {
    lgpy_state *st;
    lg_context_t *ctx;
    int generator, scale, edge_factor;
    unsigned long long seed;
    lg_graph_options_t options; /* generate's: the GAP benchmark's convention */
    lg_graph_t *g;              /* generate's */
    lg_vertex_t *src, *dst; /* generate_edges's */
    lgpy_watch *watch;      /* generate_edges's: told of each block */
} generate_job;

/* The arguments of generate and generate_edges (format names the function). */
static int generate_args(PyObject *module, PyObject *args, PyObject *kwargs, const char *format,
                         generate_job *j)
{
    static char *kw[] = {"generator", "scale", "edge_factor", "seed", "context", NULL};
    PyObject *seed_o = NULL, *ctx_o = Py_None;
    *j = (generate_job){.edge_factor = 16, .seed = 1};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kw, &j->generator, &j->scale,
                                     &j->edge_factor, &seed_o, &ctx_o) ||
        seed_arg(seed_o, &j->seed) < 0)
        return -1;
    j->st = lgpy_state_of_module(module);
    return lgpy_context_arg(j->st, ctx_o, &j->ctx);
}

static lg_status_t generate(void *job)
{
    generate_job *j = job;
    return lg_generate(j->ctx, (lg_generator_t)j->generator, j->scale, j->edge_factor,
                       (uint64_t)j->seed, &j->options, &j->g);
}

static PyObject *mod_generate(PyObject *module, PyObject *args, PyObject *kwargs)
{
    generate_job j;
    if (generate_args(module, args, kwargs, "ii|iO$O:generate", &j) < 0)
        return NULL;
    /* what lg_generate takes for NULL options, with the watch's callback */
    lg_graph_options_init(&j.options);
    j.options.directedness = LG_UNDIRECTED;
    j.options.drop_self_loops = true;
    j.options.duplicates = LG_DUPLICATES_FIRST;
    return made_graph(j.st, generate, &j, &j.options, &j.g);
}

/* In blocks of the edge list (each edge depends on the seed and its index
 * alone), each a step of the watch: Ctrl-C answers between blocks. */
static lg_status_t generate_edges(void *job)
{
    enum { BLOCK = 1 << 21 }; /* lg_generate's block (generate.c) */
    generate_job *j = job;
    const int64_t E = (int64_t)j->edge_factor << j->scale;
    for (int64_t first = 0; first < E; first += BLOCK) {
        const int64_t count = E - first < BLOCK ? E - first : BLOCK;
        const lg_status_t st = lg_generate_edge_range(
            j->ctx, (lg_generator_t)j->generator, j->scale, j->edge_factor, (uint64_t)j->seed,
            first, count, j->src + first, j->dst + first);
        const lg_progress_info_t info = {LG_STAGE_GENERATE, first + count, E, 0.0};
        if (st != LG_OK)
            return st;
        if (!lgpy_watch_step(&info, j->watch))
            return LG_ERR_CANCELLED;
    }
    return LG_OK;
}

static PyObject *mod_generate_edges(PyObject *module, PyObject *args, PyObject *kwargs)
{
    generate_job j;
    if (generate_args(module, args, kwargs, "ii|iO$O:generate_edges", &j) < 0)
        return NULL;
    /* sizes checked here: the arrays are allocated before the library sees them */
    if (j.scale < 1 || j.scale > 30 || j.edge_factor < 1 ||
        (int64_t)j.edge_factor > (PY_SSIZE_T_MAX / 8) >> j.scale) {
        PyErr_Format(PyExc_ValueError,
                     "scale %d, edge_factor %d: need scale in [1, 30], "
                     "edge_factor >= 1 and edge_factor << scale edges that fit memory",
                     j.scale, j.edge_factor);
        return NULL;
    }
    const Py_ssize_t m = (Py_ssize_t)j.edge_factor << j.scale;
    PyObject *src = lgpy_buffer_new(j.st, 'i', 4, m, NULL, NULL);
    PyObject *dst = src ? lgpy_buffer_new(j.st, 'i', 4, m, NULL, NULL) : NULL;
    if (!dst) {
        Py_XDECREF(src);
        return NULL;
    }
    j.src = lgpy_buffer_data(src);
    j.dst = lgpy_buffer_data(dst);
    lgpy_watch w;
    lgpy_watch_init(&w, j.st, true);
    j.watch = &w;
    if (lgpy_call_watched(j.st, generate_edges, &j, &w) < 0) {
        Py_DECREF(src);
        Py_DECREF(dst);
        return NULL;
    }
    return Py_BuildValue("(NN)", src, dst);
}

PyMethodDef lgpy_builder_methods[] = {
    {"from_edges", (PyCFunction)(void (*)(void))mod_from_edges, METH_VARARGS | METH_KEYWORDS,
     "from_edges(num_vertices, src, dst, weights=None, directed=0, symmetrize=False, "
     "drop_self_loops=False, *, duplicates=0, context=None) -> Graph\n\n"
     "lg_graph_from_edges.  num_vertices < 0: one more than the largest id.  directed: "
     "0 default (directed), 1 directed, 2 undirected; duplicates: lg_duplicates_t."},
    {"from_device_edges", (PyCFunction)(void (*)(void))mod_from_device_edges,
     METH_VARARGS | METH_KEYWORDS,
     "from_device_edges(num_vertices, src, dst, weights, num_edges, directed=0, "
     "symmetrize=False, drop_self_loops=False, *, duplicates=0, context=None) -> Graph\n\n"
     "lg_graph_from_device_edges: src, dst, weights (0: none) are GPU addresses."},
    {"from_csr", (PyCFunction)(void (*)(void))mod_from_csr, METH_VARARGS | METH_KEYWORDS,
     "from_csr(offsets, indices, weights=None, directed=0, symmetrize=False, "
     "drop_self_loops=False, *, duplicates=0, context=None) -> Graph\n\nlg_graph_from_csr."},
    {"read", (PyCFunction)(void (*)(void))mod_read, METH_VARARGS | METH_KEYWORDS,
     "read(path, format=0, directed=0, symmetrize=False, drop_self_loops=False, *, "
     "duplicates=0, context=None, skip_names=False) -> Graph\n\nlg_graph_read; format: "
     "lg_file_format_t; skip_names: lg_graph_options_t.skip_names."},
    {"write", (PyCFunction)(void (*)(void))mod_write, METH_VARARGS | METH_KEYWORDS,
     "write(graph, path, format=0, *, context=None, plain=False)\n\nlg_graph_write_with."},
    {"generate", (PyCFunction)(void (*)(void))mod_generate, METH_VARARGS | METH_KEYWORDS,
     "generate(generator, scale, edge_factor=16, seed=1, *, context=None) -> Graph\n\n"
     "lg_generate with the GAP benchmark's convention (undirected, no self-loops, "
     "duplicates merged); generator 0 Kronecker, 1 uniform random."},
    {"generate_edges", (PyCFunction)(void (*)(void))mod_generate_edges,
     METH_VARARGS | METH_KEYWORDS,
     "generate_edges(generator, scale, edge_factor=16, seed=1, *, context=None) -> (src, dst)\n\n"
     "lg_generate_edges: the raw edges (self-loops and duplicates included)."},
    {NULL, NULL, 0, NULL},
};
