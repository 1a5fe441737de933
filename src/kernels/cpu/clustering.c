/*
 * clustering.c - clustering on the CPU: triangle_count.h's kernel, the
 * coefficients, their average and the transitivity from the triangles.
 */
#include "triangle_count.h"

const struct lg_kernel LG_CPU_ROW(clustering) = {LG_ALG_CLUSTERING, count_triangles, false};
