/* libFuzzer target: KSCrash / Matrix iOS reports (ios.md 2-4, 9.2) in every container,
 * the 2.2 big-integer rewrite, images, frames through a fake resolver, profile trees and
 * the symbolicated JSON writer; then differentially: the fast paths of no_image_json
 * (kscrash_scan.c: the whole report as a tree without jansson, else binary_images alone)
 * must give the same reports (every field, image, thread, frame and profile node), the
 * same warnings and errors and the same statistics as jansson alone. */
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
        frames[i] = (tt_native_frame){.function = "f", .file = "/src/f.c", .line = (uint32_t)i,
                                      .inlined = i + 1 < n};
    return (int)(n < cap ? n : cap);
}

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

#define SAME(x) ((a->x) == (b->x))
#define SAME_STR(x) str_eq(a->x, b->x)

static void same_header(const tt_ks_report *a, const tt_ks_report *b)
{
    if (!SAME(shape) || !SAME(line) || !SAME(index) || !SAME_STR(id) || !SAME_STR(process_name) ||
        !SAME_STR(type) || !SAME_STR(version) || !SAME(has_time) || !SAME(unix_ms) ||
        !SAME(has_dump_type) || !SAME(dump_type) || !SAME_STR(dump_name) || !SAME(is_lag) ||
        !SAME_STR(error_type) || !SAME_STR(crash_text) || !SAME_STR(reason) ||
        !SAME(has_suspend) || !SAME(suspend_all) || !SAME(has_snapshot) ||
        !SAME(snapshot_status) || !SAME_STR(system_name) || !SAME_STR(system_version) ||
        !SAME_STR(os_version) || !SAME_STR(machine) || !SAME_STR(cpu_arch) ||
        !SAME_STR(bundle_name) || !SAME_STR(bundle_exec) || !SAME_STR(bundle_id) ||
        !SAME_STR(short_version) || !SAME_STR(bundle_version) || !SAME_STR(app_uuid) ||
        !SAME(has_pid) || !SAME(pid) || !SAME_STR(arch) || !SAME(main_thread) ||
        !SAME(point_thread) || !SAME(crashed_thread) || !SAME(n_threads) || !SAME(n_nodes))
        abort();
}

static void same_report(const tt_ks_report *ra, const tt_ks_report *rb)
{
    same_header(ra, rb);
    if (ra->n_images != rb->n_images || ra->n_frames != rb->n_frames || ra->n_syms != rb->n_syms)
        abort();
    for (size_t i = 0; i < ra->n_images; i++) {
        const tt_ks_image *a = &ra->images[i], *b = &rb->images[i];
        if (!SAME(addr) || !SAME(size) || !SAME(vmaddr) || !SAME(cpu_type) ||
            !SAME(cpu_subtype) || !SAME_STR(path) || !SAME_STR(name) || !SAME_STR(uuid) ||
            !SAME_STR(arch) || !SAME(is_app) || !SAME(n_frames) || !SAME(n_unresolved))
            abort();
        for (int k = 0; k < 4; k++)
            if (!str_eq(a->crash_info[k], b->crash_info[k]))
                abort();
    }
    for (size_t i = 0; i < ra->n_frames; i++) {
        const tt_ks_frame *a = &ra->frames[i], *b = &rb->frames[i];
        if (!SAME(pc) || !SAME(offset) || !SAME(lookup) || !SAME(image) || !SAME(pac) ||
            !SAME(is_return) || !SAME(has_repeat) || !SAME(repeat) || !SAME_STR(device_name) ||
            !SAME(has_device_addr) || !SAME(device_addr) || !SAME_STR(object_name) ||
            !SAME(sym) || !SAME(n_sym) || !SAME(resolve_err))
            abort();
    }
    for (size_t i = 0; i < ra->n_threads; i++) {
        const tt_ks_thread *a = &ra->threads[i], *b = &rb->threads[i];
        if (!SAME(has_index) || !SAME(index) || !SAME_STR(name) || !SAME_STR(queue) ||
            !SAME(crashed) || !SAME(current) || !SAME(handled) || !SAME(has_cpu) ||
            (a->has_cpu && memcmp(&a->cpu, &b->cpu, sizeof a->cpu)) || !SAME(frame) ||
            !SAME(n_frames))
            abort();
    }
    for (size_t i = 0; i < ra->n_nodes; i++) {
        const tt_ks_node *a = &ra->nodes[i], *b = &rb->nodes[i];
        if (!SAME(parent) || !SAME(depth) || !SAME(sample) || !SAME(sample_bg) || !SAME(self) ||
            !SAME(frame) || !SAME(n_children))
            abort();
    }
}

static void same_stats(const tt_stats *a, const tt_stats *b)
{
    if (tt_stats_count(a) != tt_stats_count(b))
        abort();
    for (size_t i = 0; i < tt_stats_count(a); i++) {
        const tt_stat *x = tt_stats_get(a, i), *y = tt_stats_get(b, i);
        if (strcmp(x->name, y->name) || x->count != y->count || x->severity != y->severity ||
            strcmp(x->example, y->example))
            abort();
    }
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
        same_report(rep[0], rep[1]);
    }
    same_stats(st[0], st[1]);
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
