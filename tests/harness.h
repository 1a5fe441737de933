/*
 * harness.h - what the C tests of the builder and the algorithms share:
 *
 *   ctx[0 .. NUM_CTX)  contexts of 1, 2 and 3 threads: CPU ones, or in the
 *                      *_gpu builds AUTO ones that landed on the GPU
 *                      (or_open_contexts of oracle.h)
 *   set_subject,       failure reports that name the graph under test (or its
 *   graph_subject,     shape, seed and build options), capped so that a
 *   report             systematic bug stays readable
 *   harness_main       a main: the passive OpenMP wait policy, the contexts,
 *                      then named sections in order, each followed by a line
 *                      with its number of checks and its seconds (or the
 *                      steps harness_open, harness_run, harness_close)
 *   harness_quick,     the bounded run of an emulated CPU (LG_TEST_QUICK set,
 *   harness_rounds     tools/cross-test.sh --quick): loops over random graphs
 *                      run fewer rounds, each program still reaching every
 *                      code path it tests
 */
#ifndef LIBGRAPH_TEST_HARNESS_H
#define LIBGRAPH_TEST_HARNESS_H

#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__)
#define LG_TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LG_TEST_PRINTF(f, a)
#endif

#define NUM_CTX 3
static lg_context_t *ctx[NUM_CTX]; /* 1, 2 and 3 threads */

/* ---- failure reports ---------------------------------------------------------------- */

static char subject[200]; /* the graph under test */
static int reports_left = 30;

static inline void set_subject(const char *fmt, ...) LG_TEST_PRINTF(1, 2);
static inline void set_subject(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(subject, sizeof subject, fmt, ap);
    va_end(ap);
}

static inline void report(const char *fmt, ...) LG_TEST_PRINTF(1, 2);
static inline void report(const char *fmt, ...)
{
    if (reports_left <= 0)
        return;
    reports_left--;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "  FAILED ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n    graph: %s\n", subject);
}

/* Names the graph under test in failure reports: its shape, seed and options. */
static inline void graph_subject(const char *shape, unsigned long long seed,
                                 const lg_graph_options_t *o, bool weighted)
{
    set_subject("shape %s seed %llu directedness %d symmetrize %d drop_self_loops %d duplicates %d "
                "weighted %d",
                shape, seed, (int)o->directedness, (int)o->symmetrize, (int)o->drop_self_loops,
                (int)o->duplicates, (int)weighted);
}

static inline double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* True when LG_TEST_QUICK is set (and not "0"): the run is bounded. */
static inline bool harness_quick(void)
{
    const char *q = getenv("LG_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

/* How many rounds a loop over random graphs runs: full, or quick when bounded. */
static inline int harness_rounds(int full, int quick)
{
    return harness_quick() ? quick : full;
}

/* A part of a test program: a name for its summary line, and its checks. */
struct section {
    const char *name;
    void (*run)(void);
};

/* Re-runs the program under the passive wait policy (see or_passive_openmp)
 * and opens the contexts; false, after a failed check, when they cannot be
 * opened. */
static inline bool harness_open(char **argv)
{
    or_passive_openmp(argv);
    bool opened = or_open_contexts(ctx, NUM_CTX);
    CHECK(opened);
    return opened;
}

/* Runs count sections, printing each one's checks and time. */
static inline void harness_run(const struct section *sections, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        double t0 = now_seconds();
        long before = tu_passed + tu_failed;
        sections[i].run();
        printf("%-22s %8ld checks %7.2f s\n", sections[i].name, tu_passed + tu_failed - before,
               now_seconds() - t0);
    }
}

static inline void harness_close(void)
{
    for (int k = 0; k < NUM_CTX; k++)
        lg_context_free(&ctx[k]);
}

/* A test program's main: the contexts, count sections, then summary's lines
 * (when not NULL); the exit status. */
static inline int harness_main(char **argv, const struct section *sections, size_t count,
                               void (*summary)(void))
{
    if (harness_open(argv))
        harness_run(sections, count);
    if (summary)
        summary();
    harness_close();
    return tu_summary();
}

#endif
