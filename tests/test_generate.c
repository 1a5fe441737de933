/*
 * test_generate.c - the generators: sizes, determinism across thread counts
 * and seeds, ranges made apart, the Kronecker degree skew, the GAP-convention graph, and errors.
 */
#include "test_util.h"

int lg__build_lean(int mode); /* src/graph/internal.h: a test hook */

#include <stdint.h>

static void check_deterministic(lg_generator_t gen, int scale, int ef)
{
    const int64_t E = (int64_t)ef << scale, n = (int64_t)1 << scale;
    lg_vertex_t *s1 = malloc((size_t)E * sizeof *s1), *d1 = malloc((size_t)E * sizeof *d1);
    lg_vertex_t *s3 = malloc((size_t)E * sizeof *s3), *d3 = malloc((size_t)E * sizeof *d3);
    lg_vertex_t *sx = malloc((size_t)E * sizeof *sx), *dx = malloc((size_t)E * sizeof *dx);
    lg_context_t *one = tu_cpu_context(1), *three = tu_cpu_context(3);
    CHECK_OK(lg_generate_edges(one, gen, scale, ef, 42, s1, d1));
    CHECK_OK(lg_generate_edges(three, gen, scale, ef, 42, s3, d3));
    CHECK_OK(lg_generate_edges(three, gen, scale, ef, 43, sx, dx));
    CHECK(memcmp(s1, s3, (size_t)E * sizeof *s1) == 0);
    CHECK(memcmp(d1, d3, (size_t)E * sizeof *d1) == 0);
    CHECK(memcmp(s1, sx, (size_t)E * sizeof *s1) != 0); /* another seed, other edges */
    int64_t out_of_range = 0;
    for (int64_t i = 0; i < E; i++)
        out_of_range += s1[i] < 0 || s1[i] >= n || d1[i] < 0 || d1[i] >= n;
    CHECK(out_of_range == 0);
    /* the same list made in three ranges, of uneven lengths, one empty */
    const int64_t cut[4] = {0, E / 3 + 1, E / 3 + 1, E};
    for (int k = 0; k < 3; k++)
        CHECK_OK(lg_generate_edge_range(three, gen, scale, ef, 42, cut[k], cut[k + 1] - cut[k],
                                        sx + cut[k], dx + cut[k]));
    CHECK(memcmp(s1, sx, (size_t)E * sizeof *s1) == 0);
    CHECK(memcmp(d1, dx, (size_t)E * sizeof *d1) == 0);
    lg_context_free(&one);
    lg_context_free(&three);
    free(s1), free(d1), free(s3), free(d3), free(sx), free(dx);
}

/* Kronecker degrees are skewed (a few hubs), uniform ones are not. */
static void check_degree_skew(void)
{
    const int scale = 14, ef = 16;
    const int64_t n = (int64_t)1 << scale;
    lg_graph_t *kron = NULL, *urand = NULL;
    CHECK_OK(lg_generate(NULL, LG_GENERATOR_KRONECKER, scale, ef, 1, NULL, &kron));
    CHECK_OK(lg_generate(NULL, LG_GENERATOR_URAND, scale, ef, 1, NULL, &urand));
    lg_edge_t *dk = malloc((size_t)n * sizeof *dk), *du = malloc((size_t)n * sizeof *du);
    CHECK_OK(lg_graph_out_degrees(kron, dk));
    CHECK_OK(lg_graph_out_degrees(urand, du));
    lg_edge_t maxk = 0, maxu = 0;
    int64_t isolated_k = 0;
    for (int64_t v = 0; v < n; v++) {
        maxk = dk[v] > maxk ? dk[v] : maxk;
        maxu = du[v] > maxu ? du[v] : maxu;
        isolated_k += dk[v] == 0;
    }
    /* mean degree ~32 in both; Kronecker hubs reach far beyond it, uniform
     * degrees stay within a few standard deviations (sqrt(32) ~ 6) */
    CHECK(maxk > 20 * 32);
    CHECK(maxu < 3 * 32);
    CHECK(isolated_k > n / 10);
    CHECK(!lg_graph_is_directed(kron) && !lg_graph_is_weighted(kron));
    /* undirected, no self-loops, no duplicates */
    const lg_edge_t *off;
    const lg_vertex_t *adj;
    CHECK_OK(lg_graph_csr(kron, &off, &adj, NULL));
    int64_t bad = 0;
    for (int64_t v = 0; v < n; v++)
        for (lg_edge_t e = off[v]; e < off[v + 1]; e++)
            bad += adj[e] == v || (e > off[v] && adj[e - 1] >= adj[e]);
    CHECK(bad == 0);
    free(dk);
    free(du);
    lg_graph_free(&kron);
    lg_graph_free(&urand);
}

/* Whether graphs a and b have the same n and the same CSR arrays. */
static bool same_csr(const lg_graph_t *a, const lg_graph_t *b)
{
    const int64_t n = lg_graph_num_vertices(a);
    const lg_edge_t *oa, *ob;
    const lg_vertex_t *ia, *ib;
    if (n != lg_graph_num_vertices(b) || lg_graph_csr(a, &oa, &ia, NULL) != LG_OK ||
        lg_graph_csr(b, &ob, &ib, NULL) != LG_OK)
        return false;
    return memcmp(oa, ob, (size_t)(n + 1) * sizeof *oa) == 0 &&
           memcmp(ia, ib, (size_t)oa[n] * sizeof *ia) == 0;
}

/* lg_generate and lg_graph_read own their edges and free them early; with
 * the lean build (two sorts through a half CSR, lg__build_lean) or without,
 * they build exactly what lg_graph_from_edges builds from the same edges --
 * directed and undirected, self-loops kept and dropped, duplicates kept and
 * merged, on 1-3 threads. */
static void check_generate_matches_edges(void)
{
    const int scale = 10, ef = 8;
    const int64_t E = (int64_t)ef << scale, n = (int64_t)1 << scale;
    lg_vertex_t *s = malloc((size_t)E * sizeof *s), *d = malloc((size_t)E * sizeof *d);
    char path[512];
    snprintf(path, sizeof path, "%s/lg_generate_edges.el", LG_TEST_TMP_DIR);
    for (int gen = 0; gen < 2; gen++) {
        const lg_generator_t g = gen ? LG_GENERATOR_URAND : LG_GENERATOR_KRONECKER;
        CHECK_OK(lg_generate_edges(NULL, g, scale, ef, 9, s, d));
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        for (int64_t i = 0; f && i < E; i++)
            fprintf(f, "%d %d\n", (int)s[i], (int)d[i]);
        if (f)
            fclose(f);
        for (int variant = 0; variant < 4; variant++)
            for (int threads = 1; threads <= 3; threads++)
                for (int lean = 0; lean < 2; lean++) {
                    lg_graph_options_t o;
                    lg_graph_options_init(&o);
                    o.directedness = variant == 0 ? LG_DIRECTED : LG_UNDIRECTED;
                    o.drop_self_loops = variant == 2;
                    o.duplicates = variant % 3 == 0 ? LG_DUPLICATES_KEEP : LG_DUPLICATES_FIRST;
                    lg_context_t *c = tu_cpu_context(threads);
                    lg_graph_t *a = NULL, *b = NULL, *r = NULL;
                    const int was = lg__build_lean(lean);
                    CHECK_OK(lg_graph_from_edges(c, n, E, s, d, NULL, &o, &a));
                    CHECK_OK(lg_generate(c, g, scale, ef, 9, &o, &b));
                    CHECK_OK(lg_graph_read(c, path, LG_FORMAT_AUTO, &o, &r));
                    lg__build_lean(was);
                    CHECK(a && b && r && same_csr(a, b) && same_csr(a, r));
                    CHECK(variant != 0 || lg_graph_num_edges(b) == E);
                    lg_graph_free(&a);
                    lg_graph_free(&b);
                    lg_graph_free(&r);
                    lg_context_free(&c);
                }
    }
    remove(path);
    free(s);
    free(d);
}

static void check_errors(void)
{
    lg_vertex_t s[4], d[4];
    lg_graph_t *g = (lg_graph_t *)&g; /* must be left as it is on failure */
    CHECK_STATUS(lg_generate_edges(NULL, LG_GENERATOR_KRONECKER, 0, 1, 1, s, d),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("scale 0");
    CHECK_STATUS(lg_generate_edges(NULL, LG_GENERATOR_KRONECKER, 31, 1, 1, s, d),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(NULL, LG_GENERATOR_URAND, 1, 0, 1, s, d),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("edge_factor 0");
    CHECK_STATUS(lg_generate_edges(NULL, (lg_generator_t)7, 1, 1, 1, s, d),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(NULL, LG_GENERATOR_URAND, 1, 2, 1, NULL, d),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate(NULL, LG_GENERATOR_URAND, 0, 2, 1, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == (lg_graph_t *)&g);
    CHECK_STATUS(lg_generate(NULL, LG_GENERATOR_URAND, 4, 2, 1, NULL, NULL),
                 LG_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    check_deterministic(LG_GENERATOR_KRONECKER, 12, 16);
    check_deterministic(LG_GENERATOR_URAND, 12, 16);
    check_deterministic(LG_GENERATOR_KRONECKER, 1, 1);
    check_degree_skew();
    check_generate_matches_edges();
    check_errors();
    TEST_EXIT();
}
