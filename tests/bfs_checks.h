/*
 * bfs_checks.h - how the BFS tests (test_bfs.c, test_bfs_direction.c) run a
 * search and judge it against oracle_bfs.h:
 *
 *   directions     the direction settings every search is tried under: top-down
 *                  only, the defaults, and alpha/beta pairs that go bottom-up
 *                  at once and stay, flip every level, or barely ever switch
 *   run_bfs        one lg_bfs / lg_bfs_multi call: distances equal to the
 *                  oracle's, parents passing or_check_parents_multi, run on
 *                  the CPU
 *   bfs_all_paths  every direction setting on every context for one source
 *                  set, all equal to the oracle and to each other
 *   bfs_depths     the depth limits 0, 1, 2, around the eccentricity and past
 *                  it, each the oracle's distances cut at the limit
 */
#ifndef LIBGRAPH_TEST_BFS_CHECKS_H
#define LIBGRAPH_TEST_BFS_CHECKS_H

#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <limits.h>

struct direction {
    const char *name;
    int alpha, beta;
};

static const struct direction directions[] = {
    {"top-down only", 0, 18},
    {"defaults", 15, 18},
    {"alpha 1 beta 1 (switches late, back at once)", 1, 1},
    {"alpha 1e6 beta 1e6 (bottom-up early, stays)", 1000000, 1000000},
    {"alpha 1e6 beta 1 (flips every level)", 1000000, 1},
    {"alpha 2 beta INT_MAX", 2, INT_MAX},
    {"alpha INT_MAX beta INT_MAX", INT_MAX, INT_MAX},
};
#define NUM_DIRECTIONS ((int)(sizeof directions / sizeof directions[0]))

static inline lg_bfs_options_t bfs_options(int dir, int32_t max_depth, bool parents)
{
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = parents;
    bo.max_depth = max_depth;
    bo.direction_alpha = directions[dir].alpha;
    bo.direction_beta = directions[dir].beta;
    return bo;
}

static long bfs_runs;

/* A summary line for harness_main. */
static inline void print_bfs_runs(void)
{
    printf("%ld BFS runs\n", bfs_runs);
}

/*
 * Runs one BFS from sources[0 .. ns) on context k (lg_bfs for a single odd
 * source, so both entry points are exercised) and checks it against want, the
 * oracle's distances for these sources and bo->max_depth.  got gets the
 * distances.  Returns true when everything matched.
 */
static inline bool run_bfs(const struct tgraph *t, const lg_vertex_t *sources, int64_t ns,
                           const lg_bfs_options_t *bo, int k, const int32_t *want, int32_t *got,
                           const char *what)
{
    const int64_t n = t->o.n;
    lg_vertex_t *parents = or_alloc((size_t)n, sizeof *parents);
    for (int64_t v = 0; v < n; v++)
        got[v] = -7, parents[v] = -7;
    lg_vertex_t *p_arg = bo->compute_parents ? parents : NULL;
    lg_status_t st = ns == 1 && sources[0] % 2
                         ? lg_bfs(ctx[k], t->g, sources[0], bo, got, p_arg)
                         : lg_bfs_multi(ctx[k], t->g, sources, ns, bo, got, p_arg);
    bfs_runs++;
    CHECK(or_ran_on_expected(true));
    bool ok = st == LG_OK;
    CHECK(st == LG_OK);
    char desc[320]; /* what (up to 160) and the settings */
    snprintf(desc, sizeof desc,
             "%s: %lld source(s) (first %d), max_depth %d, alpha %d beta %d, parents %d, "
             "%d threads",
             what, (long long)ns, (int)sources[0], (int)bo->max_depth, bo->direction_alpha,
             bo->direction_beta, (int)bo->compute_parents, k + 1);
    if (!ok) {
        report("%s: %s: %s", desc, lg_status_string(st), lg_last_error());
        free(parents);
        return false;
    }
    int64_t bad = -1, wrong = 0;
    for (int64_t v = 0; v < n; v++)
        if (got[v] != want[v]) {
            if (bad < 0)
                bad = v;
            wrong++;
        }
    CHECK(bad < 0);
    if (bad >= 0) {
        report("%s: distance of %lld is %d, want %d (%lld of %lld vertices wrong)", desc,
               (long long)bad, got[bad], want[bad], (long long)wrong, (long long)n);
        ok = false;
    }
    if (bo->compute_parents) {
        int64_t badp = or_check_parents_multi(&t->o, want, parents);
        CHECK(badp < 0);
        if (badp >= 0) {
            report("%s: parent of %lld is %d (distance %d, parent's %d)", desc, (long long)badp,
                   (int)parents[badp], want[badp],
                   parents[badp] >= 0 && parents[badp] < n ? want[parents[badp]] : -99);
            ok = false;
        }
    }
    free(parents);
    return ok;
}

/* The oracle's distances for one set of sources at every depth limit. */
static inline int32_t *oracle_bfs(const struct tgraph *t, const lg_vertex_t *sources, int64_t ns,
                                  int32_t max_depth)
{
    int32_t *want = or_alloc((size_t)t->o.n, sizeof *want);
    or_bfs_multi(&t->o, sources, ns, max_depth, want);
    return want;
}

static inline int32_t eccentricity(const int32_t *dist, int64_t n)
{
    int32_t e = 0;
    for (int64_t v = 0; v < n; v++)
        e = dist[v] > e ? dist[v] : e;
    return e;
}

/* Every direction setting on every context for one source set (twice on one
 * context): all equal the oracle and each other.  Parents are asked for on
 * all but one pass in three. */
static inline void bfs_all_paths(const struct tgraph *t, const lg_vertex_t *sources, int64_t ns,
                                 int32_t max_depth, const char *what)
{
    const int64_t n = t->o.n;
    int32_t *want = oracle_bfs(t, sources, ns, max_depth);
    int32_t *first = or_alloc((size_t)n, sizeof *first), *got = or_alloc((size_t)n, sizeof *got);
    bool have_first = false;
    int pass = 0;
    for (int d = 0; d < NUM_DIRECTIONS; d++)
        for (int k = 0; k < NUM_CTX; k++) {
            for (int rep = 0; rep < (k == 2 && d == 1 ? 2 : 1); rep++) {
                lg_bfs_options_t bo = bfs_options(d, max_depth, pass++ % 3 != 1);
                char label[160];
                snprintf(label, sizeof label, "%s, %s%s", what, directions[d].name,
                         rep ? ", repeated" : "");
                run_bfs(t, sources, ns, &bo, k, want, got, label);
                /* determinism: the same distances whatever the threads and path */
                if (!have_first) {
                    memcpy(first, got, (size_t)n * sizeof *got);
                    have_first = true;
                } else {
                    bool same = memcmp(first, got, (size_t)n * sizeof *got) == 0;
                    CHECK(same);
                    if (!same)
                        report("%s: distances differ from the first run's", label);
                }
            }
        }
    free(want);
    free(first);
    free(got);
}

/* The depth limits 0, 1, 2, around the eccentricity and past it: each the
 * oracle's distances cut at the limit, on a rotating direction and context. */
static inline void bfs_depths(const struct tgraph *t, const lg_vertex_t *sources, int64_t ns,
                              const char *what, unsigned long long *rng)
{
    const int64_t n = t->o.n;
    int32_t *full = oracle_bfs(t, sources, ns, -1);
    int32_t *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    const int32_t ecc = eccentricity(full, n);
    const int32_t depths[] = {0, 1, 2, 3, ecc / 2, ecc - 1, ecc, ecc + 1, INT32_MAX, -1};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        const int32_t depth = depths[i] < -1 ? 0 : depths[i];
        for (int64_t v = 0; v < n; v++)
            want[v] = depth < 0 || full[v] <= depth ? full[v] : -1;
        /* the oracle's own depth limit must agree with cutting its distances */
        int32_t *cut = oracle_bfs(t, sources, ns, depth);
        CHECK(memcmp(cut, want, (size_t)n * sizeof *cut) == 0);
        free(cut);
        int d = (int)or_rand_below(rng, NUM_DIRECTIONS), k = (int)or_rand_below(rng, NUM_CTX);
        lg_bfs_options_t bo = bfs_options(d, depth, or_rand_below(rng, 4) != 0);
        char label[160];
        snprintf(label, sizeof label, "%s, depth limit (eccentricity %d), %s", what, (int)ecc,
                 directions[d].name);
        run_bfs(t, sources, ns, &bo, k, want, got, label);
        if (depth == 0) { /* only the sources */
            bool only = true;
            for (int64_t v = 0; v < n; v++)
                only = only && (got[v] == -1 || got[v] == 0);
            for (int64_t s = 0; s < ns; s++)
                only = only && got[sources[s]] == 0;
            CHECK(only);
        }
    }
    free(full);
    free(want);
    free(got);
}

/* A random source set: count sources with repeats (the first one twice). */
static inline lg_vertex_t *random_sources(int64_t n, int64_t count, unsigned long long *rng)
{
    lg_vertex_t *s = or_alloc((size_t)count + 1, sizeof *s);
    for (int64_t i = 0; i < count; i++)
        s[i] = (lg_vertex_t)or_rand_below(rng, n);
    s[count] = s[0];
    return s;
}

#endif
