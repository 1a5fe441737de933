/*
 * base.c - what every file of libgraph_dist uses: errors, allocation (with
 * the tests' failure injection), the rank's threads, and how the ranks
 * agree on a failure.
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
