/*
 * algorithm.h - what an algorithm's entry point (src/algorithms/<name>.c)
 * hands the dispatch (dispatch.c): its descriptor, and one validated call.
 */
#ifndef LIBGRAPH_ALGORITHM_H
#define LIBGRAPH_ALGORITHM_H

#include "internal.h"

/* An algorithm as the dispatch sees it, written once in its own file
 * (src/algorithms/<name>.c), beside its public entry point. */
struct lg_algorithm {
    enum lg_algorithm_id id; /* algorithms.h */
    const char *name;        /* "bfs" */
    const char *function;    /* "lg_bfs": the public function, in messages */
    const char *title;       /* "BFS": the algorithm, in messages */
};

/* One validated call of an algorithm. */
struct lg_call {
    const struct lg_algorithm *algorithm;
    const void *args; /* its arguments struct (algorithms.h), which the kernel gets */
    /* whether a kernel that reads the in-edges may read them in this call
     * (BFS: only when the search may go bottom-up) */
    bool may_read_in_edges;
    lg_progress_fn progress; /* from the call's options */
    void *progress_data;
    lg_memory_t output_memory; /* checked: host or device */
};

/* The call of algorithm `a` on its arguments struct, with the progress
 * callback and output memory of `options` (every algorithm's options struct
 * has the three fields). */
#define LG_CALL(a, arguments, may_read, options)                                                   \
    ((struct lg_call){.algorithm = (a),                                                            \
                      .args = (arguments),                                                         \
                      .may_read_in_edges = (may_read),                                             \
                      .progress = (options)->progress,                                             \
                      .progress_data = (options)->progress_data,                                   \
                      .output_memory = (options)->output_memory})

/* Runs a validated call on the kernel that the rule of dispatch.c picks,
 * recording where it ran (lg_last_backend) and why; a call its progress
 * callback stopped gets its message here. */
LG_INTERNAL lg_status_t lg__dispatch(lg_context_t *ctx, const lg_graph_t *graph,
                                     const struct lg_call *c);
/* LG_ERR_INVALID_ARGUMENT unless memory is one of lg_memory_t's values. */
LG_INTERNAL lg_status_t lg__check_output_memory(const char *function, lg_memory_t memory);

#endif /* LIBGRAPH_ALGORITHM_H */
