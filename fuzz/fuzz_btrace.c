/* libFuzzer target: the btrace sampling + sampling-mapping reader (spec/samples.md 2.1); the input is split at the first 0xff 0xfe pair into sampling and mapping, then slice rebuilding
 * (section 5) and every exporter (section 7) on what was read. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt.h"
#include "fuzz_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_profile *p = NULL;
    tt_stats *st = tt_stats_new();
    tt_input *in = NULL, *min = NULL;
    tt_error err;
    tt_import_opts io = {0};
    if (tt_profile_new(&p, TT_IDENT_NAME) == 0) {
        size_t cut = size;
        for (size_t i = 0; i + 1 < size; i++)
            if (data[i] == 0xff && data[i + 1] == 0xfe) {
                cut = i;
                break;
            }
        if (tt_input_open_mem(&in, "fuzz", data, cut, &err) == 0 &&
            (cut + 2 > size || tt_input_open_mem(&min, "fuzz-map", data + cut + 2,
                                                  size - cut - 2, &err) == 0) &&
            tt_btrace_import(p, in, min, &io, st, &err) == 0)
            fuzz_exercise(p);
    }
    tt_input_close(in);
    tt_input_close(min);
    tt_profile_free(p);
    tt_stats_free(st);
    return 0;
}
