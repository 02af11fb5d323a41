/* Shared by the frame readers' fuzz targets: one reader kind feeding the native frame model
 * (frames.md section 6) and one Matrix replay (section 3) chosen by the input's length. */
#ifndef FUZZ_FRAMES_H
#define FUZZ_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

static inline void fuzz_frames_run(const uint8_t *data, size_t size, int kind, int model)
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
        tt_frames_reader_new(&r, in, kind, &err) == 0 &&
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

static inline void fuzz_frames(const uint8_t *data, size_t size, int kind)
{
    fuzz_frames_run(data, size, kind, TT_FMODEL_NATIVE);
    fuzz_frames_run(data, size, kind, TT_FMODEL_A1 + (int)(size % 4));
}

#endif
