/*
 * commands.c - the lgraph commands that run on a loaded graph: info (sizes
 * and degree statistics), and every algorithm's command, run through its
 * descriptor (lg_algorithm_run, libgraph.h "Algorithms as data"): the
 * algorithm runs --repeat times, each run timed; a one-line summary (and
 * --json's line, with every one-value result) is printed, and --output
 * gets one line a vertex of its per-vertex results (one line an arc, its
 * tail, head and results, for an algorithm whose results are per arc).  What a summary says
 * beyond the one-value results is written per algorithm below, where an
 * algorithm has more to say (bfs: what it reached; pagerank: the top
 * vertices; cc: the largest component); any other algorithm gets the
 * generic line.  Each returns the process's exit status: 0, 1 for a
 * failure, 2 for a bad argument, 3 when an iteration did not converge (its
 * last iterate is still printed and written).
 */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most results a command holds. */
#define MAX_RESULTS 12

/* One run's results: where lg_algorithm_run wrote each, and its shape. */
struct results {
    const lg_algorithm_info_t *alg;
    int64_t n;
    const lg_edge_t *off; /* the CSR, for per-arc results' lines */
    const lg_vertex_t *idx;
    lg_shape_t shape[MAX_RESULTS];
    void *at[MAX_RESULTS];
    union {
        int64_t i;
        double d;
        bool b;
    } scalar[MAX_RESULTS];
};

/* Result `name`'s place (NULL when the call did not make it). */
static const void *result(const struct results *r, const char *name)
{
    const int k = lg_algorithm_index(r->alg, name, true);
    return k >= 0 ? r->at[k] : NULL;
}

static int64_t result_int(const struct results *r, const char *name)
{
    const void *p = result(r, name);
    return p ? *(const int64_t *)p : 0;
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

/* ---- what a summary says beyond the generic line -------------------------------- */

static void bfs_summary(const struct session *s, const struct results *r)
{
    const int32_t *dist = result(r, "distances");
    int64_t reached = 0, depth = 0;
    for (int64_t v = 0; v < r->n; v++)
        if (dist[v] >= 0) {
            reached++;
            depth = dist[v] > depth ? dist[v] : depth;
        }
    printf("bfs from %s: reached %lld of %lld vertices, depth %lld", cli_sources_text(s->a),
           (long long)reached, (long long)r->n, (long long)depth);
}

static void bfs_json(const struct session *s, const struct results *r)
{
    (void)r;
    const int k = lg_algorithm_index(s->a->algorithm, "source", false);
    const lg_vertex_t *sources = s->a->params[k].array;
    printf(", \"sources\": [");
    for (int64_t i = 0; i < s->a->params[k].length; i++)
        printf("%s%d", i ? ", " : "", sources[i]);
    printf("]");
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

static bool single_precision(const struct session *s)
{
    return cli_param_int(s->a, "precision") == 1;
}

static void pagerank_summary(const struct session *s, const struct results *r)
{
    printf("pagerank (%s, alpha %g, tol %g): %d iterations, residual %.3g",
           single_precision(s) ? "float" : "double", cli_param_double(s->a, "alpha"),
           cli_param_double(s->a, "tol"), (int)result_int(r, "iterations"),
           *(const double *)result(r, "residual"));
}

/* The --top best vertices, best first. */
static int pagerank_details(const struct session *s, const struct results *r)
{
    const int64_t n = r->n;
    const int k = s->a->top < n ? s->a->top : (int)n;
    double *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    lg_vertex_t *best = malloc((size_t)(k ? k : 1) * sizeof *best);
    if (!x || !best) {
        free(x);
        free(best);
        fprintf(stderr, "lgraph: out of memory\n");
        return 1;
    }
    const void *scores = result(r, "scores");
    for (int64_t v = 0; v < n; v++)
        x[v] = single_precision(s) ? ((const float *)scores)[v] : ((const double *)scores)[v];
    top_k(x, n, k, best);
    for (int i = 0; i < k; i++)
        printf("  %2d. vertex %-10d %.8f\n", i + 1, best[i], x[best[i]]);
    free(x);
    free(best);
    return 0;
}

static void pagerank_json(const struct session *s, const struct results *r)
{
    (void)r;
    printf(", \"precision\": \"%s\"", single_precision(s) ? "float" : "double");
}

/* The largest component and the isolated vertices, by label. */
static void cc_sizes(const struct results *r, int64_t *largest, int64_t *singletons)
{
    const lg_vertex_t *label = result(r, "labels");
    int64_t *size = calloc((size_t)(r->n ? r->n : 1), sizeof *size);
    *largest = *singletons = -1;
    if (!size)
        return;
    *largest = *singletons = 0;
    for (int64_t v = 0; v < r->n; v++)
        size[label[v]]++;
    for (int64_t v = 0; v < r->n; v++) {
        *largest = size[v] > *largest ? size[v] : *largest;
        *singletons += size[v] == 1;
    }
    free(size);
}

static void cc_summary(const struct session *s, const struct results *r)
{
    int64_t largest, singletons;
    cc_sizes(r, &largest, &singletons);
    printf("%s components: %lld (largest %lld vertices, %lld isolated)",
           lg_graph_is_directed(s->g) ? "weakly connected" : "connected",
           (long long)result_int(r, "count"), (long long)largest, (long long)singletons);
}

static void sssp_summary(const struct session *s, const struct results *r)
{
    const double *dist = result(r, "distances");
    int64_t reached = 0;
    double farthest = 0.0;
    for (int64_t v = 0; v < r->n; v++)
        if (dist[v] < INFINITY) {
            reached++;
            farthest = dist[v] > farthest ? dist[v] : farthest;
        }
    printf("sssp from %s: reached %lld of %lld vertices, the farthest at %.17g",
           cli_sources_text(s->a), (long long)reached, (long long)r->n, farthest);
}

/* The path to t along the predecessors, source first, into a new array of
 * *len (free it); NULL when t is not reached (*len 0) or memory ran out
 * (*len -1, said). */
static lg_vertex_t *path_to(const struct results *r, lg_vertex_t t, int64_t *len)
{
    const lg_vertex_t *pred = result(r, "predecessors");
    const double *dist = result(r, "distances");
    *len = 0;
    if (!pred || t < 0 || t >= r->n || !(dist[t] < INFINITY))
        return NULL;
    lg_vertex_t *path = malloc((size_t)r->n * sizeof *path);
    if (!path) {
        fprintf(stderr, "lgraph: out of memory\n");
        *len = -1;
        return NULL;
    }
    for (lg_vertex_t v = t; *len < r->n; v = pred[v]) { /* a chain ends at a source */
        path[(*len)++] = v;
        if (pred[v] == v)
            break;
    }
    for (int64_t a = 0, b = *len - 1; a < b; a++, b--) {
        const lg_vertex_t x = path[a];
        path[a] = path[b], path[b] = x;
    }
    return path;
}

static void print_path(const lg_vertex_t *path, int64_t len)
{
    for (int64_t i = 0; i < len; i++)
        printf(" %d", (int)path[i]);
    printf("\n");
}

/* With a target and predecessors: the path to it, source first. */
static int sssp_details(const struct session *s, const struct results *r)
{
    const lg_vertex_t t = (lg_vertex_t)cli_param_int(s->a, "target");
    int64_t len;
    if (!result(r, "predecessors") || t < 0)
        return 0;
    lg_vertex_t *path = path_to(r, t, &len);
    if (!path) {
        if (len == 0)
            printf("  no path to %d\n", (int)t);
        return len < 0;
    }
    printf("  path to %d (length %.17g, %lld arcs):", (int)t,
           ((const double *)result(r, "distances"))[t], (long long)(len - 1));
    print_path(path, len);
    free(path);
    return 0;
}

/* lgraph path: the line says the path's length, the next line its vertices. */
static void path_summary(const struct session *s, const struct results *r)
{
    const lg_vertex_t t = (lg_vertex_t)cli_param_int(s->a, "target");
    const double d = ((const double *)result(r, "distances"))[t];
    printf("path from %s to %d: ", cli_sources_text(s->a), (int)t);
    if (d < INFINITY)
        printf("length %.17g", d);
    else
        printf("none (%d is not reachable)", (int)t);
}

static int path_details(const struct session *s, const struct results *r)
{
    const lg_vertex_t t = (lg_vertex_t)cli_param_int(s->a, "target");
    int64_t len;
    lg_vertex_t *path = path_to(r, t, &len);
    if (!path)
        return len < 0;
    printf("  %lld arc%s:", (long long)(len - 1), len == 2 ? "" : "s");
    print_path(path, len);
    free(path);
    return 0;
}

static void path_json(const struct session *s, const struct results *r)
{
    const lg_vertex_t t = (lg_vertex_t)cli_param_int(s->a, "target");
    const double d = ((const double *)result(r, "distances"))[t];
    int64_t len;
    lg_vertex_t *path = path_to(r, t, &len);
    if (!path) {
        printf(", \"length\": null, \"path\": null");
        return;
    }
    printf(", \"length\": %.17g, \"path\": [", d);
    for (int64_t i = 0; i < len; i++)
        printf("%s%d", i ? ", " : "", (int)path[i]);
    printf("]");
    free(path);
}

static void scc_summary(const struct session *s, const struct results *r)
{
    (void)s;
    int64_t largest, singletons;
    cc_sizes(r, &largest, &singletons);
    printf("strongly connected components: %lld (largest %lld vertices, %lld of one vertex)",
           (long long)result_int(r, "count"), (long long)largest, (long long)singletons);
}

/* The row of n rows that holds arc e: off[v] <= e < off[v + 1]. */
static int64_t arc_tail(const lg_edge_t *off, int64_t n, int64_t e)
{
    int64_t lo = 0, hi = n;
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (off[mid] <= e)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Betweenness and closeness: the most central vertex, or edge for a
 * per-arc centrality (from how many sources, when the call named some). */
static void centrality_summary(const struct session *s, const struct results *r)
{
    const double *c = result(r, "centrality");
    const int k = lg_algorithm_index(r->alg, "sources", false);
    const int64_t sources = k >= 0 ? s->a->params[k].length : 0;
    const bool arcs = r->alg->results[lg_algorithm_index(r->alg, "centrality", true)].per_arc;
    const int64_t count = arcs ? lg_graph_num_edges(s->g) : r->n;
    int64_t top = 0;
    for (int64_t i = 1; i < count; i++)
        if (c[i] > c[top] || c[top] != c[top])
            top = i;
    printf("%s", r->alg->title);
    if (sources)
        printf(" from %lld sources", (long long)sources);
    if (count && !arcs) {
        printf(": the most central vertex %lld (%.6g)", (long long)top, c[top]);
    } else if (count) {
        const lg_edge_t *off;
        const lg_vertex_t *idx;
        lg_graph_csr(s->g, &off, &idx, NULL);
        printf(": the most central edge %lld %s %d (%.6g)", (long long)arc_tail(off, r->n, top),
               lg_graph_is_directed(s->g) ? "->" : "-", (int)idx[top], c[top]);
    }
}

static void cc_json(const struct session *s, const struct results *r)
{
    (void)s;
    int64_t largest, singletons;
    cc_sizes(r, &largest, &singletons);
    printf(", \"components\": %lld, \"largest\": %lld", (long long)result_int(r, "count"),
           (long long)largest);
}

/* A command's own parts of its output, by its command (a preset's) or its
 * algorithm's name, the first match; NULL members: none. */
static const struct {
    const char *name;
    void (*summary)(const struct session *s, const struct results *r); /* the line, times after */
    int (*details)(const struct session *s, const struct results *r);  /* lines after it */
    void (*json)(const struct session *s, const struct results *r);    /* --json's fields */
} special[] = {
    {"path", path_summary, path_details, path_json},
    {"bfs", bfs_summary, NULL, bfs_json},
    {"pagerank", pagerank_summary, pagerank_details, pagerank_json},
    {"connected_components", cc_summary, NULL, cc_json},
    {"sssp", sssp_summary, sssp_details, NULL},
    {"strongly_connected_components", scc_summary, NULL, cc_json},
    {"betweenness_centrality", centrality_summary, NULL, NULL},
    {"edge_betweenness_centrality", centrality_summary, NULL, NULL},
    {"betweenness_centrality_subset", centrality_summary, NULL, NULL},
    {"closeness_centrality", centrality_summary, NULL, NULL},
};

/* ---- any algorithm ---------------------------------------------------------------- */

/* One-value result k: as JSON, or for a summary line. */
static void print_scalar(const struct results *r, int k, bool json)
{
    if (r->shape[k].type == LG_TYPE_DOUBLE)
        printf(json ? "%.17g" : "%.6g", r->scalar[k].d);
    else if (r->shape[k].type == LG_TYPE_BOOL)
        printf("%s", r->scalar[k].b ? (json ? "true" : "yes") : (json ? "false" : "no"));
    else
        printf("%lld", (long long)r->scalar[k].i);
}

static bool is_array(const lg_result_info_t *r)
{
    return r->per_vertex || r->per_arc;
}

static bool is_scalar(const struct results *r, int k)
{
    return !is_array(&r->alg->results[k]) && r->shape[k].made;
}

/* The generic summary: the command and its one-value results. */
static void generic_summary(const struct session *s, const struct results *r)
{
    (void)s;
    printf("%s:", cli_command_of(r->alg));
    for (int k = 0, first = 1; k < r->alg->num_results; k++)
        if (is_scalar(r, k)) {
            printf("%s %s ", first ? "" : ",", r->alg->results[k].name);
            print_scalar(r, k, false);
            first = 0;
        }
}

static void json_scalars(const struct results *r)
{
    for (int k = 0; k < r->alg->num_results; k++)
        if (is_scalar(r, k)) {
            printf(", \"%s\": ", r->alg->results[k].name);
            print_scalar(r, k, true);
        }
}

/* Result k's element i on f, after sep. */
static void print_element(FILE *f, const struct results *r, int k, int64_t i, const char *sep)
{
    if (r->shape[k].type == LG_TYPE_FLOAT64)
        fprintf(f, "%s%.17g", sep, ((const double *)r->at[k])[i]);
    else if (r->shape[k].type == LG_TYPE_FLOAT32)
        fprintf(f, "%s%.9g", sep, (double)((const float *)r->at[k])[i]);
    else if (r->shape[k].type == LG_TYPE_INT64)
        fprintf(f, "%s%lld", sep, (long long)((const int64_t *)r->at[k])[i]);
    else
        fprintf(f, "%s%d", sep, ((const int32_t *)r->at[k])[i]);
}

/* An --output line: the per-vertex results of vertex v, in the
 * descriptor's order, space-separated. */
static void output_line(FILE *f, int64_t v, const void *results)
{
    const struct results *r = results;
    const char *sep = "";
    for (int k = 0; k < r->alg->num_results; k++) {
        if (!r->alg->results[k].per_vertex || !r->shape[k].made)
            continue;
        print_element(f, r, k, v, sep);
        sep = " ";
    }
    fputc('\n', f);
}

/* An --output line of an algorithm whose results are per arc: arc e's tail
 * and head, then its results. */
static void arc_line(FILE *f, int64_t e, const void *results)
{
    const struct results *r = results;
    fprintf(f, "%lld %d", (long long)arc_tail(r->off, r->n, e), (int)r->idx[e]);
    for (int k = 0; k < r->alg->num_results; k++)
        if (r->alg->results[k].per_arc && r->shape[k].made)
            print_element(f, r, k, e, " ");
    fputc('\n', f);
}

/* Whether an algorithm's arrays are per arc (its --output has a line an arc). */
static bool per_arc_output(const lg_algorithm_info_t *alg)
{
    for (int k = 0; k < alg->num_results; k++)
        if (alg->results[k].per_arc)
            return true;
    return false;
}

static size_t element_size(lg_type_t t)
{
    return t == LG_TYPE_FLOAT64 || t == LG_TYPE_INT64 ? sizeof(double)
           : t == LG_TYPE_FLOAT32                     ? sizeof(float)
                                                      : sizeof(int32_t);
}

int cli_algorithm(const struct session *s)
{
    const struct args *a = s->a;
    const char *name = a->command;
    struct results r = {.alg = a->algorithm, .n = lg_graph_num_vertices(s->g)};
    double *times = malloc((size_t)a->repeat * sizeof *times);
    int rc = 0, which = -1;
    for (size_t i = 0; which < 0 && i < sizeof special / sizeof special[0]; i++)
        if (!strcmp(name, special[i].name) || !strcmp(r.alg->name, special[i].name))
            which = (int)i;
    bool ok = times != NULL && r.alg->num_results <= MAX_RESULTS &&
              lg_algorithm_shapes(r.alg, s->g, a->params, r.shape) == LG_OK;
    for (int k = 0; ok && k < r.alg->num_results; k++) {
        if (!r.shape[k].made)
            continue;
        r.at[k] = !is_array(&r.alg->results[k])
                      ? (void *)&r.scalar[k]
                      : malloc((size_t)(r.shape[k].length ? r.shape[k].length : 1) *
                               element_size(r.shape[k].type));
        ok = r.at[k] != NULL;
    }
    if (!ok) {
        fprintf(stderr, "lgraph: out of memory\n");
        rc = 1;
        goto done;
    }
    lg_run_options_t ro;
    lg_run_options_init(&ro);
    ro.progress = cli_go_on;
    lg_status_t st = LG_OK;
    for (int i = 0; i < a->repeat; i++) {
        const double t0 = cli_now();
        st = lg_algorithm_run(s->ctx, s->g, r.alg, a->params, r.at, &ro);
        times[i] = cli_now() - t0;
        if (st != LG_OK && st != LG_ERR_NOT_CONVERGED)
            break;
    }
    if (st != LG_OK && st != LG_ERR_NOT_CONVERGED) {
        rc = cli_fail(name, st);
        goto done;
    }
    (which >= 0 ? special[which].summary : generic_summary)(s, &r);
    cli_print_times(times, a->repeat);
    printf("%s\n", st == LG_OK ? "" : " -- NOT CONVERGED");
    cli_note_fallback(s, name);
    if (which >= 0 && special[which].details)
        rc = special[which].details(s, &r);
    if (st != LG_OK) {
        fprintf(stderr, "lgraph: %s: %s\n", name, lg_last_error());
        rc = 3;
    }
    if (a->json) {
        cli_json_begin(s, times, a->repeat);
        json_scalars(&r);
        if (which >= 0 && special[which].json)
            special[which].json(s, &r);
        cli_json_end();
    }
    if (a->output && per_arc_output(r.alg)) {
        lg_graph_csr(s->g, &r.off, &r.idx, NULL);
        rc |= cli_write_output(a->output, lg_graph_num_edges(s->g), arc_line, &r);
    } else if (a->output) {
        rc |= cli_write_output(a->output, r.n, output_line, &r);
    }
done:
    for (int k = 0; k < r.alg->num_results && k < MAX_RESULTS; k++)
        if (is_array(&r.alg->results[k]))
            free(r.at[k]);
    free(times);
    return rc;
}
