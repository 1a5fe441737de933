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
 * or too long there.  The edge lists' header line, written exactly where
 * the file read without it would be another graph, and the plain option
 * that leaves it out.
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
 * and .wel in their header line where the arcs alone do not); .el drops
 * the weights. */
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
/* ---- the header line only where the file needs it ------------------------------------ */

static bool starts_with_header(const char *path)
{
    static const char prefix[] = "# libgraph edge list:";
    size_t len = 0;
    unsigned char *text = read_bytes(path, &len);
    const bool yes = text && len >= sizeof prefix - 1 && !memcmp(text, prefix, sizeof prefix - 1);
    free(text);
    return yes;
}

static lg_status_t write_plain(const lg_graph_t *g, const char *path)
{
    lg_write_options_t o;
    lg_write_options_init(&o);
    o.plain = true;
    return lg_graph_write_with(ctx4, g, path, LG_FORMAT_AUTO, &o);
}

/* r, read from an edge list of g, is g (without weights from a .el). */
static bool same_as_written(const lg_graph_t *g, const lg_graph_t *r, bool wel)
{
    return r && lg_graph_num_vertices(r) == lg_graph_num_vertices(g) &&
           same_arcs(g, r, wel ? WEIGHTS_SAME : WEIGHTS_NONE);
}

/* Writes g as .el and .wel: the header line is there as expected (el,
 * wel), exactly where the file written without it (plain) reads back as
 * another graph, and both files read back as g where the line is. */
static void check_header_rule(const char *label, const lg_graph_t *g, bool el, bool wel)
{
    static const char *const ext[] = {"el", "wel"};
    const bool expected[] = {el, wel};
    char path[PATH_CAP], name[256];
    for (int f = 0; f < 2; f++) {
        snprintf(name, sizeof name, "hdr_%s.%s", label, ext[f]);
        tmp_path(path, name);
        CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
        const bool header = starts_with_header(path);
        lg_graph_t *r = read_graph(ctx1, path, LG_DIRECTEDNESS_DEFAULT);
        const bool back = same_as_written(g, r, f == 1);
        lg_graph_free(&r);

        CHECK_OK(write_plain(g, path));
        const bool plain_header = starts_with_header(path);
        r = read_graph(ctx1, path, LG_DIRECTEDNESS_DEFAULT);
        const bool plain_back = same_as_written(g, r, f == 1);
        lg_graph_free(&r);
        unlink(path);

        const bool ok = header == expected[f] && back && !plain_header && plain_back == !header;
        CHECK(ok);
        if (!ok)
            fprintf(stderr,
                    "  %s: header %d (expected %d), read back %d, plain: header %d, "
                    "read back %d\n",
                    name, header, expected[f], back, plain_header, plain_back);
    }
}

static void test_header_only_where_needed(void)
{
    /* the last vertex, 3, has edges; 3-3 a self-loop, 0-1 twice */
    static const lg_vertex_t src[] = {0, 1, 2, 0, 3};
    static const lg_vertex_t dst[] = {1, 2, 3, 1, 3};
    static const float w[] = {0.5f, 2.0f, 1e-3f, 7.0f, 3.0f};
    static const float ones[] = {1, 1, 1, 1, 1};
    enum {
        N = 4,
        E = 5
    };
    lg_graph_t *u = make_graph(N, E, src, dst, NULL, LG_UNDIRECTED);
    lg_graph_t *uw = make_graph(N, E, src, dst, w, LG_UNDIRECTED);
    lg_graph_t *u1 = make_graph(N, E, src, dst, ones, LG_UNDIRECTED);
    lg_graph_t *tail = make_graph(N + 2, E, src, dst, w, LG_UNDIRECTED);
    lg_graph_t *d = make_graph(N, E, src, dst, w, LG_DIRECTED);
    lg_graph_t *du = make_graph(N, E, src, dst, NULL, LG_DIRECTED);
    lg_graph_t *isolated = make_graph(3, 0, NULL, NULL, NULL, LG_UNDIRECTED);
    lg_graph_t *empty = make_graph(0, 0, NULL, NULL, NULL, LG_UNDIRECTED);
    lg_graph_t *empty_w = make_graph(0, 0, NULL, NULL, w, LG_UNDIRECTED);

    check_header_rule("undirected", u, false, true); /* .wel: weights of 1 read weighted */
    check_header_rule("weighted", uw, false, false);
    check_header_rule("weights_one", u1, false, false); /* weighted: the weights say so */
    check_header_rule("isolated_tail", tail, true, true);
    check_header_rule("directed", d, true, true);
    check_header_rule("directed_unweighted", du, true, true);
    check_header_rule("no_edges", isolated, true, true);
    check_header_rule("empty", empty, false, true);
    check_header_rule("empty_weighted", empty_w, false, false);

    /* the bare file: exactly the edges, one a line, u <= v */
    char path[PATH_CAP];
    tmp_path(path, "bare.wel");
    CHECK_OK(lg_graph_write(ctx1, uw, path, LG_FORMAT_AUTO));
    size_t len = 0;
    unsigned char *text = read_bytes(path, &len);
    static const char want[] = "0 1 0.5\n0 1 7\n1 2 2\n2 3 0.00100000005\n3 3 3\n";
    CHECK(text && len == sizeof want - 1 && !memcmp(text, want, len));
    free(text);

    /* a directed graph written plain reads back as the same arcs when the
     * reader is told it is directed */
    CHECK_OK(write_plain(d, path));
    lg_graph_t *r = read_graph(ctx1, path, LG_DIRECTED);
    CHECK(same_as_written(d, r, true));
    lg_graph_free(&r);
    unlink(path);

    /* plain is for edge lists: .mtx and .lgb keep their headers */
    static const char *const others[] = {"plain.mtx", "plain.lgb"};
    for (int k = 0; k < 2; k++) {
        tmp_path(path, others[k]);
        CHECK_STATUS(write_plain(u, path), LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("lg_graph_write: plain (no header line) is for edge lists (.el, .wel)");
        CHECK_MESSAGE(k == 0 ? "a .mtx file keeps its header" : "a .lgb file keeps its header");
        CHECK(!file_exists(path));
    }

    lg_graph_t *all[] = {u, uw, u1, tail, d, du, isolated, empty, empty_w};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        lg_graph_free(&all[k]);
}

int main(void)
{
    static void (*const tests[])(void) = {
        test_round_trips, test_header_only_where_needed, test_large_round_trip, test_facebook,
        test_pipes,
    };
    return io_main(tests, sizeof tests / sizeof tests[0]);
}
