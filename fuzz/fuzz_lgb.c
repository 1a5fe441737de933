/* fuzz_lgb.c - the binary reader (src/graph/io/lgb.c) on any bytes, with any
 * graph options (fuzz_util.h); a graph read must also hand back its names
 * as they were checked.  The checksum stops almost every mutation at once,
 * so the knobs' extra byte, when odd, has the reader accept a mismatch (a
 * test hook): the checks behind it get the fuzzer's time too. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_knobs k;
    fuzz_take_knobs(&data, &size, &k);
    lg__lgb_ignore_checksum(k.extra & 1);
    fuzz_read(data, size, LG_FORMAT_BINARY, &k);
    lg__lgb_ignore_checksum(0);
    return 0;
}
