/*
 * generate.c - synthetic graphs: Graph500 Kronecker and uniform random.
 *
 * Kronecker (Graph500 specification; Leskovec et al., "Kronecker graphs",
 * JMLR 2010): each of the edge_factor * 2^scale edges picks its endpoints one
 * bit at a time, choosing a quadrant of the adjacency matrix at each of scale
 * levels with probabilities A = .57, B = .19, C = .19, D = .05.  That skews the
 * degrees into a power law; the vertex ids are then permuted at random so that
 * high degree does not go with low id.  Uniform random (the GAP benchmark's
 * urand): both endpoints uniform in [0, 2^scale).
 *
 * Determinism: edge i draws its random numbers from a stream seeded by
 * splitmix64(seed, i), and the permutation is a function of the vertex id
 * (below), so edge i depends on nothing but (seed, i): not on the thread
 * count, nor on which other edges are generated -- any range of the edge list
 * can be made alone (lg_generate_edge_range), which is how the ranks of a
 * distributed job each make their share of the same graph.
 */
#include "internal.h"

#define LG_KRON_A 0.57
#define LG_KRON_B 0.19
#define LG_KRON_C 0.19
#define LG_MAX_SCALE 30
/* Edges generated between two progress reports: Kronecker's take 0.14 s on
 * one core of the 2-core VM (66 ns an edge at scale 21). */
#define LG_GENERATE_BLOCK ((int64_t)1 << 21)

/* A per-edge stream of 64-bit random numbers (xorshift64*, seeded by splitmix64). */
struct stream {
    uint64_t state;
};

static struct stream stream_for(uint64_t seed, uint64_t index)
{
    struct stream s = {lg__mix64(seed ^ lg__mix64(index)) | 1};
    return s;
}

static uint64_t next64(struct stream *s)
{
    s->state ^= s->state >> 12;
    s->state ^= s->state << 25;
    s->state ^= s->state >> 27;
    return s->state * 0x2545F4914F6CDD1DULL;
}

/* The quadrant thresholds as 32-bit fractions: a level draws 32 random bits u
 * and goes to A when u < A, to B when A <= u < A+B, and so on.  Comparisons are
 * combined with & and | rather than branches, which would mispredict half the
 * time on random input. */
#define LG_FRACTION32(p) ((uint64_t)((p)*4294967296.0))
static const uint64_t kron_a = LG_FRACTION32(LG_KRON_A);
static const uint64_t kron_ab = LG_FRACTION32(LG_KRON_A + LG_KRON_B);
static const uint64_t kron_abc = LG_FRACTION32(LG_KRON_A + LG_KRON_B + LG_KRON_C);

static void kronecker_edge(struct stream *s, int scale, lg_vertex_t *u, lg_vertex_t *v)
{
    uint32_t a = 0, b = 0;
    uint64_t bits = 0;
    for (int level = 0; level < scale; level++) {
        if ((level & 1) == 0)
            bits = next64(s); /* two levels per 64-bit draw */
        uint64_t r = bits & 0xFFFFFFFFu;
        bits >>= 32;
        uint32_t row = r >= kron_ab;                                      /* C or D */
        uint32_t col = ((r >= kron_a) & (r < kron_ab)) | (r >= kron_abc); /* B or D */
        a = (a << 1) | row;
        b = (b << 1) | col;
    }
    *u = (lg_vertex_t)a;
    *v = (lg_vertex_t)b;
}

/* The Kronecker vertex permutation: three rounds of xor with a key,
 * multiplication by an odd number and a right xor-shift, all modulo 2^scale --
 * each step a bijection of [0, 2^scale) -- with keys and multipliers drawn
 * from the seed.  Computed per vertex, so no table of 2^scale entries is
 * needed and edges can be made in any order. */
struct vertex_permutation {
    uint64_t mask;
    int shift;
    uint64_t key[3], mul[3];
};

static struct vertex_permutation permutation_for(uint64_t seed, int scale)
{
    struct vertex_permutation p;
    struct stream s = stream_for(~seed, 0);
    p.mask = ((uint64_t)1 << scale) - 1;
    p.shift = (scale + 1) / 2;
    for (int r = 0; r < 3; r++) {
        p.key[r] = next64(&s) & p.mask;
        p.mul[r] = next64(&s) | 1;
    }
    return p;
}

static lg_vertex_t permute(const struct vertex_permutation *p, uint32_t v)
{
    uint64_t x = v;
    for (int r = 0; r < 3; r++) {
        x = ((x ^ p->key[r]) * p->mul[r]) & p->mask;
        x ^= x >> p->shift;
    }
    return (lg_vertex_t)x;
}

static lg_status_t check_shape(const char *fn, lg_generator_t generator, int scale, int edge_factor)
{
    if (generator != LG_GENERATOR_KRONECKER && generator != LG_GENERATOR_URAND)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown generator %d", fn, (int)generator);
    if (scale < 1 || scale > LG_MAX_SCALE)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: scale %d is not in [1, %d]", fn, scale,
                         LG_MAX_SCALE);
    if (edge_factor < 1)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: edge_factor %d < 1", fn, edge_factor);
    return LG_OK;
}

/* Edges [first, first + count) of the edge_factor * 2^scale into src, dst. */
static void generate_edges(lg_context_t *context, lg_generator_t generator, int scale,
                           uint64_t seed, int64_t first, int64_t count, lg_vertex_t *src,
                           lg_vertex_t *dst)
{
    const int threads = lg__threads_for(context, count);
    if (generator == LG_GENERATOR_URAND) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t i = 0; i < count; i++) {
            struct stream s = stream_for(seed, (uint64_t)(first + i));
            src[i] = (lg_vertex_t)(next64(&s) >> (64 - scale));
            dst[i] = (lg_vertex_t)(next64(&s) >> (64 - scale));
        }
        return;
    }
    const struct vertex_permutation perm = permutation_for(seed, scale);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < count; i++) {
        struct stream es = stream_for(seed, (uint64_t)(first + i));
        lg_vertex_t u, v;
        kronecker_edge(&es, scale, &u, &v);
        src[i] = permute(&perm, (uint32_t)u);
        dst[i] = permute(&perm, (uint32_t)v);
    }
}

lg_status_t lg_generate_edge_range(lg_context_t *context, lg_generator_t generator, int scale,
                                   int edge_factor, uint64_t seed, int64_t first, int64_t count,
                                   lg_vertex_t *src, lg_vertex_t *dst)
{
    static const char fn[] = "lg_generate_edge_range";
    lg_status_t st = check_shape(fn, generator, scale, edge_factor);
    if (st != LG_OK)
        return st;
    const int64_t E = (int64_t)edge_factor << scale;
    if (first < 0 || count < 0 || first > E || count > E - first)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: edges [%lld, %lld + %lld) are not within the %lld edges", fn,
                         (long long)first, (long long)first, (long long)count, (long long)E);
    if (count > 0 && (!src || !dst))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: src or dst is NULL", fn);
    generate_edges(context, generator, scale, seed, first, count, src, dst);
    return LG_OK;
}

lg_status_t lg_generate_edges(lg_context_t *context, lg_generator_t generator, int scale,
                              int edge_factor, uint64_t seed, lg_vertex_t *src, lg_vertex_t *dst)
{
    lg_status_t st = check_shape("lg_generate_edges", generator, scale, edge_factor);
    if (st != LG_OK)
        return st;
    if (!src || !dst)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_generate_edges: src or dst is NULL");
    generate_edges(context, generator, scale, seed, 0, (int64_t)edge_factor << scale, src, dst);
    return LG_OK;
}

lg_status_t lg_generate(lg_context_t *context, lg_generator_t generator, int scale, int edge_factor,
                        uint64_t seed, const lg_graph_options_t *options, lg_graph_t **graph)
{
    lg_graph_options_t gap;
    lg_vertex_t *src = NULL, *dst = NULL;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_generate: graph is NULL");
    lg_status_t st = check_shape("lg_generate", generator, scale, edge_factor);
    if (st != LG_OK)
        return st;
    if (!options) {
        lg_graph_options_init(&gap);
        gap.directedness = LG_UNDIRECTED;
        gap.drop_self_loops = true;
        gap.duplicates = LG_DUPLICATES_FIRST;
        options = &gap;
    }
    const int64_t E = (int64_t)edge_factor << scale;
    src = lg__alloc_array((size_t)E, sizeof *src, "generated edges");
    dst = lg__alloc_array((size_t)E, sizeof *dst, "generated edges");
    if (!src || !dst) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    /* in blocks, each reported to progress (generation is seconds at scale 23) */
    const struct lg_progress progress = lg__graph_progress(options);
    for (int64_t first = 0; first < E; first += LG_GENERATE_BLOCK) {
        const int64_t count = E - first < LG_GENERATE_BLOCK ? E - first : LG_GENERATE_BLOCK;
        generate_edges(context, generator, scale, seed, first, count, src + first, dst + first);
        if (!lg_progress_go_on(progress, LG_STAGE_GENERATE, first + count, E, 0.0)) {
            st = lg__cancelled("lg_generate");
            goto cleanup;
        }
    }
    return lg__graph_from_own_edges("lg_generate", context, (int64_t)1 << scale, E, &src, &dst,
                                    NULL, NULL, options, graph);
cleanup:
    lg__free(src);
    lg__free(dst);
    return st;
}
