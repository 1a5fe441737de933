/*
 * waits.c - how the OpenMP threads of lgraph and lgraph-dist wait.
 *
 * Between two parallel regions, and at a barrier, an OpenMP thread first
 * spins, then sleeps: libgomp for 300,000 pauses (6-8 ms), LLVM's libomp for
 * 200 ms.  The library fits its teams to the cores other programs leave
 * (include/libgraph.h), so a spin costs them little, and a thread woken from
 * sleep costs each region tens of microseconds; libomp's 200 ms, though,
 * holds the cores long after a call.  So a tool built with libomp runs with
 * its spin set to 10 ms, about libgomp's, unless the user has chosen a policy
 * (docs/decisions/openmp-waits.md).  Built with libgomp, nothing changes.
 *
 * The runtime reads the variable when it starts, which a library that
 * needs it may make happen before main, and a variable set in an
 * executable's .preinit_array is undone by the C library's own start-up.
 * So the tool starts itself again, once, with the variable set: an exec of
 * its own file, about a millisecond.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "cli.h"

#include <stdlib.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

void cli_bounded_waits(char **argv)
{
#if defined(_OPENMP) && defined(KMP_VERSION_MAJOR) && defined(__linux__)
    static const char *const chosen[] = {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME",
                                         "KMP_LIBRARY"};
    for (size_t i = 0; i < sizeof chosen / sizeof *chosen; i++)
        if (getenv(chosen[i]))
            return;
    if (setenv("KMP_BLOCKTIME", "10", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    unsetenv("KMP_BLOCKTIME"); /* no exec: on as the runtime already is */
#else
    (void)argv; /* libgomp's own spin is the one wanted */
#endif
}
