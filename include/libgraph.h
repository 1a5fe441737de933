/*
 * libgraph.h - the one public header of libgraph.
 *
 * libgraph is a graph-analytics library: graphs in compressed sparse row (CSR)
 * form, and BFS, PageRank and connected components on them, run on the CPU
 * (OpenMP) or on a GPU (a plugin loaded at run time).  Each algorithm has
 * its own typed entry point, and a descriptor through which any of them can
 * be listed and run by name ("Algorithms as data", at the end).
 *
 * Conventions that hold for every function below:
 *
 *  - Every function that can fail returns an lg_status_t.  LG_OK is 0.  On any
 *    other value, lg_last_error() returns a message, for the calling thread,
 *    that says exactly what was wrong ("edge 17: destination 1000 >=
 *    num_vertices 1000").  A failed call leaves its outputs and the world as it
 *    found them, except where the function says otherwise (PageRank returns its
 *    last iterate with LG_ERR_NOT_CONVERGED; a cancelled call's outputs are
 *    unspecified, see "Progress and cancellation").
 *  - The library never prints, aborts or exits, and frees everything it
 *    allocated on every error path.
 *  - Handles are opaque.  lg_X_free(&h) accepts a NULL handle (and a pointer to
 *    one) and sets *h to NULL.
 *  - Options are structs filled with their defaults by an lg_X_options_init()
 *    function; set the fields you care about afterwards.  A NULL options
 *    pointer means "the defaults".  New fields may be added at the end in later
 *    versions, so always call the init function.
 *  - Outputs go into arrays the caller owns and sizes (num_vertices entries
 *    unless stated otherwise).
 *  - Every context parameter may be NULL: the CPU, with OpenMP's default
 *    thread count.
 *  - A graph is immutable once built and may be read from many threads at once.
 *    A context may be shared by threads too.  Freeing a graph or a context
 *    while another thread still uses it is the caller's error: handles are
 *    not reference-counted (the AddressSanitizer build reports it as a use
 *    after free).
 *
 * Vertex ids are lg_vertex_t (int32_t), 0 .. num_vertices-1.  Edge offsets and
 * counts are lg_edge_t (int64_t), so graphs past 2^31 edges work.  Weights are
 * float, finite and >= 0.
 */
#ifndef LIBGRAPH_H
#define LIBGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define LG_API
#elif defined(__GNUC__)
#define LG_API __attribute__((visibility("default")))
#else
#define LG_API
#endif

#define LG_VERSION_MAJOR 0
#define LG_VERSION_MINOR 1
#define LG_VERSION_PATCH 0

typedef int32_t lg_vertex_t;
typedef int64_t lg_edge_t;

/* The largest number of vertices a graph may have (ids must fit lg_vertex_t). */
#define LG_MAX_VERTICES ((int64_t)INT32_MAX)

/* ------------------------------------------------------------------------ */
/* Status and errors                                                        */
/* ------------------------------------------------------------------------ */

typedef enum lg_status {
    LG_OK = 0,
    LG_ERR_INVALID_ARGUMENT = 1, /* a NULL, a bad id, weight, count or option */
    LG_ERR_OUT_OF_MEMORY = 2,    /* host or device memory ran out            */
    LG_ERR_DEVICE = 3,           /* the GPU runtime failed or is absent       */
    LG_ERR_UNSUPPORTED = 4,      /* valid, but not supported by this build    */
    LG_ERR_IO = 5,               /* a file could not be read, written or parsed */
    LG_ERR_NOT_CONVERGED = 6,    /* an iteration hit its limit; output holds the last iterate */
    LG_ERR_INTERNAL = 7,         /* a bug in libgraph; please report it        */
    LG_ERR_CANCELLED = 8,        /* the progress callback asked the call to stop */
    LG_ERR_UNBOUNDED = 9         /* a negative cycle: shortest paths have no minimum */
} lg_status_t;

/* A constant name for a status ("LG_ERR_IO"); never NULL. */
LG_API const char *lg_status_string(lg_status_t status);

/* The message of the most recent failed libgraph call on this thread, or ""
 * when none has failed.  Successful calls do not clear it.  The pointer stays
 * valid until the next libgraph call on this thread. */
LG_API const char *lg_last_error(void);

/* Sets the calling thread's lg_last_error() to message (cut to fit) and
 * returns status: for libraries layered on libgraph (libgraph_dist), so
 * that one lg_last_error() serves a program that uses both. */
LG_API lg_status_t lg_error_set(lg_status_t status, const char *message);

/* "0.1.0" */
LG_API const char *lg_version_string(void);

/* One line saying how this library was built and which GPU plugin it uses,
 * its fields separated by "; " and each saying what it is:
 *   "libgraph 0.1.0; compiler: gcc 12.2.0; CPU: x86_64; threads: OpenMP 201511;
 *    vectors: SSE2; GPU plugin: /usr/lib/libgraph_cuda.so"
 * where the last field says why there is none when there is none ("no GPU
 * plugin found: looked for ...").  Finding the plugin loads it, once per
 * process, but opens no device. */
LG_API const char *lg_build_info(void);

/* Where a call's output arrays are. */
typedef enum lg_memory {
    LG_MEMORY_HOST = 0,  /* host memory (the default)                          */
    LG_MEMORY_DEVICE = 1 /* memory of the context's GPU: the call then runs on the GPU,
                            and writes its results there without a host copy;
                            a context without a GPU is LG_ERR_INVALID_ARGUMENT,
                            an algorithm the GPU has no kernel for LG_ERR_UNSUPPORTED,
                            and an AUTO context does not fall back to the CPU */
} lg_memory_t;

/* ------------------------------------------------------------------------ */
/* Progress and cancellation                                                */
/* ------------------------------------------------------------------------ */

/* What a long call is doing when it reports progress. */
typedef enum lg_stage {
    LG_STAGE_READ = 1,         /* reading a file: done and total bytes                  */
    LG_STAGE_PARSE = 2,        /* parsing a text file: done and total bytes             */
    LG_STAGE_BUILD = 3,        /* building a graph: done and total steps                */
    LG_STAGE_BFS = 4,          /* BFS: done levels, total -1 (unknown)                  */
    LG_STAGE_PAGERANK = 5,     /* PageRank: done iterations, total max_iter; residual   */
    LG_STAGE_COMPONENTS = 6,   /* connected components: done and total passes (-1: unknown) */
    LG_STAGE_GENERATE = 7,     /* lg_generate: done and total edges                       */
    LG_STAGE_WRITE = 8,        /* writing a file: done and total bytes (-1: unknown)       */
    LG_STAGE_SSSP = 9,         /* SSSP: done buckets, total -1 (unknown); residual: the
                                distance the buckets have settled up to              */
    LG_STAGE_SCC = 10,         /* strongly connected components: done steps, total -1  */
    LG_STAGE_BETWEENNESS = 11, /* betweenness: done and total sources                 */
    LG_STAGE_CLOSENESS = 12,   /* closeness: done and total vertices                  */
    LG_STAGE_EIGENVECTOR = 13, /* eigenvector: done iterations, total max_iter; residual */
    LG_STAGE_KATZ = 14,        /* Katz: done iterations, total max_iter; residual     */
    LG_STAGE_HITS = 15,        /* HITS: done iterations, total max_iter; residual     */
    LG_STAGE_TRIANGLES = 16    /* triangles, clustering: done and total vertices     */
} lg_stage_t;

typedef struct lg_progress_info {
    lg_stage_t stage;
    int64_t done;    /* units of the stage finished                                  */
    int64_t total;   /* units in all, or -1 when not known ahead                    */
    double residual; /* PageRank: the L1 change of the last iteration; else 0        */
} lg_progress_info_t;

/*
 * A progress callback: called by a long operation (reading, generating,
 * building and writing a graph, BFS, PageRank, connected components; on the
 * CPU and on the GPU) between its steps -- each PageRank iteration (and once
 * more, with the same count, after the reordering PageRank gives a large
 * graph after its first iteration), each BFS level, each pass, each phase of
 * a build, every few megabytes of a file -- always on the thread that made
 * the call, never while its own OpenMP threads run.
 * Returning true goes on; returning false stops the operation at that step:
 * it frees what it allocated and returns LG_ERR_CANCELLED, its graph output
 * as it was and its array outputs holding unspecified values.  Graphs, contexts
 * and devices stay usable.  The callback must not call libgraph functions
 * on the same graph.  Steps are short (a PageRank iteration on a 1 GB graph
 * is about a tenth of a second on a few cores), so a flag set by a signal
 * handler and returned here answers within a fraction of a second.
 */
typedef bool (*lg_progress_fn)(const lg_progress_info_t *info, void *user_data);

/* ------------------------------------------------------------------------ */
/* Context                                                                  */
/* ------------------------------------------------------------------------ */

typedef enum lg_backend_kind {
    LG_BACKEND_AUTO = 0, /* a GPU if one answers (used by the rule below), else the CPU */
    LG_BACKEND_CPU = 1,
    LG_BACKEND_GPU = 2
} lg_backend_t;

typedef struct lg_context lg_context_t;

/* The most CPU threads a context runs (num_threads above it is refused; an
 * OpenMP default above it, e.g. from OMP_NUM_THREADS, is capped to it). */
#define LG_MAX_THREADS 4096

typedef struct lg_context_options {
    lg_backend_t backend; /* default LG_BACKEND_AUTO                            */
    int device_id;        /* GPU ordinal, default 0                            */
    int num_threads;      /* CPU threads, <= LG_MAX_THREADS; 0 (default) = OpenMP's */
    void *stream;         /* GPU stream (hipStream_t / cudaStream_t); NULL = default */
} lg_context_options_t;

/* The threads a call's host side runs on (a CPU call; a GPU call's copies).
 * A pass over fewer than 2^18 elements (vertices + edges) runs on the
 * calling thread: waking a team costs more than it saves there.  With
 * num_threads 0, a call runs on no more threads than the cores other
 * programs leave free (the machine's runnable threads, /proc/loadavg, less
 * this process's own, /proc/self/task, whose idle OpenMP workers spin
 * between calls; read at most every 10 ms): on a busy machine a team waits
 * at every barrier for the thread the scheduler has put aside, which costs a
 * time slice where a pass takes less.  A count given in num_threads is used
 * as given.  The results do not depend on the team: BFS, components and the
 * builds give the same arrays, PageRank the same scores up to the rounding
 * of its sums.
 *
 * OpenMP's threads spin a while when they wait, then sleep: libgomp for
 * 300,000 pauses (6-8 ms), LLVM's libomp for 200 ms.  lgraph and the Python
 * module set libomp's to 10 ms (KMP_BLOCKTIME) unless the environment
 * chooses (OMP_WAIT_POLICY, GOMP_SPINCOUNT, KMP_BLOCKTIME, KMP_LIBRARY); a
 * program of its own linked with libomp may do the same.  Sleeping at once
 * (OMP_WAIT_POLICY=passive) costs every parallel region a wake-up: a GPU
 * BFS on kron:22 took 0.2 ms longer that way on a 16-core host
 * (docs/decisions/openmp-waits.md). */

LG_API void lg_context_options_init(lg_context_options_t *options);

/*
 * Sets options->backend and options->device_id from a device string, the
 * form the CLI's --device and Python's device= take: "auto", "cpu", "gpu"
 * (GPU 0) or "gpu:N" (GPU N, N a decimal ordinal).  Other fields are left as
 * they are.  A string of any other form is LG_ERR_INVALID_ARGUMENT with
 * lg_last_error() naming it, and options unchanged.
 */
LG_API lg_status_t lg_context_options_parse(lg_context_options_t *options, const char *device);

/*
 * Opens a context.  options may be NULL (the defaults: LG_BACKEND_AUTO).
 *
 * LG_BACKEND_GPU loads the GPU plugin and opens GPU device_id on stream.  The
 * plugin is libgraph_cuda.so or libgraph_hip.so, looked for first in the
 * directory of libgraph.so (of the program, when libgraph is linked
 * statically), then in each entry of the environment variable
 * LIBGRAPH_PLUGIN_PATH, a colon-separated list of directories and plugin
 * files.  It is loaded once per process, when the first GPU or AUTO context
 * is created, and never unloaded.  Without a usable plugin, a driver, or the
 * device, LG_BACKEND_GPU fails with LG_ERR_DEVICE and lg_last_error() says
 * why (where it looked and what was wrong with each plugin it found, or the
 * plugin's own message); LG_ERR_OUT_OF_MEMORY when memory ran out on the way.
 *
 * LG_BACKEND_AUTO tries the same and, when it fails, quietly makes a CPU
 * context (lg_last_error() is left as it was).
 */
LG_API lg_status_t lg_context_create(lg_context_t **context, const lg_context_options_t *options);
LG_API void lg_context_free(lg_context_t **context);

/* The backend the context actually runs on (never LG_BACKEND_AUTO). */
LG_API lg_status_t lg_context_get_backend(const lg_context_t *context, lg_backend_t *backend);
/* The CPU thread count the context uses (resolved, >= 1). */
LG_API lg_status_t lg_context_get_num_threads(const lg_context_t *context, int *num_threads);
/* What the context runs on, as one line: "cpu (2 threads)", or the GPU's
 * ordinal, name, plugin, runtime and wave width, e.g. "gpu 0: NVIDIA H100
 * 80GB HBM3 (cuda, CUDA runtime 13.0, driver 13.0, wave 32)".  The string is
 * owned by the context and lives as long as it. */
LG_API lg_status_t lg_context_get_device(const lg_context_t *context, const char **description);

/*
 * Copies bytes from src to dst, either of them memory of the context's GPU
 * (or both), on the context's device and stream, and returns when the copy
 * is done: the runtime tells the direction by the addresses (unified
 * addressing), so a host application can bring a GPU array in, or put a
 * result into one, without a GPU runtime of its own.  Work another stream
 * has queued on src must be finished first (the copy runs on the context's
 * stream, ordered after the legacy default stream's work).  A context
 * without a GPU is LG_ERR_UNSUPPORTED; an address the runtime rejects is
 * LG_ERR_DEVICE with its message.
 */
LG_API lg_status_t lg_context_copy(lg_context_t *context, void *dst, const void *src, size_t bytes);

/*
 * Where the algorithms run.  On a CPU context (or a NULL one), on the CPU.
 * On a context created with LG_BACKEND_GPU, on the GPU; an algorithm the
 * GPU plugin has no kernel for fails with LG_ERR_UNSUPPORTED, as does a call
 * its GPU kernel cannot take (the power iterations read float32 weights and
 * refuse a float64 graph's), and one that runs out of GPU memory with
 * LG_ERR_OUT_OF_MEMORY.
 * On a context created with LG_BACKEND_AUTO that found a GPU, where the
 * answer comes sooner:
 *  - on the GPU when the graph is already there (an earlier GPU call copied
 *    it);
 *  - otherwise on the CPU (with the context's thread count) until the
 *    graph's CPU calls have taken as long as its copy to the
 *    GPU is estimated to take (its CSR bytes at 25 GB/s plus 1 ms), and on
 *    the GPU from then on: the first calls on a graph are often faster on
 *    the CPU than a copy plus the GPU call, the later ones faster on the GPU;
 *  - on the CPU when the GPU plugin has no kernel for the algorithm, or
 *    after the GPU ran out of memory for the call or its kernel refused it.
 * The first GPU call on a graph copies it to the device; the copy stays with
 * the graph (one per graph, made and used under a lock of the graph's, so
 * GPU calls on one graph run one at a time) until lg_graph_free.
 *
 * lg_last_backend() says which backend ran this thread's last algorithm call
 * (successful or not): LG_BACKEND_CPU or LG_BACKEND_GPU, or LG_BACKEND_AUTO
 * before any call and when the last call ran nowhere (bad arguments, or
 * LG_ERR_UNSUPPORTED above).  lg_last_backend_reason() says why, when an
 * LG_BACKEND_AUTO context chose (e.g. "the graph is on the GPU"), and ""
 * otherwise; the string is static.
 */
LG_API lg_backend_t lg_last_backend(void);
LG_API const char *lg_last_backend_reason(void);

/* ------------------------------------------------------------------------ */
/* Graph                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct lg_graph lg_graph_t;

typedef enum lg_directedness {
    LG_DIRECTEDNESS_DEFAULT = 0, /* arrays: undirected; files: see lg_graph_read */
    LG_DIRECTED = 1,
    LG_UNDIRECTED = 2
} lg_directedness_t;

/* What to do with edges that repeat (same source and destination). */
typedef enum lg_duplicates {
    LG_DUPLICATES_KEEP = 0,  /* keep every copy (a multigraph)                   */
    LG_DUPLICATES_SUM = 1,   /* one edge, weight = sum of the copies (SciPy)     */
    LG_DUPLICATES_MIN = 2,   /* one edge, weight = smallest copy                 */
    LG_DUPLICATES_MAX = 3,   /* one edge, weight = largest copy                  */
    LG_DUPLICATES_FIRST = 4, /* one edge, weight of the first copy in the input  */
    LG_DUPLICATES_LAST = 5   /* one edge, weight of the last copy (NetworkX's add_edge) */
} lg_duplicates_t;

/*
 * Weights are float32 or float64.  A graph keeps its input's type unless
 * options->weight_type asks for the other: lg_graph_from_edges and
 * lg_graph_from_csr take float32, their _f64 twins float64, a text file's
 * weights are read as float32 (with LG_WEIGHTS_FLOAT64, each decimal is
 * rounded once, to the nearest double, as Python's float() rounds it), a
 * .lgb's as it recorded them.  A float64
 * graph holds its exact weights (8 bytes an arc) and their float32
 * roundings (4 more) for the kernels that compute in float32 (PageRank);
 * shortest paths read the exact ones.  float32 costs half the memory;
 * float64 makes weighted distances equal to NetworkX's, which adds Python
 * floats, for any weights.
 */
typedef enum lg_weight_type {
    LG_WEIGHTS_NONE = 0, /* an unweighted graph; in options: the input's type */
    LG_WEIGHTS_FLOAT32 = 1,
    LG_WEIGHTS_FLOAT64 = 2
} lg_weight_type_t;

typedef struct lg_graph_options {
    lg_directedness_t directedness; /* default LG_DIRECTEDNESS_DEFAULT            */
    bool symmetrize;                /* directed graphs: add the reverse of every edge   */
    bool drop_self_loops;           /* default false                                     */
    lg_duplicates_t duplicates;     /* default LG_DUPLICATES_KEEP                      */
    lg_progress_fn progress;        /* reading and building; default NULL (none)         */
    void *progress_data;            /* passed to progress                                */
    bool skip_names;                /* lg_graph_read: leave a .lgb's vertex names out     */
    lg_weight_type_t weight_type;   /* store weights as this type; default
                                       LG_WEIGHTS_NONE: as the input holds them          */
} lg_graph_options_t;

LG_API void lg_graph_options_init(lg_graph_options_t *options);

/*
 * Builds a graph from num_edges edges src[i] -> dst[i] (COO), with optional
 * weights (NULL: unweighted).  The arrays are copied; the caller keeps them.
 * Memory at the peak: the caller's edges, the arcs (4 bytes each, 8 with
 * weights; 2 arcs an undirected edge) and 8 bytes a vertex a thread.
 *
 * An undirected graph stores each edge {u, v} in both rows, u's and v's (a
 * self-loop {u, u} once), so its CSR is symmetric and num_edges counts arcs.
 * Rows are sorted by destination; copies of a kept duplicate stay in input order.
 * Duplicates are recognised after symmetrizing: in an undirected graph the
 * edges (u, v) and (v, u) are the same edge.
 *
 * Undirected unless options->directedness is LG_DIRECTED (the one rule of
 * every constructor and loader: undirected unless asked, or recorded).
 * Every id must lie in [0, num_vertices) and every weight be finite
 * (negative weights are kept: lg_graph_has_negative_weights; the algorithms
 * that need weights >= 0 refuse them); otherwise LG_ERR_INVALID_ARGUMENT
 * names the first offending edge and no graph is built.
 */
LG_API lg_status_t lg_graph_from_edges(lg_context_t *context, int64_t num_vertices,
                                       int64_t num_edges, const lg_vertex_t *src,
                                       const lg_vertex_t *dst, const float *weights,
                                       const lg_graph_options_t *options, lg_graph_t **graph);
/* lg_graph_from_edges with float64 weights: a float64 graph unless
 * options->weight_type says LG_WEIGHTS_FLOAT32 (then a weight beyond float's
 * range is refused as not finite). */
LG_API lg_status_t lg_graph_from_edges_f64(lg_context_t *context, int64_t num_vertices,
                                           int64_t num_edges, const lg_vertex_t *src,
                                           const lg_vertex_t *dst, const double *weights,
                                           const lg_graph_options_t *options, lg_graph_t **graph);

/*
 * Builds a graph from CSR arrays: row_offsets[num_vertices + 1] (row_offsets[0]
 * == 0, non-decreasing), col_indices[row_offsets[num_vertices]] and optional
 * weights of the same length.  The arrays are copied.  Undirected unless
 * options->directedness is LG_DIRECTED, as lg_graph_from_edges.  For an undirected graph
 * the CSR must already be symmetric -- the arcs (u, v, w) and their reverses
 * (v, u, w) are the same multiset, checked after merging duplicates -- unless
 * options->symmetrize is set, in which case the reverse arcs are added.
 */
LG_API lg_status_t lg_graph_from_csr(lg_context_t *context, int64_t num_vertices,
                                     const lg_edge_t *row_offsets, const lg_vertex_t *col_indices,
                                     const float *weights, const lg_graph_options_t *options,
                                     lg_graph_t **graph);
/* lg_graph_from_csr with float64 weights (a float64 graph, as lg_graph_from_edges_f64). */
LG_API lg_status_t lg_graph_from_csr_f64(lg_context_t *context, int64_t num_vertices,
                                         const lg_edge_t *row_offsets,
                                         const lg_vertex_t *col_indices, const double *weights,
                                         const lg_graph_options_t *options, lg_graph_t **graph);

/*
 * lg_graph_from_edges of edges in the memory of the context's GPU (src, dst
 * and weights device pointers), built on the GPU: the same graph to the arc,
 * and the same messages for bad input.  The CSR is downloaded once for the
 * graph's host arrays and kept as its device copy, so edges that are on the
 * GPU reach the GPU's algorithms without crossing to the host and back.
 * Needs a GPU context (LG_ERR_INVALID_ARGUMENT otherwise); the device memory
 * it takes for the build (about 24 bytes an edge) may run out
 * (LG_ERR_OUT_OF_MEMORY).  num_vertices -1 means one more than the largest
 * id (found on the device).
 */
LG_API lg_status_t lg_graph_from_device_edges(lg_context_t *context, int64_t num_vertices,
                                              int64_t num_edges, const lg_vertex_t *src,
                                              const lg_vertex_t *dst, const float *weights,
                                              const lg_graph_options_t *options,
                                              lg_graph_t **graph);

LG_API void lg_graph_free(lg_graph_t **graph);

LG_API int64_t lg_graph_num_vertices(const lg_graph_t *graph);
/* Stored arcs: an undirected edge u-v (u != v) counts twice, a self-loop once. */
LG_API int64_t lg_graph_num_edges(const lg_graph_t *graph);
LG_API bool lg_graph_is_directed(const lg_graph_t *graph);
LG_API bool lg_graph_is_weighted(const lg_graph_t *graph);
/* LG_WEIGHTS_FLOAT32 or LG_WEIGHTS_FLOAT64; LG_WEIGHTS_NONE when unweighted or NULL. */
LG_API lg_weight_type_t lg_graph_weight_type(const lg_graph_t *graph);
/* Whether some weight is < 0 (false for an unweighted graph). */
LG_API bool lg_graph_has_negative_weights(const lg_graph_t *graph);
/* Bytes of host memory the graph holds: its CSR arrays, its names and, once
 * built (lg_graph_csc, or an algorithm that pulls), a directed graph's
 * in-edge arrays (an undirected graph's are its CSR).  A copy on a GPU is device
 * memory and not counted.  0 for NULL. */
LG_API size_t lg_graph_host_bytes(const lg_graph_t *graph);

/* Bytes of memory the system says new allocations can have without swapping
 * (Linux's MemAvailable), or -1 where it does not say: what the library's
 * checks compare their estimates against before taking memory whose size
 * comes from input (a file's vertex count), so that such an input is
 * LG_ERR_OUT_OF_MEMORY instead of a process the kernel kills. */
LG_API int64_t lg_memory_available(void);

/*
 * Vertex names: an optional name for every vertex, a 64-bit integer or a
 * UTF-8 string, kept with the graph and written to (and read from) the
 * binary format, so that an application's own keys survive a save and load.
 * libgraph itself never looks names up.  Names are keys, as NetworkX's nodes
 * are: no two vertices share one.
 */
typedef enum lg_names_kind {
    LG_NAMES_NONE = 0,  /* the graph has no names                          */
    LG_NAMES_INT64 = 1, /* ints[v] is vertex v's name                       */
    LG_NAMES_UTF8 = 2   /* text[offsets[v] .. offsets[v + 1]) is v's name   */
} lg_names_kind_t;

typedef struct lg_names {
    lg_names_kind_t kind;
    const int64_t *ints; /* LG_NAMES_INT64: num_vertices entries                        */
    const int64_t
        *offsets;     /* LG_NAMES_UTF8: num_vertices + 1 byte offsets, from 0, non-decreasing */
    const char *text; /* LG_NAMES_UTF8: the names end to end, valid UTF-8, not
                               NUL-terminated (a name may hold NUL bytes)      */
} lg_names_t;

/*
 * Gives the graph names (copied), or takes them away (names NULL or of kind
 * LG_NAMES_NONE).  Offsets that do not run from 0 upwards, text that is not
 * UTF-8, or a name two vertices share give LG_ERR_INVALID_ARGUMENT naming the
 * first bad vertex (both, for a shared name), and the names are left as they
 * were.  Names are the one thing about a graph
 * that can change: not while another thread reads them (lg_graph_names,
 * lg_graph_write); algorithms do not read them.
 */
LG_API lg_status_t lg_graph_set_names(lg_graph_t *graph, const lg_names_t *names);
/* A borrowed view of the graph's names (kind LG_NAMES_NONE when it has
 * none), valid until they are set again or the graph is freed. */
LG_API lg_status_t lg_graph_names(const lg_graph_t *graph, lg_names_t *names);

/* Borrowed views of the CSR arrays: row_offsets has num_vertices + 1 entries,
 * col_indices and weights num_edges.  *weights is NULL for an unweighted
 * graph, and a float64 graph's float32 roundings (lg_graph_weights_f64 has
 * its exact ones).  Any output pointer may be NULL.  Valid while the graph lives. */
LG_API lg_status_t lg_graph_csr(const lg_graph_t *graph, const lg_edge_t **row_offsets,
                                const lg_vertex_t **col_indices, const float **weights);

/* The in-edge (CSC) arrays, built on first use, once, thread-safely; for an
 * undirected graph they are the CSR arrays.  Column v lists the sources of the
 * arcs into v, sorted. */
LG_API lg_status_t lg_graph_csc(const lg_graph_t *graph, const lg_edge_t **col_offsets,
                                const lg_vertex_t **row_indices, const float **weights);

/* A float64 graph's exact weights, in the order of lg_graph_csr's arcs
 * (in_edges: of lg_graph_csc's, built on first use); NULL for a float32 or
 * unweighted graph.  Valid while the graph lives. */
LG_API lg_status_t lg_graph_weights_f64(const lg_graph_t *graph, bool in_edges,
                                        const double **weights);

/* Out-degrees and in-degrees (arc counts) into degrees[num_vertices]. */
LG_API lg_status_t lg_graph_out_degrees(const lg_graph_t *graph, lg_edge_t *degrees);
LG_API lg_status_t lg_graph_in_degrees(const lg_graph_t *graph, lg_edge_t *degrees);

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

typedef enum lg_file_format {
    LG_FORMAT_AUTO = 0,  /* from the file name's extension                      */
    LG_FORMAT_MTX = 1,   /* Matrix Market coordinate (.mtx), 1-based             */
    LG_FORMAT_EL = 2,    /* text edge list "u v" (.el), 0-based                  */
    LG_FORMAT_WEL = 3,   /* weighted text edge list "u v w" (.wel), 0-based      */
    LG_FORMAT_BINARY = 4 /* libgraph's binary CSR (.lgb), versioned, checksummed */
} lg_file_format_t;

/*
 * Reads a graph.  Text formats: '#' and '%' start comment lines (in .mtx only
 * the header and '%' lines), fields are separated by blanks.  Directedness
 * when options->directedness is LG_DIRECTEDNESS_DEFAULT is what the file
 * records: .lgb its flag; .mtx its header ("symmetric" undirected, "general"
 * directed); .el/.wel the header line lg_graph_write puts first where the
 * file needs it ("# libgraph edge list: directed, 6 vertices, unweighted", a
 * comment to readers that skip '#' lines).  A file that records nothing (an
 * edge list from elsewhere) is undirected.  An explicit choice overrides a text file's
 * record: LG_UNDIRECTED reads each entry as an undirected edge, LG_DIRECTED
 * reads a symmetric .mtx as a directed graph with both arcs of every entry;
 * asking a .lgb for the other kind is LG_ERR_INVALID_ARGUMENT.  An edge list
 * has the header line's vertex count, else one more than its largest id; a
 * .wel whose header line says "unweighted" and whose weights are all 1
 * gives an unweighted graph.  A .lgb's names (lg_graph_names) come with it,
 * checked as lg_graph_set_names checks them (two vertices with one name are
 * LG_ERR_IO naming both), unless options->skip_names leaves them out.
 * A malformed file gives LG_ERR_IO with "path:line: reason"; a weight must
 * be a decimal number whose float (double, with LG_WEIGHTS_FLOAT64) is
 * finite, and 0 only when the number is (one that rounds to 0 is refused);
 * negative weights are read.  A UTF-8
 * byte-order mark at the start is skipped.  A pipe or device (format named:
 * its name has no extension) is checked as it arrives, so binary data is
 * refused on its first part.  Sizes the file gives (a size line, a large
 * id) that need more memory than the system has available are
 * LG_ERR_OUT_OF_MEMORY before the memory is taken.  Memory: a regular text
 * file is read twice in windows of 32 MB (its lines counted, then parsed
 * into edge arrays of that size), so its text is never held whole; a pipe
 * or device is held whole while it is parsed.  The build frees the parsed
 * edges as lg_generate frees its own; a .lgb's arrays become the graph's
 * without a copy unless the options ask for a rebuild.  A regular file
 * that shrinks, or gains lines, while it is read gives LG_ERR_IO.
 */
LG_API lg_status_t lg_graph_read(lg_context_t *context, const char *path, lg_file_format_t format,
                                 const lg_graph_options_t *options, lg_graph_t **graph);

/* Writes a graph (all formats; .mtx as "general", or "symmetric" with the
 * lower triangle for undirected graphs; .el/.wel every arc of a directed
 * graph and each undirected edge once, as "u v" or "u v w" lines).  An
 * edge list starts with the header line above only where reading the file
 * without it would give another graph: a directed graph, a graph whose last
 * vertex has no edges (the vertex count would be one more than the largest
 * id), an unweighted graph as .wel (it would read back weighted).  Other
 * edge lists are bare lines, as GAPBS, igraph and pandas.read_csv read them;
 * lg_write_options_t's plain leaves the line out everywhere.
 * .lgb keeps everything, names included; the text formats keep no names
 * (ids are written).  A regular file is written to a temporary name beside
 * it, synced to disk and renamed over it, so a failure (a full disk) leaves
 * the old file whole and no partial one; the file it replaces keeps its
 * mode, and a symbolic link stays, the file it names replaced (or made, for
 * a dangling link).  A FIFO or device, and /dev/stdout, /dev/fd/N or
 * /proc/self/fd/N, are written into; a directory or "" is an error. */
LG_API lg_status_t lg_graph_write(lg_context_t *context, const lg_graph_t *graph, const char *path,
                                  lg_file_format_t format);

/* What lg_graph_write_with takes beyond lg_graph_write's arguments. */
typedef struct lg_write_options {
    lg_progress_fn progress; /* told of every 16 MB written (LG_STAGE_WRITE); default NULL */
    void *progress_data;     /* passed to progress                                         */
    bool plain;              /* .el/.wel: no header line even where the file needs one (a
                                directed graph, vertices past the largest id, an unweighted
                                .wel), for tools that read bare lines only; the file then
                                reads back without what the line records.  Other formats:
                                LG_ERR_INVALID_ARGUMENT.  Default false                     */
} lg_write_options_t;

LG_API void lg_write_options_init(lg_write_options_t *options);

/* lg_graph_write with options (NULL: the defaults).  A write the progress
 * callback stops is LG_ERR_CANCELLED, and leaves what a failed write leaves:
 * the old file whole and no temporary one (a FIFO or device has what was
 * written to it so far). */
LG_API lg_status_t lg_graph_write_with(lg_context_t *context, const lg_graph_t *graph,
                                       const char *path, lg_file_format_t format,
                                       const lg_write_options_t *options);

/* a .lgb's sections (offsets, arcs, weights, names (2)), then its arcs' symmetry */
#define LG_EDGE_PART_CHECKSUMS 6

/* One part of a graph file's edges (lg_read_edges), in the arrays libgraph
 * allocated: free them with lg_edge_part_free. */
typedef struct lg_edge_part {
    lg_vertex_t *src, *dst; /* count each                                        */
    float *weights;         /* count, or NULL: no weights in this part's lines   */
    int64_t count;
    int64_t num_vertices;           /* what the file declares (.mtx's size line, .lgb's
                               header, libgraph's .el/.wel header line), or -1    */
    lg_directedness_t directedness; /* what the file records, or
                                       LG_DIRECTEDNESS_DEFAULT when it does not  */
    bool both_arcs;                 /* the edges are arcs, each undirected edge as both
                               (u, v) and (v, u): an undirected .lgb              */
    int64_t declared_edges;         /* .mtx's entry count (the parts' counts must add up
                               to it), or -1                                     */
    /* A .lgb part's share of the file's checksum and, for an undirected
     * file, of a hash of its arcs less their reverses (zeros for text
     * files): the parts' arrays added element by element (mod 2^64) are
     * what lg_read_edges_verify checks against the file's header, and for
     * the symmetry lg_graph_read asks of an undirected .lgb. */
    uint64_t checksum[LG_EDGE_PART_CHECKSUMS];
} lg_edge_part_t;

/*
 * Reads part `part` of num_parts of a graph file's edges, for loading one
 * file from many processes: a text file (.mtx, .el, .wel) is cut into
 * num_parts byte ranges of its body, and a part holds the lines that start
 * in its range; a .lgb is cut by rows into parts of about equal arc counts.
 * The parts together hold every edge of the file once, in file order.
 * Messages name the file and line as lg_graph_read's do.  A part of a .lgb
 * is checked for ids and offsets, and its vertex names are not read; the
 * file's checksum covers the whole file, so each part hashes its share
 * (out->checksum: its own bytes, and an even share of the names' blocks)
 * and lg_read_edges_verify checks the parts' sum; so too an undirected
 * file's symmetry (each part's share of a hash of its arcs less their
 * reverses).  The file must be a regular file (a part is a byte range of
 * one).  *out is written only on success.
 */
LG_API lg_status_t lg_read_edges(lg_context_t *context, const char *path, lg_file_format_t format,
                                 int part, int num_parts, lg_edge_part_t *out);
/* Checks a .lgb read in parts: checksum holds the sums, element by element
 * (mod 2^64), of every part's checksum; LG_ERR_IO "checksum mismatch" when
 * the file's header disagrees, and LG_ERR_IO "... needs a symmetric CSR"
 * when an undirected file's arcs are not their own reverses (as
 * lg_graph_read refuses it).  Text formats have no checksum: LG_OK. */
LG_API lg_status_t lg_read_edges_verify(lg_context_t *context, const char *path,
                                        lg_file_format_t format,
                                        const uint64_t checksum[LG_EDGE_PART_CHECKSUMS]);
/* Frees a part's arrays and zeroes it; NULL: nothing. */
LG_API void lg_edge_part_free(lg_edge_part_t *part);

/* ------------------------------------------------------------------------ */
/* Generators (deterministic for a seed, whatever the thread count)         */
/* ------------------------------------------------------------------------ */

typedef enum lg_generator {
    LG_GENERATOR_KRONECKER = 0, /* Graph500: A=.57 B=.19 C=.19, ids permuted */
    LG_GENERATOR_URAND = 1      /* uniform random endpoints                   */
} lg_generator_t;

/*
 * Fills src/dst (edge_factor << scale entries each) with the raw edges of a
 * generated graph on 2^scale vertices (self-loops and duplicates included).
 * scale in [1, 30], edge_factor >= 1.
 */
LG_API lg_status_t lg_generate_edges(lg_context_t *context, lg_generator_t generator, int scale,
                                     int edge_factor, uint64_t seed, lg_vertex_t *src,
                                     lg_vertex_t *dst);

/* Edges [first, first + count) of the edge list lg_generate_edges makes,
 * into src[count] and dst[count]: edge i depends only on the seed and i, so
 * ranges made apart (by the ranks of a distributed job) together are the
 * same edges. */
LG_API lg_status_t lg_generate_edge_range(lg_context_t *context, lg_generator_t generator,
                                          int scale, int edge_factor, uint64_t seed, int64_t first,
                                          int64_t count, lg_vertex_t *src, lg_vertex_t *dst);

/* Generates and builds a graph.  options NULL means the GAP benchmark's
 * convention: undirected, self-loops dropped, duplicates merged.  The
 * generated edges are freed as soon as the graph's rows hold their arcs;
 * where memory is short (the arcs would take more than half of what the
 * system has available) an undirected graph is built through a half CSR,
 * slower, holding 12 bytes an edge at the peak instead of 16. */
LG_API lg_status_t lg_generate(lg_context_t *context, lg_generator_t generator, int scale,
                               int edge_factor, uint64_t seed, const lg_graph_options_t *options,
                               lg_graph_t **graph);

/* ------------------------------------------------------------------------ */
/* BFS                                                                      */
/* ------------------------------------------------------------------------ */

typedef struct lg_bfs_options {
    bool compute_parents; /* fill parents[] too; default false                    */
    int32_t max_depth;    /* visit vertices up to this many hops; -1 (default) = all */
    /* Direction optimisation (Beamer et al., SC'12): go bottom-up when the
     * frontier's out-edges exceed 1/alpha of the edges still unexplored, back
     * top-down when the frontier shrinks below num_vertices/beta.  Defaults
     * 15 and 18; alpha 0 keeps the search top-down throughout. */
    int direction_alpha;
    int direction_beta;
    lg_progress_fn progress; /* called after each level; default NULL (none) */
    void *progress_data;
    lg_memory_t output_memory; /* where distances and parents are; default host */
} lg_bfs_options_t;

LG_API void lg_bfs_options_init(lg_bfs_options_t *options);

/*
 * Breadth-first search from source along out-edges.  distances[v] is the hop
 * count from source, -1 when v is unreachable (or beyond max_depth).  parents
 * (may be NULL unless options->compute_parents) gets a BFS parent of every
 * reached vertex (any valid one: parents[v] is an in-neighbour u of v with
 * distances[u] + 1 == distances[v]), parents[source] = source, and -1 for
 * unreached vertices.
 */
LG_API lg_status_t lg_bfs(lg_context_t *context, const lg_graph_t *graph, lg_vertex_t source,
                          const lg_bfs_options_t *options, int32_t *distances,
                          lg_vertex_t *parents);

/*
 * Multi-source BFS: every one of the num_sources >= 1 sources is at distance
 * 0 (and its own parent); otherwise as lg_bfs.  Repeated sources are allowed.
 */
LG_API lg_status_t lg_bfs_multi(lg_context_t *context, const lg_graph_t *graph,
                                const lg_vertex_t *sources, int64_t num_sources,
                                const lg_bfs_options_t *options, int32_t *distances,
                                lg_vertex_t *parents);

/* ------------------------------------------------------------------------ */
/* PageRank                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct lg_pagerank_options {
    double alpha;                  /* damping factor, default 0.85, in [0, 1]     */
    double tol;                    /* stop when sum|x - xlast| < N * tol; 1e-6    */
    int max_iter;                  /* default 100, >= 0                            */
    bool use_weights;              /* use the edge weights (default true when the
                                      graph has them; unweighted edges weigh 1)   */
    const double *personalization; /* NULL: uniform; else N entries >= 0, sum > 0 */
    const double *nstart;          /* NULL: uniform; else N entries >= 0, sum > 0 */
    const double *dangling;        /* NULL: = personalization; else N entries >= 0, sum > 0 */
    lg_progress_fn progress;       /* called after each iteration; default NULL    */
    void *progress_data;
    lg_memory_t output_memory; /* where scores are; default host                */
} lg_pagerank_options_t;

/* What a PageRank call did. */
typedef struct lg_pagerank_result {
    int iterations;  /* iterations run                                           */
    double residual; /* the L1 change of the last iteration, sum |x - xlast| (0 when
                        none ran)                                                  */
    bool converged;  /* residual < N * tol: LG_OK rather than LG_ERR_NOT_CONVERGED */
} lg_pagerank_result_t;

LG_API void lg_pagerank_options_init(lg_pagerank_options_t *options);

/*
 * PageRank by power iteration with NetworkX's semantics (networkx.pagerank):
 *   x' = alpha * (x W + (sum of x over dangling vertices) * d) + (1 - alpha) * p
 * where W is the row-normalised (weighted) adjacency matrix, p the normalised
 * personalization, d the normalised dangling vector.  A dangling vertex is one
 * whose out-weight is 0.  Parallel edges add their weights.  Iterates at most
 * max_iter times, stopping after the first iteration whose L1 change is below
 * N * tol.  scores[num_vertices] gets the result; result (may be NULL) the
 * iterations run, the last L1 change and whether it converged, also when the
 * call returns LG_ERR_NOT_CONVERGED: max_iter ran out, and scores hold the
 * last iterate.  An empty graph returns LG_OK with nothing written but
 * result (0 iterations, converged).
 *
 * Memory on the CPU: 4 vectors of num_vertices (5 in single precision); a
 * call that is expected to run many iterations on a graph with skewed
 * degrees also takes, for its duration, a copy of the in-edge index (4 bytes
 * an arc) that makes the iterations faster, and goes on without it when that
 * memory cannot be had or would take more than half of the memory the system
 * reports available (Linux: MemAvailable).
 */
LG_API lg_status_t lg_pagerank(lg_context_t *context, const lg_graph_t *graph,
                               const lg_pagerank_options_t *options, double *scores,
                               lg_pagerank_result_t *result);

/* The same in single precision: the vectors are float (half the memory
 * traffic); each vertex's in-edges are summed in float runs of 8 added up in
 * double, and the convergence test is accumulated in double. */
LG_API lg_status_t lg_pagerank_f32(lg_context_t *context, const lg_graph_t *graph,
                                   const lg_pagerank_options_t *options, float *scores,
                                   lg_pagerank_result_t *result);

/* ------------------------------------------------------------------------ */
/* Connected components                                                     */
/* ------------------------------------------------------------------------ */

typedef struct lg_components_options {
    lg_progress_fn progress; /* called after each pass; default NULL (none) */
    void *progress_data;
    lg_memory_t output_memory; /* where labels are; default host */
} lg_components_options_t;

LG_API void lg_components_options_init(lg_components_options_t *options);

/*
 * Connected components of an undirected graph, weakly connected components of
 * a directed one.  labels[v] = the smallest vertex id in v's component, so the
 * labels are canonical and equal across backends.  num_components (may be
 * NULL) gets the number of components.  options may be NULL (the defaults).
 */
LG_API lg_status_t lg_connected_components(lg_context_t *context, const lg_graph_t *graph,
                                           const lg_components_options_t *options,
                                           lg_vertex_t *labels, int64_t *num_components);

/* ------------------------------------------------------------------------ */
/* Single-source shortest paths                                             */
/* ------------------------------------------------------------------------ */

typedef enum lg_sssp_method {
    LG_SSSP_AUTO = 0,           /* delta-stepping, or Bellman-Ford for negative weights */
    LG_SSSP_DELTA_STEPPING = 1, /* weights >= 0 only                                   */
    LG_SSSP_BELLMAN_FORD = 2    /* any weights; finds negative cycles                  */
} lg_sssp_method_t;

typedef struct lg_sssp_options {
    bool compute_predecessors; /* fill predecessors[] too; default false          */
    bool use_weights;          /* weigh edges by the graph's weights (default true;
                                  unweighted edges weigh 1)                        */
    double cutoff;             /* reach only vertices at distance <= cutoff;
                                  default INFINITY (all), >= 0, not NaN            */
    lg_vertex_t target;        /* >= 0: stop once target's distance is final, and
                                  reach only vertices no farther; -1 (default): all */
    double delta;              /* bucket width of delta-stepping, > 0; 0 (default):
                                  chosen from the graph (lg_sssp's comment)        */
    lg_sssp_method_t method;   /* default LG_SSSP_AUTO                            */
    lg_progress_fn progress;   /* called after each bucket; default NULL           */
    void *progress_data;
    lg_memory_t output_memory; /* where distances and predecessors are; default host */
} lg_sssp_options_t;

LG_API void lg_sssp_options_init(lg_sssp_options_t *options);

/*
 * Shortest-path distances along out-edges from the nearest of num_sources
 * >= 1 sources (repeated sources allowed).  distances[v] is the length of a
 * shortest path, INFINITY when v is unreached (unreachable, beyond cutoff or,
 * with a target, farther than target).  Weights are the graph's float32
 * weights widened to double, and a path's length is summed in double from the
 * source outwards, as NetworkX sums Python floats: where the weights are
 * exactly float32 values (integers below 2^24, halves...), distances equal
 * NetworkX's to the last bit.  A float64 graph's exact weights are read
 * instead, so its distances equal NetworkX's for any weights.  predecessors (may be NULL unless
 * options->compute_predecessors) gets a predecessor of every reached vertex:
 * an in-neighbour u with distances[u] + w(u, v) == distances[v], chosen so
 * that following predecessors from any reached vertex ends at a source
 * (zero-weight cycles included); a source is its own (unless a negative
 * path from another source reaches it below 0: then it has an in-neighbour
 * like any vertex), -1 when unreached.
 * After LG_ERR_OUT_OF_MEMORY or LG_ERR_CANCELLED the arrays may hold part
 * of a search.
 *
 * Method: delta-stepping (Meyer and Sanders, J. Algorithms 2003) on the CPU,
 * its near-far form (Davidson et al., IPDPS'14) on the GPU: vertices in
 * buckets of width delta, each bucket relaxed in parallel until it empties.
 * delta 0 chooses the graph's mean weight over its mean degree, 16 times
 * that on the GPU (docs/decisions/sssp-delta.md measured both).
 *
 * Negative weights (lg_graph_has_negative_weights) take Bellman-Ford
 * (LG_SSSP_AUTO, LG_SSSP_BELLMAN_FORD; LG_SSSP_DELTA_STEPPING refuses them
 * with LG_ERR_INVALID_ARGUMENT naming an arc): rounds that relax the
 * out-edges of every vertex whose distance dropped in the round before, in
 * parallel, until none drops.  A vertex still dropping after num_vertices
 * rounds means a negative cycle reachable from a source (in an undirected
 * graph, any negative edge reached is one): LG_ERR_UNBOUNDED, whose message
 * names a vertex on the cycle, and the arrays hold no result.  So does a
 * source left below 0 with no path from a source at 0: a closed walk of
 * negative length through it, one whose sum is too small to lower the sums
 * it is added to (a -1e-36 arc's), so that the drops stop instead of going
 * on for ever.  The search
 * does not stop early: the cutoff applies to the final distances, keeping
 * the vertices that a shortest path within it reaches (a negative arc can
 * bring a path that left the cutoff back under it), and the target filters
 * nothing (the path to it may pass vertices farther than it).
 */
LG_API lg_status_t lg_sssp(lg_context_t *context, const lg_graph_t *graph,
                           const lg_vertex_t *sources, int64_t num_sources,
                           const lg_sssp_options_t *options, double *distances,
                           lg_vertex_t *predecessors);

/* ------------------------------------------------------------------------ */
/* Strongly connected components                                            */
/* ------------------------------------------------------------------------ */

typedef struct lg_scc_options {
    lg_progress_fn progress; /* called after each step; default NULL */
    void *progress_data;
    lg_memory_t output_memory; /* where labels is; default host */
} lg_scc_options_t;

LG_API void lg_scc_options_init(lg_scc_options_t *options);

/*
 * Strongly connected components of a directed graph (of an undirected one:
 * its connected components): labels[v] = the smallest vertex id of v's
 * component, so labels are canonical and equal across backends.
 * num_components (may be NULL) gets their number: the condensation's
 * vertices.  options may be NULL.
 *
 * Method: Multistep (Slota, Rajamanickam and Madduri, IPDPS'14): trimming
 * of vertices with no in- or out-arc among those left, one forward-backward
 * search from a vertex of high in- and out-degree (the giant component),
 * rounds of min-label coloring while many vertices are left, and Tarjan's
 * algorithm on the rest.  Reads the in-edges (built once and cached).
 */
LG_API lg_status_t lg_strongly_connected_components(lg_context_t *context, const lg_graph_t *graph,
                                                    const lg_scc_options_t *options,
                                                    lg_vertex_t *labels, int64_t *num_components);

/* ------------------------------------------------------------------------ */
/* Betweenness centrality                                                   */
/* ------------------------------------------------------------------------ */

typedef struct lg_betweenness_options {
    bool normalized;         /* divide by the pairs counted (NetworkX's normalized);
                                  default true                                     */
    bool endpoints;          /* count a path's ends as on it; default false      */
    bool use_weights;        /* weighted shortest paths on a weighted graph
                                  (default true; unweighted edges weigh 1)         */
    bool rescale;            /* scale as NetworkX does (default true); false: the
                                  plain sums over the sources, normalized ignored  */
    lg_progress_fn progress; /* called after each step of sources; default NULL  */
    void *progress_data;
    lg_memory_t output_memory; /* where centrality is; default host               */
} lg_betweenness_options_t;

LG_API void lg_betweenness_options_init(lg_betweenness_options_t *options);

/*
 * Betweenness centrality: centrality[v] = the sum over the sources s and
 * every other vertex t of the fraction of shortest s-t paths (along
 * out-edges) that pass through v (v neither s nor t, unless endpoints),
 * scaled as NetworkX's betweenness_centrality scales it (NetworkX 3.5 and
 * later): with sources NULL (num_sources 0) every vertex is a source and
 * the result is exact; with num_sources >= 1 sources (distinct vertices)
 * it is the estimate from that sample, scaled up to all sources as
 * NetworkX scales its `k` sampled nodes.  normalized divides by the
 * (s, t) pairs that could pass through v; else an undirected graph's
 * values are halved (each pair is counted in both directions).  With
 * options->rescale false, centrality holds the plain sums over the sources
 * (ordered pairs, no factor), for a caller that scales them its own way.
 *
 * Shortest paths are counted in double.  Unweighted graphs (or use_weights
 * false) count paths of fewest edges; weighted ones of least weight,
 * weights > 0 (a weight <= 0 is LG_ERR_INVALID_ARGUMENT naming its arc: on
 * a zero-weight cycle the shortest paths are infinitely many), summed in
 * double as lg_sssp sums them, so paths tie exactly when NetworkX's do.
 *
 * Values equal NetworkX's up to rounding: the sums run in another order
 * (relative differences near 1e-15).  With a given thread count and
 * backend the result is the same on every call.
 *
 * Method: Brandes, "A faster algorithm for betweenness centrality", J.
 * Math. Sociol. 25 (2001): from each source a search that counts shortest
 * paths (BFS, or Dijkstra for weights), then dependencies accumulated in
 * the reverse of the search's order, pulled from each vertex's successors;
 * on the CPU the sources are spread over the threads, each with its own
 * arrays (about 24 bytes a vertex and a bit an arc a thread; 44 bytes a
 * vertex weighted), one after another on the GPU.
 */
LG_API lg_status_t lg_betweenness(lg_context_t *context, const lg_graph_t *graph,
                                  const lg_vertex_t *sources, int64_t num_sources,
                                  const lg_betweenness_options_t *options, double *centrality);

/*
 * Betweenness centrality of a subset, as NetworkX's
 * betweenness_centrality_subset: centrality[v] = the sum over the sources
 * s and the targets t (t != s) of the fraction of shortest s-t paths that
 * pass through v (v neither s nor t).  sources as lg_betweenness's
 * (distinct; NULL with num_sources 0: every vertex), but never a sample:
 * no factor for the vertices left out.  targets: num_targets vertices
 * (repeats count once); NULL (num_targets 0): every vertex; non-NULL with
 * num_targets 0: none, every value 0.  Scaled as NetworkX scales a
 * subset's (3.4 and later alike): normalized divides by (n - 1)(n - 2)
 * (n > 2); else an undirected graph's sums are halved.  options as
 * lg_betweenness's, endpoints false (true is LG_ERR_INVALID_ARGUMENT: the
 * paths end at the targets); lg_betweenness_options_init sets normalized
 * true, where networkx.betweenness_centrality_subset's default is false.
 *
 * Method: Brandes's counting with the 1 of a path's end kept only at the
 * targets (Brandes, "On variants of shortest-path betweenness centrality
 * and their generic computation", Social Networks 30 (2008)), on the CPU
 * or the GPU as lg_betweenness's.  Values equal NetworkX's up to rounding.
 */
LG_API lg_status_t lg_betweenness_subset(lg_context_t *context, const lg_graph_t *graph,
                                         const lg_vertex_t *sources, int64_t num_sources,
                                         const lg_vertex_t *targets, int64_t num_targets,
                                         const lg_betweenness_options_t *options,
                                         double *centrality);

/*
 * Edge betweenness centrality: centrality[e], for each of the graph's arcs
 * e = u -> v in lg_graph_csr's order (lg_graph_num_edges of them), is the
 * sum over the sources s and every other vertex t of the fraction of
 * shortest s-t paths that take the edge, scaled as NetworkX's
 * edge_betweenness_centrality scales it: normalized divides by the
 * (s, t) pairs, n (n - 1) for every source and k (n - 1) for k sampled
 * ones; else a sample is scaled up by n / k and an undirected graph's
 * values are halved.  An undirected edge's two arcs hold the same value,
 * the edge's (the paths through it either way); a self-loop is on no
 * shortest path (0).  sources, use_weights and rescale as lg_betweenness's;
 * options->endpoints must be false (an edge's ends are always on the
 * paths it is on): true is LG_ERR_INVALID_ARGUMENT.
 *
 * Method: Brandes's accumulation (above) with each tight arc w -> v
 * crediting sigma[w] (1 + delta[v]) / sigma[v] to the arc as the dependency
 * passes along it (Brandes, "On variants of shortest-path betweenness
 * centrality and their generic computation", Social Networks 30 (2008)).
 * On the CPU each thread also keeps a double an arc.
 */
LG_API lg_status_t lg_edge_betweenness(lg_context_t *context, const lg_graph_t *graph,
                                       const lg_vertex_t *sources, int64_t num_sources,
                                       const lg_betweenness_options_t *options, double *centrality);

/* ------------------------------------------------------------------------ */
/* Closeness and harmonic centrality                                        */
/* ------------------------------------------------------------------------ */

typedef struct lg_closeness_options {
    bool harmonic;           /* the harmonic centrality instead; default false     */
    bool wf_improved;        /* closeness: Wasserman and Faust's scaling by the
                                  vertices reached (NetworkX's); default true       */
    bool use_weights;        /* weighted distances on a weighted graph (default
                                  true; unweighted edges weigh 1)                   */
    lg_progress_fn progress; /* called after each step of vertices; default NULL  */
    void *progress_data;
    lg_memory_t output_memory; /* where centrality is; default host               */
} lg_closeness_options_t;

LG_API void lg_closeness_options_init(lg_closeness_options_t *options);

/*
 * Closeness centrality as NetworkX's closeness_centrality computes it, from
 * the distances d(v, u) of the r vertices v that reach u (u among them,
 * along out-edges, so on a directed graph the distances into u):
 * centrality[u] = (r - 1) / sum d(v, u), times (r - 1) / (n - 1) with
 * wf_improved; 0 when nothing else reaches u.  With harmonic, NetworkX's
 * harmonic_centrality: the sum of 1 / d(v, u) over the v that reach u at a
 * distance > 0.  Distances are hops, or with weights (>= 0; a negative
 * one is LG_ERR_INVALID_ARGUMENT naming an arc) sums in double as lg_sssp's.
 * Unweighted closeness equals NetworkX's to the bit (integer sums, then
 * NetworkX's two divisions); weighted and harmonic sums run in another
 * order than NetworkX's (relative differences near 1e-15).  The same on
 * every call whatever the threads: each vertex's value is one thread's.
 * On the GPU the distances are the same as the CPU's (unweighted closeness
 * too, to the bit); weighted and harmonic sums run in a third order.
 *
 * Method: a search from each vertex over the in-arcs.  CPU: 64 BFS at once
 * a thread (a bit a search), or Dijkstra on an indexed heap for weights,
 * the vertices spread over the threads; reads the in-edges of a directed
 * graph (built once and cached).  GPU: batches of searches at once pulled
 * along the out-arcs, a level (a bit a search) or a Bellman-Ford round (a
 * distance a search, for weights) a launch.
 */
LG_API lg_status_t lg_closeness(lg_context_t *context, const lg_graph_t *graph,
                                const lg_closeness_options_t *options, double *centrality);

/* ------------------------------------------------------------------------ */
/* Eigenvector, Katz and HITS: power iterations                             */
/* ------------------------------------------------------------------------ */

/* What a power iteration did: PageRank's result, read the same way. */
typedef lg_pagerank_result_t lg_iteration_result_t;

typedef struct lg_eigenvector_options {
    double tol;              /* stop when sum|x - xlast| < N * tol; 1e-6        */
    int max_iter;            /* default 100, >= 0                                */
    bool use_weights;        /* the graph's weights (default true; unweighted
                                  edges weigh 1)                                    */
    const double *nstart;    /* NULL: all 1; else N finite entries, sum != 0     */
    lg_progress_fn progress; /* called after each iteration; default NULL        */
    void *progress_data;
    lg_memory_t output_memory; /* where centrality is; default host               */
} lg_eigenvector_options_t;

LG_API void lg_eigenvector_options_init(lg_eigenvector_options_t *options);

/*
 * Eigenvector centrality as NetworkX's eigenvector_centrality computes it:
 * x starts at nstart / sum(nstart), then each iteration is
 *   x' = (A + I)^T x / |(A + I)^T x|_2
 * (A the weighted adjacency matrix, A[u][v] the weight of arc u -> v, so a
 * vertex gathers from its in-neighbours; the shift by I makes the iteration
 * converge on bipartite graphs too) until the first iteration whose L1
 * change sum |x' - x| is below N * tol.  centrality[num_vertices] gets the
 * result; result (may be NULL) the iterations, the last change and whether
 * it converged, also when the call returns LG_ERR_NOT_CONVERGED (max_iter
 * ran out; centrality holds the last iterate).  Weights may be of any sign.
 * Parallel edges add their weights.  An empty graph returns
 * LG_ERR_INVALID_ARGUMENT (NetworkX's NetworkXPointlessConcept).
 *
 * Method: power iteration pulling over the in-edges (built once and cached
 * for a directed graph): one pass over the arcs and two over the vertices
 * an iteration; memory 3 vectors of num_vertices.
 */
LG_API lg_status_t lg_eigenvector(lg_context_t *context, const lg_graph_t *graph,
                                  const lg_eigenvector_options_t *options, double *centrality,
                                  lg_iteration_result_t *result);

/* The power iterations in single precision (lg_eigenvector_f32, lg_katz_f32,
 * lg_hits_f32): the vectors are float (half the memory and half the traffic
 * of the gathered vector); a row's products and sums, the norms, maxima and
 * the convergence test stay double, so a result differs from the double
 * call's by the rounding of the stored entries (a relative 1e-7 or so of
 * the largest).  A tolerance below that rounding is met only when the
 * float iterate stops changing, which it often does but need not: it may
 * go round a few values whose change stays near n * 6e-8 of the largest
 * entry (HITS's default tol 1e-8, an absolute L1 change, is below that on
 * many graphs, and the noise of its change grows with n: give HITS a tol
 * of about num_vertices * 1e-6 in float).  Where the
 * iteration converges slowly (a directed path's A + I is one Jordan block)
 * the float form's steps fall below its largest entries' rounding, those
 * stop moving, and its change test passes early: there it can stop
 * hundreds of iterations before the double form, a relative 1e-2 apart. */
LG_API lg_status_t lg_eigenvector_f32(lg_context_t *context, const lg_graph_t *graph,
                                      const lg_eigenvector_options_t *options, float *centrality,
                                      lg_iteration_result_t *result);

typedef struct lg_katz_options {
    double alpha;            /* the attenuation factor; default 0.1               */
    double beta;             /* the weight every vertex starts with; default 1.0  */
    const double *betas;     /* NULL: beta for all; else N finite entries         */
    double tol;              /* stop when sum|x - xlast| < N * tol; 1e-6         */
    int max_iter;            /* default 1000, >= 0                                */
    const double *nstart;    /* NULL: all 0; else N finite entries                */
    bool normalized;         /* scale the result to unit L2 norm; default true   */
    bool use_weights;        /* the graph's weights (default true)               */
    lg_progress_fn progress; /* called after each iteration; default NULL        */
    void *progress_data;
    lg_memory_t output_memory; /* where centrality is; default host               */
} lg_katz_options_t;

LG_API void lg_katz_options_init(lg_katz_options_t *options);

/*
 * Katz centrality as NetworkX's katz_centrality computes it: from x =
 * nstart (0 by default), each iteration x' = alpha A^T x + beta (A as for
 * lg_eigenvector; beta a vertex's entry of betas when given), until the
 * first iteration whose L1 change is below N * tol; then, when normalized,
 * x / |x|_2 (unscaled when that norm is 0).  It converges when |alpha| is
 * below the inverse of A's largest eigenvalue; otherwise max_iter runs out:
 * LG_ERR_NOT_CONVERGED with centrality holding the last iterate, unscaled,
 * and result as lg_eigenvector's.  An empty graph returns LG_OK with nothing
 * written but result.
 *
 * Method: Katz, "A new status index derived from sociometric analysis",
 * Psychometrika 18 (1953), by power iteration pulling over the in-edges;
 * one pass over the arcs an iteration; memory 2 vectors of num_vertices.
 */
LG_API lg_status_t lg_katz(lg_context_t *context, const lg_graph_t *graph,
                           const lg_katz_options_t *options, double *centrality,
                           lg_iteration_result_t *result);
LG_API lg_status_t lg_katz_f32(lg_context_t *context, const lg_graph_t *graph,
                               const lg_katz_options_t *options, float *centrality,
                               lg_iteration_result_t *result);

typedef struct lg_hits_options {
    double tol;              /* stop when sum|h - hlast| < tol; default 1e-8      */
    int max_iter;            /* default 100, >= 0                                */
    const double *nstart;    /* NULL: uniform; else N finite entries >= 0, sum > 0:
                                  the first hub scores                              */
    bool normalized;         /* the results scaled to sum 1; default true        */
    bool use_weights;        /* the graph's weights (default true)               */
    lg_progress_fn progress; /* called after each iteration; default NULL        */
    void *progress_data;
    lg_memory_t output_memory; /* where hubs and authorities are; default host     */
} lg_hits_options_t;

LG_API void lg_hits_options_init(lg_hits_options_t *options);

/*
 * Hubs and authorities (Kleinberg, "Authoritative sources in a hyperlinked
 * environment", JACM 46, 1999) as NetworkX's HITS: from the hubs h =
 * nstart / sum(nstart) (uniform by default), each iteration
 *   a = A^T h,  h = A a,  each then divided by its largest entry,
 * until the first iteration whose L1 change sum |h - hlast| is below tol
 * (not N * tol, as NetworkX's); then, when normalized, each scaled to sum
 * 1.  The limit is the principal singular pair of A, which NetworkX's
 * hits computes by an SVD.  hubs and authorities get num_vertices values
 * each; result as lg_eigenvector's; LG_ERR_NOT_CONVERGED when max_iter ran
 * out (the last iterate, unnormalized).  Weights must be >= 0.  A graph
 * whose arcs all weigh 0 (or that has none) has no hubs:
 * LG_ERR_INVALID_ARGUMENT.  An empty graph returns LG_OK with nothing
 * written but result.
 *
 * Method: power iteration, a pull over the in-edges then one over the
 * out-edges an iteration; memory 3 vectors of num_vertices.
 */
LG_API lg_status_t lg_hits(lg_context_t *context, const lg_graph_t *graph,
                           const lg_hits_options_t *options, double *hubs, double *authorities,
                           lg_iteration_result_t *result);
LG_API lg_status_t lg_hits_f32(lg_context_t *context, const lg_graph_t *graph,
                               const lg_hits_options_t *options, float *hubs, float *authorities,
                               lg_iteration_result_t *result);

/* ------------------------------------------------------------------------ */
/* Triangles and clustering                                                 */
/* ------------------------------------------------------------------------ */

typedef struct lg_triangles_options {
    lg_progress_fn progress; /* told between steps of vertices; default NULL     */
    void *progress_data;
    lg_memory_t output_memory; /* where the per-vertex results are; default host  */
} lg_triangles_options_t;

LG_API void lg_triangles_options_init(lg_triangles_options_t *options);

/*
 * The triangles of an undirected graph as NetworkX's triangles counts them:
 * per_vertex[v] (may be NULL) the triangles through v, *total (may be NULL)
 * the graph's (each once).  Self-loops and repeated edges are ignored.  A
 * directed graph is refused with LG_ERR_INVALID_ARGUMENT (NetworkX's
 * triangles is not defined for one).
 *
 * Method: every edge oriented from the lower-degree end to the higher (ties
 * by id), and each triangle found once as the common neighbours of an
 * oriented edge's ends among their higher-ranked neighbours (Chiba and
 * Nishizeki 1985; Schank and Wagner 2005): O(m sqrt(m)) at worst, memory an
 * index an edge; on the GPU a thread an oriented edge.  Both backends give
 * the same integers.
 */
LG_API lg_status_t lg_triangles(lg_context_t *context, const lg_graph_t *graph,
                                const lg_triangles_options_t *options, int64_t *per_vertex,
                                int64_t *total);

/*
 * NetworkX's unweighted clustering of an undirected graph, from its
 * triangles: coefficients[v] (num_vertices of them) = 2 T(v) / (d(v) (d(v) - 1)),
 * d(v) the distinct neighbours other than v (0 below 2); *average (may be
 * NULL) their mean over every vertex, added in vertex order
 * (average_clustering's, which Python 3.12 and later add with compensation:
 * it can differ in the last bit); *transitivity
 * (may be NULL) 3 triangles / connected triples = sum 2 T(v) / sum d(v)
 * (d(v) - 1), 0 without triangles.  A directed graph is refused with
 * LG_ERR_INVALID_ARGUMENT.  The same kernel as lg_triangles.
 */
LG_API lg_status_t lg_clustering(lg_context_t *context, const lg_graph_t *graph,
                                 const lg_triangles_options_t *options, double *coefficients,
                                 double *average, double *transitivity);

/* ------------------------------------------------------------------------ */
/* Algorithms as data                                                       */
/* ------------------------------------------------------------------------ */

/*
 * Every algorithm above is also described by a read-only descriptor: its
 * name, its parameters (each with a type, a default and a line of help) and
 * its results (each an array of one value a vertex, or one value).  A layer
 * over the library (a language binding, a command-line tool) can list the
 * algorithms, read their parameters, and run any of them through one call,
 * lg_algorithm_run, without code of its own for each: lg_algorithm_run fills
 * the algorithm's options struct from the parameters and calls its entry
 * point above, so the checks, the messages and the results are that entry
 * point's.  Descriptors are static: they never change and are never freed.
 */

/* The type of a parameter, or of a result's elements. */
typedef enum lg_type {
    LG_TYPE_BOOL = 0,           /* value.i, 0 or 1; a result: bool        */
    LG_TYPE_INT = 1,            /* value.i, within int32; a result: int64_t */
    LG_TYPE_DOUBLE = 2,         /* value.d; a result: double              */
    LG_TYPE_PRECISION = 3,      /* value.i, 0 "float64" or 1 "float32": the
                                   element type of the algorithm's REAL results */
    LG_TYPE_VERTICES = 4,       /* value.array of value.length lg_vertex_t ids */
    LG_TYPE_VERTEX_DOUBLES = 5, /* value.array of num_vertices doubles, or NULL */
    LG_TYPE_INT32 = 6,          /* a result array's elements: int32_t     */
    LG_TYPE_REAL = 7,           /* a result array's elements: double, or float
                                   when the PRECISION parameter says float32 */
    LG_TYPE_FLOAT64 = 8,        /* elements as lg_algorithm_shapes resolves REAL */
    LG_TYPE_FLOAT32 = 9,
    LG_TYPE_INT64 = 10 /* a result array's elements: int64_t (counts) */
} lg_type_t;

/* A parameter's value: the field its type names. */
typedef struct lg_value {
    int64_t i;
    double d;
    const void *array;
    int64_t length;
} lg_value_t;

typedef struct lg_param_info {
    const char *name; /* "max_depth": the same name in every layer    */
    lg_type_t type;
    bool required;              /* no default: every call gives it (BFS's source) */
    lg_value_t default_value;   /* what lg_algorithm_defaults fills in          */
    const char *const *choices; /* PRECISION: the names of its values, NULL-ended */
    const char *help;           /* one sentence                                 */
} lg_param_info_t;

typedef struct lg_result_info {
    const char *name; /* "distances"                                          */
    lg_type_t type;   /* INT32 or REAL (per vertex); INT, DOUBLE or BOOL (one value) */
    bool per_vertex;  /* an array of num_vertices                             */
    bool per_arc;     /* an array of lg_graph_num_edges, one an arc in
                           lg_graph_csr's order; neither: one value         */
    const char *when; /* NULL: always made; else the BOOL parameter that asks for it */
    const char *help; /* one sentence                                         */
} lg_result_info_t;

typedef struct lg_algorithm_info {
    const char *name;     /* "bfs", "pagerank", "connected_components"         */
    const char *title;    /* "BFS": the algorithm, in messages                  */
    const char *summary;  /* a short paragraph: what it computes, and its method */
    const char *function; /* the entry point lg_algorithm_run calls ("lg_bfs_multi") */
    bool uses_weights;    /* reads the edge weights of a weighted graph         */
    int num_params;
    const lg_param_info_t *params;
    int num_results;
    const lg_result_info_t *results;
} lg_algorithm_info_t;

/* The number of algorithms, and the i-th (NULL unless 0 <= i < the count),
 * in a fixed order. */
LG_API int lg_algorithm_count(void);
LG_API const lg_algorithm_info_t *lg_algorithm_at(int i);
/* The algorithm of that name, or NULL (with a message naming the algorithms). */
LG_API const lg_algorithm_info_t *lg_algorithm_find(const char *name);
/* The index of algorithm's parameter (or, with results true, result) of
 * that name, or -1. */
LG_API int lg_algorithm_index(const lg_algorithm_info_t *algorithm, const char *name, bool results);
/* Fills params[0 .. num_params) with the defaults (a required parameter's
 * value zeroed). */
LG_API lg_status_t lg_algorithm_defaults(const lg_algorithm_info_t *algorithm, lg_value_t *params);

/* What result k of a call is: whether the call makes it (a result with a
 * `when` flag is made when that parameter is set), its element type (REAL
 * resolved to FLOAT64 or FLOAT32) and its length: num_vertices for a
 * per-vertex array, lg_graph_num_edges for a per-arc one, 1 for one value. */
typedef struct lg_shape {
    bool made;
    lg_type_t type;
    int64_t length;
} lg_shape_t;

/* shapes[0 .. num_results) for a call of algorithm on graph with params. */
LG_API lg_status_t lg_algorithm_shapes(const lg_algorithm_info_t *algorithm,
                                       const lg_graph_t *graph, const lg_value_t *params,
                                       lg_shape_t *shapes);

/* What every algorithm's options hold besides its parameters. */
typedef struct lg_run_options {
    lg_progress_fn progress; /* default NULL (none) */
    void *progress_data;
    lg_memory_t output_memory; /* where the per-vertex results are; default host */
} lg_run_options_t;

LG_API void lg_run_options_init(lg_run_options_t *options);

/*
 * Runs algorithm on graph with params[0 .. num_params) (lg_algorithm_defaults
 * gives a starting set).  results[k] is where result k goes: a per-vertex
 * result's array of num_vertices elements of its shape's type, a per-arc
 * one's of lg_graph_num_edges (in options->output_memory); one value's int64_t, double or bool (always in
 * host memory); NULL for a result the call does not make (lg_algorithm_shapes
 * says which), and NULL for a one-value result not wanted.  A value that its type does not allow (an INT beyond int32, a
 * BOOL not 0 or 1, a VERTEX_DOUBLES array whose length is not num_vertices)
 * is LG_ERR_INVALID_ARGUMENT naming the parameter; otherwise the statuses
 * and messages are the entry point's, and with LG_ERR_NOT_CONVERGED the
 * results hold what that entry point leaves.  options may be NULL.
 */
LG_API lg_status_t lg_algorithm_run(lg_context_t *context, const lg_graph_t *graph,
                                    const lg_algorithm_info_t *algorithm, const lg_value_t *params,
                                    void *const *results, const lg_run_options_t *options);

#ifdef __cplusplus
}
#endif

#endif /* LIBGRAPH_H */
