/*
 * backend.c - the CPU backend's table: the OpenMP kernels of this folder.
 */
#include "cpu.h"

const struct lg_backend lg__cpu_backend = {
    .name = "cpu",
    .bfs = lg__cpu_bfs,
    .pagerank = lg__cpu_pagerank,
    .components = lg__cpu_components,
};
