/*
 * test_io_failures.c - graph files under failure (src/graph/io/): corrupted
 * .lgb files, and allocations that fail.
 *
 * An .lgb file truncated, too long, with a flipped bit anywhere (the
 * checksum), a bad magic, version, flags or counts: each its documented
 * status and a message naming the file and the reason; a stored
 * directedness repeated but not contradicted.  An allocation-failure sweep:
 * the N-th allocation fails, for every N, while reading and writing every
 * format; each call returns LG_OK or LG_ERR_OUT_OF_MEMORY, a failed write
 * leaves no file behind, and nothing leaks (the sanitizer build checks).
 */
#define _POSIX_C_SOURCE 200809L
#define IO_TMP_PREFIX "io_fail_"

#include "alloc_sites.h"
#include "internal.h" /* lg__alloc_fail_after */
#include "io_util.h"
#include "libgraph.h"
#include "test_util.h"

#include <pthread.h>
#include <signal.h>

/* ---- .lgb corruption ------------------------------------------------------------------- */

/* Writes bytes (len of them) as the file, expects want and a message with sub. */
static void expect_bad_lgb(const char *path, const unsigned char *bytes, size_t len,
                           lg_status_t want, const char *sub)
{
    lg_graph_t *g = NULL;
    write_bytes(path, bytes, len);
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), want);
    CHECK(g == NULL);
    CHECK_MESSAGE(path);
    CHECK_MESSAGE(sub);
    lg_graph_free(&g);
}

static void test_lgb_corruption(void)
{
    static const lg_vertex_t src[] = {0, 1, 2, 3, 3};
    static const lg_vertex_t dst[] = {1, 2, 3, 0, 3};
    static const float w[] = {1, 2, 3, 4, 5};
    char path[PATH_CAP];
    size_t len = 0;
    lg_graph_t *g = make_graph(4, 5, src, dst, w, LG_DIRECTED), *r = NULL;
    tmp_path(path, "c.lgb");
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    unsigned char *good = read_bytes(path, &len), *bad = malloc(len + 8);
    /* 40-byte header, offsets 5 * 8, indices 5 * 4, weights 5 * 4 */
    CHECK(good && len == 40 + 40 + 20 + 20);
    if (!good || len != 120)
        goto done;
    uint32_t version;
    memcpy(&version, good + 8, 4);
    CHECK(version == 1);

    expect_bad_lgb(path, good, len - 5, LG_ERR_IO, "truncated");
    expect_bad_lgb(path, good, 20, LG_ERR_IO, "truncated");
    expect_bad_lgb(path, good, 0, LG_ERR_IO, "truncated");
    memcpy(bad, good, len);
    memset(bad + len, 0, 8);
    expect_bad_lgb(path, bad, len + 8, LG_ERR_IO, "more than");

    for (size_t at = 40; at < len; at += 13) { /* one flipped bit anywhere in the payload */
        memcpy(bad, good, len);
        bad[at] ^= 0x10;
        expect_bad_lgb(path, bad, len, LG_ERR_IO, "checksum mismatch");
    }
    memcpy(bad, good, len);
    bad[12] ^= 1; /* the directed flag: the header is checksummed too */
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "checksum mismatch");
    memcpy(bad, good, len);
    bad[1] = 'X';
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "magic");
    memcpy(bad, good, len);
    bad[8] = 3;
    expect_bad_lgb(path, bad, len, LG_ERR_UNSUPPORTED, "version 3");
    memcpy(bad, good, len);
    bad[8] = 0;
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "version 0");
    memcpy(bad, good, len);
    bad[13] = 1; /* flag bit 8: unknown to version 1 */
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "flags");
    memcpy(bad, good, len);
    bad[23] = 0x80; /* n < 0 */
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "vertex count");
    memcpy(bad, good, len);
    bad[24] = 200; /* m larger than the file */
    expect_bad_lgb(path, bad, len, LG_ERR_IO, "truncated");

    /* the stored directedness may be repeated but not contradicted */
    write_bytes(path, good, len);
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, &o, &r), LG_ERR_INVALID_ARGUMENT);
    o.directedness = LG_DIRECTED;
    o.drop_self_loops = true; /* other options still apply */
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, &o, &r));
    CHECK(r && lg_graph_num_edges(r) == 4 && lg_graph_is_weighted(r));
    lg_graph_free(&r);
done:
    free(good);
    free(bad);
    lg_graph_free(&g);
    unlink(path);
}

/* ---- allocation failures ---------------------------------------------------------------- */

/* For k = 0, 1, 2, ...: the allocation after k good ones fails; reading `in`
 * and writing g to `out` must each give LG_OK or LG_ERR_OUT_OF_MEMORY, and a
 * failed write must leave no file.  Stops at the first k where both work. */
static void sweep(const char *label, const char *in, const lg_graph_t *g, const char *out)
{
    long k;
    bool sane = true;
    for (k = 0; k < 1000; k++) {
        lg_graph_t *r = NULL;
        unlink(out);
        lg__alloc_fail_after(k);
        lg_status_t rs = lg_graph_read(ctx4, in, LG_FORMAT_AUTO, NULL, &r);
        lg_status_t ws = lg_graph_write(ctx4, g, out, LG_FORMAT_AUTO);
        lg__alloc_fail_after(-1);
        sane = sane && (rs == LG_OK || rs == LG_ERR_OUT_OF_MEMORY) &&
               (ws == LG_OK || ws == LG_ERR_OUT_OF_MEMORY) && (rs == LG_OK) == (r != NULL) &&
               (ws == LG_OK) == file_exists(out);
        if (!sane)
            fprintf(stderr, "  %s: after %ld allocations: read %s, write %s (%s)\n", label, k,
                    lg_status_string(rs), lg_status_string(ws), lg_last_error());
        lg_graph_free(&r);
        if (!sane || (rs == LG_OK && ws == LG_OK))
            break;
    }
    CHECK(sane);
    CHECK(k > 0 && k < 1000); /* it failed at first and got through in the end */
    unlink(out);
}

/* For k = 0, 1, ...: op with the allocation after k good ones failing must
 * give LG_OK or LG_ERR_OUT_OF_MEMORY (with a message), until it passes. */
static void sweep_op(const char *label, lg_status_t (*op)(void *), void *arg)
{
    long k;
    for (k = 0; k < 1000; k++) {
        lg__alloc_fail_after(k);
        const lg_status_t st = op(arg);
        lg__alloc_fail_after(-1);
        if (st == LG_OK)
            break;
        if (st != LG_ERR_OUT_OF_MEMORY || !lg_last_error()[0]) {
            fprintf(stderr, "  %s: after %ld allocations: %s (%s)\n", label, k,
                    lg_status_string(st), lg_last_error());
            CHECK(false);
            return;
        }
    }
    CHECK(k > 0 && k < 1000);
}

#define PIPE_LINES 401408 /* 98 blocks of 4096 lines, 1.6 MB: more than a stream's first buffer */

static void *feed_pipe(void *arg)
{
    const int fd = *(const int *)arg;
    static char block[4 * 4096]; /* 4096 lines a write */
    for (size_t i = 0; i < sizeof block; i += 4)
        memcpy(block + i, "0 1\n", 4);
    for (int i = 0; i < PIPE_LINES; i += 4096)
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block)
            break;
    close(fd);
    return NULL;
}

/* A pipe carrying an edge list, read through /proc/self/fd (a stream). */
static lg_status_t read_pipe(void *arg)
{
    (void)arg;
    int fds[2];
    pthread_t t;
    if (pipe(fds) != 0)
        return LG_ERR_IO;
    if (pthread_create(&t, NULL, feed_pipe, &fds[1]) != 0) {
        close(fds[0]);
        close(fds[1]);
        return LG_ERR_IO;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fds[0]);
    lg_graph_t *g = NULL;
    const lg_status_t st = lg_graph_read(ctx1, path, LG_FORMAT_EL, NULL, &g);
    close(fds[0]); /* the feeder's writes fail from here on (SIGPIPE ignored) */
    pthread_join(t, NULL);
    CHECK(st != LG_OK || (g && lg_graph_num_edges(g) == 2 * PIPE_LINES));
    lg_graph_free(&g);
    return st;
}

struct write_job {
    const lg_graph_t *g;
    const char *path;
};

static lg_status_t write_graph(void *arg)
{
    const struct write_job *j = arg;
    return lg_graph_write(ctx1, j->g, j->path, LG_FORMAT_AUTO);
}

static lg_status_t read_graph_file(void *arg)
{
    lg_graph_t *g = NULL;
    const lg_status_t st = lg_graph_read(ctx1, arg, LG_FORMAT_AUTO, NULL, &g);
    lg_names_t names;
    CHECK(st != LG_OK || (lg_graph_names(g, &names) == LG_OK && names.kind == LG_NAMES_INT64 &&
                          names.ints[2] == -7));
    lg_graph_free(&g);
    return st;
}

struct names_job {
    lg_graph_t *g;
    const lg_names_t *names;
};

static lg_status_t set_names(void *arg)
{
    const struct names_job *j = arg;
    return lg_graph_set_names(j->g, j->names);
}

static lg_status_t personalized_pagerank(void *arg)
{
    static const double p[] = {1, 0, 2, 0}, start[] = {0.25, 0.25, 0.25, 0.25};
    double x[4];
    lg_pagerank_options_t o;
    lg_pagerank_options_init(&o);
    o.personalization = p;
    o.nstart = start;
    o.dangling = p;
    return lg_pagerank(ctx1, arg, &o, x, NULL);
}

/* A file read in three parts (lg_read_edges); a part whose lines hold a bad
 * one counts as read when it says so, with its line number. */
static lg_status_t read_parts(void *arg)
{
    for (int k = 0; k < 3; k++) {
        lg_edge_part_t p;
        lg_status_t st = lg_read_edges(ctx4, arg, LG_FORMAT_AUTO, k, 3, &p);
        if (st == LG_ERR_IO && strstr(lg_last_error(), ":201: "))
            continue;
        if (st != LG_OK)
            return st;
        lg_edge_part_free(&p);
    }
    return LG_OK;
}

/* The paths the format sweep does not take: a pipe, a write through a
 * symbolic link, int64 names read and set, UTF-8 names set, PageRank's
 * vector options, files read in parts. */
static void test_allocation_failures_elsewhere(void)
{
    static const lg_vertex_t src[] = {0, 1, 2, 3}, dst[] = {1, 2, 3, 0};
    static const int64_t ints[] = {10, 20, -7, 40};
    static const int64_t offs[] = {0, 1, 3, 3, 6};
    const lg_names_t int_names = {LG_NAMES_INT64, ints, NULL, NULL};
    const lg_names_t text_names = {LG_NAMES_UTF8, NULL, offs, "abcd\xc3\xa9"};
    lg_graph_t *g = make_graph(4, 4, src, dst, NULL, LG_DIRECTED);
    char path[PATH_CAP], link[PATH_CAP + 16];
    signal(SIGPIPE, SIG_IGN);
    sweep_op("read a pipe", read_pipe, NULL);
    struct names_job nj = {g, &text_names};
    sweep_op("set UTF-8 names", set_names, &nj);
    nj.names = &int_names;
    sweep_op("set int64 names", set_names, &nj);
    tmp_path(path, "sweep_names.lgb");
    snprintf(link, sizeof link, "%s.link.lgb", path);
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    CHECK(symlink(path, link) == 0);
    struct write_job wj = {g, link};
    sweep_op("write through a symbolic link", write_graph, &wj);
    unlink(path); /* the link dangles: the write makes the file it names */
    sweep_op("write through a dangling symbolic link", write_graph, &wj);
    CHECK(file_exists(path));
    sweep_op("read int64 names", read_graph_file, path);
    sweep_op("PageRank with personalization, nstart, dangling", personalized_pagerank, g);
    static const char *const ext[] = {"mtx", "wel", "lgb"};
    static const float w[] = {1, 2, 3, 4};
    lg_graph_t *gw = make_graph(4, 4, src, dst, w, LG_DIRECTED);
    for (size_t f = 0; f < sizeof ext / sizeof *ext; f++) {
        char name[32];
        snprintf(name, sizeof name, "sweep_parts.%s", ext[f]);
        tmp_path(path, name);
        CHECK_OK(lg_graph_write(ctx1, gw, path, LG_FORMAT_AUTO));
        sweep_op(name, read_parts, path);
        unlink(path);
    }
    lg_graph_free(&gw);
    tmp_path(path, "sweep_parts_bad.el"); /* line 201 is bad */
    FILE *bad = fopen(path, "w");
    for (int i = 0; i < 200; i++)
        fprintf(bad, "%d %d\n", i % 4, (i + 1) % 4);
    fprintf(bad, "1 x\n");
    fclose(bad);
    sweep_op("read parts, one with a bad line", read_parts, path);
    unlink(path);
    unlink(link);
    unlink(path);
    lg_graph_free(&g);
}

/* Names go into version 2 files, checked and checksummed like the rest. */
static void test_lgb_names(void)
{
    static const lg_vertex_t src[] = {0, 1, 2}, dst[] = {1, 2, 3};
    /* "a", "ü", "", "x\0y": a two-byte character, an empty name, a NUL */
    static const char text[] = "a\xc3\xbcx\0y";
    static const int64_t offs[] = {0, 1, 3, 3, 6};
    static const int64_t ints[] = {-5, INT64_MAX, 0, 7};
    const lg_names_t utf8 = {LG_NAMES_UTF8, NULL, offs, text};
    const lg_names_t int64 = {LG_NAMES_INT64, ints, NULL, NULL};
    char path[PATH_CAP];
    size_t len = 0;
    lg_names_t got;
    lg_graph_t *g = make_graph(4, 3, src, dst, NULL, LG_DIRECTED), *r = NULL;
    tmp_path(path, "names.lgb");
    const size_t plain = lg_graph_host_bytes(g);
    CHECK_OK(lg_graph_set_names(g, &utf8));
    CHECK(lg_graph_host_bytes(g) == plain + 5 * 8 + 6);
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &r));
    CHECK_OK(lg_graph_names(r, &got));
    CHECK(got.kind == LG_NAMES_UTF8 && memcmp(got.offsets, offs, sizeof offs) == 0 &&
          memcmp(got.text, text, 6) == 0);
    lg_graph_free(&r);

    unsigned char *good = read_bytes(path, &len), *bad = malloc(len + 8);
    /* 56-byte header, offsets 5 * 8, indices 3 * 4, name offsets 5 * 8, 6 bytes of text */
    CHECK(good && bad && len == 56 + 40 + 12 + 40 + 6 && good[8] == 2);
    if (good && bad && len == 154) {
        for (size_t at = 40; at < len; at += 7) { /* header fields and payload alike */
            memcpy(bad, good, len);
            bad[at] ^= 0x04;
            write_bytes(path, bad, len);
            const lg_status_t st = lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &r);
            CHECK(st == LG_ERR_IO && r == NULL);
        }
        memcpy(bad, good, len);
        bad[40] = 3;
        expect_bad_lgb(path, bad, len, LG_ERR_IO, "names kind 3");
        memcpy(bad, good, len);
        bad[44] = 1;
        expect_bad_lgb(path, bad, len, LG_ERR_IO,
                       "the reserved header field (bytes 44-47) is 1, not 0");
        memcpy(bad, good, len);
        bad[48] = 7; /* longer names than the file holds */
        expect_bad_lgb(path, bad, len, LG_ERR_IO, "truncated");
        expect_bad_lgb(path, good, 50, LG_ERR_IO, "56-byte header");
    }
    free(good);
    free(bad);

    /* int names; no names again writes a version 1 file */
    CHECK_OK(lg_graph_set_names(g, &int64));
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &r));
    CHECK_OK(lg_graph_names(r, &got));
    CHECK(got.kind == LG_NAMES_INT64 && memcmp(got.ints, ints, sizeof ints) == 0);
    lg_graph_free(&r);
    CHECK_OK(lg_graph_set_names(g, NULL));
    CHECK(lg_graph_host_bytes(g) == plain);
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    good = read_bytes(path, &len);
    CHECK(good && len == 40 + 40 + 12 && good[8] == 1);
    free(good);
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &r));
    CHECK_OK(lg_graph_names(r, &got));
    CHECK(got.kind == LG_NAMES_NONE);
    lg_graph_free(&r);

    /* bad names are refused with the vertex, and change nothing */
    CHECK_OK(lg_graph_set_names(g, &int64));
    static const int64_t down[] = {0, 2, 1, 3, 3};
    const lg_names_t bad_offsets = {LG_NAMES_UTF8, NULL, down, "abc"};
    CHECK_STATUS(lg_graph_set_names(g, &bad_offsets), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("vertex 1");
    static const int64_t o2[] = {0, 1, 2, 4, 5};
    const lg_names_t bad_utf8 = {LG_NAMES_UTF8, NULL, o2,
                                 "ab\xed\xa0"
                                 "c"}; /* a surrogate */
    CHECK_STATUS(lg_graph_set_names(g, &bad_utf8), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("vertex 2 is not UTF-8");
    /* names are keys: two vertices with one name are refused, both named */
    static const int64_t twice[] = {4, 9, 4, 1};
    const lg_names_t int_twice = {LG_NAMES_INT64, twice, NULL, NULL};
    CHECK_STATUS(lg_graph_set_names(g, &int_twice), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("lg_graph_set_names: vertices 0 and 2 have the same name 4");
    static const int64_t o3[] = {0, 1, 2, 3, 5};
    const lg_names_t text_twice = {LG_NAMES_UTF8, NULL, o3, "aba\xc3\xa9"};
    CHECK_STATUS(lg_graph_set_names(g, &text_twice), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("vertices 0 and 2 have the same name 'a'");
    static const int64_t o4[] = {0, 2, 4, 6, 8};
    const lg_names_t nul_twice = {LG_NAMES_UTF8, NULL, o4, "\0\x01xy\0\x02\0\x01"};
    CHECK_STATUS(lg_graph_set_names(g, &nul_twice), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("vertices 0 and 3 have the same name '\\x00\\x01'");
    const lg_names_t bad_kind = {(lg_names_kind_t)9, ints, NULL, NULL};
    CHECK_STATUS(lg_graph_set_names(g, &bad_kind), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_set_names(NULL, &int64), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_names(g, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_OK(lg_graph_names(g, &got));
    CHECK(got.kind == LG_NAMES_INT64 && got.ints[1] == INT64_MAX);

    /* a file whose names repeat (as a writer that did not check made them,
     * checksum and all): LG_ERR_IO naming the file and both vertices, and
     * read without its names when asked */
    CHECK_OK(lg_graph_set_names(g, &int64));
    ((int64_t *)g->names.ints)[3] = ints[1];
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    CHECK_STATUS(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, NULL, &r), LG_ERR_IO);
    CHECK_MESSAGE(path);
    CHECK_MESSAGE("vertices 1 and 3 have the same name 9223372036854775807");
    CHECK_MESSAGE("skip_names");
    CHECK(r == NULL);
    lg_graph_options_t skip;
    lg_graph_options_init(&skip);
    CHECK(!skip.skip_names);
    skip.skip_names = true;
    CHECK_OK(lg_graph_read(ctx1, path, LG_FORMAT_AUTO, &skip, &r));
    CHECK_OK(lg_graph_names(r, &got));
    CHECK(got.kind == LG_NAMES_NONE && lg_graph_num_edges(r) == 3);
    lg_graph_free(&r);

    /* the names' allocations fail cleanly too, read and written */
    char out[PATH_CAP];
    tmp_path(out, "names_out.lgb");
    CHECK_OK(lg_graph_set_names(g, &utf8));
    CHECK_OK(lg_graph_write(ctx1, g, path, LG_FORMAT_AUTO));
    sweep("named .lgb", path, g, out);
    lg_graph_free(&g);
    unlink(path);
}

static void test_allocation_failures(void)
{
    static const lg_vertex_t src[] = {0, 1, 2, 2};
    static const lg_vertex_t dst[] = {1, 2, 0, 2};
    static const float w[] = {0.5f, 1, 2, 3};
    static const char *const ext[] = {"mtx", "el", "wel", "lgb"};
    char in[PATH_CAP], out[PATH_CAP], name[64];
    for (int d = LG_DIRECTED; d <= LG_UNDIRECTED; d++) {
        lg_graph_t *g = make_graph(3, 4, src, dst, w, (lg_directedness_t)d);
        for (size_t f = 0; f < sizeof ext / sizeof *ext; f++) {
            snprintf(name, sizeof name, "sweep_in.%s", ext[f]);
            tmp_path(in, name);
            snprintf(name, sizeof name, "sweep_out.%s", ext[f]);
            tmp_path(out, name);
            CHECK_OK(lg_graph_write(ctx1, g, in, LG_FORMAT_AUTO));
            sweep(name, in, g, out);
            unlink(in);
        }
        lg_graph_free(&g);
    }
    CHECK(no_temp_files());
}
int main(void)
{
    static void (*const tests[])(void) = {
        test_lgb_corruption,
        test_lgb_names,
        test_allocation_failures,
        test_allocation_failures_elsewhere,
    };
    alloc_sites_begin();
    const int rc = io_main(tests, sizeof tests / sizeof tests[0]);
    alloc_sites_end("test_io_failures (reading and writing every format)");
    return rc;
}
