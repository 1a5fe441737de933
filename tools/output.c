/*
 * output.c - what every lgraph command prints besides its own summary: a
 * library error as one stderr line (and its exit status), the note that an
 * algorithm fell back to the CPU, the --json line's common fields, and the
 * --output file of one line a vertex.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* The exit status of a failed call: 2 for a bad argument or file, 1 for
 * anything else. */
static int exit_status(lg_status_t st)
{
    return st == LG_ERR_INVALID_ARGUMENT || st == LG_ERR_IO ? 2 : 1;
}

/* Says what failed and why; returns the exit status: 2 for a bad argument or
 * file, 1 for anything else. */
int cli_fail(const char *what, lg_status_t st)
{
    if (st == LG_ERR_CANCELLED) {
        fprintf(stderr, "lgraph: %s: interrupted\n", what);
        return 130; /* 128 + SIGINT, as a shell reports a process SIGINT ended */
    }
    fprintf(stderr, "lgraph: %s: %s (%s)\n", what, lg_last_error(), lg_status_string(st));
    return exit_status(st);
}

/* Whether msg names path as the library's messages do: at its start or
 * after ": " ("path: reason", "path:line: reason", "rank 2: path:...",
 * "lg_graph_read: path holds ..."), followed by ':', ' ' or the end. */
static bool names_path(const char *msg, const char *path)
{
    const size_t len = strlen(path);
    if (!len)
        return false;
    for (const char *p = msg; (p = strstr(p, path)) != NULL; p++) {
        const bool starts = p == msg || (p - msg >= 2 && p[-2] == ':' && p[-1] == ' ');
        if (starts && (p[len] == ':' || p[len] == ' ' || p[len] == '\0'))
            return true;
    }
    return false;
}

int cli_fail_file(const char *path, lg_status_t st, const char *format_option)
{
    const char *msg = lg_last_error();
    if (strstr(msg, "or name the format")) {
        fprintf(stderr, "lgraph: %s: the name does not say the format: give %s mtx|el|wel|lgb\n",
                path, format_option);
        return 2;
    }
    if (st == LG_ERR_CANCELLED || !names_path(msg, path))
        return cli_fail(path, st);
    /* the library's message names the file already: once is enough */
    fprintf(stderr, "lgraph: %s (%s)\n", msg, lg_status_string(st));
    return exit_status(st);
}

/* The lines into f; 0, or errno of the first failure. */
static int write_lines(FILE *f, int64_t n, cli_line_writer line, const void *results)
{
    errno = 0;
    for (int64_t v = 0; v < n && !ferror(f); v++)
        line(f, v, results);
    return fflush(f) != 0 || ferror(f) ? (errno ? errno : EIO) : 0;
}

/* Whether path names a descriptor outright (/dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N): written through it, never replaced, as the
 * library does (a shell's redirection of stdout must not be renamed over). */
static bool names_descriptor(const char *path)
{
    return !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
           !strncmp(path, "/dev/fd/", 8) || !strncmp(path, "/proc/self/fd/", 14);
}

/* Writes one line a vertex to path; returns 0, or 1 after saying what
 * failed and why.  A regular file (or a new one) is written as a temporary
 * file beside it, synced, given the old file's mode (a new one: 0666 less
 * the umask) and renamed over it, so that a full disk or an error leaves
 * the old results whole; symbolic links are followed.  Anything else (a
 * FIFO, /dev/stdout, the file a dangling link names) is written into. */
int cli_write_output(const char *path, int64_t n, cli_line_writer line, const void *results)
{
    struct stat sb;
    const bool exists = stat(path, &sb) == 0;
    if (!exists && errno != ENOENT) {
        fprintf(stderr, "lgraph: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (exists && S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "lgraph: cannot write %s: it is a directory\n", path);
        return 1;
    }
    struct stat lb;
    const bool dangling = !exists && lstat(path, &lb) == 0;
    if (names_descriptor(path) || dangling || (exists && !S_ISREG(sb.st_mode))) {
        fflush(stdout); /* the summary so far comes first when path is stdout */
        FILE *f = fopen(path, names_descriptor(path) ? "a" : "w");
        int err = f ? write_lines(f, n, line, results) : errno;
        if (f && fclose(f) != 0 && !err)
            err = errno;
        if (err)
            fprintf(stderr, "lgraph: cannot write %s: %s\n", path, strerror(err));
        return err ? 1 : 0;
    }
    char *target = exists ? realpath(path, NULL) : strdup(path);
    char *tmp = target ? malloc(strlen(target) + sizeof ".tmp.XXXXXX") : NULL;
    int err = 0, fd = -1;
    bool created = false;
    FILE *f = NULL;
    if (!tmp) {
        err = errno ? errno : ENOMEM;
        goto done;
    }
    sprintf(tmp, "%s.tmp.XXXXXX", target);
    if ((fd = mkstemp(tmp)) < 0) {
        err = errno;
        goto done;
    }
    created = true;
    mode_t mode = exists ? sb.st_mode & 07777 : 0;
    if (!exists) {
        const mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0 || !(f = fdopen(fd, "w"))) {
        err = errno;
        goto done;
    }
    fd = -1; /* f owns it */
    if ((err = write_lines(f, n, line, results)) == 0 && fsync(fileno(f)) != 0 && errno != EINVAL)
        err = errno;
    if (fclose(f) != 0 && !err)
        err = errno;
    f = NULL;
    if (!err && rename(tmp, target) != 0)
        err = errno;
done:
    if (fd >= 0)
        close(fd);
    if (err && created)
        unlink(tmp);
    if (err)
        fprintf(stderr, "lgraph: cannot write %s: %s (any earlier file is left as it was)\n", path,
                strerror(err));
    free(tmp);
    free(target);
    return err ? 1 : 0;
}

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The median of t[0..k-1]; t is left as it is. */
double cli_median(const double *t, int k)
{
    double *c = malloc((size_t)k * sizeof *c);
    if (!c)
        return t[0];
    memcpy(c, t, (size_t)k * sizeof *c);
    qsort(c, (size_t)k, sizeof *c, compare_double);
    double m = k % 2 ? c[k / 2] : 0.5 * (c[k / 2 - 1] + c[k / 2]);
    free(c);
    return m;
}

/* The summary line's time.  One run: its time.  Several (--repeat): their
 * median, then the first run on its own, which pays what later runs find
 * done (page faults in fresh memory, a graph's in-edges or its GPU copy made
 * on first use) and so is no sample of the steady state. */
void cli_print_times(const double *t, int k)
{
    if (k == 1)
        printf(", %.3f ms", t[0] * 1e3);
    else
        printf(", %.3f ms (median of %d runs; first run, cold: %.3f ms)", 1e3 * cli_median(t, k), k,
               t[0] * 1e3);
}

/* The bytes of the well-formed UTF-8 sequence at c (1 to 4; RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or 0.  Stops at a
 * NUL: each byte is read only when those before it fit. */
static int utf8_sequence(const unsigned char *c)
{
    if (c[0] < 0x80)
        return 1;
    if (c[0] >= 0xc2 && c[0] <= 0xdf)
        return (c[1] & 0xc0) == 0x80 ? 2 : 0;
    if (c[0] >= 0xe0 && c[0] <= 0xef) {
        const unsigned lo = c[0] == 0xe0 ? 0xa0 : 0x80, hi = c[0] == 0xed ? 0x9f : 0xbf;
        return c[1] >= lo && c[1] <= hi && (c[2] & 0xc0) == 0x80 ? 3 : 0;
    }
    if (c[0] >= 0xf0 && c[0] <= 0xf4) {
        const unsigned lo = c[0] == 0xf0 ? 0x90 : 0x80, hi = c[0] == 0xf4 ? 0x8f : 0xbf;
        return c[1] >= lo && c[1] <= hi && (c[2] & 0xc0) == 0x80 && (c[3] & 0xc0) == 0x80 ? 4 : 0;
    }
    return 0;
}

/* s as a JSON string, quotes included: '"', '\\' and control characters
 * escaped (a tab in a file name must not break the line), UTF-8 as it is,
 * and each byte that is not part of well-formed UTF-8 (a file name is any
 * bytes) as the lone surrogate \udcXX, which JSON's grammar allows and
 * which decodes to what Python's os.fsdecode makes of the name: the JSON
 * line stays UTF-8, and the name can be told back. */
void cli_json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)s; *c;) {
        const int len = utf8_sequence(c);
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20 || *c == 0x7f)
            printf("\\u%04x", *c);
        else if (len == 0)
            printf("\\udc%02x", *c);
        else
            fwrite(c, 1, (size_t)len, stdout);
        c += len ? len : 1;
    }
    putchar('"');
}

/* Opens the JSON line with the fields every command has; the caller adds its
 * own and closes it with cli_json_end. */
void cli_json_begin(const struct session *s, const double *times, int k)
{
    printf("{\"command\": \"%s\", \"input\": ", s->a->command);
    cli_json_string(s->a->input);
    printf(", \"vertices\": %lld, \"arcs\": %lld, \"directed\": %s, \"threads\": %d, "
           "\"generate_s\": %.6f, \"build_s\": %.6f, \"times_s\": [",
           (long long)lg_graph_num_vertices(s->g), (long long)lg_graph_num_edges(s->g),
           lg_graph_is_directed(s->g) ? "true" : "false", s->threads, s->gen_s, s->build_s);
    for (int i = 0; i < k; i++)
        printf("%s%.6f", i ? ", " : "", times[i]);
    printf("], \"median_s\": %.6f", cli_median(times, k));
    /* what the graph holds, and the process's peak resident memory so far
     * (ru_maxrss: KiB on Linux, bytes on macOS) */
    struct rusage ru;
    long long peak = getrusage(RUSAGE_SELF, &ru) == 0 ? (long long)ru.ru_maxrss : -1;
#ifndef __APPLE__
    peak = peak < 0 ? -1 : peak * 1024;
#endif
    printf(", \"graph_bytes\": %zu, \"peak_rss_bytes\": %lld", lg_graph_host_bytes(s->g), peak);
    const char *device = "";
    lg_context_get_device(s->ctx, &device);
    printf(", \"device\": ");
    cli_json_string(device);
    lg_backend_t ran = lg_last_backend();
    printf(", \"ran_on\": \"%s\", \"why\": ", ran == LG_BACKEND_GPU   ? "gpu"
                                              : ran == LG_BACKEND_CPU ? "cpu"
                                                                      : "none");
    cli_json_string(lg_last_backend_reason());
}

/* On a GPU context (--device auto), says so when an algorithm ran on the CPU
 * instead, and the library's reason: the graph not yet worth its upload
 * (AUTO's rule), no GPU kernel for the algorithm, the GPU kernel refusing the
 * call (float64 weights where it reads float32), or the GPU out of memory. */
void cli_note_fallback(const struct session *s, const char *what)
{
    lg_backend_t kind = LG_BACKEND_CPU;
    lg_context_get_backend(s->ctx, &kind);
    if (kind == LG_BACKEND_GPU && lg_last_backend() == LG_BACKEND_CPU)
        printf("%s ran on the CPU (%d thread%s): %s\n", what, s->threads,
               s->threads == 1 ? "" : "s", lg_last_backend_reason());
}

void cli_json_end(void)
{
    printf("}\n");
}
