/* The summaries `analyze` prints, read from the rows of the run (and planned on the writing
 * connection before its indexes exist, so that both see the same statistics). */
#include "tdb.h"

#include "tdb_int.h"

/* The summary's queries (analyze). */
static const char sum_counts[] =
    "SELECT 'traces', COUNT(*) FROM trace WHERE id >= ?1 "
    "UNION ALL SELECT 'methods', COUNT(*) FROM method WHERE mapping_id IN "
    "  (SELECT mapping_id FROM trace WHERE id >= ?1) "
    /* every trace is this run's (a new database): COUNT(*) of the whole table, which
     * SQLite counts from the b-tree pages without reading the rows */
    "UNION ALL SELECT 'slices', CASE WHEN ?1 <= (SELECT MIN(id) FROM trace) "
    "  THEN (SELECT COUNT(*) FROM slice) "
    "  ELSE (SELECT COUNT(*) FROM slice WHERE trace_id >= ?1) END "
    "UNION ALL SELECT 'issues', CASE WHEN ?1 <= (SELECT MIN(id) FROM trace) "
    "  THEN (SELECT COUNT(*) FROM issue) "
    "  ELSE (SELECT COUNT(*) FROM issue WHERE trace_id >= ?1) END "
    "UNION ALL SELECT 'call_nodes', CASE WHEN ?1 <= (SELECT MIN(id) FROM trace) "
    "  THEN (SELECT COUNT(*) FROM call_node) "
    "  ELSE (SELECT COUNT(*) FROM call_node WHERE tree_id IN "
    "    (SELECT id FROM call_tree WHERE trace_id >= ?1)) END "
    "UNION ALL SELECT 'ui_frames', COUNT(*) FROM ui_frame WHERE trace_id >= ?1 "
    "UNION ALL SELECT 'samples', COALESCE(SUM(count), 0) FROM sample WHERE trace_id >= ?1 "
    "UNION ALL SELECT 'startups', COUNT(*) FROM startup WHERE trace_id >= ?1 "
    "UNION ALL SELECT 'launches', COUNT(*) FROM launch WHERE trace_id >= ?1 "
    "UNION ALL SELECT 'warnings', COALESCE(SUM(value), 0) FROM stats WHERE trace_id >= ?1 "
    "  AND severity IN ('notice','data_loss','error') "
    /* the same count under the stats table's own word (the text summary shows this one;
     * 'warnings' stays for JSON readers) */
    "UNION ALL SELECT 'notices', COALESCE(SUM(value), 0) FROM stats WHERE trace_id >= ?1 "
    "  AND severity IN ('notice','data_loss','error')";
/* A Trace_StartUp report is a startup measurement (its startup row, source matrix_report),
 * not an issue: Matrix flags a slow startup with its STARTUP evil-method issue, which the
 * lists below already hold; the report's issue row only keeps its JSON (storage.md 3). */
static const char sum_top_issues[] =
    "SELECT kind, cost_ms, COALESCE(stack_key, 'unresolved:' || NULLIF(stack_key_raw, ''), '-') AS stack_key, "
    "scene, tag, detail FROM issue WHERE trace_id >= ?1 AND kind <> 'fps' "
    "AND tag <> 'Trace_StartUp' AND cost_ms IS NOT NULL ORDER BY cost_ms DESC, id LIMIT ?2";
static const char sum_by_key[] =
    "SELECT kind, COALESCE(stack_key, 'unresolved:' || stack_key_raw) AS key, "
    "COUNT(*) AS issues, MAX(cost_ms) AS max_cost_ms, "
    "CAST(ROUND(AVG(cost_ms)) AS INTEGER) AS avg_cost_ms, COUNT(DISTINCT scene) AS scenes "
    "FROM issue WHERE trace_id >= ?1 AND kind <> 'fps' AND tag <> 'Trace_StartUp' "
    "AND stack_key_raw IS NOT NULL "
    "AND stack_key_raw <> '' GROUP BY kind, key "
    "ORDER BY issues DESC, max_cost_ms DESC, key LIMIT ?2";
static const char sum_scenes[] =
    "SELECT scene, model, SUM(frames) AS frames, "
    "ROUND(SUM(CASE WHEN fps > 0 THEN frames END) / SUM(CASE WHEN fps > 0 THEN frames / fps "
    "END), 2) AS avg_fps, SUM(jank_count) AS jank_frames, "
    "SUM(level_frozen_count) + SUM(level_high_count) AS bad_frames "
    "FROM scene_frame_stats WHERE trace_id >= ?1 AND ts IS NULL AND scene <> '*' "
    "AND frames > 0 GROUP BY scene, model "
    "ORDER BY 1000.0 * (SUM(level_frozen_count) + SUM(level_high_count)) / SUM(frames) DESC, "
    "avg_fps, scene LIMIT ?2";
static const char sum_startups[] =
    "SELECT kind, source, dur / 1000000 AS dur_ms, ttid_dur / 1000000 AS ttid_ms, "
    "ttfd_dur / 1000000 AS ttfd_ms, startup_duration_ms FROM startup WHERE trace_id >= ?1 "
    "ORDER BY COALESCE(dur / 1000000, startup_duration_ms) DESC, id LIMIT ?2";

int tdb__summary_plan(tdb_db *db, tt_error *err)
{
    static const char *const all[] = {sum_counts, sum_top_issues, sum_by_key, sum_scenes,
                                      sum_startups};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db->h, all[i], -1, &st, NULL) != SQLITE_OK)
            return tdb__sqlerr(db, err, "summary");
        sqlite3_finalize(st);
    }
    return 0;
}

/* Prepares, binds (first_trace, limit) where the statement has them, runs. */
static int summary(tdb_db *db, const char *sql, int64_t first_trace, int limit, tdb_row_fn fn,
                   void *ctx, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "summary");
    sqlite3_bind_int64(st, 1, first_trace);
    if (sqlite3_bind_parameter_count(st) >= 2)
        sqlite3_bind_int(st, 2, limit);
    int rc = tdb__rows(db, st, fn, ctx, err);
    sqlite3_finalize(st);
    return rc;
}

int tdb_summary_counts(tdb_db *db, int64_t first_trace, tdb_row_fn fn, void *ctx,
                       tt_error *err)
{
    return summary(db, sum_counts, first_trace, 0, fn, ctx, err);
}

int tdb_summary_top_issues(tdb_db *db, int64_t first_trace, int limit, tdb_row_fn fn,
                           void *ctx, tt_error *err)
{
    return summary(db, sum_top_issues, first_trace, limit, fn, ctx, err);
}

int tdb_summary_by_key(tdb_db *db, int64_t first_trace, int limit, tdb_row_fn fn, void *ctx,
                       tt_error *err)
{
    return summary(db, sum_by_key, first_trace, limit, fn, ctx, err);
}

int tdb_summary_scenes(tdb_db *db, int64_t first_trace, int limit, tdb_row_fn fn, void *ctx,
                       tt_error *err)
{
    return summary(db, sum_scenes, first_trace, limit, fn, ctx, err);
}

int tdb_summary_startups(tdb_db *db, int64_t first_trace, int limit, tdb_row_fn fn, void *ctx,
                         tt_error *err)
{
    return summary(db, sum_startups, first_trace, limit, fn, ctx, err);
}

/* *n = the first column of st's one row; finalizes st. */
static int count_of(tdb_db *db, sqlite3_stmt *st, int64_t *n, tt_error *err)
{
    int rc = sqlite3_step(st);
    *n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : tdb__sqlerr(db, err, "count");
}

int tdb_count_issues(tdb_db *db, int64_t first_trace, const char *kind, int64_t min_cost_ms,
                     int64_t *n, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT COUNT(*) FROM issue WHERE trace_id >= ?1 "
                           "AND (?2 IS NULL OR kind = ?2) "
                           "AND (?3 IS NULL OR cost_ms >= ?3)",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "count");
    sqlite3_bind_int64(st, 1, first_trace);
    if (kind)
        sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
    if (min_cost_ms != INT64_MIN)
        sqlite3_bind_int64(st, 3, min_cost_ms);
    return count_of(db, st, n, err);
}

int tdb_count_lost(tdb_db *db, int64_t first_trace, int64_t *n, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT COALESCE(SUM(value), 0) FROM stats WHERE trace_id >= ?1 "
                           "AND severity IN ('data_loss','error')",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "count");
    sqlite3_bind_int64(st, 1, first_trace);
    return count_of(db, st, n, err);
}
