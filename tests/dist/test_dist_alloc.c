/*
 * test_dist_alloc.c - libgraph_dist with its allocations failing, under
 * mpiexec: for k = 0, 1, ..., the k-th allocation and all after it fail --
 * on every rank, or on one rank only -- while a whole pipeline runs (a
 * context, a generated graph, a graph from uneven shares of directed
 * weighted edges, a file read in parts, BFS with parents, PageRank, CC, a
 * gather).  Each call must return LG_OK or LG_ERR_OUT_OF_MEMORY, the same
 * status and message on every rank, and no rank may hang or leak (the
 * sanitizer build runs this too); the sweep ends when the pipeline passes.
 * Built with libgraph_dist's sources and LG_DIST_FAILURE_INJECTION.
 */
#include "dist.h"
#include "test_util.h"

#include <mpi.h>

static int rank, size;
static char path[512];

/* Every rank got the same status and message: 1, else 0 (and says so). */
static int agreed(lg_status_t st, int k, const char *mode)
{
    char mine[LG_DIST_ERROR_CAPACITY], first[LG_DIST_ERROR_CAPACITY];
    snprintf(mine, sizeof mine, "%s", st == LG_OK ? "" : lg_last_error());
    memcpy(first, mine, sizeof first);
    MPI_Bcast(first, (int)sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
    int lo = (int)st, hi = (int)st;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int ok = lo == hi && strcmp(mine, first) == 0 &&
             (st == LG_OK || (st == LG_ERR_OUT_OF_MEMORY && strstr(mine, "out of memory")));
    if (!ok)
        fprintf(stderr, "rank %d, %s, k = %d: %s \"%s\" (rank 0: \"%s\", statuses %d..%d)\n", rank,
                mode, k, lg_status_string(st), mine, first, lo, hi);
    return ok;
}

#define STEP(call)                                                                                 \
    do {                                                                                           \
        lg_status_t st_ = (call);                                                                  \
        if (!agreed(st_, k, mode))                                                                 \
            *bad = 1;                                                                              \
        if (st_ != LG_OK) {                                                                        \
            st = st_;                                                                              \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

static lg_status_t pipeline(int k, const char *mode, int *bad)
{
    lg_status_t st = LG_OK;
    lg_dist_context_t *c = NULL;
    lg_dist_graph_t *g = NULL, *h = NULL, *f = NULL;
    int64_t src[40], dst[40], m = rank == 1 ? 0 : 40, labels[512], parents[512], source = 3;
    float w[40];
    int32_t dist[512];
    double x[512];
    int64_t *all = rank == 0 ? malloc(512 * sizeof *all) : NULL;
    for (int i = 0; i < 40; i++) {
        src[i] = (i * 7 + rank * 13) % 97;
        dst[i] = (i * 11 + rank * 5 + 1) % 97;
        w[i] = 1.0f + (float)(i % 3);
    }
    lg_dist_graph_options_t o;
    lg_dist_graph_options_init(&o);
    o.directedness = LG_DIRECTED;
    o.num_vertices = 100;
    STEP(lg_dist_context_create(MPI_COMM_WORLD, NULL, &c));
    STEP(lg_dist_generate(c, LG_GENERATOR_KRONECKER, 8, 8, 5, NULL, &g));
    STEP(lg_dist_graph_from_edges(c, src, dst, w, m, &o, &h));
    STEP(lg_dist_graph_read(c, path, LG_FORMAT_AUTO, NULL, &f));
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = true;
    STEP(lg_dist_bfs(c, g, &source, 1, &bo, dist, parents, NULL));
    STEP(lg_dist_bfs(c, h, &source, 1, &bo, dist, parents, NULL));
    STEP(lg_dist_pagerank(c, g, NULL, x, NULL, NULL));
    STEP(lg_dist_pagerank(c, h, NULL, x, NULL, NULL));
    STEP(lg_dist_connected_components(c, h, labels, NULL, NULL));
    STEP(lg_dist_connected_components(c, f, labels, NULL, NULL));
    STEP(lg_dist_gather(c, f, labels, sizeof *labels, 0, all));
done:
    lg_dist_graph_free(&f);
    lg_dist_graph_free(&h);
    lg_dist_graph_free(&g);
    lg_dist_context_free(&c);
    free(all);
    return st;
}

static void sweep(bool one_rank)
{
    const char *mode = one_rank ? "one rank failing" : "every rank failing";
    int k, bad = 0;
    for (k = 0; k < 5000; k++) {
        if (!one_rank || rank == k % size)
            lg__dist_fail_allocations_after(k);
        lg_status_t st = pipeline(k, mode, &bad);
        lg__dist_fail_allocations_after(-1);
        if (st == LG_OK)
            break;
    }
    CHECK(bad == 0);
    CHECK(k > 10 && k < 5000);
    if (rank == 0)
        printf("%s: %d allocation failures, each agreed\n", mode, k);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(path, sizeof path, "%s/lg_dist_alloc_%d.el", LG_TEST_TMP_DIR, size);
    if (rank == 0) {
        FILE *fp = fopen(path, "w");
        for (int i = 0; i < 300; i++)
            fprintf(fp, "%d %d\n", i % 31, (i * 7) % 29);
        fclose(fp);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    sweep(false);
    sweep(true);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        remove(path);
    long failed = tu_failed;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    int rc = rank == 0 ? tu_summary() : EXIT_SUCCESS;
    MPI_Finalize();
    return failed ? EXIT_FAILURE : rc;
}
