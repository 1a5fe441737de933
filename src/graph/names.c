/*
 * names.c - vertex names: an int64 or a UTF-8 string a vertex, kept with a
 * graph for the application (libgraph never looks them up) and carried by
 * the binary format (io/lgb.c).  Strings are stored end to end with n + 1
 * byte offsets, the layout the .lgb file holds and Arrow's string arrays use,
 * so a million names are three allocations, not a million.
 *
 * Names are keys, as a node is in NetworkX: no two vertices share one.
 *
 * Errors: LG_ERR_INVALID_ARGUMENT for an unknown kind, a NULL array, offsets
 * that do not start at 0 or go down, a name that is not UTF-8 (named by its
 * vertex) and a name two vertices share (both named, and the name);
 * LG_ERR_OUT_OF_MEMORY for the copies.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* The length of the UTF-8 sequence at p (of at most left bytes), or 0 when
 * it is not one: no overlong forms, no surrogates, nothing past U+10FFFF
 * (RFC 3629, section 4). */
static size_t utf8_sequence(const unsigned char *p, size_t left)
{
    const unsigned c = p[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xbf; /* the range of the second byte */
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80;
        hi = c == 0xed ? 0x9f : 0xbf;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0;
    }
    if (left < len || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

static bool is_utf8(const char *s, size_t bytes)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < bytes;) {
        const size_t k = utf8_sequence(p + i, bytes - i);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

/* ---- distinct names -------------------------------------------------------------- */

static uint64_t name_hash(const lg_names_t *names, int64_t v)
{
    if (names->kind == LG_NAMES_INT64)
        return lg__mix64((uint64_t)names->ints[v]);
    const unsigned char *p = (const unsigned char *)names->text + names->offsets[v];
    const int64_t len = names->offsets[v + 1] - names->offsets[v];
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, then mixed */
    for (int64_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return lg__mix64(h ^ (uint64_t)len);
}

static bool same_name(const lg_names_t *names, int64_t u, int64_t v)
{
    if (names->kind == LG_NAMES_INT64)
        return names->ints[u] == names->ints[v];
    const int64_t *o = names->offsets;
    return o[u + 1] - o[u] == o[v + 1] - o[v] &&
           memcmp(names->text + o[u], names->text + o[v], (size_t)(o[u + 1] - o[u])) == 0;
}

/* The name of vertex v as an error message shows it: the number, or the text
 * in quotes, cut at 40 bytes, with bytes outside printable ASCII as \xHH. */
static void name_text(const lg_names_t *names, int64_t v, char *out, size_t cap)
{
    if (names->kind == LG_NAMES_INT64) {
        snprintf(out, cap, "%lld", (long long)names->ints[v]);
        return;
    }
    const unsigned char *p = (const unsigned char *)names->text + names->offsets[v];
    const int64_t len = names->offsets[v + 1] - names->offsets[v];
    size_t k = 0;
    out[k++] = '\'';
    for (int64_t i = 0; i < len && k + 8 < cap; i++) {
        if (i == 40) {
            k += (size_t)snprintf(out + k, cap - k, "...");
            break;
        }
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
            out[k++] = (char)p[i];
        else
            k += (size_t)snprintf(out + k, cap - k, "\\x%02x", p[i]);
    }
    snprintf(out + k, cap - k, "'");
}

/* Names are keys: two vertices with one name are refused (an open-addressing
 * table of vertex ids, 2 to 4 slots a name, O(n)). */
static lg_status_t check_distinct(const char *fn, int64_t n, const lg_names_t *names)
{
    if (n < 2)
        return LG_OK;
    size_t slots = 4;
    while (slots < 2 * (size_t)n)
        slots *= 2;
    int32_t *table = lg__alloc_array(slots, sizeof *table, "the vertex-name check");
    if (!table)
        return LG_ERR_OUT_OF_MEMORY;
    memset(table, 0xff, slots * sizeof *table); /* -1: empty */
    lg_status_t st = LG_OK;
    for (int64_t v = 0; v < n && st == LG_OK; v++) {
        for (size_t at = (size_t)name_hash(names, v) & (slots - 1);; at = (at + 1) & (slots - 1)) {
            if (table[at] < 0) {
                table[at] = (int32_t)v;
                break;
            }
            if (same_name(names, table[at], v)) {
                char text[200];
                name_text(names, v, text, sizeof text);
                st = lg__error(LG_ERR_INVALID_ARGUMENT,
                               "%s: vertices %lld and %lld have the same name %s (names are keys: "
                               "one a vertex)",
                               fn, (long long)table[at], (long long)v, text);
                break;
            }
        }
    }
    lg__free(table);
    return st;
}

lg_status_t lg__names_check(const char *fn, int64_t n, const lg_names_t *names)
{
    if (!names || names->kind == LG_NAMES_NONE)
        return LG_OK;
    if (names->kind == LG_NAMES_INT64) {
        if (!names->ints && n > 0)
            return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: names->ints is NULL", fn);
        return check_distinct(fn, n, names);
    }
    if (names->kind != LG_NAMES_UTF8)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown names kind %d", fn,
                         (int)names->kind);
    const int64_t *o = names->offsets;
    if (!o)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: names->offsets is NULL", fn);
    if (o[0] != 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: names->offsets[0] is %lld, not 0", fn,
                         (long long)o[0]);
    for (int64_t v = 0; v < n; v++)
        if (o[v + 1] < o[v])
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "%s: names->offsets go down at vertex %lld (%lld after %lld)", fn,
                             (long long)v, (long long)o[v + 1], (long long)o[v]);
    if (o[n] > 0 && !names->text)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: names->text is NULL", fn);
    for (int64_t v = 0; v < n; v++)
        if (!is_utf8(names->text + o[v], (size_t)(o[v + 1] - o[v])))
            return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: the name of vertex %lld is not UTF-8",
                             fn, (long long)v);
    return check_distinct(fn, n, names);
}

static void *copy_of(const void *src, size_t count, size_t size, const char *what)
{
    void *p = lg__alloc_array(count ? count : 1, size, what);
    if (p && count)
        memcpy(p, src, count * size);
    return p;
}

lg_status_t lg__names_copy(int64_t n, const lg_names_t *names, struct lg_names_store *store)
{
    struct lg_names_store s = {LG_NAMES_NONE, NULL, NULL, NULL};
    if (names && names->kind == LG_NAMES_INT64) {
        s.kind = LG_NAMES_INT64;
        if (!(s.ints = copy_of(names->ints, (size_t)n, sizeof *s.ints, "vertex names")))
            return LG_ERR_OUT_OF_MEMORY;
    } else if (names && names->kind == LG_NAMES_UTF8) {
        s.kind = LG_NAMES_UTF8;
        s.offsets = copy_of(names->offsets, (size_t)n + 1, sizeof *s.offsets, "name offsets");
        s.text = copy_of(names->text, (size_t)names->offsets[n], 1, "vertex names");
        if (!s.offsets || !s.text) {
            lg__names_free(&s);
            return LG_ERR_OUT_OF_MEMORY;
        }
    }
    *store = s;
    return LG_OK;
}

void lg__names_free(struct lg_names_store *store)
{
    lg__free(store->ints);
    lg__free(store->offsets);
    lg__free(store->text);
    memset(store, 0, sizeof *store);
}

size_t lg__names_bytes(int64_t n, const struct lg_names_store *store)
{
    switch (store->kind) {
    case LG_NAMES_INT64: return (size_t)n * sizeof(int64_t);
    case LG_NAMES_UTF8: return ((size_t)n + 1) * sizeof(int64_t) + (size_t)store->offsets[n];
    default: return 0;
    }
}

lg_names_t lg__names_view(const struct lg_names_store *store)
{
    const lg_names_t view = {store->kind, store->ints, store->offsets, store->text};
    return view;
}

lg_status_t lg_graph_set_names(lg_graph_t *graph, const lg_names_t *names)
{
    static const char fn[] = "lg_graph_set_names";
    struct lg_names_store s;
    lg_status_t st;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if ((st = lg__names_check(fn, graph->n, names)) != LG_OK ||
        (st = lg__names_copy(graph->n, names, &s)) != LG_OK)
        return st;
    lg__names_free(&graph->names);
    graph->names = s;
    return LG_OK;
}

lg_status_t lg_graph_names(const lg_graph_t *graph, lg_names_t *names)
{
    if (!graph || !names)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_names: %s is NULL",
                         graph ? "names" : "graph");
    *names = lg__names_view(&graph->names);
    return LG_OK;
}
