/*
 * eigenvector.c - eigenvector centrality on the CPU: the linear power
 * iteration of power.h, x' = (A^T x + x) / |A^T x + x|_2.
 */
#include "power.h"

/* The pull reads the in-edges: each vertex sums its in-neighbours. */
const struct lg_kernel LG_CPU_ROW(eigenvector) = {LG_ALG_EIGENVECTOR, lg__power_iteration, true};
