/*
 * lgraph - the libgraph command-line tool.
 *
 *   lgraph COMMAND INPUT [options]
 *
 * INPUT is a graph file (.mtx, .el, .wel, .lgb) or a generator spec
 * kron:SCALE[:EF] / urand:SCALE[:EF].  Every command prints a short human
 * summary with the load and run times; --output FILE writes the per-vertex
 * results, one line per vertex in id order.
 *
 * This file is main: it opens the context, loads INPUT, prints the graph's
 * summary, and hands the session to the command (commands.c: info, or the
 * command's algorithm), or writes the graph for convert and generate.  cli.h lists the other files.
 */
#include "cli.h"

#include <stdlib.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* convert / generate: writes the graph in the format --to names, else of the
 * target's extension; the write is the timed run of --json's line. */
static int convert(const struct session *s)
{
    double t0 = cli_now();
    lg_write_options_t o;
    lg_write_options_init(&o);
    o.progress = cli_go_on;
    o.plain = s->a->plain;
    lg_status_t st = lg_graph_write_with(s->ctx, s->g, s->a->target, s->a->to, &o);
    if (st != LG_OK)
        return cli_fail_file(s->a->target, st, "--to");
    const double seconds = cli_now() - t0;
    printf("wrote %s in %.3f s\n", s->a->target, seconds);
    if (s->a->json) {
        cli_json_begin(s, &seconds, 1);
        printf(", \"output\": ");
        cli_json_string(s->a->target);
        cli_json_end();
    }
    return 0;
}

#ifdef LGRAPH_FAILURE_INJECTION
/* The test build (tests/CMakeLists.txt, lgraph_fail_inject, linked with the
 * static library): LGRAPH_FAIL_AFTER=k makes the library's allocations fail
 * after k succeed, so the CLI's handling of each failure can be swept. */
long lg__alloc_fail_after(long n);
#endif

/* The rank an MPI launcher gave this process (Open MPI's, PMIx's or PMI's
 * variable), or 0 outside one. */
static int launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return atoi(v);
    }
    return 0;
}

/* --distributed: the run is lgraph-dist's, the program beside this one
 * (it links MPI, which lgraph does not); returns only on failure, which
 * rank 0 alone reports (every rank fails alike). */
static int run_distributed(char **argv)
{
    if (launcher_rank() != 0 && !freopen("/dev/null", "w", stderr))
        return 2;
    char self[4096], path[4200];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        fprintf(stderr, "lgraph: --distributed: cannot find lgraph's own path: %s\n",
                strerror(errno));
        return 1;
    }
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(path, sizeof path, "%s/lgraph-dist", self);
    execv(path, argv);
    if (errno == ENOENT)
        fprintf(stderr,
                "lgraph: --distributed needs %s, which is built with libgraph_dist when MPI is "
                "found (docs/DISTRIBUTED.md)\n",
                path);
    else
        fprintf(stderr, "lgraph: --distributed: cannot run %s: %s\n", path, strerror(errno));
    return 2;
}

int main(int argc, char **argv)
{
    struct args a;
    lg_context_t *ctx = NULL;
    lg_graph_t *g = NULL;
    cli_bounded_waits(argv);
    /* a command line with --distributed is lgraph-dist's to parse, so that a
     * usage error under mpirun is reported once (rank 0's), not by every rank */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--distributed"))
            return run_distributed(argv);
    int rc = cli_parse_args(argc, argv, &a);
    if (rc) {
        cli_free_args(&a);
        return rc == 1 ? 0 : 2;
    }
    cli_catch_interrupts();
#ifdef LGRAPH_FAILURE_INJECTION
    const char *fail_after = getenv("LGRAPH_FAIL_AFTER");
    if (fail_after)
        lg__alloc_fail_after(atol(fail_after));
#endif

    lg_context_options_t co = a.device;
    co.num_threads = a.threads;
    lg_status_t st = lg_context_create(&ctx, &co);
    if (st != LG_OK) {
        cli_free_args(&a);
        return cli_fail("context", st);
    }
    lg_backend_t used;
    struct session s = {ctx, NULL, &a, 1, 0.0, 0.0};
    lg_context_get_backend(ctx, &used);
    lg_context_get_num_threads(ctx, &s.threads);

    if ((rc = cli_load(ctx, &a, &g, &s.build_s, &s.gen_s)) != 0)
        goto done;
    s.g = g;
    const char *device = "?";
    lg_context_get_device(ctx, &device);
    printf("graph %s: %lld vertices, %lld arcs, %s%s, on %s", a.input,
           (long long)lg_graph_num_vertices(g), (long long)lg_graph_num_edges(g),
           lg_graph_is_directed(g) ? "directed" : "undirected",
           !lg_graph_is_weighted(g)                          ? ""
           : lg_graph_weight_type(g) == LG_WEIGHTS_FLOAT64 ? ", weighted (float64)"
                                                           : ", weighted",
           device);
    if (used == LG_BACKEND_GPU) /* for what runs on the CPU (see cli_note_fallback) */
        printf(" + cpu (%d thread%s)", s.threads, s.threads == 1 ? "" : "s");
    printf("\n");
    if (s.gen_s > 0.0)
        printf("generated edges in %.3f s, built the graph in %.3f s\n", s.gen_s, s.build_s);
    else
        printf("read and built the graph in %.3f s\n", s.build_s);
    fflush(stdout); /* a long command's reader (a pipe) sees the graph before the results */

    if (!strcmp(a.command, "info"))
        rc = cli_info(&s);
    else if (a.algorithm)
        rc = cli_algorithm(&s);
    else
        rc = convert(&s);
done:
    lg_graph_free(&g);
    lg_context_free(&ctx);
    cli_free_args(&a);
    return rc;
}
