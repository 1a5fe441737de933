/*
 * test_io_text.c - reading the text formats (src/graph/io/mtx.c, edgelist.c,
 * text.c): Matrix Market and edge lists, against CSR arrays written out by
 * hand.
 *
 * Matrix Market files as literal strings: every field and symmetry, the
 * banner in any case, comments, blank lines, CRLF and tabs, a file with no
 * entries, and options that override the file's directedness.  Edge lists
 * with comments of both kinds and blanks, options still applied, an explicit
 * format beating the extension.  Every malformed input (bad banners and size
 * lines, too few or many entries, indices out of range, bad weights,
 * garbage, overflow, a NUL byte) gives its documented status and a message
 * naming "path:line:", also for a bad line deep in a file that several
 * threads parse.  Bad arguments and missing files: the status, the reason,
 * and no file created.
 */
#define _POSIX_C_SOURCE 200809L
#define IO_TMP_PREFIX "io_text_"

#include "internal.h" /* lg__parse_part_bytes, lg__text_window_bytes */
#include "io_util.h"
#include "libgraph.h"
#include "test_util.h"

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
    snprintf(text, sizeof text, "%s3 3 2\n1 2 nan\n2 3 1\n", real);
    expect_bad("nan.mtx", text, LG_ERR_IO, 3, "NaN");
    snprintf(text, sizeof text, "%s3 3 1\n1 2 1e39\n", real);
    expect_bad("inf.mtx", text, LG_ERR_IO, 3, "too large for a float");
    snprintf(text, sizeof text, "%s3 3 1\n1 2 inf\n", real);
    expect_bad("infword.mtx", text, LG_ERR_IO, 3, "not finite");
    /* a positive weight below float's range would become 0, its vertex
     * dangling and PageRank different: refused, as from Python's arrays */
    snprintf(text, sizeof text, "%s3 3 1\n1 2 1e-50\n", real);
    expect_bad("weight_underflow.mtx", text, LG_ERR_IO, 3, "rounds to 0");
    snprintf(text, sizeof text, "%s3 3 1\n1 2 0x1p3\n", real);
    expect_bad("weight_hex.mtx", text, LG_ERR_IO, 3, "not a decimal number");
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
    lg_graph_t *g = read_graph(ctx1, path, LG_DIRECTED);
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
    CHECK(g && lg_graph_num_edges(g) == 2 && !lg_graph_is_directed(g)); /* no header line */
    lg_graph_free(&g);
    unlink(path);

    expect_bad("garbage.el", "0 1\n2 abc\n", LG_ERR_IO, 2, "abc");
    /* libgraph's header line records directedness, the vertex count and
     * whether the weights mean anything */
    tmp_path(path, "header.wel");
    write_text(path, "# libgraph edge list: directed, 5 vertices, unweighted\n0 1 1\n2 1 1\n");
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g));
    if (g) {
        static const lg_edge_t ho[] = {0, 1, 1, 2, 2, 2};
        lg_graph_csr(g, &off, &idx, &w);
        CHECK(lg_graph_is_directed(g) && lg_graph_num_vertices(g) == 5 && w == NULL);
        CHECK(memcmp(off, ho, sizeof ho) == 0 && idx[0] == 1 && idx[1] == 1);
    }
    lg_graph_free(&g);
    /* the options override the recorded directedness, as for Matrix Market */
    o.directedness = LG_UNDIRECTED;
    o.drop_self_loops = false;
    o.duplicates = LG_DUPLICATES_KEEP;
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, &o, &g));
    CHECK(g && !lg_graph_is_directed(g) && lg_graph_num_edges(g) == 4);
    lg_graph_free(&g);
    /* weights other than 1 are kept whatever the line says */
    write_text(path,
               "# libgraph edge list: undirected, 3 vertices, unweighted, later-field\n0 1 2\n");
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g));
    CHECK(g && !lg_graph_is_directed(g) && lg_graph_num_vertices(g) == 3 &&
          lg_graph_is_weighted(g) && lg_graph_num_edges(g) == 2);
    lg_graph_free(&g);
    unlink(path);
    /* the line only counts as the first line; later it is a comment */
    tmp_path(path, "late.el");
    write_text(path, "0 1\n# libgraph edge list: directed, 9 vertices\n");
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g));
    CHECK(g && !lg_graph_is_directed(g) && lg_graph_num_vertices(g) == 2);
    lg_graph_free(&g);
    unlink(path);
    expect_bad("over.el", "# libgraph edge list: directed, 2 vertices\n0 1\n1 2\n", LG_ERR_IO, 0,
               "header line says 2 vertices");
    expect_bad("count.el", "# libgraph edge list: directed, lots of vertices\n0 1\n", LG_ERR_IO, 1,
               "vertex count");
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
    expect_bad("fourth.wel", "0 1 1 1\n", LG_ERR_IO, 1, "extra field");
    expect_bad("weight_underflow.wel", "0 1 1\n1 2 1e-46\n", LG_ERR_IO, 2, "rounds to 0");
    expect_bad("weight_overflow.wel", "0 1 3.5e38\n", LG_ERR_IO, 1, "too large for a float");
    expect_bad("weight_hex.wel", "0 1 0x10\n", LG_ERR_IO, 1, "not a decimal number");
    {
        /* negative weights are read and kept (the algorithms that need
         * weights >= 0 refuse them), in both text formats */
        tmp_path(path, "negw.wel");
        write_text(path, "# libgraph edge list: directed\n0 1 1\n1 2 -0.25\n");
        CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g));
        const float *wt = NULL;
        CHECK_OK(lg_graph_csr(g, NULL, NULL, &wt));
        CHECK(lg_graph_num_edges(g) == 2 && wt[0] == 1.0f && wt[1] == -0.25f);
        CHECK(lg_graph_has_negative_weights(g));
        lg_graph_free(&g);
        unlink(path);
        tmp_path(path, "neg.mtx");
        write_text(path, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 3 -1.5\n");
        CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g));
        CHECK_OK(lg_graph_csr(g, NULL, NULL, &wt));
        CHECK(lg_graph_num_edges(g) == 2 && wt[0] == 1.0f && wt[1] == -1.5f);
        CHECK(lg_graph_has_negative_weights(g));
        lg_graph_free(&g);
        unlink(path);
    }
    {
        /* subnormal but not 0, and zero spelt many ways, are kept */
        tmp_path(path, "weight_small.wel");
        write_text(path, "0 1 1e-40\n1 2 0e-99\n2 0 -0.0\n");
        CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g));
        const float *wt = NULL, want[] = {1e-40f, 0.0f, 1e-40f, 0.0f, 0.0f, 0.0f};
        CHECK_OK(lg_graph_csr(g, NULL, NULL, &wt));
        CHECK(lg_graph_num_edges(g) == 6 && memcmp(wt, want, sizeof want) == 0); /* no -0 */
        lg_graph_free(&g);
        unlink(path);
    }
    /* a UTF-8 byte-order mark (Windows editors) is not data */
    tmp_path(path, "bom.el");
    write_text(path, "\xEF\xBB\xBF"
                     "0 1\n1 2\n");
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &g));
    CHECK(g && lg_graph_num_vertices(g) == 3 && lg_graph_num_edges(g) == 4);
    lg_graph_free(&g);
    unlink(path);

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
        EARLY = 40001, /* late in the first of four chunks */
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
    /* parsed in parts of 1000 bytes a chunk a round: the chunk that fails
     * first in time is not the first in the file */
    const size_t part = lg__parse_part_bytes(1000);
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    check_where(path, BAD);
    f = fopen(path, "w");
    for (int i = 1; i <= LINES; i++) {
        if (i == EARLY || i == BAD)
            fprintf(f, "%d oops\n", i);
        else
            fprintf(f, "%d %d\n", i % 5000, (i * 7) % 5000);
    }
    fclose(f);
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    check_where(path, EARLY);
    /* and a good file reads the same in parts as whole */
    f = fopen(path, "w");
    for (int i = 1; i <= LINES; i++)
        fprintf(f, i % 999 ? "%d %d\n" : "# %d %d\n", i % 5000, (i * 7) % 5000);
    fclose(f);
    lg_graph_t *parts = NULL, *whole = NULL;
    CHECK_OK(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &parts));
    lg__parse_part_bytes(part);
    CHECK_OK(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &whole));
    CHECK(parts && whole && same_graph(parts, whole));
    lg_graph_free(&parts);
    lg_graph_free(&whole);
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
/* Writes the undirected graph g as an edge list with libgraph's header line,
 * comment lines among its data lines (every 97th line), tabs, and, when
 * crlf, CRLF line ends. */
static void write_mixed_el(const char *path, const lg_graph_t *g, bool crlf)
{
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    CHECK_OK(lg_graph_csr(g, &off, &idx, NULL));
    FILE *f = fopen(path, "w");
    fprintf(f, "# libgraph edge list: undirected, %lld vertices, unweighted%s\n",
            (long long)lg_graph_num_vertices(g), crlf ? "\r" : "");
    long line = 0;
    for (int64_t u = 0; u < lg_graph_num_vertices(g); u++)
        for (lg_edge_t k = off[u]; k < off[u + 1] && idx[k] <= u; k++) {
            if (++line % 97 == 0)
                fprintf(f, "# comment line %ld%s\n", line, crlf ? "\r" : "");
            fprintf(f, "%lld\t%lld%s\n", (long long)u, (long long)idx[k], crlf ? "\r" : "");
        }
    fclose(f);
}

/* The file changed after its lines were counted (the progress callback runs
 * between the passes' windows): the same size, twice the lines. */
static bool rewrite_on_read(const lg_progress_info_t *info, void *data)
{
    const char *path = data;
    if (info->stage == LG_STAGE_READ && info->done == info->total) {
        FILE *f = fopen(path, "r+");
        for (long k = 0; f && k < info->total / 8; k++)
            fputs("0 1\n1 0\n", f);
        if (f)
            fclose(f);
    }
    return true;
}

/* Regular text files are read in windows (text_read.c): every text case
 * again through windows of 1, 5 and 64 bytes (lines across windows, a line
 * longer than the window, headers longer than one), then a larger file
 * through windows of many sizes, against the graph read in one window. */
static void test_windows(void)
{
    static const size_t windows[] = {1, 5, 64};
    for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++) {
        const size_t was = lg__text_window_bytes(windows[k]);
        test_mtx_good();
        test_mtx_bad();
        test_edge_lists();
        lg__text_window_bytes(was);
    }

    lg_graph_t *kron = NULL, *whole = NULL, *g = NULL;
    CHECK_OK(lg_generate(ctx4, LG_GENERATOR_KRONECKER, 10, 8, 3, NULL, &kron));
    char path[PATH_CAP], mtx[PATH_CAP];
    tmp_path(path, "windows.el");
    tmp_path(mtx, "windows.mtx");
    CHECK_OK(lg_graph_write(ctx4, kron, mtx, LG_FORMAT_AUTO));
    for (int crlf = 0; crlf < 2; crlf++) {
        write_mixed_el(path, kron, crlf);
        CHECK_OK(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &whole));
        CHECK(whole && same_graph(whole, kron));
        /* windows of a few bytes (one line or less each) on one thread, so
         * that the test does not wait on thousands of parallel regions */
        static const size_t sizes[] = {3, 7, 100, 4096, 65537};
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            const size_t was = lg__text_window_bytes(sizes[k]);
            for (int t = sizes[k] < 100 ? 0 : 1; t >= 0; t--) {
                CHECK_OK(lg_graph_read(t ? ctx4 : ctx1, path, LG_FORMAT_AUTO, NULL, &g));
                CHECK(g && same_graph(g, whole));
                lg_graph_free(&g);
                CHECK_OK(lg_graph_read(t ? ctx4 : ctx1, mtx, LG_FORMAT_AUTO, NULL, &g));
                CHECK(g && same_graph(g, kron));
                lg_graph_free(&g);
            }
            lg__text_window_bytes(was);
        }
        lg_graph_free(&whole);
    }

    /* a bad line and an extra .mtx entry, each windows after the first */
    const size_t was = lg__text_window_bytes(4096);
    FILE *f = fopen(path, "w");
    for (int i = 1; i <= 20000; i++)
        fprintf(f, i == 12345 ? "%d x\n" : "%d %d\n", i % 300, i % 7);
    fclose(f);
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    check_where(path, 12345);
    f = fopen(mtx, "w");
    fprintf(f, "%%%%MatrixMarket matrix coordinate pattern general\n");
    for (int i = 0; i < 3000; i++) /* a header longer than a window */
        fprintf(f, "%% comment %d\n", i);
    fprintf(f, "300 300 8000\n"); /* line 3002 */
    int extra_line = 0;
    for (int i = 1, entries = 0; i <= 9000; i++) { /* every 50th a comment */
        fprintf(f, i % 50 ? "%d %d\n" : "%% %d %d\n", i % 300 + 1, i % 7 + 1);
        if (i % 50 && ++entries == 8001)
            extra_line = 3002 + i;
    }
    fclose(f);
    CHECK_STATUS(lg_graph_read(ctx4, mtx, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    CHECK_MESSAGE("one entry more");
    check_where(mtx, extra_line);
    /* a bad line after the entries is the error, whatever the windows (as
     * when the file is one window) */
    f = fopen(mtx, "a");
    fprintf(f, "1 oops\n");
    fclose(f);
    const int bad_line = 3002 + 9000 + 1;
    CHECK_STATUS(lg_graph_read(ctx4, mtx, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    check_where(mtx, bad_line);
    lg__text_window_bytes((size_t)32 << 20);
    CHECK_STATUS(lg_graph_read(ctx4, mtx, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    check_where(mtx, bad_line);
    lg__text_window_bytes(4096);

    /* a file that changes between the passes is an error, not an overrun */
    f = fopen(path, "w");
    for (int i = 0; i < 20000; i++)
        fprintf(f, "%d %d\n", 1000 + i % 9000, 1000 + i % 8999);
    fclose(f);
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.progress = rewrite_on_read;
    o.progress_data = path;
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, &o, &g), LG_ERR_IO);
    CHECK_MESSAGE("changed while it was being read");
    CHECK(g == NULL);
    lg__text_window_bytes(was);
    unlink(path);
    unlink(mtx);
    lg_graph_free(&kron);
}

int main(void)
{
    static void (*const tests[])(void) = {
        test_mtx_good,  test_mtx_bad, test_edge_lists, test_error_line_in_late_chunk,
        test_arguments, test_windows,
    };
    return io_main(tests, sizeof tests / sizeof tests[0]);
}
