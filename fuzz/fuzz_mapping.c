/* libFuzzer target: methodMapping.txt and ignoreMethodMapping.txt readers (method-beat.md
 * 4.1-4.3) and the display names of every method read (4.2). */
#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void names(const tt_mapping *m)
{
    tt_buf b = {0};
    uint32_t max = tt_mapping_max_id(m);
    for (uint32_t id = 0; id <= max + 1 && id < 4096; id++)
        for (int style = TT_NAME_JAVA; style <= TT_NAME_RAW; style++)
            tt_mapping_format_id(&b, m, id, style);
    tt_mapping_format_id(&b, m, TT_BEAT_DISPATCH, TT_NAME_FULL);
    const tt_method *me = tt_mapping_get(m, 1);
    if (me)
        tt_mapping_is_ignored(m, me->cls, me->name);
    tt_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_error err;
    tt_mapping_looks_like((const char *)data, size);
    for (int ignore = 0; ignore <= 1; ignore++) {
        tt_input *in = NULL;
        if (tt_input_open_mem(&in, "fuzz", data, size, &err))
            return 0;
        tt_mapping *m = tt_mapping_new();
        tt_stats *st = tt_stats_new();
        if (m && st) {
            int rc = ignore ? tt_mapping_load_ignore(m, in, &err)
                            : tt_mapping_load(m, in, st, &err);
            if (rc == 0) {
                names(m);
                tt_mapping_is_ignored(m, "a.B", "c");
            }
        }
        tt_stats_free(st);
        tt_mapping_free(m);
        tt_input_close(in);
    }
    return 0;
}
