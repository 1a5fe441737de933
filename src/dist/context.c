/*
 * context.c - distributed contexts: their options, creation (the rank's CPU
 * context, and on GPU ranks its GPU and NCCL communicator: gpu.c) and the
 * accessors.
 */
#include "dist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
