/*
 * plugin.c - finding and loading the GPU plugin (the ABI is src/graph/plugin.h).
 *
 * The first GPU or AUTO context (or lg_build_info) loads the plugin, once per
 * process, trying in order:
 *   1. the directory of the module that holds this code -- libgraph.so's, or
 *      the executable's when libgraph is linked statically: libgraph_cuda.so,
 *      then libgraph_hip.so;
 *   2. each entry of LIBGRAPH_PLUGIN_PATH (colon-separated): a directory,
 *      searched for the same two names, or a plugin file.
 * A candidate must be a regular file (dlopen of a FIFO would wait for a
 * writer) and is opened with dlopen(RTLD_NOW | RTLD_LOCAL), so an unresolved
 * symbol fails here rather than mid-call and the plugin's symbols (its GPU
 * runtime's among them) stay out of the process's namespace.  It must export
 * LG_PLUGIN_ENTRY, the entry must accept our host table and return LG_OK with
 * a table of the same ABI version that has open, close and graph_free.  The
 * first that does wins.  Candidates that exist but fail are remembered with
 * their reason, so when none wins every later call gets one message saying
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
#define _GNU_SOURCE /* dladdr (glibc and musl) */
#include "internal.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LG_PLUGIN_PATH_ENV "LIBGRAPH_PLUGIN_PATH"

/* Room for one path, and for the collected reasons (the message a user sees
 * is cut to LG_ERROR_CAPACITY; the failures come first so they survive). */
#define LG_PATH_CAPACITY 4096
#define LG_REPORT_CAPACITY 2048

static const char *const plugin_names[] = {"libgraph_cuda.so", "libgraph_hip.so"};
#define NUM_PLUGIN_NAMES (sizeof plugin_names / sizeof plugin_names[0])

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

/* What loading found; written once, under load_once, read-only after. */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const struct lg_plugin *loaded;
static void *loaded_handle;
static char loaded_path[LG_PATH_CAPACITY];
static char problem[LG_REPORT_CAPACITY];                  /* why there is no plugin */
static const struct lg_kernel *gpu_kernels[LG_ALG_COUNT]; /* its rows, by algorithm id */

/* While loading: the candidates that exist but failed, and where we looked
 * (static rather than on the stack of whichever thread loads: 6 KiB). */
struct search {
    char failures[LG_REPORT_CAPACITY];
    char module_dir[LG_PATH_CAPACITY];
};
static struct search search;

/* Appends to a report, which stays a valid (possibly cut) string. */
static void append(char *report, const char *fmt, ...) LG_PRINTF(2, 3);
static void append(char *report, const char *fmt, ...)
{
    size_t used = strlen(report);
    if (used + 1 >= LG_REPORT_CAPACITY)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(report + used, LG_REPORT_CAPACITY - used, fmt, ap);
    va_end(ap);
}

static void note_failure(struct search *s, const char *path, const char *why)
{
    append(s->failures, "%s%s: %s", s->failures[0] ? "; " : "", path, why);
}

/* dlerror()'s text usually starts with the path; say it once. */
static const char *dl_reason(const char *path)
{
    const char *e = dlerror();
    if (!e)
        return "dlopen failed";
    size_t n = strlen(path);
    if (strncmp(e, path, n) == 0 && e[n] == ':' && e[n + 1] == ' ')
        return e + n + 2;
    return e;
}

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

/* Tries one file; true when it became the plugin.  `named` says the user
 * named this file (LIBGRAPH_PLUGIN_PATH), so its absence is worth a note. */
static bool try_file(struct search *s, const char *path, bool named)
{
    char why[LG_ERROR_CAPACITY + 64];
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (named)
            note_failure(s, path, "no such file or directory");
        return false;
    }
    if (!S_ISREG(sb.st_mode)) { /* dlopen would block on a FIFO until a writer came */
        note_failure(s, path, "not a regular file");
        return false;
    }
    dlerror();
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        note_failure(s, path, dl_reason(path));
        return false;
    }
    void *sym = dlsym(handle, LG_PLUGIN_ENTRY);
    if (!sym) {
        note_failure(s, path, "not a libgraph plugin (no symbol " LG_PLUGIN_ENTRY ")");
        dlclose(handle); /* none of its code ran */
        return false;
    }
    lg_plugin_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */

    const struct lg_plugin *p = NULL;
    lg__error_clear(); /* so the plugin's own message, if any, is what we read */
    lg_status_t st = entry(&host, &p);
    if (st != LG_OK) {
        snprintf(why, sizeof why, "the plugin failed to start: %s (%s)",
                 lg_last_error()[0] ? lg_last_error() : "no reason given", lg_status_string(st));
        note_failure(s, path, why);
    } else if (!p) {
        note_failure(s, path, "the plugin returned no table");
    } else if (p->abi_version != LG_PLUGIN_ABI_VERSION) {
        snprintf(why, sizeof why, "plugin ABI version %d, this libgraph needs %d", p->abi_version,
                 LG_PLUGIN_ABI_VERSION);
        note_failure(s, path, why);
    } else if (!p->open || !p->close || !p->graph_free) {
        note_failure(s, path, "the plugin's table lacks open, close or graph_free");
    } else if (!index_kernels(p, why, sizeof why)) {
        note_failure(s, path, why);
    } else {
        loaded = p;
        loaded_handle = handle;
        snprintf(loaded_path, sizeof loaded_path, "%s", path);
        return true;
    }
    return false; /* its code ran: it stays loaded (see the top of the file) */
}

/* Tries the plugin names in directory dir. */
static bool try_dir(struct search *s, const char *dir)
{
    char path[LG_PATH_CAPACITY];
    for (size_t i = 0; i < NUM_PLUGIN_NAMES; i++) {
        int len = snprintf(path, sizeof path, "%s/%s", dir, plugin_names[i]);
        if (len < 0 || (size_t)len >= sizeof path)
            continue;
        if (try_file(s, path, false))
            return true;
    }
    return false;
}

/* The directory of the module holding this code: libgraph.so's, or the
 * executable's when libgraph is linked into it.  dladdr (glibc and musl;
 * glibc's dladdr1 is not in musl) gives a shared library's path as the
 * loader found it, absolute, but the executable's as its argv[0], which
 * may be bare or relative to a directory the process has since left: a
 * name that is not absolute is taken for the executable, whose path the
 * kernel gives (/proc/self/exe, which valgrind also answers for its
 * client). */
static bool find_module_dir(char *dir, size_t capacity)
{
    Dl_info info;
    char exe[LG_PATH_CAPACITY];
    if (!dladdr((void *)lg__plugin_get, &info))
        return false;
    const char *file = info.dli_fname;
    if (!file || file[0] != '/') {
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len <= 0)
            return false;
        exe[len] = '\0';
        file = exe;
    }
    const char *slash = strrchr(file, '/');
    if (!slash)
        return false;
    size_t len = slash == file ? 1 : (size_t)(slash - file); /* "/x" lives in "/" */
    if (len >= capacity)
        return false;
    memcpy(dir, file, len);
    dir[len] = '\0';
    return true;
}

/* Tries one LIBGRAPH_PLUGIN_PATH entry: a directory or a file. */
static bool try_entry(struct search *s, const char *entry)
{
    struct stat st;
    if (stat(entry, &st) == 0 && S_ISDIR(st.st_mode))
        return try_dir(s, entry);
    return try_file(s, entry, true);
}

static void load(void)
{
    struct search *s = &search;
    char saved[LG_ERROR_CAPACITY]; /* a plugin's entry may set the thread's message */
    lg__error_save(saved);

    bool have_dir = find_module_dir(s->module_dir, sizeof s->module_dir);
    bool found = have_dir && try_dir(s, s->module_dir);

    const char *env = getenv(LG_PLUGIN_PATH_ENV);
    char entry[LG_PATH_CAPACITY];
    for (const char *p = env ? env : ""; !found && *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0 && len < sizeof entry) {
            memcpy(entry, p, len);
            entry[len] = '\0';
            found = try_entry(s, entry);
        } else if (len > 0) {
            note_failure(s, "(a " LG_PLUGIN_PATH_ENV " entry)", "path too long");
        }
        p += len + (end ? 1 : 0);
    }

    if (!found) {
        char where[LG_REPORT_CAPACITY] = "";
        append(where, "looked for %s, %s in %s and in " LG_PLUGIN_PATH_ENV " (%s%s)",
               plugin_names[0], plugin_names[1],
               have_dir ? s->module_dir : "(libgraph's directory, unknown)",
               env && *env ? "= " : "unset", env && *env ? env : "");
        if (s->failures[0])
            append(problem, "no usable GPU plugin: %s; %s", s->failures, where);
        else
            append(problem, "no GPU plugin found: %s", where);
    }
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
    return loaded ? loaded_path : NULL;
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
