/*
 * text.c - parsing the data lines of a text graph file (Matrix Market, .el,
 * .wel) into edges: "u v" or "u v w", blank-separated, one edge a line.
 *
 * lg__parse_chunk runs over whole lines of the text, skipping blank lines
 * and comment lines ('%', and '#' in edge lists), and stores each edge
 * straight into its slot of the caller's arrays.  This is the loop that
 * reading a large file spends its time in, so it is kept small: ids go
 * through the hand-written decimal scanner of io.h, weights through
 * Clinger's fast path ("How to read floating point numbers accurately",
 * PLDI 1990: a short decimal times an exact power of ten is one correctly
 * rounded operation) with strtof (strtod for float64 weights) for the rare
 * rest, and everything that only builds an error message sits in cold,
 * out-of-line functions.
 *
 * Errors: the first bad line stops the chunk, with a point in that line and
 * the reason ("source id 4294967296 is too large (ids must be below
 * 2147483647)"); the caller (edges.c) turns it into "path:line: reason",
 * counting lines only then, so the fast path never counts them.
 */
#include "io.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for a quoted token in a message. */
#define SNIPPET_MAX 24
#define SNIPPET_ROOM (SNIPPET_MAX + 4)

/* Clinger's fast path for weights: a decimal of at most FAST_DIGITS
 * significant digits, scaled by at most 10^FAST_EXP10, is a correctly
 * rounded double after one multiplication or division (both factors are
 * exact doubles: < 2^53 and 10^22 < 5^23 * 2^22). */
#define FAST_DIGITS 15
#define FAST_EXP10 22

/* Error reporters are kept out of line so the parser's hot loop stays small. */
#if defined(__GNUC__)
#define IO_COLD __attribute__((cold, noinline))
#else
#define IO_COLD
#endif

struct parsed_edge {
    lg_vertex_t src, dst;
    float weight;
    double weight64; /* wide rules' weight, in place of weight */
};

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
    } while (!lg__ends_token(*p));
    out[k] = '\0';
}

/* ---- ids ----------------------------------------------------------------------- */

IO_COLD static void id_reason(const struct lg_line_rules *r, const char *p, const char *role,
                              char *reason)
{
    char tok[SNIPPET_ROOM];
    uint64_t x = 0;
    const bool number = lg__scan_uint(p, &x) != NULL;
    snippet(p, tok);
    if (!number)
        snprintf(reason, LG_REASON_MAX, "%s '%s' is not a %s integer", role, tok,
                 r->base ? "positive" : "non-negative");
    else if (x < r->base)
        snprintf(reason, LG_REASON_MAX, "%s index 0: Matrix Market indices start at 1", role);
    else if (r->base)
        snprintf(reason, LG_REASON_MAX, "%s index %s is out of range: the matrix has %llu rows",
                 role, tok, (unsigned long long)r->num_ids);
    else
        snprintf(reason, LG_REASON_MAX, "%s id %s is too large (ids must be below %llu)", role, tok,
                 (unsigned long long)r->num_ids);
}

static inline const char *parse_id(const struct lg_line_rules *r, const char *p, const char *role,
                                   lg_vertex_t *id, char *reason)
{
    uint64_t x = 0;
    const char *q = lg__scan_uint(p, &x);
    if (q && x >= r->base && x - r->base < r->num_ids) {
        *id = (lg_vertex_t)(x - r->base);
        return q;
    }
    id_reason(r, p, role, reason);
    return NULL;
}

/* ---- weights ------------------------------------------------------------------- */

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
        if (!lg__is_digit(*q))
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

/* Parses an unsigned decimal "ddd[.ddd][e[+-]dd]" exactly as strtod would
 * round it, or returns false so that strtod does (signs, hex, inf, nan, long
 * mantissas, big exponents): Clinger's fast path. */
static inline bool fast_decimal(const char *p, const char *end, double *out)
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
        if (!lg__is_digit(*p))
            return false;
        for (int k = 0; lg__is_digit(*p); p++, k++) {
            if (k == 3)
                return false;
            exp10 = exp10 * 10 + (*p - '0');
        }
        exp10 = negative ? -exp10 : exp10;
    }
    exp10 -= scale;
    if (p != end || exp10 < -FAST_EXP10 || exp10 > FAST_EXP10)
        return false;
    const double d = (double)mant;
    *out = exp10 < 0 ? d / powers_of_ten[-exp10] : d * powers_of_ten[exp10];
    return true;
}

/* fast_decimal as strtof would round it: rounding the correctly rounded
 * double to float is exact unless the double is a float midpoint (double
 * rounding could then tie the wrong way) or outside the normal float range. */
static inline bool fast_weight(const char *p, const char *end, float *out)
{
    double d;
    if (!fast_decimal(p, end, &d) ||
        (d != 0.0 && (d < FLT_MIN || d > FLT_MAX || is_float_midpoint(d))))
        return false;
    *out = (float)d;
    return true;
}

/* Whether [p, end) is spelt as a decimal number: digits, '.', an exponent
 * and signs (strtof also takes hex floats, "inf" and "nan"; the formats hold
 * decimals, and the last two get their own reasons). */
static bool decimal_spelling(const char *p, const char *end)
{
    for (; p < end; p++)
        if (!lg__is_digit(*p) && *p != '.' && *p != 'e' && *p != 'E' && *p != '+' && *p != '-')
            return false;
    return true;
}

/* Whether the decimal number [p, end) is zero: no nonzero digit before its
 * exponent (a double cannot tell: 1e-400 underflows it too). */
static bool decimal_is_zero(const char *p, const char *end)
{
    for (; p < end && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9')
            return false;
    return true;
}

/* Why [p, end) is not a weight; wide: as a double (else a float). */
IO_COLD static void weight_reason(const char *p, const char *end, bool wide, char *reason)
{
    char tok[SNIPPET_ROOM];
    char *stop = NULL;
    const double x = wide ? strtod(p, &stop) : (double)strtof(p, &stop);
    const char *type = wide ? "double" : "float";
    const char *largest = wide ? "1.8e308" : "3.4e38", *smallest = wide ? "4.9e-324" : "1.4e-45";
    const char *stored = wide ? "64" : "32";
    snippet(p, tok);
    if (stop != end || (!decimal_spelling(p, end) && isfinite(x)))
        snprintf(reason, LG_REASON_MAX, "weight '%s' is not a decimal number", tok);
    else if (isnan(x))
        snprintf(reason, LG_REASON_MAX, "weight %s is NaN; weights must be finite", tok);
    else if (isinf(x) && decimal_spelling(p, end))
        snprintf(reason, LG_REASON_MAX,
                 "weight %s is too large for a %s (the largest is about %s); weights are "
                 "stored as %s-bit floats",
                 tok, type, largest, stored);
    else if (isinf(x))
        snprintf(reason, LG_REASON_MAX, "weight %s is not finite; weights must be finite", tok);
    else
        snprintf(reason, LG_REASON_MAX,
                 "weight %s rounds to 0 as a %s (the smallest is about %s); weights are "
                 "stored as %s-bit floats",
                 tok, type, smallest, stored);
}

/* A weight: a decimal number whose float (wide: double, into *w64, else
 * into *w32) is finite, and 0 only when the number is (a positive weight
 * that rounds to 0 would make its vertex dangling, and PageRank would change
 * without a word).  Negative weights are read; the algorithms that need
 * weights >= 0 refuse them.  A double is the decimal rounded once, as
 * Python's float() and strtod round it. */
static inline const char *parse_weight(const char *p, bool wide, float *w32, double *w64,
                                       char *reason)
{
    const char *end = p;
    while (!lg__ends_token(*end))
        end++;
    if (wide ? fast_decimal(p, end, w64) : fast_weight(p, end, w32))
        return end;
    char *stop = NULL;
    const double x = wide ? strtod(p, &stop) : (double)strtof(p, &stop);
    if (stop == end && isfinite(x) && decimal_spelling(p, end) &&
        (x != 0.0 || decimal_is_zero(p, end))) {
        if (wide)
            *w64 = x == 0.0 ? 0.0 : x; /* -0 becomes 0 */
        else
            *w32 = x == 0.0 ? 0.0f : (float)x; /* exact: x is strtof's */
        return end;
    }
    weight_reason(p, end, wide, reason);
    return NULL;
}

/* ---- lines --------------------------------------------------------------------- */

IO_COLD static void missing_reason(const char *what, char *reason)
{
    snprintf(reason, LG_REASON_MAX, "missing the %s", what);
}

IO_COLD static void extra_field_reason(const struct lg_line_rules *r, const char *p, char *reason)
{
    char tok[SNIPPET_ROOM];
    snippet(p, tok);
    if (r->format == LG_FORMAT_EL)
        snprintf(reason, LG_REASON_MAX,
                 "unexpected third field '%s': .el lines are \"u v\" (use .wel for weights)", tok);
    else
        snprintf(reason, LG_REASON_MAX, "unexpected extra field '%s'", tok);
}

/* Parses the data line at p (neither blank nor a comment) into one edge.
 * Returns the start of the next line, or NULL with a reason. */
static inline const char *parse_edge_line(const struct lg_line_rules *r, const char *p,
                                          const char *end, struct parsed_edge *e, char *reason)
{
    if (!(p = parse_id(r, p, r->roles[0], &e->src, reason)))
        return NULL;
    p = lg__skip_blanks(p);
    if (lg__at_line_end(p, end)) {
        missing_reason(r->roles[1], reason);
        return NULL;
    }
    if (!(p = parse_id(r, p, r->roles[1], &e->dst, reason)))
        return NULL;
    p = lg__skip_blanks(p);
    if (r->weighted) {
        if (lg__at_line_end(p, end)) {
            missing_reason("weight", reason);
            return NULL;
        }
        if (!(p = parse_weight(p, r->wide, &e->weight, &e->weight64, reason)))
            return NULL;
        p = lg__skip_blanks(p);
    }
    if (!lg__at_line_end(p, end)) {
        extra_field_reason(r, p, reason);
        return NULL;
    }
    return p == end ? p : p + 1;
}

static inline bool is_comment(const struct lg_line_rules *r, char c)
{
    return c == '%' || (c == '#' && r->hash_comments);
}

void lg__parse_chunk(const struct lg_line_rules *r, const struct lg_edge_arrays *a,
                     struct lg_chunk *c)
{
    lg_vertex_t *src = a->src, *dst = a->dst;
    float *w = a->w;
    double *w64 = a->w64;
    int64_t k = c->base;
    lg_vertex_t max_id = -1;
    const char *p = c->begin, *end = c->end;
    while (p < end) {
        p = lg__skip_blanks(p);
        if (p == end)
            break;
        if (*p == '\n') {
            p++;
            continue;
        }
        if (is_comment(r, *p)) {
            p = lg__next_line(p, end);
            continue;
        }
        struct parsed_edge e = {0, 0, 1.0f, 1.0};
        const char *next = parse_edge_line(r, p, end, &e, c->reason);
        if (!next) {
            c->error_at = p;
            break;
        }
        src[k] = e.src;
        dst[k] = e.dst;
        if (w)
            w[k] = e.weight;
        if (w64)
            w64[k] = e.weight64;
        k++;
        max_id = e.src > max_id ? e.src : max_id;
        max_id = e.dst > max_id ? e.dst : max_id;
        p = next;
    }
    c->count = k - c->base;
    c->max_id = max_id;
}

int64_t lg__data_line_number(const struct lg_line_rules *r, const char *p, const char *end,
                             int64_t k, int64_t line)
{
    for (; p < end; line++, p = lg__next_line(p, end)) {
        const char *q = lg__skip_blanks(p);
        if (!lg__at_line_end(q, end) && !is_comment(r, *q) && k-- == 0)
            break;
    }
    return line;
}
