/*
 * lgb.c - libgraph's binary CSR (.lgb), for fast reloads: reader, writer and
 * checksum (lgb_part.c reads one part of a file, for lg_read_edges).  The
 * layout is this library's own (docs/ARCHITECTURE.md, "Files", has the same
 * table):
 *
 * .lgb, version 1 or 2.  All integers little-endian; offsets in bytes.
 *
 *     0   8  magic 89 4C 47 42 0D 0A 1A 0A ("\x89LGB\r\n\x1a\n", after PNG's: the
 *            high byte catches 7-bit channels, CR LF and LF catch newline
 *            translation, 1A stops DOS's type)
 *     8   4  uint32 version (1: no names; 2: the fields at 40 and the names)
 *    12   4  uint32 flags: bit 0 directed, bit 1 weighted, bit 2 float64 weights
 *            (with bit 1); other bits 0
 *    16   8  int64 n, the number of vertices
 *    24   8  int64 m, the number of stored arcs
 *    32   8  uint64 checksum (lgb_checksum)
 *   version 2 only:
 *    40   4  uint32 names kind (lg_names_kind_t: 0 none, 1 int64, 2 UTF-8)
 *    44   4  uint32 0
 *    48   8  int64 t, the bytes of UTF-8 names (0 for other kinds)
 *  40 / 56   int64 row_offsets[n + 1], int32 col_indices[m], float32 weights[m]
 *            (float64 with bit 2; weights only when weighted); then the names: int64 names[n]
 *            (kind 1) or int64 name_offsets[n + 1] and t bytes of text
 *            (kind 2); nothing after them
 *
 * The writer writes version 1 for a graph without names, so that such files
 * stay readable by libgraph versions that know only version 1.
 *
 * An undirected graph stores its symmetric CSR (both arcs of every edge).
 * The arrays lie in the file exactly as in memory, so reading is parallel
 * preads into them and writing is one write an array; the host must be
 * little-endian (dispatch.c checks).  The graph is then built by
 * lg_graph_from_csr, which validates it again.
 *
 * Errors: LG_ERR_IO "path: reason" for a bad magic number, version 0,
 * unknown flags, counts out of range, a size that disagrees with the header
 * (truncated, or bytes left over), a checksum mismatch, or row offsets that
 * do not run from 0 to m; LG_ERR_UNSUPPORTED for a newer version;
 * LG_ERR_INVALID_ARGUMENT when the options ask for the other directedness.
 */
#define _XOPEN_SOURCE 700 /* pread */
#include "lgb.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static const unsigned char LGB_MAGIC[8] = {0x89, 'L', 'G', 'B', '\r', '\n', 0x1a, '\n'};
#define LGB_VERSION 2u
#define LGB_FLAGS_KNOWN (LGB_FLAG_DIRECTED | LGB_FLAG_WEIGHTED | LGB_FLAG_WEIGHTS64)

/* The host is little-endian (checked before), so the header is memcpy'd. */
static void lgb_encode(const struct lgb_header *h, unsigned char b[LGB_HEADER_BYTES])
{
    memcpy(b, LGB_MAGIC, 8);
    memcpy(b + 8, &h->version, 4);
    memcpy(b + 12, &h->flags, 4);
    memcpy(b + 16, &h->n, 8);
    memcpy(b + 24, &h->m, 8);
    memcpy(b + 32, &h->checksum, 8);
    memcpy(b + 40, &h->names_kind, 4);
    memcpy(b + 44, &h->reserved, 4);
    memcpy(b + 48, &h->text_bytes, 8);
}

static void lgb_decode(const unsigned char b[LGB_HEADER_BYTES], struct lgb_header *h)
{
    memcpy(&h->version, b + 8, 4);
    memcpy(&h->flags, b + 12, 4);
    memcpy(&h->n, b + 16, 8);
    memcpy(&h->m, b + 24, 8);
    memcpy(&h->checksum, b + 32, 8);
}

static void lgb_decode_v2(const unsigned char b[LGB_HEADER_BYTES], struct lgb_header *h)
{
    memcpy(&h->names_kind, b + 40, 4);
    memcpy(&h->reserved, b + 44, 4);
    memcpy(&h->text_bytes, b + 48, 8);
}

/* Payload bytes the header promises; n, m and t are already in range. */
static int64_t lgb_payload_bytes(const struct lgb_header *h)
{
    const int64_t per_arc = 4 + ((h->flags & LGB_FLAG_WEIGHTED) ? lgb_weight_bytes(h) : 0);
    return (h->n + 1) * 8 + h->m * per_arc + lgb_names_bytes(h);
}

/* ---- the checksum -------------------------------------------------------------- */

static uint64_t load_word(const unsigned char *p, size_t bytes)
{
    uint64_t w = 0;
    memcpy(&w, p, bytes);
    return w;
}

/* One block of a section: its 8-byte words (the last zero-padded) go round
 * four lanes, word i to lane i % 4, so that four multiply chains overlap in
 * the pipeline; each lane starts from lg__mix64(tag + lane) and absorbs a word
 * w as lane = lg__mix64(lane ^ w).  The lanes and the block length are folded
 * as mix(l0 ^ mix(l1 ^ mix(l2 ^ mix(l3 ^ bytes)))). */
uint64_t lg__lgb_hash_block(const unsigned char *p, size_t bytes, uint64_t tag)
{
    uint64_t lane[4];
    const size_t words = bytes / 8;
    size_t i = 0;
    for (int j = 0; j < 4; j++)
        lane[j] = lg__mix64(tag + (uint64_t)j);
    for (; i + 4 <= words; i += 4)
        for (int j = 0; j < 4; j++)
            lane[j] = lg__mix64(lane[j] ^ load_word(p + 8 * (i + (size_t)j), 8));
    for (; i < words; i++)
        lane[i % 4] = lg__mix64(lane[i % 4] ^ load_word(p + 8 * i, 8));
    if (bytes % 8)
        lane[words % 4] = lg__mix64(lane[words % 4] ^ load_word(p + 8 * words, bytes % 8));
    const uint64_t folded = lg__mix64(lane[2] ^ lg__mix64(lane[3] ^ bytes));
    return lg__mix64(lane[0] ^ lg__mix64(lane[1] ^ folded));
}

/* A section (one array) is cut into 1 MiB blocks; block b is hashed with tag
 * section << 48 | b << 2, and the section's hash is the sum (mod 2^64) of its
 * block hashes.  The tags make the sum depend on each block's place, and the
 * sum makes the result independent of the thread count -- and lets a reader
 * hash a section part by part, as the parts arrive.  hash_part sums the
 * blocks of [lo, hi) of a section of `bytes` bytes (lo a multiple of the
 * block, hi too unless it is the end). */
static uint64_t hash_part(const void *data, size_t bytes, size_t lo, size_t hi, uint64_t section,
                          int threads)
{
    const unsigned char *p = data;
    const int64_t first = (int64_t)(lo / LGB_HASH_BLOCK);
    const int64_t stop = (int64_t)((hi + LGB_HASH_BLOCK - 1) / LGB_HASH_BLOCK);
    uint64_t sum = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
    for (int64_t b = first; b < stop; b++) {
        const size_t at = (size_t)b * LGB_HASH_BLOCK;
        const size_t len = bytes - at < LGB_HASH_BLOCK ? bytes - at : LGB_HASH_BLOCK;
        sum += lg__lgb_hash_block(p + at, len, section << 48 | (uint64_t)b << 2);
    }
    return sum;
}

static uint64_t hash_section(const void *data, size_t bytes, uint64_t section, int threads)
{
    return hash_part(data, bytes, 0, bytes, section, threads);
}

/* lg__lgb_ignore_checksum's setting. */
static atomic_int ignore_checksum;

int lg__lgb_ignore_checksum(int on)
{
    return atomic_exchange(&ignore_checksum, on);
}

/* Chains the header fields and the section hashes through lg__mix64 (in
 * version 2 the names' kind and text length too, and their sections), so a
 * flipped flag or count is caught as surely as a flipped payload byte. */
static uint64_t lgb_checksum(const struct lgb_header *h, const struct lgb_sums *s)
{
    uint64_t x = lg__mix64(h->version | (uint64_t)h->flags << 32);
    x = lg__mix64(x ^ (uint64_t)h->n);
    x = lg__mix64(x ^ (uint64_t)h->m);
    for (int k = 0; k < 3; k++)
        x = lg__mix64(x ^ s->section[k]);
    if (h->version < 2)
        return x;
    x = lg__mix64(x ^ (h->names_kind | (uint64_t)h->reserved << 32));
    x = lg__mix64(x ^ (uint64_t)h->text_bytes);
    if (h->names_kind != LG_NAMES_NONE)
        x = lg__mix64(x ^ s->section[3]);
    if (h->names_kind == LG_NAMES_UTF8)
        x = lg__mix64(x ^ s->section[4]);
    return x;
}

lg_status_t lg__lgb_check_sum(const char *path, const struct lgb_header *h,
                              const struct lgb_sums *s, const char *how)
{
    const uint64_t sum = lgb_checksum(h, s);
    if (sum == h->checksum || atomic_load(&ignore_checksum))
        return LG_OK;
    return lg__error(LG_ERR_IO, "%s: checksum mismatch (stored %016llx, computed %016llx%s)", path,
                     (unsigned long long)h->checksum, (unsigned long long)sum, how);
}

lg_status_t lg__lgb_check_offsets(const char *path, const struct lgb_header *h, int64_t r0,
                                  int64_t r1, const lg_edge_t *offsets)
{
    const int64_t a0 = offsets[0], a1 = offsets[r1 - r0];
    if ((r0 == 0 && a0 != 0) || (r1 == h->n && a1 != h->m) || a0 < 0 || a1 > h->m || a1 < a0)
        return lg__error(LG_ERR_IO, "%s: row offsets run from %lld to %lld, not from 0 to m = %lld",
                         path, (long long)a0, (long long)a1, (long long)h->m);
    for (int64_t r = 0; r < r1 - r0; r++)
        if (offsets[r + 1] < offsets[r])
            return lg__error(LG_ERR_IO, "%s: row offsets decrease at row %lld", path,
                             (long long)(r0 + r + 1));
    return LG_OK;
}

lg_status_t lg__lgb_check_symmetric(const char *path, const struct lgb_header *h,
                                    uint64_t asymmetry, const char *how)
{
    if ((h->flags & LGB_FLAG_DIRECTED) || asymmetry == 0)
        return LG_OK;
    return lg__error(LG_ERR_IO,
                     "%s: an undirected graph needs a symmetric CSR, but the arcs stored are not "
                     "their own reverses%s",
                     path, how);
}

/* The sections' hashes of arrays in memory (the writer's). */
static void lgb_sums_of(const struct lgb_header *h, const lg_edge_t *offsets,
                        const lg_vertex_t *indices, const void *weights, const lg_names_t *names,
                        int threads, struct lgb_sums *s)
{
    memset(s, 0, sizeof *s);
    s->section[0] = hash_section(offsets, (size_t)(h->n + 1) * sizeof *offsets, 0, threads);
    s->section[1] = hash_section(indices, (size_t)h->m * sizeof *indices, 1, threads);
    if (weights)
        s->section[2] = hash_section(weights, (size_t)h->m * lgb_weight_bytes(h), 2, threads);
    if (names->kind == LG_NAMES_INT64)
        s->section[3] = hash_section(names->ints, (size_t)h->n * 8, 3, threads);
    if (names->kind == LG_NAMES_UTF8) {
        s->section[3] = hash_section(names->offsets, ((size_t)h->n + 1) * 8, 3, threads);
        s->section[4] = hash_section(names->text, (size_t)h->text_bytes, 4, threads);
    }
}

/* ---- the reader ---------------------------------------------------------------- */

/* Checks the header's fields and, for a regular file, its size against them
 * (before anything is allocated on the header's word). */
static lg_status_t check_lgb_header(const struct lg_in_file *in, const struct lgb_header *h)
{
    const char *path = in->path;
    if (h->version == 0)
        return lg__error(LG_ERR_IO, "%s: bad format version 0", path);
    if (h->version > LGB_VERSION)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s: format version %u is newer than this libgraph reads (%u); upgrade "
                         "libgraph",
                         path, (unsigned)h->version, LGB_VERSION);
    if (h->flags & ~LGB_FLAGS_KNOWN)
        return lg__error(LG_ERR_IO, "%s: unknown flags 0x%x in a version %u file", path,
                         (unsigned)h->flags, (unsigned)h->version);
    if ((h->flags & LGB_FLAG_WEIGHTS64) && !(h->flags & LGB_FLAG_WEIGHTED))
        return lg__error(LG_ERR_IO, "%s: flags 0x%x say float64 weights but no weights", path,
                         (unsigned)h->flags);
    if (h->n < 0 || h->n > LG_MAX_VERTICES)
        return lg__error(LG_ERR_IO, "%s: bad vertex count %lld", path, (long long)h->n);
    if (h->m < 0 || h->m > LG_MAX_FILE_EDGES)
        return lg__error(LG_ERR_IO, "%s: bad arc count %lld", path, (long long)h->m);
    if (h->names_kind > LG_NAMES_UTF8)
        return lg__error(LG_ERR_IO, "%s: unknown names kind %u", path, (unsigned)h->names_kind);
    if (h->reserved != 0)
        return lg__error(LG_ERR_IO, "%s: the reserved header field (bytes 44-47) is %u, not 0",
                         path, (unsigned)h->reserved);
    if (h->text_bytes < 0 || h->text_bytes > LG_MAX_FILE_EDGES * 8 ||
        (h->names_kind != LG_NAMES_UTF8 && h->text_bytes != 0))
        return lg__error(LG_ERR_IO, "%s: bad names length %lld", path, (long long)h->text_bytes);
    if (!in->regular)
        return LG_OK; /* a pipe: short reads will tell */
    const int64_t want = (int64_t)lgb_header_bytes(h) + lgb_payload_bytes(h);
    if (in->size < want)
        return lg__error(LG_ERR_IO, "%s: truncated: %lld bytes, but the header promises %lld", path,
                         (long long)in->size, (long long)want);
    if (in->size > want)
        return lg__error(LG_ERR_IO, "%s: %lld bytes, more than the %lld the header promises", path,
                         (long long)in->size, (long long)want);
    return LG_OK;
}

lg_status_t lg__lgb_read_header(struct lg_in_file *in, struct lgb_header *h)
{
    unsigned char b[LGB_HEADER_BYTES] = {
        0}; /* a short file decodes as zeros, not as stack garbage */
    int64_t got = lg__read_full(in->fd, (char *)b, LGB_V1_HEADER_BYTES);
    if (got < 0)
        return lg__errno_error(errno, in->path, "read error");
    if (got >= (int64_t)sizeof LGB_MAGIC && memcmp(b, LGB_MAGIC, sizeof LGB_MAGIC) != 0)
        return lg__error(LG_ERR_IO, "%s: not a libgraph binary graph (bad magic number)", in->path);
    lgb_decode(b, h);
    /* version 2 has more header after version 1's */
    if (got == LGB_V1_HEADER_BYTES && h->version >= 2) {
        const int64_t more = lg__read_full(in->fd, (char *)b + got, LGB_HEADER_BYTES - got);
        if (more < 0)
            return lg__errno_error(errno, in->path, "read error");
        got += more;
    }
    if (got < (int64_t)lgb_header_bytes(h))
        return lg__error(LG_ERR_IO, "%s: truncated: %lld bytes, shorter than the %d-byte header",
                         in->path, (long long)got, (int)lgb_header_bytes(h));
    if (h->version >= 2)
        lgb_decode_v2(b, h);
    in->pos = got;
    return check_lgb_header(in, h);
}

/* A stream must end where the header says; a regular file's size was checked. */
static lg_status_t check_lgb_end(struct lg_in_file *in)
{
    char extra;
    if (in->regular || lg__read_full(in->fd, &extra, 1) == 0)
        return LG_OK;
    return lg__error(LG_ERR_IO, "%s: more bytes than the header promises", in->path);
}

/* The stored directedness wins; options may only repeat it. */
static lg_status_t lgb_build_options(const char *path, const struct lgb_header *h,
                                     const lg_graph_options_t *o, lg_graph_options_t *b)
{
    const lg_directedness_t stored = (h->flags & LGB_FLAG_DIRECTED) ? LG_DIRECTED : LG_UNDIRECTED;
    if (o->directedness != LG_DIRECTEDNESS_DEFAULT && o->directedness != stored)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_graph_read: %s holds %s graph, but the options ask for %s one", path,
                         stored == LG_DIRECTED ? "a directed" : "an undirected",
                         stored == LG_DIRECTED ? "an undirected" : "a directed");
    *b = *o;
    b->directedness = stored;
    if (stored == LG_UNDIRECTED)
        b->symmetrize = false; /* the stored CSR already has both arcs of every edge */
    return LG_OK;
}

/* Reads section k of `bytes` bytes into buf in parts of LGB_READ_PART (each
 * reported to the call's progress by lg__in_read, and hashed as it comes,
 * so that no step holds the whole section's hash). */
#define LGB_READ_PART ((size_t)64 << 20)
static lg_status_t read_hashed(struct lg_in_file *in, void *buf, size_t bytes, int k, int threads,
                               const char *what, struct lgb_sums *sums)
{
    for (size_t lo = 0; lo < bytes;) {
        const size_t len = bytes - lo < LGB_READ_PART ? bytes - lo : LGB_READ_PART;
        const lg_status_t st = lg__in_read(in, (char *)buf + lo, len, threads, what);
        if (st != LG_OK)
            return st;
        sums->section[k] += hash_part(buf, bytes, lo, lo + len, (uint64_t)k, threads);
        lo += len;
    }
    return LG_OK;
}

lg_status_t lg__read_lgb(lg_context_t *context, const char *path, const lg_graph_options_t *options,
                         lg_graph_t **graph)
{
    lg_status_t st;
    lg_edge_t *offsets = NULL;
    lg_vertex_t *indices = NULL;
    float *weights = NULL;
    double *weights64 = NULL;
    struct lg_names_store names = {LG_NAMES_NONE, NULL, NULL, NULL};
    struct lgb_header h = {0};
    struct lg_in_file in;
    lg_graph_options_t b;
    const int threads = lg__threads(context);
    if ((st = lg__in_open(&in, path)) != LG_OK)
        return st;
    in.progress = lg__graph_progress(options);

    if ((st = lg__lgb_read_header(&in, &h)) != LG_OK ||
        (st = lgb_build_options(path, &h, options, &b)) != LG_OK)
        goto cleanup;
    const bool weighted = h.flags & LGB_FLAG_WEIGHTED, wide = h.flags & LGB_FLAG_WEIGHTS64;
    const size_t offsets_bytes = ((size_t)h.n + 1) * sizeof *offsets;
    const size_t arc_bytes = (size_t)h.m * sizeof *indices;
    const size_t weight_bytes = weighted ? (size_t)h.m * (size_t)lgb_weight_bytes(&h) : 0;
    /* the arrays, held as they are read and then by the graph (a float64
     * graph adds its float32 copy) */
    lg__note_peak(offsets_bytes + arc_bytes * (wide ? 2 : 1) + weight_bytes +
                  (size_t)lgb_names_bytes(&h));
    offsets = lg__alloc_array((size_t)h.n + 1, sizeof *offsets, "CSR row offsets");
    indices = lg__alloc_array((size_t)h.m, sizeof *indices, "CSR column indices");
    if (weighted && !wide)
        weights = lg__alloc_array((size_t)h.m, sizeof *weights, "CSR weights");
    if (wide)
        weights64 = lg__alloc_array((size_t)h.m, sizeof *weights64, "CSR weights");
    names.kind = (lg_names_kind_t)h.names_kind;
    if (names.kind == LG_NAMES_INT64)
        names.ints = lg__alloc_array(h.n ? (size_t)h.n : 1, 8, "vertex names");
    if (names.kind == LG_NAMES_UTF8) {
        names.offsets = lg__alloc_array((size_t)h.n + 1, 8, "name offsets");
        names.text = lg__alloc_array(h.text_bytes ? (size_t)h.text_bytes : 1, 1, "vertex names");
    }
    if (!offsets || !indices || (weighted && !wide && !weights) || (wide && !weights64) ||
        (names.kind == LG_NAMES_INT64 && !names.ints) ||
        (names.kind == LG_NAMES_UTF8 && (!names.offsets || !names.text))) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    struct lgb_sums sums;
    memset(&sums, 0, sizeof sums);
    if ((st = read_hashed(&in, offsets, offsets_bytes, 0, threads, "row offsets", &sums)) !=
            LG_OK ||
        (st = read_hashed(&in, indices, arc_bytes, 1, threads, "column indices", &sums)) != LG_OK ||
        (weighted && (st = read_hashed(&in, wide ? (void *)weights64 : (void *)weights,
                                       weight_bytes, 2, threads, "weights", &sums)) != LG_OK) ||
        (names.ints && (st = read_hashed(&in, names.ints, (size_t)h.n * 8, 3, threads, "names",
                                         &sums)) != LG_OK) ||
        (names.offsets && ((st = read_hashed(&in, names.offsets, ((size_t)h.n + 1) * 8, 3, threads,
                                             "names", &sums)) != LG_OK ||
                           (st = read_hashed(&in, names.text, (size_t)h.text_bytes, 4, threads,
                                             "names", &sums)) != LG_OK)) ||
        (st = check_lgb_end(&in)) != LG_OK)
        goto cleanup;
    const lg_names_t view = lg__names_view(&names);
    if ((st = lg__lgb_check_sum(path, &h, &sums, "")) != LG_OK)
        goto cleanup;
    /* lg_graph_from_csr takes the arc count from the offsets; they must agree
     * with the arrays just read */
    if ((st = lg__lgb_check_offsets(path, &h, 0, h.n, offsets)) != LG_OK)
        goto cleanup;
    const bool undirected = !(h.flags & LGB_FLAG_DIRECTED);
    if (undirected && (st = lg__lgb_check_symmetric(
                           path, &h, lg__arcs_asymmetry(0, h.n, offsets, indices, weights, weights64, threads),
                           "")) != LG_OK)
        goto cleanup;
    if (names.kind == LG_NAMES_UTF8 && names.offsets[h.n] != h.text_bytes) {
        st = lg__error(LG_ERR_IO, "%s: name offsets end at %lld, not at the %lld bytes of names",
                       path, (long long)names.offsets[h.n], (long long)h.text_bytes);
        goto cleanup;
    }
    if (options && options->skip_names)
        lg__names_free(&names); /* read all the same: the checksum covers them */
    else if ((st = lg__blame_file(lg__names_check("vertex names (skip_names leaves them out)", h.n, &view), path)) != LG_OK)
        goto cleanup;
    /* the graph takes the arrays (no copy) where they need no rebuilding */
    struct lg_csr csr = {offsets, indices, weights, weights64};
    offsets = NULL;
    indices = NULL;
    weights = NULL;
    weights64 = NULL;
    if ((st = lg__blame_file(
             lg__graph_from_own_csr("lg_graph_read", context, h.n, &csr, undirected, &b, graph),
             path)) != LG_OK)
        goto cleanup;
    (*graph)->names = names; /* the graph owns them now */
    memset(&names, 0, sizeof names);

cleanup:
    lg__names_free(&names);
    lg__free(offsets);
    lg__free(indices);
    lg__free(weights);
    lg__free(weights64);
    lg__in_close(&in);
    return st;
}

/* ---- the writer ---------------------------------------------------------------- */

lg_status_t lg__write_lgb(struct lg_out_file *out, const lg_graph_t *g, int threads)
{
    const struct lg_csr *c = &g->out;
    unsigned char b[LGB_HEADER_BYTES] = {
        0}; /* a short file decodes as zeros, not as stack garbage */
    const lg_names_t names = lg__names_view(&g->names);
    struct lgb_header h = {names.kind == LG_NAMES_NONE ? 1u : 2u,
                           (g->directed ? LGB_FLAG_DIRECTED : 0) |
                               (c->weights ? LGB_FLAG_WEIGHTED : 0) |
                               (c->weights64 ? LGB_FLAG_WEIGHTS64 : 0),
                           g->n,
                           g->m,
                           0,
                           (uint32_t)names.kind,
                           0,
                           names.kind == LG_NAMES_UTF8 ? names.offsets[g->n] : 0};
    lg_status_t st;
    struct lgb_sums sums;
    const void *weights = c->weights64 ? (const void *)c->weights64 : (const void *)c->weights;
    const size_t weight_bytes = c->weights ? (size_t)g->m * (size_t)lgb_weight_bytes(&h) : 0;
    lgb_sums_of(&h, c->offsets, c->indices, weights, &names, threads, &sums);
    h.checksum = lgb_checksum(&h, &sums);
    lgb_encode(&h, b);
    if ((st = lg__out_write(out, b, lgb_header_bytes(&h))) != LG_OK ||
        (st = lg__out_write(out, c->offsets, (size_t)(g->n + 1) * sizeof *c->offsets)) != LG_OK ||
        (st = lg__out_write(out, c->indices, (size_t)g->m * sizeof *c->indices)) != LG_OK ||
        (c->weights && (st = lg__out_write(out, weights, weight_bytes)) != LG_OK))
        return st;
    if (names.kind == LG_NAMES_INT64)
        return lg__out_write(out, names.ints, (size_t)g->n * 8);
    if (names.kind == LG_NAMES_UTF8 &&
        (st = lg__out_write(out, names.offsets, ((size_t)g->n + 1) * 8)) != LG_OK)
        return st;
    return names.kind == LG_NAMES_UTF8 ? lg__out_write(out, names.text, (size_t)h.text_bytes)
                                       : LG_OK;
}
