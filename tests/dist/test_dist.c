/*
 * test_dist.c - libgraph_dist against single-process libgraph, run under
 * `mpiexec -n P` for several P (tests/CMakeLists.txt).
 *
 * Every rank also builds the whole graph with lg_graph_from_edges /
 * lg_generate (the graphs are small) and checks its own share of each
 * distributed result against the single-process one: BFS distances and
 * component labels exactly, BFS parents as a valid tree, PageRank within
 * 1e-9 in L1 over all ranks.  Edge shares are uneven, some empty, and some
 * ranks own no vertex at all.  Bad input must give every rank the same
 * status and the same message.
 */
#include "libgraph_dist.h"
#include "test_util.h"

#include <math.h>
#include <mpi.h>

static int rank, size;
static lg_dist_context_t *dctx;

/* All ranks returned `want` with one message, which contains sub. */
#define CHECK_ALL_FAIL(call, want, sub) check_all_fail((call), (want), (sub), __LINE__)

static void check_all_fail(lg_status_t got, lg_status_t want, const char *sub, int line)
{
    char mine[512], first[512];
    snprintf(mine, sizeof mine, "%s", lg_last_error());
    memcpy(first, mine, sizeof first);
    MPI_Bcast(first, (int)sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
    int ok = got == want && strcmp(mine, first) == 0 && strstr(mine, sub) != NULL;
    if (!ok)
        fprintf(stderr, "rank %d, line %d: %s \"%s\"; wanted %s with \"%s\" (rank 0: \"%s\")\n",
                rank, line, lg_status_string(got), mine, lg_status_string(want), sub, first);
    CHECK(ok);
}

/* A status alone (the single-process calls). */
#define CHECK_STATUS_PLAIN(call, want) CHECK((call) == (want))

/* Whether every rank passed ok. */
static int all(int ok)
{
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return ok;
}

static bool has_arc(const lg_graph_t *g, int64_t u, int64_t v)
{
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    lg_graph_csr(g, &off, &idx, NULL);
    for (lg_edge_t k = off[u]; k < off[u + 1]; k++)
        if (idx[k] == v)
            return true;
    return false;
}

static void compare_bfs(const lg_dist_graph_t *dg, const lg_graph_t *sg, const int64_t *sources,
                        int64_t ns, int alpha, int max_depth)
{
    const int64_t n = lg_graph_num_vertices(sg);
    int64_t first, nl;
    lg_dist_graph_local_range(dg, &first, &nl);
    lg_bfs_options_t o;
    lg_bfs_options_init(&o);
    o.direction_alpha = alpha;
    o.max_depth = max_depth;
    lg_vertex_t *src32 = malloc((size_t)ns * sizeof *src32);
    for (int64_t i = 0; i < ns; i++)
        src32[i] = (lg_vertex_t)sources[i];
    int32_t *ref = malloc((size_t)n * sizeof *ref + 1),
            *dist = malloc((size_t)nl * sizeof *dist + 1);
    int64_t *par = malloc((size_t)nl * sizeof *par + 1);
    CHECK_OK(lg_bfs_multi(NULL, sg, src32, ns, &o, ref, NULL));
    lg_dist_traffic_t t;
    CHECK_OK(lg_dist_bfs(dctx, dg, sources, ns, &o, dist, par, &t));
    int ok = 1;
    for (int64_t v = 0; v < nl; v++) {
        const int64_t gv = first + v;
        ok &= dist[v] == ref[gv];
        if (dist[v] == 0)
            ok &= par[v] == gv;
        else if (dist[v] > 0)
            ok &=
                par[v] >= 0 && par[v] < n && ref[par[v]] == dist[v] - 1 && has_arc(sg, par[v], gv);
        else
            ok &= par[v] == -1;
    }
    if (!ok)
        fprintf(stderr, "rank %d: BFS differs (alpha %d, depth %d)\n", rank, alpha, max_depth);
    CHECK(all(ok));
    CHECK(t.rounds >= 1 && t.bytes_sent >= 0 && t.max_bytes_sent >= t.bytes_sent &&
          t.total_bytes >= t.max_bytes_sent);
    free(src32);
    free(ref);
    free(dist);
    free(par);
}

static void compare_pagerank(const lg_dist_graph_t *dg, const lg_graph_t *sg, bool personalized)
{
    const int64_t n = lg_graph_num_vertices(sg);
    int64_t first, nl;
    lg_dist_graph_local_range(dg, &first, &nl);
    lg_pagerank_options_t o;
    lg_pagerank_options_init(&o);
    o.tol = 1e-10;
    double *p = NULL;
    if (personalized) { /* weights on every third vertex */
        p = malloc((size_t)n * sizeof *p + 1);
        for (int64_t v = 0; v < n; v++)
            p[v] = v % 3 == 0 ? 1.0 + (double)(v % 7) : 0.0;
    }
    double *ref = malloc((size_t)n * sizeof *ref + 1), *x = malloc((size_t)nl * sizeof *x + 1);
    lg_pagerank_result_t rr, dr;
    o.personalization = p;
    CHECK_OK(lg_pagerank(NULL, sg, &o, ref, &rr));
    o.personalization = p ? p + first : NULL;
    lg_dist_traffic_t t;
    CHECK_OK(lg_dist_pagerank(dctx, dg, &o, x, &dr, &t));
    double l1 = 0.0;
    for (int64_t v = 0; v < nl; v++)
        l1 += fabs(x[v] - ref[first + v]);
    MPI_Allreduce(MPI_IN_PLACE, &l1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (!(l1 <= 1e-9) || dr.iterations != rr.iterations)
        fprintf(stderr, "rank %d: PageRank L1 %g, iterations %d vs %d\n", rank, l1, dr.iterations,
                rr.iterations);
    CHECK(l1 <= 1e-9);
    CHECK(dr.iterations == rr.iterations && dr.converged);
    CHECK(t.rounds == dr.iterations);
    free(p);
    free(ref);
    free(x);
}

static void compare_components(const lg_dist_graph_t *dg, const lg_graph_t *sg)
{
    const int64_t n = lg_graph_num_vertices(sg);
    int64_t first, nl, count = -1, ref_count = -1;
    lg_dist_graph_local_range(dg, &first, &nl);
    lg_vertex_t *ref = malloc((size_t)n * sizeof *ref + 1);
    int64_t *lab = malloc((size_t)nl * sizeof *lab + 1);
    CHECK_OK(lg_connected_components(NULL, sg, NULL, ref, &ref_count));
    CHECK_OK(lg_dist_connected_components(dctx, dg, lab, &count, NULL));
    int ok = count == ref_count;
    for (int64_t v = 0; v < nl; v++)
        ok &= lab[v] == ref[first + v];
    CHECK(all(ok));
    /* gathered on the last rank: the whole array */
    const int root = size - 1;
    int64_t *whole = rank == root ? malloc((size_t)n * sizeof *whole + 1) : NULL;
    CHECK_OK(lg_dist_gather(dctx, dg, lab, sizeof *lab, root, whole));
    if (rank == root) {
        int same = 1;
        for (int64_t v = 0; v < n; v++)
            same &= whole[v] == ref[v];
        CHECK(same);
    }
    free(whole);
    free(ref);
    free(lab);
}

/* Sources: the first vertex, a vertex of the largest degree, and a set. */
static void compare_all(const lg_dist_graph_t *dg, const lg_graph_t *sg)
{
    const int64_t n = lg_graph_num_vertices(sg);
    CHECK(lg_dist_graph_num_vertices(dg) == n);
    CHECK(lg_dist_graph_num_edges(dg) == lg_graph_num_edges(sg));
    CHECK(lg_dist_graph_is_directed(dg) == lg_graph_is_directed(sg));
    int64_t first, nl, owned = 0;
    lg_dist_graph_local_range(dg, &first, &nl);
    MPI_Allreduce(&nl, &owned, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK(owned == n);
    if (n == 0)
        return;
    const lg_edge_t *off;
    lg_graph_csr(sg, &off, NULL, NULL);
    int64_t hub = 0;
    for (int64_t v = 1; v < n; v++)
        if (off[v + 1] - off[v] > off[hub + 1] - off[hub])
            hub = v;
    const int64_t one[1] = {0}, many[3] = {n - 1, hub, n / 2};
    const int alphas[3] = {15, 0, 1000}; /* default, top-down only, bottom-up early */
    for (int a = 0; a < 3; a++) {
        compare_bfs(dg, sg, one, 1, alphas[a], -1);
        compare_bfs(dg, sg, &hub, 1, alphas[a], -1);
        compare_bfs(dg, sg, many, 3, alphas[a], -1);
    }
    compare_bfs(dg, sg, &hub, 1, 15, 2);
    compare_pagerank(dg, sg, false);
    compare_pagerank(dg, sg, true);
    compare_components(dg, sg);
}

static void test_generated(lg_generator_t gen, int scale, int ef)
{
    lg_graph_t *sg = NULL;
    lg_dist_graph_t *dg = NULL;
    CHECK_OK(lg_generate(NULL, gen, scale, ef, 7, NULL, &sg));
    CHECK_OK(lg_dist_generate(dctx, gen, scale, ef, 7, NULL, &dg));
    if (sg && dg)
        compare_all(dg, sg);
    lg_dist_graph_free(&dg);
    lg_graph_free(&sg);
}

/* Random edges among the first `used` of n vertices, rank r holding an uneven
 * slice (rank 1 none), built both ways with the same options. */
static void test_edges(int64_t n, int64_t used, int64_t E, bool directed, bool symmetrize,
                       bool weighted, lg_duplicates_t dup, bool drop_loops, bool infer_n)
{
    unsigned long long seed = 0x5eed0000ULL + (unsigned long long)(E + n);
    lg_vertex_t *s32 = malloc((size_t)E * sizeof *s32 + 1),
                *d32 = malloc((size_t)E * sizeof *d32 + 1);
    float *w = weighted ? malloc((size_t)E * sizeof *w + 1) : NULL;
    for (int64_t i = 0; i < E; i++) {
        s32[i] = (lg_vertex_t)(tu_rand(&seed) % (unsigned long long)used);
        d32[i] =
            (lg_vertex_t)(i % 11 == 0 ? s32[i]
                                      : (lg_vertex_t)(tu_rand(&seed) % (unsigned long long)used));
        if (w)
            w[i] = (float)(0.5 + (double)(tu_rand(&seed) % 1000) / 500.0);
    }
    lg_graph_options_t so;
    lg_graph_options_init(&so);
    so.directedness = directed ? LG_DIRECTED : LG_UNDIRECTED;
    so.symmetrize = symmetrize;
    so.duplicates = dup;
    so.drop_self_loops = drop_loops;
    lg_graph_t *sg = NULL;
    CHECK_OK(lg_graph_from_edges(NULL, infer_n ? used : n, E, s32, d32, w, &so, &sg));

    /* rank r's slice [cut(r), cut(r + 1)): quadratic cuts, rank 1 empty */
    int64_t lo = E * rank * rank / (size * size), hi = E * (rank + 1) * (rank + 1) / (size * size);
    if (size > 2 && rank == 1)
        hi = lo = E * 4 / (size * size);
    if (size > 2 && rank == 0)
        hi = E * 4 / (size * size);
    int64_t m = hi - lo, *src = malloc((size_t)m * sizeof *src + 1),
            *dst = malloc((size_t)m * sizeof *dst + 1);
    for (int64_t i = 0; i < m; i++) {
        src[i] = s32[lo + i];
        dst[i] = d32[lo + i];
    }
    lg_dist_graph_options_t o;
    lg_dist_graph_options_init(&o);
    o.num_vertices = infer_n ? -1 : n;
    o.directedness = so.directedness;
    o.symmetrize = symmetrize;
    o.duplicates = dup;
    o.drop_self_loops = drop_loops;
    lg_dist_graph_t *dg = NULL;
    CHECK_OK(lg_dist_graph_from_edges(dctx, src, dst, w ? w + lo : NULL, m, &o, &dg));
    CHECK(lg_dist_graph_is_weighted(dg) == weighted);
    if (sg && dg)
        compare_all(dg, sg);
    lg_dist_graph_free(&dg);
    lg_graph_free(&sg);
    free(src);
    free(dst);
    free(s32);
    free(d32);
    free(w);
}

/* Files: rank 0 writes the graph in every format; every rank reads its part
 * with lg_dist_graph_read and the whole with lg_graph_read, and the two agree
 * (as directed too: an undirected text file read as directed keeps both arcs). */
static void test_files(bool directed)
{
    enum {
        N = 150,
        E = 700
    };
    static const char *const ext[] = {"mtx", "el", "wel", "lgb"};
    lg_vertex_t src[E], dst[E];
    float w[E];
    unsigned long long seed = 4242;
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)(tu_rand(&seed) % (N - 5));
        dst[i] = (lg_vertex_t)(tu_rand(&seed) % (N - 5));
        w[i] = (float)(1 + tu_rand(&seed) % 7);
    }
    lg_graph_options_t so;
    lg_graph_options_init(&so);
    so.directedness = directed ? LG_DIRECTED : LG_UNDIRECTED;
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges(NULL, N, E, src, dst, w, &so, &g));
    char path[512];
    for (int f = 0; f < 4; f++) {
        snprintf(path, sizeof path, "%s/lg_dist_%d_%s.%s", LG_TEST_TMP_DIR, size,
                 directed ? "d" : "u", ext[f]);
        if (rank == 0)
            CHECK_OK(lg_graph_write(NULL, g, path, LG_FORMAT_AUTO));
        MPI_Barrier(MPI_COMM_WORLD);
        for (int as = 0; as < 2; as++) {
            lg_graph_options_t ro;
            lg_graph_options_init(&ro);
            lg_dist_graph_options_t o;
            lg_dist_graph_options_init(&o);
            if (as == 1 && f != 3) /* read as directed (text files only: a .lgb refuses) */
                ro.directedness = o.directedness = LG_DIRECTED;
            lg_graph_t *whole = NULL;
            lg_dist_graph_t *dg = NULL;
            CHECK_OK(lg_graph_read(NULL, path, LG_FORMAT_AUTO, &ro, &whole));
            CHECK_OK(lg_dist_graph_read(dctx, path, LG_FORMAT_AUTO, &o, &dg));
            if (whole && dg) {
                CHECK(lg_dist_graph_is_weighted(dg) == lg_graph_is_weighted(whole));
                compare_all(dg, whole);
            }
            lg_dist_graph_free(&dg);
            lg_graph_free(&whole);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            remove(path);
    }
    lg_graph_free(&g);
}

/* ---- a .lgb written here, not by libgraph ------------------------------------- */

/* The file format's checksum (lgb.c's opening comment and docs/ARCHITECTURE.md
 * "Files"), written out again so that a test can store, with a valid
 * checksum, what lg_graph_write never would. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The hash of a section of under 1 MiB (one block, b = 0): its 8-byte words
 * round four lanes, the last zero-padded, then the lanes and its length folded. */
static uint64_t section_hash(const void *data, size_t bytes, uint64_t section)
{
    const unsigned char *p = data;
    const uint64_t tag = section << 48;
    uint64_t lane[4];
    for (int j = 0; j < 4; j++)
        lane[j] = mix64(tag + (uint64_t)j);
    for (size_t i = 0; i < (bytes + 7) / 8; i++) {
        uint64_t word = 0;
        memcpy(&word, p + 8 * i, bytes - 8 * i < 8 ? bytes - 8 * i : 8);
        lane[i % 4] = mix64(lane[i % 4] ^ word);
    }
    const uint64_t folded = mix64(lane[2] ^ mix64(lane[3] ^ bytes));
    return bytes ? mix64(lane[0] ^ mix64(lane[1] ^ folded)) : 0;
}

/* Writes an unweighted version-1 .lgb of the CSR (n rows, m arcs) at path,
 * flagged directed or not, with its checksum. */
static void write_lgb(const char *path, bool directed, int64_t n, const lg_edge_t *offsets,
                      const lg_vertex_t *cols)
{
    static const unsigned char magic[8] = {0x89, 'L', 'G', 'B', '\r', '\n', 0x1a, '\n'};
    const int64_t m = offsets[n];
    const uint32_t version = 1, flags = directed ? 1u : 0u;
    uint64_t x = mix64(version | (uint64_t)flags << 32);
    x = mix64(x ^ (uint64_t)n);
    x = mix64(x ^ (uint64_t)m);
    x = mix64(x ^ section_hash(offsets, (size_t)(n + 1) * sizeof *offsets, 0));
    x = mix64(x ^ section_hash(cols, (size_t)m * sizeof *cols, 1));
    x = mix64(x ^ 0); /* no weights */
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(magic, 1, 8, f) == 8 && fwrite(&version, 4, 1, f) == 1 &&
          fwrite(&flags, 4, 1, f) == 1 && fwrite(&n, 8, 1, f) == 1 && fwrite(&m, 8, 1, f) == 1 &&
          fwrite(&x, 8, 1, f) == 1 &&
          fwrite(offsets, sizeof *offsets, (size_t)n + 1, f) == (size_t)n + 1 &&
          fwrite(cols, sizeof *cols, (size_t)m, f) == (size_t)m);
    CHECK(fclose(f) == 0);
}

/* An undirected .lgb whose checksum is valid but whose arcs are not their
 * own reverses: lg_graph_read refuses it, and lg_dist_graph_read must too,
 * with the same reason on every rank; the same file with its arcs
 * symmetric again is read alike by both. */
static void test_asymmetric_lgb(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/lg_dist_%d_asym.lgb", LG_TEST_TMP_DIR, size);
    lg_graph_t *kg = NULL;
    CHECK_OK(lg_generate(NULL, LG_GENERATOR_KRONECKER, 8, 8, 3, NULL, &kg));
    const int64_t n = lg_graph_num_vertices(kg), m = lg_graph_num_edges(kg);
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    lg_graph_csr(kg, &off, &idx, NULL);
    lg_vertex_t *cols = malloc((size_t)m * sizeof *cols + 1);
    memcpy(cols, idx, (size_t)m * sizeof *cols);
    for (int asymmetric = 1; asymmetric >= 0; asymmetric--) {
        /* the last arc turned to another head: its reverse is missing */
        const lg_vertex_t last = idx[m - 1];
        cols[m - 1] = asymmetric ? (last == 0 ? 1 : 0) : last;
        if (rank == 0)
            write_lgb(path, false, n, off, cols);
        MPI_Barrier(MPI_COMM_WORLD);
        lg_graph_t *whole = NULL;
        lg_dist_graph_t *dg = NULL;
        if (asymmetric) {
            CHECK_STATUS_PLAIN(lg_graph_read(NULL, path, LG_FORMAT_AUTO, NULL, &whole), LG_ERR_IO);
            CHECK(strstr(lg_last_error(), "needs a symmetric CSR") != NULL);
            CHECK_ALL_FAIL(lg_dist_graph_read(dctx, path, LG_FORMAT_AUTO, NULL, &dg), LG_ERR_IO,
                           "needs a symmetric CSR");
            CHECK(dg == NULL);
        } else {
            CHECK_OK(lg_graph_read(NULL, path, LG_FORMAT_AUTO, NULL, &whole));
            CHECK_OK(lg_dist_graph_read(dctx, path, LG_FORMAT_AUTO, NULL, &dg));
            if (whole && dg)
                compare_all(dg, whole);
        }
        lg_dist_graph_free(&dg);
        lg_graph_free(&whole);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            remove(path);
    }
    free(cols);
    lg_graph_free(&kg);
}

static void test_errors(void)
{
    lg_dist_graph_t *dg = NULL;
    lg_dist_graph_options_t o;
    lg_dist_graph_options_init(&o);
    o.num_vertices = 10;
    int64_t src[2] = {1, 2}, dst[2] = {3, rank == size - 1 ? 10 : 4};
    char want[128];
    if (size > 1)
        snprintf(want, sizeof want,
                 "rank %d: lg_dist_graph_from_edges: edge 1: destination 10 >= num_vertices 10",
                 size - 1);
    else
        snprintf(want, sizeof want, "edge 1: destination 10 >= num_vertices 10");
    CHECK_ALL_FAIL(lg_dist_graph_from_edges(dctx, src, dst, NULL, 2, &o, &dg),
                   LG_ERR_INVALID_ARGUMENT, want);
    CHECK(dg == NULL);
    dst[1] = 4;
    float w[2] = {1.0f, rank == 0 ? -1.0f : 1.0f};
    CHECK_ALL_FAIL(lg_dist_graph_from_edges(dctx, src, dst, w, 2, &o, &dg), LG_ERR_INVALID_ARGUMENT,
                   "weight -1 is not finite and >= 0");
    src[0] = -1;
    o.num_vertices = -1;
    CHECK_ALL_FAIL(lg_dist_graph_from_edges(dctx, src, dst, NULL, 2, &o, &dg),
                   LG_ERR_INVALID_ARGUMENT, "source -1 < 0,");
    src[0] = 1;
    if (size > 1) {
        lg_dist_graph_options_t odd = o;
        odd.duplicates = rank == 0 ? LG_DUPLICATES_FIRST : LG_DUPLICATES_KEEP;
        CHECK_ALL_FAIL(lg_dist_graph_from_edges(dctx, src, dst, NULL, 2, &odd, &dg),
                       LG_ERR_INVALID_ARGUMENT, "the ranks passed different duplicates");
        CHECK_ALL_FAIL(lg_dist_graph_from_edges(dctx, src, dst, rank == 1 ? w : NULL, 2, &o, &dg),
                       LG_ERR_INVALID_ARGUMENT, "the ranks passed different weights");
    }
    CHECK_ALL_FAIL(lg_dist_graph_from_edges(dctx, src, dst, NULL, rank == 0 ? -1 : 2, &o, &dg),
                   LG_ERR_INVALID_ARGUMENT, "num_edges -1 < 0");
    CHECK_ALL_FAIL(lg_dist_graph_from_edges(dctx, src, dst, NULL, 2, &o, rank == 0 ? NULL : &dg),
                   LG_ERR_INVALID_ARGUMENT, "graph is NULL");
    CHECK(dg == NULL);

    /* files */
    char path[512];
    snprintf(path, sizeof path, "%s/lg_dist_%d_bad.el", LG_TEST_TMP_DIR, size);
    if (rank == 0) {
        FILE *f = fopen(path, "w");
        for (int i = 0; i < 300; i++)
            fprintf(f, "%d %d\n", i % 13, (i * 5) % 11);
        fprintf(f, "4 -2\n");
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    lg_graph_t *sg = NULL;
    CHECK_STATUS_PLAIN(lg_graph_read(NULL, path, LG_FORMAT_AUTO, NULL, &sg), LG_ERR_IO);
    char whole[512];
    snprintf(whole, sizeof whole, "%s", lg_last_error());
    CHECK_ALL_FAIL(lg_dist_graph_read(dctx, path, LG_FORMAT_AUTO, NULL, &dg), LG_ERR_IO, whole);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        remove(path);
    /* a .lgb whose changed arc head (still a vertex) no part can see: the
     * checksum, summed over the parts, says so on every rank */
    snprintf(path, sizeof path, "%s/lg_dist_%d_sum.lgb", LG_TEST_TMP_DIR, size);
    if (rank == 0) {
        lg_graph_t *kg = NULL;
        CHECK_OK(lg_generate(NULL, LG_GENERATOR_KRONECKER, 8, 8, 2, NULL, &kg));
        CHECK_OK(lg_graph_write(NULL, kg, path, LG_FORMAT_AUTO));
        const int64_t at = 40 + (lg_graph_num_vertices(kg) + 1) * 8 + lg_graph_num_edges(kg) * 2;
        FILE *f = fopen(path, "r+b");
        uint32_t id = 0;
        CHECK(f && fseek(f, (long)at, SEEK_SET) == 0 && fread(&id, 4, 1, f) == 1);
        id = id == 0 ? 1 : 0;
        CHECK(fseek(f, (long)at, SEEK_SET) == 0 && fwrite(&id, 4, 1, f) == 1);
        fclose(f);
        lg_graph_free(&kg);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_ALL_FAIL(lg_dist_graph_read(dctx, path, LG_FORMAT_AUTO, NULL, &dg), LG_ERR_IO,
                   "checksum mismatch");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        remove(path);
    snprintf(path, sizeof path, "%s/lg_dist_no_such_file.el", LG_TEST_TMP_DIR);
    CHECK_ALL_FAIL(lg_dist_graph_read(dctx, path, LG_FORMAT_AUTO, NULL, &dg), LG_ERR_IO,
                   "cannot open");
    CHECK(dg == NULL);

    /* algorithms' arguments */
    CHECK_OK(lg_dist_graph_from_edges(dctx, src, dst, NULL, 2, &o, &dg));
    int64_t first, nl;
    lg_dist_graph_local_range(dg, &first, &nl);
    int32_t dist[8];
    int64_t bad_source = 5, source = rank == 0 ? 1 : 2;
    CHECK_ALL_FAIL(lg_dist_bfs(dctx, dg, &bad_source, 1, NULL, dist, NULL, NULL),
                   LG_ERR_INVALID_ARGUMENT, "source 5 is not a vertex (num_vertices 5)");
    if (size > 1)
        CHECK_ALL_FAIL(lg_dist_bfs(dctx, dg, &source, 1, NULL, dist, NULL, NULL),
                       LG_ERR_INVALID_ARGUMENT, "the ranks passed different sources");
    double x[8];
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.alpha = rank == size - 1 ? 1.5 : 0.85;
    CHECK_ALL_FAIL(lg_dist_pagerank(dctx, dg, &po, x, NULL, NULL), LG_ERR_INVALID_ARGUMENT,
                   "alpha 1.5 is not in [0, 1]");
    if (size > 1) {
        po.alpha = rank == 0 ? 0.85 : 0.9;
        CHECK_ALL_FAIL(lg_dist_pagerank(dctx, dg, &po, x, NULL, NULL), LG_ERR_INVALID_ARGUMENT,
                       "the ranks passed different options");
    }
    lg_pagerank_options_init(&po);
    po.max_iter = 2;
    po.tol = 1e-15;
    CHECK_ALL_FAIL(lg_dist_pagerank(dctx, dg, &po, x, NULL, NULL), LG_ERR_NOT_CONVERGED,
                   "no convergence in 2 iterations");
    CHECK_ALL_FAIL(lg_dist_connected_components(dctx, NULL, NULL, NULL, NULL),
                   LG_ERR_INVALID_ARGUMENT, "graph is NULL");
    CHECK_ALL_FAIL(lg_dist_gather(dctx, dg, dist, 3, 0, NULL), LG_ERR_INVALID_ARGUMENT,
                   "elem_size 3 is not 4 or 8");
    lg_dist_graph_free(&dg);
    CHECK(dg == NULL);
    lg_dist_graph_free(&dg); /* twice: nothing */

    /* contexts */
    lg_dist_context_t *c2 = NULL;
    lg_dist_context_options_t co;
    lg_dist_context_options_init(&co);
    co.grid_cols = 2;
    co.grid_rows = size;
    CHECK_ALL_FAIL(lg_dist_context_create(MPI_COMM_WORLD, &co, &c2), LG_ERR_UNSUPPORTED,
                   "only one column");
    lg_dist_context_options_init(&co);
    co.grid_rows = size + 1;
    CHECK_ALL_FAIL(lg_dist_context_create(MPI_COMM_WORLD, &co, &c2), LG_ERR_INVALID_ARGUMENT,
                   "process grid");
    /* GPU ranks: where there is no GPU module, NCCL or GPU, the same refusal
     * on every rank, as there is where a node has more ranks than GPUs;
     * where there are, a graph built on a CPU context is refused on the GPU
     * one */
    lg_dist_context_options_init(&co);
    co.backend = LG_BACKEND_GPU;
    lg_status_t gst = lg_dist_context_create(MPI_COMM_WORLD, &co, &c2);
    if (gst == LG_ERR_INVALID_ARGUMENT) {
        CHECK_ALL_FAIL(gst, LG_ERR_INVALID_ARGUMENT, "GPU ranks need a GPU each");
        CHECK(c2 == NULL);
    } else if (gst != LG_OK) {
        CHECK_ALL_FAIL(gst, gst == LG_ERR_DEVICE ? LG_ERR_DEVICE : LG_ERR_UNSUPPORTED, "GPU");
        CHECK(c2 == NULL);
    } else {
        CHECK(strncmp(lg_dist_context_device(c2), "GPU", 3) == 0);
        lg_dist_context_t *cpu = NULL;
        lg_dist_graph_t *on_cpu = NULL;
        CHECK_OK(lg_dist_context_create(MPI_COMM_WORLD, NULL, &cpu));
        CHECK(strcmp(lg_dist_context_device(cpu), "cpu") == 0);
        CHECK_OK(lg_dist_generate(cpu, LG_GENERATOR_URAND, 6, 4, 1, NULL, &on_cpu));
        int64_t *lab = calloc(64, sizeof *lab);
        CHECK_ALL_FAIL(lg_dist_connected_components(c2, on_cpu, lab, NULL, NULL),
                       LG_ERR_INVALID_ARGUMENT, "CPU context");
        if (strncmp(lg_dist_context_device(dctx), "GPU", 3) == 0) {
            /* a device copy serves the context it was made on */
            lg_dist_graph_t *on_other = NULL;
            CHECK_OK(lg_dist_generate(dctx, LG_GENERATOR_URAND, 6, 4, 1, NULL, &on_other));
            CHECK_ALL_FAIL(lg_dist_connected_components(c2, on_other, lab, NULL, NULL),
                           LG_ERR_INVALID_ARGUMENT, "another GPU context");
            lg_dist_graph_free(&on_other);
        }
        free(lab);
        lg_dist_graph_free(&on_cpu);
        lg_dist_context_free(&cpu);
        lg_dist_context_free(&c2);
        if (size > 1) { /* one GPU for every rank: refused before NCCL would hang */
            lg_dist_context_options_init(&co);
            co.backend = LG_BACKEND_GPU;
            co.device_id = 0;
            CHECK_ALL_FAIL(lg_dist_context_create(MPI_COMM_WORLD, &co, &c2),
                           LG_ERR_INVALID_ARGUMENT, "a GPU each");
        }
    }
    if (size > 1) { /* device_id may differ between ranks; the backend may not */
        lg_dist_context_options_init(&co);
        co.backend = rank == 0 ? LG_BACKEND_AUTO : LG_BACKEND_CPU;
        CHECK_ALL_FAIL(lg_dist_context_create(MPI_COMM_WORLD, &co, &c2), LG_ERR_INVALID_ARGUMENT,
                       "different options");
    }
    /* a context on a split communicator: ranks of one parity */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    CHECK_OK(lg_dist_context_create(half, NULL, &c2));
    int hs = 0;
    MPI_Comm_size(half, &hs);
    CHECK(lg_dist_context_size(c2) == hs);
    lg_dist_graph_t *hg = NULL;
    CHECK_OK(lg_dist_generate(c2, LG_GENERATOR_URAND, 6, 4, 1, NULL, &hg));
    int64_t labels[64], k = 0;
    CHECK_OK(lg_dist_connected_components(c2, hg, labels, &k, NULL));
    CHECK(k >= 1);
    lg_dist_graph_free(&hg);
    lg_dist_context_free(&c2);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    lg_dist_context_options_t co;
    lg_dist_context_options_init(&co);
    co.num_threads = 2;
    /* LG_TEST_DIST_BACKEND=gpu: every check on GPU ranks (tests/dist/run_on_device.sh) */
    const char *backend = getenv("LG_TEST_DIST_BACKEND");
    if (backend && strcmp(backend, "gpu") == 0)
        co.backend = LG_BACKEND_GPU;
    CHECK_OK(lg_dist_context_create(MPI_COMM_WORLD, &co, &dctx));
    if (rank == 0 && co.backend == LG_BACKEND_GPU)
        printf("GPU ranks, rank 0 on %s\n", lg_dist_context_device(dctx));
    CHECK(lg_dist_context_size(dctx) == size && lg_dist_context_rank(dctx) == rank);

    test_generated(LG_GENERATOR_KRONECKER, 9, 8);
    test_generated(LG_GENERATOR_URAND, 9, 4);
    /* n, used, E, directed, symmetrize, weighted, duplicates, drop self-loops, infer n */
    test_edges(300, 280, 2000, true, false, true, LG_DUPLICATES_SUM, false, false);
    test_edges(300, 280, 2000, false, false, true, LG_DUPLICATES_FIRST, true, true);
    test_edges(300, 280, 2000, false, false, true, LG_DUPLICATES_LAST, false, false);
    test_edges(200, 200, 900, true, true, false, LG_DUPLICATES_KEEP, false, false);
    test_edges(500, 60, 150, true, false, false, LG_DUPLICATES_MIN, false, false);
    test_edges(3, 2, 1, false, false, false, LG_DUPLICATES_KEEP, false,
               false); /* ranks with nothing */
    test_edges(0, 1, 0, false, false, false, LG_DUPLICATES_KEEP, false, false); /* empty */
    test_files(false);
    test_files(true);
    test_errors();
    test_asymmetric_lgb();

    lg_dist_context_free(&dctx);
    long failed = tu_failed;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d ranks: ", size);
    int rc = rank == 0 ? tu_summary() : (tu_failed ? EXIT_FAILURE : EXIT_SUCCESS);
    MPI_Finalize();
    return failed ? EXIT_FAILURE : rc;
}
