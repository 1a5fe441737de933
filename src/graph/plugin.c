/*
 * plugin.c - finding and loading the GPU plugin (src/graph/plugin.h).
 *
 * The first GPU or AUTO context loads the plugin, once per process:
 *   1. next to the module that holds this code (libgraph.so's directory, or
 *      the executable's when libgraph is linked statically):
 *      libgraph_cuda.so, then libgraph_hip.so;
 *   2. then each entry of LIBGRAPH_PLUGIN_PATH (colon-separated), a plugin
 *      file or a directory searched for those two names.
 * The first candidate that loads, exports LG_PLUGIN_ENTRY, agrees on the ABI
 * version and initialises, wins.  When none does, every later call gets the
 * same error, naming each candidate tried and why it failed.  A loaded
 * plugin is never unloaded: device copies of graphs may outlive every
 * context, and the plugin frees them.
 */
#define _GNU_SOURCE /* dladdr */
#include "internal.h"
#include "plugin.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const plugin_names[] = {"libgraph_cuda.so", "libgraph_hip.so"};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const struct lg_plugin *loaded;
static char loaded_path[4096];
static char why_not[2048]; /* what was tried, when nothing loaded */

static const struct lg_plugin_host host = {LG_PLUGIN_ABI_VERSION, lg__error, lg__malloc, lg__free};

/* Appends to why_not, keeping it a valid string when it fills up. */
static void note(const char *fmt, ...) LG_PRINTF(1, 2);
static void note(const char *fmt, ...)
{
    size_t used = strlen(why_not);
    if (used + 1 >= sizeof why_not)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why_not + used, sizeof why_not - used, fmt, ap);
    va_end(ap);
}

/* Tries one file; true when it became the plugin. */
static bool try_file(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        /* a missing file is the common case: say so briefly */
        if (e && strstr(e, "No such file"))
            note("; %s: not there", path);
        else
            note("; %s: %s", path, e ? e : "dlopen failed");
        return false;
    }
    lg_plugin_entry_fn entry;
    void *sym = dlsym(h, LG_PLUGIN_ENTRY);
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */
    const struct lg_plugin *p = NULL;
    if (!entry) {
        note("; %s: no symbol %s", path, LG_PLUGIN_ENTRY);
    } else if (entry(&host, &p) != LG_OK || !p) {
        note("; %s: refused to load (%s)", path, lg_last_error());
    } else if (p->abi_version != LG_PLUGIN_ABI_VERSION) {
        note("; %s: plugin ABI %d, this library needs %d", path, p->abi_version,
             LG_PLUGIN_ABI_VERSION);
    } else {
        loaded = p;
        snprintf(loaded_path, sizeof loaded_path, "%s", path);
        return true;
    }
    dlclose(h);
    return false;
}

/* Tries the plugin names in a directory. */
static bool try_dir(const char *dir, size_t len)
{
    char path[4096];
    for (size_t i = 0; i < sizeof plugin_names / sizeof plugin_names[0]; i++) {
        if (len + 1 + strlen(plugin_names[i]) + 1 > sizeof path)
            continue;
        snprintf(path, sizeof path, "%.*s/%s", (int)len, dir, plugin_names[i]);
        if (try_file(path))
            return true;
    }
    return false;
}

static void load(void)
{
    note("looked for");
    Dl_info info;
    if (dladdr((void *)&load_once, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash ? try_dir(info.dli_fname, (size_t)(slash - info.dli_fname)) : try_dir(".", 1))
            return;
    }
    const char *env = getenv("LIBGRAPH_PLUGIN_PATH");
    if (!env || !*env) {
        note("; LIBGRAPH_PLUGIN_PATH is not set");
        return;
    }
    for (const char *p = env; *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0 && len < 4000) {
            char entry[4096];
            memcpy(entry, p, len);
            entry[len] = '\0';
            size_t n = strlen(entry);
            bool is_file = n > 3 && strcmp(entry + n - 3, ".so") == 0;
            if (is_file ? try_file(entry) : try_dir(entry, len))
                return;
        }
        p += len + (end ? 1 : 0);
    }
}

lg_status_t lg__plugin_get(const struct lg_plugin **plugin)
{
    /* loading may set lg_last_error from a failed plugin entry: keep the
     * caller's thread state clean of that and report the summary instead */
    pthread_once(&load_once, load);
    *plugin = loaded;
    if (loaded)
        return LG_OK;
    return lg__error(LG_ERR_DEVICE, "no usable GPU plugin (%s)", why_not);
}

const char *lg__plugin_path(void)
{
    pthread_once(&load_once, load);
    return loaded ? loaded_path : NULL;
}
