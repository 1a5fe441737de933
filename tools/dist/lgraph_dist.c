/*
 * lgraph-dist - the lgraph commands across MPI ranks (libgraph_dist).
 *
 *   mpirun -np P lgraph COMMAND INPUT --distributed [options]
 *
 * lgraph hands a --distributed run to this program (it links MPI; lgraph
 * does not).  COMMAND is info, bfs, pagerank or cc.  INPUT is a generator
 * spec, which every rank generates its share of (the same graph for any P),
 * or a file, which every rank reads its part of.  Rank 0 prints; the other
 * ranks' output is discarded, and an error, the same on every rank
 * (libgraph_dist agrees on it), is printed once.  Times are the slowest
 * rank's, each run started together (a barrier).  --output gathers the
 * results to rank 0, which writes them.
 */
#include "cli.h"
#include "libgraph_dist.h"

#include <stdlib.h>
#include <string.h>

static int rank, size;
static lg_dist_context_t *dctx;

struct run {
    const struct args *a;
    lg_dist_graph_t *g;
    int threads;
    double load_s;
    double *times;
};

/* Seconds of the slowest rank. */
static double slowest(double t)
{
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

static int64_t sum64(int64_t v)
{
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return v;
}

/* The traffic line: bytes sent per rank, in all and per round. */
static void print_traffic(const lg_dist_traffic_t *t, int64_t n)
{
    const double per_rank = (double)t->total_bytes / size;
    printf("sent: %.0f bytes a rank (largest %lld), %d rounds, %.0f bytes a rank a round "
           "(%.2f x |V|)\n",
           per_rank, (long long)t->max_bytes_sent, t->rounds,
           t->rounds ? per_rank / t->rounds : 0.0,
           t->rounds && n ? per_rank / t->rounds / (double)n : 0.0);
}

/* Opens the JSON line with the fields every command has, k runs timed. */
static void json_begin(const struct run *r, const lg_dist_traffic_t *t, int k)
{
    const struct args *a = r->a;
    printf("{\"command\": \"%s\", \"input\": ", a->command);
    cli_json_string(a->input);
    printf(", \"vertices\": %lld, \"arcs\": %lld, \"directed\": %s, \"ranks\": %d, "
           "\"threads\": %d, \"device\": ",
           (long long)lg_dist_graph_num_vertices(r->g), (long long)lg_dist_graph_num_edges(r->g),
           lg_dist_graph_is_directed(r->g) ? "true" : "false", size, r->threads);
    cli_json_string(lg_dist_context_device(dctx));
    printf(", \"load_s\": %.6f, \"times_s\": [", r->load_s);
    for (int i = 0; i < k; i++)
        printf("%s%.6f", i ? ", " : "", r->times[i]);
    printf("], \"median_s\": %.6f", cli_median(r->times, k));
    if (t)
        printf(", \"bytes_total\": %lld, \"bytes_max_rank\": %lld, \"rounds\": %d",
               (long long)t->total_bytes, (long long)t->max_bytes_sent, t->rounds);
}

/* The whole result on rank 0 (elem bytes a vertex), for --output. */
static void *gather(const struct run *r, const void *local, size_t elem, lg_status_t *st)
{
    const int64_t n = lg_dist_graph_num_vertices(r->g);
    void *all = rank == 0 ? malloc((size_t)(n ? n : 1) * elem) : NULL;
    *st = lg_dist_gather(dctx, r->g, local, elem, 0, all);
    if (*st != LG_OK) {
        free(all);
        return NULL;
    }
    return all;
}

static void dist_line(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%d\n", ((const int32_t *)results)[v]);
}

static void score_line(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%.17g\n", ((const double *)results)[v]);
}

static void label_line(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%lld\n", (long long)((const int64_t *)results)[v]);
}

/* --output: gathered to rank 0 and written there; 0 or the exit status. */
static int write_output(const struct run *r, const void *local, size_t elem, cli_line_writer line)
{
    lg_status_t st;
    void *all = gather(r, local, elem, &st);
    if (st != LG_OK)
        return cli_fail("gathering the results", st);
    int rc = 0;
    if (rank == 0)
        rc = cli_write_output(r->a->output, lg_dist_graph_num_vertices(r->g), line, all);
    free(all);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

static int cmd_info(const struct run *r)
{
    int64_t first, nl, v[6];
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = cli_now(); /* the shares' reduction is info's timed run */
    lg_dist_graph_local_range(r->g, &first, &nl);
    v[0] = nl;
    v[1] = lg_dist_graph_local_edges(r->g);
    v[2] = lg_dist_graph_num_ghosts(r->g);
    for (int i = 0; i < 3; i++)
        v[3 + i] = -v[i];
    MPI_Allreduce(MPI_IN_PLACE, v, 6, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    r->times[0] = slowest(cli_now() - t0);
    printf("ranks           %d (a %d x 1 grid)\n", size, size);
    printf("vertices a rank %lld to %lld\n", (long long)-v[3], (long long)v[0]);
    printf("arcs a rank     %lld to %lld\n", (long long)-v[4], (long long)v[1]);
    printf("ghosts a rank   %lld to %lld\n", (long long)-v[5], (long long)v[2]);
    if (r->a->json) {
        json_begin(r, NULL, 1);
        printf(", \"vertices_a_rank\": [%lld, %lld], \"arcs_a_rank\": [%lld, %lld], "
               "\"ghosts_a_rank\": [%lld, %lld]}\n",
               (long long)-v[3], (long long)v[0], (long long)-v[4], (long long)v[1],
               (long long)-v[5], (long long)v[2]);
    }
    return 0;
}

static int cmd_bfs(const struct run *r)
{
    const struct args *a = r->a;
    int64_t first, nl;
    lg_dist_graph_local_range(r->g, &first, &nl);
    lg_vertex_t *s32 = NULL;
    int64_t ns = 0;
    if (!cli_parse_sources(cli_sources_text(a), &s32, &ns)) {
        fprintf(stderr, "lgraph: out of memory\n");
        return 1;
    }
    int64_t *sources = malloc((size_t)ns * sizeof *sources);
    int32_t *dist = malloc((size_t)(nl ? nl : 1) * sizeof *dist);
    const bool parents = cli_param_int(a, "parents") != 0;
    int64_t *par = parents ? malloc((size_t)(nl ? nl : 1) * sizeof *par) : NULL;
    int rc = 0;
    if (!sources || !dist || (parents && !par)) {
        fprintf(stderr, "lgraph: out of memory\n");
        rc = 1;
        goto done;
    }
    for (int64_t i = 0; i < ns; i++)
        sources[i] = s32[i];
    lg_bfs_options_t o;
    cli_bfs_options(a, &o);
    lg_dist_traffic_t t;
    lg_status_t st = LG_OK;
    for (int i = 0; i < a->repeat && st == LG_OK; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = cli_now();
        st = lg_dist_bfs(dctx, r->g, sources, ns, &o, dist, par, &t);
        r->times[i] = slowest(cli_now() - t0);
    }
    if (st != LG_OK) {
        rc = cli_fail("bfs", st);
        goto done;
    }
    /* reached vertices and the depth */
    lg_dist_graph_t *g = r->g;
    int64_t reached = 0, depth = 0;
    for (int64_t v = 0; v < nl; v++)
        if (dist[v] >= 0) {
            reached++;
            depth = dist[v] > depth ? dist[v] : depth;
        }
    reached = sum64(reached);
    MPI_Allreduce(MPI_IN_PLACE, &depth, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    printf("bfs from %s: reached %lld of %lld vertices, depth %lld", cli_sources_text(a),
           (long long)reached, (long long)lg_dist_graph_num_vertices(g), (long long)depth);
    cli_print_times(r->times, a->repeat);
    printf("\n");
    print_traffic(&t, lg_dist_graph_num_vertices(g));
    if (a->json) {
        json_begin(r, &t, a->repeat);
        printf(", \"reached\": %lld, \"depth\": %lld}\n", (long long)reached, (long long)depth);
    }
    if (a->output)
        rc = write_output(r, dist, sizeof *dist, dist_line);
done:
    free(s32);
    free(sources);
    free(dist);
    free(par);
    return rc;
}

/* The k best of this rank's scores, best first (ties: the smaller id). */
struct scored {
    double score;
    int64_t id;
};

static int better(const struct scored *x, const struct scored *y)
{
    return x->score > y->score || (x->score == y->score && x->id < y->id);
}

static int compare_scored(const void *x, const void *y)
{
    return better(x, y) ? -1 : better(y, x) ? 1 : 0;
}

static int cmd_pagerank(const struct run *r)
{
    const struct args *a = r->a;
    if (cli_param_int(a, "precision") == 1) {
        fprintf(stderr, "lgraph: pagerank --float is not available with --distributed\n");
        return 2;
    }
    int64_t first, nl;
    lg_dist_graph_local_range(r->g, &first, &nl);
    const int64_t n = lg_dist_graph_num_vertices(r->g);
    const int k = a->top < n ? a->top : (int)n; /* --top past |V|: every vertex */
    double *x = malloc((size_t)(nl ? nl : 1) * sizeof *x);
    /* every rank's k best meet on rank 0, the only rank that holds or reads them */
    struct scored *best = rank == 0 ? calloc((size_t)k * (size_t)size + 1, sizeof *best) : NULL;
    int rc = 0;
    if (!x || (rank == 0 && !best)) { /* one rank alone cannot leave: the others would wait */
        fprintf(stderr, "lgraph: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    lg_pagerank_options_t o;
    cli_pagerank_options(a, &o);
    lg_pagerank_result_t res = {0, 0.0, false};
    lg_dist_traffic_t t;
    lg_status_t st = LG_OK;
    for (int i = 0; i < a->repeat; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = cli_now();
        st = lg_dist_pagerank(dctx, r->g, &o, x, &res, &t);
        r->times[i] = slowest(cli_now() - t0);
        if (st != LG_OK && st != LG_ERR_NOT_CONVERGED)
            break;
    }
    if (st != LG_OK && st != LG_ERR_NOT_CONVERGED) {
        rc = cli_fail("pagerank", st);
        goto done;
    }
    /* each rank's k best, gathered; rank 0 keeps the k best of them */
    struct scored *mine = calloc((size_t)k + 1, sizeof *mine);
    if (!mine) {
        fprintf(stderr, "lgraph: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int have = 0;
    for (int64_t v = 0; v < nl && k > 0; v++) {
        struct scored c = {x[v], first + v};
        if (have == k && !better(&c, &mine[k - 1]))
            continue;
        int i = have < k ? have++ : k - 1;
        while (i > 0 && better(&c, &mine[i - 1])) {
            mine[i] = mine[i - 1];
            i--;
        }
        mine[i] = c;
    }
    for (int i = have; i < k; i++)
        mine[i] = (struct scored){-1.0, -1};
    if (k > 0) { /* counted in entries, not bytes: 16 k bytes may pass INT_MAX */
        MPI_Datatype entry;
        MPI_Type_contiguous((int)sizeof *mine, MPI_BYTE, &entry);
        MPI_Type_commit(&entry);
        MPI_Gather(mine, k, entry, best, k, entry, 0, MPI_COMM_WORLD);
        MPI_Type_free(&entry);
        if (rank == 0)
            qsort(best, (size_t)k * (size_t)size, sizeof *best, compare_scored);
    }
    const int64_t iters = res.iterations ? res.iterations : 1;
    printf("pagerank (double, alpha %g, tol %g): %d iterations, residual %.3g",
           cli_param_double(a, "alpha"), cli_param_double(a, "tol"), res.iterations, res.residual);
    cli_print_times(r->times, a->repeat);
    printf(", %.3f ms an iteration%s\n", 1e3 * cli_median(r->times, a->repeat) / (double)iters,
           st == LG_OK ? "" : " -- NOT CONVERGED");
    print_traffic(&t, n);
    free(mine);
    for (int i = 0; rank == 0 && i < k; i++)
        printf("  %2d. vertex %-10lld %.8f\n", i + 1, (long long)best[i].id, best[i].score);
    if (st != LG_OK) {
        fprintf(stderr, "lgraph: pagerank: %s\n", lg_last_error());
        rc = 3;
    }
    if (a->json) {
        json_begin(r, &t, a->repeat);
        printf(", \"iterations\": %d, \"residual\": %.17g, \"converged\": %s}\n", res.iterations,
               res.residual, res.converged ? "true" : "false");
    }
    if (a->output)
        rc |= write_output(r, x, sizeof *x, score_line);
done:
    free(x);
    free(best);
    return rc;
}

static int cmd_cc(const struct run *r)
{
    const struct args *a = r->a;
    int64_t first, nl, count = 0;
    lg_dist_graph_local_range(r->g, &first, &nl);
    int64_t *labels = malloc((size_t)(nl ? nl : 1) * sizeof *labels);
    if (!labels) {
        fprintf(stderr, "lgraph: out of memory\n");
        return 1;
    }
    lg_dist_traffic_t t;
    lg_status_t st = LG_OK;
    for (int i = 0; i < a->repeat && st == LG_OK; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = cli_now();
        st = lg_dist_connected_components(dctx, r->g, labels, &count, &t);
        r->times[i] = slowest(cli_now() - t0);
    }
    int rc = 0;
    if (st != LG_OK) {
        rc = cli_fail("cc", st);
    } else {
        printf("%s components: %lld",
               lg_dist_graph_is_directed(r->g) ? "weakly connected" : "connected",
               (long long)count);
        cli_print_times(r->times, a->repeat);
        printf("\n");
        print_traffic(&t, lg_dist_graph_num_vertices(r->g));
        if (a->json) {
            json_begin(r, &t, a->repeat);
            printf(", \"components\": %lld}\n", (long long)count);
        }
        if (a->output)
            rc = write_output(r, labels, sizeof *labels, label_line);
    }
    free(labels);
    return rc;
}

/* INPUT as a distributed graph; 0, or the exit status after saying why not. */
static int load(const struct args *a, lg_dist_graph_t **g, double *seconds)
{
    lg_generator_t gen;
    int scale, ef;
    bool bad;
    lg_status_t st;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = cli_now();
    if (cli_parse_spec(a->input, &gen, &scale, &ef, &bad)) {
        st = lg_dist_generate(dctx, gen, scale, ef, a->seed, NULL, g);
    } else {
        lg_dist_graph_options_t o;
        lg_dist_graph_options_init(&o);
        o.directedness = a->directedness;
        o.drop_self_loops = a->drop_self_loops;
        o.duplicates = a->merge_duplicates ? LG_DUPLICATES_LAST : LG_DUPLICATES_KEEP;
        st = lg_dist_graph_read(dctx, a->input, a->format, &o, g);
    }
    *seconds = slowest(cli_now() - t0);
    return st == LG_OK ? 0 : cli_fail_file(a->input, st, "--format");
}

int main(int argc, char **argv)
{
    cli_bounded_waits(argv); /* before MPI_Init: the exec must come first */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0) { /* one voice: every rank computes the same messages */
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    struct args a;
    int rc = cli_parse_args(argc, argv, &a);
    if (rc) {
        cli_free_args(&a);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    const char *cmd = a.command;
    if (strcmp(cmd, "info") && strcmp(cmd, "bfs") && strcmp(cmd, "pagerank") && strcmp(cmd, "cc")) {
        fprintf(stderr,
                "lgraph: %s is not available with --distributed (info, bfs, pagerank, "
                "cc are)\n",
                cmd);
        cli_free_args(&a);
        MPI_Finalize();
        return 2;
    }
    lg_dist_context_options_t co;
    lg_dist_context_options_init(&co);
    co.num_threads = a.threads;
    if (a.device.backend == LG_BACKEND_GPU) {
        co.backend = LG_BACKEND_GPU;
        co.device_id = a.device_numbered ? a.device.device_id : -1; /* gpu: the rank's own */
    }
    struct run r = {&a, NULL, 1, 0.0, NULL};
    lg_status_t st = lg_dist_context_create(MPI_COMM_WORLD, &co, &dctx);
    if (st != LG_OK) {
        rc = cli_fail("context", st);
        cli_free_args(&a);
        MPI_Finalize();
        return rc;
    }
    lg_context_get_num_threads(lg_dist_context_local(dctx), &r.threads);
    r.times = calloc((size_t)a.repeat, sizeof *r.times);
    if (!r.times) {
        fprintf(stderr, "lgraph: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if ((rc = load(&a, &r.g, &r.load_s)) == 0) {
        printf("graph %s: %lld vertices, %lld arcs, %s%s, on %d rank%s x %d thread%s\n", a.input,
               (long long)lg_dist_graph_num_vertices(r.g), (long long)lg_dist_graph_num_edges(r.g),
               lg_dist_graph_is_directed(r.g) ? "directed" : "undirected",
               lg_dist_graph_is_weighted(r.g) ? ", weighted" : "", size, size == 1 ? "" : "s",
               r.threads, r.threads == 1 ? "" : "s");
        if (co.backend == LG_BACKEND_GPU)
            printf("GPU ranks, rank 0 on %s\n", lg_dist_context_device(dctx));
        printf("made and distributed the graph in %.3f s\n", r.load_s);
        fflush(stdout);
        if (!strcmp(cmd, "info"))
            rc = cmd_info(&r);
        else if (!strcmp(cmd, "bfs"))
            rc = cmd_bfs(&r);
        else if (!strcmp(cmd, "pagerank"))
            rc = cmd_pagerank(&r);
        else
            rc = cmd_cc(&r);
    }
    lg_dist_graph_free(&r.g);
    lg_dist_context_free(&dctx);
    free(r.times);
    cli_free_args(&a);
    MPI_Finalize();
    return rc;
}
