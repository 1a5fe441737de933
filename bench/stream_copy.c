/*
 * stream_copy.c - the memory bandwidth a STREAM-like copy reaches with T
 * threads: the yardstick bench/run puts the CPU kernels' bytes per second
 * against (McCalpin's STREAM "Copy" kernel, c[i] = a[i], counted as 16 bytes
 * an element, one read and one write, over arrays far larger than the caches).
 *
 *   bench_stream [THREADS] [MIB]      (defaults: OpenMP's thread count, 512 MiB an array)
 *
 * Each thread first touches its own static share of both arrays (so pages
 * sit near the thread that copies them), one untimed copy follows, then the
 * best of 10 timed copies (STREAM's convention) is printed as one line:
 *
 *   stream_copy_gbs GBS threads T mib MIB
 *
 * Not part of the library; bench/run compiles it (gcc -O2 -fopenmp) when
 * it is not built, and CMake builds it so that CI compiles it with the
 * project's warnings.
 */
#define _POSIX_C_SOURCE 200809L

#include "timing.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TRIALS 10

int main(int argc, char **argv)
{
    const int threads = argc > 1 ? atoi(argv[1]) : omp_get_max_threads();
    const long mib = argc > 2 ? atol(argv[2]) : 512;
    if (threads < 1 || mib < 1) {
        fprintf(stderr, "usage: bench_stream [THREADS >= 1] [MIB >= 1]\n");
        return 2;
    }
    const long n = mib * (1L << 20) / (long)sizeof(double);
    double *a = malloc((size_t)n * sizeof *a), *c = malloc((size_t)n * sizeof *c);
    if (!a || !c) {
        fprintf(stderr, "bench_stream: out of memory (2 x %ld MiB)\n", mib);
        free(a);
        free(c);
        return 1;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = (double)i;
        c[i] = 0.0;
    }
    double best = 0.0;
    for (int t = 0; t <= TRIALS; t++) {
        const double t0 = bench_now();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (long i = 0; i < n; i++)
            c[i] = a[i];
        const double dt = bench_now() - t0;
        if (t > 0 && (best == 0.0 || dt < best))
            best = dt;
    }
    /* a check that the copy happened (and is not optimised away) */
    if (c[n - 1] != (double)(n - 1) || c[n / 2] != (double)(n / 2)) {
        fprintf(stderr, "bench_stream: the copy is wrong\n");
        free(a);
        free(c);
        return 1;
    }
    printf("stream_copy_gbs %.2f threads %d mib %ld\n", 16.0 * (double)n / best / 1e9, threads,
           mib);
    free(a);
    free(c);
    return 0;
}
