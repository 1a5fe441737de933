/*
 * test_io.c - reading and writing graph files (src/graph/io.c).
 *
 * Round trips through every format (.lgb, .mtx, .el, .wel) of directed and
 * undirected, weighted and unweighted graphs, including the empty graph, a
 * graph of isolated vertices only, self-loops, duplicate edges and a random
 * graph large enough to be parsed and written by several threads.  The
 * bundled SNAP graph facebook_combined.el, whose degrees this file computes
 * itself from the text.  Matrix Market files written here as literal
 * strings (every field and symmetry, case, comments, CRLF, options that
 * override the file's directedness).  Every malformed input gives its
 * documented status and a message naming "path:line:".  Corrupted .lgb
 * files.  Files read through a pipe (no size, no seeking).  Failed writes
 * leave no file behind.  And an allocation-failure sweep: the N-th
 * allocation fails, for every N, and each call returns LG_OK or
 * LG_ERR_OUT_OF_MEMORY, leaking nothing (run under ASan).
 */
#define _POSIX_C_SOURCE 200809L

#include "internal.h"
#include "libgraph.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LG_TEST_TMP_DIR
#define LG_TEST_TMP_DIR "."
#endif

#define PATH_CAP 1024

static lg_context_t *ctx1, *ctx4; /* 1 thread, 4 threads */

/* ---- helpers ------------------------------------------------------------------- */

static void tmp_path(char path[PATH_CAP], const char *name)
{
    snprintf(path, PATH_CAP, "%s/io_%s", LG_TEST_TMP_DIR, name);
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(2);
    }
    fwrite(data, 1, len, f);
    fclose(f);
}

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* The whole file in a malloc'd buffer. */
static unsigned char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc((size_t)size + 1);
    *len = fread(p, 1, (size_t)size, f);
    fclose(f);
    return p;
}

static bool file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static lg_graph_t *make_graph(int64_t n, int64_t E, const lg_vertex_t *src, const lg_vertex_t *dst,
                              const float *w, lg_directedness_t directedness)
{
    lg_graph_options_t o;
    lg_graph_t *g = NULL;
    lg_graph_options_init(&o);
    o.directedness = directedness;
    CHECK_OK(lg_graph_from_edges(ctx1, n, E, src, dst, w, &o, &g));
    return g;
}

static lg_graph_t *read_graph(lg_context_t *ctx, const char *path, lg_directedness_t d)
{
    lg_graph_options_t o;
    lg_graph_t *g = NULL;
    lg_graph_options_init(&o);
    o.directedness = d;
    CHECK_OK(lg_graph_read(ctx, path, LG_FORMAT_AUTO, &o, &g));
    return g;
}

/* How the weights of a graph read back relate to the original's. */
enum weights_expect {
    WEIGHTS_SAME, /* weighted exactly when the original is, equal */
    WEIGHTS_NONE, /* unweighted (.el drops weights) */
    WEIGHTS_ONES  /* weighted: the original's, or 1 where it had none (.wel) */
};

/* b was read from a file written from a: the same arcs in the same order.  b
 * may have fewer vertices than a if a's last vertices have no edges (edge
 * lists cannot store them), but then only as many as the ids need. */
static bool same_arcs(const lg_graph_t *a, const lg_graph_t *b, enum weights_expect we)
{
    const lg_edge_t *ao, *bo;
    const lg_vertex_t *ai, *bi;
    const float *aw, *bw;
    const int64_t an = lg_graph_num_vertices(a), bn = lg_graph_num_vertices(b);
    const int64_t m = lg_graph_num_edges(a);
    if (lg_graph_csr(a, &ao, &ai, &aw) != LG_OK || lg_graph_csr(b, &bo, &bi, &bw) != LG_OK)
        return false;
    if (bn > an || lg_graph_num_edges(b) != m || lg_graph_is_directed(a) != lg_graph_is_directed(b))
        return false;
    for (int64_t v = 0; v <= bn; v++)
        if (ao[v] != bo[v])
            return false;
    for (int64_t v = bn; v < an; v++)
        if (ao[v + 1] != m)
            return false; /* a dropped vertex had edges */
    if (m > 0 && memcmp(ai, bi, (size_t)m * sizeof *ai) != 0)
        return false;
    if (we == WEIGHTS_NONE)
        return bw == NULL;
    if (we == WEIGHTS_SAME && (aw == NULL) != (bw == NULL))
        return false;
    if (!bw)
        return true;
    for (int64_t e = 0; e < m; e++)
        if (bw[e] != (aw ? aw[e] : 1.0f))
            return false;
    return true;
}

static bool same_graph(const lg_graph_t *a, const lg_graph_t *b)
{
    return lg_graph_num_vertices(a) == lg_graph_num_vertices(b) && same_arcs(a, b, WEIGHTS_SAME);
}

/* The vertex count an edge list of g can express: 1 + its largest id. */
static int64_t edge_list_vertices(const lg_graph_t *g)
{
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    int64_t top = -1;
    lg_graph_csr(g, &off, &idx, NULL);
    for (int64_t v = 0; v < lg_graph_num_vertices(g); v++)
        for (lg_edge_t e = off[v]; e < off[v + 1]; e++) {
            top = v > top ? v : top;
            top = idx[e] > top ? idx[e] : top;
        }
    return top + 1;
}

/* Checks the last message names path:line. */
static void check_where(const char *path, int line)
{
    char where[PATH_CAP + 32];
    snprintf(where, sizeof where, "%s:%d:", path, line);
    CHECK_MESSAGE(where);
}

/* Writes text to a file named name, reads it, and expects status want with a
 * message naming line `line` (0: any) and containing sub (NULL: anything). */
static void expect_bad(const char *name, const char *text, lg_status_t want, int line,
                       const char *sub)
{
    char path[PATH_CAP];
    lg_graph_t *g = NULL;
    tmp_path(path, name);
    write_text(path, text);
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), want);
    CHECK(g == NULL);
    if (line > 0)
        check_where(path, line);
    if (sub)
        CHECK_MESSAGE(sub);
    lg_graph_free(&g);
    unlink(path);
}

/* ---- round trips -------------------------------------------------------------------- */

/* Writes g in every format and reads it back.  .lgb and .mtx keep everything;
 * .el keeps the arcs but not the weights nor isolated vertices after the last
 * used id (the format has no vertex count: n is 1 + the largest id); .wel
 * writes weight 1 for an unweighted graph. */
static void round_trip(const char *label, lg_context_t *ctx, const lg_graph_t *g)
{
    static const char *const ext[] = {"lgb", "mtx", "el", "wel", "LGB", "Mtx"};
    const lg_directedness_t d = lg_graph_is_directed(g) ? LG_DIRECTED : LG_UNDIRECTED;
    char path[PATH_CAP], name[256];
    for (size_t f = 0; f < sizeof ext / sizeof *ext; f++) {
        snprintf(name, sizeof name, "rt_%s.%s", label, ext[f]);
        tmp_path(path, name);
        CHECK_OK(lg_graph_write(ctx, g, path, LG_FORMAT_AUTO));
        const bool keeps_direction = f != 2 && f != 3;
        lg_graph_t *r = read_graph(ctx, path, keeps_direction ? LG_DIRECTEDNESS_DEFAULT : d);
        if (!r)
            continue;
        bool ok;
        if (keeps_direction)
            ok = same_graph(g, r);
        else
            ok = lg_graph_num_vertices(r) == edge_list_vertices(g) &&
                 same_arcs(g, r, f == 2 ? WEIGHTS_NONE : WEIGHTS_ONES);
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
    lg_graph_t *d = read_graph(ctx4, path, LG_DIRECTEDNESS_DEFAULT);
    if (!u1 || !u4 || !d)
        goto done;
    CHECK(lg_graph_num_vertices(u4) == N);
    CHECK(lg_graph_num_edges(u4) == 176468);
    CHECK(!lg_graph_is_directed(u4) && !lg_graph_is_weighted(u4));
    CHECK(same_graph(u1, u4));
    CHECK_OK(lg_graph_out_degrees(u4, got));
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK(got[0] == 347 && got[107] == 1045); /* the two hubs of the ego network */

    /* .el is directed by default (GAPBS's convention) */
    CHECK(lg_graph_is_directed(d));
    CHECK(lg_graph_num_vertices(d) == N);
    CHECK(lg_graph_num_edges(d) == 88234);
    CHECK_OK(lg_graph_out_degrees(d, got));
    CHECK(got[0] == out0);
done:
    lg_graph_free(&u1);
    lg_graph_free(&u4);
    lg_graph_free(&d);
}

/* ---- Matrix Market -------------------------------------------------------------------- */

/* Reads text as a file named name with the given directedness option and
 * checks the CSR against the expected arrays (w NULL: unweighted). */
static void expect_mtx(const char *name, const char *text, lg_directedness_t dir, bool directed,
                       int64_t n, int64_t m, const lg_edge_t *off, const lg_vertex_t *idx,
                       const float *w)
{
    char path[PATH_CAP];
    const lg_edge_t *go;
    const lg_vertex_t *gi;
    const float *gw;
    tmp_path(path, name);
    write_text(path, text);
    lg_graph_t *g = read_graph(ctx4, path, dir);
    unlink(path);
    if (!g)
        return;
    lg_graph_csr(g, &go, &gi, &gw);
    CHECK(lg_graph_is_directed(g) == directed);
    CHECK(lg_graph_num_vertices(g) == n);
    CHECK(lg_graph_num_edges(g) == m);
    CHECK(lg_graph_num_edges(g) == m && memcmp(go, off, (size_t)(n + 1) * sizeof *off) == 0);
    CHECK(lg_graph_num_edges(g) == m && (m == 0 || memcmp(gi, idx, (size_t)m * sizeof *idx) == 0));
    CHECK((gw == NULL) == (w == NULL));
    if (gw && w && m > 0 && lg_graph_num_edges(g) == m)
        CHECK(memcmp(gw, w, (size_t)m * sizeof *w) == 0);
    lg_graph_free(&g);
}

static void test_mtx_good(void)
{
    /* symmetric pattern, comments and blank lines before the size line, the
     * lower triangle and a self-loop */
    const char *sym = "%%MatrixMarket matrix coordinate pattern symmetric\n"
                      "% a comment\n"
                      "%\n"
                      "\n"
                      "4 4 3\n"
                      "2 1\n"
                      "3 1\n"
                      "4 4\n";
    static const lg_edge_t so[] = {0, 2, 3, 4, 5};
    static const lg_vertex_t si[] = {1, 2, 0, 0, 3};
    expect_mtx("sym.mtx", sym, LG_DIRECTEDNESS_DEFAULT, false, 4, 5, so, si, NULL);
    /* asked for as directed, a symmetric file keeps both arcs of each entry */
    expect_mtx("sym_dir.mtx", sym, LG_DIRECTED, true, 4, 5, so, si, NULL);

    /* general integer, banner in any case, no newline at the end */
    static const lg_edge_t go[] = {0, 1, 2, 3};
    static const lg_vertex_t gi[] = {1, 2, 0};
    static const float gw[] = {5, 7, 0};
    expect_mtx("int.mtx",
               "%%matrixmarket MATRIX Coordinate INTEGER General\n3 3 3\n1 2 5\n2 3 7\n3 1 0",
               LG_DIRECTEDNESS_DEFAULT, true, 3, 3, go, gi, gw);

    /* real symmetric with CRLF line ends, tabs and an exponent */
    static const lg_edge_t ro[] = {0, 1, 2, 3};
    static const lg_vertex_t ri[] = {1, 0, 2};
    static const float rw[] = {0.5f, 0.5f, 1e-3f};
    expect_mtx("real.mtx",
               "%%MatrixMarket matrix coordinate real symmetric\r\n"
               "3 3 2\r\n2 1 0.5\r\n3\t3\t1e-3\r\n",
               LG_DIRECTEDNESS_DEFAULT, false, 3, 3, ro, ri, rw);
    /* "double" is read as real; '%' lines may sit among the entries */
    expect_mtx("double.mtx",
               "%%MatrixMarket matrix coordinate double symmetric\n3 3 2\n2 1 0.5\n% x\n3 3 "
               "1e-3\n",
               LG_DIRECTEDNESS_DEFAULT, false, 3, 3, ro, ri, rw);

    /* general read as undirected: each entry is an edge */
    static const lg_edge_t uo[] = {0, 1, 3, 4};
    static const lg_vertex_t ui[] = {1, 0, 2, 1};
    expect_mtx("gen_undir.mtx",
               "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n", LG_UNDIRECTED,
               false, 3, 4, uo, ui, NULL);

    /* a matrix with no entries still has its vertices */
    static const lg_edge_t eo[] = {0, 0, 0};
    static const float no_weights[1] = {0};
    expect_mtx("none.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 0\n",
               LG_DIRECTEDNESS_DEFAULT, true, 2, 0, eo, NULL, no_weights);
}

static void test_mtx_bad(void)
{
    const char *pat = "%%MatrixMarket matrix coordinate pattern general\n";
    const char *real = "%%MatrixMarket matrix coordinate real general\n";
    char text[512];

    expect_bad("nobanner.mtx", "hello\n1 1 0\n", LG_ERR_IO, 1, "Matrix Market");
    expect_bad("empty.mtx", "", LG_ERR_IO, 1, NULL);
    expect_bad("short.mtx", "%%MatrixMarket matrix coordinate real\n1 1 0\n", LG_ERR_IO, 1,
               "bad header");
    expect_bad("long.mtx", "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n",
               LG_ERR_IO, 1, "bad header");
    expect_bad("field.mtx", "%%MatrixMarket matrix coordinate float general\n1 1 0\n", LG_ERR_IO, 1,
               "float");
    expect_bad("object.mtx", "%%MatrixMarket vector coordinate real general\n1 1 0\n", LG_ERR_IO, 1,
               "vector");
    expect_bad("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 0\n",
               LG_ERR_UNSUPPORTED, 1, "complex");
    expect_bad("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
               LG_ERR_UNSUPPORTED, 1, "array");
    expect_bad("skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n",
               LG_ERR_UNSUPPORTED, 1, "skew-symmetric");
    expect_bad("herm.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n",
               LG_ERR_UNSUPPORTED, 1, "hermitian");
    expect_bad("sym_word.mtx", "%%MatrixMarket matrix coordinate real lopsided\n1 1 0\n", LG_ERR_IO,
               1, "lopsided");

    snprintf(text, sizeof text, "%s%% c\n3 4 1\n1 1\n", pat);
    expect_bad("square.mtx", text, LG_ERR_IO, 3, "not square");
    snprintf(text, sizeof text, "%s3 3\n", pat);
    expect_bad("counts2.mtx", text, LG_ERR_IO, 2, "size line");
    snprintf(text, sizeof text, "%s3 3 x\n", pat);
    expect_bad("countsx.mtx", text, LG_ERR_IO, 2, "size line");
    snprintf(text, sizeof text, "%s3 3 1 1\n1 1\n", pat);
    expect_bad("counts4.mtx", text, LG_ERR_IO, 2, "size line");
    snprintf(text, sizeof text, "%s-3 -3 1\n1 1\n", pat);
    expect_bad("countsneg.mtx", text, LG_ERR_IO, 2, "size line");
    snprintf(text, sizeof text, "%s3000000000 3000000000 0\n", pat);
    expect_bad("countsbig.mtx", text, LG_ERR_IO, 2, "rows");
    snprintf(text, sizeof text, "%s%% only comments\n", pat);
    expect_bad("nosize.mtx", text, LG_ERR_IO, 3, "size line");

    snprintf(text, sizeof text, "%s%% c\n3 3 3\n1 2\n2 3\n", pat);
    expect_bad("few.mtx", text, LG_ERR_IO, 3, "declares 3 entries");
    snprintf(text, sizeof text, "%s3 3 1\n1 2\n\n%% c\n2 3\n3 1\n", pat);
    expect_bad("many.mtx", text, LG_ERR_IO, 6, "more than the 1");
    snprintf(text, sizeof text, "%s3 3 2\n1 2\n0 1\n", pat);
    expect_bad("index0.mtx", text, LG_ERR_IO, 4, "start at 1");
    snprintf(text, sizeof text, "%s3 3 2\n1 2\n1 0\n", pat);
    expect_bad("index0col.mtx", text, LG_ERR_IO, 4, "column index 0");
    snprintf(text, sizeof text, "%s3 3 2\n1 2\n4 1\n", pat);
    expect_bad("range.mtx", text, LG_ERR_IO, 4, "out of range");
    snprintf(text, sizeof text, "%s3 3 2\n1 2\n1 99999999999999999999999\n", pat);
    expect_bad("rangebig.mtx", text, LG_ERR_IO, 4, "out of range");
    snprintf(text, sizeof text, "%s3 3 2\n1 2 1\n2 3 -1.5\n", real);
    expect_bad("neg.mtx", text, LG_ERR_IO, 4, "negative");
    snprintf(text, sizeof text, "%s3 3 2\n1 2 nan\n2 3 1\n", real);
    expect_bad("nan.mtx", text, LG_ERR_IO, 3, "NaN");
    snprintf(text, sizeof text, "%s3 3 1\n1 2 1e39\n", real);
    expect_bad("inf.mtx", text, LG_ERR_IO, 3, "finite");
    snprintf(text, sizeof text, "%s3 3 1\n1 2\n", real);
    expect_bad("noval.mtx", text, LG_ERR_IO, 3, "missing the weight");
    snprintf(text, sizeof text, "%s3 3 1\n1 2 3.0\n", pat);
    expect_bad("patval.mtx", text, LG_ERR_IO, 3, "extra field");
    snprintf(text, sizeof text, "%s3 3 1\n1 2x\n", pat);
    expect_bad("garbage.mtx", text, LG_ERR_IO, 3, "2x");
    snprintf(text, sizeof text, "%s3 3 1\n1 2 0.5kg\n", real);
    expect_bad("garbagew.mtx", text, LG_ERR_IO, 3, "0.5kg");
    snprintf(text, sizeof text, "%s3 3 1\n# 1 2\n", pat);
    expect_bad("hash.mtx", text, LG_ERR_IO, 3, "#"); /* '#' is no comment in .mtx */
}

/* ---- edge lists -------------------------------------------------------------------------- */

static void test_edge_lists(void)
{
    char path[PATH_CAP];
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;

    /* comments of both kinds, blank lines, blanks around fields, no final newline */
    tmp_path(path, "good.wel");
    write_text(path, "# SNAP-style header\n% another\n\n  0\t2 1.5  \n2 0 0\r\n\n1 1 2e0");
    lg_graph_t *g = read_graph(ctx1, path, LG_DIRECTEDNESS_DEFAULT);
    if (g) {
        static const lg_edge_t wo[] = {0, 1, 2, 3};
        static const lg_vertex_t wi[] = {2, 1, 0};
        static const float ww[] = {1.5f, 2.0f, 0.0f};
        lg_graph_csr(g, &off, &idx, &w);
        CHECK(lg_graph_is_directed(g) && lg_graph_num_vertices(g) == 3);
        CHECK(lg_graph_num_edges(g) == 3 && memcmp(off, wo, sizeof wo) == 0 &&
              memcmp(idx, wi, sizeof wi) == 0 && w && memcmp(w, ww, sizeof ww) == 0);
    }
    lg_graph_free(&g);
    unlink(path);

    /* no edges: no vertices */
    tmp_path(path, "comments.el");
    write_text(path, "# nothing here\n\n");
    g = read_graph(ctx1, path, LG_DIRECTEDNESS_DEFAULT);
    CHECK(g && lg_graph_num_vertices(g) == 0 && lg_graph_num_edges(g) == 0);
    lg_graph_free(&g);
    unlink(path);

    /* options still apply: self-loops dropped, duplicates merged */
    tmp_path(path, "dups.el");
    write_text(path, "0 1\n1 0\n0 1\n2 2\n");
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    o.drop_self_loops = true;
    o.duplicates = LG_DUPLICATES_FIRST;
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, &o, &g));
    CHECK(g && lg_graph_num_vertices(g) == 3 && lg_graph_num_edges(g) == 2);
    lg_graph_free(&g);
    unlink(path);

    /* an explicit format beats the extension */
    tmp_path(path, "list.txt");
    write_text(path, "0 1\n");
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_EL, NULL, &g));
    CHECK(g && lg_graph_num_edges(g) == 1);
    lg_graph_free(&g);
    unlink(path);

    expect_bad("garbage.el", "0 1\n2 abc\n", LG_ERR_IO, 2, "abc");
    expect_bad("third.el", "0 1\n1 2 3\n", LG_ERR_IO, 2, ".wel");
    expect_bad("neg.el", "0 1\n-1 2\n", LG_ERR_IO, 2, "-1");
    expect_bad("lonely.el", "0 1\n5\n", LG_ERR_IO, 2, "missing the destination");
    expect_bad("after_comments.el", "# c\n\n0 1\n% x\n1 y\n", LG_ERR_IO, 5, "y");
    expect_bad("overflow.el", "0 2147483647\n", LG_ERR_IO, 1, "too large");
    expect_bad("overflow2.el", "1 2\n3 4\n99999999999999999999999 0\n", LG_ERR_IO, 3, "too large");
    expect_bad("float.el", "0 1.0\n", LG_ERR_IO, 1, "1.0");
    expect_bad("noweight.wel", "0 1 1\n0 1\n", LG_ERR_IO, 2, "missing the weight");
    expect_bad("nan.wel", "0 1 NaN\n", LG_ERR_IO, 1, "NaN");
    expect_bad("inf.wel", "0 1 inf\n", LG_ERR_IO, 1, "finite");
    expect_bad("negw.wel", "0 1 1\n1 2 -0.25\n", LG_ERR_IO, 2, "negative");
    expect_bad("fourth.wel", "0 1 1 1\n", LG_ERR_IO, 1, "extra field");

    /* a NUL byte in the middle of a line is garbage, not the end of the file */
    tmp_path(path, "nulbyte.el");
    write_bytes(path, "0 1\n1 \0 2\n", 10);
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    check_where(path, 2);
    unlink(path);
}

/* A bad line deep in a file that several threads parse: its number must
 * still be exact. */
static void test_error_line_in_late_chunk(void)
{
    enum {
        LINES = 200000,
        BAD = 150001
    };
    char path[PATH_CAP];
    tmp_path(path, "late.el");
    FILE *f = fopen(path, "w");
    for (int i = 1; i <= LINES; i++) {
        if (i % 1000 == 0)
            fprintf(f, "# comment %d\n", i);
        else if (i == BAD)
            fprintf(f, "%d oops\n", i);
        else
            fprintf(f, "%d %d\n", i % 5000, (i * 7) % 5000);
    }
    fclose(f);
    lg_graph_t *g = NULL;
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    check_where(path, BAD);
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    check_where(path, BAD);
    unlink(path);
}

/* ---- arguments, missing files ---------------------------------------------------------------- */

static void test_arguments(void)
{
    char path[PATH_CAP];
    lg_graph_t *g = NULL;
    lg_graph_options_t o;
    static const lg_vertex_t s[] = {0}, d[] = {1};
    lg_graph_t *small = make_graph(2, 1, s, d, NULL, LG_DIRECTED);

    tmp_path(path, "does_not_exist.el");
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    CHECK_MESSAGE(path);
    CHECK_MESSAGE(strerror(ENOENT));
    tmp_path(path, "does_not_exist.lgb");
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    CHECK_MESSAGE(strerror(ENOENT));

    tmp_path(path, "graph.xyz");
    write_text(path, "0 1\n");
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(".xyz");
    CHECK_STATUS(lg_graph_write(ctx1, small, path, LG_FORMAT_AUTO), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(".xyz");
    unlink(path);
    tmp_path(path, "no_extension");
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("extension");
    CHECK_STATUS(lg_graph_read(ctx1, path, (lg_file_format_t)9, NULL, &g), LG_ERR_INVALID_ARGUMENT);

    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_EL, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_read(ctx1, NULL, LG_FORMAT_EL, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    lg_graph_options_init(&o);
    o.directedness = (lg_directedness_t)7;
    CHECK_STATUS(
        lg_graph_read(ctx1, LG_TEST_DATA_DIR "/facebook_combined.el", LG_FORMAT_AUTO, &o, &g),
        LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    CHECK_STATUS(lg_graph_write(ctx1, NULL, "x.el", LG_FORMAT_AUTO), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_write(ctx1, small, NULL, LG_FORMAT_AUTO), LG_ERR_INVALID_ARGUMENT);

    /* a directory that does not exist: nothing to create the file in */
    snprintf(path, sizeof path, "%s/io_no_such_dir/g.el", LG_TEST_TMP_DIR);
    CHECK_STATUS(lg_graph_write(ctx1, small, path, LG_FORMAT_AUTO), LG_ERR_IO);
    CHECK_MESSAGE(strerror(ENOENT));
    CHECK(!file_exists(path));
    lg_graph_free(&small);
}

/* ---- .lgb corruption ------------------------------------------------------------------- */

/* Writes bytes (len of them) as the file, expects want and a message with sub. */
static void expect_bad_lgb(const char *path, const unsigned char *bytes, size_t len,
                           lg_status_t want, const char *sub)
{
    lg_graph_t *g = NULL;
    write_bytes(path, bytes, len);
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), want);
    CHECK(g == NULL);
    CHECK_MESSAGE(path);
    CHECK_MESSAGE(sub);
    lg_graph_free(&g);
}

static void test_lgb_corruption(void)
{
    static const lg_vertex_t src[] = {0, 1, 2, 3, 3};
    static const lg_vertex_t dst[] = {1, 2, 3, 0, 3};
    static const float w[] = {1, 2, 3, 4, 5};
    char path[PATH_CAP];
    size_t len = 0;
    lg_graph_t *g = make_graph(4, 5, src, dst, w, LG_DIRECTED), *r = NULL;
    tmp_path(path, "c.lgb");
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    unsigned char *good = read_bytes(path, &len), *bad = malloc(len + 8);
    /* 40-byte header, offsets 5 * 8, indices 5 * 4, weights 5 * 4 */
    CHECK(good && len == 40 + 40 + 20 + 20);
    if (!good || len != 120)
        goto done;
    uint32_t version;
    memcpy(&version, good + 8, 4);
    CHECK(version == 1);

    expect_bad_lgb(path, good, len - 5, LG_ERR_IO, "truncated");
    expect_bad_lgb(path, good, 20, LG_ERR_IO, "truncated");
    expect_bad_lgb(path, good, 0, LG_ERR_IO, "truncated");
    memcpy(bad, good, len);
    memset(bad + len, 0, 8);
    expect_bad_lgb(path, bad, len + 8, LG_ERR_IO, "more than");

    for (size_t at = 40; at < len; at += 13) { /* one flipped bit anywhere in the payload */
        memcpy(bad, good, len);
        bad[at] ^= 0x10;
        expect_bad_lgb(path, bad, len, LG_ERR_IO, "checksum mismatch");
    }
    memcpy(bad, good, len);
    bad[12] ^= 1; /* the directed flag: the header is checksummed too */
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "checksum mismatch");
    memcpy(bad, good, len);
    bad[1] = 'X';
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "magic");
    memcpy(bad, good, len);
    bad[8] = 2;
    expect_bad_lgb(path, bad, len, LG_ERR_UNSUPPORTED, "version 2");
    memcpy(bad, good, len);
    bad[8] = 0;
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "version 0");
    memcpy(bad, good, len);
    bad[13] = 1; /* flag bit 8: unknown to version 1 */
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "flags");
    memcpy(bad, good, len);
    bad[23] = 0x80; /* n < 0 */
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "vertex count");
    memcpy(bad, good, len);
    bad[24] = 200; /* m larger than the file */
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "truncated");

    /* the stored directedness may be repeated but not contradicted */
    write_bytes(path, good, len);
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, &o, &r), LG_ERR_INVALID_ARGUMENT);
    o.directedness = LG_DIRECTED;
    o.drop_self_loops = true; /* other options still apply */
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, &o, &r));
    CHECK(r && lg_graph_num_edges(r) == 4 && lg_graph_is_weighted(r));
    lg_graph_free(&r);
done:
    free(good);
    free(bad);
    lg_graph_free(&g);
    unlink(path);
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

/* ---- allocation failures ---------------------------------------------------------------- */

/* No "io_*.tmp.*" files left in the temporary directory. */
static bool no_temp_files(void)
{
    DIR *dir = opendir(LG_TEST_TMP_DIR);
    struct dirent *e;
    bool clean = true;
    if (!dir)
        return false;
    while ((e = readdir(dir)) != NULL)
        if (strncmp(e->d_name, "io_", 3) == 0 && strstr(e->d_name, ".tmp."))
            clean = false;
    closedir(dir);
    return clean;
}

/* For k = 0, 1, 2, ...: the allocation after k good ones fails; reading `in`
 * and writing g to `out` must each give LG_OK or LG_ERR_OUT_OF_MEMORY, and a
 * failed write must leave no file.  Stops at the first k where both work. */
static void sweep(const char *label, const char *in, const lg_graph_t *g, const char *out)
{
    long k;
    bool sane = true;
    for (k = 0; k < 1000; k++) {
        lg_graph_t *r = NULL;
        unlink(out);
        lg__alloc_fail_after(k);
        lg_status_t rs = lg_graph_read(ctx4, in, LG_FORMAT_AUTO, NULL, &r);
        lg_status_t ws = lg_graph_write(ctx4, g, out, LG_FORMAT_AUTO);
        lg__alloc_fail_after(-1);
        sane = sane && (rs == LG_OK || rs == LG_ERR_OUT_OF_MEMORY) &&
               (ws == LG_OK || ws == LG_ERR_OUT_OF_MEMORY) && (rs == LG_OK) == (r != NULL) &&
               (ws == LG_OK) == file_exists(out);
        if (!sane)
            fprintf(stderr, "  %s: after %ld allocations: read %s, write %s (%s)\n", label, k,
                    lg_status_string(rs), lg_status_string(ws), lg_last_error());
        lg_graph_free(&r);
        if (!sane || (rs == LG_OK && ws == LG_OK))
            break;
    }
    CHECK(sane);
    CHECK(k > 0 && k < 1000); /* it failed at first and got through in the end */
    unlink(out);
}

static void test_allocation_failures(void)
{
    static const lg_vertex_t src[] = {0, 1, 2, 2};
    static const lg_vertex_t dst[] = {1, 2, 0, 2};
    static const float w[] = {0.5f, 1, 2, 3};
    static const char *const ext[] = {"mtx", "el", "wel", "lgb"};
    char in[PATH_CAP], out[PATH_CAP], name[64];
    for (int d = LG_DIRECTED; d <= LG_UNDIRECTED; d++) {
        lg_graph_t *g = make_graph(3, 4, src, dst, w, (lg_directedness_t)d);
        for (size_t f = 0; f < sizeof ext / sizeof *ext; f++) {
            snprintf(name, sizeof name, "sweep_in.%s", ext[f]);
            tmp_path(in, name);
            snprintf(name, sizeof name, "sweep_out.%s", ext[f]);
            tmp_path(out, name);
            CHECK_OK(lg_graph_write(ctx1, g, in, LG_FORMAT_AUTO));
            sweep(name, in, g, out);
            unlink(in);
        }
        lg_graph_free(&g);
    }
    CHECK(no_temp_files());
}

int main(void)
{
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_CPU;
    co.num_threads = 1;
    CHECK_OK(lg_context_create(&ctx1, &co));
    co.num_threads = 4;
    CHECK_OK(lg_context_create(&ctx4, &co));
    if (!ctx1 || !ctx4)
        TEST_EXIT();

    test_round_trips();
    test_large_round_trip();
    test_facebook();
    test_mtx_good();
    test_mtx_bad();
    test_edge_lists();
    test_error_line_in_late_chunk();
    test_arguments();
    test_lgb_corruption();
    test_pipes();
    test_allocation_failures();
    CHECK(no_temp_files());

    lg_context_free(&ctx1);
    lg_context_free(&ctx4);
    TEST_EXIT();
}
