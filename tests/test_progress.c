/*
 * test_progress.c - progress callbacks and cancellation: every long call
 * reports its steps (stage, done, total, PageRank's residual) in order to the
 * callback of its options, stops with LG_ERR_CANCELLED when the callback
 * returns false while work is left, frees what it holds (the sanitizer runs
 * see leaks), and leaves the graph and context usable: the same call without
 * a callback then gives the oracle's answer.  Built for GPU contexts too
 * (test_progress_gpu), where a cooperative BFS reports once, at its end.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "kernel_graphs.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SEEN 512
#define STEPS 11 /* a build's steps (src/graph/internal.h, LG_BUILD_STEPS) */

/* What a callback saw, and the call at which it says stop (1-based; 0: never). */
struct record {
    int calls;
    int stop_at;
    lg_progress_info_t seen[MAX_SEEN];
};

static bool record_step(const lg_progress_info_t *info, void *data)
{
    struct record *r = data;
    if (r->calls < MAX_SEEN)
        r->seen[r->calls] = *info;
    r->calls++;
    return r->calls != r->stop_at;
}

static void record_reset(struct record *r, int stop_at)
{
    r->calls = 0;
    r->stop_at = stop_at;
}

/* Every report of r is of stage `stage`, with done counting up from first. */
static bool steps_count_up(const struct record *r, lg_stage_t stage, int64_t first, int64_t total)
{
    for (int i = 0; i < r->calls && i < MAX_SEEN; i++)
        if (r->seen[i].stage != stage || r->seen[i].done != first + i || r->seen[i].total != total)
            return false;
    return r->calls > 0;
}

static void test_pagerank_progress(void)
{
    struct tgraph t;
    if (!tgraph_generate(&t, LG_GENERATOR_KRONECKER, 10, 8, 5, true, 0))
        return;
    const int64_t n = t.o.n;
    double *x = or_alloc((size_t)n, sizeof *x), *y = or_alloc((size_t)n, sizeof *y);
    struct record rec;
    for (int k = 0; k < NUM_CTX; k++) {
        lg_pagerank_options_t po;
        lg_pagerank_options_init(&po);
        po.tol = 0.0; /* runs all max_iter iterations */
        po.max_iter = 30;
        po.progress = record_step;
        po.progress_data = &rec;
        lg_pagerank_result_t r;
        record_reset(&rec, 0);
        CHECK_STATUS(lg_pagerank(ctx[k], t.g, &po, x, &r), LG_ERR_NOT_CONVERGED);
        CHECK(rec.calls == 30 && steps_count_up(&rec, LG_STAGE_PAGERANK, 1, 30));
        CHECK(r.iterations == 30 && !r.converged && rec.seen[29].residual == r.residual);
        bool shrinking = true; /* the L1 changes of a power iteration fall */
        for (int i = 1; i < 30; i++)
            shrinking = shrinking && rec.seen[i].residual <= rec.seen[i - 1].residual * 1.0001;
        CHECK(shrinking && r.residual > 0.0);

        /* stopped at the 7th iteration; then the same call runs to the end */
        record_reset(&rec, 7);
        CHECK_STATUS(lg_pagerank(ctx[k], t.g, &po, y, &r), LG_ERR_CANCELLED);
        CHECK_MESSAGE("lg_pagerank: cancelled by the progress callback");
        CHECK(rec.calls == 7);
        po.progress = NULL;
        CHECK_STATUS(lg_pagerank(ctx[k], t.g, &po, y, &r), LG_ERR_NOT_CONVERGED);
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(x[v] - y[v]));
        CHECK(r.iterations == 30 && worst <= 1e-12);

        /* float; and a stop at the converging iteration changes nothing */
        lg_pagerank_options_init(&po);
        po.progress = record_step;
        po.progress_data = &rec;
        float *xf = or_alloc((size_t)n, sizeof *xf);
        record_reset(&rec, 0);
        CHECK_OK(lg_pagerank_f32(ctx[k], t.g, &po, xf, &r));
        CHECK(r.converged && rec.calls == r.iterations &&
              steps_count_up(&rec, LG_STAGE_PAGERANK, 1, 100));
        CHECK(r.residual < (double)n * po.tol && rec.seen[rec.calls - 1].residual == r.residual);
        record_reset(&rec, r.iterations);
        CHECK_OK(lg_pagerank_f32(ctx[k], t.g, &po, xf, &r));
        record_reset(&rec, 2);
        CHECK_STATUS(lg_pagerank_f32(ctx[k], t.g, &po, xf, &r), LG_ERR_CANCELLED);
        free(xf);
    }
    free(x);
    free(y);
    tgraph_free(&t);
}

/* dist[v] == v: the distances along the path 0 - 1 - ... - 49 from 0 */
static bool along_the_path(const int32_t *dist)
{
    bool right = true;
    for (int v = 0; v < 50; v++)
        right = right && dist[v] == v;
    return right;
}

static void test_bfs_progress(void)
{
    /* a path 0 - 1 - ... - 49: 49 levels */
    struct elist el;
    el_init(&el, 50);
    el_path(&el, 0, 50, false);
    struct tgraph t;
    if (!tgraph_from_elist(&t, &el, false, false, 0)) {
        el_free(&el);
        return;
    }
    int32_t dist[50];
    struct record rec;
    for (int k = 0; k < NUM_CTX; k++) {
        lg_bfs_options_t bo;
        lg_bfs_options_init(&bo);
        bo.direction_alpha = 0; /* top-down throughout: one report a level */
        bo.progress = record_step;
        bo.progress_data = &rec;
        record_reset(&rec, 0);
        CHECK_OK(lg_bfs(ctx[k], t.g, 0, &bo, dist, NULL));
        CHECK(along_the_path(dist));
#ifdef LG_TEST_GPU
        /* the cooperative search runs every level in one launch: one report */
        CHECK(rec.calls >= 1 && rec.seen[0].stage == LG_STAGE_BFS && rec.seen[0].total == -1);
#else
        /* levels 1 .. 49, and the level that finds nothing */
        CHECK(rec.calls == 50 && steps_count_up(&rec, LG_STAGE_BFS, 1, -1));
#endif
        record_reset(&rec, 3);
        const lg_status_t st = lg_bfs(ctx[k], t.g, 0, &bo, dist, NULL);
#ifdef LG_TEST_GPU
        CHECK(st == LG_ERR_CANCELLED || st == LG_OK);
#else
        CHECK(st == LG_ERR_CANCELLED && rec.calls == 3);
        CHECK_MESSAGE("lg_bfs: cancelled by the progress callback");
#endif
        /* a stop at the last report comes when nothing is left: no effect */
        const int last = rec.calls;
        record_reset(&rec, last);
        bo.progress = NULL;
        CHECK_OK(lg_bfs(ctx[k], t.g, 0, &bo, dist, NULL));
        CHECK(along_the_path(dist));
    }
    tgraph_free(&t);
    el_free(&el);
}

static void test_components_progress(void)
{
    struct tgraph t;
    if (!tgraph_generate(&t, LG_GENERATOR_URAND, 10, 2, 3, false, 0))
        return;
    const int64_t n = t.o.n;
    lg_vertex_t *got = or_alloc((size_t)n, sizeof *got), *want = or_alloc((size_t)n, sizeof *want);
    const int64_t want_count = or_components(&t.o, want);
    struct record rec;
    for (int k = 0; k < NUM_CTX; k++) {
        lg_components_options_t co;
        lg_components_options_init(&co);
        co.progress = record_step;
        co.progress_data = &rec;
        int64_t count = -1;
        record_reset(&rec, 0);
        CHECK_OK(lg_connected_components(ctx[k], t.g, &co, got, &count));
        CHECK(count == want_count && memcmp(got, want, (size_t)n * sizeof *got) == 0);
        /* passes counted to their total; the GPU reports where the host waits */
        CHECK(rec.calls >= 1 && rec.seen[rec.calls - 1].done == rec.seen[rec.calls - 1].total);
        CHECK(steps_count_up(&rec, LG_STAGE_COMPONENTS, rec.seen[0].done, rec.seen[0].total));
        record_reset(&rec, 1);
        CHECK_STATUS(lg_connected_components(ctx[k], t.g, &co, got, &count),
                     LG_ERR_CANCELLED);
        CHECK_MESSAGE("lg_connected_components: cancelled by the progress callback");
        CHECK_OK(lg_connected_components(ctx[k], t.g, NULL, got, &count));
        CHECK(count == want_count && memcmp(got, want, (size_t)n * sizeof *got) == 0);
    }
    free(got);
    free(want);
    tgraph_free(&t);
}

static void test_build_progress(void)
{
    static const lg_vertex_t src[] = {0, 1, 2, 3, 3}, dst[] = {1, 2, 0, 0, 1};
    struct record rec;
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.progress = record_step;
    o.progress_data = &rec;
    lg_graph_t *g = NULL;
    record_reset(&rec, 0);
    CHECK_OK(lg_graph_from_edges(ctx[0], 4, 5, src, dst, NULL, &o, &g));
    /* checked, counted, four parts put in rows, four sorted and merged, made */
    CHECK(rec.calls == STEPS && steps_count_up(&rec, LG_STAGE_BUILD, 1, STEPS));
    CHECK(g && lg_graph_num_edges(g) == 10);
    for (int stop = 1; stop <= STEPS; stop++) {
        lg_graph_t *h = NULL;
        record_reset(&rec, stop);
        const lg_status_t st = lg_graph_from_edges(ctx[1], 4, 5, src, dst, NULL, &o, &h);
        if (stop < STEPS) { /* a stop after the last step comes when nothing is left */
            CHECK(st == LG_ERR_CANCELLED && h == NULL);
            CHECK_MESSAGE("lg_graph_from_edges: cancelled by the progress callback");
        } else {
            CHECK(st == LG_OK && h != NULL);
        }
        lg_graph_free(&h);
    }

    /* from_csr of a graph's own CSR: checked, then copied as it is */
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    CHECK_OK(lg_graph_csr(g, &off, &idx, NULL));
    lg_graph_t *h = NULL;
    record_reset(&rec, 0);
    CHECK_OK(lg_graph_from_csr(ctx[2], 4, off, idx, NULL, &o, &h));
    /* checked, copied as rows, its symmetry checked (undirected), made */
    CHECK(rec.calls == 4 && rec.seen[0].done == 1 && rec.seen[1].done == 6 &&
          rec.seen[2].done == STEPS - 1 && rec.seen[3].done == STEPS);
    lg_graph_free(&h);
    for (int stop = 1; stop <= 3; stop++) {
        record_reset(&rec, stop);
        CHECK_STATUS(lg_graph_from_csr(ctx[2], 4, off, idx, NULL, &o, &h), LG_ERR_CANCELLED);
        CHECK(h == NULL);
    }

    /* lg_generate reports its edges made (one block here), then builds with
     * the options' callback; stopped at the generation, it makes nothing */
    o.directedness = LG_UNDIRECTED;
    record_reset(&rec, 0);
    CHECK_OK(lg_generate(ctx[0], LG_GENERATOR_URAND, 6, 4, 1, &o, &h));
    CHECK(rec.calls == STEPS + 1 && rec.seen[0].stage == LG_STAGE_GENERATE &&
          rec.seen[0].done == 256 && rec.seen[0].total == 256);
    bool build_steps = true;
    for (int i = 1; i < rec.calls; i++)
        build_steps = build_steps && rec.seen[i].stage == LG_STAGE_BUILD && rec.seen[i].done == i;
    CHECK(build_steps);
    lg_graph_free(&h);
    record_reset(&rec, 1);
    CHECK_STATUS(lg_generate(ctx[0], LG_GENERATOR_URAND, 6, 4, 1, &o, &h), LG_ERR_CANCELLED);
    CHECK_MESSAGE("lg_generate: cancelled by the progress callback");
    CHECK(h == NULL);
    /* 2^22 edges: two blocks of 2^21, reported in order */
    record_reset(&rec, 2);
    CHECK_STATUS(lg_generate(ctx[0], LG_GENERATOR_URAND, 18, 16, 1, &o, &h), LG_ERR_CANCELLED);
    CHECK(rec.calls == 2 && rec.seen[0].stage == LG_STAGE_GENERATE &&
          rec.seen[0].done == (int64_t)1 << 21 && rec.seen[1].done == (int64_t)1 << 22 &&
          rec.seen[1].total == (int64_t)1 << 22 && h == NULL);
    lg_graph_free(&g);

    /* past 16M edges a build's phases go in more parts (k = 2 here: 2 + 9k
     * steps), so that a step stays short at any size */
    record_reset(&rec, 0);
    CHECK_OK(lg_generate(ctx[1], LG_GENERATOR_URAND, 20, 16, 1, &o, &h));
    int first_build = 0;
    while (first_build < rec.calls && rec.seen[first_build].stage == LG_STAGE_GENERATE)
        first_build++;
    bool counting_up = first_build == 8 && rec.calls - first_build == 20;
    for (int i = first_build; i < rec.calls && i < MAX_SEEN; i++)
        counting_up = counting_up && rec.seen[i].stage == LG_STAGE_BUILD &&
                      rec.seen[i].done == i - first_build + 1 && rec.seen[i].total == 20;
    CHECK(counting_up);
    lg_graph_free(&h);
}

/* Whether dir holds a file whose name starts with prefix. */
static bool temp_file_left(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        found = found || strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return found;
}

/* lg_graph_write_with tells of every 16 MB written; stopped, it leaves the
 * old file whole and no temporary file beside it. */
static void test_write_progress(void)
{
    lg_graph_t *g = NULL;
    char path[1024];
    CHECK_OK(lg_generate(ctx[0], LG_GENERATOR_URAND, 18, 16, 3, NULL, &g));
    if (!g)
        return;
    snprintf(path, sizeof path, "%s/write_progress.el", LG_TEST_TMP_DIR);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs("0 1\n", f) >= 0 && fclose(f) == 0);
    lg_write_options_t o;
    lg_write_options_init(&o);
    CHECK(o.progress == NULL && o.progress_data == NULL);
    o.progress = record_step;
    struct record rec;
    o.progress_data = &rec;
    record_reset(&rec, 0);
    CHECK_OK(lg_graph_write_with(ctx[0], g, path, LG_FORMAT_AUTO, &o));
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && sb.st_size > (32 << 20));
    /* one report a full 16 MB written, counting up */
    bool counting = rec.calls == (int)((sb.st_size - 1) / (16 << 20));
    for (int i = 0; i < rec.calls && i < MAX_SEEN; i++)
        counting = counting && rec.seen[i].stage == LG_STAGE_WRITE &&
                   rec.seen[i].done == (int64_t)(i + 1) * (16 << 20) && rec.seen[i].total == -1;
    CHECK(counting);
    for (int stop = 1; stop <= 2; stop++) {
        f = fopen(path, "w");
        CHECK(f && fputs("0 1\n", f) >= 0 && fclose(f) == 0);
        record_reset(&rec, stop);
        CHECK_STATUS(lg_graph_write_with(ctx[0], g, path, LG_FORMAT_AUTO, &o), LG_ERR_CANCELLED);
        CHECK_MESSAGE("lg_graph_write: cancelled by the progress callback");
        CHECK(rec.calls == stop && stat(path, &sb) == 0 && sb.st_size == 4);
        CHECK(!temp_file_left(LG_TEST_TMP_DIR, "write_progress.el.tmp"));
    }
    unlink(path);
    lg_graph_free(&g);
}

static void test_read_progress(void)
{
    struct tgraph t;
    if (!tgraph_generate(&t, LG_GENERATOR_KRONECKER, 9, 8, 2, false, 0))
        return;
    static const char *const names[] = {"progress.el", "progress.lgb", "progress.mtx"};
    struct record rec;
    for (int f = 0; f < 3; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", LG_TEST_TMP_DIR, names[f]);
        CHECK_OK(lg_graph_write(ctx[0], t.g, path, LG_FORMAT_AUTO));
        struct stat sb;
        const int64_t bytes = stat(path, &sb) == 0 ? (int64_t)sb.st_size : -1;
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.progress = record_step;
        o.progress_data = &rec;
        lg_graph_t *g = NULL;
        record_reset(&rec, 0);
        CHECK_OK(lg_graph_read(ctx[1], path, LG_FORMAT_AUTO, &o, &g));
        CHECK(g && lg_graph_num_edges(g) == t.o.m);
        /* reading, then parsing (text), then building, each in order */
        bool ordered = rec.calls > 0 && rec.seen[0].stage == LG_STAGE_READ;
        int64_t read_to = 0, parsed_to = 0;
        for (int i = 0; i < rec.calls; i++) {
            const lg_progress_info_t *s = &rec.seen[i];
            ordered = ordered && (i == 0 || s->stage >= rec.seen[i - 1].stage);
            if (s->stage == LG_STAGE_READ)
                read_to = s->done;
            if (s->stage == LG_STAGE_PARSE)
                parsed_to = s->done == s->total ? s->total : -1;
        }
        CHECK(ordered && read_to == bytes);
        CHECK(f == 1 ? parsed_to == 0 : parsed_to > 0);
        CHECK(rec.seen[rec.calls - 1].stage == LG_STAGE_BUILD &&
              rec.seen[rec.calls - 1].done == STEPS);
        lg_graph_free(&g);
        for (int stop = 1; stop < rec.calls; stop++) {
            record_reset(&rec, stop);
            lg_graph_t *h = NULL;
            CHECK_STATUS(lg_graph_read(ctx[1], path, LG_FORMAT_AUTO, &o, &h), LG_ERR_CANCELLED);
            CHECK_MESSAGE("lg_graph_read: cancelled by the progress callback");
            CHECK(h == NULL);
        }
        unlink(path);
    }
    tgraph_free(&t);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"PageRank progress", test_pagerank_progress},
        {"BFS progress", test_bfs_progress},
        {"components progress", test_components_progress},
        {"build progress", test_build_progress},
        {"read progress", test_read_progress},
        {"write progress", test_write_progress},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], NULL);
}
