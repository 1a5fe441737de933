/*
 * load.c - the lgraph tool's INPUT turned into a graph: a file in any format
 * the library reads (.mtx, .el, .wel, .lgb), built with the --directed /
 * --undirected / --drop-self-loops / --merge-duplicates options, or a
 * generator spec kron:SCALE[:EF] / urand:SCALE[:EF], generated and built
 * with the GAP benchmark's convention.  Gives two wall times, which the
 * summary line and the JSON line report apart: generating the edges (specs
 * only), and reading and building the graph.
 */
#include "lgraph.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_EDGE_FACTOR 16

/* Parses "kron:SCALE[:EF]" / "urand:SCALE[:EF]"; false when INPUT is not a spec. */
static bool parse_spec(const char *input, lg_generator_t *gen, int *scale, int *ef, bool *bad)
{
    const char *rest;
    *bad = false;
    if (!strncmp(input, "kron:", 5)) {
        *gen = LG_GENERATOR_KRONECKER;
        rest = input + 5;
    } else if (!strncmp(input, "urand:", 6)) {
        *gen = LG_GENERATOR_URAND;
        rest = input + 6;
    } else {
        return false;
    }
    char *end;
    long s = strtol(rest, &end, 10), e = DEFAULT_EDGE_FACTOR;
    if (*end == ':')
        e = strtol(end + 1, &end, 10);
    if (end == rest || *end || s < 1 || s > 30 || e < 1 || e > 1 << 20)
        *bad = true;
    *scale = (int)s;
    *ef = (int)e;
    return true;
}

/* Generates the edges and builds the graph as two timed steps, with the GAP
 * benchmark's convention: undirected, self-loops dropped, duplicates merged. */
static lg_status_t generate(lg_context_t *ctx, lg_generator_t gen, int scale, int ef,
                            unsigned long long seed, lg_graph_t **g, double *gen_s)
{
    const int64_t E = (int64_t)ef << scale;
    lg_vertex_t *src = malloc((size_t)E * sizeof *src), *dst = malloc((size_t)E * sizeof *dst);
    lg_status_t st = LG_ERR_OUT_OF_MEMORY;
    if (!src || !dst) {
        fprintf(stderr, "lgraph: out of memory for %lld generated edges\n", (long long)E);
        goto done;
    }
    double t0 = cli_now();
    st = lg_generate_edges(ctx, gen, scale, ef, seed, src, dst);
    *gen_s = cli_now() - t0;
    if (st != LG_OK)
        goto done;
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    o.drop_self_loops = true;
    o.duplicates = LG_DUPLICATES_FIRST;
    o.progress = cli_go_on;
    st = lg_graph_from_edges(ctx, (int64_t)1 << scale, E, src, dst, NULL, &o, g);
done:
    free(src);
    free(dst);
    return st;
}

/* Loads INPUT; *build_s is the time to read (or generate) and build, *gen_s
 * the part of it spent generating edges. */
lg_status_t cli_load(lg_context_t *ctx, const struct args *a, lg_graph_t **g, double *build_s,
                     double *gen_s)
{
    lg_graph_options_t o;
    lg_generator_t gen;
    int scale, ef;
    bool bad;
    double t0 = cli_now();
    lg_status_t st;
    *gen_s = 0.0;
    if (parse_spec(a->input, &gen, &scale, &ef, &bad)) {
        if (bad) {
            fprintf(stderr, "lgraph: bad generator spec '%s' (want kron:SCALE[:EF], SCALE 1..30)\n",
                    a->input);
            return LG_ERR_INVALID_ARGUMENT;
        }
        st = generate(ctx, gen, scale, ef, a->seed, g, gen_s);
    } else {
        lg_graph_options_init(&o);
        o.directedness = a->directedness;
        o.drop_self_loops = a->drop_self_loops;
        o.duplicates = a->merge_duplicates ? LG_DUPLICATES_LAST : LG_DUPLICATES_KEEP;
        o.progress = cli_go_on;
        st = lg_graph_read(ctx, a->input, LG_FORMAT_AUTO, &o, g);
    }
    *build_s = cli_now() - t0 - *gen_s;
    return st;
}
