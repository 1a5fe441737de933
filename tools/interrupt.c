/*
 * interrupt.c - Ctrl-C for lgraph (cli.h says what it does): the SIGINT
 * handler and the progress callback that every long libgraph call is given,
 * which stops the call at its next step once the handler has run.
 * lgraph-dist links it too, without the handler: mpirun stops its ranks.
 */
#include "cli.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    interrupted = 1;
    signal(sig, SIG_DFL); /* a second Ctrl-C ends the process at once */
}

void cli_catch_interrupts(void)
{
    struct sigaction sa, old;
    /* a background job's SIGINT is ignored by its shell: it stays ignored */
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

bool cli_go_on(const lg_progress_info_t *info, void *data)
{
    (void)info;
    (void)data;
    return !interrupted;
}
