/*
 * fuzz_util.h - what the fuzz targets share: taking the options a run uses
 * from the front of the input, handing the rest to a reader as a file in
 * memory, and checking a graph that was built with independent oracles.
 *
 * Each target is LLVMFuzzerTestOneInput(data, size).  Its first bytes are
 * "knobs" (fuzz_knobs): the graph options (directedness, symmetrize,
 * self-loops, duplicates policy, weight type), an allocation that fails (the N-th, or
 * none) and a progress step that cancels (or none), so the fuzzer explores
 * the error and cancellation paths together with the data.  The outcome
 * must be LG_OK, or an error with a message; on LG_OK the graph must hold
 * (fuzz_check_graph): a valid CSR, and BFS, connected components and
 * PageRank on it consistent with the graph's arcs.  Anything else traps, so
 * libFuzzer (or the replay driver, replay.c) reports it.
 */
#ifndef LIBGRAPH_FUZZ_UTIL_H
#define LIBGRAPH_FUZZ_UTIL_H

#define _GNU_SOURCE   /* memfd_create */
#include "internal.h" /* lg__alloc_fail_after */
#include "libgraph.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_REQUIRE(cond)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond);          \
            __builtin_trap();                                                                      \
        }                                                                                          \
    } while (0)

/* The knobs a run takes from the front of its input. */
struct fuzz_knobs {
    lg_graph_options_t options;
    long fail_after;   /* the allocation that fails (0-based), or -1 */
    int cancel_at;     /* the progress call that says stop (0-based), or -1 */
    int progress_seen; /* progress calls so far */
    uint8_t extra;     /* a byte for the target's own choice */
};

static inline bool fuzz_go_on(const lg_progress_info_t *info, void *data)
{
    struct fuzz_knobs *k = data;
    (void)info;
    return k->progress_seen++ != k->cancel_at;
}

/* Takes 4 bytes of knobs (fewer: defaults); *data and *size move past them.
 * The library is told 8 MB are available (a test hook), so that a size in
 * the input asking for more is the error it would be on a small machine,
 * not seconds of page faults. */
static inline void fuzz_take_knobs(const uint8_t **data, size_t *size, struct fuzz_knobs *k)
{
    lg__mem_available_override((long long)8 << 20);
    uint8_t b[4] = {0, 0, 0, 0};
    const size_t take = *size < 4 ? *size : 4;
    memcpy(b, *data, take);
    *data += take;
    *size -= take;
    lg_graph_options_init(&k->options);
    k->options.directedness = (lg_directedness_t)(b[0] % 3);
    k->options.symmetrize = b[0] & 4;
    k->options.drop_self_loops = b[0] & 8;
    k->options.duplicates = (lg_duplicates_t)((b[0] >> 4) % 4);
    k->options.weight_type = (lg_weight_type_t)((b[3] >> 6) % 3); /* the input's, 32 or 64 */
    k->options.progress = fuzz_go_on;
    k->options.progress_data = k;
    /* most runs fail nothing and cancel nothing, so the data's paths get most
     * of the time; the rest pick a point among the first 64 */
    k->fail_after = b[1] < 192 ? -1 : (long)(b[1] - 192);
    k->cancel_at = b[2] < 224 ? -1 : (int)(b[2] - 224);
    k->progress_seen = 0;
    k->extra = b[3];
}

/* A status a failed call may return with its message. */
static inline void fuzz_check_failure(lg_status_t st)
{
    FUZZ_REQUIRE(st == LG_ERR_INVALID_ARGUMENT || st == LG_ERR_IO || st == LG_ERR_UNSUPPORTED ||
                 st == LG_ERR_OUT_OF_MEMORY || st == LG_ERR_CANCELLED);
    FUZZ_REQUIRE(lg_last_error()[0] != '\0');
}

/* The bytes as a file in memory; returns its descriptor (path filled in:
 * /proc/self/fd/N, a regular file to the readers) or -1. */
static inline int fuzz_memfile(const uint8_t *data, size_t size, char path[64])
{
    const int fd = memfd_create("libgraph-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        const ssize_t k = write(fd, data + done, size - done);
        if (k <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)k;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

/* The CSR is valid, and BFS from vertex 0, connected components, PageRank
 * and SSSP from vertex 0 agree with its arcs. */
static inline void fuzz_check_graph(const lg_graph_t *g)
{
    const int64_t n = lg_graph_num_vertices(g), m = lg_graph_num_edges(g);
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    FUZZ_REQUIRE(n >= 0 && m >= 0 && lg_graph_csr(g, &off, &idx, &w) == LG_OK);
    FUZZ_REQUIRE(off[0] == 0 && off[n] == m);
    for (int64_t v = 0; v < n; v++)
        FUZZ_REQUIRE(off[v] <= off[v + 1]);
    const double *w64 = NULL; /* a float64 graph's exact weights */
    FUZZ_REQUIRE(lg_graph_weights_f64(g, false, &w64) == LG_OK);
    bool negative = false;
    for (int64_t e = 0; e < m; e++) {
        FUZZ_REQUIRE(idx[e] >= 0 && idx[e] < n);
        FUZZ_REQUIRE(!w || isfinite(w[e]));
        FUZZ_REQUIRE(!w64 || isfinite(w64[e]));
        negative = negative || (w64 ? w64[e] < 0.0 : w && w[e] < 0.0f);
    }
    FUZZ_REQUIRE(negative == lg_graph_has_negative_weights(g));
    /* names, when the file had them, as the setter would have checked them:
     * setting them again must be accepted */
    lg_names_t names;
    FUZZ_REQUIRE(lg_graph_names(g, &names) == LG_OK);
    if (names.kind == LG_NAMES_UTF8) {
        FUZZ_REQUIRE(names.offsets[0] == 0);
        for (int64_t v = 0; v < n; v++)
            FUZZ_REQUIRE(names.offsets[v] <= names.offsets[v + 1]);
    }
    if (names.kind != LG_NAMES_NONE)
        FUZZ_REQUIRE(lg_graph_set_names((lg_graph_t *)g, &names) == LG_OK);
    if (n == 0 || n > 4096) /* a large id makes a large graph: slower, not deeper */
        return;
    int32_t *dist = malloc((size_t)n * sizeof *dist);
    lg_vertex_t *label = malloc((size_t)n * sizeof *label);
    double *pr = malloc((size_t)n * sizeof *pr);
    if (!dist || !label || !pr)
        goto done;
    /* BFS: the source at 0; an arc from a reached vertex reaches one level on at most */
    if (lg_bfs(NULL, g, 0, NULL, dist, NULL) == LG_OK) {
        FUZZ_REQUIRE(dist[0] == 0);
        for (int64_t u = 0; u < n; u++)
            for (lg_edge_t e = off[u]; e < off[u + 1]; e++)
                if (dist[u] >= 0)
                    FUZZ_REQUIRE(dist[idx[e]] >= 0 && dist[idx[e]] <= dist[u] + 1);
    }
    /* components: the smallest id labels each, and every arc stays inside one */
    int64_t count = 0;
    if (lg_connected_components(NULL, g, NULL, label, &count) == LG_OK) {
        for (int64_t v = 0; v < n; v++) {
            FUZZ_REQUIRE(label[v] >= 0 && label[v] <= v && label[label[v]] == label[v]);
            count -= label[v] == v;
        }
        FUZZ_REQUIRE(count == 0);
        for (int64_t u = 0; u < n; u++)
            for (lg_edge_t e = off[u]; e < off[u + 1]; e++)
                FUZZ_REQUIRE(label[idx[e]] == label[u]);
    }
    /* PageRank: a distribution */
    lg_pagerank_result_t r;
    const lg_status_t st = lg_pagerank(NULL, g, NULL, pr, &r);
    if (st == LG_OK || st == LG_ERR_NOT_CONVERGED) {
        double sum = 0.0;
        for (int64_t v = 0; v < n; v++) {
            FUZZ_REQUIRE(pr[v] >= 0.0 && pr[v] <= 1.0 + 1e-9);
            sum += pr[v];
        }
        FUZZ_REQUIRE(fabs(sum - 1.0) < 1e-6);
    } else {
        FUZZ_REQUIRE(st != LG_ERR_INVALID_ARGUMENT || negative); /* refused: negative weights */
    }
    /* SSSP from vertex 0 (Bellman-Ford for negative weights): the source at
     * 0, every arc's end no farther than its start plus its weight, or a
     * negative cycle named */
    if (n > 0) {
        const lg_vertex_t zero = 0;
        const lg_status_t ss = lg_sssp(NULL, g, &zero, 1, NULL, pr, NULL);
        FUZZ_REQUIRE(ss == LG_OK || (ss == LG_ERR_UNBOUNDED && negative));
        if (ss == LG_OK) {
            FUZZ_REQUIRE(pr[0] == 0.0);
            for (int64_t u = 0; u < n; u++)
                for (lg_edge_t e = off[u]; e < off[u + 1] && pr[u] < INFINITY; e++)
                    FUZZ_REQUIRE(pr[idx[e]] <=
                                 pr[u] + (w64 ? w64[e] : w ? (double)w[e] : 1.0));
        }
    }
done:
    free(dist);
    free(label);
    free(pr);
}

/* Reads the bytes as a file of the format with the knobs' options, allocation
 * failure and cancellation; checks the outcome. */
static inline void fuzz_read(const uint8_t *data, size_t size, lg_file_format_t format,
                             struct fuzz_knobs *k)
{
    char path[64];
    const int fd = fuzz_memfile(data, size, path);
    if (fd < 0)
        return;
    lg_graph_t *g = NULL;
    lg__error_clear(); /* a failure must set its own message, not keep an earlier one */
    lg__alloc_fail_after(k->fail_after);
    const lg_status_t st = lg_graph_read(NULL, path, format, &k->options, &g);
    lg__alloc_fail_after(-1);
    close(fd);
    if (st != LG_OK) {
        fuzz_check_failure(st);
        FUZZ_REQUIRE(g == NULL);
        FUZZ_REQUIRE(st != LG_ERR_CANCELLED || k->cancel_at >= 0);
        return;
    }
    fuzz_check_graph(g);
    lg_graph_free(&g);
}

#endif
