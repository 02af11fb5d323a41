/* tracetool frames: Matrix FPS report input through the report reader, and the text, JSON,
 * JSON-lines and CSV outputs (frames.md section 8). */
#include "cli.h"
#include "cli_csv.h"

#include <string.h>

#include "cli_frames.h"

int cli_frames_read_reports(tt_frames *f, tt_input *in, const char *refused, cli_ctx *ctx)
{
    tt_error err = {0};
    tt_report_reader *rr;
    if (tt_report_reader_new(&rr, in, ctx->stats, &err))
        return cli_err(&err);
    const char *name = tt_input_name(in);
    const tt_report *rep;
    int rc, fps = 0, other = 0;
    while ((rc = tt_report_reader_next(rr, &rep, &err)) == 0) {
        if (rep->kind != TT_RKIND_FPS) {
            other++;
            continue;
        }
        if (refused) {
            /* the counts are the device's buckets: relabelling them would be a lie (5) */
            cli_errorf("%s:%llu: Matrix Trace_FPS reports hold drop levels bucketed on the "
                       "device; %s applies to per-frame input only",
                       name, (unsigned long long)rep->line, refused);
            tt_report_reader_free(rr);
            return CLI_BAD;
        }
        tt_fps_report r;
        tt_fps_report_from_report(&r, rep);
        if (tt_frames_add_fps_report(f, &r, &err)) {
            cli_errorf("%s:%llu: %s", name, (unsigned long long)rep->line, err.msg);
            tt_report_reader_free(rr);
            return CLI_BAD;
        }
        fps++;
    }
    tt_report_reader_free(rr);
    if (rc != TT_DONE)
        return cli_err(&err);
    tt_stats_add(ctx->stats, "frames_other_reports_ignored", name, TT_SEV_INFO, other, NULL);
    if (fps == 0)
        tt_stats_add(ctx->stats, "frames_no_fps_report", name, TT_SEV_WARN, 1,
                     "the file holds Matrix reports but no Trace_FPS report");
    return 0;
}

/* ---- shared pieces ---- */

static const char *gen_name(int gen)
{
    static const char *const n[] = {"ab", "a1", "a2", "b", "c"};
    return gen >= 0 && gen <= TT_FGEN_C ? n[gen] : "?";
}

static void fixed3(tt_jsonw *w, int has, double v)
{
    char tmp[64];
    if (!has) {
        tt_jsonw_null(w);
        return;
    }
    int n = snprintf(tmp, sizeof tmp, "%.3f", v);
    tt_jsonw_raw(w, tmp, (size_t)n);
}

static void int_or_null(tt_jsonw *w, int has, int64_t v)
{
    if (has)
        tt_jsonw_int(w, v);
    else
        tt_jsonw_null(w);
}

static double pct(int64_t n, int64_t d) { return d > 0 ? 100.0 * (double)n / (double)d : 0; }

static void header_fields(tt_jsonw *w, const tt_frames *f)
{
    const tt_frames_opts *o = tt_frames_options(f);
    tt_jsonw_key(w, "model");
    tt_jsonw_str(w, tt_fmodel_name(tt_frames_model(f)));
    tt_jsonw_key(w, "drop_levels");
    tt_jsonw_str(w, o->scaled ? "scaled" : "matrix");
    tt_jsonw_key(w, "levels_thresholds");
    tt_jsonw_arr_begin(w);
    for (int i = 0; i < 4; i++)
        tt_jsonw_int(w, o->levels[i]);
    tt_jsonw_arr_end(w);
}

static void skipped_obj(tt_jsonw *w, const tt_frames *f)
{
    const tt_frames_skipped *s = tt_frames_skipped_get(f);
    tt_jsonw_key(w, "skipped");
    tt_jsonw_obj_begin(w);
    const char *k[] = {"flags", "invalid", "outliers", "non_frame_messages", "duplicates",
                       "empty_scene"};
    int64_t v[] = {s->flags, s->invalid, s->outliers, s->non_frame_messages, s->duplicates,
                   s->empty_scene};
    for (int i = 0; i < 6; i++) {
        tt_jsonw_key(w, k[i]);
        tt_jsonw_int(w, v[i]);
    }
    tt_jsonw_obj_end(w);
}

/* ---- native and reports: JSON (section 8) ---- */

static void levels_obj(tt_jsonw *w, const tt_frame_stats *st)
{
    tt_jsonw_key(w, "levels");
    tt_jsonw_obj_begin(w);
    for (int l = 0; l < TT_DROP_LEVELS; l++) {
        tt_jsonw_key(w, tt_report_drop_level_name(l));
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "count");
        tt_jsonw_int(w, st->level_count[l]);
        tt_jsonw_key(w, "sum");
        tt_jsonw_int(w, st->level_sum[l]);
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_obj_end(w);
}

static void times_obj(tt_jsonw *w, const tt_frame_stats *st)
{
    tt_jsonw_key(w, "frame_time_ns");
    if (!st->has_times) {
        tt_jsonw_null(w);
        return;
    }
    tt_jsonw_obj_begin(w);
    const char *k[] = {"p50", "p90", "p95", "p99", "max", "mean"};
    int64_t v[] = {st->p50_ns, st->p90_ns, st->p95_ns, st->p99_ns, st->max_ns, st->mean_ns};
    for (int i = 0; i < 6; i++) {
        tt_jsonw_key(w, k[i]);
        tt_jsonw_int(w, v[i]);
    }
    tt_jsonw_obj_end(w);
}

static void stats_obj(tt_jsonw *w, const tt_frame_stats *st, int reports)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "scene");
    tt_jsonw_str(w, st->scene);
    if (reports) {
        tt_jsonw_key(w, "reports");
        tt_jsonw_int(w, st->reports);
        tt_jsonw_key(w, "fps_zero_reports");
        tt_jsonw_int(w, st->fps_zero_reports);
    }
    tt_jsonw_key(w, "frames");
    tt_jsonw_int(w, st->frames);
    tt_jsonw_key(w, "busy_ns");
    int_or_null(w, st->has_busy, st->busy_ns);
    tt_jsonw_key(w, "fps");
    fixed3(w, st->has_fps, st->fps);
    tt_jsonw_key(w, "dropped_sum");
    tt_jsonw_int(w, st->dropped_sum);
    levels_obj(w, st);
    int fl = st->has_flags && st->frames > 0;
    tt_jsonw_key(w, "jank");
    int_or_null(w, st->has_flags, st->jank);
    tt_jsonw_key(w, "jank_pct");
    fixed3(w, fl, pct(st->jank, st->frames));
    tt_jsonw_key(w, "slow");
    int_or_null(w, st->has_flags, st->slow);
    tt_jsonw_key(w, "slow_pct");
    fixed3(w, fl, pct(st->slow, st->frames));
    tt_jsonw_key(w, "frozen");
    int_or_null(w, st->has_flags, st->frozen);
    tt_jsonw_key(w, "frozen_pct");
    fixed3(w, fl, pct(st->frozen, st->frames));
    times_obj(w, st);
    if (reports && st->fm_mask) {
        tt_jsonw_key(w, "frame_metrics_avg_ns");
        tt_jsonw_obj_begin(w);
        for (int i = 0; i <= TT_FM_GPU; i++) {
            if (st->fm_mask & (1u << i)) {
                tt_jsonw_key(w, tt_fm_name(i));
                tt_jsonw_int(w, st->fm_avg[i]);
            }
        }
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_obj_end(w);
}

static void series_obj(tt_jsonw *w, const tt_frame_stats *st)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "scene");
    tt_jsonw_str(w, st->scene);
    tt_jsonw_key(w, "start_ns");
    int_or_null(w, st->has_start, st->start_ns);
    tt_jsonw_key(w, "frames");
    tt_jsonw_int(w, st->frames);
    tt_jsonw_key(w, "fps");
    fixed3(w, st->has_fps, st->fps);
    tt_jsonw_key(w, "dropped_sum");
    tt_jsonw_int(w, st->dropped_sum);
    tt_jsonw_key(w, "jank");
    int_or_null(w, st->has_flags, st->jank);
    tt_jsonw_key(w, "slow");
    int_or_null(w, st->has_flags, st->slow);
    tt_jsonw_obj_end(w);
}

static void print_json(const tt_frames *f)
{
    int reports = tt_frames_model(f) == TT_FMODEL_REPORTS;
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    tt_jsonw_obj_begin(&w);
    header_fields(&w, f);
    tt_jsonw_key(&w, "scenes");
    tt_jsonw_arr_begin(&w);
    for (size_t i = 0; i < tt_frames_scene_count(f); i++) {
        stats_obj(&w, tt_frames_scene_stats(f, i), reports);
        if (w.buf.len > 65536)
            cli_out_buf(&w.buf);
    }
    tt_jsonw_arr_end(&w);
    tt_jsonw_key(&w, "all");
    stats_obj(&w, tt_frames_all_stats(f), reports);
    tt_jsonw_key(&w, "series");
    tt_jsonw_arr_begin(&w);
    for (size_t i = 0; i < tt_frames_series_count(f); i++) {
        series_obj(&w, tt_frames_series_get(f, i));
        if (w.buf.len > 65536)
            cli_out_buf(&w.buf);
    }
    tt_jsonw_arr_end(&w);
    skipped_obj(&w, f);
    tt_jsonw_obj_end(&w);
    tt_buf_puts(&w.buf, "\n");
    cli_out_buf(&w.buf);
    tt_jsonw_free(&w);
}

/* ---- CSV ---- */

static void csv_fixed(tt_buf *b, int has, double v)
{
    tt_buf_puts(b, ",");
    if (has)
        tt_buf_printf(b, "%.3f", v);
}

static void csv_levels_header(tt_buf *b)
{
    for (int l = 0; l < TT_DROP_LEVELS; l++)
        tt_buf_printf(b, ",level_%s_count,level_%s_sum", tt_report_drop_level_name(l),
                      tt_report_drop_level_name(l));
}

static void csv_row(tt_buf *b, const tt_frame_stats *st, int reports)
{
    int fl = st->has_flags && st->frames > 0;
    cli_csv_str(b, st->scene);
    if (reports) {
        cli_csv_int(b, 1, st->reports);
        cli_csv_int(b, 1, st->fps_zero_reports);
    }
    cli_csv_int(b, 1, st->frames);
    cli_csv_int(b, st->has_busy, st->busy_ns);
    csv_fixed(b, st->has_fps, st->fps);
    cli_csv_int(b, 1, st->dropped_sum);
    for (int l = 0; l < TT_DROP_LEVELS; l++) {
        cli_csv_int(b, 1, st->level_count[l]);
        cli_csv_int(b, 1, st->level_sum[l]);
    }
    cli_csv_int(b, st->has_flags, st->jank);
    csv_fixed(b, fl, pct(st->jank, st->frames));
    cli_csv_int(b, st->has_flags, st->slow);
    csv_fixed(b, fl, pct(st->slow, st->frames));
    cli_csv_int(b, st->has_flags, st->frozen);
    csv_fixed(b, fl, pct(st->frozen, st->frames));
    int64_t v[] = {st->p50_ns, st->p90_ns, st->p95_ns, st->p99_ns, st->max_ns, st->mean_ns};
    for (int i = 0; i < 6; i++)
        cli_csv_int(b, st->has_times, v[i]);
    tt_buf_puts(b, "\n");
}

static void print_csv(const tt_frames *f)
{
    int reports = tt_frames_model(f) == TT_FMODEL_REPORTS;
    tt_buf b = {0};
    tt_buf_puts(&b, reports ? "scene,reports,fps_zero_reports" : "scene");
    tt_buf_puts(&b, ",frames,busy_ns,fps,dropped_sum");
    csv_levels_header(&b);
    tt_buf_puts(&b, ",jank,jank_pct,slow,slow_pct,frozen,frozen_pct,p50_ns,p90_ns,p95_ns,"
                    "p99_ns,max_ns,mean_ns\n");
    for (size_t i = 0; i < tt_frames_scene_count(f); i++)
        csv_row(&b, tt_frames_scene_stats(f, i), reports);
    csv_row(&b, tt_frames_all_stats(f), reports);
    cli_out_buf(&b);
    tt_buf_free(&b);
}

/* ---- text ---- */

#define BAR_CELLS 20

/* A bar of BAR_CELLS letters B N M H F proportional to the level counts; every
 * non-empty level gets at least one cell. */
static void level_bar(tt_buf *b, const int64_t *count)
{
    double n = 0, rem[TT_DROP_LEVELS];
    int cells[TT_DROP_LEVELS], used = 0;
    for (int l = 0; l < TT_DROP_LEVELS; l++)
        n += (double)count[l];
    if (n == 0) {
        tt_buf_printf(b, "%-*s", BAR_CELLS, "");
        return;
    }
    /* largest remainder: the floor of each share, then one more cell to the largest
     * remainders, so equal counts get cells that differ by one at most; a non-empty level
     * has one cell even when its share is smaller (its remainder then never counts) */
    for (int l = 0; l < TT_DROP_LEVELS; l++) {
        double q = (double)count[l] * BAR_CELLS / n;
        cells[l] = (int)q;
        rem[l] = q - cells[l];
        if (count[l] > 0 && cells[l] == 0) {
            cells[l] = 1;
            rem[l] = -1;
        }
        used += cells[l];
    }
    while (used != BAR_CELLS) {
        int pick = -1; /* ties: the larger count, then the lower level */
        for (int l = 0; l < TT_DROP_LEVELS; l++) {
            if (used < BAR_CELLS ? rem[l] < 0 : cells[l] <= 1)
                continue;
            if (pick < 0 ||
                (used < BAR_CELLS ? rem[l] > rem[pick] : rem[l] < rem[pick]) ||
                (rem[l] == rem[pick] && (used < BAR_CELLS ? count[l] > count[pick]
                                                          : count[l] < count[pick])))
                pick = l;
        }
        if (pick < 0)
            break;
        int d = used < BAR_CELLS ? 1 : -1;
        cells[pick] += d;
        rem[pick] -= d; /* the share left over: below 0 after a cell more */
        used += d;
    }
    for (int l = 0; l < TT_DROP_LEVELS; l++)
        for (int k = 0; k < cells[l]; k++)
            tt_buf_put(b, &"BNMHF"[l], 1);
}

/* A scene as one cell of width characters: escaped to one line (a newline in a name would
 * break the table), a longer name cut to "..." and its end. */
static void scene_cell(tt_buf *b, const char *s, int width)
{
    tt_buf e = {0};
    size_t w = 0;
    if (tt_textesc_cell(&e, s, strlen(s), &w)) {
        tt_buf_free(&e);
        return;
    }
    if (w > (size_t)width) {
        size_t at = e.len, keep = 0; /* the last width - 3 characters */
        while (at > 0 && keep < (size_t)width - 3)
            if (((unsigned char)e.data[--at] & 0xC0) != 0x80)
                keep++;
        tt_buf_puts(b, "...");
        tt_buf_put(b, e.data + at, e.len - at);
    } else {
        tt_buf_put(b, e.data, e.len);
        tt_buf_printf(b, "%*s", width - (int)w, "");
    }
    tt_buf_free(&e);
}

static int scene_width(const tt_frames *f)
{
    size_t w = 5;
    tt_buf e = {0};
    for (size_t i = 0; i < tt_frames_scene_count(f); i++) {
        const char *s = tt_frames_scene_name(f, (uint32_t)i);
        size_t n = 0;
        e.len = 0;
        if (!tt_textesc_cell(&e, s, strlen(s), &n) && n > w)
            w = n;
    }
    tt_buf_free(&e);
    return w > 48 ? 48 : (int)w;
}

static void text_ms(tt_buf *b, int has, int64_t ns)
{
    if (has)
        tt_buf_printf(b, " %8.2f", (double)ns / 1e6);
    else
        tt_buf_printf(b, " %8s", "-");
}

static void text_row(tt_buf *b, const tt_frame_stats *st, int width, int reports)
{
    scene_cell(b, st->scene, width);
    if (reports)
        tt_buf_printf(b, " %7lld", (long long)st->reports);
    tt_buf_printf(b, " %8lld", (long long)st->frames);
    if (st->has_fps)
        tt_buf_printf(b, " %8.3f", st->fps);
    else
        tt_buf_printf(b, " %8s", "-");
    tt_buf_printf(b, " %8lld", (long long)st->dropped_sum);
    if (!reports) {
        if (st->frames > 0)
            tt_buf_printf(b, " %6.2f", pct(st->jank, st->frames));
        else
            tt_buf_printf(b, " %6s", "-");
        tt_buf_printf(b, " %6lld %6lld", (long long)st->slow, (long long)st->frozen);
        text_ms(b, st->has_times, st->p50_ns);
        text_ms(b, st->has_times, st->p90_ns);
        text_ms(b, st->has_times, st->p99_ns);
    }
    tt_buf_puts(b, "  ");
    level_bar(b, st->level_count);
    tt_buf_puts(b, " ");
    for (int l = 0; l < TT_DROP_LEVELS; l++)
        tt_buf_printf(b, "%s%lld", l ? "/" : "", (long long)st->level_count[l]);
    tt_buf_puts(b, "\n");
}

static void text_skipped(tt_buf *b, const tt_frames *f)
{
    const tt_frames_skipped *s = tt_frames_skipped_get(f);
    tt_buf_printf(b,
                  "skipped: %lld flagged, %lld invalid, %lld outliers, %lld non-frame "
                  "messages, %lld duplicates",
                  (long long)s->flags, (long long)s->invalid, (long long)s->outliers,
                  (long long)s->non_frame_messages, (long long)s->duplicates);
    if (s->empty_scene)
        tt_buf_printf(b, ", %lld without scene", (long long)s->empty_scene);
    tt_buf_puts(b, "\n");
}

static void text_header(tt_buf *b, const tt_frames *f)
{
    const tt_frames_opts *o = tt_frames_options(f);
    tt_buf_printf(b, "model: %s, drop levels: %s %d,%d,%d,%d", tt_fmodel_name(tt_frames_model(f)),
                  o->scaled ? "scaled" : "matrix", o->levels[0], o->levels[1], o->levels[2],
                  o->levels[3]);
    if (tt_frames_model(f) == TT_FMODEL_NATIVE)
        tt_buf_printf(b, ", jank > %g x deadline (%s)", o->jank_multiplier,
                      o->jank_ui ? "UI thread" : "total time");
    tt_buf_puts(b, "\n\n");
}

static void print_text(const tt_frames *f)
{
    int reports = tt_frames_model(f) == TT_FMODEL_REPORTS;
    int width = scene_width(f);
    tt_buf b = {0};
    text_header(&b, f);
    scene_cell(&b, "scene", width);
    if (reports)
        tt_buf_puts(&b, " reports");
    tt_buf_puts(&b, "   frames      fps  dropped");
    if (!reports)
        tt_buf_puts(&b, "  jank%   slow frozen  p50(ms)  p90(ms)  p99(ms)");
    tt_buf_printf(&b, "  %-*s B/N/M/H/F\n", BAR_CELLS, "levels");
    for (size_t i = 0; i < tt_frames_scene_count(f); i++) {
        text_row(&b, tt_frames_scene_stats(f, i), width, reports);
        if (b.len > 65536)
            cli_out_buf(&b);
    }
    text_row(&b, tt_frames_all_stats(f), width, reports);
    if (!reports)
        text_skipped(&b, f);
    cli_out_buf(&b);
    tt_buf_free(&b);
}

/* ---- Matrix replays ---- */

static void replay_json(const tt_frames *f, int lines)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 1); /* Matrix objects use Android's escaping (method-beat.md 7.6) */
    if (!lines) {
        tt_jsonw_obj_begin(&w);
        header_fields(&w, f);
        tt_jsonw_key(&w, "reports");
        tt_jsonw_arr_begin(&w);
    }
    for (size_t i = 0; i < tt_frames_report_count(f); i++) {
        tt_fps_report_write(&w, tt_frames_report_get(f, i));
        if (lines)
            tt_buf_puts(&w.buf, "\n");
        if (w.buf.len > 65536)
            cli_out_buf(&w.buf);
    }
    if (!lines) {
        tt_jsonw_arr_end(&w);
        tt_jsonw_key(&w, "unflushed");
        tt_jsonw_arr_begin(&w);
        for (size_t i = 0; i < tt_frames_unflushed_count(f); i++) {
            uint32_t sid;
            int64_t n;
            tt_frames_unflushed_get(f, i, &sid, &n);
            tt_jsonw_obj_begin(&w);
            tt_jsonw_key(&w, "scene");
            tt_jsonw_str(&w, tt_frames_scene_name(f, sid));
            tt_jsonw_key(&w, "frames");
            tt_jsonw_int(&w, n);
            tt_jsonw_obj_end(&w);
        }
        tt_jsonw_arr_end(&w);
        skipped_obj(&w, f);
        tt_jsonw_obj_end(&w);
        tt_buf_puts(&w.buf, "\n");
    }
    cli_out_buf(&w.buf);
    tt_jsonw_free(&w);
}

static void replay_csv(const tt_frames *f)
{
    tt_buf b = {0};
    tt_buf_puts(&b, "report,line,scene,generation,frames,fps,dropped_sum");
    csv_levels_header(&b);
    tt_buf_puts(&b, "\n");
    for (size_t i = 0; i < tt_frames_report_count(f); i++) {
        const tt_fps_report *r = tt_frames_report_get(f, i);
        char fps[64];
        tt_json_format_double(fps, sizeof fps, r->fps);
        int64_t d = 0;
        for (int l = 0; l < TT_DROP_LEVELS; l++)
            d += r->level_sum[l];
        tt_buf_printf(&b, "%zu,%llu,", i + 1, (unsigned long long)r->line);
        cli_csv_str(&b, r->scene);
        tt_buf_printf(&b, ",%s,%lld,%s,%lld", gen_name(r->generation), (long long)r->frames,
                      fps, (long long)d);
        for (int l = 0; l < TT_DROP_LEVELS; l++)
            tt_buf_printf(&b, ",%lld,%lld", (long long)r->level_count[l],
                          (long long)r->level_sum[l]);
        tt_buf_puts(&b, "\n");
    }
    cli_out_buf(&b);
    tt_buf_free(&b);
}

static void replay_text(const tt_frames *f)
{
    const tt_frames_opts *o = tt_frames_options(f);
    int width = scene_width(f);
    tt_buf b = {0};
    tt_buf_printf(&b, "model: %s", tt_fmodel_name(tt_frames_model(f)));
    if (tt_frames_model(f) == TT_FMODEL_B)
        tt_buf_printf(&b, " (%s path)", o->b_frame_metrics ? "FrameMetrics" : "Looper");
    tt_buf_printf(&b, ", drop levels: matrix %d,%d,%d,%d, time slice %lld ms\n\n", o->levels[0],
                  o->levels[1], o->levels[2], o->levels[3], (long long)o->time_slice_ms);
    tt_buf_puts(&b, "report     line  ");
    scene_cell(&b, "scene", width);
    tt_buf_printf(&b, "   frames                 fps  dropped  %-*s B/N/M/H/F\n", BAR_CELLS,
                  "levels");
    for (size_t i = 0; i < tt_frames_report_count(f); i++) {
        const tt_fps_report *r = tt_frames_report_get(f, i);
        char fps[64];
        tt_json_format_double(fps, sizeof fps, r->fps);
        int64_t d = 0;
        for (int l = 0; l < TT_DROP_LEVELS; l++)
            d += r->level_sum[l];
        tt_buf_printf(&b, "%6zu %8llu  ", i + 1, (unsigned long long)r->line);
        scene_cell(&b, r->scene, width);
        tt_buf_printf(&b, " %8lld %19s %8lld  ", (long long)r->frames, fps, (long long)d);
        level_bar(&b, r->level_count);
        tt_buf_puts(&b, " ");
        for (int l = 0; l < TT_DROP_LEVELS; l++)
            tt_buf_printf(&b, "%s%lld", l ? "/" : "", (long long)r->level_count[l]);
        tt_buf_puts(&b, "\n");
    }
    if (tt_frames_report_count(f) == 0)
        tt_buf_puts(&b, "(no report: Matrix would not have reported these frames)\n");
    for (size_t i = 0; i < tt_frames_unflushed_count(f); i++) {
        uint32_t sid;
        int64_t n;
        tt_frames_unflushed_get(f, i, &sid, &n);
        tt_buf_printf(&b, "unflushed at the end (never reported): %s, %lld frames\n",
                      tt_frames_scene_name(f, sid), (long long)n);
    }
    text_skipped(&b, f);
    cli_out_buf(&b);
    tt_buf_free(&b);
}

void cli_frames_print(const tt_frames *f, int format)
{
    int m = tt_frames_model(f);
    if (m == TT_FMODEL_NATIVE || m == TT_FMODEL_REPORTS) {
        if (format == 1)
            print_json(f);
        else if (format == 3)
            print_csv(f);
        else
            print_text(f);
        return;
    }
    if (format == 2) {
        replay_json(f, 1);
        for (size_t i = 0; i < tt_frames_unflushed_count(f); i++) {
            uint32_t sid;
            int64_t n;
            tt_frames_unflushed_get(f, i, &sid, &n);
            cli_stderrf("tracetool: note: unflushed at the end (never reported): %s, %lld "
                            "frames\n",
                    tt_frames_scene_name(f, sid), (long long)n);
        }
    } else if (format == 1)
        replay_json(f, 0);
    else if (format == 3)
        replay_csv(f);
    else
        replay_text(f);
}
