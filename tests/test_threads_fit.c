/*
 * test_threads_fit.c - the threads a call runs on.
 *
 * lg__fit_team's rule (the caller's core and the idle ones, at least one),
 * lg__threads_for's: one thread below lg__parallel_min_work; a context whose
 * thread count the library chose fitted to the machine's runnable threads
 * (made to read as idle or as busy through the test hook), one whose count
 * the caller gave never.  And the answers do not depend on it: BFS and
 * connected components equal bit for bit, PageRank to rounding, on an idle
 * and a busy machine, against a one-thread context.  lg__runnable_tasks,
 * which keeps this process's own spinning threads from counting as another
 * program's: on a made-up task directory, and on this process's with a
 * thread spinning.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "internal.h"
#include "test_util.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_fit_rule(void)
{
    CHECK(lg__fit_team(8, 8, 1) == 8);  /* idle: every core */
    CHECK(lg__fit_team(8, 8, 4) == 5);  /* three others running: theirs left to them */
    CHECK(lg__fit_team(8, 8, 8) == 1);  /* full: the caller's own core */
    CHECK(lg__fit_team(8, 8, 30) == 1); /* oversubscribed: never below one */
    CHECK(lg__fit_team(2, 16, 1) == 2); /* never above the team asked for */
    CHECK(lg__fit_team(1, 16, 1) == 1);
}

static void test_threads_for(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    lg_context_t *chosen = tu_cpu_context(0), *given = tu_cpu_context(4);
    int threads = 0;
    CHECK_OK(lg_context_get_num_threads(chosen, &threads));
    const int64_t big = 64 * lg__parallel_min_work;

    CHECK(lg__threads_for(chosen, lg__parallel_min_work - 1) == 1);
    CHECK(lg__threads_for(given, lg__parallel_min_work - 1) == 1);
    const long before = lg__running_threads_override(1);
    CHECK(lg__threads_for(chosen, big) == lg__fit_team(threads, online, 1));
    CHECK(lg__threads_for(given, big) == 4);
    lg__running_threads_override(online + 3);
    CHECK(lg__threads_for(chosen, big) == 1);
    CHECK(lg__threads_for(given, big) == 4); /* the caller's count stands */
    lg__running_threads_override(before);
    lg_context_free(&chosen);
    lg_context_free(&given);
}

static void write_stat(const char *dir, const char *tid, const char *line)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, tid);
    CHECK(mkdir(path, 0700) == 0);
    snprintf(path, sizeof path, "%s/%s/stat", dir, tid);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(line, f);
        fclose(f);
    }
}

static void remove_stat(const char *dir, const char *tid)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/stat", dir, tid);
    remove(path);
    snprintf(path, sizeof path, "%s/%s", dir, tid);
    remove(path);
}

static atomic_int spinning;

static void *spin(void *arg)
{
    (void)arg;
    atomic_store(&spinning, 1);
    while (atomic_load(&spinning) == 1)
        ;
    return NULL;
}

static void test_runnable_tasks(void)
{
    char dir[] = "/tmp/lg-tasks-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    /* the state is the field after the last ')': a name may hold both */
    write_stat(dir, "101", "101 (a) R) S 1 101 101 0 -1\n");
    write_stat(dir, "102", "102 (b c) R 1 101 101 0 -1\n");
    write_stat(dir, "103", "103 (idle) S 1 101 101 0 -1\n");
    write_stat(dir, "104", "104 ((x)) R 1 101 101 0 -1\n");
    write_stat(dir, "self", "1 (not a thread) R\n"); /* not a thread id: skipped */
    CHECK(lg__runnable_tasks(dir) == 2);
    const char *tids[] = {"101", "102", "103", "104", "self"};
    for (size_t k = 0; k < sizeof tids / sizeof *tids; k++)
        remove_stat(dir, tids[k]);
    CHECK(lg__runnable_tasks(dir) == 0);
    remove(dir);
    CHECK(lg__runnable_tasks(dir) == -1);

    /* the caller, reading, and a thread spinning are both runnable */
    pthread_t t;
    CHECK(pthread_create(&t, NULL, spin, NULL) == 0);
    while (atomic_load(&spinning) == 0)
        ;
    CHECK(lg__runnable_tasks("/proc/self/task") >= 2);
    atomic_store(&spinning, 2);
    pthread_join(t, NULL);
}

/* The three algorithms on g with ctx: distances from 0, PageRank, labels. */
struct answers {
    int32_t *dist;
    double *rank;
    lg_vertex_t *label;
    int64_t components;
};

static int answer(lg_context_t *ctx, const lg_graph_t *g, struct answers *a)
{
    const int64_t n = lg_graph_num_vertices(g);
    a->dist = malloc((size_t)n * sizeof *a->dist);
    a->rank = malloc((size_t)n * sizeof *a->rank);
    a->label = malloc((size_t)n * sizeof *a->label);
    if (!a->dist || !a->rank || !a->label)
        return -1;
    CHECK_OK(lg_bfs(ctx, g, 0, NULL, a->dist, NULL));
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.tol = 1e-10; /* converged far below the differences checked */
    po.max_iter = 1000;
    CHECK_OK(lg_pagerank(ctx, g, &po, a->rank, NULL));
    CHECK_OK(lg_connected_components(ctx, g, NULL, a->label, &a->components));
    return 0;
}

static void release(struct answers *a)
{
    free(a->dist);
    free(a->rank);
    free(a->label);
}

static void test_same_answers(void)
{
    lg_context_t *chosen = tu_cpu_context(0), *one = tu_cpu_context(1);
    lg_graph_t *g = NULL;
    /* kron:14: 16K vertices, 0.5M arcs, above LG_PARALLEL_MIN_WORK */
    CHECK_OK(lg_generate(one, LG_GENERATOR_KRONECKER, 14, 16, 1, NULL, &g));
    if (!chosen || !one || !g)
        return;
    const int64_t n = lg_graph_num_vertices(g);
    CHECK(n + lg_graph_num_edges(g) > LG_PARALLEL_MIN_WORK);

    struct answers want = {0}, got[2] = {{0}}; /* on an idle machine, on a busy one */
    const long before = lg__running_threads_override(1);
    CHECK(answer(one, g, &want) == 0);
    CHECK(answer(chosen, g, &got[0]) == 0);
    lg__running_threads_override(1 << 20);
    CHECK(answer(chosen, g, &got[1]) == 0);
    lg__running_threads_override(before);
    for (int k = 0; k < 2; k++) {
        const struct answers *a = &got[k];
        if (!a->dist || !want.dist)
            break;
        CHECK(memcmp(a->dist, want.dist, (size_t)n * sizeof *a->dist) == 0);
        CHECK(memcmp(a->label, want.label, (size_t)n * sizeof *a->label) == 0);
        CHECK(a->components == want.components);
        double worst = 0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(a->rank[v] - want.rank[v]) / want.rank[v]);
        CHECK(worst < 1e-7);
    }
    release(&want);
    release(&got[0]);
    release(&got[1]);
    lg_graph_free(&g);
    lg_context_free(&chosen);
    lg_context_free(&one);
}

int main(void)
{
    test_fit_rule();
    test_threads_for();
    test_runnable_tasks();
    test_same_answers();
    TEST_EXIT();
}
