/*
 * modules.h - finding a module the library loads at run time: the GPU
 * plugin (plugin.c) and libgraph_dist's GPU module (src/dist/gpu.c).  One
 * search for both, compiled into each library (modules.c needs nothing of
 * either), so the two look in the same places, in the same order, and say
 * the same things about what they found.
 *
 * The search: the directory of the library or executable that holds
 * `anchor`, for each of `names`; then each entry of LIBGRAPH_PLUGIN_PATH
 * (colon-separated): a directory, searched for the same names, or a module
 * file.  A candidate must be a regular file (dlopen of a FIFO would wait for
 * a writer) and is opened with dlopen(RTLD_NOW | RTLD_LOCAL), so an
 * unresolved symbol fails here rather than mid-call and the module's
 * symbols stay out of the process's namespace; `accept` then decides.  The
 * first it takes wins.  Candidates that exist but fail are listed with
 * their reason, so that the caller's message says where it looked and what
 * was wrong with each file found.
 */
#ifndef LIBGRAPH_MODULES_H
#define LIBGRAPH_MODULES_H

#include <stdbool.h>
#include <stddef.h>

#define LG_MODULE_PATH_ENV "LIBGRAPH_PLUGIN_PATH"
#define LG_MODULE_PATH_CAPACITY 4096
#define LG_MODULE_REPORT_CAPACITY 2048

/* What accept says of a dlopened candidate. */
enum lg_module_verdict {
    LG_MODULE_TAKEN,    /* it is the module: it stays loaded */
    LG_MODULE_REFUSED,  /* not it, but its code ran: it stays loaded (a GPU
                         * runtime's initialisers may have registered handlers) */
    LG_MODULE_UNLOADED, /* not it, and none of its code ran: closed again */
};

struct lg_module_search {
    /* in */
    const char *const *names; /* file names tried in a directory, in order */
    size_t num_names;
    const void *anchor; /* a function of the calling library */
    /* Writes why (a phrase) unless it returns LG_MODULE_TAKEN. */
    enum lg_module_verdict (*accept)(void *handle, const char *path, void *arg, char *why,
                                     size_t why_size);
    void *arg;
    /* out */
    char path[LG_MODULE_PATH_CAPACITY]; /* the module taken */
    void *handle;                       /* its dlopen handle */
    /* "PATH: why; PATH: why" of the candidates that exist but failed */
    char failures[LG_MODULE_REPORT_CAPACITY];
    /* "looked for A, B in DIR and in LIBGRAPH_PLUGIN_PATH (= ...)" */
    char where[LG_MODULE_REPORT_CAPACITY];
};

/* Runs the search; true when accept took a module (s->path, s->handle). */
__attribute__((visibility("hidden"))) bool lg__module_search(struct lg_module_search *s);

#endif /* LIBGRAPH_MODULES_H */
