/*
 * watch.c - Python's part in a long library call that runs with the GIL
 * released: Ctrl-C, and a progress bar for loads and builds.
 *
 * The call's options carry lgpy_watch_step as their progress callback
 * (libgraph.h, "Progress and cancellation"), which the library calls on the
 * calling thread between steps: PageRank iterations, BFS levels, passes,
 * parts of a file, phases of a build.  At most every signal_period (50 ms)
 * it takes the GIL back (the thread state the call saved) and runs Python's
 * signal handlers: the default SIGINT handler raises KeyboardInterrupt,
 * the step returns false, the library stops the call at that step
 * (LG_ERR_CANCELLED) and frees what it held, and the exception reaches the
 * caller with the graph as it was.  A step is a fraction of a second on the
 * largest graphs a machine holds (docs/PERFORMANCE.md has the latencies), so
 * Ctrl-C answers within half a second.
 *
 * Once a load or build has run for progress_after (1 s), each step is
 * also handed to the module's progress function (set_progress; the package
 * installs one that draws a tqdm bar when tqdm is there) as
 * progress(stage, done, total), and progress("done", 0, 0) ends it.  An
 * exception from it stops the call the same way.
 *
 * While a step runs Python (the signal handlers, the progress function) the
 * outer call is suspended mid-way: the GPU algorithms hold their context's
 * and graph's locks, which are not recursive, and a build's progress
 * function that built again would show progress again, one nested build
 * inside the other without end.  So the library is not re-entered from
 * there: a call that would run it (lgpy_call, lgpy_nogil_watched) raises
 * RuntimeError instead, which, unless caught, stops the outer call too.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "ext.h"

#include <time.h>

/* How often a step looks at the signals, and when progress is first shown
 * (seconds; set_watch_timing changes them for tests). */
static double signal_period = 0.05, progress_after = 1.0;

/* Python code run by a step of a call on this thread (signal handlers, the
 * progress function) is running: > 0. */
static _Thread_local int in_step;

int lgpy_refuse_reentry(void)
{
    if (!in_step)
        return 0;
    PyErr_SetString(PyExc_RuntimeError,
                    "libgraph: a progress function (or a signal handler run during a libgraph "
                    "call) cannot call into libgraph");
    return -1;
}

/* progress(stage, done, total), flagged as Python run by a step: 0, or -1
 * with its exception set. */
static int call_progress(PyObject *progress, const char *stage, long long done, long long total)
{
    in_step++;
    PyObject *r = PyObject_CallFunction(progress, "sLL", stage, done, total);
    in_step--;
    if (!r)
        return -1;
    Py_DECREF(r);
    return 0;
}

static double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *stage_name(lg_stage_t stage)
{
    switch (stage) {
    case LG_STAGE_READ: return "read";
    case LG_STAGE_PARSE: return "parse";
    case LG_STAGE_BUILD: return "build";
    case LG_STAGE_BFS: return "bfs";
    case LG_STAGE_PAGERANK: return "pagerank";
    case LG_STAGE_COMPONENTS: return "components";
    case LG_STAGE_GENERATE: return "generate";
    case LG_STAGE_WRITE: return "write";
    case LG_STAGE_SSSP: return "sssp";
    case LG_STAGE_SCC: return "scc";
    case LG_STAGE_BETWEENNESS: return "betweenness";
    case LG_STAGE_CLOSENESS: return "closeness";
    case LG_STAGE_EIGENVECTOR: return "eigenvector";
    case LG_STAGE_KATZ: return "katz";
    case LG_STAGE_HITS: return "hits";
    case LG_STAGE_TRIANGLES: return "triangles";
    }
    return "?";
}

void lgpy_watch_init(lgpy_watch *w, lgpy_state *st, bool show)
{
    w->progress = show && st->progress ? Py_NewRef(st->progress) : NULL;
    w->tstate = NULL;
    w->start = monotonic_seconds();
    w->next_check = w->start + signal_period;
    w->shown = false;
    w->failed = false;
}

bool lgpy_watch_step(const lg_progress_info_t *info, void *data)
{
    lgpy_watch *w = data;
    if (w->failed) /* an exception is set: no Python until the call returns */
        return false;
    const double now = monotonic_seconds();
    const bool tell = w->progress && now - w->start >= progress_after;
    if (now < w->next_check && !tell)
        return true;
    w->next_check = now + signal_period;
    PyEval_RestoreThread(w->tstate);
    in_step++;
    bool go_on = PyErr_CheckSignals() == 0;
    in_step--;
    if (go_on && tell) {
        go_on = call_progress(w->progress, stage_name(info->stage), (long long)info->done,
                              (long long)info->total) == 0;
        w->shown = true;
    }
    w->tstate = PyEval_SaveThread();
    w->failed = w->failed || !go_on;
    return go_on;
}

/* The plain calls: the GIL released, no step watched. */
lg_status_t lgpy_nogil(lgpy_job_fn fn, void *job)
{
    lg_status_t s;
    Py_BEGIN_ALLOW_THREADS s = fn(job);
    Py_END_ALLOW_THREADS return s;
}

int lgpy_call(lgpy_state *st, lgpy_job_fn fn, void *job)
{
    if (lgpy_refuse_reentry() < 0)
        return -1;
    const lg_status_t s = lgpy_nogil(fn, job);
    if (s == LG_OK)
        return 0;
    lgpy_raise_status(st, s);
    return -1;
}


lg_status_t lgpy_nogil_watched(lgpy_job_fn fn, void *job, lgpy_watch *w)
{
    if (lgpy_refuse_reentry() < 0) {
        w->failed = true;
        Py_CLEAR(w->progress);
        return LG_ERR_CANCELLED;
    }
    w->tstate = PyEval_SaveThread();
    const lg_status_t s = fn(job);
    PyEval_RestoreThread(w->tstate);
    w->tstate = NULL;
    if (w->shown) { /* the bar ends, whatever the outcome */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback); /* an exception of a step comes first */
        const int rc = call_progress(w->progress, "done", 0, 0);
        if (type) {
            PyErr_Clear();
            PyErr_Restore(type, value, traceback);
        } else if (rc < 0) {
            w->failed = true; /* its exception stands */
        }
    }
    Py_CLEAR(w->progress);
    return s;
}

int lgpy_call_watched(lgpy_state *st, lgpy_job_fn fn, void *job, lgpy_watch *w)
{
    const lg_status_t s = lgpy_nogil_watched(fn, job, w);
    if (w->failed && PyErr_Occurred())
        return -1; /* KeyboardInterrupt, or the progress function's exception */
    if (s == LG_OK)
        return 0;
    lgpy_raise_status(st, s);
    return -1;
}

static PyObject *mod_set_progress(PyObject *module, PyObject *fn)
{
    lgpy_state *st = lgpy_state_of_module(module);
    if (fn != Py_None && !PyCallable_Check(fn)) {
        PyErr_Format(PyExc_TypeError, "set_progress: expected a callable or None, not %s",
                     lgpy_type_name(fn));
        return NULL;
    }
    PyObject *old = st->progress;
    st->progress = fn == Py_None ? NULL : Py_NewRef(fn);
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

static PyObject *mod_set_watch_timing(PyObject *Py_UNUSED(module), PyObject *args)
{
    double period, after;
    if (!PyArg_ParseTuple(args, "dd:_set_watch_timing", &period, &after))
        return NULL;
    PyObject *old = Py_BuildValue("(dd)", signal_period, progress_after);
    signal_period = period;
    progress_after = after;
    return old;
}

PyMethodDef lgpy_watch_methods[] = {
    {"set_progress", mod_set_progress, METH_O,
     "set_progress(fn or None): fn(stage, done, total) is called on the calling thread at the "
     "steps of a load or build that has run for a second ('read', 'parse', 'build'), then "
     "fn('done', 0, 0); an exception from it stops the call.  fn cannot call into libgraph "
     "(RuntimeError)."},
    {"_set_watch_timing", mod_set_watch_timing, METH_VARARGS,
     "_set_watch_timing(signal_period, progress_after) -> the old pair (seconds), for tests."},
    {NULL, NULL, 0, NULL},
};
