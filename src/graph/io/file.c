/*
 * file.c - file access for the graph formats: reading a file whole or in
 * parts, and writing one so that a failure leaves no partial file.
 *
 * Reading.  A regular file is read with pread, in pieces shared out among
 * threads: copying out of the page cache into a fresh buffer, page faults
 * included, is memory-bound work that one thread does at a fraction of the
 * machine's speed.  Pipes and other streams have no size and no offsets, so
 * they are read in order, into a buffer that doubles: lg__load_text reads a
 * text stream whole into one NUL-terminated buffer (the scanners stop at
 * the NUL).  lg__in_read reads the next part of a file.
 *
 * Writing.  Everything goes to "PATH.tmp.XXXXXX" in the same directory (so
 * the rename stays within one file system), is synced to disk, takes the
 * mode of the file it replaces and is renamed over PATH only once complete;
 * on any failure the temporary file is removed.  A symbolic link is followed
 * (the file it names is replaced, the link stays); a FIFO or device is
 * written into, as a stream.
 *
 * Errors: LG_ERR_IO "PATH: what: strerror" for the system's errors, and
 * "PATH: truncated: the file ends inside the <part>" for a file shorter than
 * its reader was told.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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
    if (st != LG_ERR_INVALID_ARGUMENT && st != LG_ERR_OUT_OF_MEMORY)
        return st;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", lg_last_error());
    return lg__error(st == LG_ERR_OUT_OF_MEMORY ? st : LG_ERR_IO, "%s: %s", path, msg);
}

/* ---- input files --------------------------------------------------------------- */

static lg_status_t in_open(struct lg_in_file *in, const char *path, int flags)
{
    struct stat sb;
    memset(in, 0, sizeof *in);
    in->path = path;
    in->fd = open(path, O_RDONLY | O_CLOEXEC | flags);
    if (in->fd < 0)
        return lg__errno_error(errno, path, "cannot open");
    if (fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        in->regular = true;
        in->size = (int64_t)sb.st_size;
    }
    return LG_OK;
}

lg_status_t lg__in_open(struct lg_in_file *in, const char *path)
{
    return in_open(in, path, 0);
}

/* O_NONBLOCK: a FIFO opens at once, writer or not, and is then refused; a
 * regular file's reads ignore the flag. */
lg_status_t lg__in_open_regular(struct lg_in_file *in, const char *path, const char *fn,
                                const char *why)
{
    lg_status_t st = in_open(in, path, O_NONBLOCK);
    if (st == LG_OK && !in->regular) {
        lg__in_close(in);
        st = lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is not a regular file: %s", fn, path, why);
    }
    return st;
}

void lg__in_close(struct lg_in_file *in)
{
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
}

/* read() (at < 0) or pread() at `at` until `bytes` are in or the file ends. */
static int64_t read_until(int fd, char *p, size_t bytes, int64_t at)
{
    size_t done = 0;
    while (done < bytes) {
        const size_t want = bytes - done < IO_BLOCK ? bytes - done : IO_BLOCK;
        const ssize_t k = at < 0 ? read(fd, p + done, want)
                                 : pread(fd, p + done, want, (off_t)(at + (int64_t)done));
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

int64_t lg__read_full(int fd, char *p, size_t bytes)
{
    return read_until(fd, p, bytes, -1);
}

int64_t lg__pread_full(int fd, void *p, size_t bytes, int64_t at)
{
    return read_until(fd, p, bytes, at);
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

/* What the text check of a stream knows at the end of the bytes seen. */
struct text_check {
    long long line;  /* the line being read, from 1 */
    bool decided;    /* a byte other than a blank has been seen on it */
    bool in_comment; /* that byte was '#' or '%' (the parsers skip blanks first) */
};

/* Checks bytes [p, end) of a stream as they arrive: a data line of any text
 * format holds numbers, blanks and a CR, never a control character or a
 * byte past ASCII (comments may hold any text but NUL; a UTF-8 byte-order
 * mark may open the stream).  A byte that breaks this is "PATH:LINE: ..."
 * at once, so that /dev/urandom or a binary file piped in is refused on
 * its first part instead of being read whole (a regular file's bad line is
 * the parser's to report, once the file is in memory). */
static lg_status_t check_stream_text(const struct lg_in_file *in, struct text_check *c,
                                     const unsigned char *p, const unsigned char *end,
                                     bool stream_start)
{
    if (stream_start && end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    for (; p < end; p++) {
        const unsigned char b = *p;
        if (b == '\n') {
            c->line++, c->decided = false, c->in_comment = false;
            continue;
        }
        if (!c->decided && b != ' ' && b != '\t' && b != '\r') {
            c->decided = true;
            c->in_comment = b == '#' || b == '%';
        }
        if (b == 0 || (!c->in_comment && (b >= 0x7f || (b < 0x20 && b != '\t' && b != '\r'))))
            return lg__error(LG_ERR_IO, "%s:%lld: byte 0x%02x: this is not a text file", in->path,
                             c->line, b);
    }
    return LG_OK;
}

/* A stream of unknown length (a pipe, a device): read until EOF into a
 * buffer that doubles.  Each part is checked as it arrives
 * (check_stream_text), and the buffer grows
 * only while the system has the memory (an endless stream of text ends in
 * LG_ERR_OUT_OF_MEMORY, not in the kernel's OOM killer). */
static lg_status_t read_stream(struct lg_in_file *in, char **buf, size_t *used)
{
    size_t cap = PIPE_BUFFER_START;
    struct text_check check = {1, false, false};
    if (!(*buf = lg__alloc_array(cap, 1, "a file buffer")))
        return LG_ERR_OUT_OF_MEMORY;
    for (;;) {
        if (*used + 1 == cap) { /* keep a byte for the NUL */
            lg_status_t st = cap > SIZE_MAX / 4
                                 ? lg__oom("a file buffer")
                                 : lg__check_available(cap * 3, "reading more of the stream");
            if (st == LG_OK)
                st = grow_bytes(buf, *used, cap * 2);
            if (st != LG_OK)
                return lg__blame_file(st, in->path);
            cap *= 2;
        }
        const int64_t got = lg__read_full(in->fd, *buf + *used, cap - 1 - *used);
        if (got < 0)
            return lg__errno_error(errno, in->path, "read error");
        if (got == 0)
            return LG_OK;
        const unsigned char *part = (const unsigned char *)*buf + *used;
        lg_status_t st = check_stream_text(in, &check, part, part + got, *used == 0);
        if (st != LG_OK)
            return st;
        *used += (size_t)got;
        if (!lg_progress_go_on(in->progress, LG_STAGE_READ, (int64_t)*used, -1, 0.0))
            return LG_ERR_CANCELLED;
    }
}

lg_status_t lg__load_text(struct lg_in_file *in, struct lg_text *t)
{
    char *buf = NULL;
    size_t used = 0;
    lg_status_t st = read_stream(in, &buf, &used);
    if (st == LG_OK) {
        buf[used] = '\0';
        if (used >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
            /* a UTF-8 byte-order mark (Windows editors write one): not data */
            used -= 3;
            memmove(buf, buf + 3, used + 1);
        }
        t->data = buf;
        t->size = used;
        buf = NULL;
    }
    lg__free(buf);
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

/* Creates a temporary file beside out->target ("TARGET.tmp.XXXXXX", so the
 * rename stays within one file system).  Not mkstemp: that creates the file
 * with mode 0600, which the rename would hand to the finished file; open
 * with 0666 lets the umask decide, as for any file the user creates (a file
 * replaced keeps its own mode: lg__out_finish). */
static lg_status_t open_temp(struct lg_out_file *out)
{
    static atomic_uint_fast64_t calls;
    const size_t len = strlen(out->target);
    struct timespec ts;
    int err = 0;
    out->tmp_path = lg__alloc_array(len + sizeof ".tmp.XXXXXX", 1, "a temporary file name");
    if (!out->tmp_path)
        return LG_ERR_OUT_OF_MEMORY;
    memcpy(out->tmp_path, out->target, len);
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
    return lg__errno_error(err, out->path, "cannot create a temporary file beside it");
}

/* A copy of the file a symlink path finally names, in the library's memory. */
static lg_status_t resolve_link(struct lg_out_file *out)
{
    char *real = realpath(out->path, NULL);
    if (!real)
        return lg__errno_error(errno, out->path, "cannot follow the symbolic link");
    const size_t len = strlen(real) + 1;
    out->target_copy = lg__alloc_array(len, 1, "a file name");
    if (out->target_copy)
        memcpy(out->target_copy, real, len);
    free(real);
    if (!out->target_copy)
        return LG_ERR_OUT_OF_MEMORY;
    out->target = out->target_copy;
    return LG_OK;
}

/* The descriptor a path names outright (/dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N), or -1: such a path is written through the
 * descriptor, never replaced (it may be a file a shell opened). */
static int named_descriptor(const char *path)
{
    if (!strcmp(path, "/dev/stdout"))
        return 1;
    if (!strcmp(path, "/dev/stderr"))
        return 2;
    const char *digits = !strncmp(path, "/dev/fd/", 8)          ? path + 8
                         : !strncmp(path, "/proc/self/fd/", 14) ? path + 14
                                                                : NULL;
    if (!digits || !*digits)
        return -1;
    long fd = 0;
    for (const char *d = digits; *d; d++) {
        if (!lg__is_digit(*d) || fd > 1000000)
            return -1;
        fd = fd * 10 + (*d - '0');
    }
    return (int)fd;
}

/* A dangling symbolic link: target_copy = the path it names (relative to
 * the link's directory), which does not exist yet. */
static lg_status_t link_destination(struct lg_out_file *out)
{
    char dest[4096];
    const ssize_t len = readlink(out->path, dest, sizeof dest - 1);
    if (len < 0)
        return lg__errno_error(errno, out->path, "cannot follow the symbolic link");
    dest[len] = '\0';
    const char *slash = strrchr(out->path, '/');
    const size_t dir = dest[0] == '/' || !slash ? 0 : (size_t)(slash - out->path) + 1;
    out->target_copy = lg__alloc_array(dir + (size_t)len + 1, 1, "a file name");
    if (!out->target_copy)
        return LG_ERR_OUT_OF_MEMORY;
    memcpy(out->target_copy, out->path, dir);
    memcpy(out->target_copy + dir, dest, (size_t)len + 1);
    out->target = out->target_copy;
    return LG_OK;
}

lg_status_t lg__out_open(struct lg_out_file *out, const char *path)
{
    struct stat sb, lb;
    lg_status_t st = LG_OK;
    memset(out, 0, sizeof *out);
    out->path = out->target = path;
    out->fd = -1;
    out->total = -1;
    const int named = named_descriptor(path);
    if (named >= 0) {
        out->fd = fcntl(named, F_DUPFD_CLOEXEC, 3);
        out->direct = true;
        return out->fd >= 0 ? LG_OK : lg__errno_error(errno, path, "cannot write");
    }
    if (stat(path, &sb) != 0) {
        if (errno != ENOENT)
            return lg__errno_error(errno, path, "cannot write");
        /* a new file, or one a dangling symbolic link names */
        if (lstat(path, &lb) == 0 && S_ISLNK(lb.st_mode))
            st = link_destination(out);
    } else if (S_ISDIR(sb.st_mode)) {
        return lg__error(LG_ERR_IO, "%s: cannot write: it is a directory", path);
    } else if (!S_ISREG(sb.st_mode)) { /* a FIFO or a device: written into, as a stream */
        out->fd = open(path, O_WRONLY | O_CLOEXEC);
        out->direct = true;
        return out->fd >= 0 ? LG_OK : lg__errno_error(errno, path, "cannot write");
    } else {
        /* a regular file, perhaps through symbolic links: replaced where it
         * is, the links left in place, its mode and (where permitted) owner
         * kept */
        out->replacing = true;
        out->mode = sb.st_mode & 07777;
        out->uid = sb.st_uid;
        out->gid = sb.st_gid;
        if (lstat(path, &lb) == 0 && S_ISLNK(lb.st_mode))
            st = resolve_link(out);
    }
    if (st == LG_OK)
        st = open_temp(out);
    if (st != LG_OK) { /* lg__out_finish is not called after a failed open */
        lg__free(out->target_copy);
        out->target_copy = NULL;
    }
    return st;
}

lg_status_t lg__out_write(struct lg_out_file *out, const void *data, size_t bytes)
{
    const char *p = data;
    while (bytes > 0) {
        if (out->written >= out->next_report) {
            out->next_report = out->written + LG_WRITE_STEP;
            if (out->written > 0 &&
                !lg_progress_go_on(out->progress, LG_STAGE_WRITE, out->written, out->total, 0.0))
                return LG_ERR_CANCELLED;
        }
        const size_t step = (size_t)(out->next_report - out->written);
        const size_t want = bytes < step ? bytes : step;
        const ssize_t k = write(out->fd, p, want);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return lg__errno_error(k < 0 ? errno : EIO, out->path, "cannot write");
        p += k;
        bytes -= (size_t)k;
        out->written += k;
    }
    return LG_OK;
}

/* fsync of the directory that holds path, so that a rename into it survives
 * a crash; a file system that cannot (EINVAL) is left as it is. */
static int sync_directory(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) {
        dir[0] = '.', dir[1] = '\0';
    } else if ((size_t)(slash - path) + 2 > sizeof dir) {
        return 0;
    } else {
        const size_t len = slash == path ? 1 : (size_t)(slash - path);
        memcpy(dir, path, len);
        dir[len] = '\0';
    }
    const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    const int rc = fsync(fd) != 0 && errno != EINVAL ? errno : 0;
    close(fd);
    return rc;
}

lg_status_t lg__out_finish(struct lg_out_file *out, lg_status_t st)
{
    if (!out->direct && out->fd >= 0 && st == LG_OK) {
        /* the replaced file's mode and owner; then the data on disk before
         * the rename makes it the file's (else a crash could leave an empty
         * file where the old one was) */
        if (out->replacing) {
            /* owner first: a chown clears set-user-id and set-group-id bits,
             * which the chmod then puts back */
            if (fchown(out->fd, out->uid, out->gid) != 0) {
                /* only the owner or root may give a file away: it stays ours */
            }
            if (fchmod(out->fd, out->mode) != 0)
                st = lg__errno_error(errno, out->path, "cannot keep the file's permissions");
        }
        if (st == LG_OK && fsync(out->fd) != 0 && errno != EINVAL)
            st = lg__errno_error(errno, out->path, "cannot write (fsync)");
    }
    if (out->fd >= 0 && close(out->fd) != 0 && st == LG_OK)
        st = lg__errno_error(errno, out->path, "cannot write");
    out->fd = -1;
    if (!out->direct) {
        if (st == LG_OK && rename(out->tmp_path, out->target) != 0)
            st = lg__errno_error(errno, out->path, "cannot rename the temporary file over it");
        if (st != LG_OK)
            unlink(out->tmp_path);
        else if ((errno = sync_directory(out->target)) != 0)
            st = lg__errno_error(errno, out->path, "cannot write (fsync of its directory)");
    }
    lg__free(out->tmp_path);
    lg__free(out->target_copy);
    out->tmp_path = out->target_copy = NULL;
    return st;
}
