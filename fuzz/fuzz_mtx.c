/* fuzz_mtx.c - the Matrix Market reader (src/graph/io/mtx.c) on any bytes,
 * with any graph options (fuzz_util.h). */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_knobs k;
    fuzz_take_knobs(&data, &size, &k);
    fuzz_read(data, size, LG_FORMAT_MTX, &k);
    return 0;
}
