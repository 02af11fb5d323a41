/* libFuzzer target: KSCrash / Matrix iOS reports (ios.md 2-4, 9.2) in every container,
 * the 2.2 big-integer rewrite, images, frames through a fake resolver, profile trees and
 * the symbolicated JSON writer; then differentially: the binary_images fast path
 * (no_image_json, kscrash_scan.c) must give the same reports, images and errors. */
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

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static void same_images(const tt_ks_report *a, const tt_ks_report *b)
{
    if (a->n_images != b->n_images || a->n_frames != b->n_frames || a->n_syms != b->n_syms)
        abort();
    for (size_t i = 0; i < a->n_images; i++) {
        const tt_ks_image *x = &a->images[i], *y = &b->images[i];
        if (x->addr != y->addr || x->size != y->size || x->vmaddr != y->vmaddr ||
            x->cpu_type != y->cpu_type || x->cpu_subtype != y->cpu_subtype ||
            !str_eq(x->path, y->path) || !str_eq(x->uuid, y->uuid) || x->is_app != y->is_app)
            abort();
        for (int k = 0; k < 4; k++)
            if (!str_eq(x->crash_info[k], y->crash_info[k]))
                abort();
    }
    for (size_t i = 0; i < a->n_frames; i++)
        if (a->frames[i].image != b->frames[i].image || a->frames[i].lookup != b->frames[i].lookup)
            abort();
}

/* Both readers in lockstep over the same bytes. */
static void differential(const uint8_t *data, size_t size, const tt_resolver *res)
{
    tt_input *in[2] = {NULL, NULL};
    tt_ks_reader *r[2] = {NULL, NULL};
    tt_stats *st[2] = {tt_stats_new(), tt_stats_new()};
    tt_error err[2];
    for (int k = 0; k < 2; k++) {
        tt_ks_opts o = {.resolver = res, .no_adjust = size & 1, .no_image_json = k};
        if (tt_input_open_mem(&in[k], "fuzz", data, size, &err[k]) ||
            tt_ks_reader_new(&r[k], in[k], &o, st[k], &err[k]))
            goto out;
    }
    for (;;) {
        const tt_ks_report *rep[2];
        int rc0 = tt_ks_reader_next(r[0], &rep[0], &err[0]);
        int rc1 = tt_ks_reader_next(r[1], &rep[1], &err[1]);
        if (rc0 != rc1 || strcmp(tt_ks_reader_warning(r[0]), tt_ks_reader_warning(r[1])))
            abort();
        if (rc0) {
            if (rc0 != TT_DONE && (strcmp(err[0].msg, err[1].msg) || err[0].loc != err[1].loc))
                abort();
            break;
        }
        same_images(rep[0], rep[1]);
    }
out:
    for (int k = 0; k < 2; k++) {
        tt_ks_reader_free(r[k]);
        tt_input_close(in[k]);
        tt_stats_free(st[k]);
    }
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
    differential(data, size, &res);
    return 0;
}
