/* analyze: UI frames into the database (storage.md 3.5, frames.md 6): per-frame JSON lines
 * and dumpsys gfxinfo framestats through the native frame model, one ui_frame row per real
 * frame, scene_frame_stats per scene, for all scenes ("*") and per series window. */
#include "cli_an.h"

#include <ctype.h>
#include <string.h>

static void stats_row(tdb_scene_stats *row, const tt_frame_stats *st)
{
    row->frames = st->frames;
    row->have_busy = st->has_busy;
    row->busy_dur = st->busy_ns;
    row->have_fps = st->has_fps;
    row->fps = st->fps;
    row->dropped_sum = st->dropped_sum;
    for (int l = 0; l < TT_DROP_LEVELS; l++) {
        row->level_count[l] = st->level_count[l];
        row->level_sum[l] = st->level_sum[l];
    }
    row->have_flags = st->has_flags;
    row->jank_count = st->jank;
    row->slow_count = st->slow;
    row->frozen_count = st->frozen;
    row->have_times = st->has_times;
    row->p50_dur = st->p50_ns;
    row->p90_dur = st->p90_ns;
    row->p95_dur = st->p95_ns;
    row->p99_dur = st->p99_ns;
    row->max_dur = st->max_ns;
    row->mean_dur = st->mean_ns;
}

int cli_an_frame_stats(cli_an *a, int64_t trace_id, const tt_frames *f, int64_t issue_id,
                       tt_error *err)
{
    const char *model = tt_fmodel_name(tt_frames_model(f));
    int rc = 0;
    size_t nscenes = tt_frames_scene_count(f);
    for (size_t i = 0; i <= nscenes && !rc; i++) {
        const tt_frame_stats *st = i < nscenes ? tt_frames_scene_stats(f, i)
                                               : tt_frames_all_stats(f);
        if (!st)
            continue;
        tdb_scene_stats row = {.trace_id = trace_id, .model = model,
                               .scene = i < nscenes ? st->scene : "*", .issue_id = issue_id};
        stats_row(&row, st);
        rc = tdb_scene_stats_add(a->db, &row, err);
    }
    /* the reports model's series points are the reports: cli_an_fps_report_row */
    int64_t window_ns = tt_frames_options(f)->window_ms * 1000000;
    for (size_t i = 0; i < tt_frames_series_count(f) && !rc &&
                       tt_frames_model(f) != TT_FMODEL_REPORTS;
         i++) {
        const tt_frame_stats *st = tt_frames_series_get(f, i);
        tdb_scene_stats row = {.trace_id = trace_id, .model = model, .scene = st->scene,
                               .have_window = st->has_start, .have_dur = 1,
                               .ts = st->start_ns, .dur = window_ns, .issue_id = issue_id};
        stats_row(&row, st);
        rc = tdb_scene_stats_add(a->db, &row, err);
    }
    return rc;
}

int cli_an_fps_report_row(cli_an *a, int64_t trace_id, const tt_fps_report *r,
                          int64_t issue_id, tt_error *err)
{
    tdb_scene_stats row = {.trace_id = trace_id, .model = tt_fmodel_name(TT_FMODEL_REPORTS),
                           .scene = r->scene ? r->scene : "", .issue_id = issue_id};
    /* a row without ts would read as the scene's whole-trace row (schema(5)): a report
     * without time has none and counts in its scene's and the "*" rows only */
    if (!r->has_time || tt_ms_to_ns(&row.ts, r->time_unix_ms))
        return 0;
    row.have_window = 1;
    row.frames = r->frames;
    for (int l = 0; l < TT_DROP_LEVELS; l++) {
        if (tt_add_i64(&row.dropped_sum, row.dropped_sum, r->level_sum[l]))
            row.dropped_sum = r->level_sum[l] > 0 ? INT64_MAX : INT64_MIN;
        row.level_count[l] = r->level_count[l];
        row.level_sum[l] = r->level_sum[l];
    }
    row.have_fps = row.frames > 0;
    row.fps = r->fps;
    return tdb_scene_stats_add(a->db, &row, err);
}

static int store_frames(cli_an *a, int64_t trace_id, const tt_frames *f, tt_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < tt_frames_frame_count(f) && !rc; i++) {
        const tt_ui_frame *fr = tt_frames_frame_get(f, i);
        char level[16];
        snprintf(level, sizeof level, "%s", tt_report_drop_level_name(fr->level));
        for (char *c = level; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        tdb_ui_frame row = {.trace_id = trace_id,
                            .scene = tt_frames_scene_name(f, fr->scene_id),
                            .ts = fr->ts, .dur = fr->dur, .interval_dur = fr->interval_dur,
                            .expected_dur = fr->expected_dur, .busy_dur = fr->busy_dur,
                            .dropped_frames = fr->dropped, .drop_level = level,
                            .is_jank = fr->is_jank, .is_slow = fr->is_slow,
                            .is_frozen = fr->is_frozen, .have_vsync_id = fr->has_vsync_id,
                            .vsync_id = fr->vsync_id};
        /* the FrameMetrics durations the input gave, keyed by their Android names */
        const tt_frame_fm *fm = tt_frames_frame_fm(f, fr);
        if (fm && !(rc = tdb_next_id(a->db, "args", &row.arg_set_id, err)))
            for (int k = 0; k < TT_FM_DURATIONS && !rc; k++)
                if ((fm->mask >> k) & 1)
                    rc = tdb_arg_int(a->db, row.arg_set_id, tt_fm_name(k), fm->fm[k], err);
        if (!rc)
            rc = tdb_ui_frame_add(a->db, &row, err);
    }
    return rc;
}

static int skipped_stats(cli_an *a, int64_t trace_id, const tt_frames_skipped *sk, tt_error *err)
{
    static const struct {
        size_t off;
        const char *name, *sev, *desc;
    } rows[] = {
#define OFF(f) offsetof(tt_frames_skipped, f)
        {OFF(flags), "frames_flagged", "info", "framestats rows with non-zero Flags skipped"},
        {OFF(invalid), "frames_invalid", "data_loss", "frames with missing or inconsistent times skipped"},
        {OFF(outliers), "frames_outlier", "notice", "frames with implausible durations skipped"},
        {OFF(non_frame_messages), "frames_non_frame_message", "info", "Looper messages that were not frames"},
        {OFF(duplicates), "frames_duplicate", "info", "duplicate (scene, window, intended vsync) frames removed"},
        {OFF(empty_scene), "frames_empty_scene", "notice", "frames without a scene"},
#undef OFF
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && !rc; i++) {
        int64_t v;
        memcpy(&v, (const char *)sk + rows[i].off, sizeof v);
        rc = cli_an_stat(a, trace_id, rows[i].name, rows[i].sev, "trace", (uint64_t)v,
                         rows[i].desc, err);
    }
    return rc;
}

int cli_an_frames(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err)
{
    tt_frames_reader *r;
    int rc = tt_frames_reader_new(&r, in, TT_FIN_UNKNOWN, err);
    if (rc)
        return rc;
    tt_frames_opts o = {.model = TT_FMODEL_NATIVE, .keep_fm = 1}; /* ui_frame args */
    tt_frames *f;
    if ((rc = tt_frames_new(&f, &o, err))) {
        tt_frames_reader_free(r);
        return rc;
    }
    /* framestats rows already kept from this run's earlier inputs are duplicates (7.3) */
    if (!a->frames_seen && !(a->frames_seen = tt_frames_seen_new())) {
        tt_frames_free(f);
        tt_frames_reader_free(r);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    tt_frames_use_seen(f, a->frames_seen);
    const char *file = tt_input_name(in);
    for (;;) {
        tt_frame_rec rec;
        rc = tt_frames_reader_next(r, &rec, err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc || (rc = tt_frames_add(f, &rec, file, err)))
            break;
    }
    int kind = tt_frames_reader_kind(r);
    tt_frames_reader_free(r);
    if (!rc && (rc = tt_frames_finish(f, err)) && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", file);
    tdb_trace tr = {.import_key = t->import_key, .content_sha256 = t->content_sha256,
                    .source_format = kind == TT_FIN_FRAMESTATS ? "framestats" : "tt_frames",
                    .options = t->options, .clock = "monotonic", .mapping_id = a->mapping_row};
    for (size_t i = 0; !rc && i < tt_frames_frame_count(f); i++) {
        const tt_ui_frame *fr = tt_frames_frame_get(f, i);
        if (!tr.have_start || fr->ts < tr.start_ts)
            tr.start_ts = fr->ts;
        int64_t end;
        if (tt_add_i64(&end, fr->ts, fr->dur))
            end = fr->dur > 0 ? INT64_MAX : INT64_MIN; /* garbage times: clamp the bound */
        if (!tr.have_end || end > tr.end_ts)
            tr.end_ts = end;
        tr.have_start = tr.have_end = 1;
    }
    if (!rc)
        rc = tdb_trace_add(a->db, &tr, &t->trace_id, err);
    if (!rc)
        rc = tdb_input_add(a->db, t->trace_id, 0, t->path, t->kind, t->sha256, t->bytes, err);
    if (!rc)
        rc = store_frames(a, t->trace_id, f, err);
    if (!rc)
        rc = cli_an_frame_stats(a, t->trace_id, f, 0, err);
    if (!rc)
        rc = skipped_stats(a, t->trace_id, tt_frames_skipped_get(f), err);
    if (!rc) {
        int64_t v = (int64_t)tt_frames_frame_count(f);
        rc = tdb_metadata_add(a->db, t->trace_id, "ui_frames", &v, NULL, err);
    }
    if (!rc && tt_frames_seen_add(a->frames_seen, f))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    tt_frames_free(f);
    return rc;
}
