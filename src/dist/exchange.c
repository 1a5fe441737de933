/*
 * exchange.c - moving arrays between ranks.
 *
 * Everything irregular goes through one all-to-all: nonblocking point-to-point
 * messages to every other rank, each at most LG_DIST_MESSAGE_BYTES (so no
 * count passed to MPI overflows its int, whatever the graph's size), the
 * rank's own share copied in memory.  MPI_Alltoallv would take int counts and
 * displacements; this takes 64-bit ones.  Every byte sent to another rank is
 * counted in the context, for lg_dist_traffic_t.
 */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

#ifndef LG_DIST_MESSAGE_BYTES
#define LG_DIST_MESSAGE_BYTES ((int64_t)1 << 30)
#endif

#define LG_DIST_TAG 0x4c47

/* Messages from one rank to another: pieces of at most LG_DIST_MESSAGE_BYTES. */
static int64_t pieces(int64_t bytes)
{
    return (bytes + LG_DIST_MESSAGE_BYTES - 1) / LG_DIST_MESSAGE_BYTES;
}

int64_t lg__dist_requests(const lg_dist_context_t *c, const int64_t *send_counts,
                          const int64_t *recv_counts, size_t elem)
{
    int64_t n = 0;
    for (int p = 0; p < c->size; p++)
        if (p != c->rank)
            n += pieces(send_counts[p] * (int64_t)elem) + pieces(recv_counts[p] * (int64_t)elem);
    return n;
}

lg_status_t lg__dist_alltoallv_into(lg_dist_context_t *c, const void *send,
                                    const int64_t *send_counts, const int64_t *send_displs,
                                    size_t elem, void *recv, const int64_t *recv_counts,
                                    const int64_t *recv_displs, MPI_Request *req)
{
    const int P = c->size, me = c->rank;
    int64_t k = 0;
    int rc = MPI_SUCCESS;
    for (int p = 0; p < P && rc == MPI_SUCCESS; p++) {
        if (p == me)
            continue;
        char *at = (char *)recv + recv_displs[p] * (int64_t)elem;
        for (int64_t left = recv_counts[p] * (int64_t)elem; left > 0 && rc == MPI_SUCCESS;) {
            int64_t b = left < LG_DIST_MESSAGE_BYTES ? left : LG_DIST_MESSAGE_BYTES;
            rc = MPI_Irecv(at, (int)b, MPI_BYTE, p, LG_DIST_TAG, c->comm, &req[k++]);
            at += b;
            left -= b;
        }
    }
    for (int i = 1; i < P && rc == MPI_SUCCESS; i++) {
        int p = (me + i) % P; /* staggered, so rank 0 is not every rank's first */
        const char *at = (const char *)send + send_displs[p] * (int64_t)elem;
        int64_t bytes = send_counts[p] * (int64_t)elem;
        c->bytes_sent += bytes;
        for (int64_t left = bytes; left > 0 && rc == MPI_SUCCESS;) {
            int64_t b = left < LG_DIST_MESSAGE_BYTES ? left : LG_DIST_MESSAGE_BYTES;
            rc = MPI_Isend(at, (int)b, MPI_BYTE, p, LG_DIST_TAG, c->comm, &req[k++]);
            at += b;
            left -= b;
        }
    }
    /* the own share, in pieces over the threads (it is all of it on one rank);
     * one memmove where the two overlap (a gather into the array it reads) */
    const int64_t own = send_counts[me] * (int64_t)elem, per = 1 << 20;
    char *to = (char *)recv + recv_displs[me] * (int64_t)elem;
    const char *from = (const char *)send + send_displs[me] * (int64_t)elem;
    if (own > 0 && to < from + own && from < to + own) {
        memmove(to, from, (size_t)own);
    } else {
#pragma omp parallel for num_threads(lg__dist_threads(c)) schedule(static) if (own > 4 * per)
        for (int64_t at = 0; at < own; at += per)
            memcpy(to + at, from + at, (size_t)(own - at < per ? own - at : per));
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Waitall((int)k, req, MPI_STATUSES_IGNORE);
    return rc == MPI_SUCCESS ? LG_OK : lg__dist_mpi_error(rc, "a point-to-point exchange");
}

lg_status_t lg__dist_alltoallv(lg_dist_context_t *c, const void *send, const int64_t *send_counts,
                               size_t elem, void **recv, int64_t *recv_counts)
{
    const int P = c->size;
    *recv = NULL;
    int rc = MPI_Alltoall(send_counts, 1, MPI_INT64_T, recv_counts, 1, MPI_INT64_T, c->comm);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Alltoall");
    int64_t *displs = lg__dist_alloc(2 * (size_t)P + 2, sizeof *displs, "exchange offsets");
    MPI_Request *req = lg__dist_alloc((size_t)lg__dist_requests(c, send_counts, recv_counts, elem),
                                      sizeof *req, "MPI requests");
    lg_status_t st = displs && req ? LG_OK : LG_ERR_OUT_OF_MEMORY;
    int64_t total = 0;
    void *buf = NULL;
    if (st == LG_OK) {
        int64_t *sd = displs, *rd = displs + P + 1;
        sd[0] = rd[0] = 0;
        for (int p = 0; p < P; p++) {
            sd[p + 1] = sd[p] + send_counts[p];
            rd[p + 1] = rd[p] + recv_counts[p];
        }
        total = rd[P];
        buf = lg__dist_alloc((size_t)total, elem, "the received edges");
        if (!buf)
            st = LG_ERR_OUT_OF_MEMORY;
    }
    st = lg__dist_agree(c, st);
    if (st == LG_OK)
        st = lg__dist_alltoallv_into(c, send, send_counts, displs, elem, buf, recv_counts,
                                     displs + P + 1, req);
    free(displs);
    free(req);
    if (st != LG_OK) {
        free(buf);
        return st;
    }
    *recv = buf;
    return LG_OK;
}

/* The halo's values, then (aligned) its requests. */
static size_t halo_values_bytes(const lg_dist_graph_t *g, const struct lg_dist_halo *h, size_t elem)
{
    const size_t bytes = (size_t)(h->send_displs[g->size] + h->recv_displs[g->size]) * elem;
    const size_t align = _Alignof(MPI_Request);
    return (bytes + align - 1) / align * align;
}

size_t lg__dist_halo_scratch(const lg_dist_context_t *c, const lg_dist_graph_t *g,
                             const struct lg_dist_halo *h, size_t elem)
{
    return halo_values_bytes(g, h, elem) +
           (size_t)lg__dist_requests(c, h->send_counts, h->recv_counts, elem) * sizeof(MPI_Request);
}

lg_status_t lg__dist_halo_exchange(lg_dist_context_t *c, const lg_dist_graph_t *g,
                                   const struct lg_dist_halo *h, void *values, size_t elem,
                                   void *scratch)
{
    const int P = g->size;
    const int64_t ns = h->send_displs[P], nr = h->recv_displs[P];
    char *sendbuf = scratch, *recvbuf = (char *)scratch + ns * (int64_t)elem;
    char *val = values;
    const int threads = lg__dist_threads(c);
    const int32_t *idx = h->send_index;
    if (elem == 8) {
        const uint64_t *src = values;
        uint64_t *dst = (uint64_t *)sendbuf;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t i = 0; i < ns; i++)
            dst[i] = src[idx[i]];
    } else {
        for (int64_t i = 0; i < ns; i++)
            memcpy(sendbuf + i * (int64_t)elem, val + (int64_t)idx[i] * (int64_t)elem, elem);
    }
    MPI_Request *req = (MPI_Request *)((char *)scratch + halo_values_bytes(g, h, elem));
    lg_status_t st = lg__dist_alltoallv_into(c, sendbuf, h->send_counts, h->send_displs, elem,
                                             recvbuf, h->recv_counts, h->recv_displs, req);
    if (st != LG_OK)
        return st;
    char *ghosts = val + g->n_local * (int64_t)elem;
    if (!h->recv_ghost) {
        memcpy(ghosts, recvbuf, (size_t)(nr * (int64_t)elem));
        return LG_OK;
    }
    const int32_t *to = h->recv_ghost;
    if (elem == 8) {
        const uint64_t *src = (const uint64_t *)recvbuf;
        uint64_t *dst = (uint64_t *)ghosts;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t i = 0; i < nr; i++)
            dst[to[i]] = src[i];
    } else {
        for (int64_t i = 0; i < nr; i++)
            memcpy(ghosts + (int64_t)to[i] * (int64_t)elem, recvbuf + i * (int64_t)elem, elem);
    }
    return LG_OK;
}

void lg__dist_halo_free(struct lg_dist_halo *h)
{
    free(h->send_counts);
    free(h->send_index);
    free(h->recv_ghost);
    memset(h, 0, sizeof *h);
}

static lg_status_t allreduce(lg_dist_context_t *c, void *v, int count, MPI_Datatype type, MPI_Op op)
{
    int rc = MPI_Allreduce(MPI_IN_PLACE, v, count, type, op, c->comm);
    return rc == MPI_SUCCESS ? LG_OK : lg__dist_mpi_error(rc, "MPI_Allreduce");
}

lg_status_t lg__dist_sum_i64(lg_dist_context_t *c, int64_t *v, int count)
{
    return allreduce(c, v, count, MPI_INT64_T, MPI_SUM);
}

lg_status_t lg__dist_max_i64(lg_dist_context_t *c, int64_t *v, int count)
{
    return allreduce(c, v, count, MPI_INT64_T, MPI_MAX);
}

lg_status_t lg__dist_sum_f64(lg_dist_context_t *c, double *v, int count)
{
    return allreduce(c, v, count, MPI_DOUBLE, MPI_SUM);
}

void lg__dist_traffic_start(lg_dist_context_t *c)
{
    c->bytes_sent = 0;
}

lg_status_t lg__dist_traffic_end(lg_dist_context_t *c, int rounds, lg_dist_traffic_t *t)
{
    int64_t v[2] = {c->bytes_sent, c->bytes_sent};
    int rc = MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INT64_T, MPI_MAX, c->comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(MPI_IN_PLACE, v + 1, 1, MPI_INT64_T, MPI_SUM, c->comm);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Allreduce");
    if (t) {
        t->bytes_sent = c->bytes_sent;
        t->max_bytes_sent = v[0];
        t->total_bytes = v[1];
        t->rounds = rounds;
    }
    return LG_OK;
}

lg_status_t lg_dist_gather(lg_dist_context_t *c, const lg_dist_graph_t *g, const void *local,
                           size_t elem, int root, void *all)
{
    static const char fn[] = "lg_dist_gather";
    lg_status_t st = LG_OK;
    if (!c || !g)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: context or graph is NULL", fn);
    if (elem != 4 && elem != 8)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: elem_size %zu is not 4 or 8", fn, elem);
    else if (root < 0 || root >= c->size)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: root %d is not a rank of %d", fn, root,
                            c->size);
    else if (!local && g->n_local > 0)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: local is NULL", fn);
    else if (c->rank == root && !all && g->n > 0)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: all is NULL on the root", fn);
    st = lg__dist_agree(c, st);
    if (st != LG_OK)
        return st;
    const int P = c->size;
    int64_t *counts = lg__dist_calloc(4 * (size_t)P + 2, sizeof *counts, "gather counts");
    MPI_Request *req = NULL;
    if (counts) {
        int64_t *sc = counts, *rc = counts + 2 * P, *rd = counts + 3 * P;
        sc[root] = g->n_local;
        if (c->rank == root)
            for (int p = 0; p < P; p++) {
                rc[p] = g->firsts[p + 1] - g->firsts[p];
                rd[p] = g->firsts[p];
            }
        req =
            lg__dist_alloc((size_t)lg__dist_requests(c, sc, rc, elem), sizeof *req, "MPI requests");
    }
    st = lg__dist_agree(c, counts && req ? LG_OK : LG_ERR_OUT_OF_MEMORY);
    if (st == LG_OK)
        st = lg__dist_alltoallv_into(c, local, counts, counts + P, elem, all, counts + 2 * P,
                                     counts + 3 * P, req);
    free(counts);
    free(req);
    return st;
}
