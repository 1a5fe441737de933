/*
 * gpu_oom.h - what the GPU allocation-failure tests (test_pagerank_oom.c,
 * test_traversal_oom.c, test_power_oom.c) share: the plugin's hooks and the two contexts they
 * run on, the leak check at the end, and the sweep that fails a call's
 * allocations one at a time on fresh contexts (oom_sweep).
 */
#ifndef LG_TEST_GPU_OOM_H
#define LG_TEST_GPU_OOM_H

#include "harness.h"
#include "internal.h" /* lg__plugin_test_hooks */
#include "kernel_graphs.h"
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

/* One call of the test's algorithm on c and g: whether it gave the right
 * answer, its status in *st.  what names it in reports. */
struct oom_call {
    const char *what;
    bool (*right)(lg_context_t *c, lg_graph_t *g, const void *data, lg_status_t *st);
    const void *data;
};

/* The call with the k-th GPU allocation failing, on a fresh copy of t's
 * graph and a fresh context (made with the hook armed, so that its pinned
 * staging buffers, done without when they cannot be made, and its work
 * buffer fail in their turn): returns whether that allocation was reached.
 * A GPU context returns LG_ERR_OUT_OF_MEMORY naming GPU memory or the right
 * answer, and the next call (hook off) is right, on the GPU; an AUTO
 * context is right. */
static inline bool oom_failing_at(const struct lg_plugin_test_hooks *hooks, bool auto_ctx,
                                  const struct tgraph *t, long long k, const struct oom_call *call)
{
    const char *where = auto_ctx ? "AUTO context" : "GPU context";
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = auto_ctx ? LG_BACKEND_AUTO : LG_BACKEND_GPU;
    lg_context_t *c = NULL;
    lg_graph_t *g = tgraph_fresh_copy(t);
    hooks->fail_after(k);
    CHECK_OK(lg_context_create(&c, &co));
    if (!c) {
        hooks->fail_after(-1);
        lg_graph_free(&g);
        return false;
    }
    lg_status_t st = LG_OK;
    bool right = call->right(c, g, call->data, &st);
    const bool fired = hooks->fail_after(-1) < 0;
    const bool oom = st == LG_ERR_OUT_OF_MEMORY && strstr(lg_last_error(), "GPU memory") != NULL;
    if (!fired || auto_ctx) {
        CHECK(right);
        if (!right)
            report("%s, %s, allocation %lld %s: %s (%s)", call->what, where, k,
                   fired ? "failed" : "not reached", lg_status_string(st), lg_last_error());
    } else {
        CHECK(oom || (right && lg_last_backend() == LG_BACKEND_GPU));
        if (!(oom || right))
            report("%s, %s, allocation %lld failed: %s (%s), want LG_ERR_OUT_OF_MEMORY", call->what,
                   where, k, lg_status_string(st), lg_last_error());
        right = call->right(c, g, call->data, &st);
        const bool again = right && lg_last_backend() == LG_BACKEND_GPU;
        CHECK(again);
        if (!again)
            report("%s, %s, after allocation %lld failed: the next call gave %s (%s)", call->what,
                   where, k, lg_status_string(st), lg_last_error());
    }
    lg_graph_free(&g);
    lg_context_free(&c);
    return fired;
}

/* oom_failing_at for k = 0, 1, ... on GPU contexts until a call no longer
 * reaches k, then each such k on AUTO contexts; returns the allocations
 * failed, and the most allocations alive past a call in *most. */
static inline long long oom_sweep(const struct oom_run *r, const struct tgraph *t,
                                  const struct oom_call *call, long long *most)
{
    long long k = 0;
    for (bool fired = true; fired && k < 1000;) {
        fired = oom_failing_at(r->hooks, false, t, k, call);
        const long long extra = oom_extra(r);
        *most = extra > *most ? extra : *most;
        if (fired)
            k++;
    }
    for (long long j = 0; j < k; j++) {
        (void)oom_failing_at(r->hooks, true, t, j, call);
        const long long extra = oom_extra(r);
        *most = extra > *most ? extra : *most;
    }
    return k;
}

#endif
