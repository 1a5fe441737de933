/*
 * io_util.h - what the file tests (test_io_*.c) share: contexts of 1 and 4
 * threads; temporary files named IO_TMP_PREFIX + name in LG_TEST_TMP_DIR
 * (each program defines its own prefix before including this header, so
 * programs that run at once never see each other's files); whole-file
 * reads and writes; graphs built and read with a directedness; comparisons
 * of a graph read back with the one written (same_arcs, same_graph); and
 * expect_bad, which writes a malformed file and expects its status and a
 * message naming "path:line:".
 */
#ifndef LIBGRAPH_TEST_IO_UTIL_H
#define LIBGRAPH_TEST_IO_UTIL_H

#include "libgraph.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef IO_TMP_PREFIX
#error "define IO_TMP_PREFIX, the prefix of this program's temporary files"
#endif

#ifndef LG_TEST_TMP_DIR
#define LG_TEST_TMP_DIR "."
#endif

#define PATH_CAP 1024

static lg_context_t *ctx1, *ctx4; /* 1 thread, 4 threads */

static inline void tmp_path(char path[PATH_CAP], const char *name)
{
    snprintf(path, PATH_CAP, "%s/%s%s", LG_TEST_TMP_DIR, IO_TMP_PREFIX, name);
}

static inline void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(2);
    }
    fwrite(data, 1, len, f);
    fclose(f);
}

static inline void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* The whole file in a malloc'd buffer. */
static inline unsigned char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc((size_t)size + 1);
    *len = fread(p, 1, (size_t)size, f);
    fclose(f);
    return p;
}

static inline bool file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static inline lg_graph_t *make_graph(int64_t n, int64_t E, const lg_vertex_t *src,
                                     const lg_vertex_t *dst, const float *w,
                                     lg_directedness_t directedness)
{
    lg_graph_options_t o;
    lg_graph_t *g = NULL;
    lg_graph_options_init(&o);
    o.directedness = directedness;
    CHECK_OK(lg_graph_from_edges(ctx1, n, E, src, dst, w, &o, &g));
    return g;
}

static inline lg_graph_t *read_graph(lg_context_t *ctx, const char *path, lg_directedness_t d)
{
    lg_graph_options_t o;
    lg_graph_t *g = NULL;
    lg_graph_options_init(&o);
    o.directedness = d;
    CHECK_OK(lg_graph_read(ctx, path, LG_FORMAT_AUTO, &o, &g));
    return g;
}

/* How the weights of a graph read back relate to the original's. */
enum weights_expect {
    WEIGHTS_SAME, /* weighted exactly when the original is, equal */
    WEIGHTS_NONE, /* unweighted (.el drops weights) */
    WEIGHTS_ONES  /* weighted: the original's, or 1 where it had none (.wel) */
};

/* b was read from a file written from a: the same arcs in the same order.  b
 * may have fewer vertices than a if a's last vertices have no edges (edge
 * lists cannot store them), but then only as many as the ids need. */
static inline bool same_arcs(const lg_graph_t *a, const lg_graph_t *b, enum weights_expect we)
{
    const lg_edge_t *ao, *bo;
    const lg_vertex_t *ai, *bi;
    const float *aw, *bw;
    const int64_t an = lg_graph_num_vertices(a), bn = lg_graph_num_vertices(b);
    const int64_t m = lg_graph_num_edges(a);
    if (lg_graph_csr(a, &ao, &ai, &aw) != LG_OK || lg_graph_csr(b, &bo, &bi, &bw) != LG_OK)
        return false;
    if (bn > an || lg_graph_num_edges(b) != m || lg_graph_is_directed(a) != lg_graph_is_directed(b))
        return false;
    for (int64_t v = 0; v <= bn; v++)
        if (ao[v] != bo[v])
            return false;
    for (int64_t v = bn; v < an; v++)
        if (ao[v + 1] != m)
            return false; /* a dropped vertex had edges */
    if (m > 0 && memcmp(ai, bi, (size_t)m * sizeof *ai) != 0)
        return false;
    if (we == WEIGHTS_NONE)
        return bw == NULL;
    if (we == WEIGHTS_SAME && (aw == NULL) != (bw == NULL))
        return false;
    if (!bw)
        return true;
    for (int64_t e = 0; e < m; e++)
        if (bw[e] != (aw ? aw[e] : 1.0f))
            return false;
    return true;
}

static inline bool same_graph(const lg_graph_t *a, const lg_graph_t *b)
{
    return lg_graph_num_vertices(a) == lg_graph_num_vertices(b) && same_arcs(a, b, WEIGHTS_SAME);
}

/* The vertex count an edge list of g can express: 1 + its largest id. */
static inline int64_t edge_list_vertices(const lg_graph_t *g)
{
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    int64_t top = -1;
    lg_graph_csr(g, &off, &idx, NULL);
    for (int64_t v = 0; v < lg_graph_num_vertices(g); v++)
        for (lg_edge_t e = off[v]; e < off[v + 1]; e++) {
            top = v > top ? v : top;
            top = idx[e] > top ? idx[e] : top;
        }
    return top + 1;
}

/* Checks the last message names path:line. */
static inline void check_where(const char *path, int line)
{
    char where[PATH_CAP + 32];
    snprintf(where, sizeof where, "%s:%d:", path, line);
    CHECK_MESSAGE(where);
}

/* Writes text to a file named name, reads it, and expects status want with a
 * message naming line `line` (0: any) and containing sub (NULL: anything). */
static inline void expect_bad(const char *name, const char *text, lg_status_t want, int line,
                              const char *sub)
{
    char path[PATH_CAP];
    lg_graph_t *g = NULL;
    tmp_path(path, name);
    write_text(path, text);
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), want);
    CHECK(g == NULL);
    if (line > 0)
        check_where(path, line);
    if (sub)
        CHECK_MESSAGE(sub);
    lg_graph_free(&g);
    unlink(path);
}

/* No IO_TMP_PREFIX "*.tmp.*" files left in the temporary directory. */
static inline bool no_temp_files(void)
{
    DIR *dir = opendir(LG_TEST_TMP_DIR);
    struct dirent *e;
    bool clean = true;
    if (!dir)
        return false;
    while ((e = readdir(dir)) != NULL)
        if (strncmp(e->d_name, IO_TMP_PREFIX, strlen(IO_TMP_PREFIX)) == 0 &&
            strstr(e->d_name, ".tmp."))
            clean = false;
    closedir(dir);
    return clean;
}

/* Opens ctx1 and ctx4 on the CPU; false when either cannot be had. */
static inline bool io_open(void)
{
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_CPU;
    co.num_threads = 1;
    CHECK_OK(lg_context_create(&ctx1, &co));
    co.num_threads = 4;
    CHECK_OK(lg_context_create(&ctx4, &co));
    return ctx1 && ctx4;
}

static inline void io_close(void)
{
    lg_context_free(&ctx1);
    lg_context_free(&ctx4);
}

/* A test program's main: the contexts, count tests in order, and then no
 * temporary file left behind; the exit status. */
static inline int io_main(void (*const *tests)(void), size_t count)
{
    if (io_open()) {
        for (size_t i = 0; i < count; i++)
            tests[i]();
        CHECK(no_temp_files());
    }
    io_close();
    return tu_summary();
}

#endif
