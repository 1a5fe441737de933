/*
 * cli.h - what the files of the lgraph command-line tool share: the parsed
 * options (struct args), the open graph and its load times (struct session),
 * and the functions one file provides to another.
 *
 *   lgraph.c     main: open the context, load INPUT, print its summary, dispatch
 *   args.c       option parsing, the help texts, generator specs (kron:, urand:)
 *   load.c       INPUT to a graph: a file, or a kron:/urand: generator spec
 *   commands.c   the commands info, bfs, pagerank and cc
 *   output.c     what every command prints: errors, the JSON line, --output files
 *   interrupt.c  Ctrl-C: the SIGINT handler and the progress callback
 *   waits.c      OpenMP's idle waits bounded (the process re-executed once)
 *   dist/lgraph_dist.c   `lgraph ... --distributed` under mpirun: the same
 *                commands on libgraph_dist (a program of its own, as it
 *                links MPI; it shares args.c, load.c and output.c)
 *
 * The tool's own shared functions take the cli_ prefix, so they are never
 * mistaken for the library's lg_ API or its lg__ internals.
 */
#ifndef LIBGRAPH_CLI_H
#define LIBGRAPH_CLI_H

#define _XOPEN_SOURCE 700 /* POSIX 2008 and realpath */
#include "libgraph.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct args {
    const char *command;
    const char *input;
    const char *target;          /* convert / generate: the output file */
    const char *output;          /* --output */
    lg_file_format_t format;     /* --format: INPUT's; AUTO = by its extension */
    lg_file_format_t to;         /* --to: OUTFILE's; AUTO = by its extension */
    lg_context_options_t device; /* --device: backend and device_id */
    bool device_numbered;        /* --device gpu:N (not plain gpu) */
    int threads;
    const char *sources; /* --source: one id, or a comma-separated list */
    int repeat;          /* --repeat R: R timed runs (all algorithms) */
    int max_depth;
    int do_alpha, do_beta; /* BFS direction-switch tuning, -1 = library default */
    bool json;
    bool parents;
    bool use_float;
    bool unweighted;
    int top;
    double alpha, tol;
    int max_iter;
    unsigned long long seed;
    lg_directedness_t directedness;
    bool drop_self_loops;
    bool merge_duplicates;
    bool plain;       /* convert / generate --plain: an edge list without its header line */
    bool distributed; /* --distributed: lgraph hands the run to lgraph-dist */
};

/* What every command shares: the context, the graph, the options, and the
 * load figures the JSON line reports. */
struct session {
    lg_context_t *ctx;
    const lg_graph_t *g;
    const struct args *a;
    int threads;
    double build_s, gen_s;
};

/* Seconds on a monotonic clock. */
static inline double cli_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* waits.c */
/* Built with LLVM's libomp, starts the tool again with its spin set to
 * 10 ms unless the user chose how OpenMP's threads wait; returns where it
 * does not. */
void cli_bounded_waits(char **argv);

/* args.c */
int cli_parse_args(int argc, char **argv, struct args *a);
bool cli_parse_sources(const char *list, lg_vertex_t **out, int64_t *count);
/* The library's options for what the command line asked (no progress callback). */
void cli_bfs_options(const struct args *a, lg_bfs_options_t *o);
void cli_pagerank_options(const struct args *a, lg_pagerank_options_t *o);

/* Parses "kron:SCALE[:EF]" / "urand:SCALE[:EF]"; false when input is not a
 * spec, *bad when it is one with a bad number. */
bool cli_parse_spec(const char *input, lg_generator_t *gen, int *scale, int *ef, bool *bad);
/* Whether input is a spec with a bad number, said on stderr. */
bool cli_bad_spec(const char *input);

/* load.c: INPUT as a graph; 0, or the exit status after saying what failed */
int cli_load(lg_context_t *ctx, const struct args *a, lg_graph_t **g, double *build_s,
             double *gen_s);

/* commands.c */
int cli_info(const struct session *s);
int cli_bfs(const struct session *s);
int cli_pagerank(const struct session *s);
int cli_cc(const struct session *s);

/* interrupt.c: the first SIGINT stops the running libgraph call at its next step
 * (every long call is given cli_go_on as its progress callback), and lgraph
 * exits with 130 after freeing what it holds; a second one ends the process
 * at once.  A SIGINT ignored when lgraph starts (a background job) stays
 * ignored. */
void cli_catch_interrupts(void);
bool cli_go_on(const lg_progress_info_t *info, void *data);

/* output.c; a cli_line_writer writes what one line of --output says about vertex v */
typedef void (*cli_line_writer)(FILE *f, int64_t v, const void *results);
/* Says what failed and returns the exit status: 2 for bad input, 130 for an
 * interrupted call, else 1. */
int cli_fail(const char *what, lg_status_t st);
/* cli_fail for reading or writing path, except that a name whose extension
 * does not say the format gets the hint to name it with format_option
 * (--format, --to) and exit status 2. */
int cli_fail_file(const char *path, lg_status_t st, const char *format_option);
double cli_median(const double *t, int k);
/* ", T ms" of the summary line for k timed runs (seconds in t[0..k-1]): the
 * median when k > 1, the first run then shown apart. */
void cli_print_times(const double *t, int k);
/* s as a JSON string, quotes included. */
void cli_json_string(const char *s);
void cli_json_begin(const struct session *s, const double *times, int k);
void cli_json_end(void);
void cli_note_fallback(const struct session *s, const char *what);
int cli_write_output(const char *path, int64_t n, cli_line_writer line, const void *results);

#endif
