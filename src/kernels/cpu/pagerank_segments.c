/*
 * pagerank_segments.c - the in-arcs cut into cache-sized segments by
 * source, for PageRank on graphs whose contributions outgrow the caches.
 *
 * Method: CSR segmenting (Zhang, Kiriansky, Mendis, Amarasinghe, Zaharia,
 * "Making Caches Work for Graph Analytics", IEEE BigData'17).  The pull
 * iteration gathers c[u] for every in-arc at random; once c outgrows a slice
 * of the last-level cache, the gathers miss it (the stream of arcs evicts
 * what they would reuse) and the loop waits on memory.  Segmenting cuts the
 * sources into ranges of `span` vertices whose contributions fill about an
 * eighth of the last-level cache the system reports, and stores the in-arcs
 * segment by segment: within a segment, each destination row that has arcs
 * from it (a pair), with those arcs.  An iteration pulls segment after
 * segment, every thread on pairs of the same segment, adding each pair's
 * gather-sum into its row's sum, so the gathers hit the cache; then one pass
 * updates the scores from the sums (pagerank.c).  The price: every pair's
 * sum read and written once a segment, and a copy of the in-arcs (m ids,
 * and weights) for the call.  Segments of a core's L2 would make the
 * gathers cheaper still, but so many segments that the sums' traffic costs
 * more than it saves (docs/decisions/pagerank-segments.md has the figures).
 *
 * The layout is made from the CSC in two passes over the rows, one piece of
 * rows a thread: count each piece's pairs and arcs in each segment, then
 * place them (segment j holds piece 0's pairs, then piece 1's, ...).  A
 * row's sources must be sorted (libgraph's builders sort them), so that a
 * row's arcs of one segment are consecutive.
 */
#include "pagerank.h"

#include <stdio.h>
#include <string.h>

#define SEG_MIN_ITERS 8.0
#define SEG_MIN_SHIFT 14
#define SEG_DEFAULT_LLC ((size_t)8 << 20) /* when the system does not say */

static atomic_long seg_runs;
/* 0: the last-level cache's size (the rule); lg__pagerank_segment_min_bytes moves it */
static atomic_size_t seg_min_bytes;

long lg__pagerank_segmented_runs(void)
{
    return atomic_exchange(&seg_runs, 0);
}

size_t lg__pagerank_segment_min_bytes(size_t bytes)
{
    return atomic_exchange(&seg_min_bytes, bytes);
}

static atomic_int seg_shift; /* 0: the rule; lg__pagerank_segment_shift moves it */

int lg__pagerank_segment_shift(int shift)
{
    return atomic_exchange(&seg_shift, shift);
}

/* The data (or unified) cache of cpu0 at `level` (1 to 3; 0: the highest
 * level there is) in bytes, from sysfs (glibc's sysconf answers from cpuid,
 * and on virtual machines may report the host's: 320 MiB for the 32 MiB L3
 * of the machine ARCHITECTURE.md measures on), or 0 when it does not say. */
size_t lg__cache_bytes(int level)
{
    static atomic_size_t cached[4]; /* SIZE_MAX: asked, not said */
    if (level < 0 || level > 3)
        return 0;
    size_t bytes = atomic_load(&cached[level]);
    if (bytes)
        return bytes == SIZE_MAX ? 0 : bytes;
    bytes = SIZE_MAX;
#ifdef __linux__
    int best = 0;
    for (int i = 0; i < 16; i++) {
        char path[96], type[16] = "";
        int at = 0;
        unsigned long long k = 0;
        char unit = 'K';
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        const bool ok = fscanf(f, "%d", &at) == 1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%15s", type) != 1)
                type[0] = 0;
            fclose(f);
        }
        if (!ok || strcmp(type, "Instruction") == 0 || (level ? at != level : at <= best))
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(path, "r")))
            continue;
        if (fscanf(f, "%llu%c", &k, &unit) >= 1 && k > 0) {
            bytes = (size_t)k << (unit == 'M' ? 20 : unit == 'K' ? 10 : 0);
            best = at;
        }
        fclose(f);
    }
#endif
    atomic_store(&cached[level], bytes);
    return bytes == SIZE_MAX ? 0 : bytes;
}

/* The last-level cache, or SEG_DEFAULT_LLC when the system does not say. */
static size_t llc_bytes(void)
{
    const size_t bytes = lg__cache_bytes(0);
    return bytes ? bytes : SEG_DEFAULT_LLC;
}

static atomic_int row_loop_mode; /* lg__pagerank_row_loop */

int lg__pagerank_row_loop(int mode)
{
    return atomic_exchange(&row_loop_mode, mode);
}

bool lg__one_loop_pays(size_t vector_bytes, bool hub_order)
{
    const int mode = atomic_load(&row_loop_mode);
    if (mode)
        return mode == 2;
    const size_t l2 = lg__cache_bytes(2), last = lg__cache_bytes(0);
    return !hub_order && l2 && last > l2 && vector_bytes > l2 && vector_bytes <= last / 4;
}

/* Sources a segment spans: a power of two whose contributions fill about
 * an eighth of the last-level cache (the rest holds the streams of arcs and
 * sums, and the other cores' share), at least 2^SEG_MIN_SHIFT. */
static int span_shift(size_t elem)
{
    const int forced = atomic_load(&seg_shift);
    if (forced > 0)
        return forced;
    const size_t want = llc_bytes() / 8 / elem;
    int shift = 0;
    while (((size_t)2 << shift) <= want)
        shift++;
    return shift < SEG_MIN_SHIFT ? SEG_MIN_SHIFT : shift;
}

/* The layout at most: m ids and weights, and a pair (12 bytes) an arc; n sums. */
bool lg__seg_pays(int64_t n, int64_t m, size_t elem, double iterations_left)
{
    const size_t min = atomic_load(&seg_min_bytes);
    const size_t at_least = min ? min : llc_bytes();
    return (size_t)n * elem >= at_least && iterations_left >= SEG_MIN_ITERS &&
           lg__can_spare((size_t)m * 20 + (size_t)n * 8);
}

void lg__seg_free(struct lg_seg *seg)
{
    if (!seg)
        return;
    lg__free(seg->pair_begin);
    lg__free(seg->row);
    lg__free(seg->off);
    lg__free(seg->idx);
    lg__free(seg->w);
    lg__free(seg->sum);
    lg__free(seg);
}

struct lg_seg *lg__seg_make(const struct lg_graph_view *g, bool use_weights, size_t elem,
                            int threads)
{
    const int64_t n = g->n, m = g->m;
    const int shift = span_shift(elem);
    const int64_t S = (n >> shift) + 1, T = threads;
    const lg_edge_t *off = g->in.offsets;
    const lg_vertex_t *idx = g->in.indices;
    const float *w = use_weights ? g->in.weights : NULL;
    char saved[LG_ERROR_CAPACITY];
    lg__error_save(saved);
    struct lg_seg *seg = lg__calloc(1, sizeof *seg);
    /* count[t][j]: piece t's pairs in segment j, then their first slot;
     * arcs[t][j] the same for arcs */
    int64_t *count = lg__calloc((size_t)(2 * T * S), sizeof *count);
    if (!seg || !count) {
        lg__free(seg);
        lg__free(count);
        lg__error_restore(saved);
        return NULL;
    }
    int64_t *arcs = count + T * S;
    bool sorted = true;
#pragma omp parallel for num_threads(threads) schedule(static, 1) reduction(&& : sorted)
    for (int64_t t = 0; t < T; t++) {
        int64_t *pc = count + t * S, *ac = arcs + t * S;
        for (int64_t v = n * t / T; v < n * (t + 1) / T; v++) {
            int64_t last = -1;
            for (lg_edge_t e = off[v]; e < off[v + 1]; e++) {
                const int64_t j = idx[e] >> shift;
                sorted = sorted && j >= last;
                pc[j] += j != last;
                ac[j]++;
                last = j;
            }
        }
    }
    int64_t pairs = 0, total = 0;
    if (sorted) {
        seg->pair_begin =
            lg__alloc_array((size_t)S + 1, sizeof *seg->pair_begin, "PageRank segments");
        for (int64_t j = 0; seg->pair_begin && j < S; j++) {
            seg->pair_begin[j] = pairs;
            for (int64_t t = 0; t < T; t++) {
                const int64_t p = count[t * S + j], a = arcs[t * S + j];
                count[t * S + j] = pairs;
                arcs[t * S + j] = total;
                pairs += p;
                total += a;
            }
        }
        if (seg->pair_begin)
            seg->pair_begin[S] = pairs;
        seg->row =
            lg__alloc_array(pairs ? (size_t)pairs : 1, sizeof *seg->row, "PageRank segments");
        seg->off = lg__alloc_array((size_t)pairs + 1, sizeof *seg->off, "PageRank segments");
        seg->idx = lg__alloc_array(m ? (size_t)m : 1, sizeof *seg->idx, "PageRank segments");
        if (w)
            seg->w = lg__alloc_array(m ? (size_t)m : 1, sizeof *seg->w, "PageRank segments");
        seg->sum = lg__alloc_array(n ? (size_t)n : 1, sizeof *seg->sum, "PageRank segments");
    }
    if (!sorted || !seg->pair_begin || !seg->row || !seg->off || !seg->idx || (w && !seg->w) ||
        !seg->sum) {
        lg__seg_free(seg);
        lg__free(count);
        lg__error_restore(saved);
        return NULL;
    }
    seg->count = S;
    seg->off[pairs] = total;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int64_t t = 0; t < T; t++) {
        int64_t *pc = count + t * S, *ac = arcs + t * S;
        for (int64_t v = n * t / T; v < n * (t + 1) / T; v++) {
            int64_t last = -1;
            for (lg_edge_t e = off[v]; e < off[v + 1]; e++) {
                const int64_t j = idx[e] >> shift;
                if (j != last) {
                    seg->row[pc[j]] = (lg_vertex_t)v;
                    seg->off[pc[j]++] = ac[j];
                    last = j;
                }
                seg->idx[ac[j]] = idx[e];
                if (w)
                    seg->w[ac[j]] = w[e];
                ac[j]++;
            }
        }
    }
    lg__free(count);
    atomic_fetch_add_explicit(&seg_runs, 1, memory_order_relaxed);
    return seg;
}
