/*
 * gpu_oom.h - what the GPU allocation-failure tests (test_pagerank_oom.c,
 * test_traversal_oom.c, test_power_oom.c) share: the plugin's hooks and the two contexts they
 * run on, and the leak check at the end.
 */
#ifndef LG_TEST_GPU_OOM_H
#define LG_TEST_GPU_OOM_H

#include "harness.h"
#include "internal.h" /* lg__plugin_test_hooks */
#include "libgraph.h"
#include "test_util.h"

#include <string.h>

struct oom_run {
    const struct lg_plugin_test_hooks *hooks;
    lg_context_t *gpu, *automatic; /* LG_BACKEND_GPU and LG_BACKEND_AUTO */
    long long baseline;            /* live allocations before: what other sections' contexts keep */
};

/* The hooks and the contexts; false (reported) when the plugin lacks a hook
 * or a context does not open. */
static inline bool oom_start(struct oom_run *r)
{
    memset(r, 0, sizeof *r);
    r->hooks = lg__plugin_test_hooks();
    CHECK(r->hooks && r->hooks->fail_after && r->hooks->live_allocations);
    if (!r->hooks || !r->hooks->fail_after || !r->hooks->live_allocations) {
        report("the GPU plugin has no allocation-failure or live-allocation hook");
        return false;
    }
    r->baseline = r->hooks->live_allocations();
    /* AUTO contexts take the GPU at once, so that their fallback after a
     * failed GPU allocation is what runs */
    (void)lg__auto_upload_ns_override(0);
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_GPU;
    CHECK_OK(lg_context_create(&r->gpu, &co));
    co.backend = LG_BACKEND_AUTO;
    CHECK_OK(lg_context_create(&r->automatic, &co));
    if (!r->gpu || !r->automatic) {
        lg_context_free(&r->gpu);
        lg_context_free(&r->automatic);
        return false;
    }
    return true;
}

/* Allocations alive now beyond the baseline. */
static inline long long oom_extra(const struct oom_run *r)
{
    return r->hooks->live_allocations() - r->baseline;
}

/* Frees the contexts; every failure path must have given back what it had. */
static inline void oom_finish(struct oom_run *r)
{
    (void)lg__auto_upload_ns_override(-1);
    lg_context_free(&r->gpu);
    lg_context_free(&r->automatic);
    const long long left = oom_extra(r);
    CHECK(left == 0);
    if (left != 0)
        report("%lld GPU allocations leaked by the failing calls", left);
}

#endif
