/*
 * kernels.c - the CPU's kernel table (src/graph/kernels.h): the OpenMP
 * kernels of this folder.  BFS reads the in-edges when it goes bottom-up on
 * a directed graph, and pull PageRank always does; CC reads them when the
 * graph already has them (components.c says why).
 */
#include "cpu.h"

const struct lg_kernels lg__cpu_kernels = {
    .bfs = lg__cpu_bfs,
    .pagerank = lg__cpu_pagerank,
    .components = lg__cpu_components,
    .in_edges = LG_ALGORITHM_BFS | LG_ALGORITHM_PAGERANK,
};
