/*
 * katz.c - Katz centrality on the CPU: the linear power iteration of
 * power.h, x' = alpha A^T x + beta.
 */
#include "power.h"

/* The pull reads the in-edges: each vertex sums its in-neighbours. */
const struct lg_kernel LG_CPU_ROW(katz) = {LG_ALG_KATZ, lg__power_iteration, true};
