/*
 * file.c - file access for the graph formats: reading a file whole or in
 * parts, and writing one so that a failure leaves no partial file.
 *
 * Reading.  A regular file is read with pread, in pieces shared out among
 * threads: copying out of the page cache into a fresh buffer, page faults
 * included, is memory-bound work that one thread does at a fraction of the
 * machine's speed.  Pipes and other streams have no size and no offsets, so
 * they are read in order, into a buffer that doubles.  lg__load_text reads a
 * text file whole into one NUL-terminated buffer (the scanners stop at the
 * NUL); lg__in_read reads the next part of a binary file.
 *
 * Writing.  Everything goes to "PATH.tmp.XXXXXX" in the same directory (so
 * the rename stays within one file system) and is renamed over PATH only
 * once complete; on any failure the temporary file is removed.
 *
 * Errors: LG_ERR_IO "PATH: what: strerror" for the system's errors, and
 * "PATH: truncated: the file ends inside the <part>" for a file shorter than
 * its reader was told.
 */
#define _POSIX_C_SOURCE 200809L

#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* One read or write call moves at most this much: large enough to run at
 * disk speed, well under the ~2 GiB that Linux moves in one call. */
#define IO_BLOCK ((size_t)64 << 20)

/* Regular files are read in pieces of this size, shared out among threads;
 * a pipe's contents are collected in a buffer that starts this large. */
#define READ_PIECE ((size_t)8 << 20)
#define PIPE_BUFFER_START ((size_t)1 << 20)

/* Progress is reported after each part of this many bytes: well under a
 * tenth of a second at page-cache speed. */
#define REPORT_BYTES ((size_t)64 << 20)

/* How many random temporary names to try before giving up. */
#define TEMP_ATTEMPTS 64

/* ---- errors that name the file ------------------------------------------------- */

/* strerror_r because the library is used from many threads at once. */
lg_status_t lg__errno_error(int err, const char *path, const char *what)
{
    char msg[128];
    if (strerror_r(err, msg, sizeof msg) != 0)
        snprintf(msg, sizeof msg, "error %d", err);
    return lg__error(LG_ERR_IO, "%s: %s: %s", path, what, msg);
}

/* The options were checked before the file was opened, so an
 * LG_ERR_INVALID_ARGUMENT from the builders is the data's fault. */
lg_status_t lg__blame_file(lg_status_t st, const char *path)
{
    if (st != LG_ERR_INVALID_ARGUMENT)
        return st;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", lg_last_error());
    return lg__error(LG_ERR_IO, "%s: %s", path, msg);
}

/* ---- input files --------------------------------------------------------------- */

lg_status_t lg__in_open(struct lg_in_file *in, const char *path)
{
    struct stat sb;
    memset(in, 0, sizeof *in);
    in->path = path;
    in->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (in->fd < 0)
        return lg__errno_error(errno, path, "cannot open");
    if (fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        in->regular = true;
        in->size = (int64_t)sb.st_size;
    }
    return LG_OK;
}

void lg__in_close(struct lg_in_file *in)
{
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
}

int64_t lg__read_full(int fd, char *p, size_t bytes)
{
    size_t done = 0;
    while (done < bytes) {
        const size_t want = bytes - done < IO_BLOCK ? bytes - done : IO_BLOCK;
        const ssize_t k = read(fd, p + done, want);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        done += (size_t)k;
    }
    return (int64_t)done;
}

/* pread of [at, at + bytes) in pieces shared out among threads.  Sets *err to
 * an errno, or *ended when the file is shorter. */
static void pread_parallel(int fd, char *buf, size_t bytes, int64_t at, int threads, int *err,
                           int *ended)
{
    const int64_t pieces = (int64_t)((bytes + READ_PIECE - 1) / READ_PIECE);
    int e = 0, short_read = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(max : e, short_read)
    for (int64_t k = 0; k < pieces; k++) {
        size_t done = (size_t)k * READ_PIECE;
        const size_t stop = bytes - done < READ_PIECE ? bytes : done + READ_PIECE;
        int piece_err = 0, piece_ended = 0;
        while (done < stop && !piece_err && !piece_ended) {
            const ssize_t got = pread(fd, buf + done, stop - done, (off_t)(at + (int64_t)done));
            if (got < 0 && errno != EINTR)
                piece_err = errno;
            else if (got == 0)
                piece_ended = 1;
            else if (got > 0)
                done += (size_t)got;
        }
        e = piece_err > e ? piece_err : e;
        short_read = piece_ended > short_read ? piece_ended : short_read;
    }
    *err = e;
    *ended = short_read;
}

lg_status_t lg__in_read(struct lg_in_file *in, void *buf, size_t bytes, int threads,
                        const char *what)
{
    for (size_t at = 0; at < bytes;) {
        const size_t len = bytes - at < REPORT_BYTES ? bytes - at : REPORT_BYTES;
        int err = 0, ended = 0;
        char *p = (char *)buf + at;
        if (in->regular) {
            pread_parallel(in->fd, p, len, in->pos, threads, &err, &ended);
        } else {
            const int64_t got = lg__read_full(in->fd, p, len);
            err = got < 0 ? errno : 0;
            ended = got >= 0 && (size_t)got < len;
        }
        if (err)
            return lg__errno_error(err, in->path, "read error");
        if (ended)
            return lg__error(LG_ERR_IO, "%s: truncated: the file ends inside the %s", in->path,
                             what);
        in->pos += (int64_t)len;
        at += len;
        if (!lg_progress_go_on(in->progress, LG_STAGE_READ, in->pos, in->regular ? in->size : -1,
                               0.0))
            return LG_ERR_CANCELLED;
    }
    return LG_OK;
}

/* Moves the first `used` bytes of *buf into a new allocation of cap bytes, as
 * realloc would; on failure *buf stays as it was. */
static lg_status_t grow_bytes(char **buf, size_t used, size_t cap)
{
    char *p = lg__alloc_array(cap, 1, "a file buffer");
    if (!p)
        return LG_ERR_OUT_OF_MEMORY;
    memcpy(p, *buf, used);
    lg__free(*buf);
    *buf = p;
    return LG_OK;
}

/* A stream of unknown length: read until EOF into a buffer that doubles. */
static lg_status_t read_stream(struct lg_in_file *in, char **buf, size_t *used)
{
    size_t cap = PIPE_BUFFER_START;
    if (!(*buf = lg__alloc_array(cap, 1, "a file buffer")))
        return LG_ERR_OUT_OF_MEMORY;
    for (;;) {
        if (*used + 1 == cap) { /* keep a byte for the NUL */
            lg_status_t st =
                cap > SIZE_MAX / 2 ? lg__oom("a file buffer") : grow_bytes(buf, *used, cap * 2);
            if (st != LG_OK)
                return st;
            cap *= 2;
        }
        const int64_t got = lg__read_full(in->fd, *buf + *used, cap - 1 - *used);
        if (got < 0)
            return lg__errno_error(errno, in->path, "read error");
        if (got == 0)
            return LG_OK;
        *used += (size_t)got;
        if (!lg_progress_go_on(in->progress, LG_STAGE_READ, (int64_t)*used, -1, 0.0))
            return LG_ERR_CANCELLED;
    }
}

lg_status_t lg__load_text(const char *path, int threads, struct lg_progress progress,
                          struct lg_text *t)
{
    struct lg_in_file in;
    char *buf = NULL;
    size_t used = 0;
    lg_status_t st = lg__in_open(&in, path);
    if (st != LG_OK)
        return st;
    in.progress = progress;
    if (!in.regular) {
        st = read_stream(&in, &buf, &used);
    } else if ((buf = lg__alloc_array((size_t)in.size + 1, 1, "a file buffer")) == NULL) {
        st = LG_ERR_OUT_OF_MEMORY;
    } else {
        used = (size_t)in.size;
        st = lg__in_read(&in, buf, used, threads, "text (it shrank while being read)");
    }
    if (st == LG_OK) {
        buf[used] = '\0';
        t->data = buf;
        t->size = used;
        buf = NULL;
    }
    lg__free(buf);
    lg__in_close(&in);
    return st;
}

/* ---- output files -------------------------------------------------------------- */

static void temp_suffix(char *s, uint64_t seed)
{
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    uint64_t x = lg__mix64(seed);
    for (int i = 0; i < 6; i++, x /= 36)
        s[i] = alphabet[x % 36];
    s[6] = '\0';
}

/* Not mkstemp: that creates the file with mode 0600, which the rename would
 * hand to the finished file; open with 0666 lets the umask decide, as for
 * any file the user creates. */
lg_status_t lg__out_open(struct lg_out_file *out, const char *path)
{
    static atomic_uint_fast64_t calls;
    const size_t len = strlen(path);
    struct timespec ts;
    int err = 0;
    out->path = path;
    out->fd = -1;
    out->tmp_path = lg__alloc_array(len + sizeof ".tmp.XXXXXX", 1, "a temporary file name");
    if (!out->tmp_path)
        return LG_ERR_OUT_OF_MEMORY;
    memcpy(out->tmp_path, path, len);
    memcpy(out->tmp_path + len, ".tmp.", 5);
    clock_gettime(CLOCK_REALTIME, &ts);
    for (int attempt = 0; attempt < TEMP_ATTEMPTS; attempt++) {
        uint64_t seed = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^
                        (uint64_t)getpid() << 40 ^ atomic_fetch_add(&calls, 1) * 0x9E3779B9ull;
        temp_suffix(out->tmp_path + len + 5, seed);
        out->fd = open(out->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (out->fd >= 0)
            return LG_OK;
        err = errno;
        if (err != EEXIST)
            break;
    }
    lg__free(out->tmp_path);
    out->tmp_path = NULL;
    return lg__errno_error(err, path, "cannot create a temporary file beside it");
}

lg_status_t lg__out_write(struct lg_out_file *out, const void *data, size_t bytes)
{
    const char *p = data;
    while (bytes > 0) {
        const size_t want = bytes < IO_BLOCK ? bytes : IO_BLOCK;
        const ssize_t k = write(out->fd, p, want);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return lg__errno_error(k < 0 ? errno : EIO, out->path, "cannot write");
        p += k;
        bytes -= (size_t)k;
    }
    return LG_OK;
}

lg_status_t lg__out_finish(struct lg_out_file *out, lg_status_t st)
{
    if (out->fd >= 0 && close(out->fd) != 0 && st == LG_OK)
        st = lg__errno_error(errno, out->path, "cannot write");
    out->fd = -1;
    if (st == LG_OK && rename(out->tmp_path, out->path) != 0)
        st = lg__errno_error(errno, out->path, "cannot rename the temporary file over it");
    if (st != LG_OK)
        unlink(out->tmp_path);
    lg__free(out->tmp_path);
    out->tmp_path = NULL;
    return st;
}
