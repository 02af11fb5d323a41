/* libFuzzer target: the per-frame JSON-lines reader (frames.md 7.2) feeding the native frame model
 * (section 6) and one Matrix replay (section 3) chosen by the input's length. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_frames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_frames(data, size, TT_FIN_JSONL);
    return 0;
}
