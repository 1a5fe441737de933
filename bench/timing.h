/*
 * timing.h - the clock and the median the benchmark programs share.
 */
#ifndef LG_BENCH_TIMING_H
#define LG_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

/* Seconds on a monotonic clock. */
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_compare_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0 .. k), k >= 1; sorts v. */
static inline double bench_median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, bench_compare_double);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

#endif
