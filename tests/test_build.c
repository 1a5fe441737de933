/*
 * test_build.c - graph building against the oracle builder of oracle.h.
 *
 * lg_graph_from_edges and lg_graph_from_csr on hundreds of random graphs of
 * every shape in or_random_edges, weighted and unweighted, under every
 * combination of options (directedness, symmetrize, drop_self_loops, the six
 * duplicate policies), on contexts of 1, 2 and 3 threads.  Each result is
 * compared array for array with the oracle: CSR offsets, indices and weights,
 * the CSC (the oracle's transpose; for undirected graphs the CSR itself),
 * out- and in-degrees, and the accessors.  Also: from_csr's symmetry check,
 * a from_csr round trip, a graph large enough for the library's parallel
 * scans, and lg_graph_csc raced from several threads.
 */
#define _POSIX_C_SOURCE 200809L

#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <pthread.h>

#define NUM_CTX 3
static lg_context_t *ctx[NUM_CTX]; /* 1, 2 and 3 threads */

/* Detailed failure reports are capped so a systematic bug stays readable. */
static int reports_left = 20;
/* What graph_matches found different, for the failure report. */
static const char *mismatch = "";

static void report(const char *what, const char *shape, unsigned long long seed,
                   const lg_graph_options_t *o, bool weighted, int threads)
{
    if (reports_left <= 0) {
        mismatch = "";
        return;
    }
    reports_left--;
    fprintf(stderr,
            "  FAILED %s%s%s: shape %s seed %llu directedness %d symmetrize %d "
            "drop_self_loops %d duplicates %d weighted %d threads %d\n",
            what, mismatch[0] ? ", " : "", mismatch, shape, seed, (int)o->directedness,
            (int)o->symmetrize, (int)o->drop_self_loops, (int)o->duplicates, (int)weighted,
            threads);
    mismatch = "";
}

/* Everything observable about a built graph, against the oracle's graph.
 * Returns true when all of it matches, else false with `mismatch` set. */
static bool graph_matches(const lg_graph_t *g, const or_graph *o)
{
    const lg_edge_t *off = NULL, *coff = NULL;
    const lg_vertex_t *idx = NULL, *cidx = NULL;
    const float *w = NULL, *cw = NULL;
    bool ok = true;

    mismatch = "";
    if (lg_graph_num_vertices(g) != o->n || lg_graph_num_edges(g) != o->m) {
        mismatch = "num_vertices or num_edges";
        return false;
    }
    if (lg_graph_is_directed(g) != o->directed || lg_graph_is_weighted(g) != (o->w != NULL)) {
        mismatch = "is_directed or is_weighted";
        return false;
    }
    if (lg_graph_csr(g, &off, &idx, &w) != LG_OK ||
        !or_csr_equal(o->n, off, idx, w, o->off, o->idx, o->w)) {
        mismatch = "CSR arrays";
        return false;
    }
    if (lg_graph_csc(g, &coff, &cidx, &cw) != LG_OK) {
        mismatch = "lg_graph_csc status";
        return false;
    }
    if (o->directed) {
        or_graph t;
        or_transpose(o, &t);
        ok = or_csr_equal(o->n, coff, cidx, cw, t.off, t.idx, t.w);
        or_graph_free(&t);
    } else {
        /* "for an undirected graph they are the CSR arrays" */
        ok = coff == off && cidx == idx && cw == w;
    }
    if (!ok) {
        mismatch = "CSC arrays";
        return false;
    }

    lg_edge_t *deg = or_alloc((size_t)o->n, sizeof *deg);
    lg_edge_t *in_count = or_alloc((size_t)o->n, sizeof *in_count);
    if (lg_graph_out_degrees(g, deg) != LG_OK)
        ok = false;
    for (int64_t v = 0; ok && v < o->n; v++)
        ok = deg[v] == o->off[v + 1] - o->off[v];
    if (!ok)
        mismatch = "out-degrees";
    for (int64_t e = 0; e < o->m; e++)
        in_count[o->idx[e]]++;
    if (ok && lg_graph_in_degrees(g, deg) != LG_OK)
        ok = false, mismatch = "in-degrees status";
    for (int64_t v = 0; ok && v < o->n; v++)
        if (deg[v] != in_count[v])
            ok = false, mismatch = "in-degrees";
    free(deg);
    free(in_count);
    return ok;
}

/* Two built graphs with the same arrays (the thread-count independence check). */
static bool same_csr(const lg_graph_t *a, const lg_graph_t *b)
{
    const lg_edge_t *oa, *ob;
    const lg_vertex_t *ia, *ib;
    const float *wa, *wb;
    if (lg_graph_num_vertices(a) != lg_graph_num_vertices(b))
        return false;
    if (lg_graph_csr(a, &oa, &ia, &wa) != LG_OK || lg_graph_csr(b, &ob, &ib, &wb) != LG_OK)
        return false;
    return or_csr_equal(lg_graph_num_vertices(a), oa, ia, wa, ob, ib, wb);
}

static void set_options(lg_graph_options_t *o, int combo)
{
    lg_graph_options_init(o);
    o->directedness = (lg_directedness_t)(combo % 3);
    o->symmetrize = (combo / 3) % 2;
    o->drop_self_loops = (combo / 6) % 2;
    o->duplicates = (lg_duplicates_t)((combo / 12) % 6);
}
#define NUM_COMBOS (3 * 2 * 2 * 6)

/* ---- lg_graph_from_edges --------------------------------------------------------- */

static void test_from_edges_random(void)
{
    const int graphs = 144;
    for (int gi = 0; gi < graphs; gi++) {
        unsigned long long seed = 1000 + (unsigned long long)gi, rng = seed * 0x9E3779B9ull + 1;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool compare_threads = gi % 8 == 0;
        for (int combo = 0; combo < NUM_COMBOS; combo++) {
            /* a third of the combinations a graph, weighted or not, at random:
             * across the graphs each combination meets every shape both ways */
            const unsigned long long r = tu_rand(&rng) >> 33;
            if (r % 3 != 0)
                continue;
            const int weighted = (int)((r >> 4) & 1);
            lg_graph_options_t o;
            set_options(&o, combo);
            const float *w = weighted ? e.w : NULL;
            or_graph want;
            or_build(&want, e.n, e.E, e.src, e.dst, w, &o);
            lg_graph_t *g[NUM_CTX] = {NULL, NULL, NULL};
            int first = (combo + gi) % NUM_CTX,
                last = compare_threads ? first + NUM_CTX : first + 1;
            for (int c = first; c < last; c++) {
                int k = c % NUM_CTX;
                lg_status_t st = lg_graph_from_edges(ctx[k], e.n, e.E, e.src, e.dst, w, &o, &g[k]);
                CHECK(st == LG_OK);
                if (st != LG_OK) {
                    fprintf(stderr, "  %s: %s\n", lg_status_string(st), lg_last_error());
                    report("from_edges status", e.shape, seed, &o, weighted, k + 1);
                    continue;
                }
                bool ok = graph_matches(g[k], &want);
                CHECK(ok);
                if (!ok)
                    report("from_edges vs oracle", e.shape, seed, &o, weighted, k + 1);
            }
            if (compare_threads && g[0] && g[1] && g[2]) {
                CHECK(same_csr(g[0], g[1]));
                CHECK(same_csr(g[0], g[2]));
            }
            for (int k = 0; k < NUM_CTX; k++)
                lg_graph_free(&g[k]);
            or_graph_free(&want);
        }
        or_edges_free(&e);
    }
}

/* Hand-written cases whose answer is easy to state, as a check on the oracle
 * itself as much as on the library. */
static void test_from_edges_by_hand(void)
{
    /* undirected: (0,1,w=1) (1,0,w=2) (1,1,w=3) (2,1,w=4) (0,1,w=5) */
    const lg_vertex_t src[] = {0, 1, 1, 2, 0}, dst[] = {1, 0, 1, 1, 1};
    const float w[] = {1, 2, 3, 4, 5};
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    CHECK(o.directedness == LG_DIRECTEDNESS_DEFAULT && !o.symmetrize && !o.drop_self_loops &&
          o.duplicates == LG_DUPLICATES_KEEP);
    o.directedness = LG_UNDIRECTED;

    static const struct {
        lg_duplicates_t policy;
        int64_t m;
        lg_edge_t off[4];
        lg_vertex_t idx[9];
        float w[9];
    } cases[] = {
        /* row 0: 1 1 1; row 1: 0 0 0 1 2; row 2: 1 */
        {LG_DUPLICATES_KEEP,
         9,
         {0, 3, 8, 9},
         {1, 1, 1, 0, 0, 0, 1, 2, 1},
         {1, 2, 5, 1, 2, 5, 3, 4, 4}},
        {LG_DUPLICATES_SUM, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {8, 8, 3, 4, 4}},
        {LG_DUPLICATES_MIN, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {1, 1, 3, 4, 4}},
        {LG_DUPLICATES_MAX, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {5, 5, 3, 4, 4}},
        {LG_DUPLICATES_FIRST, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {1, 1, 3, 4, 4}},
        {LG_DUPLICATES_LAST, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {5, 5, 3, 4, 4}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        o.duplicates = cases[c].policy;
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[1], 3, 5, src, dst, w, &o, &g));
        if (!g)
            continue;
        const lg_edge_t *off;
        const lg_vertex_t *idx;
        const float *gw;
        CHECK_OK(lg_graph_csr(g, &off, &idx, &gw));
        CHECK(lg_graph_num_edges(g) == cases[c].m);
        CHECK(memcmp(off, cases[c].off, sizeof cases[c].off) == 0);
        if (lg_graph_num_edges(g) == cases[c].m) {
            CHECK(memcmp(idx, cases[c].idx, (size_t)cases[c].m * sizeof *idx) == 0);
            CHECK(memcmp(gw, cases[c].w, (size_t)cases[c].m * sizeof *gw) == 0);
        }
        or_graph want;
        or_build(&want, 3, 5, src, dst, w, &o);
        CHECK(want.m == cases[c].m && memcmp(want.off, cases[c].off, sizeof cases[c].off) == 0 &&
              memcmp(want.idx, cases[c].idx, (size_t)want.m * sizeof *want.idx) == 0 &&
              memcmp(want.w, cases[c].w, (size_t)want.m * sizeof *want.w) == 0);
        or_graph_free(&want);
        lg_graph_free(&g);
        CHECK(g == NULL);
    }

    /* NULL options mean the defaults: directed, keep everything. */
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges(ctx[0], 3, 5, src, dst, NULL, NULL, &g));
    if (g) {
        const lg_edge_t want_off[] = {0, 2, 4, 5};
        const lg_vertex_t want_idx[] = {1, 1, 0, 1, 1};
        const lg_edge_t *off;
        const lg_vertex_t *idx;
        const float *gw = (const float *)1;
        CHECK_OK(lg_graph_csr(g, &off, &idx, &gw));
        CHECK(lg_graph_is_directed(g) && !lg_graph_is_weighted(g) && gw == NULL);
        CHECK(memcmp(off, want_off, sizeof want_off) == 0);
        CHECK(memcmp(idx, want_idx, sizeof want_idx) == 0);
        /* any output pointer may be NULL */
        CHECK_OK(lg_graph_csr(g, NULL, NULL, NULL));
        CHECK_OK(lg_graph_csc(g, NULL, NULL, NULL));
        const lg_edge_t *coff;
        CHECK_OK(lg_graph_csc(g, &coff, NULL, NULL));
        const lg_edge_t want_coff[] = {0, 1, 5, 5};
        CHECK(memcmp(coff, want_coff, sizeof want_coff) == 0);
        lg_graph_free(&g);
    }

    /* Zero edges with NULL arrays is a graph of isolated vertices. */
    CHECK_OK(lg_graph_from_edges(ctx[0], 4, 0, NULL, NULL, NULL, NULL, &g));
    if (g) {
        CHECK(lg_graph_num_vertices(g) == 4 && lg_graph_num_edges(g) == 0);
        const lg_edge_t *off;
        CHECK_OK(lg_graph_csr(g, &off, NULL, NULL));
        CHECK(off[0] == 0 && off[4] == 0);
        lg_graph_free(&g);
    }
    /* The input arrays are copied: changing them afterwards changes nothing. */
    lg_vertex_t s2[] = {0, 1}, d2[] = {1, 2};
    float w2[] = {0.5f, 0.25f};
    CHECK_OK(lg_graph_from_edges(ctx[2], 3, 2, s2, d2, w2, NULL, &g));
    if (g) {
        s2[0] = 2;
        d2[0] = 0;
        w2[0] = 9.0f;
        const lg_vertex_t *idx;
        const float *gw;
        CHECK_OK(lg_graph_csr(g, NULL, &idx, &gw));
        CHECK(idx[0] == 1 && idx[1] == 2 && gw[0] == 0.5f && gw[1] == 0.25f);
        lg_graph_free(&g);
    }
}

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
        if (o.directedness == LG_UNDIRECTED && !o.symmetrize) {
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
                report("from_csr vs oracle", shape, seed, &o, weighted, k + 1);
            }
        } else {
            CHECK(st == LG_ERR_INVALID_ARGUMENT && g == NULL && lg_last_error()[0] != '\0');
            if (st != LG_ERR_INVALID_ARGUMENT)
                report("from_csr of a non-symmetric undirected CSR", shape, seed, &o, weighted,
                       k + 1);
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

/* ---- larger graphs: the library's parallel scans and long-row sorts ----------------- */

/* ---- weights at the edges of float ----------------------------------------------------- */

static void test_weight_extremes(void)
{
    lg_graph_options_t o;
    lg_graph_t *g = NULL;
    const float *gw = NULL;

    /* Summing duplicates of large finite weights overflows float: the graph
     * must still hold finite weights (its documented invariant), or the build
     * must be refused. */
    const lg_vertex_t s[] = {0, 0, 1}, d[] = {1, 1, 0};
    const float big[] = {3e38f, 3e38f, 1.0f};
    lg_graph_options_init(&o);
    o.duplicates = LG_DUPLICATES_SUM;
    lg_status_t st = lg_graph_from_edges(ctx[0], 2, 3, s, d, big, &o, &g);
    CHECK(st == LG_OK || st == LG_ERR_INVALID_ARGUMENT);
    if (st == LG_OK) {
        CHECK_OK(lg_graph_csr(g, NULL, NULL, &gw));
        bool finite = true;
        for (int64_t e = 0; e < lg_graph_num_edges(g); e++)
            finite = finite && isfinite(gw[e]) && gw[e] >= 0.0f;
        CHECK(finite);
        if (!finite)
            fprintf(stderr, "  duplicates 3e38 + 3e38 summed to weight %g\n", (double)gw[0]);
    } else {
        CHECK(g == NULL);
    }
    lg_graph_free(&g);
    /* MAX of the same copies is representable */
    o.duplicates = LG_DUPLICATES_MAX;
    CHECK_OK(lg_graph_from_edges(ctx[1], 2, 3, s, d, big, &o, &g));
    if (g) {
        CHECK_OK(lg_graph_csr(g, NULL, NULL, &gw));
        CHECK(lg_graph_num_edges(g) == 2 && gw[0] == 3e38f && gw[1] == 1.0f);
    }
    lg_graph_free(&g);

    /* -0.0 is a weight >= 0 and equal to 0.0: this CSR is symmetric */
    const lg_edge_t off[] = {0, 1, 2};
    const lg_vertex_t idx[] = {1, 0};
    const float zeros[] = {-0.0f, 0.0f};
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    st = lg_graph_from_csr(ctx[2], 2, off, idx, zeros, &o, &g);
    CHECK(st == LG_OK);
    if (st != LG_OK)
        fprintf(stderr, "  from_csr of a symmetric CSR with weights -0.0 / 0.0: %s: %s\n",
                lg_status_string(st), lg_last_error());
    lg_graph_free(&g);
    /* the same as edges */
    const lg_vertex_t zs[] = {0}, zd[] = {1};
    CHECK_OK(lg_graph_from_edges(ctx[2], 2, 1, zs, zd, zeros, &o, &g));
    lg_graph_free(&g);
}

static void test_large(void)
{
    unsigned long long rng = 424242;
    const int64_t n = 70000, E = 160000;
    or_edges e;
    or_edges_alloc(&e, n, E);
    e.shape = "large";
    for (int64_t i = 0; i < E; i++) {
        int64_t r = or_rand_below(&rng, n);
        /* half the edges leave vertex 5: a row longer than the builder's
         * per-thread sort scratch (65536), sorted on its own; three rows of
         * ~11000 arcs; the rest random */
        e.src[i] = (lg_vertex_t)(i % 2 == 0 ? 5 : i % 7 == 1 ? r % 3 : r);
        e.dst[i] = (lg_vertex_t)(i % 11 == 0 ? r % 50 : or_rand_below(&rng, n));
        e.w[i] = (float)or_rand_below(&rng, 64) / 4.0f;
    }
    static const int combos[] = {1 /* directed keep */,
                                 2 + 3 * 0 + 6 * 1 + 12 * 1 /* undirected sum */,
                                 1 + 3 + 12 * 5 /* directed symmetrize last */};
    for (size_t c = 0; c < sizeof combos / sizeof combos[0]; c++) {
        lg_graph_options_t o;
        set_options(&o, combos[c]);
        or_graph want;
        or_build(&want, n, E, e.src, e.dst, e.w, &o);
        lg_graph_t *g[NUM_CTX] = {NULL, NULL, NULL};
        for (int k = 0; k < NUM_CTX; k++) {
            CHECK_OK(lg_graph_from_edges(ctx[k], n, E, e.src, e.dst, e.w, &o, &g[k]));
            bool ok = g[k] && graph_matches(g[k], &want);
            CHECK(ok);
            if (!ok)
                report("large from_edges", e.shape, 424242, &o, true, k + 1);
        }
        if (g[0] && g[1] && g[2]) {
            CHECK(same_csr(g[0], g[1]));
            CHECK(same_csr(g[0], g[2]));
        }
        for (int k = 0; k < NUM_CTX; k++)
            lg_graph_free(&g[k]);
        or_graph_free(&want);
    }
    or_edges_free(&e);
}

/* ---- lg_graph_csc from many threads at once ------------------------------------------ */

#define RACERS 8

struct racer {
    const lg_graph_t *g;
    pthread_barrier_t *barrier;
    lg_status_t st;
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    lg_edge_t in_deg_of_0;
};

static void *race_csc(void *arg)
{
    struct racer *r = arg;
    pthread_barrier_wait(r->barrier);
    r->st = lg_graph_csc(r->g, &r->off, &r->idx, &r->w);
    return NULL;
}

static void test_csc_concurrent(void)
{
    for (int round = 0; round < 12; round++) {
        unsigned long long rng = 77 + (unsigned long long)round;
        const int64_t n = 3000, E = 20000;
        or_edges e;
        or_edges_alloc(&e, n, E);
        for (int64_t i = 0; i < E; i++) {
            e.src[i] = (lg_vertex_t)or_rand_below(&rng, n);
            e.dst[i] = (lg_vertex_t)or_rand_below(&rng, n);
            e.w[i] = (float)or_rand_below(&rng, 100) / 8.0f;
        }
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = LG_DIRECTED;
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[round % NUM_CTX], n, E, e.src, e.dst,
                                     round % 2 ? e.w : NULL, &o, &g));
        if (!g) {
            or_edges_free(&e);
            continue;
        }
        pthread_barrier_t barrier;
        pthread_barrier_init(&barrier, NULL, RACERS);
        struct racer r[RACERS];
        pthread_t th[RACERS];
        int started = 0;
        for (int t = 0; t < RACERS; t++) {
            r[t] = (struct racer){.g = g, .barrier = &barrier, .st = LG_ERR_INTERNAL};
            if (pthread_create(&th[t], NULL, race_csc, &r[t]) == 0)
                started++;
        }
        CHECK(started == RACERS);
        if (started != RACERS) {
            /* threads waiting on the barrier would never leave: give up */
            fprintf(stderr, "cannot start %d threads\n", RACERS);
            exit(EXIT_FAILURE);
        }
        for (int t = 0; t < RACERS; t++)
            pthread_join(th[t], NULL);
        pthread_barrier_destroy(&barrier);
        bool same = true;
        for (int t = 0; t < RACERS; t++) {
            CHECK(r[t].st == LG_OK);
            same = same && r[t].off == r[0].off && r[t].idx == r[0].idx && r[t].w == r[0].w;
        }
        CHECK(same);
        or_graph want, t;
        or_build(&want, n, E, e.src, e.dst, round % 2 ? e.w : NULL, &o);
        or_transpose(&want, &t);
        CHECK(r[0].st == LG_OK && or_csr_equal(n, r[0].off, r[0].idx, r[0].w, t.off, t.idx, t.w));
        /* a later call returns the cached arrays */
        const lg_edge_t *off2;
        CHECK_OK(lg_graph_csc(g, &off2, NULL, NULL));
        CHECK(off2 == r[0].off);
        or_graph_free(&t);
        or_graph_free(&want);
        lg_graph_free(&g);
        or_edges_free(&e);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    bool opened = or_open_contexts(ctx, NUM_CTX);
    CHECK(opened);
    if (!opened)
        TEST_EXIT();
    for (int k = 0; k < NUM_CTX; k++) {
        int threads = 0;
        lg_backend_t b = LG_BACKEND_AUTO;
        CHECK_OK(lg_context_get_num_threads(ctx[k], &threads));
        CHECK(threads == k + 1);
        CHECK_OK(lg_context_get_backend(ctx[k], &b));
        CHECK(b == LG_BACKEND_CPU);
    }
    test_from_edges_by_hand();
    test_from_csr_by_hand();
    test_from_edges_random();
    test_from_csr_random();
    test_weight_extremes();
    test_large();
    test_csc_concurrent();
    for (int k = 0; k < NUM_CTX; k++)
        lg_context_free(&ctx[k]);
    CHECK(ctx[0] == NULL);
    TEST_EXIT();
}
