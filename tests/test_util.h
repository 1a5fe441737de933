/*
 * test_util.h - the tiny test harness of libgraph's C tests.
 *
 * CHECK(cond) records a failure with file:line and goes on; CHECK_OK(call)
 * checks a status is LG_OK and prints lg_last_error() when not;
 * CHECK_STATUS(call, want) checks an exact status and that the call set a message.
 * Each test program ends with TEST_EXIT(), which prints "N passed, N failed"
 * and returns non-zero on any failure (tu_summary, for shared mains).
 */
#ifndef LIBGRAPH_TEST_UTIL_H
#define LIBGRAPH_TEST_UTIL_H

#include "libgraph.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The work below which the library runs a pass on one thread
 * (LG_PARALLEL_MIN_WORK, src/graph/internal.h), lowered for every test
 * program so that the tests' small graphs run the parallel paths too (and
 * ThreadSanitizer sees them).  Weak: a program linking the shared library,
 * which hides the variable, keeps the library's value. */
extern int64_t lg__parallel_min_work __attribute__((weak));
#define TU_PARALLEL_MIN_WORK 32768
__attribute__((constructor)) static void tu_lower_parallel_min_work(void)
{
    if (&lg__parallel_min_work)
        lg__parallel_min_work = TU_PARALLEL_MIN_WORK;
}

/* atomic: tests check from many threads at once (ThreadSanitizer runs them) */
static atomic_long tu_passed, tu_failed;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond) {                                                                                \
            tu_passed++;                                                                           \
        } else {                                                                                   \
            tu_failed++;                                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_OK(call)                                                                             \
    do {                                                                                           \
        lg_status_t tu_st = (call);                                                                \
        if (tu_st == LG_OK) {                                                                      \
            tu_passed++;                                                                           \
        } else {                                                                                   \
            tu_failed++;                                                                           \
            fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call,              \
                    lg_status_string(tu_st), lg_last_error());                                     \
        }                                                                                          \
    } while (0)

/* The library's internal error setter (in the static library the tests link):
 * CHECK_STATUS empties the message first, so a stale one cannot pass. */
lg_status_t lg__error(lg_status_t status, const char *fmt, ...);

#define CHECK_STATUS(call, want)                                                                   \
    do {                                                                                           \
        lg__error(LG_OK, "%s", "");                                                                \
        lg_status_t tu_st = (call);                                                                \
        if (tu_st == (want) && lg_last_error()[0] != '\0') {                                       \
            tu_passed++;                                                                           \
        } else {                                                                                   \
            tu_failed++;                                                                           \
            fprintf(stderr, "%s:%d: %s returned %s (want %s), message \"%s\"\n", __FILE__,         \
                    __LINE__, #call, lg_status_string(tu_st), lg_status_string(want),              \
                    lg_last_error());                                                              \
        }                                                                                          \
    } while (0)

/* Checks that the last error message contains a substring. */
#define CHECK_MESSAGE(sub)                                                                         \
    do {                                                                                           \
        if (strstr(lg_last_error(), (sub))) {                                                      \
            tu_passed++;                                                                           \
        } else {                                                                                   \
            tu_failed++;                                                                           \
            fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__,            \
                    lg_last_error(), (sub));                                                       \
        }                                                                                          \
    } while (0)

/* A CPU context of `threads` threads (0: the library chooses); NULL, with
 * a failed check, when it cannot be made. */
static inline lg_context_t *tu_cpu_context(int threads)
{
    lg_context_options_t o;
    lg_context_options_init(&o);
    o.backend = LG_BACKEND_CPU;
    o.num_threads = threads;
    lg_context_t *c = NULL;
    CHECK_OK(lg_context_create(&c, &o));
    return c;
}

/* Prints "N passed, N failed"; the program's exit status. */
/* Options for a directed graph (the builders' default is undirected). */
static inline const lg_graph_options_t *tu_directed(void)
{
    static lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_DIRECTED;
    return &o;
}

static inline int tu_summary(void)
{
    printf("%ld passed, %ld failed\n", tu_passed, tu_failed);
    return tu_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define TEST_EXIT() return tu_summary()

/* A small deterministic RNG for test inputs (xorshift64*). */
static inline unsigned long long tu_rand(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* The directory of test data files (set by CMake). */
#ifndef LG_TEST_DATA_DIR
#define LG_TEST_DATA_DIR "tests/data"
#endif

#endif
