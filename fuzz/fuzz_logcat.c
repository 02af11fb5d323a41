/* libFuzzer target: logcat Displayed / Fully drawn lines and `am start -W` blocks
 * (startup.md 4.3, 4.4), then the launch statistics. */
#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_su_opts o = {0};
    tt_stats *st = tt_stats_new();
    tt_startup *s = NULL;
    tt_input *in = NULL;
    tt_error err;
    if (st && tt_startup_new(&s, &o, st, &err) == 0 &&
        tt_input_open_mem(&in, "fuzz", data, size, &err) == 0 &&
        tt_startup_read_launches(s, in, &err) == 0)
        tt_startup_finish(s, &err);
    int64_t ms;
    size_t used;
    tt_su_parse_duration((const char *)data, size, &ms, &used);
    tt_su_detect((const char *)data, size);
    tt_input_close(in);
    tt_startup_free(s);
    tt_stats_free(st);
    return 0;
}
