/*
 * load.c - the lgraph tool's INPUT turned into a graph: a file in any format
 * the library reads (.mtx, .el, .wel, .lgb), built with the --directed /
 * --undirected / --drop-self-loops / --merge-duplicates options, or a
 * generator spec kron:SCALE[:EF] / urand:SCALE[:EF], generated and built
 * with the GAP benchmark's convention.  Gives two wall times, which the
 * summary line and the JSON line report apart: generating the edges (specs
 * only), and reading and building the graph.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* The moment the build's first step is reported: generation is over. */
struct generation_clock {
    double t0, generated;
};

static bool note_generated(const lg_progress_info_t *info, void *data)
{
    struct generation_clock *c = data;
    if (info->stage == LG_STAGE_BUILD && c->generated < 0.0)
        c->generated = cli_now() - c->t0;
    return cli_go_on(info, data);
}

/* Generates the graph with the GAP benchmark's convention (undirected,
 * self-loops dropped, duplicates merged) in one lg_generate, which frees its
 * edges as soon as the rows hold them; *gen_s is the part before the build's
 * first report.  0, or the exit status after saying what failed. */
static int generate(lg_context_t *ctx, const char *input, lg_generator_t gen, int scale, int ef,
                    unsigned long long seed, lg_graph_t **g, double *gen_s)
{
    struct generation_clock clock = {cli_now(), -1.0};
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    o.drop_self_loops = true;
    o.duplicates = LG_DUPLICATES_FIRST;
    o.progress = note_generated;
    o.progress_data = &clock;
    const lg_status_t st = lg_generate(ctx, gen, scale, ef, seed, &o, g);
    *gen_s = clock.generated < 0.0 ? cli_now() - clock.t0 : clock.generated;
    return st != LG_OK ? cli_fail(input, st) : 0;
}

/* Loads INPUT (a spec cli_bad_spec passed); *build_s is the time to read
 * (or generate) and build, *gen_s the part of it spent generating edges. */
int cli_load(lg_context_t *ctx, const struct args *a, lg_graph_t **g, double *build_s,
             double *gen_s)
{
    lg_graph_options_t o;
    lg_generator_t gen;
    int scale, ef, rc = 0;
    bool bad;
    double t0 = cli_now();
    *gen_s = 0.0;
    if (cli_parse_spec(a->input, &gen, &scale, &ef, &bad)) {
        rc = generate(ctx, a->input, gen, scale, ef, a->seed, g, gen_s);
    } else {
        lg_graph_options_init(&o);
        o.directedness = a->directedness;
        o.drop_self_loops = a->drop_self_loops;
        o.duplicates = a->merge_duplicates ? LG_DUPLICATES_LAST : LG_DUPLICATES_KEEP;
        o.weight_type = a->weight_type;
        o.progress = cli_go_on;
        const lg_status_t st = lg_graph_read(ctx, a->input, a->format, &o, g);
        if (st != LG_OK)
            rc = cli_fail_file(a->input, st, "--format");
    }
    *build_s = cli_now() - t0 - *gen_s;
    return rc;
}
