/*
 * fuzz_build.c - building graphs from arbitrary arrays (src/graph/build.c,
 * build_csr.c, csr.c) with any options (fuzz_util.h), then BFS, connected
 * components and PageRank on what was built (fuzz_check_graph).
 *
 * After the knobs: two bytes of vertex count (its top bit: a negative
 * count), then records of 2-byte source, 2-byte destination and (weighted,
 * by the extra byte) a 4-byte float taken bit for bit, so NaN, infinities,
 * negatives and subnormals come in.  Ids are signed 16-bit: negative and
 * too-large ones occur.  The extra byte also picks COO or CSR input: as a
 * CSR, the sources become row lengths (offsets may then not fit the
 * indices, or decrease past a negative length).
 */
#include "fuzz_util.h"

static int16_t take16(const uint8_t *p)
{
    return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_knobs k;
    fuzz_take_knobs(&data, &size, &k);
    if (size < 2)
        return 0;
    const bool weighted = k.extra & 1, as_csr = k.extra & 2;
    const int16_t n16 = take16(data);
    const int64_t n = n16 < 0 ? n16 : n16 % 2048;
    data += 2, size -= 2;
    const size_t rec = weighted ? 8 : 4, E = size / rec;
    lg_vertex_t *src = malloc((E ? E : 1) * sizeof *src), *dst = malloc((E ? E : 1) * sizeof *dst);
    float *w = weighted ? malloc((E ? E : 1) * sizeof *w) : NULL;
    lg_edge_t *off = NULL;
    if (!src || !dst || (weighted && !w))
        goto done;
    for (size_t i = 0; i < E; i++) {
        src[i] = take16(data + i * rec);
        dst[i] = take16(data + i * rec + 2);
        if (weighted)
            memcpy(&w[i], data + i * rec + 4, sizeof(float));
    }
    lg_graph_t *g = NULL;
    lg_status_t st;
    if (as_csr) {
        /* n + 1 offsets from the first n sources as row lengths; the
         * destinations are the column indices */
        const int64_t rows = n > 0 ? n : 0;
        if (!(off = malloc((size_t)(rows + 1) * sizeof *off)))
            goto done;
        off[0] = 0;
        for (int64_t v = 0; v < rows; v++)
            off[v + 1] = off[v] + ((size_t)v < E ? src[v] % 64 : 0);
        if (off[rows] > (int64_t)E) /* the indices array must hold them */
            off[rows] = (int64_t)E;
        lg__error_clear(); /* a failure must set its own message */
        lg__alloc_fail_after(k.fail_after);
        st = lg_graph_from_csr(NULL, n, off, dst, w, &k.options, &g);
    } else {
        lg__error_clear();
        lg__alloc_fail_after(k.fail_after);
        st = lg_graph_from_edges(NULL, n, (int64_t)E, src, dst, w, &k.options, &g);
    }
    lg__alloc_fail_after(-1);
    if (st != LG_OK) {
        fuzz_check_failure(st);
        FUZZ_REQUIRE(g == NULL);
    } else {
        fuzz_check_graph(g);
        lg_graph_free(&g);
    }
done:
    free(src);
    free(dst);
    free(w);
    free(off);
    return 0;
}
