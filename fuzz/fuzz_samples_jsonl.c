/* libFuzzer target: the tracetool JSON-lines samples reader (spec/samples.md 2.4), then slice
 * rebuilding (section 5) and every exporter (section 7) on what was read. */
#include <stdint.h>
#include <stddef.h>

#include "../libtrace/tt.h"
#include "fuzz_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_import_exercise(tt_jsonl_import, data, size, 0);
    return 0;
}
