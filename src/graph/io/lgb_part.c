/*
 * lgb_part.c - one part of a .lgb for lg_read_edges (part.c), so that many
 * processes can load one file: the part's rows are cut where its share of
 * the arcs begins and ends (a binary search over the row offsets by pread),
 * and the part hashes its share of the file's checksum, so that the parts'
 * shares, summed, are checked against the stored checksum
 * (lg_read_edges_verify).  The layout and the checksum are lgb.c's.
 */
#define _XOPEN_SOURCE 700 /* pread */
#include "lgb.h"

#include <errno.h>
#include <string.h>

/* ---- one part ------------------------------------------------------------- */

/* offsets[row] of the file, by pread. */
static lg_status_t read_offset(struct lg_in_file *in, size_t at, int64_t row, int64_t *value)
{
    const int64_t got = lg__pread_full(in->fd, value, 8, (int64_t)(at + (size_t)row * 8));
    if (got < 0)
        return lg__errno_error(errno, in->path, "read error");
    return got == 8 ? LG_OK : lg__error(LG_ERR_IO, "%s: truncated row offsets", in->path);
}

/* The first row whose offset is >= target (offsets non-decreasing; a file
 * whose are not is caught by the part that reads them). */
static lg_status_t row_at(struct lg_in_file *in, size_t at, int64_t n, int64_t target, int64_t *row)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        int64_t off;
        lg_status_t st = read_offset(in, at, mid, &off);
        if (st != LG_OK)
            return st;
        if (off < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    *row = lo;
    return LG_OK;
}

/* ---- a part's share of the checksum ---------------------------------------------- */

/* Where section k (struct lgb_sums) starts in the file, and its bytes. */
static void lgb_section(const struct lgb_header *h, int k, int64_t *at, size_t *bytes)
{
    const int64_t offsets = (h->n + 1) * 8, cols = h->m * 4;
    const int64_t weights = (h->flags & LGB_FLAG_WEIGHTED) ? h->m * lgb_weight_bytes(h) : 0;
    const int64_t names = h->names_kind == LG_NAMES_INT64  ? h->n * 8
                          : h->names_kind == LG_NAMES_UTF8 ? (h->n + 1) * 8
                                                           : 0;
    const int64_t len[5] = {offsets, cols, weights, names, lgb_names_bytes(h) - names};
    int64_t start = (int64_t)lgb_header_bytes(h);
    for (int j = 0; j < k; j++)
        start += len[j];
    *at = start;
    *bytes = (size_t)len[k];
}

/* Blocks read from the file at once, where a part's arrays do not hold them. */
#define LGB_HASH_RUN 8

/* The sum of the hashes of section k's blocks that start in [lo, hi) (of
 * its `bytes`), taken from mem (the section's bytes [mem_lo, mem_hi)) where
 * a block is there whole, else read from the file into *buf (allocated on
 * first use, LGB_HASH_RUN blocks). */
static lg_status_t hash_share(struct lg_in_file *in, const struct lgb_header *h, int k, size_t lo,
                              size_t hi, const void *mem, size_t mem_lo, size_t mem_hi, int threads,
                              unsigned char **buf, uint64_t *sum)
{
    const size_t B = LGB_HASH_BLOCK;
    int64_t at;
    size_t bytes;
    lgb_section(h, k, &at, &bytes);
    hi = hi < bytes ? hi : bytes;
    const int64_t stop = (int64_t)((hi + B - 1) / B);
    const uint64_t tag = (uint64_t)k << 48;
    uint64_t total = 0;
    for (int64_t b = (int64_t)((lo + B - 1) / B); b < stop;) {
        const size_t from = (size_t)b * B;
        int64_t e = b; /* [b, e): blocks whole in mem */
        while (mem && e < stop && (size_t)e * B >= mem_lo &&
               (size_t)e * B + (bytes - (size_t)e * B < B ? bytes - (size_t)e * B : B) <= mem_hi)
            e++;
        const unsigned char *p = (const unsigned char *)mem + (from - mem_lo);
        if (e == b) { /* not in mem: a run from the file */
            e = b + LGB_HASH_RUN < stop ? b + LGB_HASH_RUN : stop;
            const size_t to = (size_t)e * B < bytes ? (size_t)e * B : bytes;
            if (!*buf && !(*buf = lg__malloc(LGB_HASH_RUN * B)))
                return LG_ERR_OUT_OF_MEMORY;
            const int64_t got = lg__pread_full(in->fd, *buf, to - from, at + (int64_t)from);
            if (got < 0)
                return lg__errno_error(errno, in->path, "read error");
            if ((size_t)got != to - from)
                return lg__error(LG_ERR_IO, "%s: truncated while reading for the checksum",
                                 in->path);
            p = *buf;
        }
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : total)
        for (int64_t j = b; j < e; j++) {
            const size_t start = (size_t)j * B, len = bytes - start < B ? bytes - start : B;
            total += lg__lgb_hash_block(p + (start - from), len, tag | (uint64_t)j << 2);
        }
        b = e;
    }
    *sum = total;
    return LG_OK;
}

/* Part `part` of num_parts' share of the file's section hashes: of the row
 * offsets and the arcs, the blocks that start in its own rows' and arcs'
 * bytes (from the arrays it read, or the file for a block that runs past
 * them); of the names, which parts do not read, an even share of the blocks
 * (read from the file).  The shares of all parts add up to the file's. */
static lg_status_t part_sums(struct lg_in_file *in, const struct lgb_header *h, int part,
                             int num_parts, int64_t r0, int64_t r1, const lg_edge_t *offsets,
                             const lg_edge_part_t *p, int threads, uint64_t sums[5])
{
    const bool last = part + 1 == num_parts;
    const int64_t a0 = offsets[0], a1 = offsets[r1 - r0];
    unsigned char *buf = NULL;
    memset(sums, 0, 5 * sizeof *sums);
    lg_status_t st = hash_share(in, h, 0, (size_t)r0 * 8, last ? SIZE_MAX : (size_t)r1 * 8, offsets,
                                (size_t)r0 * 8, (size_t)(r1 + 1) * 8, threads, &buf, &sums[0]);
    if (st == LG_OK)
        st = hash_share(in, h, 1, (size_t)a0 * 4, last ? SIZE_MAX : (size_t)a1 * 4, p->dst,
                        (size_t)a0 * 4, (size_t)a1 * 4, threads, &buf, &sums[1]);
    if (st == LG_OK && p->weights)
        st = hash_share(in, h, 2, (size_t)a0 * 4, last ? SIZE_MAX : (size_t)a1 * 4, p->weights,
                        (size_t)a0 * 4, (size_t)a1 * 4, threads, &buf, &sums[2]);
    for (int k = 3; k < 5 && st == LG_OK; k++) {
        int64_t at;
        size_t bytes;
        lgb_section(h, k, &at, &bytes);
        const size_t blocks = (bytes + LGB_HASH_BLOCK - 1) / LGB_HASH_BLOCK;
        const size_t lo = blocks * (size_t)part / (size_t)num_parts * LGB_HASH_BLOCK;
        const size_t hi = blocks * ((size_t)part + 1) / (size_t)num_parts * LGB_HASH_BLOCK;
        st = hash_share(in, h, k, lo, hi, NULL, 0, 0, threads, &buf, &sums[k]);
    }
    lg__free(buf);
    return st;
}

lg_status_t lg__lgb_verify_parts(const char *path, const uint64_t sums[LG_EDGE_PART_CHECKSUMS])
{
    struct lgb_header h = {0};
    struct lg_in_file in;
    lg_status_t st = lg__in_open_regular(&in, path, "lg_read_edges_verify",
                                         "its checksum is summed from byte ranges of one");
    if (st != LG_OK)
        return st;
    if ((st = lg__lgb_read_header(&in, &h)) == LG_OK) {
        struct lgb_sums s;
        memcpy(s.section, sums, sizeof s.section);
        st = lg__lgb_check_sum(path, &h, &s, " from its parts");
    }
    if (st == LG_OK)
        st = lg__lgb_check_symmetric(path, &h, sums[LGB_ASYMMETRY], " (summed over its parts)");
    lg__in_close(&in);
    return st;
}

lg_status_t lg__read_lgb_part(lg_context_t *context, const char *path, int part, int num_parts,
                              lg_edge_part_t *out)
{
    struct lgb_header h = {0};
    struct lg_in_file in;
    lg_edge_t *offsets = NULL;
    lg_status_t st =
        lg__in_open_regular(&in, path, "lg_read_edges", "parts are byte ranges of one");
    if (st != LG_OK)
        return st;
    if ((st = lg__lgb_read_header(&in, &h)) != LG_OK)
        goto cleanup;
    if (h.flags & LGB_FLAG_WEIGHTS64) {
        st = lg__error(LG_ERR_UNSUPPORTED,
                       "%s: its weights are float64; lg_read_edges reads float32 weights (load it "
                       "with lg_graph_read)",
                       path);
        goto cleanup;
    }
    const size_t at = lgb_header_bytes(&h), cols_at = at + ((size_t)h.n + 1) * 8;
    const bool weighted = h.flags & LGB_FLAG_WEIGHTED;
    const int threads = lg__threads(context);
    /* rows [r0, r1): the part's share of arcs, cut at row boundaries */
    int64_t r0 = 0, r1 = h.n;
    if (part > 0 &&
        (st = row_at(&in, at, h.n, h.m / num_parts * part + h.m % num_parts * part / num_parts,
                     &r0)) != LG_OK)
        goto cleanup;
    if (part + 1 < num_parts &&
        (st = row_at(&in, at, h.n,
                     h.m / num_parts * (part + 1) + h.m % num_parts * (part + 1) / num_parts,
                     &r1)) != LG_OK)
        goto cleanup;
    if (r1 < r0)
        r1 = r0;
    offsets = lg__alloc_array((size_t)(r1 - r0) + 1, sizeof *offsets, "CSR row offsets");
    if (!offsets) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    in.pos = (int64_t)(at + (size_t)r0 * 8);
    if ((st = lg__in_read(&in, offsets, ((size_t)(r1 - r0) + 1) * 8, threads, "row offsets")) !=
        LG_OK)
        goto cleanup;
    if ((st = lg__lgb_check_offsets(path, &h, r0, r1, offsets)) != LG_OK)
        goto cleanup;
    const int64_t a0 = offsets[0], a1 = offsets[r1 - r0];
    const int64_t arcs = a1 - a0;
    out->src = lg__alloc_array((size_t)arcs, sizeof *out->src, "edge sources");
    out->dst = lg__alloc_array((size_t)arcs, sizeof *out->dst, "edge destinations");
    if (weighted)
        out->weights = lg__alloc_array((size_t)arcs, sizeof *out->weights, "edge weights");
    if (!out->src || !out->dst || (weighted && !out->weights)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    in.pos = (int64_t)(cols_at + (size_t)a0 * 4);
    if ((st = lg__in_read(&in, out->dst, (size_t)arcs * 4, threads, "column indices")) != LG_OK)
        goto cleanup;
    if (weighted) {
        in.pos = (int64_t)(cols_at + (size_t)h.m * 4 + (size_t)a0 * 4);
        if ((st = lg__in_read(&in, out->weights, (size_t)arcs * 4, threads, "weights")) != LG_OK)
            goto cleanup;
    }
    for (int64_t r = 0; r < r1 - r0; r++)
        for (int64_t k = offsets[r]; k < offsets[r + 1]; k++)
            out->src[k - a0] = (lg_vertex_t)(r0 + r);
    if ((st = part_sums(&in, &h, part, num_parts, r0, r1, offsets, out, threads, out->checksum)) !=
        LG_OK)
        goto cleanup;
    /* the symmetry of an undirected file's arcs, whole-file like the
     * checksum: the part's share of lg__arcs_asymmetry, summed with the
     * others' and checked by lg__lgb_verify_parts */
    if (!(h.flags & LGB_FLAG_DIRECTED))
        out->checksum[LGB_ASYMMETRY] =
            lg__arcs_asymmetry(r0, r1 - r0, offsets, out->dst, out->weights, NULL, threads);
    out->count = arcs;
    out->num_vertices = h.n;
    out->directedness = (h.flags & LGB_FLAG_DIRECTED) ? LG_DIRECTED : LG_UNDIRECTED;
    out->both_arcs = !(h.flags & LGB_FLAG_DIRECTED);
    out->declared_edges = -1;

cleanup:
    lg__free(offsets); /* out's arrays, on failure too, are the caller's to free */
    lg__in_close(&in);
    return st;
}
