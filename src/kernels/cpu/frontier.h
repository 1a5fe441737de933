/*
 * frontier.h - a shared vertex queue that many threads append to.
 *
 * Each thread gathers vertices in a private buffer of LG_FRONTIER_BUFFER and
 * appends the whole buffer with one atomic add on the queue's tail, so the
 * shared counter is touched once every LG_FRONTIER_BUFFER vertices rather
 * than once a vertex (GAPBS's SlidingQueue/QueueBuffer do the same).  The
 * order of the queue is the order in which buffers were flushed: not
 * deterministic, which no user of it depends on.
 *
 *   struct lg__frontier_buffer b = {.count = 0};   (inside the parallel region)
 *   lg__frontier_push(&b, queue, &tail, v);        (for each vertex found)
 *   lg__frontier_flush(&b, queue, &tail);          (before the region ends)
 */
#ifndef LIBGRAPH_FRONTIER_H
#define LIBGRAPH_FRONTIER_H

#include "libgraph.h"

#include <string.h>

/* Vertices a thread buffers before one atomic append. */
#define LG_FRONTIER_BUFFER 1024

struct lg__frontier_buffer {
    int count;
    lg_vertex_t local[LG_FRONTIER_BUFFER];
};

/* Appends the buffer to queue at the shared *tail and empties it. */
static inline void lg__frontier_flush(struct lg__frontier_buffer *b, lg_vertex_t *queue,
                                      int64_t *tail)
{
    if (b->count == 0)
        return;
    const int64_t at = __atomic_fetch_add(tail, b->count, __ATOMIC_RELAXED);
    memcpy(queue + at, b->local, (size_t)b->count * sizeof *b->local);
    b->count = 0;
}

static inline void lg__frontier_push(struct lg__frontier_buffer *b, lg_vertex_t *queue,
                                     int64_t *tail, lg_vertex_t v)
{
    b->local[b->count++] = v;
    if (b->count == LG_FRONTIER_BUFFER)
        lg__frontier_flush(b, queue, tail);
}

#endif /* LIBGRAPH_FRONTIER_H */
