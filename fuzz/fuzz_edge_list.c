/* fuzz_edge_list.c - the edge-list readers (src/graph/io/edgelist.c, text.c),
 * .el or .wel by the knobs' extra byte, on any bytes with any graph options
 * (fuzz_util.h). */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_knobs k;
    fuzz_take_knobs(&data, &size, &k);
    fuzz_read(data, size, k.extra & 1 ? LG_FORMAT_WEL : LG_FORMAT_EL, &k);
    return 0;
}
