/*
 * output.c - what every lgraph command prints besides its own summary: a
 * library error as one stderr line (and its exit status), the note that an
 * algorithm fell back to the CPU, the --json line's common fields, and the
 * --output file of one line a vertex.
 */
#include "lgraph.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Says what failed and why; returns the exit status: 2 for a bad argument or
 * file, 1 for anything else. */
int cli_fail(const char *what, lg_status_t st)
{
    if (st == LG_ERR_CANCELLED) {
        fprintf(stderr, "lgraph: %s: interrupted\n", what);
        return 130; /* 128 + SIGINT, as a shell reports a process SIGINT ended */
    }
    fprintf(stderr, "lgraph: %s: %s (%s)\n", what, lg_last_error(), lg_status_string(st));
    return st == LG_ERR_INVALID_ARGUMENT || st == LG_ERR_IO ? 2 : 1;
}

/* Writes one line a vertex to path; returns 0, or 1 after saying what failed. */
int cli_write_output(const char *path, int64_t n, cli_line_writer line, const void *results)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "lgraph: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    for (int64_t v = 0; v < n; v++)
        line(f, v, results);
    if (ferror(f) | fclose(f)) {
        fprintf(stderr, "lgraph: error writing %s\n", path);
        return 1;
    }
    return 0;
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

/* Opens the JSON line with the fields every command has; the caller adds its
 * own and closes it with cli_json_end. */
void cli_json_begin(const struct session *s, const double *times, int k)
{
    printf("{\"command\": \"%s\", \"input\": \"", s->a->command);
    for (const char *c = s->a->input; *c; c++)
        printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    printf("\", \"vertices\": %lld, \"arcs\": %lld, \"directed\": %s, \"threads\": %d, "
           "\"generate_s\": %.6f, \"build_s\": %.6f, \"times_s\": [",
           (long long)lg_graph_num_vertices(s->g), (long long)lg_graph_num_edges(s->g),
           lg_graph_is_directed(s->g) ? "true" : "false", s->threads, s->gen_s, s->build_s);
    for (int i = 0; i < k; i++)
        printf("%s%.6f", i ? ", " : "", times[i]);
    printf("], \"median_s\": %.6f", cli_median(times, k));
    const char *device = "";
    lg_context_get_device(s->ctx, &device);
    printf(", \"device\": \"");
    for (const char *c = device; *c; c++)
        printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    lg_backend_t ran = lg_last_backend();
    printf("\", \"ran_on\": \"%s\", \"why\": \"%s\"",
           ran == LG_BACKEND_GPU   ? "gpu"
           : ran == LG_BACKEND_CPU ? "cpu"
                                   : "none",
           lg_last_backend_reason()); /* the library's own static text: no quotes in it */
}

/* On a GPU context (--device auto), says so when an algorithm ran on the CPU
 * instead, and the library's reason: the graph not yet worth its upload
 * (AUTO's rule), no GPU kernel for the algorithm, or the GPU out of memory. */
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
