/*
 * lgb.h - what lgb.c (the .lgb format: layout, checksum, reader, writer) and
 * lgb_part.c (one part of a .lgb for lg_read_edges) share.  lgb.c's opening
 * comment has the layout.
 */
#ifndef LG_IO_LGB_H
#define LG_IO_LGB_H

#include "io.h"

#define LGB_V1_HEADER_BYTES 40
#define LGB_HEADER_BYTES 56
#define LGB_FLAG_DIRECTED 1u
#define LGB_FLAG_WEIGHTED 2u
#define LGB_FLAG_WEIGHTS64 4u /* with WEIGHTED: the weights are float64 */
/* Blocks are hashed independently (in parallel); 1 MiB keeps a thread busy
 * long enough to pay for itself and gives many blocks to share out. */
#define LGB_HASH_BLOCK ((size_t)1 << 20)

struct lgb_header {
    uint32_t version, flags;
    int64_t n, m;
    uint64_t checksum;
    uint32_t names_kind, reserved; /* version 2 */
    int64_t text_bytes;            /* version 2 */
};

/* The hashes of a file's sections, in its order: row offsets 0, column
 * indices 1, weights 2 (0 when unweighted), int names or name offsets 3,
 * name text 4 (0 when absent).  A part's checksum (lg_edge_part_t) has them
 * and then, at LGB_ASYMMETRY, its arcs' share of lg__arcs_asymmetry. */
#define LGB_ASYMMETRY 5
struct lgb_sums {
    uint64_t section[5];
};

static inline size_t lgb_header_bytes(const struct lgb_header *h)
{
    return h->version >= 2 ? LGB_HEADER_BYTES : LGB_V1_HEADER_BYTES;
}

/* Bytes of a weight: 8 for float64 weights, else 4. */
static inline int64_t lgb_weight_bytes(const struct lgb_header *h)
{
    return (h->flags & LGB_FLAG_WEIGHTS64) ? 8 : 4;
}

/* Bytes of the names section. */
static inline int64_t lgb_names_bytes(const struct lgb_header *h)
{
    switch (h->names_kind) {
    case LG_NAMES_INT64: return h->n * 8;
    case LG_NAMES_UTF8: return (h->n + 1) * 8 + h->text_bytes;
    default: return 0;
    }
}

/* Reads and checks the header (and a regular file's size against it);
 * in->pos is then the first byte after it. */
LG_INTERNAL lg_status_t lg__lgb_read_header(struct lg_in_file *in, struct lgb_header *h);

/* The hash of one block of a section (lgb.c has the scheme). */
LG_INTERNAL uint64_t lg__lgb_hash_block(const unsigned char *p, size_t bytes, uint64_t tag);

/* LG_OK when the sections' hashes give the header's checksum, else
 * LG_ERR_IO "path: checksum mismatch (... `how`)". */
LG_INTERNAL lg_status_t lg__lgb_check_sum(const char *path, const struct lgb_header *h,
                                          const struct lgb_sums *s, const char *how);

/* What the checksum cannot vouch for, checked alike whether a .lgb is read
 * whole (lgb.c) or in parts (lgb_part.c, lg_read_edges_verify), so that
 * neither reader takes a file the other refuses. */
/* offsets[0 .. r1 - r0], rows [r0, r1)'s offsets: never decreasing, within
 * [0, m], 0 at row 0 and m at row n; else LG_ERR_IO. */
LG_INTERNAL lg_status_t lg__lgb_check_offsets(const char *path, const struct lgb_header *h,
                                              int64_t r0, int64_t r1, const lg_edge_t *offsets);
/* An undirected file's arcs are their own reverses: asymmetry, the sum of
 * lg__arcs_asymmetry over all its rows (taken whole or in parts), is 0;
 * else LG_ERR_IO "path: an undirected graph needs a symmetric CSR, ...`how`". */
LG_INTERNAL lg_status_t lg__lgb_check_symmetric(const char *path, const struct lgb_header *h,
                                                uint64_t asymmetry, const char *how);

#endif
