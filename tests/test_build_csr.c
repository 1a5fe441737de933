/*
 * test_build_csr.c - lg_graph_from_csr against the oracle builder of oracle.h.
 *
 * Arbitrary CSRs (rows unsorted, duplicates, self-loops) and symmetric ones
 * (rows shuffled) made from every shape in or_random_edges, under every
 * combination of build options, on contexts of 1, 2 and 3 threads: the same
 * graph as the oracle's from_edges of the arcs in row-major order, compared
 * array for array (build_checks.h); an undirected CSR refused unless it is
 * symmetric as the header defines it (the multiset of (u, v, w) equals that
 * of (v, u, w)) or symmetrize is set; and the round trip of a built graph's
 * own CSR.
 */
#define _POSIX_C_SOURCE 200809L

#include "build_checks.h"
#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

/* ---- lg_graph_from_csr ------------------------------------------------------------ */

/* A CSR of the edges with rows in input order (not sorted by destination). */
static void rows_in_input_order(const or_edges *e, lg_edge_t **off_out, lg_vertex_t **idx_out,
                                float **w_out)
{
    lg_edge_t *off = or_alloc((size_t)e->n + 1, sizeof *off);
    lg_edge_t *fill = or_alloc((size_t)e->n + 1, sizeof *fill);
    lg_vertex_t *idx = or_alloc((size_t)e->E, sizeof *idx);
    float *w = or_alloc((size_t)e->E, sizeof *w);
    for (int64_t i = 0; i < e->E; i++)
        off[e->src[i] + 1]++;
    for (int64_t v = 0; v < e->n; v++)
        off[v + 1] += off[v];
    memcpy(fill, off, ((size_t)e->n + 1) * sizeof *off);
    for (int64_t i = 0; i < e->E; i++) {
        lg_edge_t p = fill[e->src[i]]++;
        idx[p] = e->dst[i];
        w[p] = e->w[i];
    }
    free(fill);
    *off_out = off;
    *idx_out = idx;
    *w_out = w;
}

/* The COO form of a CSR: row ids beside the column ids, in row-major order. */
static lg_vertex_t *csr_rows(int64_t n, const lg_edge_t *off)
{
    lg_vertex_t *rows = or_alloc((size_t)off[n], sizeof *rows);
    for (int64_t v = 0; v < n; v++)
        for (lg_edge_t e = off[v]; e < off[v + 1]; e++)
            rows[e] = (lg_vertex_t)v;
    return rows;
}

struct arc_key {
    lg_vertex_t v;
    float w;
};

static int compare_arc_key(const void *a, const void *b)
{
    const struct arc_key *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return (x->w > y->w) - (x->w < y->w);
}

/* Each row's arcs as (destination, weight) pairs sorted by both: the row as a multiset. */
static struct arc_key *row_multisets(const or_graph *o)
{
    struct arc_key *k = malloc((size_t)(o->off[o->n] + 1) * sizeof *k);
    for (int64_t v = 0; v < o->n; v++) {
        for (lg_edge_t e = o->off[v]; e < o->off[v + 1]; e++) {
            k[e].v = o->idx[e];
            k[e].w = o->w ? o->w[e] + 0.0f : 0.0f; /* -0.0 is 0.0 */
        }
        qsort(k + o->off[v], (size_t)(o->off[v + 1] - o->off[v]), sizeof *k, compare_arc_key);
    }
    return k;
}

/* Symmetric as the header defines it: the multiset of arcs (u, v, w) equals
 * the multiset of (v, u, w); parallel arcs may list their weights in any order. */
static bool oracle_symmetric(const or_graph *o)
{
    or_graph t;
    or_transpose(o, &t);
    bool same = memcmp(o->off, t.off, (size_t)(o->n + 1) * sizeof *o->off) == 0;
    if (same) {
        struct arc_key *a = row_multisets(o), *b = row_multisets(&t);
        for (int64_t e = 0; same && e < o->off[o->n]; e++)
            same = a[e].v == b[e].v && a[e].w == b[e].w;
        free(a);
        free(b);
    }
    or_graph_free(&t);
    return same;
}

/* from_csr on one input CSR under every option combination. */
static void from_csr_all_options(int64_t n, const lg_edge_t *off, const lg_vertex_t *idx,
                                 const float *wts, const char *shape, unsigned long long seed,
                                 int salt, unsigned long long *rng)
{
    lg_vertex_t *rows = csr_rows(n, off);
    const int64_t A = off[n];
    for (int combo = 0; combo < NUM_COMBOS; combo++) {
        /* a third of the combinations an input, weighted or not, at random */
        const unsigned long long r = tu_rand(rng) >> 33;
        if (r % 3 != 0)
            continue;
        const int weighted = (int)((r >> 4) & 1);
        lg_graph_options_t o;
        set_options(&o, combo);
        const float *w = weighted ? wts : NULL;
        int k = (combo + salt) % NUM_CTX;
        bool expect_ok = true, ambiguous = false;
        or_graph want;
        if (o.directedness != LG_DIRECTED && !o.symmetrize) {
            /* arcs taken as given; the CSR must be symmetric */
            lg_graph_options_t d = o;
            d.directedness = LG_DIRECTED;
            or_build(&want, n, A, rows, idx, w, &d);
            want.directed = false;
            bool sym_after = oracle_symmetric(&want);
            lg_graph_options_t raw = d;
            raw.duplicates = LG_DUPLICATES_KEEP;
            raw.drop_self_loops = false;
            or_graph before;
            or_build(&before, n, A, rows, idx, w, &raw);
            bool sym_before = oracle_symmetric(&before);
            or_graph_free(&before);
            /* whether the symmetry of the input or of the merged graph is
             * meant is not documented; only cases where both agree are
             * checked */
            ambiguous = sym_before != sym_after;
            expect_ok = sym_before;
        } else {
            /* the same as from_edges of the arcs in row-major order */
            or_build(&want, n, A, rows, idx, w, &o);
        }
        lg_graph_t *g = NULL;
        lg_status_t st = lg_graph_from_csr(ctx[k], n, off, idx, w, &o, &g);
        if (ambiguous) {
            CHECK(st == LG_OK || st == LG_ERR_INVALID_ARGUMENT);
        } else if (expect_ok) {
            CHECK(st == LG_OK);
            bool ok = st == LG_OK && graph_matches(g, &want);
            CHECK(ok);
            if (!ok) {
                if (st != LG_OK)
                    fprintf(stderr, "  %s: %s\n", lg_status_string(st), lg_last_error());
                report_build("from_csr vs oracle", shape, seed, &o, weighted, k + 1);
            }
        } else {
            CHECK(st == LG_ERR_INVALID_ARGUMENT && g == NULL && lg_last_error()[0] != '\0');
            if (st != LG_ERR_INVALID_ARGUMENT)
                report_build("from_csr of a non-symmetric undirected CSR", shape, seed, &o,
                             weighted, k + 1);
        }
        if (st == LG_OK && g && combo % 2 == 0) {
            /* round trip: the built graph's own CSR gives the same graph */
            const lg_edge_t *goff;
            const lg_vertex_t *gidx;
            const float *gw;
            lg_graph_options_t rt;
            lg_graph_options_init(&rt);
            rt.directedness = lg_graph_is_directed(g) ? LG_DIRECTED : LG_UNDIRECTED;
            lg_graph_t *g2 = NULL;
            CHECK_OK(lg_graph_csr(g, &goff, &gidx, &gw));
            CHECK_OK(lg_graph_from_csr(ctx[(k + 1) % NUM_CTX], n, goff, gidx, gw, &rt, &g2));
            if (g2) {
                CHECK(same_csr(g, g2));
                CHECK(lg_graph_is_directed(g2) == lg_graph_is_directed(g));
                CHECK(lg_graph_is_weighted(g2) == lg_graph_is_weighted(g));
            }
            lg_graph_free(&g2);
        }
        lg_graph_free(&g);
        or_graph_free(&want);
    }
    free(rows);
}

static void test_from_csr_random(void)
{
    const int graphs = 40;
    for (int gi = 0; gi < graphs; gi++) {
        unsigned long long seed = 5000 + (unsigned long long)gi, rng = seed * 0x9E3779B9ull + 7;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);

        /* an arbitrary CSR: rows unsorted, duplicates, self-loops */
        lg_edge_t *off;
        lg_vertex_t *idx;
        float *w;
        rows_in_input_order(&e, &off, &idx, &w);
        from_csr_all_options(e.n, off, idx, w, e.shape, seed, gi, &rng);
        free(off);
        free(idx);
        free(w);

        /* a symmetric CSR (an undirected oracle graph), each row shuffled */
        lg_graph_options_t u;
        lg_graph_options_init(&u);
        u.directedness = LG_UNDIRECTED;
        u.duplicates = gi % 2 ? LG_DUPLICATES_KEEP : LG_DUPLICATES_MAX;
        or_graph s;
        or_build(&s, e.n, e.E, e.src, e.dst, e.w, &u);
        for (int64_t v = 0; v < s.n; v++) {
            lg_edge_t lo = s.off[v], len = s.off[v + 1] - lo;
            for (lg_edge_t i = len - 1; i > 0; i--) {
                lg_edge_t j = or_rand_below(&rng, i + 1);
                lg_vertex_t t = s.idx[lo + i];
                s.idx[lo + i] = s.idx[lo + j];
                s.idx[lo + j] = t;
                float tw = s.w[lo + i];
                s.w[lo + i] = s.w[lo + j];
                s.w[lo + j] = tw;
            }
        }
        from_csr_all_options(s.n, s.off, s.idx, s.w, e.shape, seed, gi + 1, &rng);
        or_graph_free(&s);
        or_edges_free(&e);
    }
}

/* An undirected non-symmetric CSR is refused unless symmetrize is set. */
static void test_from_csr_by_hand(void)
{
    /* 0 -> 1, 0 -> 2, 2 -> 0: the arc 1 -> 0 is missing */
    const lg_edge_t off[] = {0, 2, 2, 3};
    const lg_vertex_t idx[] = {1, 2, 0};
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    lg_graph_t *g = NULL;
    CHECK_STATUS(lg_graph_from_csr(ctx[0], 3, off, idx, NULL, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    o.symmetrize = true;
    o.duplicates = LG_DUPLICATES_FIRST;
    CHECK_OK(lg_graph_from_csr(ctx[0], 3, off, idx, NULL, &o, &g));
    if (g) {
        const lg_edge_t want_off[] = {0, 2, 3, 4};
        const lg_vertex_t want_idx[] = {1, 2, 0, 0};
        const lg_edge_t *goff;
        const lg_vertex_t *gidx;
        CHECK_OK(lg_graph_csr(g, &goff, &gidx, NULL));
        CHECK(!lg_graph_is_directed(g) && lg_graph_num_edges(g) == 4);
        CHECK(memcmp(goff, want_off, sizeof want_off) == 0);
        CHECK(memcmp(gidx, want_idx, sizeof want_idx) == 0);
        lg_graph_free(&g);
    }
    /* weights must match too: 0 -1.0-> 1 but 1 -2.0-> 0 */
    const lg_edge_t soff[] = {0, 1, 2};
    const lg_vertex_t sidx[] = {1, 0};
    const float bad_w[] = {1.0f, 2.0f}, good_w[] = {1.5f, 1.5f};
    o.symmetrize = false;
    o.duplicates = LG_DUPLICATES_KEEP;
    CHECK_STATUS(lg_graph_from_csr(ctx[1], 2, soff, sidx, bad_w, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    CHECK_OK(lg_graph_from_csr(ctx[1], 2, soff, sidx, good_w, &o, &g));
    CHECK(g && !lg_graph_is_directed(g) && lg_graph_is_weighted(g) && lg_graph_num_edges(g) == 2);
    lg_graph_free(&g);
    /* the same arrays as a directed graph are fine */
    o.directedness = LG_DIRECTED;
    CHECK_OK(lg_graph_from_csr(ctx[2], 2, soff, sidx, bad_w, &o, &g));
    lg_graph_free(&g);
    /* an empty graph from CSR */
    const lg_edge_t zero[] = {0};
    CHECK_OK(lg_graph_from_csr(ctx[2], 0, zero, NULL, NULL, NULL, &g));
    CHECK(g && lg_graph_num_vertices(g) == 0 && lg_graph_num_edges(g) == 0);
    lg_graph_free(&g);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"from_csr by hand", test_from_csr_by_hand},
        {"from_csr random", test_from_csr_random},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], NULL);
}
