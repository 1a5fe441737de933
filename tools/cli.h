/*
 * cli.h - what the files of the lgraph command-line tool share: the parsed
 * options (struct args), the open graph and its load times (struct session),
 * and the functions one file provides to another.
 *
 *   lgraph.c     main: open the context, load INPUT, print its summary, dispatch
 *   args.c       option parsing, the help texts (an algorithm's made from its
 *                descriptor), generator specs (kron:, urand:)
 *   names.c      the commands' and options' names for the algorithms' descriptors
 *   help.c       the help texts, an algorithm's made from its descriptor
 *   load.c       INPUT to a graph: a file, or a kron:/urand: generator spec
 *   commands.c   info, and every algorithm's command: run by its descriptor,
 *                with the summary lines of bfs, pagerank and cc
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

/* The most parameters an algorithm's command holds (checked when parsed). */
#define CLI_MAX_PARAMS 24

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
    int repeat;          /* --repeat R: R timed runs (all algorithms) */
    bool json;
    int top; /* pagerank --top K: the K best vertices printed */
    unsigned long long seed;
    /* An algorithm's command: its descriptor, and its parameters, each the
     * option given or its default (args.c says how the options are named) */
    const lg_algorithm_info_t *algorithm;
    lg_value_t params[CLI_MAX_PARAMS];
    const char *param_text[CLI_MAX_PARAMS]; /* as given, NULL if not */
    lg_vertex_t *vertices[CLI_MAX_PARAMS];  /* a vertices option's ids (cli_free_args) */
    lg_directedness_t directedness;
    bool drop_self_loops;
    bool merge_duplicates;
    lg_weight_type_t weight_type; /* --weights: NONE (the file's), FLOAT32 or FLOAT64 */
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
void cli_free_args(struct args *a);
bool cli_parse_sources(const char *list, lg_vertex_t **out, int64_t *count);
/* The value of the command's parameter `name` (an int, flag or choice's
 * index; a double), as given or by default. */
int64_t cli_param_int(const struct args *a, const char *name);
double cli_param_double(const struct args *a, const char *name);
/* The text of --source as given, or "0" (the command line's default source). */
const char *cli_sources_text(const struct args *a);
/* The library's options for what the command line asked (no progress
 * callback): lgraph-dist's calls, which take the typed options. */
void cli_bfs_options(const struct args *a, lg_bfs_options_t *o);
void cli_pagerank_options(const struct args *a, lg_pagerank_options_t *o);

/* Parses "kron:SCALE[:EF]" / "urand:SCALE[:EF]"; false when input is not a
 * spec, *bad when it is one with a bad number. */
bool cli_parse_spec(const char *input, lg_generator_t *gen, int *scale, int *ef, bool *bad);
/* Whether input is a spec with a bad number, said on stderr. */
bool cli_bad_spec(const char *input);

/* help.c: the main help (command NULL or unknown) or a command's */
void cli_print_usage(FILE *f, const char *command);
bool cli_command_known(const char *command);

/* names.c: the command line's names for the algorithms and their parameters */
/* A command that runs an algorithm with its flag parameter `flag` set and
 * its parameter `needs` required; summary as a descriptor's. */
struct cli_preset {
    const char *command, *algorithm, *flag, *needs, *summary;
};
/* The preset that command names, or NULL; the i-th preset, or NULL past
 * the last. */
const struct cli_preset *cli_preset_of(const char *command);
const struct cli_preset *cli_preset_at(int i);
/* The algorithm a command runs, or NULL. */
const lg_algorithm_info_t *cli_algorithm_of(const char *command);
/* The command that runs algorithm a. */
const char *cli_command_of(const lg_algorithm_info_t *a);
/* The parameter (of any algorithm) that option sets, or NULL; *value is
 * the value the option sets by itself (a flag's "1" or "0", an alias's), or
 * NULL when it takes the next argument. */
const lg_param_info_t *cli_option_param(const char *option, const char **value);
/* Parameter p's option ("--max-depth", "--no-use-weights") into buf. */
void cli_option_of(const lg_param_info_t *p, char *buf, size_t size);
/* "; also --do-alpha"-style notes of p's older spellings, for --help. */
void cli_print_aliases(FILE *f, const lg_param_info_t *p);

/* load.c: INPUT as a graph; 0, or the exit status after saying what failed */
int cli_load(lg_context_t *ctx, const struct args *a, lg_graph_t **g, double *build_s,
             double *gen_s);

/* commands.c: info, and any algorithm's command by its descriptor */
int cli_info(const struct session *s);
int cli_algorithm(const struct session *s);

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
