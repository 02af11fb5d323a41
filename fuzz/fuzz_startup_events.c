/* libFuzzer target: the JSON-lines startup event stream (startup.md 4.2) through Matrix's
 * state machine and the native analysis, with a small method-beat buffer for the stacks. */
#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t beat[] = {
        0x8000080000000000ULL, 0x8000100000000064ULL, 0x00001000000000c8ULL,
        0xfffff0000000012cULL, 0x8000180000000190ULL, 0x7ffff000000001f4ULL,
    };
    for (int with_beat = 0; with_beat <= 1; with_beat++) {
        tt_su_opts o = {.splash = "a.S;b.S", .cold_ms = 100, .warm_ms = 50,
                        .has_cold_ms = 1, .has_warm_ms = 1};
        if (with_beat) {
            o.beat = beat;
            o.n_beat = sizeof beat / sizeof beat[0];
            o.force_stack = 1;
        }
        tt_stats *st = tt_stats_new();
        tt_startup *s = NULL;
        tt_input *in = NULL;
        tt_error err;
        if (st && tt_startup_new(&s, &o, st, &err) == 0 &&
            tt_input_open_mem(&in, "fuzz", data, size, &err) == 0 &&
            tt_startup_read_events(s, in, &err) == 0)
            tt_startup_finish(s, &err);
        tt_input_close(in);
        tt_startup_free(s);
        tt_stats_free(st);
    }
    return 0;
}
