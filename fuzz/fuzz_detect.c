/* libFuzzer target: input-kind detection by content (cli.md "Inputs"; libtrace/detect.c),
 * which every analyze input goes through before any reader. */
#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_kind k = tt_detect(data, size);
    (void)tt_kind_name(k);
    return 0;
}
