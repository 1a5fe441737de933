/*
 * closeness_value.h - a vertex's closeness (or harmonic) centrality from
 * its search's sums, written as NetworkX writes it: shared by both
 * backends' kernels so that they give the same value for the same sums.
 *
 * Included by C (the core) and C++ (the .hip sources, on the device too).
 */
#ifndef LIBGRAPH_CLOSENESS_VALUE_H
#define LIBGRAPH_CLOSENESS_VALUE_H

#include "algorithms.h"
#include "host_device.h"

/* u's value in a graph of n vertices from the r vertices its search reached
 * (u included) at total distance `sum`, or with harmonic the sum of the
 * inverse distances `inverse`: (r - 1) / sum, times (r - 1) / (n - 1) with
 * wf_improved, 0 when nothing else reaches u. */
LG_SHARED_FN double lg_closeness_value(const struct lg_closeness_args *a, int64_t n, int64_t r,
                                       double sum, double inverse)
{
    if (a->harmonic)
        return inverse;
    if (!(sum > 0.0) || n < 2)
        return 0.0;
    double c = ((double)r - 1.0) / sum;
    if (a->wf_improved)
        c *= ((double)r - 1.0) / (double)(n - 1);
    return c;
}

#endif
