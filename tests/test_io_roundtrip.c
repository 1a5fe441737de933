/*
 * test_io_roundtrip.c - graph files written and read back (src/graph/io/),
 * against the graph written and against degrees counted from the text.
 *
 * Round trips through every format (.lgb, .mtx, .el, .wel, and upper-case
 * extensions) of directed and undirected, weighted and unweighted graphs,
 * including the empty graph, a graph of isolated vertices only, self-loops,
 * duplicate edges and a random graph large enough to be parsed and written
 * by several threads (the same whatever the thread count).  The bundled SNAP
 * graph facebook_combined.el, whose degrees this file counts from the text
 * itself.  Files read through a pipe (no size, no seeking), .lgb truncated
 * or too long there.
 */
#define _POSIX_C_SOURCE 200809L
#define IO_TMP_PREFIX "io_rt_"

#include "io_util.h"
#include "libgraph.h"
#include "test_util.h"

#include <sys/wait.h>

/* ---- round trips -------------------------------------------------------------------- */

/* Writes g in every format and reads it back with the default options.
 * Every format keeps the directedness, the vertex count and the arcs (.el
 * and .wel in their header line); .el drops the weights. */
static void round_trip(const char *label, lg_context_t *ctx, const lg_graph_t *g)
{
    static const char *const ext[] = {"lgb", "mtx", "el", "wel", "LGB", "Mtx"};
    char path[PATH_CAP], name[256];
    for (size_t f = 0; f < sizeof ext / sizeof *ext; f++) {
        snprintf(name, sizeof name, "rt_%s.%s", label, ext[f]);
        tmp_path(path, name);
        CHECK_OK(lg_graph_write(ctx, g, path, LG_FORMAT_AUTO));
        lg_graph_t *r = read_graph(ctx, path, LG_DIRECTEDNESS_DEFAULT);
        if (!r)
            continue;
        const bool ok = f == 2 ? lg_graph_num_vertices(r) == lg_graph_num_vertices(g) &&
                                     same_arcs(g, r, WEIGHTS_NONE)
                               : same_graph(g, r);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  round trip of %s through %s failed\n", label, ext[f]);
        lg_graph_free(&r);
        unlink(path);
    }
}

static void test_round_trips(void)
{
    /* duplicates (1,2) with different weights, a self-loop, vertex 5 isolated
     * at the end and vertex 6 too */
    static const lg_vertex_t src[] = {0, 0, 1, 2, 3, 4, 1, 2};
    static const lg_vertex_t dst[] = {1, 2, 2, 0, 3, 1, 2, 4};
    static const float w[] = {0.5f, 1.0f, 2.25f, 0.1f, 3.4e38f, 0.0f, 1e-30f, 123456.789f};
    const int64_t E = sizeof src / sizeof *src;
    for (int d = LG_DIRECTED; d <= LG_UNDIRECTED; d++) {
        const char *dn = d == LG_DIRECTED ? "dir" : "undir";
        char label[64];
        lg_graph_t *g = make_graph(7, E, src, dst, NULL, (lg_directedness_t)d);
        lg_graph_t *gw = make_graph(7, E, src, dst, w, (lg_directedness_t)d);
        lg_graph_t *empty = make_graph(0, 0, NULL, NULL, NULL, (lg_directedness_t)d);
        lg_graph_t *empty_w = make_graph(0, 0, NULL, NULL, w, (lg_directedness_t)d);
        lg_graph_t *isolated = make_graph(5, 0, NULL, NULL, NULL, (lg_directedness_t)d);
        snprintf(label, sizeof label, "%s_plain", dn);
        round_trip(label, ctx1, g);
        snprintf(label, sizeof label, "%s_weighted", dn);
        round_trip(label, ctx4, gw);
        snprintf(label, sizeof label, "%s_empty", dn);
        round_trip(label, ctx1, empty);
        snprintf(label, sizeof label, "%s_empty_weighted", dn);
        round_trip(label, ctx1, empty_w);
        snprintf(label, sizeof label, "%s_isolated", dn);
        round_trip(label, ctx4, isolated);
        lg_graph_free(&g);
        lg_graph_free(&gw);
        lg_graph_free(&empty);
        lg_graph_free(&empty_w);
        lg_graph_free(&isolated);
    }
}

/* A random graph whose files are several parse chunks long (256 KiB each),
 * so that several threads parse and write it; the result must not depend on
 * the thread count. */
static void test_large_round_trip(void)
{
    enum {
        N = 20000,
        E = 150000
    };
    lg_vertex_t *src = malloc(E * sizeof *src), *dst = malloc(E * sizeof *dst);
    float *w = malloc(E * sizeof *w);
    unsigned long long seed = 12345;
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)(tu_rand(&seed) % N);
        dst[i] = (lg_vertex_t)(tu_rand(&seed) % N);
        w[i] = (float)(tu_rand(&seed) % 100000) / 7.0f;
    }
    for (int d = LG_DIRECTED; d <= LG_UNDIRECTED; d++) {
        lg_graph_t *g = make_graph(N, E, src, dst, w, (lg_directedness_t)d);
        round_trip(d == LG_DIRECTED ? "large_dir" : "large_undir", ctx4, g);
        /* the same file read by 1 and by 4 threads */
        char path[PATH_CAP];
        tmp_path(path, "large.wel");
        CHECK_OK(lg_graph_write(ctx4, g, path, LG_FORMAT_AUTO));
        lg_graph_t *a = read_graph(ctx1, path, (lg_directedness_t)d);
        lg_graph_t *b = read_graph(ctx4, path, (lg_directedness_t)d);
        CHECK(a && b && same_graph(a, b) && same_graph(g, a));
        lg_graph_free(&a);
        lg_graph_free(&b);
        lg_graph_free(&g);
        unlink(path);
    }
    free(src);
    free(dst);
    free(w);
}

/* ---- the bundled SNAP graph ------------------------------------------------------------- */

/* Degrees counted straight from the text: each line "u v" adds to both ends
 * (once for a self-loop), as an undirected graph stores it. */
static int64_t count_degrees(const char *path, int64_t *deg, int64_t n, int64_t *out0)
{
    FILE *f = fopen(path, "r");
    int u, v;
    int64_t lines = 0;
    *out0 = 0;
    if (!f)
        return -1;
    while (fscanf(f, "%d %d", &u, &v) == 2) {
        if (u < 0 || v < 0 || u >= n || v >= n)
            return -1;
        deg[u]++;
        if (u != v)
            deg[v]++;
        *out0 += u == 0;
        lines++;
    }
    fclose(f);
    return lines;
}

static void test_facebook(void)
{
    enum {
        N = 4039
    };
    const char *path = LG_TEST_DATA_DIR "/facebook_combined.el";
    int64_t want[N] = {0}, got[N] = {0}, out0 = 0;
    const int64_t lines = count_degrees(path, want, N, &out0);
    CHECK(lines == 88234);

    lg_graph_t *u1 = read_graph(ctx1, path, LG_UNDIRECTED);
    lg_graph_t *u4 = read_graph(ctx4, path, LG_UNDIRECTED);
    lg_graph_t *u = read_graph(ctx4, path, LG_DIRECTEDNESS_DEFAULT);
    lg_graph_t *d = read_graph(ctx4, path, LG_DIRECTED);
    if (!u1 || !u4 || !u || !d)
        goto done;
    CHECK(lg_graph_num_vertices(u4) == N);
    CHECK(lg_graph_num_edges(u4) == 176468);
    CHECK(!lg_graph_is_directed(u4) && !lg_graph_is_weighted(u4));
    CHECK(same_graph(u1, u4));
    CHECK_OK(lg_graph_out_degrees(u4, got));
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK(got[0] == 347 && got[107] == 1045); /* the two hubs of the ego network */

    /* an .el without libgraph's header line is undirected unless asked */
    CHECK(same_graph(u, u4));
    CHECK(lg_graph_is_directed(d));
    CHECK(lg_graph_num_vertices(d) == N);
    CHECK(lg_graph_num_edges(d) == 88234);
    CHECK_OK(lg_graph_out_degrees(d, got));
    CHECK(got[0] == out0);
done:
    lg_graph_free(&u1);
    lg_graph_free(&u4);
    lg_graph_free(&d);
    lg_graph_free(&u);
}

/* ---- pipes ------------------------------------------------------------------------------- */

/* Reads `len` bytes fed through a pipe (/dev/fd/N: no size, no seeking, so the
 * streaming code paths) in the given format. */
static lg_status_t read_through_pipe(const unsigned char *bytes, size_t len,
                                     lg_file_format_t format, lg_graph_t **g)
{
    int fds[2];
    char path[64];
    if (pipe(fds) != 0)
        return LG_ERR_INTERNAL;
    pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        for (size_t done = 0; done < len;) {
            ssize_t k = write(fds[1], bytes + done, len - done);
            if (k <= 0)
                _exit(1);
            done += (size_t)k;
        }
        _exit(0);
    }
    close(fds[1]);
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    lg_status_t st = lg_graph_read(ctx4, path, format, NULL, g);
    close(fds[0]); /* before waiting: a child blocked on a full pipe then dies of SIGPIPE */
    waitpid(child, NULL, 0);
    return st;
}

static void test_pipes(void)
{
    enum {
        N = 3000,
        E = 40000
    }; /* larger than a pipe's buffer and the first read */
    static const lg_file_format_t formats[] = {LG_FORMAT_WEL, LG_FORMAT_MTX, LG_FORMAT_BINARY};
    static const char *const names[] = {"pipe.wel", "pipe.mtx", "pipe.lgb"};
    lg_vertex_t *src = malloc(E * sizeof *src), *dst = malloc(E * sizeof *dst);
    float *w = malloc(E * sizeof *w);
    unsigned long long seed = 777;
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)(tu_rand(&seed) % N);
        dst[i] = (lg_vertex_t)(tu_rand(&seed) % N);
        w[i] = (float)(tu_rand(&seed) % 1000) * 0.25f;
    }
    lg_graph_t *g = make_graph(N, E, src, dst, w, LG_DIRECTED);
    for (int f = 0; f < 3 && g; f++) {
        char path[PATH_CAP];
        size_t len = 0;
        lg_graph_t *r = NULL;
        tmp_path(path, names[f]);
        CHECK_OK(lg_graph_write(ctx4, g, path, LG_FORMAT_AUTO));
        unsigned char *bytes = read_bytes(path, &len);
        CHECK_OK(read_through_pipe(bytes, len, formats[f], &r));
        CHECK(r && same_graph(g, r));
        lg_graph_free(&r);
        if (formats[f] == LG_FORMAT_BINARY) {
            CHECK_STATUS(read_through_pipe(bytes, len - 3, formats[f], &r), LG_ERR_IO);
            CHECK_MESSAGE("truncated");
            unsigned char *longer = malloc(len + 1);
            memcpy(longer, bytes, len);
            longer[len] = 0;
            CHECK_STATUS(read_through_pipe(longer, len + 1, formats[f], &r), LG_ERR_IO);
            CHECK_MESSAGE("more bytes");
            free(longer);
        }
        free(bytes);
        unlink(path);
    }
    lg_graph_free(&g);
    free(src);
    free(dst);
    free(w);
}
int main(void)
{
    static void (*const tests[])(void) = {
        test_round_trips,
        test_large_round_trip,
        test_facebook,
        test_pipes,
    };
    return io_main(tests, sizeof tests / sizeof tests[0]);
}
