/*
 * io.c - graph files: Matrix Market, text edge lists, libgraph's binary CSR.
 *
 * Formats
 *
 *   .mtx  Matrix Market coordinate: a "%%MatrixMarket matrix coordinate
 *         <field> <symmetry>" banner, '%' comment lines, a "rows cols
 *         entries" size line, then one 1-based "i j [value]" entry a line.
 *         Entry (i, j) is the arc i-1 -> j-1.  A "symmetric" file lists one
 *         triangle of an undirected graph; "general" is directed.  Fields
 *         pattern (unweighted), integer, real and "double"; complex, array,
 *         skew-symmetric and hermitian are LG_ERR_UNSUPPORTED.
 *   .el   "u v" a line, 0-based, as GAPBS and SNAP write them; .wel adds a
 *         weight, "u v w".  '#' and '%' start comment lines.  There is no
 *         vertex count: n is one more than the largest id, so isolated
 *         vertices above the largest used id do not survive an edge list.
 *   .lgb  libgraph's binary CSR, for fast reloads: a 40-byte header, then the
 *         CSR arrays exactly as they lie in memory, little-endian, with a
 *         checksum (the layout is spelled out beside LGB_MAGIC below).
 *
 * Reading text.  The file is read whole into one NUL-terminated buffer (a
 * regular file by parallel preads of large pieces, a pipe by read() into a
 * doubling buffer), which is cut at line boundaries into one chunk a
 * thread.  Each chunk first counts its newlines, which bounds its edges, so
 * every chunk parses straight into its own slice of the edge arrays (no
 * reallocation, no locks); the slices are closed up afterwards.  Ids are read
 * by a hand-written decimal scanner, weights by Clinger's fast path (exact,
 * see fast_weight) with strtof for the rare rest.  A chunk
 * that meets a bad line stops and records where; the line number is found
 * afterwards by counting the newlines before that point, so the fast path
 * never counts lines, and messages still read "path:line: reason".  Parse
 * errors are found here, with line numbers, before the edges go to
 * lg_graph_from_edges like any caller's arrays.
 *
 * Writing.  Everything goes to "PATH.tmp.XXXXXX" in the same directory and
 * is renamed over PATH only once complete, so a failure leaves no partial
 * file.  Text is formatted in parallel, a slice of arcs a thread into its
 * own buffer, and the buffers are written in order.
 */
#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
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

/* A text chunk shorter than this is not worth a thread of its own. */
#define PARSE_CHUNK_MIN ((size_t)256 << 10)

/* Room for a parser's reason (with a quoted token) and the quoted token. */
#define REASON_MAX 192
#define SNIPPET_MAX 24
#define SNIPPET_ROOM (SNIPPET_MAX + 4)

/* Any 19 decimal digits fit a uint64_t. */
#define UINT_DIGITS_EXACT 19

/* Clinger's fast path for weights: a decimal of at most FAST_DIGITS
 * significant digits, scaled by at most 10^FAST_EXP10, is a correctly
 * rounded double after one multiplication or division (both factors are
 * exact doubles: < 2^53 and 10^22 < 5^23 * 2^22). */
#define FAST_DIGITS 15
#define FAST_EXP10 22

/* The most edges a file may declare: what lg_graph_from_edges accepts (two
 * arcs an edge, in 8-byte words, must fit an int64). */
#define MAX_FILE_EDGES (INT64_MAX / 16)

/* Text output: arcs a thread formats per round, the longest line one arc can
 * take ("2147483647 2147483647 3.40282347e+38\n" is 37 bytes), and the most
 * threads worth formatting for one output stream. */
#define WRITE_SLICE_ARCS ((int64_t)1 << 15)
#define TEXT_LINE_MAX 48
#define WEIGHT_TEXT_MAX 24
#define WRITE_THREADS_MAX 16

/* How many random temporary names to try before giving up. */
#define TEMP_ATTEMPTS 64

/* Error reporters are kept out of line so the parser's hot loop stays small. */
#if defined(__GNUC__)
#define IO_COLD __attribute__((cold, noinline))
#else
#define IO_COLD
#endif

/* ---- errors and small helpers --------------------------------------------------- */

/* "PATH: what: strerror(err)".  strerror_r because the library is used from
 * many threads at once. */
static lg_status_t errno_error(int err, const char *path, const char *what)
{
    char msg[128];
    if (strerror_r(err, msg, sizeof msg) != 0)
        snprintf(msg, sizeof msg, "error %d", err);
    return lg__error(LG_ERR_IO, "%s: %s: %s", path, what, msg);
}

/* The builders reject bad data with LG_ERR_INVALID_ARGUMENT; when the data
 * came from a file it is the file that is wrong, so say LG_ERR_IO and name it.
 * (The options were checked before the file was opened.) */
static lg_status_t blame_file(lg_status_t st, const char *path)
{
    if (st != LG_ERR_INVALID_ARGUMENT)
        return st;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", lg_last_error());
    return lg__error(LG_ERR_IO, "%s: %s", path, msg);
}

static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* ASCII case-insensitive equality; the C library's versions follow the locale. */
static bool same_ci(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (ascii_lower(*a) != ascii_lower(*b))
            return false;
    return *a == *b;
}

static bool host_is_little_endian(void)
{
    const uint32_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* ---- formats and options -------------------------------------------------------- */

static const char *format_extension(lg_file_format_t format)
{
    switch (format) {
    case LG_FORMAT_MTX: return "mtx";
    case LG_FORMAT_EL: return "el";
    case LG_FORMAT_WEL: return "wel";
    case LG_FORMAT_BINARY: return "lgb";
    default: return "";
    }
}

/* What follows the last '.' of the file name (not of a directory), or NULL. */
static const char *path_extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    return dot ? dot + 1 : NULL;
}

static lg_status_t resolve_format(const char *fn, const char *path, lg_file_format_t *format)
{
    if (*format != LG_FORMAT_AUTO) {
        if (*format < LG_FORMAT_MTX || *format > LG_FORMAT_BINARY)
            return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown file format %d", fn,
                             (int)*format);
        return LG_OK;
    }
    const char *ext = path_extension(path);
    for (int f = LG_FORMAT_MTX; ext && f <= LG_FORMAT_BINARY; f++) {
        if (same_ci(ext, format_extension((lg_file_format_t)f))) {
            *format = (lg_file_format_t)f;
            return LG_OK;
        }
    }
    if (!ext)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: %s has no extension to tell its format by (use .mtx, .el, .wel or "
                         ".lgb, or name the format)",
                         fn, path);
    return lg__error(LG_ERR_INVALID_ARGUMENT,
                     "%s: %s: unknown extension '.%s' (use .mtx, .el, .wel or .lgb, or name the "
                     "format)",
                     fn, path, ext);
}

/* The same checks lg_graph_from_edges makes, made before the file is read, so
 * that a bad option is not reported after minutes of parsing and so that any
 * later LG_ERR_INVALID_ARGUMENT from the builders is the file's fault. */
static lg_status_t check_read_options(const lg_graph_options_t *o)
{
    if (o->directedness != LG_DIRECTEDNESS_DEFAULT && o->directedness != LG_DIRECTED &&
        o->directedness != LG_UNDIRECTED)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_read: unknown directedness %d",
                         (int)o->directedness);
    if ((int)o->duplicates < (int)LG_DUPLICATES_KEEP ||
        (int)o->duplicates > (int)LG_DUPLICATES_LAST)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_read: unknown duplicates policy %d",
                         (int)o->duplicates);
    return LG_OK;
}

/* Build options for a text file whose own convention is file_undirected.  A
 * symmetric matrix asked for as directed keeps both arcs of every entry. */
static lg_graph_options_t text_build_options(const lg_graph_options_t *o, bool file_undirected)
{
    lg_graph_options_t b = *o;
    if (b.directedness == LG_DIRECTEDNESS_DEFAULT)
        b.directedness = file_undirected ? LG_UNDIRECTED : LG_DIRECTED;
    else if (b.directedness == LG_DIRECTED && file_undirected)
        b.symmetrize = true;
    return b;
}

/* ---- input files ---------------------------------------------------------------- */

/* A file being read.  A regular file is read with pread, a share a thread:
 * copying out of the page cache into a fresh buffer, page faults included, is
 * memory-bound work that one thread does at a fraction of the machine's
 * speed.  Pipes and other streams are read in order. */
struct in_file {
    const char *path;
    int fd;       /* -1 when closed */
    bool regular;
    int64_t size; /* of a regular file */
    int64_t pos;  /* where the next in_read starts */
};

static lg_status_t in_open(struct in_file *in, const char *path)
{
    struct stat sb;
    memset(in, 0, sizeof *in);
    in->path = path;
    in->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (in->fd < 0)
        return errno_error(errno, path, "cannot open");
    if (fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        in->regular = true;
        in->size = (int64_t)sb.st_size;
    }
    return LG_OK;
}

static void in_close(struct in_file *in)
{
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
}

/* read() until `bytes` are in or the stream ends: the count read, or -1 with
 * errno set. */
static int64_t read_full(int fd, char *p, size_t bytes)
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

/* Reads the next `bytes` bytes, the file's `what`, into buf. */
static lg_status_t in_read(struct in_file *in, void *buf, size_t bytes, int threads,
                           const char *what)
{
    int err = 0, ended = 0;
    if (in->regular) {
        pread_parallel(in->fd, buf, bytes, in->pos, threads, &err, &ended);
    } else {
        const int64_t got = read_full(in->fd, buf, bytes);
        err = got < 0 ? errno : 0;
        ended = got >= 0 && (size_t)got < bytes;
    }
    if (err)
        return errno_error(err, in->path, "read error");
    if (ended)
        return lg__error(LG_ERR_IO, "%s: truncated: the file ends inside the %s", in->path, what);
    in->pos += (int64_t)bytes;
    return LG_OK;
}

struct text {
    char *data;  /* size bytes and a terminating NUL, so scanners stop at the end */
    size_t size;
};

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
static lg_status_t read_stream(struct in_file *in, char **buf, size_t *used)
{
    size_t cap = PIPE_BUFFER_START;
    if (!(*buf = lg__alloc_array(cap, 1, "a file buffer")))
        return LG_ERR_OUT_OF_MEMORY;
    for (;;) {
        if (*used + 1 == cap) { /* keep a byte for the NUL */
            lg_status_t st = cap > SIZE_MAX / 2 ? lg__oom("a file buffer")
                                                : grow_bytes(buf, *used, cap * 2);
            if (st != LG_OK)
                return st;
            cap *= 2;
        }
        const int64_t got = read_full(in->fd, *buf + *used, cap - 1 - *used);
        if (got < 0)
            return errno_error(errno, in->path, "read error");
        if (got == 0)
            return LG_OK;
        *used += (size_t)got;
    }
}

/* The whole file, NUL-terminated. */
static lg_status_t load_text(const char *path, int threads, struct text *t)
{
    struct in_file in;
    char *buf = NULL;
    size_t used = 0;
    lg_status_t st = in_open(&in, path);
    if (st != LG_OK)
        return st;
    if (!in.regular) {
        st = read_stream(&in, &buf, &used);
    } else if ((buf = lg__alloc_array((size_t)in.size + 1, 1, "a file buffer")) == NULL) {
        st = LG_ERR_OUT_OF_MEMORY;
    } else {
        used = (size_t)in.size;
        st = in_read(&in, buf, used, threads, "text (it shrank while being read)");
    }
    if (st == LG_OK) {
        buf[used] = '\0';
        t->data = buf;
        t->size = used;
        buf = NULL;
    }
    lg__free(buf);
    in_close(&in);
    return st;
}

/* ---- scanning text ------------------------------------------------------------------ */

static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static inline bool is_digit(char c)
{
    return (unsigned)(c - '0') < 10u;
}

/* Blanks, the end of a line and the end of the buffer end a token. */
static inline bool ends_token(char c)
{
    return is_blank(c) || c == '\n' || c == '\0';
}

static inline const char *skip_blanks(const char *p)
{
    while (is_blank(*p))
        p++;
    return p;
}

static inline bool at_line_end(const char *p, const char *end)
{
    return p == end || *p == '\n';
}

static inline const char *next_line(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl + 1 : end;
}

/* Counts '\n' eight bytes at a time: a byte of w ^ NEWLINES is zero exactly
 * where w holds a newline, and the expression below sets the top bit of
 * exactly those bytes (no carries cross bytes, unlike the classic haszero). */
static int64_t count_newlines(const char *p, const char *end)
{
    const uint64_t newlines = 0x0A0A0A0A0A0A0A0Aull, low7 = 0x7F7F7F7F7F7F7F7Full;
    int64_t k = 0;
    for (; end - p >= 8; p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= newlines;
        k += __builtin_popcountll(~(((w & low7) + low7) | w | low7));
    }
    for (; p < end; p++)
        k += *p == '\n';
    return k;
}

/* The token at p (which is not at the end of a line) for a message:
 * shortened, with unprintable bytes shown as '?'. */
static void snippet(const char *p, char out[SNIPPET_ROOM])
{
    size_t k = 0;
    if (*p == '\0') {
        memcpy(out, "\\0", 3);
        return;
    }
    do {
        if (k == SNIPPET_MAX) {
            memcpy(out + k, "...", 3);
            k += 3;
            break;
        }
        out[k++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
        p++;
    } while (!ends_token(*p));
    out[k] = '\0';
}

/* Scans a token of decimal digits; NULL when the token at p is not one.
 * Past UINT_DIGITS_EXACT digits the value saturates at UINT64_MAX, so a
 * 30-digit id reads as "too large" rather than wrapping around. */
static inline const char *scan_uint(const char *p, uint64_t *value)
{
    const char *q = p;
    uint64_t x = 0;
    for (; is_digit(*q) && q - p < UINT_DIGITS_EXACT; q++)
        x = x * 10 + (uint64_t)(*q - '0');
    if (is_digit(*q)) {
        x = UINT64_MAX;
        while (is_digit(*q))
            q++;
    }
    if (q == p || !ends_token(*q))
        return NULL;
    *value = x;
    return q;
}

/* ---- parsing edge lines ---------------------------------------------------------------- */

/* What a data line of one file must look like. */
struct line_rules {
    lg_file_format_t format;
    uint64_t base;          /* the first id: 1 in Matrix Market, 0 in edge lists */
    uint64_t num_ids;       /* ids, less base, must be below this */
    bool weighted;          /* a third field, the weight, is required */
    bool hash_comments;     /* '#' starts a comment line too (edge lists) */
    const char *roles[2];   /* what the two ids are called in messages */
};

static struct line_rules edge_list_rules(lg_file_format_t format)
{
    /* the largest id is one below LG_MAX_VERTICES, so that n = id + 1 fits */
    struct line_rules r = {format, 0, (uint64_t)LG_MAX_VERTICES, format == LG_FORMAT_WEL, true,
                           {"source", "destination"}};
    return r;
}

struct parsed_edge {
    lg_vertex_t src, dst;
    float weight;
};

IO_COLD static void id_reason(const struct line_rules *r, const char *p, const char *role,
                              char *reason)
{
    char tok[SNIPPET_ROOM];
    uint64_t x = 0;
    const bool number = scan_uint(p, &x) != NULL;
    snippet(p, tok);
    if (!number)
        snprintf(reason, REASON_MAX, "%s '%s' is not a %s integer", role, tok,
                 r->base ? "positive" : "non-negative");
    else if (x < r->base)
        snprintf(reason, REASON_MAX, "%s index 0: Matrix Market indices start at 1", role);
    else if (r->base)
        snprintf(reason, REASON_MAX, "%s index %s is out of range: the matrix has %llu rows",
                 role, tok, (unsigned long long)r->num_ids);
    else
        snprintf(reason, REASON_MAX, "%s id %s is too large (ids must be below %llu)", role, tok,
                 (unsigned long long)r->num_ids);
}

static inline const char *parse_id(const struct line_rules *r, const char *p, const char *role,
                                   lg_vertex_t *id, char *reason)
{
    uint64_t x = 0;
    const char *q = scan_uint(p, &x);
    if (q && x >= r->base && x - r->base < r->num_ids) {
        *id = (lg_vertex_t)(x - r->base);
        return q;
    }
    id_reason(r, p, role, reason);
    return NULL;
}

/* Digits of a decimal into *mant (at most FAST_DIGITS significant ones,
 * leading zeros are free); false when there are more.  *scale counts the
 * digits after the point. */
static inline bool scan_mantissa(const char **p, uint64_t *mant, int *scale)
{
    const char *q = *p;
    int sig = 0;
    bool point = false;
    for (;; q++) {
        if (*q == '.' && !point) {
            point = true;
            continue;
        }
        if (!is_digit(*q))
            break;
        *mant = *mant * 10 + (uint64_t)(*q - '0');
        sig += *mant != 0;
        *scale += point;
        if (sig > FAST_DIGITS)
            return false;
    }
    /* at least one digit, not just "." */
    const bool digits = q - *p > (point ? 1 : 0);
    *p = q;
    return digits;
}

/* A float's midpoints (halfway between two neighbouring floats) are doubles
 * whose 29 mantissa bits below float precision read 1000...0. */
static inline bool is_float_midpoint(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return (bits & ((1ull << 29) - 1)) == 1ull << 28;
}

/* Parses an unsigned decimal "ddd[.ddd][e[+-]dd]" exactly as strtof would
 * round it, or returns false so that strtof does (signs, hex, inf, nan, long
 * mantissas, big exponents).  Clinger's fast path gives the correctly rounded
 * double; rounding that to float again is exact unless the double is a
 * float midpoint (double rounding could then tie the wrong way) or outside
 * the normal float range. */
static inline bool fast_weight(const char *p, const char *end, float *out)
{
    static const double powers_of_ten[FAST_EXP10 + 1] = {
        1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    uint64_t mant = 0;
    int scale = 0, exp10 = 0;
    if (!scan_mantissa(&p, &mant, &scale))
        return false;
    if (*p == 'e' || *p == 'E') {
        const bool negative = p[1] == '-';
        p += 1 + (p[1] == '-' || p[1] == '+');
        if (!is_digit(*p))
            return false;
        for (int k = 0; is_digit(*p); p++, k++) {
            if (k == 3)
                return false;
            exp10 = exp10 * 10 + (*p - '0');
        }
        exp10 = negative ? -exp10 : exp10;
    }
    exp10 -= scale;
    if (p != end || exp10 < -FAST_EXP10 || exp10 > FAST_EXP10)
        return false;
    double d = (double)mant;
    d = exp10 < 0 ? d / powers_of_ten[-exp10] : d * powers_of_ten[exp10];
    if (d != 0.0 && (d < FLT_MIN || d > FLT_MAX || is_float_midpoint(d)))
        return false;
    *out = (float)d;
    return true;
}

IO_COLD static void weight_reason(const char *p, const char *end, char *reason)
{
    char tok[SNIPPET_ROOM];
    char *stop = NULL;
    const float x = strtof(p, &stop);
    snippet(p, tok);
    if (stop != end)
        snprintf(reason, REASON_MAX, "weight '%s' is not a number", tok);
    else if (isnan(x))
        snprintf(reason, REASON_MAX, "weight %s is NaN; weights must be finite and >= 0", tok);
    else if (isinf(x))
        snprintf(reason, REASON_MAX,
                 "weight %s is not finite as a float; weights must be finite and >= 0", tok);
    else
        snprintf(reason, REASON_MAX, "weight %s is negative; weights must be >= 0", tok);
}

static inline const char *parse_weight(const char *p, float *weight, char *reason)
{
    const char *end = p;
    while (!ends_token(*end))
        end++;
    if (fast_weight(p, end, weight))
        return end;
    char *stop = NULL;
    const float x = strtof(p, &stop);
    if (stop == end && isfinite(x) && x >= 0.0f) {
        *weight = x == 0.0f ? 0.0f : x; /* -0 becomes 0 */
        return end;
    }
    weight_reason(p, end, reason);
    return NULL;
}

IO_COLD static void missing_reason(const char *what, char *reason)
{
    snprintf(reason, REASON_MAX, "missing the %s", what);
}

IO_COLD static void extra_field_reason(const struct line_rules *r, const char *p, char *reason)
{
    char tok[SNIPPET_ROOM];
    snippet(p, tok);
    if (r->format == LG_FORMAT_EL)
        snprintf(reason, REASON_MAX,
                 "unexpected third field '%s': .el lines are \"u v\" (use .wel for weights)", tok);
    else
        snprintf(reason, REASON_MAX, "unexpected extra field '%s'", tok);
}

/* Parses the data line at p (neither blank nor a comment) into one edge.
 * Returns the start of the next line, or NULL with a reason. */
static inline const char *parse_edge_line(const struct line_rules *r, const char *p,
                                          const char *end, struct parsed_edge *e, char *reason)
{
    if (!(p = parse_id(r, p, r->roles[0], &e->src, reason)))
        return NULL;
    p = skip_blanks(p);
    if (at_line_end(p, end)) {
        missing_reason(r->roles[1], reason);
        return NULL;
    }
    if (!(p = parse_id(r, p, r->roles[1], &e->dst, reason)))
        return NULL;
    p = skip_blanks(p);
    if (r->weighted) {
        if (at_line_end(p, end)) {
            missing_reason("weight", reason);
            return NULL;
        }
        if (!(p = parse_weight(p, &e->weight, reason)))
            return NULL;
        p = skip_blanks(p);
    }
    if (!at_line_end(p, end)) {
        extra_field_reason(r, p, reason);
        return NULL;
    }
    return p == end ? p : p + 1;
}

static inline bool is_comment(const struct line_rules *r, char c)
{
    return c == '%' || (c == '#' && r->hash_comments);
}

struct edge_arrays {
    lg_vertex_t *src, *dst;
    float *w; /* NULL when unweighted */
};

/* One thread's share of the text: whole lines [begin, end). */
struct chunk {
    const char *begin, *end;
    int64_t base;         /* its edges go to slots base, base + 1, ... */
    int64_t count;
    int64_t max_id;       /* -1 when it has no edges */
    const char *error_at; /* NULL, or a point in its first bad line */
    char reason[REASON_MAX];
};

static void parse_chunk(const struct line_rules *r, const struct edge_arrays *a, struct chunk *c)
{
    lg_vertex_t *src = a->src, *dst = a->dst;
    float *w = a->w;
    int64_t k = c->base;
    lg_vertex_t max_id = -1;
    const char *p = c->begin, *end = c->end;
    while (p < end) {
        p = skip_blanks(p);
        if (p == end)
            break;
        if (*p == '\n') {
            p++;
            continue;
        }
        if (is_comment(r, *p)) {
            p = next_line(p, end);
            continue;
        }
        struct parsed_edge e = {0, 0, 1.0f};
        const char *next = parse_edge_line(r, p, end, &e, c->reason);
        if (!next) {
            c->error_at = p;
            break;
        }
        src[k] = e.src;
        dst[k] = e.dst;
        if (w)
            w[k] = e.weight;
        k++;
        max_id = e.src > max_id ? e.src : max_id;
        max_id = e.dst > max_id ? e.dst : max_id;
        p = next;
    }
    c->count = k - c->base;
    c->max_id = max_id;
}

/* Cuts [body, end) into nc chunks of about equal size, each whole lines. */
static void split_chunks(const char *body, const char *end, struct chunk *chunks, int nc)
{
    const size_t len = (size_t)(end - body);
    for (int c = 0; c < nc; c++) {
        const char *q = body + len / (size_t)nc * (size_t)c;
        if (q != body && q[-1] != '\n')
            q = next_line(q, end);
        memset(&chunks[c], 0, sizeof chunks[c]);
        chunks[c].begin = q;
        if (c > 0)
            chunks[c - 1].end = q;
    }
    chunks[nc - 1].end = end;
}

static int chunk_count(size_t len, int threads)
{
    size_t by_size = len / PARSE_CHUNK_MIN;
    if (by_size < 1)
        return 1;
    return by_size < (size_t)threads ? (int)by_size : threads;
}

/* Moves each chunk's edges down to follow the previous chunk's (the slots of
 * comment and blank lines are left behind); returns the edge count. */
static int64_t close_up(const struct edge_arrays *a, const struct chunk *chunks, int nc,
                        int64_t *max_id)
{
    int64_t k = 0;
    *max_id = -1;
    for (int c = 0; c < nc; c++) {
        const int64_t b = chunks[c].base, len = chunks[c].count;
        if (b != k && len > 0) {
            memmove(a->src + k, a->src + b, (size_t)len * sizeof *a->src);
            memmove(a->dst + k, a->dst + b, (size_t)len * sizeof *a->dst);
            if (a->w)
                memmove(a->w + k, a->w + b, (size_t)len * sizeof *a->w);
        }
        k += len;
        *max_id = chunks[c].max_id > *max_id ? chunks[c].max_id : *max_id;
    }
    return k;
}

static void free_edges(struct edge_arrays *a)
{
    lg__free(a->src);
    lg__free(a->dst);
    lg__free(a->w);
    memset(a, 0, sizeof *a);
}

/* Parses every data line of [body, end of text) in parallel into *out
 * (allocated here), with *count edges and *max_id the largest id (or -1). */
static lg_status_t parse_edges(const char *path, const struct line_rules *r, const struct text *t,
                               const char *body, int threads, struct edge_arrays *out,
                               int64_t *count, int64_t *max_id)
{
    lg_status_t st = LG_OK;
    struct edge_arrays a = {0};
    const char *end = t->data + t->size;
    const int nc = chunk_count((size_t)(end - body), threads);
    struct chunk *chunks = lg__alloc_array((size_t)nc, sizeof *chunks, "parser chunks");
    if (!chunks)
        return LG_ERR_OUT_OF_MEMORY;
    split_chunks(body, end, chunks, nc);

    /* a chunk holds at most one edge a line */
#pragma omp parallel for num_threads(nc) schedule(static, 1)
    for (int c = 0; c < nc; c++)
        chunks[c].count = count_newlines(chunks[c].begin, chunks[c].end) + 1;
    int64_t slots = 0;
    for (int c = 0; c < nc; c++) {
        chunks[c].base = slots;
        slots += chunks[c].count;
    }
    a.src = lg__alloc_array((size_t)slots, sizeof *a.src, "edge sources");
    a.dst = lg__alloc_array((size_t)slots, sizeof *a.dst, "edge destinations");
    if (r->weighted)
        a.w = lg__alloc_array((size_t)slots, sizeof *a.w, "edge weights");
    if (!a.src || !a.dst || (r->weighted && !a.w)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }

#pragma omp parallel for num_threads(nc) schedule(static, 1)
    for (int c = 0; c < nc; c++)
        parse_chunk(r, &a, &chunks[c]);

    /* chunks are in file order, so the first one that failed has the first bad line */
    for (int c = 0; c < nc; c++) {
        if (chunks[c].error_at) {
            st = lg__error(LG_ERR_IO, "%s:%lld: %s", path,
                           (long long)(count_newlines(t->data, chunks[c].error_at) + 1),
                           chunks[c].reason);
            goto cleanup;
        }
    }
    *count = close_up(&a, chunks, nc, max_id);
    *out = a;
    memset(&a, 0, sizeof a);

cleanup:
    free_edges(&a);
    lg__free(chunks);
    return st;
}

/* ---- Matrix Market header ----------------------------------------------------------- */

struct mtx_header {
    bool weighted, symmetric;
    int64_t rows, nnz;
    int64_t size_line;     /* its line number, for messages about the entry count */
    const char *body;      /* the first byte after the size line */
};

/* Copies the next blank-separated word of the line at *p, lowercased and cut
 * to cap - 1 bytes, into word; false at the end of the line. */
static bool next_word(const char **p, const char *end, char *word, size_t cap)
{
    const char *q = skip_blanks(*p);
    size_t k = 0;
    if (at_line_end(q, end))
        return false;
    for (; !ends_token(*q); q++)
        if (k + 1 < cap)
            word[k++] = ascii_lower(*q);
    word[k] = '\0';
    *p = q;
    return true;
}

static lg_status_t parse_banner_field(const char *path, const char *field, struct mtx_header *h)
{
    if (strcmp(field, "pattern") == 0)
        h->weighted = false;
    else if (strcmp(field, "integer") == 0 || strcmp(field, "real") == 0 ||
             strcmp(field, "double") == 0)
        h->weighted = true;
    else if (strcmp(field, "complex") == 0)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s:1: complex Matrix Market values are not supported (weights are real)",
                         path);
    else
        return lg__error(LG_ERR_IO, "%s:1: unknown Matrix Market field '%s'", path, field);
    return LG_OK;
}

static lg_status_t parse_banner_symmetry(const char *path, const char *sym, struct mtx_header *h)
{
    if (strcmp(sym, "general") == 0)
        h->symmetric = false;
    else if (strcmp(sym, "symmetric") == 0)
        h->symmetric = true;
    else if (strcmp(sym, "skew-symmetric") == 0 || strcmp(sym, "hermitian") == 0)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s:1: %s Matrix Market files are not supported (use general or "
                         "symmetric)",
                         path, sym);
    else
        return lg__error(LG_ERR_IO, "%s:1: unknown Matrix Market symmetry '%s'", path, sym);
    return LG_OK;
}

/* The first line: "%%MatrixMarket matrix coordinate <field> <symmetry>". */
static lg_status_t parse_banner(const char *path, const char *line, const char *end,
                                struct mtx_header *h)
{
    char w[5][32], extra[32];
    int k = 0;
    while (k < 5 && next_word(&line, end, w[k], sizeof w[k]))
        k++;
    if (k == 0 || strcmp(w[0], "%%matrixmarket") != 0)
        return lg__error(LG_ERR_IO,
                         "%s:1: not a Matrix Market file (the first line must start with "
                         "%%%%MatrixMarket)",
                         path);
    if (k < 5 || next_word(&line, end, extra, sizeof extra))
        return lg__error(LG_ERR_IO,
                         "%s:1: bad header: expected \"%%%%MatrixMarket matrix coordinate "
                         "<field> <symmetry>\"",
                         path);
    if (strcmp(w[1], "matrix") != 0)
        return lg__error(LG_ERR_IO, "%s:1: unknown Matrix Market object '%s' (want matrix)",
                         path, w[1]);
    if (strcmp(w[2], "array") == 0)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s:1: dense 'array' Matrix Market files are not supported (a graph "
                         "needs 'coordinate')",
                         path);
    if (strcmp(w[2], "coordinate") != 0)
        return lg__error(LG_ERR_IO, "%s:1: unknown Matrix Market format '%s'", path, w[2]);
    lg_status_t st = parse_banner_field(path, w[3], h);
    return st != LG_OK ? st : parse_banner_symmetry(path, w[4], h);
}

/* Steps over comment and blank lines; *p is at a line start, *line its number. */
static void skip_mtx_comments(const char **p, const char *end, int64_t *line)
{
    for (;;) {
        const char *q = skip_blanks(*p);
        if (*p >= end || !(at_line_end(q, end) || *q == '%'))
            return;
        *p = next_line(*p, end);
        ++*line;
    }
}

/* The size line "rows cols entries" at p, line number `line`. */
static lg_status_t parse_size_line(const char *path, const char *p, const char *end, int64_t line,
                                   struct mtx_header *h)
{
    uint64_t v[3];
    if (p >= end)
        return lg__error(LG_ERR_IO, "%s:%lld: missing the size line \"rows columns entries\"",
                         path, (long long)line);
    for (int i = 0; i < 3; i++) {
        p = skip_blanks(p);
        if (!(p = scan_uint(p, &v[i])))
            break;
    }
    if (!p || !at_line_end(skip_blanks(p), end))
        return lg__error(LG_ERR_IO,
                         "%s:%lld: bad size line: expected three counts \"rows columns entries\"",
                         path, (long long)line);
    if (v[0] != v[1])
        return lg__error(LG_ERR_IO,
                         "%s:%lld: the matrix is not square (%llu rows, %llu columns); a graph's "
                         "adjacency matrix must be",
                         path, (long long)line, (unsigned long long)v[0],
                         (unsigned long long)v[1]);
    if (v[0] > (uint64_t)LG_MAX_VERTICES)
        return lg__error(LG_ERR_IO, "%s:%lld: %llu rows: a graph has at most %lld vertices", path,
                         (long long)line, (unsigned long long)v[0], (long long)LG_MAX_VERTICES);
    if (v[2] > (uint64_t)MAX_FILE_EDGES)
        return lg__error(LG_ERR_IO, "%s:%lld: %llu entries: at most %lld are supported", path,
                         (long long)line, (unsigned long long)v[2], (long long)MAX_FILE_EDGES);
    h->rows = (int64_t)v[0];
    h->nnz = (int64_t)v[2];
    h->size_line = line;
    h->body = next_line(p, end);
    return LG_OK;
}

static lg_status_t parse_mtx_header(const char *path, const struct text *t, struct mtx_header *h)
{
    const char *end = t->data + t->size, *p = t->data;
    int64_t line = 2;
    lg_status_t st = parse_banner(path, p, end, h);
    if (st != LG_OK)
        return st;
    p = next_line(p, end);
    skip_mtx_comments(&p, end, &line);
    return parse_size_line(path, p, end, line, h);
}

static struct line_rules mtx_rules(const struct mtx_header *h)
{
    struct line_rules r = {LG_FORMAT_MTX, 1, (uint64_t)h->rows, h->weighted, false,
                           {"row", "column"}};
    return r;
}

/* The line number of data line k (0-based) of [p, end), whose first line is
 * number `line`.  Only error messages need it, so it may be slow. */
static int64_t data_line_number(const struct line_rules *r, const char *p, const char *end,
                                int64_t k, int64_t line)
{
    for (; p < end; line++, p = next_line(p, end)) {
        const char *q = skip_blanks(p);
        if (!at_line_end(q, end) && !is_comment(r, *q) && k-- == 0)
            break;
    }
    return line;
}

static lg_status_t check_entry_count(const char *path, const struct line_rules *r,
                                     const struct text *t, const struct mtx_header *h,
                                     int64_t count)
{
    if (count < h->nnz)
        return lg__error(LG_ERR_IO,
                         "%s:%lld: the size line declares %lld entries, but the file has only "
                         "%lld",
                         path, (long long)h->size_line, (long long)h->nnz, (long long)count);
    if (count > h->nnz)
        return lg__error(LG_ERR_IO, "%s:%lld: one entry more than the %lld the size line declares",
                         path,
                         (long long)data_line_number(r, h->body, t->data + t->size, h->nnz,
                                                     h->size_line + 1),
                         (long long)h->nnz);
    return LG_OK;
}

/* ---- reading text formats ---------------------------------------------------------------- */

static lg_status_t read_text(lg_context_t *context, const char *path, lg_file_format_t format,
                             const lg_graph_options_t *options, lg_graph_t **graph)
{
    lg_status_t st;
    struct text t = {0};
    struct edge_arrays e = {0};
    struct mtx_header h = {0};
    struct line_rules r;
    int64_t count = 0, max_id = -1;
    const bool mtx = format == LG_FORMAT_MTX;

    if ((st = load_text(path, lg__threads(context), &t)) != LG_OK)
        goto cleanup;
    if (mtx && (st = parse_mtx_header(path, &t, &h)) != LG_OK)
        goto cleanup;
    r = mtx ? mtx_rules(&h) : edge_list_rules(format);
    st = parse_edges(path, &r, &t, mtx ? h.body : t.data, lg__threads(context), &e, &count,
                     &max_id);
    if (st != LG_OK || (mtx && (st = check_entry_count(path, &r, &t, &h, count)) != LG_OK))
        goto cleanup;
    lg__free(t.data); /* the text is no longer needed: lower the peak while building */
    t.data = NULL;

    const lg_graph_options_t b = text_build_options(options, mtx && h.symmetric);
    st = lg_graph_from_edges(context, mtx ? h.rows : max_id + 1, count, e.src, e.dst, e.w, &b,
                             graph);
    st = blame_file(st, path);

cleanup:
    free_edges(&e);
    lg__free(t.data);
    return st;
}

/* ---- the binary format ---------------------------------------------------------------------- */

/*
 * .lgb, version 1.  All integers little-endian; offsets in bytes.
 *
 *     0   8  magic 89 4C 47 42 0D 0A 1A 0A ("\x89LGB\r\n\x1a\n", after PNG's: the
 *            high byte catches 7-bit channels, CR LF and LF catch newline
 *            translation, 1A stops DOS's type)
 *     8   4  uint32 version (1)
 *    12   4  uint32 flags: bit 0 directed, bit 1 weighted; other bits 0
 *    16   8  int64 n, the number of vertices
 *    24   8  int64 m, the number of stored arcs
 *    32   8  uint64 checksum (lgb_checksum)
 *    40      int64 row_offsets[n + 1], int32 col_indices[m], float32 weights[m]
 *            (weights only when weighted); nothing after them
 *
 * An undirected graph stores its symmetric CSR (both arcs of every edge).
 */
static const unsigned char LGB_MAGIC[8] = {0x89, 'L', 'G', 'B', '\r', '\n', 0x1a, '\n'};
#define LGB_VERSION 1u
#define LGB_HEADER_BYTES 40
#define LGB_FLAG_DIRECTED 1u
#define LGB_FLAG_WEIGHTED 2u
#define LGB_FLAGS_KNOWN (LGB_FLAG_DIRECTED | LGB_FLAG_WEIGHTED)
/* Blocks are hashed independently (in parallel); 1 MiB keeps a thread busy
 * long enough to pay for itself and gives many blocks to share out. */
#define LGB_HASH_BLOCK ((size_t)1 << 20)

struct lgb_header {
    uint32_t version, flags;
    int64_t n, m;
    uint64_t checksum;
};

/* The host is little-endian (checked before), so the header is memcpy'd. */
static void lgb_encode(const struct lgb_header *h, unsigned char b[LGB_HEADER_BYTES])
{
    memcpy(b, LGB_MAGIC, 8);
    memcpy(b + 8, &h->version, 4);
    memcpy(b + 12, &h->flags, 4);
    memcpy(b + 16, &h->n, 8);
    memcpy(b + 24, &h->m, 8);
    memcpy(b + 32, &h->checksum, 8);
}

static void lgb_decode(const unsigned char b[LGB_HEADER_BYTES], struct lgb_header *h)
{
    memcpy(&h->version, b + 8, 4);
    memcpy(&h->flags, b + 12, 4);
    memcpy(&h->n, b + 16, 8);
    memcpy(&h->m, b + 24, 8);
    memcpy(&h->checksum, b + 32, 8);
}

/* Payload bytes the header promises; n and m are already in range. */
static int64_t lgb_payload_bytes(const struct lgb_header *h)
{
    const int64_t per_arc = (h->flags & LGB_FLAG_WEIGHTED) ? 8 : 4;
    return (h->n + 1) * 8 + h->m * per_arc;
}

static uint64_t load_word(const unsigned char *p, size_t bytes)
{
    uint64_t w = 0;
    memcpy(&w, p, bytes);
    return w;
}

/* One block of a section: its 8-byte words (the last zero-padded) go round
 * four lanes, word i to lane i % 4, so that four multiply chains overlap in
 * the pipeline; each lane starts from lg__mix64(tag + lane) and absorbs a word
 * w as lane = lg__mix64(lane ^ w).  The lanes and the block length are folded
 * as mix(l0 ^ mix(l1 ^ mix(l2 ^ mix(l3 ^ bytes)))). */
static uint64_t hash_block(const unsigned char *p, size_t bytes, uint64_t tag)
{
    uint64_t lane[4];
    const size_t words = bytes / 8;
    size_t i = 0;
    for (int j = 0; j < 4; j++)
        lane[j] = lg__mix64(tag + (uint64_t)j);
    for (; i + 4 <= words; i += 4)
        for (int j = 0; j < 4; j++)
            lane[j] = lg__mix64(lane[j] ^ load_word(p + 8 * (i + (size_t)j), 8));
    for (; i < words; i++)
        lane[i % 4] = lg__mix64(lane[i % 4] ^ load_word(p + 8 * i, 8));
    if (bytes % 8)
        lane[words % 4] = lg__mix64(lane[words % 4] ^ load_word(p + 8 * words, bytes % 8));
    const uint64_t folded = lg__mix64(lane[2] ^ lg__mix64(lane[3] ^ bytes));
    return lg__mix64(lane[0] ^ lg__mix64(lane[1] ^ folded));
}

/* A section (one array) is cut into 1 MiB blocks; block b is hashed with tag
 * section << 48 | b << 2, and the section's hash is the sum (mod 2^64) of its
 * block hashes.  The tags make the sum depend on each block's place, and the
 * sum makes the result independent of the thread count. */
static uint64_t hash_section(const void *data, size_t bytes, uint64_t section, int threads)
{
    const unsigned char *p = data;
    const int64_t blocks = (int64_t)((bytes + LGB_HASH_BLOCK - 1) / LGB_HASH_BLOCK);
    uint64_t sum = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
    for (int64_t b = 0; b < blocks; b++) {
        const size_t lo = (size_t)b * LGB_HASH_BLOCK;
        const size_t len = bytes - lo < LGB_HASH_BLOCK ? bytes - lo : LGB_HASH_BLOCK;
        sum += hash_block(p + lo, len, section << 48 | (uint64_t)b << 2);
    }
    return sum;
}

/* Chains the header fields and the section hashes (offsets 0, indices 1,
 * weights 2, or 0 for no weights) through lg__mix64, so a flipped flag or
 * count is caught as surely as a flipped payload byte. */
static uint64_t lgb_checksum(const struct lgb_header *h, const lg_edge_t *offsets,
                             const lg_vertex_t *indices, const float *weights, int threads)
{
    uint64_t x = lg__mix64(h->version | (uint64_t)h->flags << 32);
    x = lg__mix64(x ^ (uint64_t)h->n);
    x = lg__mix64(x ^ (uint64_t)h->m);
    x = lg__mix64(x ^ hash_section(offsets, (size_t)(h->n + 1) * sizeof *offsets, 0, threads));
    x = lg__mix64(x ^ hash_section(indices, (size_t)h->m * sizeof *indices, 1, threads));
    return lg__mix64(x ^ (weights ? hash_section(weights, (size_t)h->m * sizeof *weights, 2,
                                                 threads)
                                  : 0));
}

/* Checks the header's fields and, for a regular file, its size against them
 * (before anything is allocated on the header's word). */
static lg_status_t check_lgb_header(const struct in_file *in, const struct lgb_header *h)
{
    const char *path = in->path;
    if (h->version == 0)
        return lg__error(LG_ERR_IO, "%s: bad format version 0", path);
    if (h->version > LGB_VERSION)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s: format version %u is newer than this libgraph reads (%u); upgrade "
                         "libgraph",
                         path, (unsigned)h->version, LGB_VERSION);
    if (h->flags & ~LGB_FLAGS_KNOWN)
        return lg__error(LG_ERR_IO, "%s: unknown flags 0x%x in a version %u file", path,
                         (unsigned)h->flags, (unsigned)h->version);
    if (h->n < 0 || h->n > LG_MAX_VERTICES)
        return lg__error(LG_ERR_IO, "%s: bad vertex count %lld", path, (long long)h->n);
    if (h->m < 0 || h->m > MAX_FILE_EDGES)
        return lg__error(LG_ERR_IO, "%s: bad arc count %lld", path, (long long)h->m);
    if (!in->regular)
        return LG_OK; /* a pipe: short reads will tell */
    const int64_t want = LGB_HEADER_BYTES + lgb_payload_bytes(h);
    if (in->size < want)
        return lg__error(LG_ERR_IO, "%s: truncated: %lld bytes, but the header promises %lld",
                         path, (long long)in->size, (long long)want);
    if (in->size > want)
        return lg__error(LG_ERR_IO, "%s: %lld bytes, more than the %lld the header promises",
                         path, (long long)in->size, (long long)want);
    return LG_OK;
}

static lg_status_t read_lgb_header(struct in_file *in, struct lgb_header *h)
{
    unsigned char b[LGB_HEADER_BYTES];
    const int64_t got = read_full(in->fd, (char *)b, sizeof b);
    if (got < 0)
        return errno_error(errno, in->path, "read error");
    if (got >= (int64_t)sizeof LGB_MAGIC && memcmp(b, LGB_MAGIC, sizeof LGB_MAGIC) != 0)
        return lg__error(LG_ERR_IO, "%s: not a libgraph binary graph (bad magic number)",
                         in->path);
    if (got < (int64_t)sizeof b)
        return lg__error(LG_ERR_IO, "%s: truncated: %lld bytes, shorter than the %d-byte header",
                         in->path, (long long)got, LGB_HEADER_BYTES);
    in->pos = got;
    lgb_decode(b, h);
    return check_lgb_header(in, h);
}

/* A stream must end where the header says; a regular file's size was checked. */
static lg_status_t check_lgb_end(struct in_file *in)
{
    char extra;
    if (in->regular || read_full(in->fd, &extra, 1) == 0)
        return LG_OK;
    return lg__error(LG_ERR_IO, "%s: more bytes than the header promises", in->path);
}

/* The stored directedness wins; options may only repeat it. */
static lg_status_t lgb_build_options(const char *path, const struct lgb_header *h,
                                     const lg_graph_options_t *o, lg_graph_options_t *b)
{
    const lg_directedness_t stored =
        (h->flags & LGB_FLAG_DIRECTED) ? LG_DIRECTED : LG_UNDIRECTED;
    if (o->directedness != LG_DIRECTEDNESS_DEFAULT && o->directedness != stored)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_graph_read: %s holds %s graph, but the options ask for %s one", path,
                         stored == LG_DIRECTED ? "a directed" : "an undirected",
                         stored == LG_DIRECTED ? "an undirected" : "a directed");
    *b = *o;
    b->directedness = stored;
    if (stored == LG_UNDIRECTED)
        b->symmetrize = false; /* the stored CSR already has both arcs of every edge */
    return LG_OK;
}

static lg_status_t read_lgb(lg_context_t *context, const char *path,
                            const lg_graph_options_t *options, lg_graph_t **graph)
{
    lg_status_t st;
    lg_edge_t *offsets = NULL;
    lg_vertex_t *indices = NULL;
    float *weights = NULL;
    struct lgb_header h;
    struct in_file in;
    lg_graph_options_t b;
    const int threads = lg__threads(context);
    if ((st = in_open(&in, path)) != LG_OK)
        return st;

    if ((st = read_lgb_header(&in, &h)) != LG_OK ||
        (st = lgb_build_options(path, &h, options, &b)) != LG_OK)
        goto cleanup;
    const bool weighted = h.flags & LGB_FLAG_WEIGHTED;
    const size_t offsets_bytes = ((size_t)h.n + 1) * sizeof *offsets;
    const size_t arc_bytes = (size_t)h.m * sizeof *indices;
    offsets = lg__alloc_array((size_t)h.n + 1, sizeof *offsets, "CSR row offsets");
    indices = lg__alloc_array((size_t)h.m, sizeof *indices, "CSR column indices");
    if (weighted)
        weights = lg__alloc_array((size_t)h.m, sizeof *weights, "CSR weights");
    if (!offsets || !indices || (weighted && !weights)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    if ((st = in_read(&in, offsets, offsets_bytes, threads, "row offsets")) != LG_OK ||
        (st = in_read(&in, indices, arc_bytes, threads, "column indices")) != LG_OK ||
        (weighted && (st = in_read(&in, weights, arc_bytes, threads, "weights")) != LG_OK) ||
        (st = check_lgb_end(&in)) != LG_OK)
        goto cleanup;
    const uint64_t sum = lgb_checksum(&h, offsets, indices, weights, threads);
    if (sum != h.checksum) {
        st = lg__error(LG_ERR_IO, "%s: checksum mismatch (stored %016llx, computed %016llx)",
                       path, (unsigned long long)h.checksum, (unsigned long long)sum);
        goto cleanup;
    }
    /* lg_graph_from_csr takes the arc count from the offsets; they must agree
     * with the arrays just read */
    if (offsets[0] != 0 || offsets[h.n] != h.m) {
        st = lg__error(LG_ERR_IO, "%s: row offsets run from %lld to %lld, not from 0 to m = %lld",
                       path, (long long)offsets[0], (long long)offsets[h.n], (long long)h.m);
        goto cleanup;
    }
    st = blame_file(lg_graph_from_csr(context, h.n, offsets, indices, weights, &b, graph), path);

cleanup:
    lg__free(offsets);
    lg__free(indices);
    lg__free(weights);
    in_close(&in);
    return st;
}

/* ---- output files ------------------------------------------------------------------------ */

/* A file being written: a temporary name beside the target, renamed over it
 * when complete. */
struct out_file {
    const char *path;
    char *tmp_path;
    int fd; /* -1 when closed */
};

static void temp_suffix(char *s, uint64_t seed)
{
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    uint64_t x = lg__mix64(seed);
    for (int i = 0; i < 6; i++, x /= 36)
        s[i] = alphabet[x % 36];
    s[6] = '\0';
}

/* Creates PATH.tmp.XXXXXX.  Not mkstemp: that creates the file with mode
 * 0600, which the rename would hand to the finished file; open with 0666 lets
 * the umask decide, as for any file the user creates. */
static lg_status_t out_open(struct out_file *out, const char *path)
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
    return errno_error(err, path, "cannot create a temporary file beside it");
}

static lg_status_t out_write(struct out_file *out, const void *data, size_t bytes)
{
    const char *p = data;
    while (bytes > 0) {
        const size_t want = bytes < IO_BLOCK ? bytes : IO_BLOCK;
        const ssize_t k = write(out->fd, p, want);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return errno_error(k < 0 ? errno : EIO, out->path, "cannot write");
        p += k;
        bytes -= (size_t)k;
    }
    return LG_OK;
}

/* Renames the finished file over the target when st is LG_OK, else removes it. */
static lg_status_t out_finish(struct out_file *out, lg_status_t st)
{
    if (out->fd >= 0 && close(out->fd) != 0 && st == LG_OK)
        st = errno_error(errno, out->path, "cannot write");
    out->fd = -1;
    if (st == LG_OK && rename(out->tmp_path, out->path) != 0)
        st = errno_error(errno, out->path, "cannot rename the temporary file over it");
    if (st != LG_OK)
        unlink(out->tmp_path);
    lg__free(out->tmp_path);
    out->tmp_path = NULL;
    return st;
}

/* ---- writing ----------------------------------------------------------------------------- */

static lg_status_t write_lgb(struct out_file *out, const lg_graph_t *g, int threads)
{
    const struct lg_csr *c = &g->out;
    unsigned char b[LGB_HEADER_BYTES];
    struct lgb_header h = {LGB_VERSION,
                           (g->directed ? LGB_FLAG_DIRECTED : 0) |
                               (c->weights ? LGB_FLAG_WEIGHTED : 0),
                           g->n, g->m, 0};
    lg_status_t st;
    h.checksum = lgb_checksum(&h, c->offsets, c->indices, c->weights, threads);
    lgb_encode(&h, b);
    if ((st = out_write(out, b, sizeof b)) != LG_OK ||
        (st = out_write(out, c->offsets, (size_t)(g->n + 1) * sizeof *c->offsets)) != LG_OK ||
        (st = out_write(out, c->indices, (size_t)g->m * sizeof *c->indices)) != LG_OK)
        return st;
    return c->weights ? out_write(out, c->weights, (size_t)g->m * sizeof *c->weights) : LG_OK;
}

/* Which arcs a text file lists: all of a directed graph; one of each edge
 * of an undirected one (Matrix Market's lower triangle, or u <= v). */
enum arc_filter { ALL_ARCS, ROW_GE_COL, ROW_LE_COL };

struct text_style {
    int64_t id_base;      /* 1 for Matrix Market */
    enum arc_filter keep;
    bool weights;         /* write a third field (1 for an unweighted graph) */
};

static inline bool keep_arc(enum arc_filter keep, int64_t u, int64_t v)
{
    return keep == ALL_ARCS || (keep == ROW_GE_COL ? u >= v : u <= v);
}

static char *format_uint(char *p, uint64_t x)
{
    char digits[20];
    int k = 0;
    do {
        digits[k++] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    while (k)
        *p++ = digits[--k];
    return p;
}

/* Nine significant digits read back as the same float (FLT_DECIMAL_DIG).
 * Whole weights, the common case, skip printf: %.9g prints them as plain
 * integers below 1e9 anyway. */
static char *format_weight(char *p, float w)
{
    if (w < 1e9f && w == (float)(uint32_t)w)
        return format_uint(p, (uint32_t)w);
    return p + snprintf(p, WEIGHT_TEXT_MAX, "%.9g", (double)w);
}

/* The row that holds arc e (< m): the last row v with offsets[v] <= e. */
static int64_t row_of_arc(const lg_edge_t *offsets, int64_t n, int64_t e)
{
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (offsets[mid] <= e)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Formats arcs [lo, hi) (those the style keeps) into buf; returns the bytes. */
static size_t format_arcs(const lg_graph_t *g, const struct text_style *s, int64_t lo, int64_t hi,
                          char *buf)
{
    const struct lg_csr *c = &g->out;
    char *p = buf;
    if (lo >= hi)
        return 0;
    int64_t u = row_of_arc(c->offsets, g->n, lo);
    for (int64_t e = lo; e < hi; e++) {
        while (c->offsets[u + 1] <= e)
            u++;
        const int64_t v = c->indices[e];
        if (!keep_arc(s->keep, u, v))
            continue;
        p = format_uint(p, (uint64_t)(u + s->id_base));
        *p++ = ' ';
        p = format_uint(p, (uint64_t)(v + s->id_base));
        if (s->weights) {
            *p++ = ' ';
            p = format_weight(p, c->weights ? c->weights[e] : 1.0f);
        }
        *p++ = '\n';
    }
    return (size_t)(p - buf);
}

/* Writes the arcs as text: rounds of `slices` slices of WRITE_SLICE_ARCS arcs,
 * each slice formatted by one thread into its own buffer, then written in order. */
static lg_status_t write_arcs(struct out_file *out, const lg_graph_t *g,
                              const struct text_style *s, int threads)
{
    lg_status_t st = LG_OK;
    const int64_t m = g->m, needed = (m + WRITE_SLICE_ARCS - 1) / WRITE_SLICE_ARCS;
    int slices = threads < WRITE_THREADS_MAX ? threads : WRITE_THREADS_MAX;
    if (needed < slices)
        slices = needed > 0 ? (int)needed : 1;
    const size_t slice_bytes = (size_t)WRITE_SLICE_ARCS * TEXT_LINE_MAX;
    char *buf = lg__alloc_array((size_t)slices, slice_bytes, "text output buffers");
    size_t *len = lg__alloc_array((size_t)slices, sizeof *len, "text output lengths");
    if (!buf || !len) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    for (int64_t first = 0; first < m && st == LG_OK; first += slices * WRITE_SLICE_ARCS) {
#pragma omp parallel for num_threads(slices) schedule(static, 1)
        for (int k = 0; k < slices; k++) {
            const int64_t lo = first + k * WRITE_SLICE_ARCS;
            const int64_t hi = lo + WRITE_SLICE_ARCS < m ? lo + WRITE_SLICE_ARCS : m;
            len[k] = format_arcs(g, s, lo < m ? lo : m, hi, buf + (size_t)k * slice_bytes);
        }
        for (int k = 0; k < slices && st == LG_OK; k++)
            st = out_write(out, buf + (size_t)k * slice_bytes, len[k]);
    }

cleanup:
    lg__free(buf);
    lg__free(len);
    return st;
}

static int64_t count_kept_arcs(const lg_graph_t *g, enum arc_filter keep, int threads)
{
    const struct lg_csr *c = &g->out;
    int64_t total = 0;
    if (keep == ALL_ARCS)
        return g->m;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(+ : total)
    for (int64_t u = 0; u < g->n; u++)
        for (lg_edge_t e = c->offsets[u]; e < c->offsets[u + 1]; e++)
            total += keep_arc(keep, u, c->indices[e]);
    return total;
}

static lg_status_t write_mtx(struct out_file *out, const lg_graph_t *g, int threads)
{
    const struct text_style s = {1, g->directed ? ALL_ARCS : ROW_GE_COL, g->out.weights != NULL};
    char head[160];
    const int len = snprintf(head, sizeof head,
                             "%%%%MatrixMarket matrix coordinate %s %s\n%lld %lld %lld\n",
                             s.weights ? "real" : "pattern", g->directed ? "general" : "symmetric",
                             (long long)g->n, (long long)g->n,
                             (long long)count_kept_arcs(g, s.keep, threads));
    lg_status_t st = out_write(out, head, (size_t)len);
    return st != LG_OK ? st : write_arcs(out, g, &s, threads);
}

static lg_status_t write_edge_list(struct out_file *out, const lg_graph_t *g, bool weights,
                                   int threads)
{
    const struct text_style s = {0, g->directed ? ALL_ARCS : ROW_LE_COL, weights};
    return write_arcs(out, g, &s, threads);
}

/* ---- the public functions ------------------------------------------------------------------ */

lg_status_t lg_graph_read(lg_context_t *context, const char *path, lg_file_format_t format,
                          const lg_graph_options_t *options, lg_graph_t **graph)
{
    static const char fn[] = "lg_graph_read";
    lg_graph_options_t defaults;
    lg_status_t st;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    *graph = NULL;
    if (!path)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: path is NULL", fn);
    if (!options) {
        lg_graph_options_init(&defaults);
        options = &defaults;
    }
    if ((st = check_read_options(options)) != LG_OK ||
        (st = resolve_format(fn, path, &format)) != LG_OK)
        return st;
    if (format != LG_FORMAT_BINARY)
        return read_text(context, path, format, options, graph);
    if (!host_is_little_endian())
        return lg__error(LG_ERR_UNSUPPORTED, "%s: .lgb files need a little-endian host", fn);
    return read_lgb(context, path, options, graph);
}

lg_status_t lg_graph_write(lg_context_t *context, const lg_graph_t *graph, const char *path,
                           lg_file_format_t format)
{
    static const char fn[] = "lg_graph_write";
    struct out_file out;
    lg_status_t st;
    if (!graph || !path)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, graph ? "path" : "graph");
    if ((st = resolve_format(fn, path, &format)) != LG_OK)
        return st;
    if (format == LG_FORMAT_BINARY && !host_is_little_endian())
        return lg__error(LG_ERR_UNSUPPORTED, "%s: .lgb files need a little-endian host", fn);
    if ((st = out_open(&out, path)) != LG_OK)
        return st;
    const int threads = lg__threads(context);
    switch (format) {
    case LG_FORMAT_MTX: st = write_mtx(&out, graph, threads); break;
    case LG_FORMAT_EL: st = write_edge_list(&out, graph, false, threads); break;
    case LG_FORMAT_WEL: st = write_edge_list(&out, graph, true, threads); break;
    default: st = write_lgb(&out, graph, threads); break;
    }
    return out_finish(&out, st);
}
