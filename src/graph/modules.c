/*
 * modules.c - the search of modules.h: where a module the library loads at
 * run time is looked for, and what was wrong with each file found.
 */
#define _GNU_SOURCE /* dladdr (glibc and musl) */
#include "modules.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Appends to a report, which stays a valid (possibly cut) string. */
static void append(char *report, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(char *report, const char *fmt, ...)
{
    size_t used = strlen(report);
    if (used + 1 >= LG_MODULE_REPORT_CAPACITY)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(report + used, LG_MODULE_REPORT_CAPACITY - used, fmt, ap);
    va_end(ap);
}

static void note_failure(struct lg_module_search *s, const char *path, const char *why)
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

/* Tries one file; true when accept took it.  `named` says the user named
 * this file (LIBGRAPH_PLUGIN_PATH), so its absence is worth a note. */
static bool try_file(struct lg_module_search *s, const char *path, bool named)
{
    struct stat sb;
    char why[1024]; /* a plugin's own message (up to 512 bytes) with its context */
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
    why[0] = '\0';
    switch (s->accept(handle, path, s->arg, why, sizeof why)) {
    case LG_MODULE_TAKEN:
        s->handle = handle;
        snprintf(s->path, sizeof s->path, "%s", path);
        return true;
    case LG_MODULE_UNLOADED: dlclose(handle); break;
    case LG_MODULE_REFUSED: break;
    }
    note_failure(s, path, why[0] ? why : "refused");
    return false;
}

/* Tries the names in directory dir. */
static bool try_dir(struct lg_module_search *s, const char *dir)
{
    char path[LG_MODULE_PATH_CAPACITY];
    for (size_t i = 0; i < s->num_names; i++) {
        int len = snprintf(path, sizeof path, "%s/%s", dir, s->names[i]);
        if (len < 0 || (size_t)len >= sizeof path)
            continue;
        if (try_file(s, path, false))
            return true;
    }
    return false;
}

/* The directory of the module holding anchor: a shared library's, or the
 * executable's when the library is linked into it.  dladdr (glibc and
 * musl; glibc's dladdr1 is not in musl) gives a shared library's path as
 * the loader found it, absolute, but the executable's as its argv[0],
 * which may be bare or relative to a directory the process has since
 * left: a name that is not absolute is taken for the executable, whose
 * path the kernel gives (/proc/self/exe, which valgrind also answers for
 * its client). */
static bool anchor_dir(const void *anchor, char *dir, size_t capacity)
{
    Dl_info info;
    char exe[LG_MODULE_PATH_CAPACITY];
    if (!dladdr(anchor, &info))
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
static bool try_entry(struct lg_module_search *s, const char *entry)
{
    struct stat st;
    if (stat(entry, &st) == 0 && S_ISDIR(st.st_mode))
        return try_dir(s, entry);
    return try_file(s, entry, true);
}

bool lg__module_search(struct lg_module_search *s)
{
    char dir[LG_MODULE_PATH_CAPACITY], entry[LG_MODULE_PATH_CAPACITY];
    s->path[0] = s->failures[0] = s->where[0] = '\0';
    s->handle = NULL;
    const bool have_dir = anchor_dir(s->anchor, dir, sizeof dir);
    bool found = have_dir && try_dir(s, dir);

    const char *env = getenv(LG_MODULE_PATH_ENV);
    for (const char *p = env ? env : ""; !found && *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0 && len < sizeof entry) {
            memcpy(entry, p, len);
            entry[len] = '\0';
            found = try_entry(s, entry);
        } else if (len > 0) {
            note_failure(s, "(a " LG_MODULE_PATH_ENV " entry)", "path too long");
        }
        p += len + (end ? 1 : 0);
    }
    if (!found) {
        append(s->where, "looked for ");
        for (size_t i = 0; i < s->num_names; i++)
            append(s->where, "%s%s", i ? ", " : "", s->names[i]);
        append(s->where, " in %s and in " LG_MODULE_PATH_ENV " (%s%s)",
               have_dir ? dir : "(the library's directory, unknown)", env && *env ? "= " : "unset",
               env && *env ? env : "");
    }
    return found;
}
