/*
 * bitmap.h - a set of vertices as one bit a vertex, in 64-bit words.
 *
 * Vertex ids are >= 0 and are indexed as unsigned numbers, so / and % by the
 * word width are a shift and a mask (signed division needs three more
 * instructions, in the bottom-up BFS step's inner loop).  Plain set and get
 * are for a word with one writer; lg__bit_set_atomic for words that threads
 * share.
 */
#ifndef LIBGRAPH_BITMAP_H
#define LIBGRAPH_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

#define LG_WORD_BITS 64

/* Words holding n bits. */
static inline int64_t lg__bitmap_words(int64_t n)
{
    return (n + LG_WORD_BITS - 1) / LG_WORD_BITS;
}

static inline bool lg__bit_get(const uint64_t *b, uint64_t v)
{
    return (b[v / LG_WORD_BITS] >> (v % LG_WORD_BITS)) & 1u;
}

static inline void lg__bit_set(uint64_t *b, uint64_t v)
{
    b[v / LG_WORD_BITS] |= (uint64_t)1 << (v % LG_WORD_BITS);
}

static inline void lg__bit_set_atomic(uint64_t *b, uint64_t v)
{
    __atomic_fetch_or(&b[v / LG_WORD_BITS], (uint64_t)1 << (v % LG_WORD_BITS), __ATOMIC_RELAXED);
}

#endif /* LIBGRAPH_BITMAP_H */
