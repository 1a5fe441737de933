/*
 * test_hostile_inputs.c - what a stranger's file or path can do to the
 * readers and writers (src/graph/io/), as a table and a few scenarios.
 *
 * The table: files whose headers lie about their sizes, counts that
 * overflow 32- and 64-bit arithmetic, ids past INT32_MAX and INT64_MAX,
 * weights outside float's range, NUL bytes, bytes that are not UTF-8, a
 * gigantic line; each must give its status and a message naming the file
 * and the line.  Then what a path can be: a directory, a FIFO, /dev/zero
 * and /dev/urandom (refused on the first part read), an endless pipe and a
 * vertex count larger than the memory (LG_ERR_OUT_OF_MEMORY before the
 * memory is taken: the available figure is lowered through a test hook).
 * Then writes: to a missing directory, a read-only place, a full file
 * system (RLIMIT_FSIZE), over a symbolic link, a 0600 file, into a FIFO;
 * a failed write leaves the old file as it was.
 */
#define _GNU_SOURCE /* pipe2 */
#define IO_TMP_PREFIX "hostile_"

#include "internal.h" /* lg__mem_available_override */
#include "io_util.h"
#include "libgraph.h"
#include "test_util.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the table ---------------------------------------------------------------------------- */

struct hostile {
    const char *name; /* file name: its extension picks the format */
    const char *text; /* NULL: built by the test (see gigantic_line) */
    size_t len;       /* 0: strlen(text) */
    lg_status_t want;
    int line;        /* the line the message names; 0: the file without a line */
    const char *sub; /* in the message */
};

#define MTX_PATTERN "%%MatrixMarket matrix coordinate pattern general\n"
#define MTX_REAL "%%MatrixMarket matrix coordinate real general\n"

static const struct hostile table[] = {
    /* sizes that lie */
    {"fewer.mtx", MTX_PATTERN "3 3 5\n1 2\n2 3\n", 0, LG_ERR_IO, 2, "only 2"},
    {"more.mtx", MTX_PATTERN "3 3 1\n1 2\n2 3\n", 0, LG_ERR_IO, 4, "one entry more"},
    {"nnz_huge.mtx", MTX_PATTERN "3 3 9223372036854775807\n1 2\n", 0, LG_ERR_IO, 2, "entries"},
    {"rows_int64.mtx", MTX_PATTERN "99999999999999999999 99999999999999999999 1\n1 2\n", 0,
     LG_ERR_IO, 2, NULL},
    {"rows_int32.mtx", MTX_PATTERN "4294967296 4294967296 1\n1 2\n", 0, LG_ERR_IO, 2, "at most"},
    {"not_square.mtx", MTX_PATTERN "3 4 1\n1 2\n", 0, LG_ERR_IO, 2, "square"},
    {"header_lies.el", "# libgraph edge list: directed, 2 vertices\n0 5\n", 0, LG_ERR_IO, 0,
     "says 2 vertices"},
    /* ids */
    {"id_int32.el", "0 1\n0 2147483648\n", 0, LG_ERR_IO, 2, "too large"},
    {"id_int64.el", "0 9223372036854775808\n", 0, LG_ERR_IO, 1, "too large"},
    {"id_negative.el", "0 -1\n", 0, LG_ERR_IO, 1, "-1"},
    {"id_past_rows.mtx", MTX_PATTERN "3 3 1\n1 4\n", 0, LG_ERR_IO, 3, "out of range"},
    /* weights */
    {"weight_underflow.wel", "0 1 1e-50\n", 0, LG_ERR_IO, 1, "rounds to 0"},
    {"weight_underflow_double.wel", "0 1 1e-400\n", 0, LG_ERR_IO, 1, "rounds to 0"},
    {"weight_negative_tiny.wel", "0 1 -1e-400\n", 0, LG_ERR_IO, 1, "negative"},
    {"weight_overflow.mtx", MTX_REAL "2 2 1\n1 2 1e39\n", 0, LG_ERR_IO, 3, "too large"},
    {"weight_hex.wel", "0 1 0x1p-3\n", 0, LG_ERR_IO, 1, "not a decimal number"},
    {"weight_nan.wel", "0 1 nan\n", 0, LG_ERR_IO, 1, "NaN"},
    /* bytes */
    {"nul.el", "0 1\n1 \0 2\n", 10, LG_ERR_IO, 2, NULL},
    {"nul_first.el", "\0\0\0\0", 4, LG_ERR_IO, 1, NULL},
    {"not_utf8.el", "0 1\n\xff\xfe 2\n", 0, LG_ERR_IO, 2, "source"},
    {"binary_as_text.mtx",
     "\x7f"
     "ELF\x02\x01\x01",
     7, LG_ERR_IO, 1, NULL},
    {"lgb_as_el.el", "LGRAPH\x01\x00", 8, LG_ERR_IO, 1, NULL},
    {"gigantic_line.el", NULL, 0, LG_ERR_IO, 2, "too large"},
};

/* A 16 MB line of digits after a good one. */
static char *gigantic_line(size_t *len)
{
    const size_t digits = (size_t)16 << 20;
    char *text = malloc(digits + 16);
    if (!text)
        return NULL;
    memcpy(text, "0 1\n1 ", 6);
    memset(text + 6, '7', digits);
    memcpy(text + 6 + digits, "\n", 2);
    *len = 6 + digits + 1;
    return text;
}

static void test_table(void)
{
    char path[PATH_CAP];
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const struct hostile *h = &table[i];
        size_t len = h->len ? h->len : h->text ? strlen(h->text) : 0;
        char *made = h->text ? NULL : gigantic_line(&len);
        tmp_path(path, h->name);
        write_bytes(path, h->text ? h->text : made, len);
        free(made);
        lg_graph_t *g = NULL;
        const lg_status_t st = lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g);
        if (st != h->want) {
            fprintf(stderr, "%s: %s, want %s (%s)\n", h->name, lg_status_string(st),
                    lg_status_string(h->want), lg_last_error());
        }
        CHECK(st == h->want && g == NULL);
        if (h->line > 0)
            check_where(path, h->line);
        CHECK_MESSAGE(path);
        if (h->sub)
            CHECK_MESSAGE(h->sub);
        lg_graph_free(&g);
        unlink(path);
    }
}

/* A small directed weighted graph: 0->1, 1->2, 2->0, 2->3. */
static lg_graph_t *small_graph(void)
{
    static const lg_vertex_t src[] = {0, 1, 2, 2}, dst[] = {1, 2, 0, 3};
    static const float w[] = {1.0f, 2.0f, 0.5f, 4.0f};
    return make_graph(4, 4, src, dst, w, LG_DIRECTED);
}

/* ---- paths that are not files ------------------------------------------------------------ */

struct feeder {
    const char *path; /* a FIFO */
    const char *text; /* written again and again until the reader goes */
};

static void *feed(void *arg)
{
    const struct feeder *f = arg;
    const int fd = open(f->path, O_WRONLY);
    if (fd < 0)
        return NULL;
    /* the text repeated into 64 KB blocks: one write a block (a write a
     * line crawls under valgrind) */
    static char block[1 << 16];
    const size_t len = strlen(f->text), copies = sizeof block / len;
    for (size_t i = 0; i < copies; i++)
        memcpy(block + i * len, f->text, len);
    while (write(fd, block, copies * len) == (ssize_t)(copies * len)) {
    }
    close(fd);
    return NULL;
}

/* Reads path (a FIFO) while a thread feeds it text without end. */
static lg_status_t read_endless(const char *path, const char *text, lg_file_format_t format)
{
    struct feeder f = {path, text};
    pthread_t t;
    signal(SIGPIPE, SIG_IGN); /* the feeder writes on after the reader gives up */
    lg_graph_t *g = NULL;
    CHECK(pthread_create(&t, NULL, feed, &f) == 0);
    lg_status_t st = lg_graph_read(ctx4, path, format, NULL, &g);
    CHECK(g == NULL);
    pthread_join(t, NULL);
    return st;
}

static void test_special_paths(void)
{
    char path[PATH_CAP];
    lg_graph_t *g = NULL;
    /* a directory */
    tmp_path(path, "dir.el");
    CHECK(mkdir(path, 0755) == 0);
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    CHECK_MESSAGE(path);
    lg_graph_t *small = small_graph();
    CHECK_STATUS(lg_graph_write(ctx4, small, path, LG_FORMAT_AUTO), LG_ERR_IO);
    CHECK_MESSAGE("directory");
    lg_graph_free(&small);
    rmdir(path);
    /* devices that never end: refused on the first part */
    CHECK_STATUS(lg_graph_read(ctx4, "/dev/zero", LG_FORMAT_EL, NULL, &g), LG_ERR_IO);
    CHECK_MESSAGE("/dev/zero:1: byte 0x00: this is not a text file");
    CHECK_STATUS(lg_graph_read(ctx4, "/dev/urandom", LG_FORMAT_MTX, NULL, &g), LG_ERR_IO);
    CHECK_MESSAGE("/dev/urandom:");
    CHECK(g == NULL);
    /* FIFOs: garbage stops the read at once; endless good text stops when
     * the buffer would outgrow the memory available */
    tmp_path(path, "fifo.el");
    unlink(path);
    CHECK(mkfifo(path, 0600) == 0);
    CHECK(read_endless(path, "0 1\n\x01\x02", LG_FORMAT_AUTO) == LG_ERR_IO);
    CHECK_MESSAGE(":2: byte 0x01");
    lg__mem_available_override((long long)64 << 20);
    CHECK(read_endless(path, "0 1\n1 2\n", LG_FORMAT_AUTO) == LG_ERR_OUT_OF_MEMORY);
    CHECK_MESSAGE(path);
    CHECK_MESSAGE("available");
    lg__mem_available_override(-1);
    unlink(path);
    /* a missing file, and (not as root, who reads anything) an unreadable one */
    tmp_path(path, "missing.el");
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    CHECK_MESSAGE("No such file");
    if (geteuid() != 0) {
        tmp_path(path, "unreadable.el");
        write_text(path, "0 1\n");
        CHECK(chmod(path, 0) == 0);
        CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
        CHECK_MESSAGE("Permission denied");
        unlink(path);
    }
    CHECK(g == NULL);
}

/* Vertex counts a file gives (a size line, one large id) that the memory
 * cannot hold: an error before the memory is taken. */
static void test_counts_past_memory(void)
{
    char path[PATH_CAP];
    lg_graph_t *g = NULL;
    lg__mem_available_override((long long)1 << 30);
    tmp_path(path, "rows_past_memory.mtx");
    write_text(path, MTX_PATTERN "2147483647 2147483647 1\n1 2\n");
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_OUT_OF_MEMORY);
    CHECK_MESSAGE(path);
    CHECK_MESSAGE("2147483647 vertices");
    unlink(path);
    tmp_path(path, "id_past_memory.el");
    write_text(path, "0 555555555\n");
    CHECK_STATUS(lg_graph_read(ctx4, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_OUT_OF_MEMORY);
    CHECK_MESSAGE("555555556 vertices");
    unlink(path);
    /* the same sizes from arrays */
    const lg_vertex_t s = 0, d = 1;
    CHECK_STATUS(lg_graph_from_edges(ctx4, LG_MAX_VERTICES, 1, &s, &d, NULL, NULL, &g),
                 LG_ERR_OUT_OF_MEMORY);
    lg__mem_available_override(-1);
    CHECK(g == NULL);
}

/* ---- writes ------------------------------------------------------------------------------- */

static bool file_is(const char *path, const char *text)
{
    size_t len = 0;
    unsigned char *got = read_bytes(path, &len);
    const bool same = got && len == strlen(text) && memcmp(got, text, len) == 0;
    free(got);
    return same;
}

static void test_writes(void)
{
    char path[PATH_CAP], link[PATH_CAP + 16];
    lg_graph_t *g = small_graph(), *back = NULL;
    /* nowhere to write */
    CHECK_STATUS(lg_graph_write(ctx4, g, "", LG_FORMAT_EL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("the path is empty");
    tmp_path(path, "no_such_dir/g.el");
    CHECK_STATUS(lg_graph_write(ctx4, g, path, LG_FORMAT_AUTO), LG_ERR_IO);
    CHECK_MESSAGE("No such file or directory");
    CHECK_STATUS(lg_graph_write(ctx4, g, "/proc/libgraph_test.el", LG_FORMAT_AUTO), LG_ERR_IO);
    CHECK_MESSAGE("/proc/libgraph_test.el");
    /* a device that is full: written into, and the error says so */
    CHECK_STATUS(lg_graph_write(ctx4, g, "/dev/full", LG_FORMAT_EL), LG_ERR_IO);
    CHECK_MESSAGE("No space left");

    /* a full file system (a file size limit): the old file stays whole */
    tmp_path(path, "full.el");
    write_text(path, "old contents\n");
    struct rlimit old_limit, small = {4096, 0};
    CHECK(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
    small.rlim_max = old_limit.rlim_max;
    signal(SIGXFSZ, SIG_IGN);
    lg_graph_t *big = NULL;
    CHECK_OK(lg_generate(ctx4, LG_GENERATOR_URAND, 8, 8, 1, NULL, &big));
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    CHECK_STATUS(lg_graph_write(ctx4, big, path, LG_FORMAT_AUTO), LG_ERR_IO);
    CHECK_MESSAGE("File too large");
    CHECK(setrlimit(RLIMIT_FSIZE, &old_limit) == 0);
    signal(SIGXFSZ, SIG_DFL);
    CHECK(file_is(path, "old contents\n"));
    lg_graph_free(&big);

    /* a file of mode 0600 keeps it; a new file gets 0666 less the umask */
    struct stat sb;
    CHECK(chmod(path, 0600) == 0);
    CHECK_OK(lg_graph_write(ctx4, g, path, LG_FORMAT_AUTO));
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 07777) == 0600);
    unlink(path);
    const mode_t mask = umask(022);
    CHECK_OK(lg_graph_write(ctx4, g, path, LG_FORMAT_AUTO));
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 07777) == 0644);
    umask(mask);

    /* a symbolic link stays a link; the file it names gets the graph */
    snprintf(link, sizeof link, "%s.link", path);
    CHECK(symlink(path, link) == 0);
    CHECK_OK(lg_graph_write(ctx4, g, link, LG_FORMAT_EL));
    struct stat lb;
    CHECK(lstat(link, &lb) == 0 && S_ISLNK(lb.st_mode));
    back = read_graph(ctx4, path, LG_DIRECTED);
    CHECK(back && same_arcs(g, back, WEIGHTS_NONE));
    lg_graph_free(&back);
    unlink(link);
    unlink(path);

    /* a dangling link: the file it names is made, the link stays */
    tmp_path(path, "made_by_link.el");
    snprintf(link, sizeof link, "%s.link.el", path);
    unlink(path);
    CHECK(symlink("hostile_made_by_link.el", link) == 0); /* relative to the link's directory */
    CHECK_OK(lg_graph_write(ctx4, g, link, LG_FORMAT_EL));
    CHECK(lstat(link, &lb) == 0 && S_ISLNK(lb.st_mode) && file_exists(path));
    unlink(link);
    unlink(path);

    /* a descriptor's path is written through the descriptor (a shell's
     * redirection of stdout is not replaced) */
    int pfd[2];
    CHECK(pipe(pfd) == 0);
    char fd_path[64];
    snprintf(fd_path, sizeof fd_path, "/proc/self/fd/%d", pfd[1]);
    CHECK_OK(lg_graph_write(ctx4, g, fd_path, LG_FORMAT_EL));
    close(pfd[1]);
    char head[64] = {0};
    CHECK(read(pfd[0], head, sizeof head - 1) > 0 &&
          strncmp(head, "# libgraph edge list: directed", 30) == 0);
    close(pfd[0]);

    /* a FIFO is written into (a reader takes the graph as it comes) */
    tmp_path(path, "out_fifo.el");
    unlink(path);
    CHECK(mkfifo(path, 0600) == 0);
    int fds[2];
    CHECK(pipe2(fds, O_CLOEXEC) == 0);
    const pid_t child = fork();
    if (child == 0) { /* the reader: the FIFO's bytes into the pipe */
        char buf[4096];
        const int in = open(path, O_RDONLY);
        ssize_t k;
        while (in >= 0 && (k = read(in, buf, sizeof buf)) > 0)
            if (write(fds[1], buf, (size_t)k) != k)
                _exit(1);
        _exit(0);
    }
    close(fds[1]);
    CHECK_OK(lg_graph_write(ctx4, g, path, LG_FORMAT_EL));
    char got[512] = {0};
    size_t have = 0;
    ssize_t k;
    while (have + 1 < sizeof got && (k = read(fds[0], got + have, sizeof got - 1 - have)) > 0)
        have += (size_t)k;
    close(fds[0]);
    waitpid(child, NULL, 0);
    CHECK(strncmp(got, "# libgraph edge list: directed, 4 vertices", 42) == 0);
    struct stat fb;
    CHECK(stat(path, &fb) == 0 && S_ISFIFO(fb.st_mode));
    unlink(path);
    lg_graph_free(&g);
}

int main(void)
{
    static void (*const tests[])(void) = {
        test_table,
        test_special_paths,
        test_counts_past_memory,
        test_writes,
    };
    return io_main(tests, sizeof tests / sizeof tests[0]);
}
