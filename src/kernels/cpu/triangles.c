/*
 * triangles.c - triangles on the CPU: triangle_count.h's kernel, each
 * vertex's count and the total.
 */
#include "triangle_count.h"

/* The out-edges of an undirected graph are all its edges: no in-edges. */
const struct lg_kernel LG_CPU_ROW(triangles) = {LG_ALG_TRIANGLES, count_triangles, false};
