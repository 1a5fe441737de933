/*
 * waits.c - how the OpenMP threads of lgraph and lgraph-dist wait.
 *
 * Between two parallel regions, and at a barrier, an OpenMP thread first
 * spins: libgomp 300,000 times by default (6-8 ms), LLVM's libomp for
 * 200 ms.  On a machine whose cores other programs want (a browser, a build,
 * the other ranks of a job), a spinning thread takes the core from the
 * thread that has the work, and a call of a millisecond takes a hundred
 * (docs/PERFORMANCE.md, "A busy machine"); sleeping at once costs a wake-up
 * at every region instead (docs/decisions/bounded-spin.md).  So the tools
 * run with the spin bounded to about a millisecond, then sleep, unless the
 * user has chosen a policy: GOMP_SPINCOUNT=30000 for libgomp (pauses: 0.6 ms
 * on a Xeon, 0.8 ms on an EPYC), KMP_BLOCKTIME=1 (ms) for LLVM's libomp.
 *
 * libgomp reads the variables when it is loaded, before main; a variable set
 * earlier still (an executable's .preinit_array) is undone by the C
 * library's own start-up, which sets the environment again from the one the
 * program was started with.  So the tool starts itself again, once, with the
 * variable set: an exec of its own file, about a millisecond.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "lgraph.h"

#include <stdlib.h>
#include <unistd.h>

void cli_bounded_waits(char **argv)
{
#if defined(_OPENMP) && defined(__linux__)
    static const char *const chosen[] = {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME",
                                         "KMP_LIBRARY"};
    for (size_t i = 0; i < sizeof chosen / sizeof *chosen; i++)
        if (getenv(chosen[i]))
            return;
    if (setenv("GOMP_SPINCOUNT", "30000", 1) != 0 || setenv("KMP_BLOCKTIME", "1", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    unsetenv("GOMP_SPINCOUNT"); /* no exec: on as the runtime already is */
    unsetenv("KMP_BLOCKTIME");
#else
    (void)argv;
#endif
}
