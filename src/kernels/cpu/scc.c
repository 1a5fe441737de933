/*
 * scc.c - strongly connected components on the CPU.
 *
 * Returns: label[v] = the smallest vertex id of v's strongly connected
 * component, and the number of components.
 *
 * Method: Multistep (Slota, Rajamanickam, Madduri, "BFS and Coloring-based
 * Parallel Algorithms for Strongly Connected Components and Related
 * Problems", IPDPS'14), its steps in its order:
 *   1. Trim: a vertex with no in-arc or no out-arc from the vertices still
 *      left (self-loops aside) is a component of its own; taking it out
 *      may leave its neighbours so, level after level (in- and out-degree
 *      counters, decremented atomically; a vertex is claimed once).
 *   2. Forward-backward: from the vertex left with the largest product of
 *      in- and out-degree, the vertices it reaches and those that reach it
 *      (the BFS kernel's direction-optimizing searches, over the graph and
 *      its transpose): their intersection is its component, on real and
 *      Kronecker graphs the giant one.
 *   3. Coloring (Orzan): every vertex left takes the smallest id that
 *      reaches it (labels pulled along in-arcs until none changes); a
 *      vertex whose color is its own id is the smallest of its component,
 *      which is what reaches it backwards within its color.  Rounds repeat
 *      while more than SERIAL_LIMIT vertices are left (and at most
 *      COLOR_ROUNDS times: a chain of components each reaching the next
 *      costs a round each).
 *   4. Tarjan's algorithm, iterative, on what is left.
 * Every step labels a component with its smallest id, so the labels are
 * canonical with no relabelling pass.
 *
 * Encoding: label[v] = -1 while v is left.  Cost: O(m) a step (a round of
 * coloring O(m) an iteration).  Memory: two degree arrays (8 n bytes each),
 * two queues and two marks (n each); Tarjan's stacks on what it gets.
 */
#include "cpu.h"
#include "frontier.h"
#include "tarjan.h"

#include <string.h>

/* Vertices left after which Tarjan's serial pass takes the rest. */
#define SERIAL_LIMIT 65536
/* The most coloring rounds before Tarjan takes the rest anyway. */
#define COLOR_ROUNDS 8
/* Queue entries a task of the parallel steps takes. */
#define CHUNK 64

struct work {
    const struct lg_graph_view *g;
    lg_vertex_t *label;
    lg_edge_t *in_deg, *out_deg;
    lg_vertex_t *queue[2];
    unsigned char *mark; /* 1: reached forward, 2: backward (step 2) */
    lg_vertex_t *color; /* step 3 */
    int threads;
};

/* Claims v for the component `as` (-1 -> as); true when this call did. */
static inline bool claim(lg_vertex_t *label, lg_vertex_t v, lg_vertex_t as)
{
    lg_vertex_t left = -1;
    return __atomic_load_n(&label[v], __ATOMIC_RELAXED) < 0 &&
           __atomic_compare_exchange_n(&label[v], &left, as, false, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED);
}

/* Step 1: the degrees among the vertices left, then the trimming levels. */
static void trim(struct work *w)
{
    const struct lg_graph_view *g = w->g;
    const int64_t n = g->n;
    lg_vertex_t *label = w->label;
    int64_t size = 0;
#pragma omp parallel for num_threads(w->threads) schedule(dynamic, 1024)
    for (int64_t v = 0; v < n; v++) {
        lg_edge_t out = 0, in = 0;
        for (lg_edge_t e = g->out.offsets[v]; e < g->out.offsets[v + 1]; e++)
            out += g->out.indices[e] != v;
        for (lg_edge_t e = g->in.offsets[v]; e < g->in.offsets[v + 1]; e++)
            in += g->in.indices[e] != v;
        w->out_deg[v] = out;
        w->in_deg[v] = in;
    }
    lg_vertex_t *curr = w->queue[0], *next = w->queue[1];
    for (int64_t v = 0; v < n; v++)
        if ((w->out_deg[v] == 0 || w->in_deg[v] == 0) &&
            claim(label, (lg_vertex_t)v, (lg_vertex_t)v))
            curr[size++] = (lg_vertex_t)v;
    while (size > 0) {
        int64_t tail = 0;
#pragma omp parallel num_threads(lg__team_size(w->threads, size * 16))
        {
            struct lg__frontier_buffer b = {.count = 0};
#pragma omp for schedule(dynamic, CHUNK) nowait
            for (int64_t i = 0; i < size; i++) {
                const lg_vertex_t v = curr[i];
                for (int dir = 0; dir < 2; dir++) {
                    const struct lg_csr_view *c = dir ? &g->in : &g->out;
                    lg_edge_t *deg = dir ? w->out_deg : w->in_deg; /* of the far end */
                    for (lg_edge_t e = c->offsets[v]; e < c->offsets[v + 1]; e++) {
                        const lg_vertex_t u = c->indices[e];
                        if (u == v || __atomic_load_n(&label[u], __ATOMIC_RELAXED) >= 0)
                            continue;
                        if (__atomic_sub_fetch(&deg[u], 1, __ATOMIC_RELAXED) == 0 &&
                            claim(label, u, u))
                            lg__frontier_push(&b, next, &tail, u);
                    }
                }
            }
            lg__frontier_flush(&b, next, &tail);
        }
        lg_vertex_t *t = curr;
        curr = next, next = t, size = tail;
    }
}

/* A breadth-first search over the vertices left from `size` vertices in
 * w->queue[0], along out-arcs (backward: in-arcs), among those whose
 * color is `color` (NULL: any); each reached vertex gets `bit` in mark. */
static void reach(struct work *w, int64_t size, bool backward, unsigned char bit,
                  const lg_vertex_t *color)
{
    const struct lg_csr_view *c = backward ? &w->g->in : &w->g->out;
    const lg_vertex_t *label = w->label;
    unsigned char *mark = w->mark;
    lg_vertex_t *curr = w->queue[0], *next = w->queue[1];
    while (size > 0) {
        int64_t tail = 0;
#pragma omp parallel num_threads(lg__team_size(w->threads, size * 16))
        {
            struct lg__frontier_buffer b = {.count = 0};
#pragma omp for schedule(dynamic, CHUNK) nowait
            for (int64_t i = 0; i < size; i++) {
                const lg_vertex_t v = curr[i];
                for (lg_edge_t e = c->offsets[v]; e < c->offsets[v + 1]; e++) {
                    const lg_vertex_t u = c->indices[e];
                    if (label[u] >= 0 || (color && color[u] != color[v]) ||
                        (__atomic_load_n(&mark[u], __ATOMIC_RELAXED) & bit))
                        continue;
                    if (!(__atomic_fetch_or(&mark[u], bit, __ATOMIC_RELAXED) & bit))
                        lg__frontier_push(&b, next, &tail, u);
                }
            }
            lg__frontier_flush(&b, next, &tail);
        }
        lg_vertex_t *t = curr;
        curr = next, next = t, size = tail;
    }
    w->queue[0] = curr, w->queue[1] = next;
}

/* Step 2: the component of the vertex left with the largest product of
 * degrees: the vertices both the pivot's forward and its backward search
 * reach.  Those are a property of the graph, so the searches are the BFS
 * kernel's (direction-optimizing) over the whole graph, and over its
 * transpose; the vertices trimmed away are in neither's intersection.  The
 * distances go into the degree arrays, done with by then.  *left gets the
 * vertices left afterwards. */
static lg_status_t forward_backward(struct work *w, const struct lg_exec *x, int64_t *left)
{
    const int64_t n = w->g->n;
    lg_vertex_t pivot = -1;
    double best = -1.0;
    for (int64_t v = 0; v < n; v++)
        if (w->label[v] < 0 && (double)w->in_deg[v] * (double)w->out_deg[v] > best)
            best = (double)w->in_deg[v] * (double)w->out_deg[v], pivot = (lg_vertex_t)v;
    *left = 0;
    if (pivot < 0)
        return LG_OK;
    int32_t *forward = (int32_t *)(void *)w->in_deg, *backward = (int32_t *)(void *)w->out_deg;
    struct lg_exec quiet = *x; /* the searches report nothing of their own */
    quiet.progress.fn = NULL;
    lg_bfs_options_t o;
    lg_bfs_options_init(&o);
    const struct lg_kernel *bfs = lg__cpu_kernel(LG_ALG_BFS);
    const struct lg_bfs_args fa = {&pivot, 1, &o, forward, NULL};
    lg_status_t st = bfs->run(&quiet, w->g, &fa);
    if (st != LG_OK)
        return st;
    struct lg_graph_view t = *w->g;
    t.out = w->g->in;
    t.in = w->g->out;
    const struct lg_bfs_args ba = {&pivot, 1, &o, backward, NULL};
    if ((st = bfs->run(&quiet, &t, &ba)) != LG_OK)
        return st;
    lg_vertex_t smallest = pivot;
#pragma omp parallel for num_threads(w->threads) schedule(static) reduction(min : smallest)
    for (int64_t v = 0; v < n; v++)
        if (forward[v] >= 0 && backward[v] >= 0 && v < smallest)
            smallest = (lg_vertex_t)v;
    int64_t rest = 0;
#pragma omp parallel for num_threads(w->threads) schedule(static) reduction(+ : rest)
    for (int64_t v = 0; v < n; v++) {
        if (w->label[v] >= 0)
            continue;
        if (forward[v] >= 0 && backward[v] >= 0)
            w->label[v] = smallest;
        else
            rest++;
    }
    *left = rest;
    return LG_OK;
}

/* Step 3, one round: colors, then each color's root's component; the
 * vertices left afterwards. */
static int64_t coloring_round(struct work *w)
{
    const struct lg_graph_view *g = w->g;
    const int64_t n = g->n;
    lg_vertex_t *color = w->color, *label = w->label;
#pragma omp parallel for num_threads(w->threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        color[v] = (lg_vertex_t)v;
    for (bool changed = true; changed;) {
        changed = false;
#pragma omp parallel for num_threads(w->threads) schedule(dynamic, 1024) reduction(|| : changed)
        for (int64_t v = 0; v < n; v++) {
            if (label[v] >= 0)
                continue;
            lg_vertex_t c = __atomic_load_n(&color[v], __ATOMIC_RELAXED);
            const lg_vertex_t was = c;
            for (lg_edge_t e = g->in.offsets[v]; e < g->in.offsets[v + 1]; e++) {
                const lg_vertex_t u = g->in.indices[e];
                const lg_vertex_t cu = __atomic_load_n(&color[u], __ATOMIC_RELAXED);
                if (label[u] < 0 && cu < c)
                    c = cu;
            }
            if (c < was) {
                __atomic_store_n(&color[v], c, __ATOMIC_RELAXED);
                changed = true;
            }
        }
    }
    /* the roots, then backwards within each color (n > 0: lg_scc's entry
     * point answers the empty graph; said here for gcc's bounds check) */
    if (n > 0)
        memset(w->mark, 0, (size_t)n);
    int64_t size = 0;
    for (int64_t v = 0; v < n; v++)
        if (label[v] < 0 && color[v] == v)
            w->mark[v] = 2, w->queue[0][size++] = (lg_vertex_t)v;
    reach(w, size, true, 2, color);
    int64_t left = 0;
#pragma omp parallel for num_threads(w->threads) schedule(static) reduction(+ : left)
    for (int64_t v = 0; v < n; v++) {
        if (label[v] >= 0)
            continue;
        if (w->mark[v] & 2)
            label[v] = color[v];
        else
            left++;
    }
    return left;
}

/* Step 4: Tarjan's algorithm over the vertices left (tarjan.h); index and
 * low reuse the degree arrays, the stacks the queues, and the arc
 * positions the colors' array (n lg_edge_t: see scc's allocation). */
static void tarjan(struct work *w)
{
    const struct lg_tarjan t = {w->g->n,
                                w->g->out.offsets,
                                w->g->out.indices,
                                w->label,
                                w->in_deg,
                                w->out_deg,
                                w->queue[0],
                                w->queue[1],
                                (lg_edge_t *)(void *)w->color,
                                w->mark};
    lg_tarjan_rest(&t);
}

static lg_status_t scc(const struct lg_exec *x, const struct lg_graph_view *g, const void *args)
{
    const struct lg_components_args *a = args;
    const int64_t n = g->n;
    struct work w = {.g = g, .label = a->labels,
                     .threads = lg__team_size(x->num_threads, g->n + g->m)};
    /* each allocation on one line: its site is the line (clang and gcc
     * number a call spread over lines differently) */
    static const char what[] = "lg_strongly_connected_components";
    w.in_deg = lg__alloc_array((size_t)n, sizeof *w.in_deg, what);
    w.out_deg = lg__alloc_array((size_t)n, sizeof *w.out_deg, what);
    lg_vertex_t *queues = lg__alloc_array((size_t)n, 2 * sizeof(lg_vertex_t), what);
    w.mark = lg__alloc_array((size_t)n, 1, what);
    /* the colors (n ids), and later Tarjan's arc positions (n lg_edge_t) */
    w.color = lg__alloc_array((size_t)n, sizeof(lg_edge_t), what);
    lg_status_t st = LG_OK;
    if (!w.in_deg || !w.out_deg || !queues || !w.mark || !w.color) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto done;
    }
    w.queue[0] = queues, w.queue[1] = queues + n;
#pragma omp parallel for num_threads(w.threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        a->labels[v] = -1;
    trim(&w);
    int64_t left = 0;
    if ((st = forward_backward(&w, x, &left)) != LG_OK)
        goto done;
    if (!lg_exec_go_on(x, LG_STAGE_SCC, 2, -1, 0.0)) {
        st = LG_ERR_CANCELLED;
        goto done;
    }
    for (int round = 0; left > SERIAL_LIMIT && round < COLOR_ROUNDS; round++) {
        left = coloring_round(&w);
        if (!lg_exec_go_on(x, LG_STAGE_SCC, 3 + round, -1, 0.0)) {
            st = LG_ERR_CANCELLED;
            goto done;
        }
    }
    w.queue[0] = queues, w.queue[1] = queues + n;
    if (left > 0)
        tarjan(&w);
    if (a->num_components) {
        int64_t roots = 0;
#pragma omp parallel for num_threads(w.threads) schedule(static) reduction(+ : roots)
        for (int64_t v = 0; v < n; v++)
            roots += a->labels[v] == v;
        *a->num_components = roots;
    }
done:
    lg__free(w.in_deg);
    lg__free(w.out_deg);
    lg__free(queues);
    lg__free(w.mark);
    lg__free(w.color);
    return st;
}

/* Every step reads the in-arcs. */
const struct lg_kernel LG_CPU_ROW(scc) = {LG_ALG_SCC, scc, true};
