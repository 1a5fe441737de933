/*
 * test_scc.c - lg_strongly_connected_components against Kosaraju's
 * algorithm written here (two iterative depth-first passes), with contexts
 * of 1, 2 and 3 threads.
 *
 * Labels (each component's smallest vertex id) and counts exactly the
 * oracle's, on the random shapes of oracle_shapes.h directed and
 * undirected, and on shapes that reach each step of the kernel: one giant
 * component with trees hanging in and out (trimming, forward-backward),
 * long directed paths (all trimmed), a long cycle, many small cycles, a
 * chain of cycles each reaching the next (coloring rounds, then Tarjan),
 * self-loops, and ids shuffled so that no shape lines up with them.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "oracle_shapes.h"
#include "test_util.h"

static long scc_runs;

/* ---- the oracle: Kosaraju -------------------------------------------------------------- */

/* The vertices in order of finishing a depth-first search along g's arcs. */
static void finish_order(const or_graph *g, lg_vertex_t *order)
{
    const int64_t n = g->n;
    unsigned char *seen = or_alloc((size_t)n, 1);
    lg_vertex_t *stack = or_alloc((size_t)n, sizeof *stack);
    lg_edge_t *pos = or_alloc((size_t)n, sizeof *pos);
    int64_t done = 0;
    for (int64_t r = 0; r < n; r++) {
        if (seen[r])
            continue;
        int64_t top = 0;
        stack[top] = (lg_vertex_t)r;
        pos[top] = g->off[r];
        seen[r] = 1;
        while (top >= 0) {
            const lg_vertex_t v = stack[top];
            if (pos[top] < g->off[v + 1]) {
                const lg_vertex_t u = g->idx[pos[top]++];
                if (!seen[u]) {
                    seen[u] = 1;
                    stack[++top] = u;
                    pos[top] = g->off[u];
                }
            } else {
                order[done++] = v;
                top--;
            }
        }
    }
    free(seen);
    free(stack);
    free(pos);
}

/* label[v] = the smallest id of v's component; returns their number. */
static int64_t kosaraju(const or_graph *g, lg_vertex_t *label)
{
    const int64_t n = g->n;
    or_graph t;
    or_transpose(g, &t);
    lg_vertex_t *order = or_alloc((size_t)n, sizeof *order);
    lg_vertex_t *stack = or_alloc((size_t)n, sizeof *stack);
    lg_vertex_t *members = or_alloc((size_t)n, sizeof *members);
    finish_order(g, order);
    for (int64_t v = 0; v < n; v++)
        label[v] = -1;
    int64_t count = 0;
    for (int64_t i = n - 1; i >= 0; i--) {
        const lg_vertex_t r = order[i];
        if (label[r] >= 0)
            continue;
        /* every vertex reaching r not yet labelled: r's component */
        int64_t top = 0, k = 0;
        stack[top++] = r;
        label[r] = r;
        while (top > 0) {
            const lg_vertex_t v = stack[--top];
            members[k++] = v;
            for (lg_edge_t e = t.off[v]; e < t.off[v + 1]; e++)
                if (label[t.idx[e]] < 0) {
                    label[t.idx[e]] = r;
                    stack[top++] = t.idx[e];
                }
        }
        lg_vertex_t smallest = r;
        for (int64_t j = 0; j < k; j++)
            if (members[j] < smallest)
                smallest = members[j];
        for (int64_t j = 0; j < k; j++)
            label[members[j]] = smallest;
        count++;
    }
    or_graph_free(&t);
    free(order);
    free(stack);
    free(members);
    return count;
}

/* ---- the checks ------------------------------------------------------------------------ */

static void check_scc(const lg_graph_t *g, const or_graph *o)
{
    const int64_t n = o->n;
    lg_vertex_t *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    const int64_t want_count = kosaraju(o, want);
    for (int k = 0; k < NUM_CTX; k++) {
        for (int64_t v = 0; v < n; v++)
            got[v] = -7;
        int64_t count = -1;
        const lg_status_t st = lg_strongly_connected_components(ctx[k], g, NULL, got, &count);
        scc_runs++;
        CHECK(st == LG_OK);
        if (st != LG_OK) {
            report("lg_strongly_connected_components, %d threads: %s: %s", k + 1,
                   lg_status_string(st), lg_last_error());
            continue;
        }
        CHECK(or_ran_on_expected(n > 0)); /* an empty graph is answered before */
        int64_t bad = -1;
        for (int64_t v = 0; v < n && bad < 0; v++)
            if (got[v] != want[v])
                bad = v;
        CHECK(bad < 0);
        CHECK(count == want_count);
        if (bad >= 0 || count != want_count)
            report("lg_strongly_connected_components, %d threads: %lld components (want %lld); "
                   "label of %lld is %d, want %d",
                   k + 1, (long long)count, (long long)want_count, (long long)(bad < 0 ? 0 : bad),
                   bad < 0 ? 0 : (int)got[bad], bad < 0 ? 0 : (int)want[bad]);
    }
    free(want);
    free(got);
}

enum shape {
    GIANT_WITH_TREES, /* a dense giant, trees pointing into and out of it */
    PATHS,            /* long directed paths: all trimmed */
    CYCLE,            /* one long cycle */
    SMALL_CYCLES,     /* many cycles of 2-9 vertices, arcs between them */
    CHAIN_OF_CYCLES,  /* cycles each reaching the next, smallest ids first */
    SELF_LOOPS,       /* self-loops on isolated vertices and on a cycle */
    NUM_SHAPES
};

static const char *const shape_names[NUM_SHAPES] = {
    "giant with trees", "paths", "cycle", "small cycles", "chain of cycles", "self-loops"};

static void make_shape(struct elist *el, enum shape s, unsigned long long *rng, int64_t scale)
{
    const int64_t n = scale;
    el_init(el, n);
    switch (s) {
    case GIANT_WITH_TREES:
        el_random(el, 0, n / 2, 4 * (n / 2), rng);
        for (int64_t v = n / 2; v < n; v++) /* into the giant, or out of it */
            if (or_rand_below(rng, 2))
                el_add(el, v, or_rand_below(rng, v), 1.0f);
            else
                el_add(el, or_rand_below(rng, v), v, 1.0f);
        break;
    case PATHS:
        for (int64_t lo = 0; lo < n; lo += n / 4)
            el_path(el, lo, n / 4, false);
        break;
    case CYCLE:
        el_path(el, 0, n, false);
        el_add(el, n - 1, 0, 1.0f);
        break;
    case SMALL_CYCLES:
        for (int64_t lo = 0; lo < n;) {
            const int64_t len = 2 + or_rand_below(rng, 8);
            const int64_t end = lo + len < n ? lo + len : n;
            el_path(el, lo, end - lo, false);
            el_add(el, end - 1, lo, 1.0f);
            lo = end;
        }
        for (int64_t i = 0; i < n / 4; i++)
            el_add(el, or_rand_below(rng, n), or_rand_below(rng, n), 1.0f);
        break;
    case CHAIN_OF_CYCLES:
        for (int64_t lo = 0; lo + 3 <= n; lo += 3) {
            el_add(el, lo, lo + 1, 1.0f);
            el_add(el, lo + 1, lo + 2, 1.0f);
            el_add(el, lo + 2, lo, 1.0f);
            if (lo + 6 <= n)
                el_add(el, lo + 2, lo + 3, 1.0f);
        }
        return; /* ids in order: the chain's smallest first (the coloring's worst case) */
    case SELF_LOOPS:
        for (int64_t v = 0; v < n; v++)
            el_add(el, v, v, 1.0f);
        el_path(el, 0, n / 2, false);
        el_add(el, n / 2 - 1, 0, 1.0f);
        break;
    default:
        break;
    }
    el_permute(el, rng);
}

static void test_shapes(void)
{
    for (int s = 0; s < NUM_SHAPES; s++)
        for (int size = 0; size < 2; size++) {
            /* small, and past the kernels' serial limit (the coloring rounds)
             * for the shapes that reach them; a long path or cycle there
             * would cost a GPU a launch a level of its searches */
            if (size && (s == PATHS || s == CYCLE || s == SELF_LOOPS))
                continue;
            const int64_t n = size ? 100000 : 3000;
            unsigned long long rng = 7100 + 17 * (unsigned long long)s + (unsigned)size;
            struct elist el;
            make_shape(&el, (enum shape)s, &rng, n);
            set_subject("%s, %lld vertices, %lld arcs", shape_names[s], (long long)n,
                        (long long)el.E);
            struct tgraph t;
            if (tgraph_from_elist(&t, &el, true, false, s % NUM_CTX))
                check_scc(t.g, &t.o);
            tgraph_free(&t);
            el_free(&el);
        }
    for (int gi = 0; gi < 240; gi++) {
        unsigned long long seed = 7700 + (unsigned long long)gi, rng = seed * 13 + 1;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool directed = (gi / OR_NUM_SHAPES) % 4 != 0;
        set_subject("shape %s, seed %llu, %s", e.shape, seed, directed ? "directed" : "undirected");
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, false, gi % NUM_CTX))
            check_scc(t.g, &t.o);
        tgraph_free(&t);
        or_edges_free(&e);
    }
    /* a directed Kronecker graph: a giant and a crowd of small ones */
    struct tgraph t;
    set_subject("Kronecker scale 15, directed");
    if (tgraph_generate(&t, LG_GENERATOR_KRONECKER, 15, 8, 11, true, 0))
        check_scc(t.g, &t.o);
    tgraph_free(&t);
}

static void test_errors(void)
{
    lg_vertex_t labels[4];
    CHECK_STATUS(lg_strongly_connected_components(ctx[0], NULL, NULL, labels, NULL),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("graph is NULL");
    struct elist el;
    el_init(&el, 4);
    el_path(&el, 0, 4, false);
    struct tgraph t;
    if (tgraph_from_elist(&t, &el, true, false, 0)) {
        CHECK_STATUS(lg_strongly_connected_components(ctx[0], t.g, NULL, NULL, NULL),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("labels is NULL");
        int64_t count = 0;
        CHECK_OK(lg_strongly_connected_components(ctx[0], t.g, NULL, labels, &count));
        CHECK(count == 4 && labels[0] == 0 && labels[3] == 3);
    }
    tgraph_free(&t);
    el_free(&el);
}

static void print_runs(void)
{
    printf("%ld scc runs\n", scc_runs);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"scc shapes", test_shapes},
        {"scc errors", test_errors},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_runs);
}
