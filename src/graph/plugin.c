/*
 * plugin.c - finding and loading the GPU plugin (the ABI is src/graph/plugin.h).
 *
 * The first GPU or AUTO context (or lg_build_info) loads the plugin, once per
 * process: libgraph_cuda.so, then libgraph_hip.so, in the directory of the
 * module that holds this code (libgraph.so's, or the executable's when
 * libgraph is linked statically), then in each LIBGRAPH_PLUGIN_PATH entry
 * (modules.h has the search, which libgraph_dist's GPU module shares).  A
 * candidate must export LG_PLUGIN_ENTRY, the entry must accept our host
 * table and return LG_OK with a table of the same ABI version that has open,
 * close and graph_free, and its kernel rows must be well formed.  The first
 * that does wins.  When none does, every later call gets one message saying
 * where we looked and what was wrong with each file found.
 *
 * Why the outcome is fixed for the process: loading runs the plugin's
 * initialisers (a GPU runtime's among them); doing that again on every
 * context would cost more than it could find.  Why a plugin that has run is
 * never unloaded: device copies of graphs may outlive every context and are
 * freed through the plugin (lg_graph_free), and a GPU runtime registers
 * handlers at load that must not outlive its code.  Only a file whose entry
 * never ran (no entry symbol) is closed again.
 */
#include "internal.h"
#include "modules.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static const char *const plugin_names[] = {"libgraph_cuda.so", "libgraph_hip.so"};

/* host.parallel: a loop over the OpenMP team (kept between regions, so a
 * copy does not pay for starting threads). */
static void host_parallel(int64_t count, int threads, void (*fn)(void *arg, int64_t i), void *arg)
{
    if (count < 1)
        return;
    if (threads < 1)
        threads = 1;
    if (threads > count)
        threads = (int)count;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int64_t i = 0; i < count; i++)
        fn(arg, i);
}

static const struct lg_plugin_host host = {
    LG_PLUGIN_ABI_VERSION, lg__error, lg__malloc, lg__free, host_parallel,
};

/* What loading found; written once, under load_once, read-only after.  The
 * search (static rather than on the stack of whichever thread loads: 8 KiB)
 * holds the plugin's path; problem says why there is none (the message a
 * user sees is cut to LG_ERROR_CAPACITY: the failures come first so that
 * they survive). */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct lg_module_search search;
static const struct lg_plugin *loaded;
static void *loaded_handle;
static char problem[2 * LG_MODULE_REPORT_CAPACITY + 64];
static const struct lg_kernel *gpu_kernels[LG_ALG_COUNT]; /* its rows, by algorithm id */

/* Files p's kernel rows by algorithm id in gpu_kernels, or false with why:
 * a row without a kernel, or two rows for one algorithm.  Rows for ids this
 * library does not know come from a newer plugin and are skipped. */
static bool index_kernels(const struct lg_plugin *p, char *why, size_t size)
{
#define LG_ALGORITHM_NAME(ID, name, gpu) #name,
    static const char *const names[LG_ALG_COUNT] = {LG_ALGORITHMS(LG_ALGORITHM_NAME)};
#undef LG_ALGORITHM_NAME
    const struct lg_kernel *by_id[LG_ALG_COUNT] = {NULL};
    if (p->num_kernels < 0 || (p->num_kernels > 0 && !p->kernels)) {
        snprintf(why, size, "the plugin's table lists %d kernels but holds none", p->num_kernels);
        return false;
    }
    for (int i = 0; i < p->num_kernels; i++) {
        const struct lg_kernel *k = p->kernels[i];
        if (!k || !k->run) {
            snprintf(why, size, "the plugin's kernel row %d is empty", i);
            return false;
        }
        if (k->algorithm < 0 || k->algorithm >= LG_ALG_COUNT)
            continue;
        if (by_id[k->algorithm]) {
            snprintf(why, size, "the plugin lists two kernels for algorithm %d (%s)", k->algorithm,
                     names[k->algorithm]);
            return false;
        }
        by_id[k->algorithm] = k;
    }
    memcpy(gpu_kernels, by_id, sizeof by_id);
    return true;
}

/* modules.h's accept: whether a dlopened file is a plugin this library can
 * use. */
static enum lg_module_verdict accept(void *handle, const char *path, void *arg, char *why,
                                     size_t size)
{
    (void)path, (void)arg;
    void *sym = dlsym(handle, LG_PLUGIN_ENTRY);
    if (!sym) {
        snprintf(why, size, "not a libgraph plugin (no symbol " LG_PLUGIN_ENTRY ")");
        return LG_MODULE_UNLOADED; /* none of its code ran */
    }
    lg_plugin_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */

    const struct lg_plugin *p = NULL;
    lg__error_clear(); /* so the plugin's own message, if any, is what we read */
    lg_status_t st = entry(&host, &p);
    if (st != LG_OK) {
        snprintf(why, size, "the plugin failed to start: %s (%s)",
                 lg_last_error()[0] ? lg_last_error() : "no reason given", lg_status_string(st));
    } else if (!p) {
        snprintf(why, size, "the plugin returned no table");
    } else if (p->abi_version != LG_PLUGIN_ABI_VERSION) {
        snprintf(why, size, "plugin ABI version %d, this libgraph needs %d", p->abi_version,
                 LG_PLUGIN_ABI_VERSION);
    } else if (!p->open || !p->close || !p->graph_free) {
        snprintf(why, size, "the plugin's table lacks open, close or graph_free");
    } else if (index_kernels(p, why, size)) {
        loaded = p;
        return LG_MODULE_TAKEN;
    }
    return LG_MODULE_REFUSED; /* its code ran: it stays loaded (see the top of the file) */
}

static void load(void)
{
    char saved[LG_ERROR_CAPACITY]; /* a plugin's entry may set the thread's message */
    lg__error_save(saved);
    search.names = plugin_names;
    search.num_names = sizeof plugin_names / sizeof plugin_names[0];
    search.anchor = (const void *)lg__plugin_get;
    search.accept = accept;
    if (lg__module_search(&search))
        loaded_handle = search.handle;
    else if (search.failures[0])
        snprintf(problem, sizeof problem, "no usable GPU plugin: %s; %s", search.failures,
                 search.where);
    else
        snprintf(problem, sizeof problem, "no GPU plugin found: %s", search.where);
    lg__error_restore(saved);
}

lg_status_t lg__plugin_get(const struct lg_plugin **plugin)
{
    pthread_once(&load_once, load);
    *plugin = loaded;
    if (loaded)
        return LG_OK;
    return lg__error(LG_ERR_DEVICE, "%s", problem);
}

const struct lg_kernel *lg__plugin_kernel(enum lg_algorithm_id id)
{
    return loaded ? gpu_kernels[id] : NULL;
}

const char *lg__plugin_path(void)
{
    pthread_once(&load_once, load);
    return loaded ? search.path : NULL;
}

const char *lg__plugin_problem(void)
{
    pthread_once(&load_once, load);
    return loaded ? NULL : problem;
}

const struct lg_plugin_test_hooks *lg__plugin_test_hooks(void)
{
    pthread_once(&load_once, load);
    if (!loaded_handle)
        return NULL;
    void *sym = dlsym(loaded_handle, LG_PLUGIN_TEST_HOOKS);
    if (!sym)
        return NULL;
    lg_plugin_test_hooks_fn hooks;
    memcpy(&hooks, &sym, sizeof hooks); /* object to function pointer, as POSIX allows */
    return hooks();
}
