/* libFuzzer target: the method-beat buffer reader (method-beat.md section 3) feeding the
 * structured-stack algorithm (section 5) in strict and lenient mode (strict: rotated as a ring
 * dump, 3.4). */
#include <stdint.h>
#include <stddef.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int strict = 0; strict <= 1; strict++) {
        tt_error err;
        tt_input *in = NULL;
        if (tt_input_open_mem(&in, "fuzz", data, size, &err))
            return 0;
        tt_beat_reader *r = NULL;
        tt_mstack_opts o = {.strict = strict, .trim = strict ? 30 : 0};
        tt_mstack *ms = NULL;
        if (tt_beat_reader_new(&r, in, TT_BEAT_FMT_AUTO, &err) == 0 &&
            tt_mstack_new(&ms, &o) == 0) {
            if (strict) /* --ring-next: a slot number taken from the size */
                tt_beat_reader_set_ring_next(r, size % 17);
            uint64_t blk[256];
            size_t n;
            while (tt_beat_reader_next(r, blk, 256, &n, &err) == 0)
                tt_mstack_feed(ms, blk, n);
            tt_mstack_finish(ms, &err);
        }
        tt_mstack_free(ms);
        tt_beat_reader_free(r);
        tt_input_close(in);
    }
    return 0;
}
