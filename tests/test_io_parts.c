/*
 * test_io_parts.c - lg_read_edges: a file read in parts, for every format and
 * both directednesses, with 1 to 50 parts (more parts than lines included).
 * The parts, concatenated in order and built as the file records, give the
 * graph lg_graph_read gives; a bad line in a late part is reported with the
 * line number the whole-file reader gives; bad arguments are refused.
 */
#define IO_TMP_PREFIX "lg_parts_"
#include "io_util.h"

/* Reads the file in `parts` parts and builds the concatenation. */
static lg_graph_t *read_in_parts(const char *path, int parts)
{
    lg_edge_part_t *p = calloc((size_t)parts, sizeof *p);
    int64_t total = 0;
    bool weighted = false;
    uint64_t sums[LG_EDGE_PART_CHECKSUMS] = {0};
    for (int k = 0; k < parts; k++) {
        CHECK_OK(lg_read_edges(k % 2 ? ctx4 : ctx1, path, LG_FORMAT_AUTO, k, parts, &p[k]));
        for (int j = 0; j < LG_EDGE_PART_CHECKSUMS; j++)
            sums[j] += p[k].checksum[j];
        total += p[k].count;
        weighted = weighted || p[k].weights;
        CHECK(p[k].num_vertices == p[0].num_vertices && p[k].directedness == p[0].directedness &&
              p[k].both_arcs == p[0].both_arcs);
    }
    lg_vertex_t *src = malloc((size_t)total * sizeof *src + 1),
                *dst = malloc((size_t)total * sizeof *dst + 1);
    float *w = weighted ? malloc((size_t)total * sizeof *w + 1) : NULL;
    int64_t at = 0, top = -1;
    for (int k = 0; k < parts; k++) {
        for (int64_t i = 0; i < p[k].count; i++, at++) {
            src[at] = p[k].src[i];
            dst[at] = p[k].dst[i];
            top = src[at] > top ? src[at] : top;
            top = dst[at] > top ? dst[at] : top;
            if (w)
                w[at] = p[k].weights ? p[k].weights[i] : 1.0f;
        }
    }
    CHECK(p[0].declared_edges < 0 || p[0].declared_edges == total);
    CHECK_OK(lg_read_edges_verify(ctx1, path, LG_FORMAT_AUTO, sums)); /* the parts' checksum */
    lg_graph_t *g = NULL;
    if (p[0].both_arcs) {
        /* an undirected .lgb: its arcs are the CSR, rows in order */
        lg_edge_t *off = calloc((size_t)p[0].num_vertices + 1, sizeof *off);
        for (int64_t i = 0; i < total; i++)
            off[src[i] + 1]++;
        for (int64_t v = 0; v < p[0].num_vertices; v++)
            off[v + 1] += off[v];
        CHECK_OK(lg_graph_from_csr(ctx1, p[0].num_vertices, off, dst, w, NULL, &g));
        free(off);
    } else {
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = p[0].directedness == LG_DIRECTED ? LG_DIRECTED : LG_UNDIRECTED;
        CHECK_OK(lg_graph_from_edges(ctx1, p[0].num_vertices >= 0 ? p[0].num_vertices : top + 1,
                                     total, src, dst, w, &o, &g));
    }
    for (int k = 0; k < parts; k++)
        lg_edge_part_free(&p[k]);
    lg_edge_part_free(NULL);
    free(p);
    free(src);
    free(dst);
    free(w);
    return g;
}

static void test_formats(void)
{
    enum {
        N = 60,
        E = 400
    };
    static const char *const ext[] = {"mtx", "el", "wel", "lgb"};
    static const int parts[] = {1, 2, 3, 7, 50, 1000};
    lg_vertex_t src[E], dst[E];
    float w[E];
    unsigned long long seed = 99;
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)(tu_rand(&seed) % (N - 3)); /* the last ids isolated */
        dst[i] = (lg_vertex_t)(tu_rand(&seed) % (N - 3));
        w[i] = (float)(1 + tu_rand(&seed) % 9) / 4.0f;
    }
    char path[PATH_CAP], name[32];
    for (int d = LG_DIRECTED; d <= LG_UNDIRECTED; d++) {
        lg_graph_t *g = make_graph(N, E, src, dst, w, (lg_directedness_t)d);
        for (size_t f = 0; f < 4; f++) {
            snprintf(name, sizeof name, "g.%s", ext[f]);
            tmp_path(path, name);
            CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
            lg_graph_t *whole = read_graph(ctx1, path, LG_DIRECTEDNESS_DEFAULT);
            for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
                lg_graph_t *r = read_in_parts(path, parts[k]);
                if (!(r && whole && same_graph(whole, r)))
                    fprintf(stderr, "  %s in %d parts differs\n", name, parts[k]);
                CHECK(r && whole && same_graph(whole, r));
                lg_graph_free(&r);
            }
            lg_graph_free(&whole);
            unlink(path);
        }
        lg_graph_free(&g);
    }
}

/* A long comment block before .mtx's size line (past the first prefix read),
 * CRLF lines, and no newline at the end. */
static void test_text_shapes(void)
{
    char path[PATH_CAP];
    tmp_path(path, "long.mtx");
    FILE *f = fopen(path, "w");
    fprintf(f, "%%%%MatrixMarket matrix coordinate pattern general\r\n");
    for (int i = 0; i < 3000; i++)
        fprintf(f, "%% a comment line of some length to push the size line out %d\r\n", i);
    fprintf(f, "5 5 4\r\n1 2\r\n2 3\r\n3 4\r\n5 1");
    fclose(f);
    lg_graph_t *whole = read_graph(ctx1, path, LG_DIRECTEDNESS_DEFAULT);
    for (int parts = 1; parts <= 6; parts++) {
        lg_graph_t *r = read_in_parts(path, parts);
        CHECK(r && whole && same_graph(whole, r));
        lg_graph_free(&r);
    }
    lg_graph_free(&whole);
    unlink(path);
}

/* The sums of a .lgb's parts' checksums. */
static lg_status_t verify_in_parts(const char *path, int parts)
{
    uint64_t sums[LG_EDGE_PART_CHECKSUMS] = {0};
    for (int k = 0; k < parts; k++) {
        lg_edge_part_t p;
        lg_status_t st = lg_read_edges(k % 2 ? ctx4 : ctx1, path, LG_FORMAT_AUTO, k, parts, &p);
        if (st != LG_OK)
            return st;
        for (int j = 0; j < LG_EDGE_PART_CHECKSUMS; j++)
            sums[j] += p.checksum[j];
        lg_edge_part_free(&p);
    }
    return lg_read_edges_verify(ctx1, path, LG_FORMAT_AUTO, sums);
}

/* A .lgb of several hash blocks a section (1 MiB each), with names: its
 * parts' checksums add up to the file's whatever the part count, and a
 * changed byte the parts cannot see (a valid id, a name) fails the sum. */
static void test_checksum(void)
{
    lg_graph_t *g = NULL;
    CHECK_OK(lg_generate(ctx4, LG_GENERATOR_KRONECKER, 15, 16, 5, NULL, &g)); /* ~1M arcs */
    const int64_t n = lg_graph_num_vertices(g);
    int64_t *ints = malloc((size_t)n * sizeof *ints);
    for (int64_t v = 0; v < n; v++)
        ints[v] = 1000 + 3 * v;
    const lg_names_t names = {LG_NAMES_INT64, ints, NULL, NULL};
    CHECK_OK(lg_graph_set_names(g, &names));
    char path[PATH_CAP];
    tmp_path(path, "sums.lgb");
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    static const int parts[] = {1, 2, 3, 5, 16};
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++)
        CHECK_OK(verify_in_parts(path, parts[k]));
    size_t len = 0;
    unsigned char *bytes = read_bytes(path, &len);
    const size_t header = 56, cols = header + ((size_t)n + 1) * 8; /* a version 2 header */
    const int64_t m = lg_graph_num_edges(g);
    CHECK(bytes && len == cols + (size_t)m * 4 + (size_t)n * 8);
    if (bytes) {
        /* an arc's head becomes another vertex, or a name changes */
        const size_t at[] = {cols + ((size_t)m / 2) * 4, cols + (size_t)m * 4 + (size_t)n * 4};
        for (size_t i = 0; i < 2; i++) {
            unsigned char *bad = malloc(len);
            memcpy(bad, bytes, len);
            uint32_t old, now;
            memcpy(&old, bad + at[i], 4);
            now = old == 0 ? 1 : 0; /* an id still < n, or a name's low half */
            memcpy(bad + at[i], &now, 4);
            FILE *f = fopen(path, "wb");
            fwrite(bad, 1, len, f);
            fclose(f);
            for (int k = 1; k <= 3; k += 2) {
                CHECK_STATUS(verify_in_parts(path, k), LG_ERR_IO);
                CHECK_MESSAGE("checksum mismatch");
            }
            free(bad);
        }
    }
    uint64_t zeros[LG_EDGE_PART_CHECKSUMS] = {0};
    CHECK_STATUS(lg_read_edges_verify(ctx1, NULL, LG_FORMAT_AUTO, zeros), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_read_edges_verify(ctx1, path, LG_FORMAT_AUTO, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_OK(lg_read_edges_verify(ctx1, "any.el", LG_FORMAT_AUTO, zeros)); /* no checksum */
    free(bytes);
    free(ints);
    unlink(path);
    lg_graph_free(&g);
}

/* A bad line in the last part: the whole-file reader's message, line included. */
static void test_errors(void)
{
    char path[PATH_CAP], whole_msg[512];
    tmp_path(path, "bad.el");
    FILE *f = fopen(path, "w");
    for (int i = 0; i < 500; i++)
        fprintf(f, "%d %d\n", i % 17, (i * 7) % 23);
    fprintf(f, "3 x\n1 2\n");
    fclose(f);
    lg_graph_t *g = NULL;
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    snprintf(whole_msg, sizeof whole_msg, "%s", lg_last_error());
    lg_edge_part_t p = {0};
    CHECK_OK(lg_read_edges(ctx1, path, LG_FORMAT_AUTO, 0, 4, &p));
    lg_edge_part_free(&p);
    CHECK_STATUS(lg_read_edges(ctx1, path, LG_FORMAT_AUTO, 3, 4, &p), LG_ERR_IO);
    CHECK(strcmp(lg_last_error(), whole_msg) == 0);
    CHECK(p.src == NULL && p.count == 0);
    check_where(path, 501);

    CHECK_STATUS(lg_read_edges(ctx1, path, LG_FORMAT_AUTO, 4, 4, &p), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_read_edges(ctx1, path, LG_FORMAT_AUTO, -1, 4, &p), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_read_edges(ctx1, path, LG_FORMAT_AUTO, 0, 0, &p), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_read_edges(ctx1, NULL, LG_FORMAT_AUTO, 0, 1, &p), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_read_edges(ctx1, path, LG_FORMAT_AUTO, 0, 1, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_read_edges(ctx1, "/dev/stdin", LG_FORMAT_EL, 0, 1, &p),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("not a regular file");
    unlink(path);
    /* a FIFO no one writes: refused at once, not waited on (text, .lgb, and
     * the .lgb checksum's verification) */
    static const char *const fifos[] = {"fifo_part.el", "fifo_part.lgb"};
    for (int k = 0; k < 2; k++) {
        tmp_path(path, fifos[k]);
        unlink(path);
        CHECK(mkfifo(path, 0600) == 0);
        alarm(60); /* a blocking open ends the test instead of hanging it */
        CHECK_STATUS(lg_read_edges(ctx1, path, LG_FORMAT_AUTO, 0, 2, &p), LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("lg_read_edges: ");
        CHECK_MESSAGE(" is not a regular file: parts are byte ranges of one");
        const uint64_t sums[LG_EDGE_PART_CHECKSUMS] = {0};
        if (k) /* a text file has no checksum: nothing opened */
            CHECK_STATUS(lg_read_edges_verify(ctx1, path, LG_FORMAT_AUTO, sums),
                         LG_ERR_INVALID_ARGUMENT);
        else
            CHECK_OK(lg_read_edges_verify(ctx1, path, LG_FORMAT_AUTO, sums));
        alarm(0);
        unlink(path);
    }
    tmp_path(path, "missing.el");
    CHECK_STATUS(lg_read_edges(ctx1, path, LG_FORMAT_AUTO, 0, 1, &p), LG_ERR_IO);
}

int main(void)
{
    static void (*const tests[])(void) = {test_formats, test_text_shapes, test_checksum,
                                          test_errors};
    return io_main(tests, sizeof tests / sizeof tests[0]);
}
