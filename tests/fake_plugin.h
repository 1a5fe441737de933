/*
 * fake_plugin.h - what tests/fake_plugin.c records, for tests/test_plugin*.c.
 *
 * The fake exports one struct fake_plugin_stats (symbol FAKE_STATS_SYMBOL);
 * the test finds it with dlopen(RTLD_NOLOAD) + dlsym on the plugin's file.
 */
#ifndef LIBGRAPH_FAKE_PLUGIN_H
#define LIBGRAPH_FAKE_PLUGIN_H

#include <stdatomic.h>
#include <stdint.h>

#define FAKE_STATS_SYMBOL "fake_plugin_stats"
#define FAKE_MODE_ENV "LG_FAKE_PLUGIN_MODE"

/* The fake's PageRank answer, one no real PageRank gives (the scores sum to
 * far more than 1): scores[v] = FAKE_SCORE(v), in FAKE_ITERATIONS iterations. */
#define FAKE_SCORE(v) (0.25 * (double)((v) + 1))
#define FAKE_ITERATIONS 7

/* The one device the fake has, and what it says about it. */
#define FAKE_DEVICE_NAME "Fake GPU 9000"
#define FAKE_RUNTIME "fake runtime 1.0"
#define FAKE_WAVE 64
#define FAKE_HARDWARE_WAVE 32

struct fake_plugin_stats {
    atomic_int entries;                   /* calls of the entry point */
    atomic_int opens, closes;             /* successful opens; closes */
    atomic_int graph_allocs, graph_frees; /* device copies made and freed */
    atomic_int bad_frees;                 /* graph_free on something the fake did not make */
    atomic_int pagerank_calls;
    atomic_int copies;   /* lg_context_copy calls it answered */
    atomic_int overlaps; /* calls that ran at once on one graph or one context */
    /* the last PageRank call's arguments, as the fake saw them */
    int64_t last_n, last_m;
    int last_directed;
    int last_precision;
    const void *last_offsets, *last_indices, *last_weights;
    double last_alpha;
    void *_Atomic last_stream; /* opens may race (test_plugin_threads) */
    atomic_int last_device;
};

#endif
