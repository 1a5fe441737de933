/*
 * context.c - distributed contexts, and how the ranks agree on a failure.
 *
 * A failure found on one rank (bad input, memory) must not leave the others
 * waiting in a collective for it: every step that can fail locally is
 * followed by lg__dist_agree, one small allreduce that tells every rank
 * whether any failed, and then a broadcast of the lowest failing rank's
 * status and message, so every rank returns the same error.
 */
#include "dist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lg_status_t lg__dist_error(lg_status_t status, const char *fmt, ...)
{
    char msg[LG_DIST_ERROR_CAPACITY];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return lg_error_set(status, msg);
}

lg_status_t lg__dist_mpi_error(int code, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "MPI error %d", code);
    return lg__dist_error(LG_ERR_INTERNAL, "%s failed: %s", what, msg);
}

#ifdef LG_DIST_FAILURE_INJECTION
static long fail_after = -1;

long lg__dist_fail_allocations_after(long k)
{
    long old = fail_after;
    fail_after = k;
    return old;
}

static bool injected_failure(void)
{
    if (fail_after < 0)
        return false;
    if (fail_after == 0)
        return true;
    fail_after--;
    return false;
}
#else
static bool injected_failure(void)
{
    return false;
}
#endif

void *lg__dist_alloc(size_t count, size_t size, const char *what)
{
    if ((size && count > SIZE_MAX / size) || injected_failure()) {
        lg__dist_error(LG_ERR_OUT_OF_MEMORY, "out of memory allocating %s", what);
        return NULL;
    }
    void *p = malloc(count * size > 0 ? count * size : 1);
    if (!p)
        lg__dist_error(LG_ERR_OUT_OF_MEMORY, "out of memory allocating %s", what);
    return p;
}

void *lg__dist_calloc(size_t count, size_t size, const char *what)
{
    void *p = injected_failure() ? NULL : calloc(count ? count : 1, size ? size : 1);
    if (!p)
        lg__dist_error(LG_ERR_OUT_OF_MEMORY, "out of memory allocating %s", what);
    return p;
}

int lg__dist_threads(const lg_dist_context_t *c)
{
    int t = 1;
    lg_context_get_num_threads(c->local, &t);
    return t > 0 ? t : 1;
}

lg_status_t lg__dist_agree(lg_dist_context_t *c, lg_status_t st)
{
    int mine = st == LG_OK ? c->size : c->rank, lowest = c->size;
    int rc = MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, c->comm);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Allreduce");
    if (lowest == c->size)
        return LG_OK;
    struct {
        int status;
        char msg[LG_DIST_ERROR_CAPACITY];
    } e;
    memset(&e, 0, sizeof e);
    if (c->rank == lowest) {
        e.status = (int)st;
        if (c->size > 1)
            snprintf(e.msg, sizeof e.msg, "rank %d: %s", c->rank, lg_last_error());
        else
            snprintf(e.msg, sizeof e.msg, "%s", lg_last_error());
    }
    rc = MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, lowest, c->comm);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Bcast");
    e.msg[sizeof e.msg - 1] = '\0';
    return lg_error_set((lg_status_t)e.status, e.msg);
}

void lg_dist_context_options_init(lg_dist_context_options_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->backend = LG_BACKEND_CPU;
    o->device_id = -1;
}

/* The options every rank must agree on, as integers. */
enum {
    LG_DIST_CONTEXT_SIGNATURE = 3
};

static lg_status_t check_options(const lg_dist_context_options_t *o, int size)
{
    static const char fn[] = "lg_dist_context_create";
    if (o->backend != LG_BACKEND_CPU && o->backend != LG_BACKEND_AUTO &&
        o->backend != LG_BACKEND_GPU)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: unknown backend %d", fn,
                              (int)o->backend);
    if (o->num_threads < 0)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: num_threads %d < 0", fn,
                              o->num_threads);
    if (o->grid_rows < 0 || o->grid_cols < 0)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: a negative process grid (%d x %d)", fn,
                              o->grid_rows, o->grid_cols);
    int rows = o->grid_rows ? o->grid_rows : size, cols = o->grid_cols ? o->grid_cols : 1;
    if (cols != 1)
        return lg__dist_error(LG_ERR_UNSUPPORTED,
                              "%s: a %d x %d process grid: only one column (a 1D partition) "
                              "is supported",
                              fn, rows, cols);
    if ((int64_t)rows * cols != size)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: a %d x %d process grid for %d ranks",
                              fn, rows, cols, size);
    return LG_OK;
}

lg_status_t lg_dist_context_create(MPI_Comm comm, const lg_dist_context_options_t *options,
                                   lg_dist_context_t **context)
{
    static const char fn[] = "lg_dist_context_create";
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: MPI is not initialised (MPI_Init)", fn);
    if (comm == MPI_COMM_NULL)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: the communicator is MPI_COMM_NULL", fn);
    lg_dist_context_options_t o;
    lg_dist_context_options_init(&o);
    if (options)
        o = *options;

    lg_dist_context_t head; /* the communicator, before the context has memory */
    memset(&head, 0, sizeof head);
    int rc = MPI_Comm_dup(comm, &head.comm);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Comm_dup");
    MPI_Comm_set_errhandler(head.comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(head.comm, &head.rank);
    MPI_Comm_size(head.comm, &head.size);
    head.options = o;
    lg_status_t st = LG_OK;
    lg_dist_context_t *c = lg__dist_calloc(1, sizeof *c, "a distributed context");
    if (c)
        *c = head;
    else
        st = LG_ERR_OUT_OF_MEMORY;

    if (!context)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: context is NULL", fn);
    if (st == LG_OK)
        st = check_options(&o, head.size);
    if (st == LG_OK) {
        lg_context_options_t lo;
        lg_context_options_init(&lo);
        lo.backend = LG_BACKEND_CPU;
        lo.num_threads = o.num_threads;
        st = lg_context_create(&c->local, &lo);
    }
    lg_status_t all = lg__dist_agree(&head, st);
    if (all == LG_OK) {
        /* (device_id may differ: a rank's own GPU) */
        int64_t sig[2 * LG_DIST_CONTEXT_SIGNATURE] = {o.backend, o.grid_rows, o.grid_cols};
        for (int i = 0; i < LG_DIST_CONTEXT_SIGNATURE; i++)
            sig[LG_DIST_CONTEXT_SIGNATURE + i] = -sig[i];
        int64_t agreed[2 * LG_DIST_CONTEXT_SIGNATURE];
        rc = MPI_Allreduce(sig, agreed, 2 * LG_DIST_CONTEXT_SIGNATURE, MPI_INT64_T, MPI_MAX,
                           head.comm);
        if (rc != MPI_SUCCESS)
            all = lg__dist_mpi_error(rc, "MPI_Allreduce");
        for (int i = 0; all == LG_OK && i < LG_DIST_CONTEXT_SIGNATURE; i++)
            if (agreed[i] != -agreed[LG_DIST_CONTEXT_SIGNATURE + i])
                all = lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                     "%s: the ranks passed different options (backend, process "
                                     "grid)",
                                     fn);
    }
    if (all == LG_OK) {
        snprintf(c->device, sizeof c->device, "cpu");
        if (o.backend == LG_BACKEND_GPU)
            all = lg__dist_gpu_open(c);
    }
    if (all != LG_OK) {
        if (c)
            lg_context_free(&c->local);
        MPI_Comm_free(&head.comm);
        free(c);
        return all;
    }
    *context = c;
    return LG_OK;
}

void lg_dist_context_free(lg_dist_context_t **context)
{
    if (!context || !*context)
        return;
    lg_dist_context_t *c = *context;
    lg__dist_gpu_close(c);
    lg_context_free(&c->local);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
        MPI_Comm_free(&c->comm);
    free(c);
    *context = NULL;
}

int lg_dist_context_rank(const lg_dist_context_t *context)
{
    return context ? context->rank : -1;
}

int lg_dist_context_size(const lg_dist_context_t *context)
{
    return context ? context->size : 0;
}

const char *lg_dist_context_device(const lg_dist_context_t *context)
{
    return context ? context->device : "";
}

lg_context_t *lg_dist_context_local(const lg_dist_context_t *context)
{
    return context ? context->local : NULL;
}
