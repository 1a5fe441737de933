/*
 * test_plugin.c - how the core finds and loads its GPU plugin, against a fake
 * plugin (plugin_util.h) and the messages include/libgraph.h documents.  Each
 * scenario runs in a process of its own:
 *
 *   no_plugin       nothing to find: GPU contexts fail with LG_ERR_DEVICE
 *                   naming where the core looked, AUTO quietly gives the CPU;
 *                   a call that fails on its arguments ran nowhere
 *   path_entries    a missing entry, a file that is no shared library and a
 *                   library without the entry point: each named with its reason
 *   abi_mismatch,   the plugin loads but refuses, or speaks another ABI:
 *   entry_fails     LG_ERR_DEVICE with the reason; AUTO gives the CPU
 *   no_device       the plugin's open fails: its own message; AUTO -> CPU
 *   search_order    a bad candidate is skipped; a directory entry is searched
 *                   for libgraph_cuda.so
 *   fifo_entries    a FIFO named on the path, and one in a searched directory
 *                   under the plugin's name: refused at once as not regular
 *                   files (dlopen would wait for a writer), the next entry used
 *
 * `test_plugin NAME` runs one scenario in this process (for debugging).
 */
#define _GNU_SOURCE /* RTLD_NOLOAD, setenv */

#include "libgraph.h"
#include "plugin_util.h"
#include "test_util.h"

#include <sys/stat.h>

/* ---- scenarios ------------------------------------------------------------------------ */

static void no_plugin(void)
{
    CHECK(lg_last_backend() == LG_BACKEND_AUTO); /* before any call */
    set_sentinel();
    const char *info = lg_build_info();
    CHECK_SENTINEL(); /* looking for the plugin leaves the message alone */
    CHECK_CONTAINS(info, "no GPU plugin found");
    CHECK_CONTAINS(info, "libgraph_cuda.so, libgraph_hip.so in " LG_TEST_BIN_DIR " and");
    CHECK_CONTAINS(info, PLUGIN_PATH_ENV " (unset)");

    for (int round = 0; round < 2; round++) { /* the outcome is settled once */
        check_gpu_refused("lg_context_create: no GPU plugin found: looked for libgraph_cuda.so, "
                          "libgraph_hip.so in " LG_TEST_BIN_DIR " and in " PLUGIN_PATH_ENV
                          " (unset)");
    }
    check_auto_falls_back();

    lg_context_t *ctx = NULL;
    CHECK_OK(open_context(LG_BACKEND_CPU, 0, 1, NULL, &ctx));
    CHECK(strcmp(device_of(ctx), "cpu (1 thread)") == 0);
    const char *d = "untouched";
    CHECK_STATUS(lg_context_get_device(NULL, &d), LG_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(d, "untouched") == 0);
    CHECK_STATUS(lg_context_get_device(ctx, NULL), LG_ERR_INVALID_ARGUMENT);

    /* a call that fails on its arguments ran nowhere */
    lg_graph_t *g = test_graph();
    int32_t dist[N];
    CHECK_OK(lg_bfs(ctx, g, 0, NULL, dist, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    CHECK_STATUS(lg_bfs(ctx, g, N, NULL, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(lg_last_backend() == LG_BACKEND_AUTO);
    CHECK_OK(lg_connected_components(NULL, g, NULL, (lg_vertex_t *)dist, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU); /* a NULL context is the CPU */
    lg_graph_free(&g);
    lg_context_free(&ctx);
}

static void path_entries(void)
{
    check_gpu_refused("lg_context_create: no usable GPU plugin: /nonexistent/libgraph: no such "
                      "file or directory; " LG_TEST_DATA_DIR "/README.md: ");
    CHECK_MESSAGE(LG_FAKE_NO_ENTRY ": not a libgraph plugin (no symbol lg_plugin_entry)");
    CHECK_MESSAGE("in " PLUGIN_PATH_ENV " (= /nonexistent/libgraph:");
    CHECK_CONTAINS(lg_build_info(), "no usable GPU plugin: /nonexistent/libgraph");
    check_auto_falls_back();
}

static void abi_mismatch(void)
{
    char want[256];
    snprintf(want, sizeof want, "%s: plugin ABI version 99, this libgraph needs %d", LG_FAKE_PLUGIN,
             LG_PLUGIN_ABI_VERSION);
    check_gpu_refused(want);
    check_gpu_refused("plugin ABI version 99");
    check_auto_falls_back();
    CHECK(atomic_load(&stats()->entries) == 1); /* loaded once, and kept */
    CHECK(atomic_load(&stats()->opens) == 0);
}

static void two_rows(void)
{
    check_gpu_refused(LG_FAKE_PLUGIN ": the plugin lists two kernels for algorithm 1 (pagerank)");
    check_auto_falls_back();
    CHECK(atomic_load(&stats()->opens) == 0);
}

static void entry_fails(void)
{
    check_gpu_refused(LG_FAKE_PLUGIN ": the plugin failed to start: fake: CUDA driver version "
                                     "is insufficient (LG_ERR_DEVICE)");
    check_auto_falls_back();
    CHECK(atomic_load(&stats()->entries) == 1);
}

static void no_device(void)
{
    check_gpu_refused("lg_context_create: fake plugin, GPU 0: fake: no CUDA-capable device is "
                      "detected; to run on the CPU, ask for device \"cpu\", or \"auto\", which "
                      "uses a GPU only where one answers");
    check_auto_falls_back();
    CHECK(atomic_load(&stats()->opens) == 0 && atomic_load(&stats()->closes) == 0);
    CHECK_CONTAINS(lg_build_info(), "GPU plugin: " LG_FAKE_PLUGIN); /* found, but no device */
}

static void search_order(void)
{
    lg_context_t *ctx = NULL;
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 0, NULL, &ctx));
    CHECK(ctx && backend_of(ctx) == LG_BACKEND_GPU);
    CHECK_CONTAINS(lg_build_info(), "GPU plugin: " LG_FAKE_PLUGIN_DIR "/libgraph_cuda.so");
    lg_context_free(&ctx);
}
#define FIFO_PLUGIN LG_TEST_TMP_DIR "/fifo-plugin.so"
#define FIFO_DIR LG_TEST_TMP_DIR "/fifo-plugin-dir"

static void fifo_entries(void)
{
    alarm(60); /* a blocking dlopen fails the scenario instead of hanging it */
    lg_context_t *ctx = NULL;
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 0, NULL, &ctx));
    CHECK(ctx && backend_of(ctx) == LG_BACKEND_GPU);
    CHECK_CONTAINS(lg_build_info(), "GPU plugin: " LG_FAKE_PLUGIN);
    lg_context_free(&ctx);
    alarm(0);
}

static void fifo_only(void)
{
    alarm(60);
    check_gpu_refused("lg_context_create: no usable GPU plugin: " FIFO_PLUGIN
                      ": not a regular file; " FIFO_DIR "/libgraph_cuda.so: not a regular file");
    check_auto_falls_back();
    alarm(0);
}

/* The FIFOs fifo_entries meets (made again each run). */
static void make_fifos(void)
{
    unlink(FIFO_PLUGIN);
    unlink(FIFO_DIR "/libgraph_cuda.so");
    mkdir(FIFO_DIR, 0700);
    CHECK(mkfifo(FIFO_PLUGIN, 0600) == 0 && mkfifo(FIFO_DIR "/libgraph_cuda.so", 0600) == 0);
}

static const struct scenario scenarios[] = {
    {"no_plugin", NULL, NULL, no_plugin},
    {"path_entries", "/nonexistent/libgraph:" LG_TEST_DATA_DIR "/README.md::" LG_FAKE_NO_ENTRY,
     "ok", path_entries},
    {"abi_mismatch", LG_FAKE_PLUGIN, "abi-mismatch", abi_mismatch},
    {"two_rows", LG_FAKE_PLUGIN, "two-rows", two_rows},
    {"entry_fails", LG_FAKE_PLUGIN, "entry-fails", entry_fails},
    {"no_device", LG_FAKE_PLUGIN, "no-device", no_device},
    {"search_order", LG_FAKE_NO_ENTRY ":" LG_FAKE_PLUGIN_DIR, "ok", search_order},
    {"fifo_entries", FIFO_PLUGIN ":" FIFO_DIR ":" LG_FAKE_PLUGIN, "ok", fifo_entries},
    {"fifo_only", FIFO_PLUGIN ":" FIFO_DIR, "ok", fifo_only},
};

int main(int argc, char **argv)
{
    make_fifos();
    return plugin_main(argc, argv, scenarios, sizeof scenarios / sizeof scenarios[0]);
}
