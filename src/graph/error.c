/*
 * error.c - status names and the thread-local last-error message.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[LG_ERROR_CAPACITY];

const char *lg_status_string(lg_status_t status)
{
    switch (status) {
    case LG_OK: return "LG_OK";
    case LG_ERR_INVALID_ARGUMENT: return "LG_ERR_INVALID_ARGUMENT";
    case LG_ERR_OUT_OF_MEMORY: return "LG_ERR_OUT_OF_MEMORY";
    case LG_ERR_DEVICE: return "LG_ERR_DEVICE";
    case LG_ERR_UNSUPPORTED: return "LG_ERR_UNSUPPORTED";
    case LG_ERR_IO: return "LG_ERR_IO";
    case LG_ERR_NOT_CONVERGED: return "LG_ERR_NOT_CONVERGED";
    case LG_ERR_INTERNAL: return "LG_ERR_INTERNAL";
    case LG_ERR_CANCELLED: return "LG_ERR_CANCELLED";
    case LG_ERR_UNBOUNDED: return "LG_ERR_UNBOUNDED";
    }
    return "LG_ERR_UNKNOWN_STATUS";
}

const char *lg_last_error(void)
{
    return last_error;
}

lg_status_t lg__error(lg_status_t status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

lg_status_t lg_error_set(lg_status_t status, const char *message)
{
    return lg__error(status, "%s", message ? message : "");
}

void lg__error_clear(void)
{
    last_error[0] = '\0';
}

void lg__error_save(char saved[LG_ERROR_CAPACITY])
{
    memcpy(saved, last_error, LG_ERROR_CAPACITY);
}

void lg__error_restore(const char saved[LG_ERROR_CAPACITY])
{
    memcpy(last_error, saved, LG_ERROR_CAPACITY);
}

lg_status_t lg__oom(const char *what)
{
    return lg__error(LG_ERR_OUT_OF_MEMORY, "out of memory allocating %s", what);
}

lg_status_t lg__cancelled(const char *fn)
{
    return lg__error(LG_ERR_CANCELLED, "%s: cancelled by the progress callback", fn);
}
