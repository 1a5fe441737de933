/*
 * errors_util.h - what the error-path tests (test_errors_*.c) share: one CPU
 * context of 2 threads, a poisoned handle value that a failed call must
 * overwrite with NULL (and never follow), a small directed test graph, and
 * a file writer.  Setting up is not under test: a failure there ends the
 * program.
 */
#ifndef LIBGRAPH_TEST_ERRORS_UTIL_H
#define LIBGRAPH_TEST_ERRORS_UTIL_H

#include "libgraph.h"
#include "oracle.h" /* before ctx: its parameters are named ctx too */
#include "test_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef LG_TEST_TMP_DIR
#define LG_TEST_TMP_DIR "/tmp"
#endif

static lg_context_t *ctx;

/* A handle value that is not NULL and not a real handle: a failed call must
 * leave it as it is (the header's contract: outputs as found) and never
 * follow it. */
static inline void *not_a_handle(void)
{
    static char somewhere;
    return &somewhere;
}
#define POISON_GRAPH ((lg_graph_t *)not_a_handle())
#define POISON_CONTEXT ((lg_context_t *)not_a_handle())

/* A small directed test graph: 0->1, 1->2, 2->0, 2->3 (weighted). */
static inline lg_graph_t *small_graph(bool weighted)
{
    const lg_vertex_t src[] = {0, 1, 2, 2}, dst[] = {1, 2, 0, 3};
    const float w[] = {1.0f, 2.0f, 0.5f, 4.0f};
    lg_graph_t *g = NULL;
    lg_status_t st = lg_graph_from_edges(ctx, 4, 4, src, dst, weighted ? w : NULL, tu_directed(), &g);
    CHECK(st == LG_OK && g != NULL);
    if (!g) {
        fprintf(stderr, "cannot build the test graph: %s\n", lg_last_error());
        exit(EXIT_FAILURE);
    }
    return g;
}

static inline void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(EXIT_FAILURE);
    }
}

/* Opens ctx (2 threads); false, after saying why, when it cannot be had. */
static inline bool errors_open(void)
{
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.num_threads = 2;
    if (lg_context_create(&ctx, &co) != LG_OK) {
        fprintf(stderr, "lg_context_create: %s\n", lg_last_error());
        return false;
    }
    return true;
}

/* A test program's main, after the passive wait policy (or_passive_openmp):
 * the context, then count tests in order; the exit status. */
static inline int errors_main(void (*const *tests)(void), size_t count)
{
    if (!errors_open())
        return EXIT_FAILURE;
    for (size_t i = 0; i < count; i++)
        tests[i]();
    lg_context_free(&ctx);
    return tu_summary();
}

#endif
