/*
 * hits.c - hubs and authorities (HITS) on the CPU.
 *
 * Returns: hubs[v] and authorities[v] as lg_hits defines them (NetworkX's
 * iteration).
 *
 * Method: Kleinberg's iteration (JACM 1999) as NetworkX writes it: from the
 * hubs h, a = A^T h (a pull over the in-edges: a vertex's authority is its
 * in-neighbours' hub scores), h = A a (a pull over the out-edges), each
 * then multiplied by the inverse of its largest entry; the L1 change of h
 * decides convergence.  Each pass is one thread a row, over blocks whose
 * partial sums add up in a fixed order (power.h).
 *
 * The vectors are double or float (hits_typed.h, included once for each,
 * in power.h's way: the sums and scalings double in both).
 *
 * Cost per iteration: one pass over the in-arcs and one over the out-arcs,
 * two over the vertices; memory: 3 vectors of n (of the call's type).
 */
#include "power.h"

#include <string.h>

static double largest(const struct power_blocks *b)
{
    double most = 0.0;
    for (int64_t k = 0; k < b->count; k++)
        most = b->part[2 * k] > most ? b->part[2 * k] : most;
    return most;
}

#define POWER_REAL double
#define POWER_FN(name) name##_f64
#include "hits_typed.h"
#define POWER_REAL float
#define POWER_FN(name) name##_f32
#include "hits_typed.h"

static lg_status_t hits(const struct lg_exec *exec, const struct lg_graph_view *g, const void *args)
{
    const struct lg_hits_args *a = args;
    return a->precision == LG_PRECISION_F32 ? hits_f32(exec, g, a) : hits_f64(exec, g, a);
}

/* Authorities pull over the in-edges, hubs over the out-edges. */
const struct lg_kernel LG_CPU_ROW(hits) = {LG_ALG_HITS, hits, true};
