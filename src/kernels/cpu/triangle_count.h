/*
 * triangle_count.h - triangles of an undirected graph on the CPU, the one
 * kernel of lg_triangles (triangles.c) and lg_clustering (clustering.c).
 *
 * Returns: struct lg_triangles_args (algorithms.h): each vertex's
 * triangles (NetworkX's triangles: self-loops and repeated arcs ignored),
 * their total, and on request NetworkX's unweighted clustering from them.
 *
 * Method: each triangle is counted once, at its lowest-ranked vertex, by
 * orienting every edge from the lower rank to the higher (Chiba and
 * Nishizeki, SIAM J. Comput. 1985; Schank and Wagner's "forward", WEA
 * 2005), the rank being the degree, ties by id: a vertex keeps only its
 * neighbours of higher rank (its forward row, at most sqrt(2m) of them),
 * and for each forward arc u -> v the triangles on it are the common
 * entries of the forward rows of u and v.  Rows stay sorted by id, so an
 * intersection is a merge, or, when one row is much the longer, a binary
 * search of each entry of the shorter in it (the choice by lengths, as
 * GAPBS's tc and most CPU counters make it).  The vertices' loop is
 * parallel, dynamically scheduled in steps with progress between them; a
 * vertex's count from the other roles it plays (v and w of u's triangles)
 * is an atomic add.
 *
 * Cost: O(m sqrt(m)) at worst, far less on skewed graphs (a hub's forward
 * row holds only the hubs above it); memory: the forward rows (an index an
 * edge and n + 1 offsets) and each vertex's distinct degree.
 */
#ifndef LIBGRAPH_CPU_TRIANGLE_COUNT_H
#define LIBGRAPH_CPU_TRIANGLE_COUNT_H

#include "clustering_value.h"
#include "cpu.h"

#include <string.h>

/* Vertices a progress step takes at least, and a thread at least. */
#define TRIANGLE_STEP 65536
#define TRIANGLE_VERTICES_A_THREAD 8192

/* The forward rows: off[u]..off[u + 1] of idx, sorted by id; and deg[u],
 * u's distinct neighbours other than itself. */
struct forward_rows {
    lg_edge_t *off;
    lg_vertex_t *idx;
    int64_t *deg;
};

/* Whether v ranks above u: a larger degree (row length), ties by id. */
static inline bool ranks_above(const lg_edge_t *off, lg_vertex_t u, lg_vertex_t v)
{
    const lg_edge_t du = off[u + 1] - off[u], dv = off[v + 1] - off[v];
    return dv > du || (dv == du && v > u);
}

/* u's forward row into out (NULL: counted only); returns its length, and
 * *distinct the row's distinct neighbours other than u. */
static inline int64_t forward_row(const struct lg_graph_view *g, lg_vertex_t u, lg_vertex_t *out,
                                  int64_t *distinct)
{
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *idx = g->out.indices;
    int64_t kept = 0, seen = 0;
    lg_vertex_t last = -1;
    for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
        const lg_vertex_t v = idx[e];
        if (v == last || v == u)
            continue;
        last = v;
        seen++;
        if (ranks_above(off, u, v)) {
            if (out)
                out[kept] = v;
            kept++;
        }
    }
    *distinct = seen;
    return kept;
}

struct triangle_work {
    const struct lg_graph_view *g;
    const struct forward_rows *f;
    int64_t *per_vertex; /* NULL: the total only */
    int64_t *totals;     /* a slot a step's task, added up in order */
    int64_t task;        /* vertices a task */
    int threads;
};

/* Counts a[i] in b (both sorted, distinct): by merge, or by a binary search
 * of each entry of a in b when b is much the longer (len_a * log2(len_b)
 * below len_a + len_b); each common entry w gets +1 in per_vertex. */
static inline int64_t common(const lg_vertex_t *a, int64_t la, const lg_vertex_t *b, int64_t lb,
                             int64_t *per_vertex)
{
    int64_t found = 0;
    int64_t log_b = 1;
    while (((int64_t)1 << log_b) < lb)
        log_b++;
    if (la * log_b < la + lb) {
        int64_t lo = 0;
        for (int64_t i = 0; i < la && lo < lb; i++) {
            int64_t hi = lb;
            while (lo < hi) {
                const int64_t mid = lo + (hi - lo) / 2;
                if (b[mid] < a[i])
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < lb && b[lo] == a[i]) {
                found++;
                if (per_vertex)
                    __atomic_fetch_add(&per_vertex[a[i]], 1, __ATOMIC_RELAXED);
            }
        }
        return found;
    }
    for (int64_t i = 0, j = 0; i < la && j < lb;) {
        if (a[i] < b[j]) {
            i++;
        } else if (a[i] > b[j]) {
            j++;
        } else {
            found++;
            if (per_vertex)
                __atomic_fetch_add(&per_vertex[a[i]], 1, __ATOMIC_RELAXED);
            i++, j++;
        }
    }
    return found;
}

/* The triangles at the vertices [first, last): their count into the
 * tasks' slots, and each vertex's share into per_vertex. */
static void triangle_step(const void *work, int64_t first, int64_t last)
{
    const struct triangle_work *w = work;
    const lg_edge_t *off = w->f->off;
    const lg_vertex_t *idx = w->f->idx;
    const int64_t tasks = (last - first + w->task - 1) / w->task;
#pragma omp parallel for num_threads(w->threads) schedule(dynamic, 1)
    for (int64_t t = 0; t < tasks; t++) {
        const int64_t u0 = first + t * w->task, u1 = u0 + w->task < last ? u0 + w->task : last;
        int64_t sum = 0;
        for (int64_t u = u0; u < u1; u++) {
            const lg_vertex_t *fu = idx + off[u];
            const int64_t lu = off[u + 1] - off[u];
            int64_t at_u = 0;
            for (int64_t i = 0; i < lu; i++) {
                const lg_vertex_t v = fu[i];
                const lg_vertex_t *fv = idx + off[v];
                const int64_t lv = off[v + 1] - off[v];
                const int64_t c = lu <= lv ? common(fu, lu, fv, lv, w->per_vertex)
                                           : common(fv, lv, fu, lu, w->per_vertex);
                at_u += c;
                if (w->per_vertex && c)
                    __atomic_fetch_add(&w->per_vertex[v], c, __ATOMIC_RELAXED);
            }
            sum += at_u;
            if (w->per_vertex && at_u)
                __atomic_fetch_add(&w->per_vertex[u], at_u, __ATOMIC_RELAXED);
        }
        w->totals[(u0 - first) / w->task] = sum;
    }
}

static lg_status_t count_triangles(const struct lg_exec *x, const struct lg_graph_view *g,
                                   const void *args)
{
    const struct lg_triangles_args *a = args;
    const int64_t n = g->n;
    const int threads = lg__team_size(x->num_threads, n + g->m);
    static const char what[] = "triangles: the forward rows";
    struct forward_rows f = {lg__alloc_array((size_t)n + 1, sizeof *f.off, what), NULL,
                             lg__alloc_array((size_t)n, sizeof *f.deg, what)};
    int64_t *per_vertex = a->per_vertex, *scratch = NULL, *totals = NULL;
    lg_status_t st = LG_OK;
    if (!f.off || !f.deg)
        goto out_of_memory;
    if (!per_vertex && a->clustering) {
        if (!(per_vertex = scratch = lg__alloc_array((size_t)n, sizeof *scratch, what)))
            goto out_of_memory;
    }
    /* the rows' lengths, their offsets, then the rows */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t u = 0; u < n; u++)
        f.off[u + 1] = forward_row(g, (lg_vertex_t)u, NULL, &f.deg[u]);
    f.off[0] = 0;
    for (int64_t u = 0; u < n; u++)
        f.off[u + 1] += f.off[u];
    if (!(f.idx = lg__alloc_array((size_t)(f.off[n] ? f.off[n] : 1), sizeof *f.idx, what)))
        goto out_of_memory;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t u = 0; u < n; u++) {
        int64_t unused;
        forward_row(g, (lg_vertex_t)u, f.idx + f.off[u], &unused);
    }
    if (per_vertex)
        memset(per_vertex, 0, (size_t)n * sizeof *per_vertex);
    {
        const int64_t task = lg__task_vertices(n, threads, 1024);
        const int64_t step = TRIANGLE_STEP > TRIANGLE_VERTICES_A_THREAD * threads
                                 ? TRIANGLE_STEP
                                 : TRIANGLE_VERTICES_A_THREAD * threads;
        if (!(totals = lg__alloc_array((size_t)(step / task + 1), sizeof *totals, what)))
            goto out_of_memory;
        const struct triangle_work w = {g, &f, per_vertex, totals, task, threads};
        int64_t total = 0;
        for (int64_t first = 0; first < n; first += step) {
            const int64_t last = n - first < step ? n : first + step;
            triangle_step(&w, first, last);
            for (int64_t t = 0; t < (last - first + task - 1) / task; t++)
                total += totals[t];
            if (!lg_exec_go_on(x, LG_STAGE_TRIANGLES, last, n, 0.0)) {
                st = LG_ERR_CANCELLED;
                goto done;
            }
        }
        if (a->total)
            *a->total = total;
    }
    if (a->clustering)
        lg_clustering_values(a, n, per_vertex, f.deg);
    goto done;
out_of_memory:
    st = LG_ERR_OUT_OF_MEMORY;
done:
    lg__free(f.off);
    lg__free(f.idx);
    lg__free(f.deg);
    lg__free(scratch);
    lg__free(totals);
    return st;
}

#endif
