/*
 * test_plugin_threads.c - the core's GPU plugin under threads, against a fake
 * plugin (plugin_util.h) that counts its calls and notices overlapping ones.
 *
 *   threads         contexts created at once load the plugin once; calls
 *                   from many threads, on a shared context or their own,
 *                   never overlap on a graph or a context; the device copy
 *                   is made once and freed once
 *
 * `test_plugin_threads threads` runs the scenario in this process (for
 * debugging).
 */
#define _GNU_SOURCE /* RTLD_NOLOAD, setenv */

#include "libgraph.h"
#include "plugin_util.h"
#include "test_util.h"

#include <pthread.h>

/* ---- threads -------------------------------------------------------------------------- */

#define THREADS 6
#define CALLS 10

static pthread_barrier_t barrier;

struct worker {
    lg_context_t *ctx; /* shared, or NULL: the worker opens its own GPU context */
    lg_graph_t *g;
    lg_status_t st;
    bool right;
    lg_backend_t first_seen;
};

static void *open_at_once(void *arg)
{
    struct worker *w = arg;
    lg_context_t *ctx = NULL;
    w->first_seen = lg_last_backend(); /* thread-local: nothing ran on this thread yet */
    pthread_barrier_wait(&barrier);
    w->st = open_context(LG_BACKEND_GPU, 0, 1, NULL, &ctx);
    w->right = ctx != NULL && backend_of(ctx) == LG_BACKEND_GPU;
    lg_context_free(&ctx);
    return NULL;
}

static void *rank_many(void *arg)
{
    struct worker *w = arg;
    lg_context_t *own = NULL;
    double x[N];
    w->st = w->ctx ? LG_OK : open_context(LG_BACKEND_GPU, 0, 1, NULL, &own);
    w->right = true;
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < CALLS && w->st == LG_OK; i++) {
        memset(x, 0, sizeof x);
        w->st = lg_pagerank(w->ctx ? w->ctx : own, w->g, NULL, x, NULL);
        w->right &= fake_scores(x, N) && lg_last_backend() == LG_BACKEND_GPU;
    }
    lg_context_free(&own);
    return NULL;
}

static void run_threads(void *(*fn)(void *), struct worker *w)
{
    pthread_t t[THREADS];
    pthread_barrier_init(&barrier, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, fn, &w[i]) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < THREADS; i++)
        CHECK(w[i].st == LG_OK && w[i].right);
}

static void threads(void)
{
    struct worker w[THREADS];
    lg_graph_t *g = test_graph();
    lg_vertex_t labels[N];
    CHECK_OK(lg_connected_components(NULL, g, NULL, labels, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU); /* on this thread; the others start afresh */
    memset(w, 0, sizeof w);
    run_threads(open_at_once, w); /* the first contexts race to load the plugin */
    for (int i = 0; i < THREADS; i++)
        CHECK(w[i].first_seen == LG_BACKEND_AUTO);
    struct fake_plugin_stats *fs = stats();
    CHECK(atomic_load(&fs->entries) == 1 && atomic_load(&fs->opens) == THREADS);

    /* one graph; four threads share a context, two have their own */
    lg_context_t *shared = NULL;
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 1, NULL, &shared));
    memset(w, 0, sizeof w);
    for (int i = 0; i < THREADS; i++) {
        w[i].ctx = i < 4 ? shared : NULL;
        w[i].g = g;
    }
    run_threads(rank_many, w);
    CHECK(atomic_load(&fs->pagerank_calls) == THREADS * CALLS);
    CHECK(atomic_load(&fs->overlaps) == 0);
    CHECK(atomic_load(&fs->graph_allocs) == 1);
    lg_graph_free(&g);
    lg_context_free(&shared);
    CHECK(atomic_load(&fs->graph_frees) == 1);
    CHECK(atomic_load(&fs->opens) == atomic_load(&fs->closes));
}
static const struct scenario scenarios[] = {
    {"threads", LG_FAKE_PLUGIN, "ok", threads},
};

int main(int argc, char **argv)
{
    return plugin_main(argc, argv, scenarios, sizeof scenarios / sizeof scenarios[0]);
}
