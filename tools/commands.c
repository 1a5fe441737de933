/*
 * commands.c - the lgraph commands that run on a loaded graph: info (sizes
 * and degree statistics), bfs (distances, and parents on request, from one
 * source or several at once), pagerank (scores and the top vertices) and cc
 * (component labels).  The last three run their algorithm --repeat times,
 * timing each run, print a one-line summary (and --json's line), and write
 * --output.  Each returns the process's exit status: 0, 1 for a failure, 2
 * for a bad argument, 3 when PageRank did not converge (its iterate is still
 * printed and written).
 */
#include "cli.h"

#include <stdlib.h>

/* --output lines: what each command says about vertex v */
struct bfs_results {
    const int32_t *dist;
    const lg_vertex_t *parents; /* NULL unless --parents */
};

static void bfs_line(FILE *f, int64_t v, const void *results)
{
    const struct bfs_results *r = results;
    if (r->parents)
        fprintf(f, "%d %d\n", r->dist[v], r->parents[v]);
    else
        fprintf(f, "%d\n", r->dist[v]);
}

static void score_line_f64(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%.17g\n", ((const double *)results)[v]);
}

static void score_line_f32(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%.9g\n", ((const double *)results)[v]);
}

static void label_line(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%d\n", ((const lg_vertex_t *)results)[v]);
}

/* One run of a command's algorithm, with what it needs behind arg. */
typedef lg_status_t (*timed_call)(const struct session *s, void *arg);

/* Runs call --repeat times, times[i] the i-th run's seconds, stopping at the
 * first status that is neither LG_OK nor `tolerated`; returns the last
 * status. */
static lg_status_t run_timed(const struct session *s, timed_call call, void *arg, double *times,
                             lg_status_t tolerated)
{
    lg_status_t st = LG_OK;
    for (int i = 0; i < s->a->repeat; i++) {
        const double t0 = cli_now();
        st = call(s, arg);
        times[i] = cli_now() - t0;
        if (st != LG_OK && st != tolerated)
            break;
    }
    return st;
}

int cli_info(const struct session *s)
{
    const lg_graph_t *g = s->g;
    const int64_t n = lg_graph_num_vertices(g);
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    lg_graph_csr(g, &off, &idx, NULL);
    int64_t max_deg = 0, isolated_out = 0, loops = 0;
    const double t0 = cli_now(); /* the statistics' pass is info's timed run */
    for (int64_t v = 0; v < n; v++) {
        int64_t d = off[v + 1] - off[v];
        max_deg = d > max_deg ? d : max_deg;
        isolated_out += d == 0;
        for (lg_edge_t e = off[v]; e < off[v + 1]; e++)
            loops += idx[e] == v;
    }
    const double seconds = cli_now() - t0;
    printf("vertices        %lld\n", (long long)n);
    printf("arcs            %lld%s\n", (long long)lg_graph_num_edges(g),
           lg_graph_is_directed(g) ? "" : " (each undirected edge twice, self-loops once)");
    printf("directed        %s\n", lg_graph_is_directed(g) ? "yes" : "no");
    printf("weighted        %s\n", lg_graph_is_weighted(g) ? "yes" : "no");
    printf("average degree  %.2f\n", n ? (double)lg_graph_num_edges(g) / (double)n : 0.0);
    printf("max out-degree  %lld\n", (long long)max_deg);
    printf("no out-edges    %lld vertices\n", (long long)isolated_out);
    printf("self-loops      %lld\n", (long long)loops);
    if (s->a->json) {
        cli_json_begin(s, &seconds, 1);
        printf(", \"weighted\": %s, \"max_out_degree\": %lld, \"no_out_edges\": %lld, "
               "\"self_loops\": %lld",
               lg_graph_is_weighted(g) ? "true" : "false", (long long)max_deg,
               (long long)isolated_out, (long long)loops);
        cli_json_end();
    }
    return 0;
}

struct bfs_call {
    const lg_vertex_t *sources;
    int64_t num_sources;
    const lg_bfs_options_t *options;
    int32_t *dist;
    lg_vertex_t *parents;
};

static lg_status_t bfs_run(const struct session *s, void *arg)
{
    const struct bfs_call *c = arg;
    return lg_bfs_multi(s->ctx, s->g, c->sources, c->num_sources, c->options, c->dist, c->parents);
}

int cli_bfs(const struct session *s)
{
    const struct args *a = s->a;
    const int64_t n = lg_graph_num_vertices(s->g);
    int32_t *dist = malloc((size_t)(n ? n : 1) * sizeof *dist);
    lg_vertex_t *par = a->parents ? malloc((size_t)(n ? n : 1) * sizeof *par) : NULL;
    double *times = malloc((size_t)a->repeat * sizeof *times);
    lg_vertex_t *sources = NULL;
    int64_t num_sources = 0;
    int rc = 0;
    if (!dist || (a->parents && !par) || !times) {
        fprintf(stderr, "lgraph: out of memory\n");
        rc = 1;
        goto done;
    }
    if (!cli_parse_sources(a->sources, &sources, &num_sources)) {
        fprintf(stderr, "lgraph: bad --source '%s' (want V or V,W,...)\n", a->sources);
        rc = 2;
        goto done;
    }
    lg_bfs_options_t o;
    cli_bfs_options(a, &o);
    o.progress = cli_go_on;
    struct bfs_call call = {sources, num_sources, &o, dist, par};
    const lg_status_t st = run_timed(s, bfs_run, &call, times, LG_OK);
    if (st != LG_OK) {
        rc = cli_fail("bfs", st);
        goto done;
    }
    int64_t reached = 0, depth = 0;
    for (int64_t v = 0; v < n; v++)
        if (dist[v] >= 0) {
            reached++;
            depth = dist[v] > depth ? dist[v] : depth;
        }
    printf("bfs from %s: reached %lld of %lld vertices, depth %lld", a->sources, (long long)reached,
           (long long)n, (long long)depth);
    cli_print_times(times, a->repeat);
    printf("\n");
    cli_note_fallback(s, "bfs");
    if (a->json) {
        cli_json_begin(s, times, a->repeat);
        printf(", \"sources\": [");
        for (int64_t i = 0; i < num_sources; i++)
            printf("%s%d", i ? ", " : "", sources[i]);
        printf("]");
        cli_json_end();
    }
    if (a->output) {
        struct bfs_results r = {dist, par};
        rc = cli_write_output(a->output, n, bfs_line, &r);
    }
done:
    free(dist);
    free(par);
    free(times);
    free(sources);
    return rc;
}

static int compare_score_desc(const void *x, const void *y, const double *s)
{
    lg_vertex_t a = *(const lg_vertex_t *)x, b = *(const lg_vertex_t *)y;
    if (s[a] != s[b])
        return s[a] > s[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* The k best vertices by score into best[0..k-1], best first (ties: the
 * smaller id): a partial selection by insertion, as k is small.  k = 0
 * (--top 0) selects none: there is no k-th best to compare with. */
static void top_k(const double *s, int64_t n, int k, lg_vertex_t *best)
{
    if (k <= 0)
        return;
    int have = 0;
    for (int64_t v = 0; v < n; v++) {
        lg_vertex_t cand = (lg_vertex_t)v;
        if (have == k && compare_score_desc(&cand, &best[k - 1], s) >= 0)
            continue;
        int i = have < k ? have++ : k - 1;
        while (i > 0 && compare_score_desc(&cand, &best[i - 1], s) < 0) {
            best[i] = best[i - 1];
            i--;
        }
        best[i] = cand;
    }
}

struct pagerank_call {
    const lg_pagerank_options_t *options;
    double *scores;
    float *scores_f32; /* non-NULL: --float */
    lg_pagerank_result_t *result;
};

static lg_status_t pagerank_run(const struct session *s, void *arg)
{
    const struct pagerank_call *c = arg;
    return c->scores_f32 ? lg_pagerank_f32(s->ctx, s->g, c->options, c->scores_f32, c->result)
                         : lg_pagerank(s->ctx, s->g, c->options, c->scores, c->result);
}

int cli_pagerank(const struct session *s)
{
    const struct args *a = s->a;
    const int64_t n = lg_graph_num_vertices(s->g);
    double *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    float *xf = a->use_float ? malloc((size_t)(n ? n : 1) * sizeof *xf) : NULL;
    double *times = malloc((size_t)a->repeat * sizeof *times);
    int k = a->top < n ? a->top : (int)n;
    lg_vertex_t *best = malloc((size_t)(k ? k : 1) * sizeof *best);
    int rc = 0;
    lg_pagerank_result_t r = {0, 0.0, false};
    lg_status_t st = LG_OK;
    if (!x || (a->use_float && !xf) || !best || !times) {
        fprintf(stderr, "lgraph: out of memory\n");
        rc = 1;
        goto done;
    }
    lg_pagerank_options_t o;
    cli_pagerank_options(a, &o);
    o.progress = cli_go_on;
    struct pagerank_call call = {&o, x, xf, &r};
    st = run_timed(s, pagerank_run, &call, times, LG_ERR_NOT_CONVERGED);
    if (st != LG_OK && st != LG_ERR_NOT_CONVERGED) {
        rc = cli_fail("pagerank", st);
        goto done;
    }
    if (a->use_float)
        for (int64_t v = 0; v < n; v++)
            x[v] = xf[v];
    printf("pagerank (%s, alpha %g, tol %g): %d iterations, residual %.3g",
           a->use_float ? "float" : "double", a->alpha, a->tol, r.iterations, r.residual);
    cli_print_times(times, a->repeat);
    printf("%s\n", st == LG_OK ? "" : " -- NOT CONVERGED");
    cli_note_fallback(s, "pagerank");
    top_k(x, n, k, best);
    for (int i = 0; i < k; i++)
        printf("  %2d. vertex %-10d %.8f\n", i + 1, best[i], x[best[i]]);
    if (st != LG_OK) {
        fprintf(stderr, "lgraph: pagerank: %s\n", lg_last_error());
        rc = 3;
    }
    if (a->json) {
        cli_json_begin(s, times, a->repeat);
        printf(", \"iterations\": %d, \"residual\": %.17g, \"converged\": %s, "
               "\"precision\": \"%s\"",
               r.iterations, r.residual, r.converged ? "true" : "false",
               a->use_float ? "float" : "double");
        cli_json_end();
    }
    if (a->output)
        rc |= cli_write_output(a->output, n, a->use_float ? score_line_f32 : score_line_f64, x);
done:
    free(x);
    free(xf);
    free(best);
    free(times);
    return rc;
}

struct cc_call {
    lg_vertex_t *labels;
    int64_t *count;
};

static lg_status_t cc_run(const struct session *s, void *arg)
{
    const struct cc_call *c = arg;
    lg_components_options_t o;
    lg_components_options_init(&o);
    o.progress = cli_go_on;
    return lg_connected_components(s->ctx, s->g, &o, c->labels, c->count);
}

int cli_cc(const struct session *s)
{
    const struct args *a = s->a;
    const int64_t n = lg_graph_num_vertices(s->g);
    lg_vertex_t *label = malloc((size_t)(n ? n : 1) * sizeof *label);
    int64_t *size = calloc((size_t)(n ? n : 1), sizeof *size);
    double *times = malloc((size_t)a->repeat * sizeof *times);
    int rc = 0;
    if (!label || !size || !times) {
        fprintf(stderr, "lgraph: out of memory\n");
        rc = 1;
        goto done;
    }
    int64_t count = 0;
    struct cc_call call = {label, &count};
    const lg_status_t st = run_timed(s, cc_run, &call, times, LG_OK);
    if (st != LG_OK) {
        rc = cli_fail("cc", st);
        goto done;
    }
    int64_t largest = 0, singletons = 0;
    for (int64_t v = 0; v < n; v++)
        size[label[v]]++;
    for (int64_t v = 0; v < n; v++) {
        largest = size[v] > largest ? size[v] : largest;
        singletons += size[v] == 1;
    }
    printf("%s components: %lld (largest %lld vertices, %lld isolated)",
           lg_graph_is_directed(s->g) ? "weakly connected" : "connected", (long long)count,
           (long long)largest, (long long)singletons);
    cli_print_times(times, a->repeat);
    printf("\n");
    cli_note_fallback(s, "cc");
    if (a->json) {
        cli_json_begin(s, times, a->repeat);
        printf(", \"components\": %lld, \"largest\": %lld", (long long)count, (long long)largest);
        cli_json_end();
    }
    if (a->output)
        rc = cli_write_output(a->output, n, label_line, label);
done:
    free(label);
    free(size);
    free(times);
    return rc;
}
