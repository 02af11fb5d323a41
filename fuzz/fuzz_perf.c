/* libFuzzer target: the perf script text reader (spec/samples.md 2.2), then slice rebuilding
 * (section 5) and every exporter (section 7) on what was read. */
#include <stdint.h>
#include <stddef.h>

#include "../libtrace/tt.h"
#include "fuzz_chunked.h"
#include "fuzz_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the input's length picks the chunk size of the line reader: lines cut across reads */
    fuzz_import_exercise(tt_perf_import, data, size, 1 + size % 97);
    fuzz_same_chunked(tt_perf_import, data, size);
    return 0;
}
