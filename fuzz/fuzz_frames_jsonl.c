/* libFuzzer target: the per-frame JSON-lines reader (frames.md 7.2) feeding the native frame model
 * (section 6) and one Matrix replay (section 3) chosen by the input's length. */
#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(const uint8_t *data, size_t size, int model)
{
    tt_error err;
    tt_input *in = NULL;
    tt_frames_reader *r = NULL;
    tt_frames *f = NULL;
    tt_frames_opts o = {0};
    o.model = model;
    o.window_ms = 100;
    o.b_frame_metrics = (size & 8) != 0;
    o.scaled = model == TT_FMODEL_NATIVE && (size & 16);
    if (tt_input_open_mem(&in, "fuzz", data, size, &err) == 0 &&
        tt_frames_reader_new(&r, in, TT_FIN_JSONL, &err) == 0 &&
        tt_frames_new(&f, &o, &err) == 0) {
        tt_frame_rec rec;
        while (tt_frames_reader_next(r, &rec, &err) == 0)
            if (tt_frames_add(f, &rec, "fuzz", &err))
                break;
        tt_frames_finish(f, &err);
        tt_jsonw w;
        tt_jsonw_init(&w, 1);
        for (size_t i = 0; i < tt_frames_report_count(f); i++)
            tt_fps_report_write(&w, tt_frames_report_get(f, i));
        tt_jsonw_free(&w);
    }
    tt_frames_free(f);
    tt_frames_reader_free(r);
    tt_input_close(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size, TT_FMODEL_NATIVE);
    run(data, size, TT_FMODEL_A1 + (int)(size % 4));
    return 0;
}
