/* libFuzzer target: KSCrash / Matrix iOS reports (ios.md 2-4, 9.2) in every container,
 * the 2.2 big-integer rewrite, images, frames through a fake resolver, profile trees and
 * the symbolicated JSON writer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt_kscrash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fake(void *ctx, tt_native_frame *frames, size_t cap, const tt_native_loc *loc,
                tt_error *err)
{
    (void)ctx;
    if (!loc->build_id || (loc->addr & 1))
        return tt_error_set(err, TT_ENOTFOUND, loc->module, 0, 0, "no dSYM");
    size_t n = (size_t)(loc->addr % 3);
    for (size_t i = 0; i < n && i < cap; i++)
        frames[i] = (tt_native_frame){"f", "/src/f.c", (uint32_t)i, 0, i + 1 < n, 0, 0};
    return (int)(n < cap ? n : cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the rewrite on its own: a number scanner that must never over- or under-run */
    char *out = NULL;
    size_t on;
    uint64_t rw, ov;
    if (tt_ks_rewrite_big(&out, &on, (const char *)data, size, &rw, &ov) == 0 &&
        out[on] != 0)
        abort();
    free(out);
    (void)tt_ks_detect(data, size);
    tt_error err;
    tt_input *in = NULL;
    if (tt_input_open_mem(&in, "fuzz", data, size, &err))
        return 0;
    tt_stats *st = tt_stats_new();
    tt_resolver res = {fake, NULL};
    tt_ks_opts o = {.resolver = &res, .no_adjust = size & 1};
    tt_ks_reader *r = NULL;
    if (tt_ks_reader_new(&r, in, &o, st, &err) == 0) {
        const tt_ks_report *rep;
        tt_buf b = {0};
        while (tt_ks_reader_next(r, &rep, &err) == 0) {
            b.len = 0;
            tt_ks_json_write(&b, r, rep, "\"k\":1");
            tt_ks_json_raw(&b, r, rep);
            for (size_t i = 0; i < rep->n_nodes; i++)
                if (rep->nodes[i].parent >= (int32_t)i || rep->nodes[i].frame >= rep->n_frames)
                    abort();
            for (size_t i = 0; i < rep->n_threads; i++)
                if (rep->threads[i].frame + rep->threads[i].n_frames > rep->n_frames)
                    abort();
        }
        tt_buf_free(&b);
    }
    tt_ks_reader_free(r);
    tt_input_close(in);
    tt_stats_free(st);
    return 0;
}
