/*
 * local.c - a rank's share made local: 32-bit local ids, the ghosts, the
 * rank's CSR, and the halos (dist.h states the layout).
 *
 *   local ids  columns renamed: owned vertices id - first; ghosts n_local +
 *              their rank in increasing global id (a radix sort of the
 *              non-local columns), so each owner's ghosts are consecutive;
 *              then lg_graph_from_edges builds the rows, sorts and merges
 *              them (the duplicate policies as for one process)
 *   halos      each rank tells the owners of its ghosts which of their
 *              vertices it reads; the owners keep those lists to send values
 *
 * The ghost sort is a parallel LSD radix sort of 64-bit global ids with
 * their slots; the core's graph build sorts short rows of 32-bit ids one
 * row a thread (src/graph/build.c), and the public API offers neither.
 */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

/* ---- local ids ---------------------------------------------------------------------- */

struct lg_dist_csr lg__dist_csr(const lg_graph_t *local)
{
    struct lg_dist_csr r = {NULL, NULL, NULL};
    lg_graph_csr(local, &r.offsets, &r.indices, &r.weights);
    return r;
}

/* Sorts key[0..n) (values < 2^bits) with val alongside: LSD radix, 8-bit
 * digits, each pass a stable counting sort in T pieces (a piece's keys of
 * digit d go after those of the pieces before it). */
static lg_status_t radix_sort_pairs(uint64_t *key, int64_t *val, int64_t n, int bits, int T)
{
    uint64_t *k2 = lg__dist_alloc((size_t)n, sizeof *k2, "the ghost sort");
    int64_t *v2 = k2 ? lg__dist_alloc((size_t)n, sizeof *v2, "the ghost sort") : NULL;
    int64_t *cnt = v2 ? lg__dist_alloc((size_t)T * 256, sizeof *cnt, "the ghost sort") : NULL;
    if (!cnt) {
        free(k2);
        free(v2);
        return LG_ERR_OUT_OF_MEMORY;
    }
    uint64_t *ka = key, *kb = k2;
    int64_t *va = val, *vb = v2;
    for (int shift = 0; shift < bits; shift += 8) {
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (int t = 0; t < T; t++) {
            int64_t *at = cnt + (int64_t)t * 256;
            memset(at, 0, 256 * sizeof *at);
            for (int64_t i = lg__dist_piece(n, t, T); i < lg__dist_piece(n, t + 1, T); i++)
                at[(ka[i] >> shift) & 255]++;
        }
        int64_t sum = 0, most = 0;
        for (int d = 0; d < 256; d++) {
            const int64_t before = sum;
            for (int t = 0; t < T; t++) {
                const int64_t k = cnt[(int64_t)t * 256 + d];
                cnt[(int64_t)t * 256 + d] = sum;
                sum += k;
            }
            most = sum - before > most ? sum - before : most;
        }
        if (most == n)
            continue; /* every key shares this digit */
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (int t = 0; t < T; t++) {
            int64_t *at = cnt + (int64_t)t * 256;
            for (int64_t i = lg__dist_piece(n, t, T); i < lg__dist_piece(n, t + 1, T); i++) {
                const int64_t j = at[(ka[i] >> shift) & 255]++;
                kb[j] = ka[i];
                vb[j] = va[i];
            }
        }
        uint64_t *tk = ka;
        ka = kb;
        kb = tk;
        int64_t *tv = va;
        va = vb;
        vb = tv;
    }
    if (ka != key) {
        memcpy(key, ka, (size_t)n * sizeof *key);
        memcpy(val, va, (size_t)n * sizeof *val);
    }
    free(k2);
    free(v2);
    free(cnt);
    return LG_OK;
}

/* The ghosts: col32[k] for every received arc, g->ghost_gid, g->ghost_begin. */
static lg_status_t name_columns(lg_dist_context_t *c, lg_dist_graph_t *g,
                                const struct lg_dist_arcs *in, int32_t *col32)
{
    const int64_t first = g->first, last = first + g->n_local, n = in->count;
    const int T = lg__dist_threads(c);
    /* at[t]: the first slot of piece t's non-local arcs, in arrival order */
    int64_t *at = lg__dist_calloc((size_t)T + 1, sizeof *at, "the ghost sort");
    if (!at)
        return LG_ERR_OUT_OF_MEMORY;
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        int64_t k = 0;
        for (int64_t i = lg__dist_piece(n, t, T); i < lg__dist_piece(n, t + 1, T); i++)
            k += in->a[i].col < first || in->a[i].col >= last;
        at[t + 1] = k;
    }
    for (int t = 0; t < T; t++)
        at[t + 1] += at[t];
    const int64_t nonlocal = at[T];
    uint64_t *key = lg__dist_alloc((size_t)nonlocal, sizeof *key, "the ghost sort");
    int64_t *val = key ? lg__dist_alloc((size_t)nonlocal, sizeof *val, "the ghost sort") : NULL;
    lg_status_t st = key && val ? LG_OK : LG_ERR_OUT_OF_MEMORY;
    if (st == LG_OK) {
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (int t = 0; t < T; t++) {
            int64_t j = at[t];
            for (int64_t k = lg__dist_piece(n, t, T); k < lg__dist_piece(n, t + 1, T); k++) {
                int64_t col = in->a[k].col;
                if (col >= first && col < last) {
                    col32[k] = (int32_t)(col - first);
                } else {
                    key[j] = (uint64_t)col;
                    val[j++] = k;
                }
            }
        }
        int bits = 1;
        while (bits < 63 && ((int64_t)1 << bits) < g->n)
            bits++;
        if (nonlocal > 0)
            st = radix_sort_pairs(key, val, nonlocal, bits, T);
    }
    /* at[t]: the ghosts (distinct sorted keys) before piece t of the keys */
    if (st == LG_OK) {
        at[0] = 0;
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (int t = 0; t < T; t++) {
            int64_t k = 0;
            for (int64_t j = lg__dist_piece(nonlocal, t, T); j < lg__dist_piece(nonlocal, t + 1, T);
                 j++)
                k += j == 0 || key[j] != key[j - 1];
            at[t + 1] = k;
        }
        for (int t = 0; t < T; t++)
            at[t + 1] += at[t];
    }
    const int64_t ghosts = st == LG_OK ? at[T] : 0;
    if (st == LG_OK && g->n_local + ghosts > LG_DIST_MAX_LOCAL)
        st = lg__dist_error(LG_ERR_UNSUPPORTED,
                            "%lld vertices and %lld ghosts on one "
                            "rank; local ids are 32-bit: use more ranks",
                            (long long)g->n_local, (long long)ghosts);
    if (st == LG_OK) {
        g->ghost_gid = lg__dist_alloc((size_t)ghosts, sizeof *g->ghost_gid, "the ghost ids");
        g->ghost_begin =
            lg__dist_alloc((size_t)g->size + 1, sizeof *g->ghost_begin, "the ghost ranges");
        if (!g->ghost_gid || !g->ghost_begin)
            st = LG_ERR_OUT_OF_MEMORY;
    }
    if (st == LG_OK) {
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (int t = 0; t < T; t++) {
            int64_t gh = at[t] - 1;
            for (int64_t j = lg__dist_piece(nonlocal, t, T); j < lg__dist_piece(nonlocal, t + 1, T);
                 j++) {
                if (j == 0 || key[j] != key[j - 1])
                    g->ghost_gid[++gh] = (int64_t)key[j];
                col32[val[j]] = (int32_t)(g->n_local + gh);
            }
        }
        g->n_ghost = ghosts;
        int r = 0;
        g->ghost_begin[0] = 0;
        for (int64_t k = 0; k < ghosts; k++)
            while (g->ghost_gid[k] >= g->firsts[r + 1])
                g->ghost_begin[++r] = k;
        while (r < g->size)
            g->ghost_begin[++r] = ghosts;
    }
    free(key);
    free(val);
    free(at);
    return st;
}

/* Builds g->out (and g->in) from the received arcs and their local columns. */
static lg_status_t build_local(lg_dist_context_t *c, lg_dist_graph_t *g,
                               const struct lg_dist_arcs *in, const int32_t *col32,
                               const lg_dist_graph_options_t *o)
{
    const int64_t n = in->count;
    const int T = lg__dist_threads(c);
    /* at[t]: piece t's in-arcs before it; out-arcs first, then in-arcs, each
     * kind in arrival order */
    int64_t *at = lg__dist_calloc((size_t)T + 1, sizeof *at, "the local arcs");
    int32_t *rows = at ? lg__dist_alloc((size_t)n, 2 * sizeof *rows, "the local arcs") : NULL;
    float *w = in->w && rows ? lg__dist_alloc((size_t)n, sizeof *w, "the local weights") : NULL;
    if (!rows || (in->w && !w)) {
        free(at);
        free(rows);
        return LG_ERR_OUT_OF_MEMORY;
    }
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        int64_t k = 0;
        for (int64_t i = lg__dist_piece(n, t, T); i < lg__dist_piece(n, t + 1, T); i++)
            k += (in->a[i].row & LG_DIST_IN_ARC) != 0;
        at[t + 1] = k;
    }
    for (int t = 0; t < T; t++)
        at[t + 1] += at[t];
    const int64_t n_in = at[T], n_out = n - n_in;
    int32_t *cols = rows + n;
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        const int64_t lo = lg__dist_piece(n, t, T);
        int64_t ii = n_out + at[t], io = lo - at[t];
        for (int64_t k = lo; k < lg__dist_piece(n, t + 1, T); k++) {
            int64_t j = (in->a[k].row & LG_DIST_IN_ARC) ? ii++ : io++;
            rows[j] = (int32_t)(LG_DIST_ROW(in->a[k].row) - g->first);
            cols[j] = col32[k];
            if (w)
                w[j] = in->w[k];
        }
    }
    free(at);
    lg_graph_options_t lo;
    lg_graph_options_init(&lo);
    lo.directedness = LG_DIRECTED;
    lo.duplicates = o->duplicates;
    const int64_t nv = g->n_local + g->n_ghost;
    lg_status_t st = lg_graph_from_edges(c->local, nv, n_out, rows, cols, w, &lo, &g->out);
    if (st == LG_OK && g->directed)
        st = lg_graph_from_edges(c->local, nv, n_in, rows + n_out, cols + n_out,
                                 w ? w + n_out : NULL, &lo, &g->in);
    else if (st == LG_OK)
        g->in = g->out;
    free(rows);
    free(w);
    return st;
}

/* ---- halos -------------------------------------------------------------------------- */

/* The halo of the ghosts wanted[0..count) (increasing ghost indices; NULL:
 * every ghost): their owners learn which of their vertices to send. */
static lg_status_t make_halo(lg_dist_context_t *c, lg_dist_graph_t *g, const int32_t *wanted,
                             int64_t count, struct lg_dist_halo *h)
{
    const int P = c->size;
    memset(h, 0, sizeof *h);
    int64_t *counts = lg__dist_calloc(4 * (size_t)P + 4, sizeof *counts, "halo counts");
    int32_t *ask = lg__dist_alloc((size_t)count, sizeof *ask, "halo requests");
    lg_status_t st = counts && ask ? LG_OK : LG_ERR_OUT_OF_MEMORY;
    if (st == LG_OK) {
        h->send_counts = counts;
        h->send_displs = counts + P;
        h->recv_counts = counts + 2 * P + 1;
        h->recv_displs = counts + 3 * P + 1;
        int r = 0;
        for (int64_t k = 0; k < count; k++) {
            int64_t gh = wanted ? wanted[k] : k;
            while (gh >= g->ghost_begin[r + 1])
                r++;
            h->recv_counts[r]++;
            ask[k] = (int32_t)(g->ghost_gid[gh] - g->firsts[r]);
        }
        for (int p = 0; p < P; p++)
            h->recv_displs[p + 1] = h->recv_displs[p] + h->recv_counts[p];
    } else {
        free(counts);
        counts = NULL;
    }
    st = lg__dist_agree(c, st);
    void *idx = NULL;
    if (st == LG_OK)
        st = lg__dist_alltoallv(c, ask, h->recv_counts, sizeof *ask, &idx, h->send_counts);
    free(ask);
    if (st != LG_OK) {
        free(counts);
        memset(h, 0, sizeof *h);
        return st;
    }
    for (int p = 0; p < P; p++)
        h->send_displs[p + 1] = h->send_displs[p] + h->send_counts[p];
    h->send_index = idx;
    if (wanted) {
        h->recv_ghost = lg__dist_alloc((size_t)count, sizeof *h->recv_ghost, "the halo");
        if (h->recv_ghost)
            memcpy(h->recv_ghost, wanted, (size_t)count * sizeof *wanted);
    }
    st = lg__dist_agree(c, wanted && !h->recv_ghost ? LG_ERR_OUT_OF_MEMORY : LG_OK);
    if (st != LG_OK)
        lg__dist_halo_free(h);
    return st;
}

/* The pull halo of a directed graph: the ghosts its in-arcs read. */
static lg_status_t make_pull_halo(lg_dist_context_t *c, lg_dist_graph_t *g)
{
    uint8_t *used = lg__dist_calloc((size_t)g->n_ghost, 1, "the pull halo");
    int32_t *wanted = NULL;
    int64_t count = 0;
    if (used) {
        struct lg_dist_csr in = lg__dist_csr(g->in);
        const int64_t arcs = in.offsets[g->n_local];
        for (int64_t k = 0; k < arcs; k++)
            if (in.indices[k] >= g->n_local)
                used[in.indices[k] - g->n_local] = 1;
        for (int64_t gh = 0; gh < g->n_ghost; gh++)
            count += used[gh];
        wanted = lg__dist_alloc((size_t)count, sizeof *wanted, "the pull halo");
        if (wanted)
            for (int64_t gh = 0, k = 0; gh < g->n_ghost; gh++)
                if (used[gh])
                    wanted[k++] = (int32_t)gh;
    }
    free(used);
    lg_status_t st = lg__dist_agree(c, wanted ? LG_OK : LG_ERR_OUT_OF_MEMORY);
    if (st == LG_OK)
        st = make_halo(c, g, wanted, count, &g->pull);
    free(wanted);
    return st;
}

lg_status_t lg__dist_local(lg_dist_context_t *c, lg_dist_graph_t *g, const struct lg_dist_arcs *in,
                           const lg_dist_graph_options_t *o)
{
    int32_t *col32 = lg__dist_alloc((size_t)in->count, sizeof *col32, "the local columns");
    lg_status_t st = col32 ? name_columns(c, g, in, col32) : LG_ERR_OUT_OF_MEMORY;
    if (st == LG_OK)
        st = build_local(c, g, in, col32, o);
    free(col32);
    return st;
}

lg_status_t lg__dist_halos(lg_dist_context_t *c, lg_dist_graph_t *g)
{
    lg_status_t st = make_halo(c, g, NULL, g->n_ghost, &g->all);
    if (st == LG_OK) {
        if (g->in == g->out)
            g->pull = g->all;
        else
            st = make_pull_halo(c, g);
    }
    return st;
}
