/*
 * bfs.c - direction-optimizing breadth-first search on the CPU.
 *
 * Returns: dist[v] = hop count from the nearest source along out-edges, -1
 * when v is unreachable (or beyond max_depth); on request parent[v] = a BFS
 * parent (an in-neighbour one hop closer), parent[s] = s for each source, -1
 * when unreached.
 *
 * Method: Beamer, Asanovic, Patterson, "Direction-Optimizing Breadth-First
 * Search", SC'12.  Two ways to build the next level:
 *   top-down   each frontier vertex u claims its unvisited out-neighbours v
 *              (one compare-and-swap moves dist[v] from -1 to the level, so
 *              every vertex is claimed once whatever the schedule); threads
 *              gather claimed vertices in local buffers (frontier.h) and
 *              append them to the shared queue with one atomic add.
 *   bottom-up  each unvisited v scans its in-neighbours for one in the
 *              frontier (a bitmap) and stops at the first: on a big frontier
 *              this touches far fewer edges, because most vertices find a
 *              parent within a few in-edges.
 * The search starts top-down and goes bottom-up when the frontier's
 * out-edges exceed 1/alpha of the edges not yet explored; it comes back
 * top-down when the frontier shrinks below n/beta vertices and stops growing.
 * The defaults, alpha 15 and beta 18, are GAPBS's tuned values.  Each time
 * the rule says bottom-up, a sampled estimate of the step's cost can keep
 * the search top-down, where the rule misjudges graphs of dense communities
 * (bottom_up_costs_more).  An undirected graph's in-edges are its out-edges;
 * a directed graph goes bottom-up over its CSC (built once, cached).
 *
 * Encoding: dist[v] < 0 means unvisited, so dist doubles as the visited set
 * of the top-down steps.  The bottom-up steps walk a bitmap instead, `todo`:
 * the unvisited vertices with in-edges, made from dist when the search goes
 * bottom-up, from which each step takes out what it finds.  Bitmaps have one
 * bit a vertex in 64-bit words; bottom-up hands out whole words, so each
 * word of todo and of the next frontier has one writer and needs no atomics.
 *
 * Vectors (vec.h): the bitmap's conversion to a queue lists its non-empty
 * words by a vector compaction; the first fill, and the pass that makes
 * the frontier bitmap and todo from dist, are vector loops; the searches
 * themselves are random accesses.
 *
 * Cost: top-down O(edges of the frontier) a level; bottom-up O(n / 64 +
 * edges scanned until a parent is found) a level, after an O(n) pass at
 * the switch.  Memory: two queues of n vertices and three bitmaps of n bits.
 */
#include "bitmap.h"
#include "cpu.h"
#include "frontier.h"
#include "vec.h"

#include <string.h>

/* Vertices a bottom-up task takes at most (lg__task_vertices: a multiple of
 * 64, so a task takes whole words of todo and next). */
#define BOTTOM_UP_BLOCK 4096
/* How many vertices of todo ahead the bottom-up step asks for a first
 * in-edge (and twice as many ahead for the offsets). */
#define BOTTOM_UP_AHEAD 16
/* How many frontier vertices ahead the top-down step asks for a row. */
#define TOP_DOWN_AHEAD 8
/* Bitmap words a task of the passes that make the bitmaps (from dist) and
 * the queue (from the frontier bitmap) takes. */
#define BITMAP_CHUNK 1024
/* Vertices a task of the initial fill takes. */
#define FILL_BLOCK 16384

struct bfs_state {
    int64_t n;
    const struct lg_csr_view *out, *in;
    int32_t *dist;
    lg_vertex_t *parents; /* NULL when not wanted */
    lg_vertex_t *queue;   /* the frontier as a list: [0, size) */
    int64_t size;
    uint64_t *front, *next; /* the frontier as bitmaps */
    uint64_t *todo;         /* what bottom-up steps may still find (front_and_todo) */
    int threads;
};

/* The bottom-up scan of one vertex: the first of v's in-edges [off[v],
 * off[v+1]) whose source is in the frontier, or off[v+1] when none is. */
static inline lg_edge_t first_in_frontier(const lg_edge_t *off, const lg_vertex_t *adj,
                                          const uint64_t *front, int64_t v)
{
    lg_edge_t e = off[v];
    const lg_edge_t end = off[v + 1];
    while (e < end && !lg__bit_get(front, adj[e]))
        e++;
    return e;
}

/* One top-down level: expands queue[0, size), whose rows hold about
 * `arcs` arcs, into next_queue; returns the out-edge count of the new
 * frontier (the "scout count").  A level of a few thousand arcs runs on the
 * calling thread: the team's wake-up and barrier would cost more, and far
 * more when another process holds a core. */
static int64_t top_down_step(struct bfs_state *s, int32_t level, int64_t arcs,
                             lg_vertex_t *next_queue, int64_t *next_size)
{
    /* locals, not s->...: after each compare-and-swap the compiler would
     * reload them */
    const lg_edge_t *off = s->out->offsets;
    const lg_vertex_t *adj = s->out->indices, *queue = s->queue;
    int32_t *dist = s->dist;
    lg_vertex_t *parents = s->parents;
    const int64_t size = s->size;
    int64_t scout = 0, tail = 0;
#pragma omp parallel num_threads(lg__team_size(s->threads, size + arcs)) reduction(+ : scout)
    {
        struct lg__frontier_buffer found = {.count = 0};
#pragma omp for schedule(dynamic, 64) nowait
        for (int64_t i = 0; i < size; i++) {
            /* the frontier's rows lie anywhere: ask for the offsets of the
             * vertex 2 x TOP_DOWN_AHEAD on, and the row of the one
             * TOP_DOWN_AHEAD on, whose offsets have arrived by then */
            if (i + 2 * TOP_DOWN_AHEAD < size)
                __builtin_prefetch(&off[queue[i + 2 * TOP_DOWN_AHEAD]]);
            if (i + TOP_DOWN_AHEAD < size)
                __builtin_prefetch(&adj[off[queue[i + TOP_DOWN_AHEAD]]]);
            const lg_vertex_t u = queue[i];
            const lg_edge_t end = off[u + 1];
            for (lg_edge_t e = off[u]; e < end; e++) {
                lg_vertex_t v = adj[e];
                int32_t unvisited = -1;
                if (__atomic_load_n(&dist[v], __ATOMIC_RELAXED) >= 0 ||
                    !__atomic_compare_exchange_n(&dist[v], &unvisited, level, false,
                                                 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                    continue;
                if (parents)
                    parents[v] = u;
                scout += off[v + 1] - off[v];
                lg__frontier_push(&found, next_queue, &tail, v);
            }
        }
        lg__frontier_flush(&found, next_queue, &tail);
    }
    *next_size = tail;
    return scout;
}

/* A walk over the set bits of todo[w, end), for the prefetches that run
 * ahead of a bottom-up task. */
struct bit_walk {
    const uint64_t *todo;
    int64_t w, end;
    uint64_t bits; /* of word w not yet returned */
};

static inline struct bit_walk walk_start(const uint64_t *todo, int64_t w0, int64_t w1)
{
    struct bit_walk k = {todo, w0, w1, w0 < w1 ? todo[w0] : 0};
    return k;
}

/* The next vertex of the walk, or -1 at its end. */
static inline int64_t walk_next(struct bit_walk *k)
{
    while (!k->bits) {
        if (++k->w >= k->end)
            return -1;
        k->bits = k->todo[k->w];
    }
    const int64_t v = k->w * LG_WORD_BITS + __builtin_ctzll(k->bits);
    k->bits &= k->bits - 1;
    return v;
}

/* The bottom-up step over the words [w0, w1) of the todo bitmap: each
 * vertex in it looks for a parent in `front`; those found leave todo and
 * enter `next` (whose words here it writes whole).  Returns how many were
 * found.  An unvisited vertex's row start and first in-edge miss the cache,
 * and the scan waits on them (it exits at the first hit): two walks run
 * ahead over the same bits, one asking for the offsets of the vertex
 * 2 x BOTTOM_UP_AHEAD on, the other for the first in-edge of the one
 * BOTTOM_UP_AHEAD on, whose offsets have arrived by then. */
static int64_t bottom_up_words(const struct bfs_state *s, const uint64_t *front, uint64_t *next,
                               int64_t w0, int64_t w1, int32_t level)
{
    const lg_edge_t *off = s->in->offsets;
    const lg_vertex_t *adj = s->in->indices;
    int32_t *dist = s->dist;
    lg_vertex_t *parents = s->parents;
    uint64_t *todo = s->todo;
    struct bit_walk far = walk_start(todo, w0, w1), near = far;
    for (int k = 0; k < 2 * BOTTOM_UP_AHEAD; k++) {
        const int64_t u = walk_next(&far);
        if (u >= 0)
            __builtin_prefetch(&off[u]);
    }
    for (int k = 0; k < BOTTOM_UP_AHEAD; k++) {
        const int64_t u = walk_next(&near);
        if (u >= 0)
            __builtin_prefetch(&adj[off[u]]);
    }
    int64_t awake = 0;
    for (int64_t w = w0; w < w1; w++) {
        const uint64_t left = todo[w];
        uint64_t found = 0;
        for (uint64_t bits = left; bits; bits &= bits - 1) {
            const int64_t u = walk_next(&far), t = walk_next(&near);
            if (u >= 0)
                __builtin_prefetch(&off[u]);
            if (t >= 0)
                __builtin_prefetch(&adj[off[t]]);
            const int64_t v = w * LG_WORD_BITS + __builtin_ctzll(bits);
            const lg_edge_t e = first_in_frontier(off, adj, front, v);
            if (e < off[v + 1]) {
                dist[v] = level;
                if (parents)
                    parents[v] = adj[e];
                found |= bits & -bits;
            }
        }
        next[w] = found;
        if (found) {
            todo[w] = left & ~found;
            awake += __builtin_popcountll(found);
        }
    }
    return awake;
}

/* One bottom-up level: every vertex of todo looks for a parent in the
 * `front` bitmap and marks itself in `next`; returns how many were found.
 * Tasks take whole words, so each word of todo and next has one writer. */
static int64_t bottom_up_step(struct bfs_state *s, int32_t level)
{
    const uint64_t *front = s->front;
    uint64_t *next = s->next;
    const int64_t words = lg__bitmap_words(s->n);
    const int64_t block = lg__task_vertices(s->n, s->threads, BOTTOM_UP_BLOCK) / LG_WORD_BITS;
    int64_t awake = 0;
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1) reduction(+ : awake)
    for (int64_t w = 0; w < words; w += block)
        awake += bottom_up_words(s, front, next, w, w + block < words ? w + block : words, level);
    s->front = next;
    s->next = (uint64_t *)front;
    return awake;
}

/* The streaming pass that readies the bottom-up steps, over the bitmap
 * words [w0, w1): front = the vertices at distance `frontier`, todo = the
 * unvisited ones with in-edges, the only ones a step may find.  The steps
 * take out of todo what they find, so they never read dist, and visited
 * vertices and vertices without in-edges (40% of a Kronecker graph's) cost
 * a bit of a word at each level, not a load of their distance and offsets.
 * Made from dist, not from the queue: one writer a word, no atomics. */
LG_PASS void front_and_todo(const int32_t *dist, const lg_edge_t *off, int32_t frontier,
                            uint64_t *front, uint64_t *todo, int64_t n, int64_t w0, int64_t w1)
{
    for (int64_t w = w0; w < w1; w++) {
        const int64_t v0 = w * LG_WORD_BITS;
        const int bits = n - v0 < LG_WORD_BITS ? (int)(n - v0) : LG_WORD_BITS;
        uint64_t f = 0, t = 0;
        LG_SIMD_SUM(f, t)
        for (int b = 0; b < bits; b++) {
            const int32_t d = dist[v0 + b];
            f += (uint64_t)(d == frontier) << b;
            t += (uint64_t)(d < 0 && off[v0 + b + 1] > off[v0 + b]) << b;
        }
        front[w] = f;
        todo[w] = t;
    }
}

static void start_bottom_up(struct bfs_state *s, int32_t frontier)
{
    const int64_t words = lg__bitmap_words(s->n);
#pragma omp parallel for num_threads(s->threads) schedule(static)
    for (int64_t w = 0; w < words; w += BITMAP_CHUNK)
        front_and_todo(s->dist, s->in->offsets, frontier, s->front, s->todo, s->n, w,
                       w + BITMAP_CHUNK < words ? w + BITMAP_CHUNK : words);
}

/* The streaming pass of the conversion: the non-empty words of
 * front[w0, w1) into list, by a vector compaction; returns their count. */
LG_PASS int64_t nonempty_words(const uint64_t *front, int64_t w0, int64_t w1, int64_t *list)
{
    return lg__vec_compact_nonzero_u64(front, w0, w1, list);
}

static void bitmap_to_queue(struct bfs_state *s)
{
    const int64_t words = lg__bitmap_words(s->n);
    const int64_t chunks = (words + BITMAP_CHUNK - 1) / BITMAP_CHUNK;
    int64_t tail = 0;
#pragma omp parallel num_threads(lg__team_size(s->threads, s->n))
    {
        struct lg__frontier_buffer found = {.count = 0};
        int64_t list[BITMAP_CHUNK];
#pragma omp for schedule(static) nowait
        for (int64_t k = 0; k < chunks; k++) {
            const int64_t w0 = k * BITMAP_CHUNK;
            const int64_t count = nonempty_words(
                s->front, w0, w0 + BITMAP_CHUNK < words ? w0 + BITMAP_CHUNK : words, list);
            for (int64_t i = 0; i < count; i++)
                for (uint64_t bits = s->front[list[i]]; bits; bits &= bits - 1)
                    lg__frontier_push(
                        &found, s->queue, &tail,
                        (lg_vertex_t)(list[i] * LG_WORD_BITS + __builtin_ctzll(bits)));
        }
        lg__frontier_flush(&found, s->queue, &tail);
    }
    s->size = tail;
}

/*
 * Beamer et al.'s switch assumes that a bottom-up step is cheap because most
 * unvisited vertices find a parent within their first few in-edges.  That
 * holds on Kronecker and uniform random graphs, not on graphs of dense
 * communities joined by few edges (social ego networks): there the
 * frontier's community is explored but most unvisited vertices have no
 * neighbour in the frontier and scan all their in-edges, far more arcs than
 * a top-down step would check.
 *
 * So before leaving top-down the bottom-up step's cost is estimated by a
 * sample: the first unvisited vertex found at each of BU_SAMPLES evenly
 * spaced positions (looking at most BU_PROBE vertices from each) scans its
 * in-edges for the frontier (by distance) as bottom_up_step would; the mean count times
 * the unvisited vertices is the estimate.  The search stays top-down only
 * when that is more than BU_MARGIN times the frontier's out-edges: a
 * top-down check (a random read of dist and a compare-and-swap) costs no
 * less than a bottom-up one (a bit of the frontier bitmap), so the margin
 * leaves every close call to Beamer's rule.  Costs at most BU_SAMPLES x
 * (BU_PROBE + the sampled degrees) reads, one thread.
 */
#define BU_SAMPLES 128
#define BU_PROBE 64
#define BU_MARGIN 3

static bool bottom_up_costs_more(const struct bfs_state *s, int32_t frontier, int64_t unvisited,
                                 int64_t scout)
{
    const lg_edge_t *off = s->in->offsets;
    const lg_vertex_t *adj = s->in->indices;
    int64_t sampled = 0, scanned = 0;
    for (int64_t i = 0; i < BU_SAMPLES; i++) {
        int64_t v = s->n * i / BU_SAMPLES;
        const int64_t stop = v + BU_PROBE < s->n ? v + BU_PROBE : s->n;
        while (v < stop && s->dist[v] >= 0)
            v++;
        if (v == stop)
            continue;
        /* the frontier is the vertices at distance `frontier`: no bitmap is
         * made unless the search goes bottom-up */
        lg_edge_t e = off[v];
        while (e < off[v + 1] && s->dist[adj[e]] != frontier)
            e++;
        scanned += e - off[v] + (e < off[v + 1]);
        sampled++;
    }
    return sampled > 0 &&
           (double)unvisited * (double)scanned / (double)sampled > BU_MARGIN * (double)scout;
}

/* Levels that stayed top-down by that estimate, for lg__bfs_top_down_stays. */
static atomic_long top_down_stays;

#if !defined(LG_VEC_SCALAR) /* the test hook reads the vector path's */
long lg__bfs_top_down_stays(void)
{
    return atomic_exchange(&top_down_stays, 0);
}
#endif

/* Marks the sources (each once) as level 0; returns their out-edge count. */
static int64_t start(struct bfs_state *s, const lg_vertex_t *sources, int64_t num_sources)
{
    const lg_edge_t *off = s->out->offsets;
    int64_t scout = 0;
    s->size = 0;
    for (int64_t i = 0; i < num_sources; i++) {
        lg_vertex_t v = sources[i];
        if (s->dist[v] == 0)
            continue; /* repeated */
        s->dist[v] = 0;
        if (s->parents)
            s->parents[v] = v;
        s->queue[s->size++] = v;
        scout += off[v + 1] - off[v];
    }
    return scout;
}

/* The streaming pass that starts a search: [v0, v1) unreached, dist (and
 * parents) -1. */
LG_PASS void unreached(int32_t *dist, lg_vertex_t *parents, int64_t v0, int64_t v1)
{
    LG_SIMD
    for (int64_t v = v0; v < v1; v++)
        dist[v] = -1;
    if (parents) {
        LG_SIMD
        for (int64_t v = v0; v < v1; v++)
            parents[v] = -1;
    }
}

static lg_status_t bfs(const struct lg_exec *x, const struct lg_graph_view *g, const void *args)
{
    const struct lg_bfs_args *a = args;
    const lg_vertex_t *sources = a->sources;
    const int64_t num_sources = a->num_sources;
    const lg_bfs_options_t *opts = a->opts;
    int32_t *dist = a->dist;
    lg_vertex_t *parents = a->parents;
    const int64_t n = g->n, words = lg__bitmap_words(n);
    const int threads = lg__team_size(x->num_threads, n + g->m);
    const int32_t last_level = opts->max_depth < 0 ? INT32_MAX : opts->max_depth;
    const bool may_go_bottom_up = opts->direction_alpha > 0;
    lg_vertex_t *queue = NULL, *next_queue = NULL;
    uint64_t *front = NULL, *next = NULL, *todo = NULL;
    lg_status_t st = LG_OK;

    queue = lg__alloc_array((size_t)n, sizeof *queue, "the BFS frontier");
    next_queue = lg__alloc_array((size_t)n, sizeof *next_queue, "the BFS frontier");
    front = lg__alloc_array((size_t)words, sizeof *front, "the BFS frontier bitmap");
    next = lg__alloc_array((size_t)words, sizeof *next, "the BFS frontier bitmap");
    if (may_go_bottom_up)
        todo = lg__alloc_array((size_t)words, sizeof *todo, "the BFS bottom-up bitmap");
    if (!queue || !next_queue || !front || !next || (may_go_bottom_up && !todo)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }

#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t b = 0; b < n; b += FILL_BLOCK)
        unreached(dist, parents, b, b + FILL_BLOCK < n ? b + FILL_BLOCK : n);
    struct bfs_state s = {n, &g->out, &g->in, dist, parents, queue, 0, front, next, todo, threads};
    int64_t scout = start(&s, sources, num_sources);
    int64_t edges_to_check = g->m, reached = s.size;
    int32_t level = 1;
    bool stop = false; /* the progress callback asked to (after each level) */
    while (s.size > 0 && level <= last_level && !stop) {
        bool bottom_up = false;
        if (may_go_bottom_up && scout > edges_to_check / opts->direction_alpha) {
            bottom_up = !bottom_up_costs_more(&s, level - 1, n - reached, scout);
            if (!bottom_up)
                atomic_fetch_add_explicit(&top_down_stays, 1, memory_order_relaxed);
        }
        if (bottom_up) {
            start_bottom_up(&s, level - 1);
            int64_t awake = s.size, old_awake;
            do {
                old_awake = awake;
                awake = bottom_up_step(&s, level++);
                reached += awake;
                stop = !lg_exec_go_on(x, LG_STAGE_BFS, level - 1, -1, 0.0);
            } while (!stop && level <= last_level && awake > 0 &&
                     (awake >= old_awake || awake > n / opts->direction_beta));
            bitmap_to_queue(&s);
            scout = -1; /* not counted: estimated from the mean degree below */
        } else {
            int64_t next_size;
            const int64_t arcs = scout >= 0 ? scout : s.size * (g->m / (n > 0 ? n : 1));
            edges_to_check -= scout >= 0 ? scout : 1;
            scout = top_down_step(&s, level++, arcs, next_queue, &next_size);
            lg_vertex_t *t = s.queue;
            s.queue = next_queue;
            next_queue = t;
            s.size = next_size;
            reached += next_size;
            stop = !lg_exec_go_on(x, LG_STAGE_BFS, level - 1, -1, 0.0);
        }
    }
    if (stop && s.size > 0 && level <= last_level)
        st = LG_ERR_CANCELLED; /* (a stop after the last level changes nothing) */
    /* the arrays may have been swapped: free what the state holds now */
    queue = s.queue;
    front = s.front;
    next = s.next;

cleanup:
    lg__free(queue);
    lg__free(next_queue);
    lg__free(front);
    lg__free(next);
    lg__free(todo);
    return st;
}

/* BFS reads the in-edges when it may go bottom-up on a directed graph. */
const struct lg_kernel LG_CPU_ROW(bfs) = {LG_ALG_BFS, bfs, true};
