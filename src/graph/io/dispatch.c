/*
 * dispatch.c - lg_graph_read and lg_graph_write, the public entry points for
 * graph files: they check the arguments, tell the format (named by the
 * caller, or by the file name's extension: .mtx, .el, .wel, .lgb, in any
 * case), and hand over to that format's reader or writer (mtx.c,
 * edgelist.c, lgb.c).  Every writer writes through a temporary file that
 * replaces the target only when complete (file.c).
 *
 * Errors: LG_ERR_INVALID_ARGUMENT "lg_graph_read: ..." for NULL arguments,
 * bad options (checked before the file is opened, so that a bad option is
 * not reported after minutes of parsing, and so that any later
 * LG_ERR_INVALID_ARGUMENT from the builders is the file's fault) and a
 * format that cannot be told, and the write option plain for a format other
 * than .el and .wel; LG_ERR_UNSUPPORTED for .lgb on a big-endian
 * host.  The formats' own errors name the file (io.h).
 */
#include "build.h"
#include "io.h"

#include <string.h>

static lg_status_t resolve_format(const char *fn, const char *path, lg_file_format_t *format);

/* ASCII case-insensitive equality; the C library's versions follow the locale. */
static bool same_ci(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (lg__ascii_lower(*a) != lg__ascii_lower(*b))
            return false;
    return *a == *b;
}

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

static lg_status_t check_host_for(const char *fn, lg_file_format_t format);

lg_status_t lg__resolve_format(const char *fn, const char *path, lg_file_format_t *format)
{
    lg_status_t st = resolve_format(fn, path, format);
    return st != LG_OK ? st : check_host_for(fn, *format);
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

static bool host_is_little_endian(void)
{
    const uint32_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* .lgb holds the arrays as they lie in memory, little-endian. */
static lg_status_t check_host_for(const char *fn, lg_file_format_t format)
{
    if (format == LG_FORMAT_BINARY && !host_is_little_endian())
        return lg__error(LG_ERR_UNSUPPORTED, "%s: .lgb files need a little-endian host", fn);
    return LG_OK;
}

lg_status_t lg_graph_read(lg_context_t *context, const char *path, lg_file_format_t format,
                          const lg_graph_options_t *options, lg_graph_t **graph)
{
    static const char fn[] = "lg_graph_read";
    lg_graph_options_t defaults;
    lg_status_t st;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (!path)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: path is NULL", fn);
    if ((st = lg__graph_options_start(fn, graph, &options, &defaults)) != LG_OK ||
        (st = resolve_format(fn, path, &format)) != LG_OK ||
        (st = check_host_for(fn, format)) != LG_OK)
        return st;
    lg_graph_t *built = NULL; /* *graph is written only on success */
    switch (format) {
    case LG_FORMAT_MTX: st = lg__read_mtx(context, path, options, &built); break;
    case LG_FORMAT_EL:
    case LG_FORMAT_WEL: st = lg__read_edge_list(context, path, format, options, &built); break;
    default: st = lg__read_lgb(context, path, options, &built); break;
    }
    if (st == LG_OK)
        *graph = built;
    return st == LG_ERR_CANCELLED ? lg__cancelled(fn) : st;
}

void lg_write_options_init(lg_write_options_t *options)
{
    if (!options)
        return;
    options->progress = NULL;
    options->progress_data = NULL;
    options->plain = false;
}

lg_status_t lg_graph_write(lg_context_t *context, const lg_graph_t *graph, const char *path,
                           lg_file_format_t format)
{
    return lg_graph_write_with(context, graph, path, format, NULL);
}

lg_status_t lg_graph_write_with(lg_context_t *context, const lg_graph_t *graph, const char *path,
                                lg_file_format_t format, const lg_write_options_t *options)
{
    static const char fn[] = "lg_graph_write";
    struct lg_out_file out;
    lg_status_t st;
    if (!graph || !path)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, graph ? "path" : "graph");
    if (!*path)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: the path is empty", fn);
    if ((st = resolve_format(fn, path, &format)) != LG_OK ||
        (st = check_host_for(fn, format)) != LG_OK)
        return st;
    const bool plain = options && options->plain;
    if (plain && format != LG_FORMAT_EL && format != LG_FORMAT_WEL)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: plain (no header line) is for edge lists (.el, .wel); a .%s file "
                         "keeps its header: write an edge list, or leave plain off",
                         fn, format_extension(format));
    if ((st = lg__out_open(&out, path)) != LG_OK)
        return st;
    if (options)
        out.progress = (struct lg_progress){options->progress, options->progress_data, 1};
    const int threads = lg__threads(context);
    switch (format) {
    case LG_FORMAT_MTX: st = lg__write_mtx(&out, graph, threads); break;
    case LG_FORMAT_EL: st = lg__write_edge_list(&out, graph, false, plain, threads); break;
    case LG_FORMAT_WEL: st = lg__write_edge_list(&out, graph, true, plain, threads); break;
    default: st = lg__write_lgb(&out, graph, threads); break;
    }
    st = lg__out_finish(&out, st);
    return st == LG_ERR_CANCELLED ? lg__cancelled(fn) : st;
}
