/*
 * test_weights64.c - float64 and negative weights, against CSR arrays the
 * test computes itself.
 *
 * lg_graph_from_edges_f64 (directed and undirected) with weights float32
 * cannot hold (0.1, 1/3, 1e-300, +-1e300, -2.5): the weight type, the exact
 * weights in CSR order (lg_graph_weights_f64), their float32 roundings in
 * lg_graph_csr (beyond float's range: +-FLT_MAX), the negative flag.  The
 * duplicates policies merge in double.  options.weight_type widens float32
 * input, rounds float64 input (refusing a weight beyond float's range) and
 * refuses an unknown type.  lg_graph_from_csr_f64 checks symmetry in double
 * and refuses NaN and infinite weights.  .lgb keeps the type (flag bit 2,
 * value 4) and the bits; lg_read_edges refuses a float64 .lgb; .wel holds a
 * float64 graph's weights as 17-digit doubles and reads back as their float32
 * roundings, or as float64 every bit of them; text read as float64 rounds
 * each decimal as strtod (test_text_float64).  lg_graph_host_bytes
 * counts 12 bytes of weights an arc; lg_graph_weights_f64(in_edges) follows
 * lg_graph_csc's arcs.
 */
#define _POSIX_C_SOURCE 200809L

#include "errors_util.h"
#include "libgraph.h"
#include "test_util.h"

#include <float.h>
#include <math.h>
#include <unistd.h>

#define N 4
#define E 7
/* 2->0, 0->3, 0->1, 3->2, 1->2, 2->1 and a self-loop 0->0 */
static const lg_vertex_t SRC[E] = {2, 0, 0, 3, 1, 2, 0}, DST[E] = {0, 3, 1, 2, 2, 1, 0};
static const double W[E] = {0.1, 1.0 / 3.0, 1e-300, 1e300, -2.5, -1e300, 0.7};
#define MAXM (2 * E)
/* weights a float holds, and their doubles */
static const float W32[E] = {0.1f, 0.5f, 1.0f, 2.0f, -2.5f, 3.0f, 0.7f};
static const double W32D[E] = {(double)0.1f, 0.5, 1.0, 2.0, -2.5, 3.0, (double)0.7f};

/* A float64 weight's float32 copy as documented: rounded, clamped to +-FLT_MAX. */
static float rounded(double w)
{
    return w > FLT_MAX ? FLT_MAX : w < -FLT_MAX ? -FLT_MAX : (float)w;
}

/* The CSR of edges src/dst/w (both arcs of each undirected edge but a
 * self-loop), rows sorted by destination, stable; returns the arc count. */
static int64_t expect_csr(int n, int m0, const lg_vertex_t *src, const lg_vertex_t *dst,
                          const double *w, bool undirected, lg_edge_t *off, lg_vertex_t *idx,
                          double *ew)
{
    struct arc {
        lg_vertex_t u, v;
        double w;
    } a[MAXM], t;
    int m = 0;
    for (int i = 0; i < m0; i++) {
        a[m++] = (struct arc){src[i], dst[i], w[i]};
        if (undirected && src[i] != dst[i])
            a[m++] = (struct arc){dst[i], src[i], w[i]};
    }
    for (int i = 1; i < m; i++) /* insertion sort by (u, v): stable */
        for (int j = i;
             j > 0 && (a[j - 1].u > a[j].u || (a[j - 1].u == a[j].u && a[j - 1].v > a[j].v)); j--)
            t = a[j], a[j] = a[j - 1], a[j - 1] = t;
    memset(off, 0, (size_t)(n + 1) * sizeof *off);
    for (int e = 0; e < m; e++)
        off[a[e].u + 1]++, idx[e] = a[e].v, ew[e] = a[e].w;
    for (int v = 0; v < n; v++)
        off[v + 1] += off[v];
    return m;
}

/* g is a float64 graph with exactly these arcs (in_edges: lg_graph_csc's)
 * and weights (bits), and the float weights are their roundings. */
static void check_arcs(const lg_graph_t *g, bool in_edges, int n, int64_t m, const lg_edge_t *off,
                       const lg_vertex_t *idx, const double *ew)
{
    const lg_edge_t *go = NULL;
    const lg_vertex_t *gi = NULL;
    const float *gw = NULL;
    const double *g64 = NULL;
    CHECK(lg_graph_weight_type(g) == LG_WEIGHTS_FLOAT64 && lg_graph_is_weighted(g));
    CHECK(lg_graph_num_edges(g) == m);
    CHECK_OK(lg_graph_weights_f64(g, in_edges, &g64)); /* first: it builds the CSC */
    CHECK_OK((in_edges ? lg_graph_csc : lg_graph_csr)(g, &go, &gi, &gw));
    CHECK(go && gi && gw && g64);
    if (!go || !gi || !gw || !g64 || lg_graph_num_edges(g) != m)
        return;
    CHECK(memcmp(go, off, (size_t)(n + 1) * sizeof *off) == 0);
    CHECK(memcmp(gi, idx, (size_t)m * sizeof *idx) == 0);
    CHECK(memcmp(g64, ew, (size_t)m * sizeof *ew) == 0);
    bool floats = true, negative = false;
    for (int64_t e = 0; e < m; e++)
        floats = floats && gw[e] == rounded(ew[e]), negative = negative || ew[e] < 0;
    CHECK(floats);
    CHECK(lg_graph_has_negative_weights(g) == negative);
}

/* check_arcs also checks the negative flag, both ways, on every graph. */
static void test_from_edges_f64(void)
{
    lg_edge_t off[N + 1];
    lg_vertex_t idx[MAXM];
    double ew[MAXM];
    lg_graph_t *g = NULL;

    /* the roundings themselves: 1e-300 underflows to 0, 1e300 clamps */
    CHECK((float)1e-300 == 0.0f);
    CHECK(rounded(1e300) == FLT_MAX && rounded(-1e300) == -FLT_MAX);

    int64_t m = expect_csr(N, E, SRC, DST, W, false, off, idx, ew);
    CHECK(m == 7 && off[1] == 3 && idx[0] == 0 && ew[1] == 1e-300 && ew[2] == 1.0 / 3.0);
    CHECK_OK(lg_graph_from_edges_f64(ctx, N, E, SRC, DST, W, tu_directed(), &g));
    check_arcs(g, false, N, m, off, idx, ew);
    const float *gw = NULL;
    CHECK_OK(lg_graph_csr(g, NULL, NULL, &gw));
    /* row 0: 0 (0.7), 1 (1e-300), 3 (1/3); row 1: 2 (-2.5); row 2: 0 (0.1), 1 (-1e300); row 3: 2 */
    const float want32[7] = {0.7f, 0.0f, (float)(1.0 / 3.0), -2.5f, 0.1f, -FLT_MAX, FLT_MAX};
    CHECK(gw && memcmp(gw, want32, sizeof want32) == 0);
    lg_graph_free(&g);

    m = expect_csr(N, E, SRC, DST, W, true, off, idx, ew);
    CHECK_OK(lg_graph_from_edges_f64(ctx, N, E, SRC, DST, W, NULL, &g));
    CHECK(m == 13 && !lg_graph_is_directed(g));
    check_arcs(g, false, N, m, off, idx, ew);
    const double *in64 = NULL, *out64 = NULL;
    CHECK_OK(lg_graph_weights_f64(g, false, &out64));
    CHECK_OK(lg_graph_weights_f64(g, true, &in64)); /* undirected: the CSR's own */
    CHECK(in64 && in64 == out64);
    lg_graph_free(&g);
}

static void test_duplicates(void)
{
    /* 0->1 twice (0.1, 0.2); 1->2 three times, equal as floats, not as doubles */
    const double a = 1.0 + 0x1p-40, b = 1.0, c = 1.0 + 0x1p-41;
    const lg_vertex_t src[5] = {0, 1, 0, 1, 1}, dst[5] = {1, 2, 1, 2, 2};
    const double w[5] = {0.1, a, 0.2, b, c};
    /* the arcs 0->1 and 1->2 under SUM, MIN, MAX, FIRST, LAST (1 .. 5) */
    const double want[5][2] = {{0.1 + 0.2, a + b + c}, {0.1, b}, {0.2, a}, {0.1, a}, {0.2, c}};
    CHECK(0.1 + 0.2 != 0.3 && 0.1 + 0.2 != (double)(0.1f + 0.2f));
    for (int i = 0; i < 5; i++) {
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = LG_DIRECTED;
        o.duplicates = (lg_duplicates_t)(LG_DUPLICATES_SUM + i);
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges_f64(ctx, 3, 5, src, dst, w, &o, &g));
        const lg_edge_t off[4] = {0, 1, 2, 2};
        const lg_vertex_t idx[2] = {1, 2};
        check_arcs(g, false, 3, 2, off, idx, want[i]);
        lg_graph_free(&g);
    }
}

static void test_weight_type_option(void)
{
    const lg_vertex_t src[3] = {0, 1, 2}, dst[3] = {1, 2, 0};
    const float w32[3] = {0.1f, -2.5f, 3.0e38f};
    const double w64[3] = {0.1, 1.0 / 3.0, -1e-300};
    lg_graph_options_t o;
    lg_graph_t *g = NULL;
    const double *g64 = NULL;
    const float *gw = NULL;

    /* float32 in, float64 asked: the floats widened (0.1f, not 0.1) */
    lg_graph_options_init(&o);
    o.directedness = LG_DIRECTED;
    o.weight_type = LG_WEIGHTS_FLOAT64;
    CHECK_OK(lg_graph_from_edges(ctx, 3, 3, src, dst, w32, &o, &g));
    const lg_edge_t off[4] = {0, 1, 2, 3};
    const double wide[3] = {(double)0.1f, -2.5, (double)3.0e38f};
    check_arcs(g, false, 3, 3, off, dst, wide);
    CHECK_OK(lg_graph_csr(g, NULL, NULL, &gw));
    CHECK(gw && memcmp(gw, w32, sizeof w32) == 0);
    lg_graph_free(&g);

    /* float64 in, float32 asked: a float32 graph of the roundings */
    o.weight_type = LG_WEIGHTS_FLOAT32;
    CHECK_OK(lg_graph_from_edges_f64(ctx, 3, 3, src, dst, w64, &o, &g));
    CHECK(lg_graph_weight_type(g) == LG_WEIGHTS_FLOAT32);
    g64 = w64; /* must be overwritten with NULL */
    CHECK_OK(lg_graph_weights_f64(g, false, &g64));
    CHECK(g64 == NULL && lg_graph_csr(g, NULL, NULL, &gw) == LG_OK);
    CHECK(gw && gw[0] == 0.1f && gw[1] == (float)(1.0 / 3.0) && gw[2] == 0.0f);
    /* -1e-300 rounds to -0.0f, which is not < 0: as the float32 graph sees it */
    CHECK(!lg_graph_has_negative_weights(g));
    lg_graph_free(&g);

    /* a weight beyond float's range cannot be float32 */
    const double big[3] = {1.0, 2.0, 1e300};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges_f64(ctx, 3, 3, src, dst, big, &o, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("edge 2 (2 -> 0): weight 1e+300 is beyond float32's range");
    CHECK(g == POISON_GRAPH);

    o.weight_type = (lg_weight_type_t)7;
    CHECK_STATUS(lg_graph_from_edges_f64(ctx, 3, 3, src, dst, w64, &o, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("unknown weight_type");
    CHECK_STATUS(lg_graph_from_csr_f64(ctx, 3, off, dst, w64, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("unknown weight_type");
    CHECK(g == POISON_GRAPH);
}

static void test_from_csr_f64(void)
{
    /* undirected triangle 0-1 (0.1), 0-2 (1e300), 1-2 (-2.5), mirrored */
    const lg_edge_t off[4] = {0, 2, 4, 6};
    const lg_vertex_t idx[6] = {1, 2, 0, 2, 0, 1};
    const double w[6] = {0.1, 1e300, 0.1, -2.5, 1e300, -2.5};
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_csr_f64(ctx, 3, off, idx, w, NULL, &g));
    check_arcs(g, false, 3, 6, off, idx, w);
    lg_graph_free(&g);

    /* 0-1 weighs 1 one way and 1 + 2^-40 the other: equal floats, unequal doubles */
    const lg_edge_t off2[3] = {0, 1, 2};
    const lg_vertex_t idx2[2] = {1, 0};
    const double w2[2] = {1.0, 1.0 + 0x1p-40};
    CHECK((float)w2[0] == (float)w2[1]);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr_f64(ctx, 2, off2, idx2, w2, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("symmetric");
    CHECK(g == POISON_GRAPH);
    /* as float32 (the check after the rounding) they are mirrored */
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.weight_type = LG_WEIGHTS_FLOAT32;
    CHECK_OK(lg_graph_from_csr_f64(ctx, 2, off2, idx2, w2, &o, &g));
    CHECK(lg_graph_weight_type(g) == LG_WEIGHTS_FLOAT32 && lg_graph_num_edges(g) == 2);
    lg_graph_free(&g);

    /* NaN and infinite weights: the arc is named */
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++) {
        double wb[6];
        memcpy(wb, w, sizeof wb);
        wb[3] = bad[i];
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_csr_f64(ctx, 3, off, idx, wb, tu_directed(), &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("edge 3 (1 -> 2)");
        CHECK_MESSAGE("not finite");
        CHECK(g == POISON_GRAPH);
    }
}

/* The flags word of a .lgb (offset 12, little-endian); ~0u when unreadable. */
static uint32_t lgb_flags(const char *path)
{
    unsigned char b[16] = {0};
    FILE *f = fopen(path, "rb");
    if (!f || fread(b, 1, sizeof b, f) != sizeof b)
        memset(b + 12, 0xff, 4);
    if (f)
        fclose(f);
    return (uint32_t)b[12] | (uint32_t)b[13] << 8 | (uint32_t)b[14] << 16 | (uint32_t)b[15] << 24;
}

static void test_files(void)
{
    const char *lgb = LG_TEST_TMP_DIR "/test_weights64.lgb";
    const char *wel = LG_TEST_TMP_DIR "/test_weights64.wel";
    lg_edge_t off[N + 1];
    lg_vertex_t idx[MAXM];
    double ew[MAXM];
    lg_graph_t *g = NULL, *r = NULL;
    lg_edge_part_t part;

    for (int undirected = 0; undirected < 2; undirected++) {
        const int64_t m = expect_csr(N, E, SRC, DST, W, undirected, off, idx, ew);
        CHECK_OK(
            lg_graph_from_edges_f64(ctx, N, E, SRC, DST, W, undirected ? NULL : tu_directed(), &g));
        CHECK_OK(lg_graph_write(ctx, g, lgb, LG_FORMAT_AUTO));
        CHECK(lgb_flags(lgb) == (undirected ? 2u | 4u : 1u | 2u | 4u));
        CHECK_OK(lg_graph_read(ctx, lgb, LG_FORMAT_AUTO, NULL, &r));
        CHECK(lg_graph_is_directed(r) == !undirected);
        check_arcs(r, false, N, m, off, idx, ew);
        CHECK_STATUS(lg_read_edges(ctx, lgb, LG_FORMAT_AUTO, 0, 1, &part), LG_ERR_UNSUPPORTED);
        CHECK_MESSAGE("float64");
        lg_graph_free(&r);
        lg_graph_free(&g);
        /* asked for as float32, 1e300 does not fit: the reader's error, naming the file */
        lg_graph_options_t as32;
        lg_graph_options_init(&as32);
        as32.weight_type = LG_WEIGHTS_FLOAT32;
        r = POISON_GRAPH;
        CHECK_STATUS(lg_graph_read(ctx, lgb, LG_FORMAT_AUTO, &as32, &r), LG_ERR_IO);
        CHECK(r == POISON_GRAPH && strncmp(lg_last_error(), lgb, strlen(lgb)) == 0);
        CHECK_MESSAGE(": lg_graph_read: edge ");
        CHECK_MESSAGE("e+300 is beyond float32's range");
        r = NULL;
    }

    /* a float32 graph's .lgb stays float32, and lg_read_edges reads it */
    CHECK_OK(lg_graph_from_edges(ctx, N, E, SRC, DST, W32, tu_directed(), &g));
    CHECK_OK(lg_graph_write(ctx, g, lgb, LG_FORMAT_AUTO));
    CHECK(lgb_flags(lgb) == (1u | 2u));
    CHECK_OK(lg_graph_read(ctx, lgb, LG_FORMAT_AUTO, NULL, &r));
    const float *gw = NULL, *rw = NULL;
    const double *r64 = W; /* must be overwritten with NULL */
    CHECK_OK(lg_graph_weights_f64(r, false, &r64));
    CHECK(lg_graph_weight_type(r) == LG_WEIGHTS_FLOAT32 && r64 == NULL);
    CHECK(lg_graph_csr(g, NULL, NULL, &gw) == LG_OK && lg_graph_csr(r, NULL, NULL, &rw) == LG_OK);
    CHECK(gw && rw && memcmp(gw, rw, E * sizeof *gw) == 0 && lg_graph_has_negative_weights(r));
    memset(&part, 0, sizeof part);
    CHECK_OK(lg_read_edges(ctx, lgb, LG_FORMAT_AUTO, 0, 1, &part));
    CHECK(part.count == E && part.weights != NULL);
    lg_edge_part_free(&part);
    lg_graph_free(&r), lg_graph_free(&g);
    unlink(lgb);

    /* .wel: text_write.c writes a float64 graph's exact weights (%.17g); the
     * text reader reads float32 (weights in float's range here: 1e300 and
     * 1e-300 would not read back as float32) */
    const double wt[E] = {0.1, 1.0 / 3.0, 1e-30, 1e30, -2.5, -0.2, 0.7};
    const int64_t m = expect_csr(N, E, SRC, DST, wt, false, off, idx, ew);
    CHECK_OK(lg_graph_from_edges_f64(ctx, N, E, SRC, DST, wt, tu_directed(), &g));
    CHECK_OK(lg_graph_write(ctx, g, wel, LG_FORMAT_AUTO));
    FILE *f = fopen(wel, "r");
    char line[128];
    int64_t e = 0;
    bool exact = f != NULL;
    while (f && fgets(line, sizeof line, f))
        if (line[0] != '#') {
            int u = -1, v = -1;
            char wtext[64];
            exact = exact && e < m && sscanf(line, "%d %d %63s", &u, &v, wtext) == 3 &&
                    v == idx[e] && u >= 0 && u < N && off[u] <= e && e < off[u + 1] &&
                    strtod(wtext, NULL) == ew[e];
            e++;
        }
    if (f)
        fclose(f);
    CHECK(exact && e == m);
    CHECK_OK(lg_graph_read(ctx, wel, LG_FORMAT_AUTO, NULL, &r));
    CHECK(lg_graph_weight_type(r) == LG_WEIGHTS_FLOAT32 && lg_graph_is_directed(r));
    CHECK(lg_graph_num_edges(r) == m && lg_graph_csr(r, NULL, NULL, &rw) == LG_OK);
    bool floats = rw != NULL && lg_graph_num_edges(r) == m;
    for (int64_t k = 0; floats && k < m; k++)
        floats = rw[k] == (float)ew[k];
    CHECK(floats);
    lg_graph_free(&r);
    /* read as float64 (weight_type), the 17 digits give back every double */
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.weight_type = LG_WEIGHTS_FLOAT64;
    CHECK_OK(lg_graph_read(ctx, wel, LG_FORMAT_AUTO, &o, &r));
    check_arcs(r, false, N, m, off, idx, ew);
    lg_graph_free(&r);
    lg_graph_free(&g);
    unlink(wel);
}

/* A text file read as float64: each decimal rounded once to the nearest
 * double (strtod's), on the fast path (at most 15 digits, exponents within
 * 22) and off it (17 digits, 1e-300, 1e300, signs), in .wel and .mtx, from
 * many lines (the reader's parallel chunks); weights beyond float's range
 * are read as float64 and refused as float32, each with its message. */
static void test_text_float64(void)
{
    enum { LINES = 6000, NV = 97 };
    const char *wel = LG_TEST_TMP_DIR "/test_weights64_text.wel";
    const char *mtx = LG_TEST_TMP_DIR "/test_weights64_text.mtx";
    FILE *f = fopen(wel, "w"), *g2 = fopen(mtx, "w");
    lg_vertex_t *src = malloc(LINES * sizeof *src), *dst = malloc(LINES * sizeof *dst);
    double *w = malloc(LINES * sizeof *w);
    CHECK(f && g2 && src && dst && w);
    if (!f || !g2 || !src || !dst || !w)
        goto done;
    fprintf(g2, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", NV, NV, LINES);
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < LINES; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        char text[64];
        const int kind = (int)(x % 5);
        const double mag = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
        if (kind == 0) /* short decimals: the fast path */
            snprintf(text, sizeof text, "%.*f", (int)(x >> 3) % 7, 100.0 * mag);
        else if (kind == 1) /* 17 significant digits: strtod */
            snprintf(text, sizeof text, "%.17g", mag);
        else if (kind == 2) /* far outside float's range */
            snprintf(text, sizeof text, "%.9ge%d", mag + 1.0, (x >> 20) % 2 ? 300 : -300);
        else if (kind == 3)
            snprintf(text, sizeof text, "-%.3g", 10.0 * mag);
        else
            snprintf(text, sizeof text, "0.%d", (int)(x >> 40) % 10);
        src[i] = (lg_vertex_t)((x >> 24) % NV), dst[i] = (lg_vertex_t)((x >> 40) % NV);
        w[i] = strtod(text, NULL);
        w[i] = w[i] == 0.0 ? 0.0 : w[i]; /* the reader's -0 is 0 */
        fprintf(f, "%d %d %s\n", src[i], dst[i], text);
        fprintf(g2, "%d %d %s\n", src[i] + 1, dst[i] + 1, text);
    }
    fclose(f), fclose(g2);
    f = g2 = NULL;
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.weight_type = LG_WEIGHTS_FLOAT64;
    o.directedness = LG_DIRECTED;
    lg_graph_t *want = NULL, *got = NULL;
    CHECK_OK(lg_graph_from_edges_f64(ctx, NV, LINES, src, dst, w, &o, &want));
    const char *paths[2] = {wel, mtx};
    for (int k = 0; k < 2 && want; k++) {
        CHECK_OK(lg_graph_read(ctx, paths[k], LG_FORMAT_AUTO, &o, &got));
        const lg_edge_t *wo = NULL, *go = NULL;
        const lg_vertex_t *wi = NULL, *gi = NULL;
        const double *w64 = NULL, *g64 = NULL;
        CHECK(got && lg_graph_weight_type(got) == LG_WEIGHTS_FLOAT64);
        if (got && lg_graph_csr(want, &wo, &wi, NULL) == LG_OK &&
            lg_graph_csr(got, &go, &gi, NULL) == LG_OK &&
            lg_graph_weights_f64(want, false, &w64) == LG_OK &&
            lg_graph_weights_f64(got, false, &g64) == LG_OK) {
            const int64_t m = lg_graph_num_edges(want);
            CHECK(lg_graph_num_edges(got) == m);
            CHECK(memcmp(wo, go, (NV + 1) * sizeof *wo) == 0);
            CHECK(memcmp(wi, gi, (size_t)m * sizeof *wi) == 0);
            CHECK(memcmp(w64, g64, (size_t)m * sizeof *w64) == 0); /* every bit */
            CHECK(lg_graph_has_negative_weights(got));
        }
        lg_graph_free(&got);
        /* as float32 (the default) the same files are refused: 1e300 */
        got = POISON_GRAPH;
        CHECK_STATUS(lg_graph_read(ctx, paths[k], LG_FORMAT_AUTO, NULL, &got), LG_ERR_IO);
        CHECK(got == POISON_GRAPH && strstr(lg_last_error(), "too large for a float"));
        got = NULL;
    }
    lg_graph_free(&want);
    /* a weight beyond double's range, or that rounds to 0 as a double */
    static const char *const bad[] = {"1e400", "1e-400", "nan", "0x1p3"};
    static const char *const says[] = {"too large for a double", "rounds to 0 as a double",
                                       "is NaN", "is not a decimal number"};
    for (int k = 0; k < 4; k++) {
        f = fopen(wel, "w");
        CHECK(f != NULL);
        if (!f)
            break;
        fprintf(f, "0 1 2.5\n1 2 %s\n", bad[k]);
        fclose(f);
        f = NULL;
        got = POISON_GRAPH;
        CHECK_STATUS(lg_graph_read(ctx, wel, LG_FORMAT_AUTO, &o, &got), LG_ERR_IO);
        CHECK(got == POISON_GRAPH && strstr(lg_last_error(), says[k]) &&
              strstr(lg_last_error(), ":2: "));
    }
done:
    if (f)
        fclose(f);
    if (g2)
        fclose(g2);
    free(src), free(dst), free(w);
    unlink(wel), unlink(mtx);
}

static void test_host_bytes(void)
{
    lg_graph_t *g32 = NULL, *g64 = NULL, *g0 = NULL;
    CHECK_OK(lg_graph_from_edges(ctx, N, E, SRC, DST, W32, NULL, &g32));
    CHECK_OK(lg_graph_from_edges_f64(ctx, N, E, SRC, DST, W32D, NULL, &g64));
    CHECK_OK(lg_graph_from_edges(ctx, N, E, SRC, DST, NULL, NULL, &g0));
    const size_t m = (size_t)lg_graph_num_edges(g64); /* arcs: 13 */
    CHECK(m == 13 && lg_graph_num_edges(g32) == 13);
    CHECK(lg_graph_host_bytes(g64) - lg_graph_host_bytes(g32) == 8 * m);
    CHECK(lg_graph_host_bytes(g64) - lg_graph_host_bytes(g0) == 12 * m);
    lg_graph_free(&g32), lg_graph_free(&g64), lg_graph_free(&g0);
    /* directed, once the CSC is built: its weights count twice */
    CHECK_OK(lg_graph_from_edges(ctx, N, E, SRC, DST, W32, tu_directed(), &g32));
    CHECK_OK(lg_graph_from_edges_f64(ctx, N, E, SRC, DST, W32D, tu_directed(), &g64));
    CHECK(lg_graph_host_bytes(g64) - lg_graph_host_bytes(g32) == 8 * (size_t)E);
    CHECK_OK(lg_graph_csc(g32, NULL, NULL, NULL));
    CHECK_OK(lg_graph_csc(g64, NULL, NULL, NULL));
    CHECK(lg_graph_host_bytes(g64) - lg_graph_host_bytes(g32) == 16 * (size_t)E);
    lg_graph_free(&g32), lg_graph_free(&g64);
}

static void test_in_edges(void)
{
    /* the transpose: the CSR of the reversed edges (no pair repeats) */
    lg_edge_t off[N + 1];
    lg_vertex_t idx[MAXM];
    double ew[MAXM];
    const int64_t m = expect_csr(N, E, DST, SRC, W, false, off, idx, ew);
    lg_graph_t *g = NULL;
    const double *in64 = NULL, *out64 = NULL;
    CHECK_OK(lg_graph_from_edges_f64(ctx, N, E, SRC, DST, W, tu_directed(), &g));
    check_arcs(g, true, N, m, off, idx, ew);
    CHECK_OK(lg_graph_weights_f64(g, true, &in64));
    CHECK_OK(lg_graph_weights_f64(g, false, &out64));
    CHECK(in64 && out64 && in64 != out64);
    lg_graph_free(&g);
}

int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    static void (*const tests[])(void) = {
        test_from_edges_f64, test_duplicates, test_weight_type_option, test_from_csr_f64,
        test_files,          test_host_bytes, test_in_edges,   test_text_float64,
    };
    return errors_main(tests, sizeof tests / sizeof tests[0]);
}
