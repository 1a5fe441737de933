/*
 * internal.h - what the parts of libgraph share and users never see.
 *
 * Allocation: every byte the library owns comes from lg__malloc/lg__calloc and
 * goes back through lg__free, so a test can make the N-th allocation fail
 * (lg__alloc_fail_after) and check that each error path cleans up.
 *
 * Errors: a failing function calls lg__error(status, fmt, ...) once, at the
 * point where it knows what is wrong, and returns what it returns; callers
 * pass the status up unchanged, so the first message is the one the user reads.
 */
#ifndef LIBGRAPH_INTERNAL_H
#define LIBGRAPH_INTERNAL_H

#include "libgraph.h"
#include "plugin.h"

#include <pthread.h>
#include <stdatomic.h>

#if defined(__GNUC__)
#define LG_INTERNAL __attribute__((visibility("hidden")))
#define LG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LG_INTERNAL
#define LG_PRINTF(f, a)
#endif

/* ---- allocation ---------------------------------------------------------- */

/* Each allocation names its call site ("src/graph/csr.c:170", by the macros
 * below), so that the failure-injection sweeps can say which sites they
 * reached (lg__alloc_sites).  lg__malloc is also a function, for the GPU
 * plugin's host services (its site: the plugin). */
#define LG_STRINGIFY_(x) #x
#define LG_STRINGIFY(x) LG_STRINGIFY_(x)
#define LG_SITE __FILE__ ":" LG_STRINGIFY(__LINE__)
LG_INTERNAL void *lg__malloc_at(size_t bytes, const char *site);
LG_INTERNAL void *lg__calloc_at(size_t count, size_t size, const char *site);
LG_INTERNAL void *(lg__malloc)(size_t bytes);
#define lg__malloc(bytes) lg__malloc_at((bytes), LG_SITE)
#define lg__calloc(count, size) lg__calloc_at((count), (size), LG_SITE)
LG_INTERNAL void lg__free(void *p);
/* The block p cut to its first `bytes` (p itself, or p moved); never fails. */
LG_INTERNAL void *lg__shrink(void *p, size_t bytes);
/* count * size bytes, or NULL (with an LG_ERR_OUT_OF_MEMORY message naming
 * what) when the product overflows or the allocation fails. */
LG_INTERNAL void *lg__alloc_array_at(size_t count, size_t size, const char *what, const char *site);
#define lg__alloc_array(count, size, what) lg__alloc_array_at((count), (size), (what), LG_SITE)
/* Whether an optional allocation of `bytes` (an optimisation the caller can
 * do without) leaves at least as much again of the memory the system says
 * is available (Linux's MemAvailable).  Linux overcommits: malloc succeeds
 * and the process may be killed later, so optional memory asks first.
 * true when the figure cannot be read. */
LG_INTERNAL bool lg__can_spare(size_t bytes);
/* Whether the system says `bytes` more are available at all (MemAvailable;
 * true when the figure cannot be read), else LG_ERR_OUT_OF_MEMORY naming
 * `what` and both figures: the check before a large allocation whose size
 * comes from input (a file's vertex count), so that an input too big for
 * the machine is an error, not a process the kernel kills. */
LG_INTERNAL lg_status_t lg__check_available(size_t bytes, const char *what);
/* Records a call's estimate of the memory it will hold at its peak (the
 * builds' and readers', from their sizes), for lg__peak_estimate. */
LG_INTERNAL void lg__note_peak(size_t bytes);

/* Test hooks (exported from the static library only): after n more successful
 * allocations, every allocation fails; n < 0 switches failure off.  Returns the
 * number of allocations made since the last call. */
long lg__alloc_fail_after(long n);
/* Test hook: on = 1 starts recording the distinct allocation sites reached
 * while a failure is armed (lg__alloc_fail_after), clearing the record; 0
 * stops.  Returns how many were recorded, and when path is not NULL
 * appends them to that file, one a line. */
long lg__alloc_sites(int on, const char *path);
/* Test hook: makes lg__can_spare and lg__check_available see `bytes` available (negative: the
 * system's figure again); returns the previous setting. */
long long lg__mem_available_override(long long bytes);
/* Test hook: the largest lg__note_peak since the last call (0: none), then
 * starts over. */
long long lg__peak_estimate(void);
/* Test hook (build.c): 1 builds every unweighted undirected graph from edges
 * the library owns in two sorts through a half CSR (the lean path), 0 never,
 * -1 by the rule (when the one sort's memory cannot be spared); returns the
 * previous setting. */
int lg__build_lean(int mode);
/* Test hook: CPU PageRank runs that switched to hub order (hub_order.c) since
 * the last call. */
long lg__pagerank_hub_runs(void);
/* Test hook: levels at which CPU BFS stayed top-down although Beamer's rule
 * said bottom-up, because the sampled estimate of the bottom-up step cost
 * more (bfs.c), since the last call. */
long lg__bfs_top_down_stays(void);
/* Test hook (kernels/cpu/kernels.c): 0 runs the CPU kernels' scalar twins,
 * 1 their vector paths (the default; kernels/cpu/vec.h), -1 only asks;
 * returns the setting before. */
int lg__cpu_vector_paths(int on);
/* Test hook: sets the smallest contribution vector (bytes) that PageRank
 * puts in hub order (default HUB_MIN_BYTES, 8 MiB; tests use 0 to reach it
 * on small graphs); returns the previous value. */
size_t lg__pagerank_hub_min_bytes(size_t bytes);
/* Test hook: sets the smallest contribution vector (bytes) for which PageRank
 * pulls over cache-sized segments of its in-arcs (pagerank_segments.c; 0:
 * the rule from the cache size, tests use 1 to reach it on small graphs,
 * SIZE_MAX to keep it off); returns the previous value. */
size_t lg__pagerank_segment_min_bytes(size_t bytes);
/* Test hook: segments of 2^shift sources (tests use small ones, so that
 * small graphs have many); 0: the rule from the cache size.  Returns the
 * previous setting. */
int lg__pagerank_segment_shift(int shift);
/* Test hook: CPU PageRank runs that pulled over segments since the last
 * call. */
long lg__pagerank_segmented_runs(void);
/* Test hook (kernels/cpu/pagerank_segments.c): how float PageRank sums its
 * rows where the gathers are scalar: 1 in pairwise trees, 2 in one loop a
 * row, 0 by the rule (lg__one_loop_pays).  Returns the setting before. */
int lg__pagerank_row_loop(int mode);
/* Test hook (io/edges.c): the text a parser chunk reads in one round, 32 MB;
 * 0 leaves it.  Returns the value before. */
size_t lg__parse_part_bytes(size_t bytes);
/* Test hook (io/text_read.c): the window a regular text file is read in,
 * 32 MB; 0 leaves it.  Returns the value before. */
size_t lg__text_window_bytes(size_t bytes);
/* Test hook (io/lgb.c): nonzero makes the .lgb reader accept a checksum
 * mismatch, so that the fuzzer's mutations reach the checks behind it (the
 * offsets, the names, the builder's); returns the previous setting. */
int lg__lgb_ignore_checksum(int on);

/* ---- errors -------------------------------------------------------------- */

LG_INTERNAL lg_status_t lg__error(lg_status_t status, const char *fmt, ...) LG_PRINTF(2, 3);
LG_INTERNAL lg_status_t lg__oom(const char *what);
/* Empties the thread's message (before a call whose own message, if any, is
 * to be read). */
LG_INTERNAL void lg__error_clear(void);

/* The thread's message, saved and put back: a call that tries something,
 * fails, and then succeeds another way (AUTO falling back to the CPU) leaves
 * the caller's message as it found it, since successful calls do not touch it. */
#define LG_ERROR_CAPACITY 512
LG_INTERNAL void lg__error_save(char saved[LG_ERROR_CAPACITY]);
LG_INTERNAL void lg__error_restore(const char saved[LG_ERROR_CAPACITY]);

/* ---- context and backends -------------------------------------------------- */

/* "Backend" means where a call runs, lg_backend_t: the CPU's kernels
 * (src/kernels/cpu/), or a GPU context's plugin's (lg__plugin_kernel). */

struct lg_context {
    lg_backend_t backend;   /* resolved: CPU or GPU */
    lg_backend_t requested; /* as asked: under AUTO an algorithm may fall back */
    int num_threads;        /* >= 1 */
    bool threads_given;     /* num_threads was the caller's: never fitted to the machine */
    int device_id;
    void *stream;
    /* GPU contexts: the plugin, its per-context state and the device.  GPU
     * calls on the context hold gpu_lock (the plugin's state, its stream and
     * scratch buffers, are not shared between calls running at once). */
    const struct lg_plugin *plugin;
    void *gpu_state;
    struct lg_device_info device;
    pthread_mutex_t gpu_lock;
    char description[320]; /* lg_context_get_device */
};

/* The GPU plugin (plugin.c), loaded once per process on first use.
 * lg__plugin_get: LG_OK with the plugin's table, or LG_ERR_DEVICE with a
 * message naming what was tried and why each candidate failed.
 * lg__plugin_path: the loaded plugin's file, or NULL; lg__plugin_problem:
 * the reason there is none, or NULL.  Neither opens a device. */
LG_INTERNAL lg_status_t lg__plugin_get(const struct lg_plugin **plugin);
LG_INTERNAL const char *lg__plugin_path(void);
/* The loaded plugin's kernel for an algorithm, or NULL (none, or no plugin;
 * a GPU context has the plugin loaded). */
LG_INTERNAL const struct lg_kernel *lg__plugin_kernel(enum lg_algorithm_id id);
LG_INTERNAL const char *lg__plugin_problem(void);
/* Test hook: the loaded plugin's LG_PLUGIN_TEST_HOOKS (plugin.h), or NULL. */
const struct lg_plugin_test_hooks *lg__plugin_test_hooks(void);

/* Records which backend ran the calling thread's last algorithm call
 * (lg_last_backend; LG_BACKEND_AUTO: none did). */
LG_INTERNAL void lg__set_last_backend(lg_backend_t backend);
/* Why (a static string, "" for none): read by lg_last_backend_reason(). */
LG_INTERNAL void lg__set_last_backend_reason(const char *why);
/* Test hook: makes AUTO's rule take `ns` as every graph's upload estimate
 * (negative: the rule's own estimate again); returns the previous setting. */
long long lg__auto_upload_ns_override(long long ns);

/* The thread count of a context; a NULL context means OpenMP's default. */
LG_INTERNAL int lg__threads(const lg_context_t *ctx);

/* Of `threads`, those worth using on `work` elements (vertices + edges):
 * below LG_PARALLEL_MIN_WORK one thread.  A pass over that many elements
 * takes 0.1-0.3 ms on one core; waking a team and meeting at its barrier
 * costs 5-30 us on an idle machine and milliseconds when another process
 * holds a core (docs/PERFORMANCE.md, "A busy machine", has the
 * measurements). */
#define LG_PARALLEL_MIN_WORK (1 << 18)
/* LG_PARALLEL_MIN_WORK; the C tests lower it (test_util.h), so that their
 * small graphs run the parallel paths too. */
LG_INTERNAL extern int64_t lg__parallel_min_work;
static inline int lg__team_size(int threads, int64_t work)
{
    return work < lg__parallel_min_work ? 1 : threads;
}

/* The threads a call of `work` elements runs on: lg__team_size of the
 * context's count and, unless the caller gave that count, no more than the
 * cores other programs leave free (lg__fit_team; this process's own
 * runnable threads, its idle OpenMP workers spinning among them, are not
 * counted against it). */
LG_INTERNAL int lg__threads_for(const lg_context_t *ctx, int64_t work);

/* Of `threads`, those the machine can run now, when `running` threads are
 * runnable on its `online` cores, the caller's included: the caller's core
 * and the idle ones (at least 1).  A team larger than that waits at each
 * barrier for a thread that the scheduler has put aside for another
 * program's, which costs a time slice (milliseconds), where the work of a
 * pass is often less. */
static inline int lg__fit_team(int threads, long online, long running)
{
    const long free = online - running;
    return free < 0 ? 1 : free + 1 < threads ? (int)free + 1 : threads;
}

/* Test hook: makes the runnable threads that lg__threads_for fits a team to
 * (other programs' and the caller) read as `running` (negative: measured
 * again); returns the previous setting. */
long lg__running_threads_override(long running);

/* The threads whose state is R (running or runnable) among task_dir's
 * "<tid>/stat" files: /proc/self/task gives this process's; -1 where
 * task_dir does not open. */
long lg__runnable_tasks(const char *task_dir);

/* ---- progress --------------------------------------------------------------- */

/* The progress callback of a graph-building call's options. */
static inline struct lg_progress lg__graph_progress(const lg_graph_options_t *o)
{
    const struct lg_progress p = {o->progress, o->progress_data, 1};
    return p;
}

/* The steps a build reports (LG_STAGE_BUILD), for k = lg__build_rounds(E)
 * of its E input edges (or arcs): the input checked (step 1), the arcs
 * counted by source in k parts (the last: lg__build_counted), put in rows
 * in 4k parts (the last: lg__build_rows), the rows sorted and merged in 4k
 * parts, the graph made (lg__build_steps, 2 + 9k in all).  k grows with the
 * graph so that a part stays under LG_BUILD_ROUND_ARCS arcs: a step is
 * 0.1-0.3 s on two cores at any size (kron:23, k = 9: the count's rounds,
 * which also fault in the arc arrays, are the longest), and Ctrl-C answers
 * within one (k = 1, 11 steps, up to 16M edges). */
#define LG_BUILD_ROUND_ARCS ((int64_t)4 << 20)
enum { LG_BUILD_CHECKED = 1 };

static inline int lg__build_rounds(int64_t E)
{
    const int64_t k = E / (4 * LG_BUILD_ROUND_ARCS) + 1;
    return k < 4096 ? (int)k : 4096;
}

/* The progress of a build of E input edges: its callback, with its rounds. */
static inline struct lg_progress lg__build_progress(struct lg_progress p, int64_t E)
{
    p.rounds = lg__build_rounds(E);
    return p;
}

static inline int lg__rounds_of(struct lg_progress p)
{
    return p.rounds > 1 ? p.rounds : 1;
}
static inline int64_t lg__build_counted(struct lg_progress p)
{
    return 1 + lg__rounds_of(p);
}
static inline int64_t lg__build_rows(struct lg_progress p)
{
    return 1 + 5 * (int64_t)lg__rounds_of(p);
}
static inline int64_t lg__build_steps(struct lg_progress p)
{
    return 2 + 9 * (int64_t)lg__rounds_of(p);
}

/* LG_ERR_CANCELLED with the message "fn: cancelled by the progress callback". */
LG_INTERNAL lg_status_t lg__cancelled(const char *fn);

/* ---- graph ----------------------------------------------------------------- */

/* A weighted graph's weights are float32 (`weights`) or float64
 * (`weights64`, the exact values, with `weights` their float32 roundings for
 * the kernels that read float32: PageRank's).  While a CSR is being built
 * only the input's type is set; lg__graph_wrap adds the rounded copy. */
struct lg_csr {
    lg_edge_t *offsets;   /* n + 1 */
    lg_vertex_t *indices; /* m */
    float *weights;       /* m, or NULL */
    double *weights64;    /* m, or NULL: a float64 graph's */
};

/* A graph's vertex names (names.c), owned; kind LG_NAMES_NONE when none. */
struct lg_names_store {
    lg_names_kind_t kind;
    int64_t *ints;    /* LG_NAMES_INT64: n */
    int64_t *offsets; /* LG_NAMES_UTF8: n + 1 */
    char *text;       /* LG_NAMES_UTF8: offsets[n] bytes */
};

/* Checks names for an n-vertex graph: "fn: ..." LG_ERR_INVALID_ARGUMENT. */
LG_INTERNAL lg_status_t lg__names_check(const char *fn, int64_t n, const lg_names_t *names);
/* A copy of checked names (kind NONE for NULL); LG_ERR_OUT_OF_MEMORY. */
LG_INTERNAL lg_status_t lg__names_copy(int64_t n, const lg_names_t *names,
                                       struct lg_names_store *store);
LG_INTERNAL void lg__names_free(struct lg_names_store *store);
/* The bytes of the arrays of an n-vertex graph's names. */
LG_INTERNAL size_t lg__names_bytes(int64_t n, const struct lg_names_store *store);
/* The borrowed view of stored names. */
LG_INTERNAL lg_names_t lg__names_view(const struct lg_names_store *store);

struct lg_graph {
    int64_t n;
    int64_t m;
    bool directed;
    struct lg_csr out;           /* owned */
    bool negative_weights;       /* some weight is < 0 (lg__graph_wrap) */
    struct lg_names_store names; /* set by lg_graph_set_names or a .lgb file */
    /* The in-edges, built lazily; for an undirected graph they alias `out`. */
    pthread_mutex_t csc_lock;
    atomic_bool csc_ready;
    struct lg_csr in; /* owned when directed */
    /* The GPU plugin's copy of the graph, made on first GPU use.  GPU calls
     * on the graph hold device_lock (the plugin fills device_cache under it);
     * device_owner is the plugin that made the copy, and frees it with the
     * graph. */
    pthread_mutex_t device_lock;
    void *device_cache;
    const struct lg_plugin *device_owner;
    /* Nanoseconds the CPU spent on this graph's LG_BACKEND_AUTO calls that
     * the GPU could have run (src/algorithms/dispatch.c's rule for AUTO). */
    atomic_llong auto_cpu_ns;
};

/* LG_ERR_INVALID_ARGUMENT naming g's first arc of weight < 0 (or <= 0 with
 * zero_too): "fn: the arc u -> v weighs w: <why>"; LG_OK when there is none.
 * Reads a float64 graph's exact weights. */
LG_INTERNAL lg_status_t lg__refuse_weights_below(const char *fn, const lg_graph_t *g,
                                                 bool zero_too, const char *why);
/* lg__refuse_weights_below for negative arcs, when g->negative_weights is
 * set (LG_ERR_INTERNAL should none be found). */
LG_INTERNAL lg_status_t lg__refuse_negative_weights(const char *fn, const lg_graph_t *g,
                                                    const char *why);

/* Makes sure g->in is built (once, thread-safely).  For an undirected graph
 * g->in aliases g->out. */
LG_INTERNAL lg_status_t lg__graph_ensure_csc(const lg_graph_t *g, int threads);
/* Whether g->in is built (an undirected graph's always is). */
LG_INTERNAL bool lg__graph_has_csc(const lg_graph_t *g);

/* Takes ownership of a finished CSR (sorted rows, validated) and wraps it in a
 * graph; on failure frees the arrays. */
LG_INTERNAL lg_status_t lg__graph_wrap(int64_t n, bool directed, struct lg_csr *csr,
                                       lg_graph_t **graph);

/* lg_graph_from_edges (its errors named fn) for edges the caller hands over:
 * *src, *dst and the weights, *w (float32) or *w64 (float64; either pointer
 * or what it points to NULL: none of that type), are freed and set to NULL
 * as soon as the rows hold their arcs, and on every path before it returns,
 * so the edges and the finished graph are never held at once (build.c). */
LG_INTERNAL lg_status_t lg__graph_from_own_edges(const char *fn, lg_context_t *context, int64_t n,
                                                 int64_t E, lg_vertex_t **src, lg_vertex_t **dst,
                                                 float **w, double **w64,
                                                 const lg_graph_options_t *options,
                                                 lg_graph_t **graph);
/* lg_graph_from_csr (its errors named fn) for arrays the caller hands over
 * (all three allocated by lg__malloc; weights may be NULL): the graph takes
 * them where the rows are final but for duplicates, else builds from them;
 * on every path *csr is freed and zeroed before it returns (build_csr.c).
 * symmetric: the caller has checked that the arcs are their own reverses
 * (lg__arcs_asymmetry), so an undirected graph whose duplicates are kept
 * is not checked again. */
LG_INTERNAL lg_status_t lg__graph_from_own_csr(const char *fn, lg_context_t *context, int64_t n,
                                               struct lg_csr *csr, bool symmetric,
                                               const lg_graph_options_t *options,
                                               lg_graph_t **graph);
/* The arcs of rows first_row .. first_row + rows - 1 of a CSR (offsets[0 ..
 * rows], the arcs of row r at indices[offsets[r] - offsets[0] ..]) hashed
 * (weights or weights64, or neither)
 * as a multiset less their reverses (build_csr.c): 0 when, summed over
 * every row, the arcs are their own reverses (lg_graph_from_csr's rule for
 * an undirected graph), else 0 with probability 2^-64.  Offsets must not
 * decrease. */
LG_INTERNAL uint64_t lg__arcs_asymmetry(int64_t first_row, int64_t rows, const lg_edge_t *offsets,
                                        const lg_vertex_t *indices, const float *weights,
                                        const double *weights64, int threads);

/* ---- small helpers ----------------------------------------------------------- */

/* splitmix64: a counter-based mixer; generators hash (seed, index) with it so
 * results do not depend on the thread count. */
static inline uint64_t lg__mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

#endif /* LIBGRAPH_INTERNAL_H */
