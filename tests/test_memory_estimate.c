/*
 * test_memory_estimate.c - the readers' estimate of the memory a read holds
 * at its peak (lg__note_peak: what the check against MemAvailable asks
 * for, and what the build and the reader hold already) against the peak
 * the kernel measured, for every reader: the estimate must lie within 1.5x
 * of the measured growth of the process (VmHWM after the read less VmRSS
 * before it), both ways.
 *
 * Each read runs in a forked child, whose high-water mark starts at its
 * resident size.  The cases: files whose vertex count dominates (a Matrix
 * Market size line, one large id in an edge list), and files whose edges
 * dominate (a Kronecker graph as .el, .wel, .mtx and .lgb, and as a stream
 * through a pipe).  Sanitizer builds skip it: their shadow memory and
 * quarantine are most of the peak.
 */
#define _GNU_SOURCE
#define IO_TMP_PREFIX "memest_"

#include "internal.h" /* lg__peak_estimate */
#include "io_util.h"
#include "libgraph.h"
#include "test_util.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LG_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define LG_SANITIZED 1
#endif
#endif

#ifndef LG_SANITIZED
/* A field of /proc/self/status in bytes ("VmRSS:", "VmHWM:"), or -1. */
static long long status_bytes(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long long kib = -1;
    const size_t len = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, len) == 0)
            kib = atoll(line + len);
    if (f)
        fclose(f);
    return kib < 0 ? -1 : kib * 1024;
}

struct measured {
    long long estimate, growth;
    int status;
};

/* Reads path (format; through a pipe from a writer process when `piped`)
 * in a child; what it estimated and how much it grew. */
static struct measured measure(const char *path, lg_file_format_t format, bool piped)
{
    struct measured m = {-1, -1, -1};
    int fds[2];
    if (pipe(fds) != 0)
        return m;
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const char *from = path;
        if (piped) { /* a grandchild writes the file into a pipe read as stdin */
            int data[2];
            if (pipe(data) != 0)
                _exit(2);
            if (fork() == 0) {
                close(data[0]);
                const int in = open(path, O_RDONLY);
                char buf[1 << 16];
                ssize_t k;
                while (in >= 0 && (k = read(in, buf, sizeof buf)) > 0)
                    if (write(data[1], buf, (size_t)k) != k)
                        break;
                _exit(0);
            }
            close(data[1]);
            if (dup2(data[0], 0) < 0)
                _exit(2);
            close(data[0]);
            from = "/dev/stdin";
        }
        lg_context_t *ctx = NULL;
        lg_graph_t *g = NULL;
        lg_context_options_t co;
        lg_context_options_init(&co);
        co.backend = LG_BACKEND_CPU;
        co.num_threads = 2;
        if (lg_context_create(&ctx, &co) != LG_OK)
            _exit(2);
        struct measured r;
        (void)lg__peak_estimate();
        const long long before = status_bytes("VmRSS:");
        r.status = (int)lg_graph_read(ctx, from, format, NULL, &g);
        r.growth = status_bytes("VmHWM:") - before;
        r.estimate = lg__peak_estimate();
        if (write(fds[1], &r, sizeof r) != (ssize_t)sizeof r)
            _exit(2);
        lg_graph_free(&g);
        lg_context_free(&ctx);
        _exit(0);
    }
    close(fds[1]);
    if (pid > 0 && read(fds[0], &m, sizeof m) != (ssize_t)sizeof m)
        m.status = -1;
    close(fds[0]);
    int ws;
    while (pid > 0 && waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
    }
    return m;
}

static void check(const char *what, const char *path, lg_file_format_t format, bool piped)
{
    const struct measured m = measure(path, format, piped);
    const double ratio = m.growth > 0 ? (double)m.estimate / (double)m.growth : 0.0;
    const bool ok = m.status == LG_OK && m.estimate > 0 && ratio >= 1 / 1.5 && ratio <= 1.5;
    CHECK(ok);
    printf("%-34s estimate %7.1f MB, measured %7.1f MB: %.2fx%s\n", what, (double)m.estimate / 1e6,
           (double)m.growth / 1e6, ratio, ok ? "" : "  <- outside [1/1.5, 1.5]");
}

static void test_estimates(void)
{
    char path[PATH_CAP];
    /* vertex counts that dominate: 2^24 vertices, one edge */
    tmp_path(path, "rows.mtx");
    write_text(path, "%%MatrixMarket matrix coordinate pattern general\n"
                     "16777216 16777216 1\n1 2\n");
    check("size line, 2^24 rows (.mtx)", path, LG_FORMAT_AUTO, false);
    unlink(path);
    tmp_path(path, "id.el");
    write_text(path, "0 16777215\n");
    check("one id 2^24 - 1 (.el)", path, LG_FORMAT_AUTO, false);
    unlink(path);

    /* edges that dominate: kron:17 in every format, and as streams */
    lg_graph_t *g = NULL, *w = NULL;
    CHECK_OK(lg_generate(ctx1, LG_GENERATOR_KRONECKER, 17, 16, 1, NULL, &g));
    if (!g)
        return;
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    CHECK_OK(lg_graph_csr(g, &off, &idx, NULL));
    const int64_t n = lg_graph_num_vertices(g), m = lg_graph_num_edges(g);
    float *wt = malloc((size_t)m * sizeof *wt);
    for (int64_t e = 0; wt && e < m; e++)
        wt[e] = 1.0f + (float)(idx[e] % 7);
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_DIRECTED; /* every arc its own weight: no symmetry to keep */
    CHECK_OK(lg_graph_from_csr(ctx1, n, off, idx, wt, &o, &w));
    free(wt);
    static const char *const names[] = {"k.el", "k.mtx", "k.lgb", "kw.wel", "kw.lgb"};
    for (int f = 0; f < 5; f++) {
        tmp_path(path, names[f]);
        CHECK_OK(lg_graph_write(ctx1, f < 3 ? g : w, path, LG_FORMAT_AUTO));
        char what[64];
        snprintf(what, sizeof what, "kron:17 %s", strchr(names[f], '.'));
        check(what, path, LG_FORMAT_AUTO, false);
        if (f != 1) {
            static const lg_file_format_t piped[] = {LG_FORMAT_EL, 0, LG_FORMAT_BINARY,
                                                     LG_FORMAT_WEL, LG_FORMAT_BINARY};
            snprintf(what, sizeof what, "kron:17 %s through a pipe", strchr(names[f], '.'));
            check(what, path, piped[f], true);
        }
        unlink(path);
    }
    lg_graph_free(&g);
    lg_graph_free(&w);
}
#else
static void test_estimates(void)
{
    printf("sanitizer build: peaks are the sanitizer's; skipped\n");
    CHECK(true);
}
#endif

int main(void)
{
    static void (*const tests[])(void) = {test_estimates};
    return io_main(tests, sizeof tests / sizeof tests[0]);
}
