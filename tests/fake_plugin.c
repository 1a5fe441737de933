/*
 * fake_plugin.c - a GPU plugin without a GPU, for tests/test_plugin*.c.
 *
 * It implements the ABI of src/graph/plugin.h with host memory, so the core's
 * loading, context and dispatch paths can be tested on any machine.  The
 * environment variable LG_FAKE_PLUGIN_MODE, read by the entry point, picks
 * what it does:
 *   ok            one device (ordinal 0); PageRank answers FAKE_SCORE(v) in
 *                 FAKE_ITERATIONS iterations; no BFS, no components; and a
 *                 row for an algorithm id the core does not know (as a newer
 *                 plugin would have), which the core must skip
 *   no-device     open fails: LG_ERR_DEVICE "no CUDA-capable device is detected"
 *   oom           PageRank makes the graph's device copy, scribbles on the
 *                 scores and fails with LG_ERR_OUT_OF_MEMORY
 *   abi-mismatch  the entry returns a table of ABI version 99
 *   two-rows      its table lists two PageRank kernels
 *   entry-fails   the entry fails: LG_ERR_DEVICE "driver version is insufficient"
 * Built with FAKE_NO_ENTRY it exports no entry point (its entry has another
 * name).
 *
 * Every allocation goes through the host's allocator (as a real plugin's host
 * memory does), so the core's allocation-failure tests reach into it.  It
 * counts what it does in fake_plugin_stats (fake_plugin.h), and catches calls
 * that run at once on one graph's copy or one context's state, which the
 * core's locks must prevent.
 */
#define _POSIX_C_SOURCE 200809L
#include "fake_plugin.h"
#include "plugin.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

FAKE_EXPORT struct fake_plugin_stats fake_plugin_stats;

static const struct lg_plugin_host *host;

enum mode {
    MODE_OK,
    MODE_NO_DEVICE,
    MODE_OOM,
    MODE_UNSUPPORTED,
    MODE_ABI_MISMATCH,
    MODE_TWO_ROWS,
    MODE_ENTRY_FAILS
};
static enum mode mode;

#define STATE_MAGIC 0x57A7E5u
#define GRAPH_MAGIC 0x6EA9u

struct fake_state {
    unsigned magic;
    atomic_int busy;
    void *stream;
};

struct fake_graph {
    unsigned magic;
    atomic_int busy;
    int64_t n;
};

/* Long enough that unlocked calls from several threads would overlap. */
static void linger(void)
{
    struct timespec t = {0, 200 * 1000};
    nanosleep(&t, NULL);
}

static lg_status_t fake_open(int device_id, void *stream, void **state, struct lg_device_info *info)
{
    if (mode == MODE_NO_DEVICE)
        return host->error(LG_ERR_DEVICE, "fake: no CUDA-capable device is detected");
    if (device_id != 0)
        return host->error(LG_ERR_DEVICE, "fake: device %d does not exist (1 device)", device_id);
    struct fake_state *s = host->malloc(sizeof *s);
    if (!s)
        return host->error(LG_ERR_OUT_OF_MEMORY, "fake: out of memory for a context");
    s->magic = STATE_MAGIC;
    atomic_init(&s->busy, 0);
    s->stream = stream;
    memset(info, 0, sizeof *info);
    strcpy(info->name, FAKE_DEVICE_NAME);
    strcpy(info->runtime, FAKE_RUNTIME);
    info->device_id = device_id;
    info->wave_size = FAKE_WAVE;
    info->hardware_wave = FAKE_HARDWARE_WAVE;
    info->multiprocessors = 4;
    info->memory_bytes = (int64_t)1 << 30;
    fake_plugin_stats.last_stream = stream;
    fake_plugin_stats.last_device = device_id;
    atomic_fetch_add(&fake_plugin_stats.opens, 1);
    *state = s;
    return LG_OK;
}

static void fake_close(void *state)
{
    struct fake_state *s = state;
    if (s && s->magic == STATE_MAGIC) {
        s->magic = 0;
        atomic_fetch_add(&fake_plugin_stats.closes, 1);
    }
    host->free(s);
}

static void fake_graph_free(void *device_graph)
{
    struct fake_graph *d = device_graph;
    if (!d || d->magic != GRAPH_MAGIC) {
        atomic_fetch_add(&fake_plugin_stats.bad_frees, 1);
        return;
    }
    d->magic = 0;
    atomic_fetch_add(&fake_plugin_stats.graph_frees, 1);
    host->free(d);
}

/* The graph's device copy: made on first use, as a real plugin's upload. */
static lg_status_t device_copy(const struct lg_graph_view *g, struct fake_graph **out)
{
    struct fake_graph *d = *g->device_cache;
    if (!d) {
        d = host->malloc(sizeof *d);
        if (!d)
            return host->error(LG_ERR_OUT_OF_MEMORY, "fake: out of device memory for the graph");
        d->magic = GRAPH_MAGIC;
        atomic_init(&d->busy, 0);
        d->n = g->n;
        *g->device_cache = d;
        atomic_fetch_add(&fake_plugin_stats.graph_allocs, 1);
    }
    *out = d;
    return LG_OK;
}

static lg_status_t fake_pagerank(const struct lg_exec *exec, const struct lg_graph_view *g,
                                 const void *args)
{
    const struct lg_pagerank_args *a = args;
    const lg_pagerank_options_t *opts = a->opts;
    const lg_precision_t precision = a->precision;
    void *scores = a->scores;
    lg_pagerank_result_t *result = a->result;
    struct fake_state *s = exec->state;
    struct fake_graph *d = NULL;
    lg_status_t st = LG_OK;
    atomic_fetch_add(&fake_plugin_stats.pagerank_calls, 1);
    if (!s || s->magic != STATE_MAGIC)
        return host->error(LG_ERR_INTERNAL, "fake: pagerank on a bad state");
    if (atomic_fetch_add(&s->busy, 1) != 0)
        atomic_fetch_add(&fake_plugin_stats.overlaps, 1);
    fake_plugin_stats.last_n = g->n;
    fake_plugin_stats.last_m = g->m;
    fake_plugin_stats.last_directed = g->directed;
    fake_plugin_stats.last_precision = precision;
    fake_plugin_stats.last_offsets = g->out.offsets;
    fake_plugin_stats.last_indices = g->out.indices;
    fake_plugin_stats.last_weights = g->out.weights;
    fake_plugin_stats.last_alpha = opts->alpha;

    st = device_copy(g, &d);
    if (st != LG_OK)
        goto done;
    if (atomic_fetch_add(&d->busy, 1) != 0)
        atomic_fetch_add(&fake_plugin_stats.overlaps, 1);
    linger();
    for (int64_t v = 0; v < g->n; v++) {
        double x = mode == MODE_OOM || mode == MODE_UNSUPPORTED ? -1.0 : FAKE_SCORE(v);
        if (precision == LG_PRECISION_F32)
            ((float *)scores)[v] = (float)x;
        else
            ((double *)scores)[v] = x;
    }
    atomic_fetch_sub(&d->busy, 1);
    if (mode == MODE_OOM) {
        st = host->error(LG_ERR_OUT_OF_MEMORY, "fake: out of device memory (%lld arcs)",
                         (long long)g->m);
        goto done;
    }
    if (mode == MODE_UNSUPPORTED) {
        st = host->error(LG_ERR_UNSUPPORTED, "fake: cannot take this call (%lld arcs)",
                         (long long)g->m);
        goto done;
    }
    result->iterations = FAKE_ITERATIONS;
    result->residual = 0.0;
    result->converged = true;
done:
    atomic_fetch_sub(&s->busy, 1);
    return st;
}

/* Its "device memory" is host memory: a copy is a memcpy, counted. */
static lg_status_t fake_copy(void *state, void *dst, const void *src, size_t bytes)
{
    if (!state)
        return host->error(LG_ERR_INTERNAL, "fake: copy on a bad state");
    memcpy(dst, src, bytes);
    atomic_fetch_add(&fake_plugin_stats.copies, 1);
    return LG_OK;
}

/* A kernel of an algorithm from after this library's list: never called. */
static lg_status_t fake_future(const struct lg_exec *exec, const struct lg_graph_view *g,
                               const void *args)
{
    (void)exec, (void)g, (void)args;
    return host->error(LG_ERR_INTERNAL, "fake: the core called a kernel it does not know");
}

static const struct lg_kernel pagerank_row = {LG_ALG_PAGERANK, fake_pagerank, false};
static const struct lg_kernel future_row = {LG_ALG_COUNT + 7, fake_future, false};
static const struct lg_kernel *const rows[] = {&future_row, &pagerank_row};
static const struct lg_kernel *const two_rows[] = {&pagerank_row, &future_row, &pagerank_row};

static const struct lg_plugin table = {
    .abi_version = LG_PLUGIN_ABI_VERSION,
    .name = "fake",
    .open = fake_open,
    .close = fake_close,
    .graph_free = fake_graph_free,
    .copy = fake_copy,
    .kernels = rows,
    .num_kernels = 2,
};

static const struct lg_plugin two_rows_table = {
    .abi_version = LG_PLUGIN_ABI_VERSION,
    .name = "fake with two PageRanks",
    .open = fake_open,
    .close = fake_close,
    .graph_free = fake_graph_free,
    .kernels = two_rows,
    .num_kernels = 3,
};

static const struct lg_plugin future_table = {
    .abi_version = 99,
    .name = "fake from the future",
    .open = fake_open,
    .close = fake_close,
    .graph_free = fake_graph_free,
};

/* Built with FAKE_NO_ENTRY, the same function under another name: a shared
 * library that is not a libgraph plugin. */
#ifdef FAKE_NO_ENTRY
#define FAKE_ENTRY fake_not_an_entry
#else
#define FAKE_ENTRY lg_plugin_entry
#endif

FAKE_EXPORT lg_status_t FAKE_ENTRY(const struct lg_plugin_host *h, const struct lg_plugin **plugin);

lg_status_t FAKE_ENTRY(const struct lg_plugin_host *h, const struct lg_plugin **plugin)
{
    atomic_fetch_add(&fake_plugin_stats.entries, 1);
    if (h->abi_version != LG_PLUGIN_ABI_VERSION)
        return h->error(LG_ERR_DEVICE, "fake: host ABI %d", h->abi_version);
    host = h;
    const char *m = getenv(FAKE_MODE_ENV);
    mode = !m || !strcmp(m, "ok")       ? MODE_OK
           : !strcmp(m, "no-device")    ? MODE_NO_DEVICE
           : !strcmp(m, "oom")          ? MODE_OOM
           : !strcmp(m, "unsupported")  ? MODE_UNSUPPORTED
           : !strcmp(m, "abi-mismatch") ? MODE_ABI_MISMATCH
           : !strcmp(m, "two-rows")     ? MODE_TWO_ROWS
           : !strcmp(m, "entry-fails")  ? MODE_ENTRY_FAILS
                                        : MODE_OK;
    if (mode == MODE_ENTRY_FAILS)
        return h->error(LG_ERR_DEVICE, "fake: CUDA driver version is insufficient");
    *plugin = mode == MODE_ABI_MISMATCH ? &future_table
              : mode == MODE_TWO_ROWS   ? &two_rows_table
                                        : &table;
    return LG_OK;
}
