/*
 * test_errors_files.c - the error paths of graph files and generators,
 * against the documented statuses of include/libgraph.h.
 *
 * lg_graph_read: NULL arguments, unknown formats and options, a missing file
 * (LG_ERR_IO), an extension AUTO does not know, malformed .el, .wel and .mtx
 * files (LG_ERR_IO naming "path:line:"); lg_graph_write: NULL arguments, an
 * unknown format, a directory that does not exist.  lg_generate_edges and
 * lg_generate: scales, edge factors and generators out of range, NULL
 * outputs, unknown options.  Every failed call sets its handle to NULL.
 */
#define _POSIX_C_SOURCE 200809L

#include "errors_util.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

static void test_file_errors(void)
{
    char path[512], good[512];
    lg_graph_t *g = POISON_GRAPH;
    lg_graph_options_t o;

    snprintf(good, sizeof good, "%s/lg_errors_good.el", LG_TEST_TMP_DIR);
    write_file(good, "0 1\n1 2\n");
    CHECK_OK(lg_graph_read(ctx, good, LG_FORMAT_AUTO, NULL, &g));
    lg_graph_free(&g);

    CHECK_STATUS(lg_graph_read(ctx, good, LG_FORMAT_AUTO, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_read(ctx, NULL, LG_FORMAT_EL, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_read(ctx, good, (lg_file_format_t)99, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    lg_graph_options_init(&o);
    o.duplicates = (lg_duplicates_t)9;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_read(ctx, good, LG_FORMAT_AUTO, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);

    /* a file that is not there */
    snprintf(path, sizeof path, "%s/lg_errors_no_such_dir/none.el", LG_TEST_TMP_DIR);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_read(ctx, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    CHECK(g == POISON_GRAPH);

    /* an extension AUTO does not know */
    snprintf(path, sizeof path, "%s/lg_errors_graph.unknownext", LG_TEST_TMP_DIR);
    write_file(path, "0 1\n");
    g = POISON_GRAPH;
    lg_status_t st = lg_graph_read(ctx, path, LG_FORMAT_AUTO, NULL, &g);
    CHECK((st == LG_ERR_INVALID_ARGUMENT || st == LG_ERR_UNSUPPORTED || st == LG_ERR_IO) &&
          lg_last_error()[0] != '\0');
    CHECK(g == POISON_GRAPH);
    remove(path);

    /* malformed files: LG_ERR_IO with "path:line:" */
    static const struct {
        const char *name, *text;
        int line;
    } bad[] = {
        {"lg_errors_1.el", "0 1\n1 x\n", 2},
        {"lg_errors_2.el", "# comment\n0 1\n2\n", 3},
        {"lg_errors_3.el", "0 1\n-4 2\n", 2},
        {"lg_errors_4.wel", "0 1 0.5\n1 2 nan\n", 2},
        {"lg_errors_5.wel", "0 1 0.5\n1 2 1e39\n2 0 1\n", 2},
        {"lg_errors_6.wel", "0 1\n", 1},
        {"lg_errors_7.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n",
         4},
        {"lg_errors_8.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", 0},
        {"lg_errors_9.mtx", "not a matrix market file\n", 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", LG_TEST_TMP_DIR, bad[i].name);
        write_file(path, bad[i].text);
        g = POISON_GRAPH;
        st = lg_graph_read(ctx, path, LG_FORMAT_AUTO, NULL, &g);
        CHECK(st == LG_ERR_IO);
        CHECK(g == POISON_GRAPH);
        CHECK_MESSAGE(path);
        if (bad[i].line > 0) {
            char where[600];
            snprintf(where, sizeof where, "%s:%d:", path, bad[i].line);
            CHECK_MESSAGE(where);
        }
        if (st != LG_ERR_IO)
            fprintf(stderr, "  lg_graph_read(%s) returned %s: %s\n", bad[i].name,
                    lg_status_string(st), lg_last_error());
        remove(path);
    }

    /* writing */
    lg_graph_t *sg = small_graph(true);
    snprintf(path, sizeof path, "%s/lg_errors_out.el", LG_TEST_TMP_DIR);
    CHECK_STATUS(lg_graph_write(ctx, NULL, path, LG_FORMAT_EL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_write(ctx, sg, NULL, LG_FORMAT_EL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_write(ctx, sg, path, (lg_file_format_t)-1), LG_ERR_INVALID_ARGUMENT);
    snprintf(path, sizeof path, "%s/lg_errors_no_such_dir/out.el", LG_TEST_TMP_DIR);
    CHECK_STATUS(lg_graph_write(ctx, sg, path, LG_FORMAT_EL), LG_ERR_IO);
    lg_graph_free(&sg);
    remove(good);
}

static void test_generator_errors(void)
{
    lg_vertex_t src[64], dst[64];
    lg_graph_t *g = POISON_GRAPH;
    CHECK_OK(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, 2, 1, src, dst));
    const int bad_scale[] = {0, -1, 31};
    for (size_t i = 0; i < 3; i++) {
        CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_KRONECKER, bad_scale[i], 2, 1, src, dst),
                     LG_ERR_INVALID_ARGUMENT);
        g = POISON_GRAPH;
        CHECK_STATUS(lg_generate(ctx, LG_GENERATOR_KRONECKER, bad_scale[i], 2, 1, NULL, &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK(g == POISON_GRAPH);
    }
    CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, 0, 1, src, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, -2, 1, src, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(ctx, (lg_generator_t)5, 3, 2, 1, src, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, 2, 1, NULL, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, 2, 1, src, NULL),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate(ctx, LG_GENERATOR_URAND, 3, 2, 1, NULL, NULL),
                 LG_ERR_INVALID_ARGUMENT);
    /* ranges: within the 16 edges of scale 3, edge factor 2 */
    CHECK_OK(lg_generate_edge_range(ctx, LG_GENERATOR_KRONECKER, 3, 2, 1, 16, 0, NULL, NULL));
    const int64_t bad_range[][2] = {{-1, 1}, {0, -1}, {17, 0}, {10, 7}, {1, INT64_MAX}};
    for (size_t i = 0; i < sizeof bad_range / sizeof bad_range[0]; i++)
        CHECK_STATUS(lg_generate_edge_range(ctx, LG_GENERATOR_URAND, 3, 2, 1, bad_range[i][0],
                                            bad_range[i][1], src, dst),
                     LG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lg_last_error(), "not within the 16 edges") != NULL);
    CHECK_STATUS(lg_generate_edge_range(ctx, LG_GENERATOR_URAND, 3, 2, 1, 0, 4, NULL, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edge_range(ctx, LG_GENERATOR_URAND, 0, 2, 1, 0, 4, src, dst),
                 LG_ERR_INVALID_ARGUMENT);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_generate(ctx, (lg_generator_t)-1, 3, 2, 1, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_generate(ctx, LG_GENERATOR_URAND, 3, 0, 1, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = (lg_directedness_t)5;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_generate(ctx, LG_GENERATOR_URAND, 3, 2, 1, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
}
int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    static void (*const tests[])(void) = {
        test_file_errors,
        test_generator_errors,
    };
    return errors_main(tests, sizeof tests / sizeof tests[0]);
}
