/*
 * row_sort.h - one row's stable sort by destination and duplicate merge,
 * weights moving along: build.c includes it once for each weight type, with
 * ROW_W the type and ROW_FN(name) the function's name for it.
 */
/* Stable insertion sort of a short run by destination, weights moving along. */
static void ROW_FN(insertion_sort)(lg_vertex_t *idx, ROW_W *w, int64_t len)
{
    for (int64_t i = 1; i < len; i++) {
        lg_vertex_t v = idx[i];
        ROW_W x = w ? w[i] : 0;
        int64_t j = i;
        for (; j > 0 && idx[j - 1] > v; j--) {
            idx[j] = idx[j - 1];
            if (w)
                w[j] = w[j - 1];
        }
        idx[j] = v;
        if (w)
            w[j] = x;
    }
}

/* Stable sort of one row by destination (equal destinations keep their
 * order), weights moving along: insertion sort for short rows, else an LSD
 * radix sort on 8-bit digits of the key_bits-bit ids, one counting pass for
 * all digits and one scatter pass a digit (skipped where every id shares the
 * digit), ping-ponging with the scratch (tmp_idx, tmp_w: len entries). */
static void ROW_FN(sort_row)(lg_vertex_t *idx, ROW_W *w, int64_t len, int key_bits, lg_vertex_t *tmp_idx,
                     ROW_W *tmp_w)
{
    enum {
        SHORT = 48,
        DIGITS = 4
    };
    int64_t k = 1;
    while (k < len && idx[k - 1] <= idx[k])
        k++;
    if (k >= len)
        return; /* already sorted */
    if (len <= SHORT) {
        ROW_FN(insertion_sort)(idx, w, len);
        return;
    }
    const int passes = (key_bits + 7) / 8;
    int64_t count[DIGITS][256];
    memset(count, 0, sizeof count);
    for (int64_t i = 0; i < len; i++) {
        uint32_t x = (uint32_t)idx[i];
        for (int d = 0; d < passes; d++)
            count[d][(x >> (8 * d)) & 255]++;
    }
    lg_vertex_t *a = idx, *b = tmp_idx;
    ROW_W *aw = w, *bw = tmp_w;
    for (int d = 0; d < passes; d++) {
        int64_t *c = count[d], run = 0;
        if (c[((uint32_t)a[0] >> (8 * d)) & 255] == len)
            continue; /* one bucket: the pass would copy */
        for (int x = 0; x < 256; x++) {
            int64_t t = c[x];
            c[x] = run;
            run += t;
        }
        if (w) {
            for (int64_t i = 0; i < len; i++) {
                int64_t p = c[((uint32_t)a[i] >> (8 * d)) & 255]++;
                b[p] = a[i];
                bw[p] = aw[i];
            }
        } else {
            for (int64_t i = 0; i < len; i++)
                b[c[((uint32_t)a[i] >> (8 * d)) & 255]++] = a[i];
        }
        lg_vertex_t *t = a;
        a = b;
        b = t;
        ROW_W *tw = aw;
        aw = bw;
        bw = tw;
    }
    if (a != idx) {
        memcpy(idx, a, (size_t)len * sizeof *idx);
        if (w)
            memcpy(w, aw, (size_t)len * sizeof *w);
    }
}

/* ---- duplicate merging ----------------------------------------------------------- */

/* Merges runs of equal destinations in one sorted row in place; returns the new length. */
static int64_t ROW_FN(merge_row)(lg_vertex_t *idx, ROW_W *w, int64_t len, lg_duplicates_t policy)
{
    if (policy == LG_DUPLICATES_KEEP)
        return len;
    int64_t out = 0;
    for (int64_t i = 0; i < len; out++) {
        int64_t j = i + 1;
        ROW_W acc = w ? w[i] : 0;
        for (; j < len && idx[j] == idx[i]; j++) {
            if (!w)
                continue;
            switch (policy) {
            case LG_DUPLICATES_SUM: acc += w[j]; break;
            case LG_DUPLICATES_MIN: acc = w[j] < acc ? w[j] : acc; break;
            case LG_DUPLICATES_MAX: acc = w[j] > acc ? w[j] : acc; break;
            case LG_DUPLICATES_LAST: acc = w[j]; break;
            default: break; /* FIRST keeps acc */
            }
        }
        idx[out] = idx[i];
        if (w)
            w[out] = acc;
        i = j;
    }
    return out;
}

#undef ROW_W
#undef ROW_FN
