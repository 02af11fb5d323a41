/* libFuzzer target: input-kind detection by content (cli.md "Inputs"; libtrace/detect.c):
 * magic numbers, method-beat plausibility, text kinds; every input goes through it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_detection d;
    tt_detect_full(&d, data, size);
    (void)tt_kind_name(d.kind);
    /* what gets printed must be a terminated string */
    if (d.what[sizeof d.what - 1] != 0 || (d.foreign && !d.what[0]))
        abort();
    /* a gzip-compressed copy goes through tt_input_detect */
    tt_input *in;
    if (!tt_input_open_mem(&in, "f", data, size, NULL)) {
        (void)tt_input_detect(&d, in, NULL);
        tt_input_close(in);
    }
    return 0;
}
