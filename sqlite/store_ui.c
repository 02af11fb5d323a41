/* Row writers of UI frames and per-scene frame statistics (storage.md 3.5), startups with
 * their segments, and launches (3.6). */
#include "tdb.h"


#include "tdb_int.h"

int tdb_ui_frame_add(tdb_db *db, const tdb_ui_frame *f, tt_error *err)
{
    if (tdb__enum_check(TDB__E_DROP_LEVEL, f->drop_level, err))
        return TT_EINVAL;
    sqlite3_stmt *st =
        tdb__prep(db, ST_UI_FRAME_ADD,
                  "INSERT INTO ui_frame (trace_id, utid, scene, ts, dur, interval_dur, "
                  "expected_dur, busy_dur, dropped_frames, drop_level, is_jank, is_slow, "
                  "is_frozen, vsync_id, arg_set_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, f->trace_id);
    b_id(db, st, 2, f->utid);
    b_text(db, st, 3, f->scene);
    b_i64(db, st, 4, f->ts);
    b_i64(db, st, 5, f->dur);
    b_i64(db, st, 6, f->interval_dur);
    b_id(db, st, 7, f->expected_dur);
    b_i64(db, st, 8, f->busy_dur);
    b_i64(db, st, 9, f->dropped_frames);
    b_text(db, st, 10, f->drop_level);
    b_i64(db, st, 11, f->is_jank ? 1 : 0);
    b_i64(db, st, 12, f->is_slow ? 1 : 0);
    b_i64(db, st, 13, f->is_frozen ? 1 : 0);
    b_int(db, st, 14, f->have_vsync_id, f->vsync_id);
    b_id(db, st, 15, f->arg_set_id);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_scene_stats_add(tdb_db *db, const tdb_scene_stats *s, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(
        db, ST_SCENE_STATS_ADD,
        "INSERT INTO scene_frame_stats (trace_id, model, scene, ts, dur, frames, busy_dur, "
        "fps, dropped_sum, level_best_count, level_best_sum, level_normal_count, "
        "level_normal_sum, level_middle_count, level_middle_sum, level_high_count, "
        "level_high_sum, level_frozen_count, level_frozen_sum, jank_count, slow_count, "
        "frozen_count, p50_dur, p90_dur, p95_dur, p99_dur, max_dur, mean_dur, issue_id) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, s->trace_id);
    b_text(db, st, 2, s->model);
    b_text(db, st, 3, s->scene);
    b_int(db, st, 4, s->have_window, s->ts);
    b_int(db, st, 5, s->have_window && s->have_dur, s->dur);
    b_i64(db, st, 6, s->frames);
    b_int(db, st, 7, s->have_busy, s->busy_dur);
    b_real(db, st, 8, s->have_fps, s->fps);
    b_i64(db, st, 9, s->dropped_sum);
    for (int l = 0; l < 5; l++) {
        b_i64(db, st, 10 + 2 * l, s->level_count[l]);
        b_i64(db, st, 11 + 2 * l, s->level_sum[l]);
    }
    b_int(db, st, 20, s->have_flags, s->jank_count);
    b_int(db, st, 21, s->have_flags, s->slow_count);
    b_int(db, st, 22, s->have_flags, s->frozen_count);
    const int64_t times[] = {s->p50_dur, s->p90_dur, s->p95_dur, s->p99_dur, s->max_dur,
                             s->mean_dur};
    for (int i = 0; i < 6; i++)
        b_int(db, st, 23 + i, s->have_times, times[i]);
    b_id(db, st, 29, s->issue_id);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_startup_add(tdb_db *db, const tdb_startup *s, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_STARTUP_KIND, s->kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st =
        tdb__prep(db, ST_STARTUP_ADD,
                  "INSERT INTO startup (trace_id, kind, source, ts, dur, start_event, end_event, "
                  "application_create_ms, application_create_scene, first_activity_create_ms, "
                  "startup_duration_ms, ttid_dur, ttfd_dur, matrix_over_threshold, "
                  "matrix_stack_collected, vitals_excessive, issue_id) "
                  "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, s->trace_id);
    b_text(db, st, 2, s->kind);
    b_text(db, st, 3, s->source);
    b_int(db, st, 4, s->have_ts, s->ts);
    b_int(db, st, 5, s->have_dur, s->dur);
    b_text(db, st, 6, s->start_event);
    b_text(db, st, 7, s->end_event);
    b_int(db, st, 8, s->have_matrix, s->application_create_ms);
    b_int(db, st, 9, s->have_matrix, s->application_create_scene);
    b_int(db, st, 10, s->have_matrix, s->first_activity_create_ms);
    b_int(db, st, 11, s->have_matrix, s->startup_duration_ms);
    b_int(db, st, 12, s->have_ttid, s->ttid_dur);
    b_int(db, st, 13, s->have_ttfd, s->ttfd_dur);
    b_i64(db, st, 14, s->matrix_over_threshold ? 1 : 0);
    b_i64(db, st, 15, s->matrix_stack_collected ? 1 : 0);
    b_i64(db, st, 16, s->vitals_excessive ? 1 : 0);
    b_id(db, st, 17, s->issue_id);
    return tdb__step_done(db, st, id, err);
}

int tdb_segment_add(tdb_db *db, int64_t startup_id, int ordinal, const char *name,
                    const char *from_event, const char *to_event, int have_ts, int64_t ts,
                    int64_t dur, tt_error *err)
{
    sqlite3_stmt *st =
        tdb__prep(db, ST_SEGMENT_ADD,
                  "INSERT INTO startup_segment (startup_id, ordinal, name, from_event, "
                  "to_event, ts, dur) VALUES (?,?,?,?,?,?,?)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, startup_id);
    b_i64(db, st, 2, ordinal);
    b_text(db, st, 3, name);
    b_text(db, st, 4, from_event);
    b_text(db, st, 5, to_event);
    b_int(db, st, 6, have_ts, ts);
    b_i64(db, st, 7, dur);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_launch_add(tdb_db *db, const tdb_launch *l, tt_error *err)
{
    if (tdb__enum_check(TDB__E_LAUNCH_SOURCE, l->source, err))
        return TT_EINVAL;
    sqlite3_stmt *st = tdb__prep(db, ST_LAUNCH_ADD,
                                 "INSERT INTO launch (trace_id, source, component, launch_state, "
                                 "status, total_ms, wait_ms, this_ms, fully_drawn_ms, log_time, "
                                 "not_launched, incomplete) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, l->trace_id);
    b_text(db, st, 2, l->source);
    b_text(db, st, 3, l->component ? l->component : "");
    b_text(db, st, 4, l->launch_state);
    b_text(db, st, 5, l->status);
    b_int(db, st, 6, l->have_total, l->total_ms);
    b_int(db, st, 7, l->have_wait, l->wait_ms);
    b_int(db, st, 8, l->have_this, l->this_ms);
    b_int(db, st, 9, l->have_fully_drawn, l->fully_drawn_ms);
    b_text(db, st, 10, l->log_time && l->log_time[0] ? l->log_time : NULL);
    b_int(db, st, 11, 1, l->not_launched != 0);
    b_int(db, st, 12, 1, l->incomplete != 0);
    return tdb__step_done(db, st, NULL, err);
}
