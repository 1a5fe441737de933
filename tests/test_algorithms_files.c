/*
 * test_algorithms_files.c - BFS, PageRank and connected components on the
 * edge lists in tests/data (facebook_combined.el, oregon1_010331.el), read by
 * lg_graph_read, against this file's own parse of them and the oracles of
 * oracle.h, directed and undirected, with contexts of 1, 2 and 3 threads
 * (algorithm_checks.h says how each call is judged).
 */
#define _POSIX_C_SOURCE 200809L

#include "algorithm_checks.h"
#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

/* Our own reading of a "u v" edge list ('#' and '%' lines are comments). */
static bool parse_edge_list(const char *path, or_edges *e)
{
    memset(e, 0, sizeof *e);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t cap = 1024;
    int64_t E = 0, maxid = -1;
    lg_vertex_t *src = or_alloc(cap, sizeof *src), *dst = or_alloc(cap, sizeof *dst);
    char line[256];
    bool ok = true;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '%')
            continue;
        long a, b;
        int got = sscanf(line, "%ld %ld", &a, &b);
        if (got == EOF)
            continue;
        if (got != 2 || a < 0 || b < 0) {
            ok = false;
            break;
        }
        if ((size_t)E == cap) {
            cap *= 2;
            src = realloc(src, cap * sizeof *src);
            dst = realloc(dst, cap * sizeof *dst);
            if (!src || !dst) {
                fprintf(stderr, "out of memory\n");
                exit(2);
            }
        }
        src[E] = (lg_vertex_t)a;
        dst[E] = (lg_vertex_t)b;
        maxid = a > maxid ? a : maxid;
        maxid = b > maxid ? b : maxid;
        E++;
    }
    fclose(f);
    e->n = maxid + 1;
    e->E = E;
    e->src = src;
    e->dst = dst;
    e->w = NULL;
    return ok;
}

static void test_data_file(const char *name, int64_t want_n, int64_t want_edges)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", LG_TEST_DATA_DIR, name);
    or_edges e;
    bool parsed = parse_edge_list(path, &e);
    CHECK(parsed);
    CHECK(e.n == want_n && e.E == want_edges);
    if (!parsed) {
        fprintf(stderr, "cannot parse %s\n", path);
        or_edges_free(&e);
        return;
    }
    for (int undirected = 0; undirected < 2; undirected++) {
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        if (undirected)
            o.directedness = LG_UNDIRECTED;
        graph_subject(name, 0, &o, false);
        lg_graph_t *g = NULL;
        lg_status_t st = lg_graph_read(ctx[undirected + 1], path, LG_FORMAT_AUTO, &o, &g);
        CHECK(st == LG_OK);
        if (st != LG_OK) {
            report("lg_graph_read(%s): %s: %s", path, lg_status_string(st), lg_last_error());
            continue;
        }
        or_graph want;
        or_build(&want, e.n, e.E, e.src, e.dst, NULL, &o);
        const lg_edge_t *off;
        const lg_vertex_t *idx;
        const float *w;
        CHECK_OK(lg_graph_csr(g, &off, &idx, &w));
        CHECK(lg_graph_num_vertices(g) == want.n);
        CHECK(!lg_graph_is_directed(g)); /* an .el without libgraph's header line is undirected */
        CHECK(!lg_graph_is_weighted(g));
        bool same = lg_graph_num_vertices(g) == want.n &&
                    or_csr_equal(want.n, off, idx, w, want.off, want.idx, want.w);
        CHECK(same);
        if (!same) {
            report("lg_graph_read(%s) differs from our parse of it", path);
        } else {
            for (int i = 0; i < 3; i++)
                check_bfs(g, &want, (lg_vertex_t)(i * (e.n - 1) / 2), i, i != 1);
            check_components(g, &want, undirected);
            lg_pagerank_options_t po;
            lg_pagerank_options_init(&po);
            check_pagerank(g, &want, &po, undirected);
            check_pagerank_f32(g, &want, &po, 2 - undirected);
            if (undirected && want_n == 4039) {
                /* facebook_combined is one component */
                int64_t count = 0;
                lg_vertex_t *labels = or_alloc((size_t)want.n, sizeof *labels);
                CHECK_OK(lg_connected_components(ctx[0], g, NULL, labels, &count));
                CHECK(count == 1);
                free(labels);
            }
        }
        or_graph_free(&want);
        lg_graph_free(&g);
    }
    or_edges_free(&e);
}

static void test_data_files(void)
{
    test_data_file("facebook_combined.el", 4039, 88234);
    test_data_file("oregon1_010331.el", 10670, 22002);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"data files", test_data_files},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0],
                        print_borderline_skips);
}
