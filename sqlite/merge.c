/* tracetool merge (storage.md 9): the traces of other tracetool databases copied into the one
 * being written, in INSERT ... SELECT statements over an attached source. Row ids are
 * shifted past the destination's (per table, one offset, so the order of rows is kept);
 * method mappings, methods, ignored methods, modules and symbol sets are shared rows matched
 * by their keys (mapping sha256, (mapping, Matrix method id), (mapping, class, method,
 * descriptor), (build id, name), (module, rel_pc)); a trace whose import key is already
 * present is skipped with all its rows. */
#include "tdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tdb_int.h"

/* Tables with an INTEGER PRIMARY KEY that is shifted, and the name of that key. */
static const struct {
    const char *table, *pk;
} shifted[] = {
    {"trace", "id"},         {"stats", "id"},        {"process", "upid"},
    {"thread", "utid"},      {"call_tree", "id"},    {"call_node", "id"},
    {"issue", "id"},         {"ui_frame", "id"},     {"scene_frame_stats", "id"},
    {"startup", "id"},       {"startup_segment", "id"}, {"launch", "id"},
    {"stack_frame", "id"},   {"callsite", "id"},     {"sample", "id"},
    {"slice", "id"},         {"wakeup", "id"},       {"args", "arg_set_id"},
};
#define NSHIFTED (sizeof shifted / sizeof shifted[0])

/* A column of a copied table: its value from the source row "s" (NULL: s.<name> verbatim).
 * :o_<table> is the id offset of that table; the temp.m_* tables map shared rows. */
typedef struct mcol {
    const char *name, *expr;
} mcol;
#define TRACE_REF {"trace_id", "k.new"}
#define KEPT "src.%s s JOIN temp.m_trace k ON k.old = s.trace_id"
#define METHOD(c) {c, "(SELECT new FROM temp.m_method WHERE old = s." c ")"}
#define ARGS {"arg_set_id", "s.arg_set_id + :o_args"}

typedef struct mtable {
    const char *name;
    const char *from; /* FROM clause ("%s" = the table name); NULL = KEPT */
    const mcol cols[32];
} mtable;

/* The per-trace tables, parents before children (foreign keys are checked at COMMIT). */
static const mtable tables[] = {
    {"trace", "src.trace s JOIN temp.m_trace k ON k.old = s.id",
     {{"id", "k.new"}, {"import_key", NULL}, {"content_sha256", NULL}, {"source_format", NULL},
      {"tool_version", NULL}, {"options", NULL}, {"clock", NULL}, {"start_ts", NULL},
      {"end_ts", NULL}, {"package", NULL}, {"app_version", NULL},
      {"mapping_id", "(SELECT new FROM temp.m_mapping WHERE old = s.mapping_id)"},
      {"imported_unix_ms", NULL}}},
    {"trace_input", NULL,
     {TRACE_REF, {"ordinal", NULL}, {"path", NULL}, {"kind", NULL}, {"sha256", NULL},
      {"bytes", NULL}}},
    {"metadata", NULL,
     {TRACE_REF, {"name", NULL}, {"int_value", NULL}, {"str_value", NULL}}},
    {"stats", NULL,
     {{"id", "s.id + :o_stats"}, TRACE_REF, {"name", NULL}, {"idx", NULL}, {"severity", NULL},
      {"source", NULL}, {"value", NULL}, {"description", NULL}}},
    {"process", NULL,
     {{"upid", "s.upid + :o_process"}, TRACE_REF, {"pid", NULL}, {"name", NULL},
      {"start_ts", NULL}, {"end_ts", NULL}}},
    {"thread", NULL,
     {{"utid", "s.utid + :o_thread"}, TRACE_REF, {"upid", "s.upid + :o_process"},
      {"tid", NULL}, {"tid_bits", NULL}, {"name", NULL}, {"is_main_thread", NULL},
      {"start_ts", NULL}, {"end_ts", NULL}, ARGS}},
    {"issue", NULL,
     {{"id", "s.id + :o_issue"}, TRACE_REF, {"tag", NULL}, {"detail", NULL}, {"kind", NULL},
      {"scene", NULL}, {"process_name", NULL}, {"report_unix_ms", NULL}, {"cost_ms", NULL},
      {"sub_type", NULL}, {"stack_key_raw", NULL}, METHOD("stack_key_method_id"),
      {"stack_key", NULL}, {"stack_key_path", NULL}, {"is_foreground", NULL},
      {"thread_stack", NULL}, {"call_tree_id", "s.call_tree_id + :o_call_tree"},
      {"utid", "s.utid + :o_thread"}, {"ts", NULL}, ARGS, {"raw_json", NULL}}},
    {"call_tree", NULL,
     {{"id", "s.id + :o_call_tree"}, TRACE_REF, {"kind", NULL},
      {"issue_id", "s.issue_id + :o_issue"}, {"utid", "s.utid + :o_thread"}}},
    {"stack_frame", NULL,
     {{"id", "s.id + :o_stack_frame"}, TRACE_REF, {"name", NULL}, {"raw_name", NULL},
      {"kind", NULL}, {"module_id", "(SELECT new FROM temp.m_module WHERE old = s.module_id)"},
      {"rel_pc", NULL},
      {"symbol_set_id", "(SELECT new FROM temp.m_set WHERE old = s.symbol_set_id)"},
      METHOD("method_id"), {"file", NULL}, {"line", NULL}}},
    {"binary_image", NULL,
     {TRACE_REF, {"report_id", NULL},
      {"module_id", "(SELECT new FROM temp.m_module WHERE old = s.module_id)"},
      {"image_addr", NULL}, {"image_vmaddr", NULL}, {"image_size", NULL}, {"name", NULL},
      {"arch", NULL}, {"debug_file", NULL}, {"n_frames", NULL}}},
    {"callsite", NULL,
     {{"id", "s.id + :o_callsite"}, TRACE_REF, {"parent_id", "s.parent_id + :o_callsite"},
      {"depth", NULL}, {"frame_id", "s.frame_id + :o_stack_frame"}}},
    {"call_node",
     "src.%s s JOIN src.call_tree ct ON ct.id = s.tree_id JOIN temp.m_trace k ON k.old = "
     "ct.trace_id",
     {{"id", "s.id + :o_call_node"}, {"tree_id", "s.tree_id + :o_call_tree"},
      {"parent_id", "s.parent_id + :o_call_node"}, {"depth", NULL}, {"ordinal", NULL},
      {"name", NULL}, METHOD("method_id"), {"callsite_id", "s.callsite_id + :o_callsite"},
      {"count", NULL}, {"self_count", NULL}, {"total_dur", NULL}, {"self_dur", NULL}, ARGS,
      {"is_recursive", NULL}}},
    {"ui_frame", NULL,
     {{"id", "s.id + :o_ui_frame"}, TRACE_REF, {"utid", "s.utid + :o_thread"}, {"scene", NULL},
      {"ts", NULL}, {"dur", NULL}, {"interval_dur", NULL}, {"expected_dur", NULL},
      {"busy_dur", NULL}, {"dropped_frames", NULL}, {"drop_level", NULL}, {"is_jank", NULL},
      {"is_slow", NULL}, {"is_frozen", NULL}, {"vsync_id", NULL}, ARGS}},
    {"scene_frame_stats", NULL,
     {{"id", "s.id + :o_scene_frame_stats"}, TRACE_REF, {"model", NULL}, {"scene", NULL},
      {"ts", NULL}, {"dur", NULL}, {"frames", NULL}, {"busy_dur", NULL}, {"fps", NULL},
      {"dropped_sum", NULL}, {"level_best_count", NULL}, {"level_best_sum", NULL},
      {"level_normal_count", NULL}, {"level_normal_sum", NULL}, {"level_middle_count", NULL},
      {"level_middle_sum", NULL}, {"level_high_count", NULL}, {"level_high_sum", NULL},
      {"level_frozen_count", NULL}, {"level_frozen_sum", NULL}, {"jank_count", NULL},
      {"slow_count", NULL}, {"frozen_count", NULL}, {"p50_dur", NULL}, {"p90_dur", NULL},
      {"p95_dur", NULL}, {"p99_dur", NULL}, {"max_dur", NULL}, {"mean_dur", NULL},
      {"issue_id", "s.issue_id + :o_issue"}, ARGS}},
    {"startup", NULL,
     {{"id", "s.id + :o_startup"}, TRACE_REF, {"kind", NULL}, {"source", NULL}, {"ts", NULL},
      {"dur", NULL}, {"start_event", NULL}, {"end_event", NULL},
      {"application_create_ms", NULL}, {"application_create_scene", NULL},
      {"first_activity_create_ms", NULL}, {"startup_duration_ms", NULL}, {"ttid_dur", NULL},
      {"ttfd_dur", NULL}, {"matrix_over_threshold", NULL}, {"matrix_stack_collected", NULL},
      {"vitals_excessive", NULL}, {"issue_id", "s.issue_id + :o_issue"}}},
    {"startup_segment",
     "src.%s s JOIN src.startup st ON st.id = s.startup_id JOIN temp.m_trace k ON k.old = "
     "st.trace_id",
     {{"id", "s.id + :o_startup_segment"}, {"startup_id", "s.startup_id + :o_startup"},
      {"ordinal", NULL}, {"name", NULL}, {"from_event", NULL}, {"to_event", NULL},
      {"ts", NULL}, {"dur", NULL}}},
    {"launch", NULL,
     {{"id", "s.id + :o_launch"}, TRACE_REF, {"source", NULL}, {"component", NULL},
      {"launch_state", NULL}, {"status", NULL}, {"total_ms", NULL}, {"wait_ms", NULL},
      {"this_ms", NULL}, {"fully_drawn_ms", NULL}, {"log_time", NULL},
      {"not_launched", NULL}, {"incomplete", NULL}}},
    {"sample", NULL,
     {{"id", "s.id + :o_sample"}, TRACE_REF, {"utid", "s.utid + :o_thread"}, {"ts", NULL},
      {"dur", NULL}, {"callsite_id", "s.callsite_id + :o_callsite"}, {"count", NULL},
      {"weight", NULL}, {"type", NULL}, {"event", NULL}, {"msg_id", NULL},
      {"is_interval", NULL}, {"is_blocking", NULL}, {"thread_ts", NULL},
      {"thread_dur", NULL}}},
    {"slice", NULL,
     {{"id", "s.id + :o_slice"}, TRACE_REF, {"utid", "s.utid + :o_thread"}, {"ts", NULL},
      {"dur", NULL}, {"depth", NULL}, {"parent_id", "s.parent_id + :o_slice"},
      {"name", NULL}, {"category", NULL}, {"frame_id", "s.frame_id + :o_stack_frame"},
      {"callsite_id", "s.callsite_id + :o_callsite"}, METHOD("method_id"),
      {"end_kind", NULL}, {"thread_dur", NULL}, {"self_dur", NULL},
      {"self_thread_dur", NULL}, {"block_dur", NULL}, {"sample_count", NULL},
      {"gap_before", NULL}, {"gap_after", NULL}, {"msg_id", NULL}, {"type", NULL},
      {"is_recursive", NULL}, {"wakeup_utid", "s.wakeup_utid + :o_thread"},
      {"alloc_objects", NULL}, {"alloc_bytes", NULL}, {"maj_flt", NULL}, {"nv_csw", NULL},
      {"niv_csw", NULL}, ARGS}},
    {"wakeup", NULL,
     {{"id", "s.id + :o_wakeup"}, TRACE_REF, {"wakee_slice_id", "s.wakee_slice_id + :o_slice"},
      {"waker_utid", "s.waker_utid + :o_thread"}, {"waker_ts", NULL}, {"kind", NULL}}},
    /* argument sets of the copied rows (their owners: arg_owners below) */
    {"args", "src.%s s WHERE s.arg_set_id IN (",
     {ARGS, {"key", NULL}, {"value_type", NULL}, {"int_value", NULL}, {"real_value", NULL},
      {"string_value", NULL}}},
};

/* The tables whose rows own arg sets, and how to select the sets of the copied traces; a
 * table of the source without the column (an older schema) owns none. */
static const struct {
    const char *table, *sql;
} arg_owners[] = {
    {"issue", "SELECT arg_set_id FROM src.issue WHERE trace_id IN (SELECT old FROM temp.m_trace)"},
    {"ui_frame",
     "SELECT arg_set_id FROM src.ui_frame WHERE trace_id IN (SELECT old FROM temp.m_trace)"},
    {"scene_frame_stats", "SELECT arg_set_id FROM src.scene_frame_stats WHERE trace_id IN "
                          "(SELECT old FROM temp.m_trace)"},
    {"slice", "SELECT arg_set_id FROM src.slice WHERE trace_id IN (SELECT old FROM temp.m_trace)"},
    {"thread",
     "SELECT arg_set_id FROM src.thread WHERE trace_id IN (SELECT old FROM temp.m_trace)"},
    {"call_node", "SELECT n.arg_set_id FROM src.call_node n JOIN src.call_tree ct ON ct.id = "
                  "n.tree_id WHERE ct.trace_id IN (SELECT old FROM temp.m_trace)"},
};

/* Shared rows: inserted when their key is new, then mapped old -> new (temp.m_*). */
static const char *const shared_sql[] = {
    "INSERT INTO main.method_mapping (sha256, path, method_count, retrace_sha256) "
    "SELECT s.sha256, s.path, s.method_count, s.retrace_sha256 FROM src.method_mapping s "
    "WHERE NOT EXISTS (SELECT 1 FROM main.method_mapping d WHERE d.sha256 = s.sha256 "
    "AND IFNULL(d.retrace_sha256, '') = IFNULL(s.retrace_sha256, '')) ORDER BY s.id",
    "INSERT INTO temp.m_mapping SELECT s.id, d.id FROM src.method_mapping s "
    "JOIN main.method_mapping d ON d.sha256 = s.sha256 "
    "AND IFNULL(d.retrace_sha256, '') = IFNULL(s.retrace_sha256, '')",
    "INSERT INTO main.method (mapping_id, method_id, access_flags, class_name, method_name, "
    "descriptor, name) SELECT mm.new, s.method_id, s.access_flags, s.class_name, "
    "s.method_name, s.descriptor, s.name FROM src.method s "
    "JOIN temp.m_mapping mm ON mm.old = s.mapping_id WHERE NOT EXISTS (SELECT 1 FROM "
    "main.method d WHERE d.mapping_id = mm.new AND d.method_id = s.method_id) ORDER BY s.id",
    "INSERT INTO temp.m_method SELECT s.id, d.id FROM src.method s "
    "JOIN temp.m_mapping mm ON mm.old = s.mapping_id "
    "JOIN main.method d ON d.mapping_id = mm.new AND d.method_id = s.method_id",
    /* the ignored methods of a mapping: a line the destination's mapping has is not copied
     * again (a source of schema 4 or older has none: ignored_src below) */
    "INSERT INTO main.ignored_method (mapping_id, class_name, method_name, descriptor, name) "
    "SELECT mm.new, s.class_name, s.method_name, s.descriptor, s.name FROM src.ignored_method s "
    "JOIN temp.m_mapping mm ON mm.old = s.mapping_id WHERE NOT EXISTS (SELECT 1 FROM "
    "main.ignored_method d WHERE d.mapping_id = mm.new AND d.class_name = s.class_name AND "
    "d.method_name = s.method_name AND IFNULL(d.descriptor, '') = IFNULL(s.descriptor, '')) "
    "ORDER BY s.id",
    "INSERT INTO main.module (build_id, name, path, kind, has_debug_info) "
    "SELECT s.build_id, s.name, s.path, s.kind, s.has_debug_info FROM src.module s "
    "WHERE NOT EXISTS (SELECT 1 FROM main.module d WHERE d.build_id IS s.build_id "
    "AND d.name = s.name) ORDER BY s.id",
    /* a module both have: its other columns by analyze's rule (tdb_module_get), so that the
     * order of the merges does not show: the smallest path and kind, the largest
     * has_debug_info; only rows that change (not counted: no row is added) */
    "UPDATE main.module SET "
    "path = COALESCE(MIN(path, (SELECT s.path FROM src.module s WHERE s.build_id IS "
    "module.build_id AND s.name = module.name)), path, (SELECT s.path FROM src.module s "
    "WHERE s.build_id IS module.build_id AND s.name = module.name)), "
    "kind = MIN(kind, COALESCE((SELECT s.kind FROM src.module s WHERE s.build_id IS "
    "module.build_id AND s.name = module.name), kind)), "
    "has_debug_info = COALESCE(MAX(has_debug_info, (SELECT s.has_debug_info FROM src.module s "
    "WHERE s.build_id IS module.build_id AND s.name = module.name)), has_debug_info, "
    "(SELECT s.has_debug_info FROM src.module s WHERE s.build_id IS module.build_id "
    "AND s.name = module.name)) "
    "WHERE EXISTS (SELECT 1 FROM src.module s WHERE s.build_id IS module.build_id "
    "AND s.name = module.name AND (s.path < COALESCE(module.path, s.path || 'x') "
    "OR s.kind < module.kind OR s.has_debug_info > COALESCE(module.has_debug_info, -1)))",
    "INSERT INTO temp.m_module SELECT s.id, (SELECT d.id FROM main.module d "
    "WHERE d.build_id IS s.build_id AND d.name = s.name) FROM src.module s",
    /* symbol sets: the destination's set for a (module, rel_pc) it already has, else a new
     * set number past the destination's largest (:set_base), shifted by :set_off (set_offset) */
    "INSERT INTO temp.m_set SELECT s.symbol_set_id, d.symbol_set_id FROM src.symbolized_pc s "
    "JOIN temp.m_module mm ON mm.old = s.module_id "
    "JOIN main.symbolized_pc d ON d.module_id = mm.new AND d.rel_pc = s.rel_pc",
    "INSERT OR IGNORE INTO temp.m_set SELECT symbol_set_id, symbol_set_id + :set_off "
    "FROM src.symbol UNION SELECT symbol_set_id, symbol_set_id + :set_off "
    "FROM src.symbolized_pc UNION SELECT symbol_set_id, symbol_set_id + :set_off "
    "FROM src.stack_frame WHERE symbol_set_id IS NOT NULL",
    "INSERT INTO main.symbol (symbol_set_id, inline_depth, name, file, line, column_no, "
    "is_inlined, symbol_name, is_approximate) SELECT ms.new, s.inline_depth, s.name, s.file, "
    "s.line, s.column_no, s.is_inlined, s.symbol_name, s.is_approximate FROM src.symbol s "
    "JOIN temp.m_set ms ON ms.old = s.symbol_set_id WHERE ms.new > :set_base ORDER BY s.id",
    "INSERT INTO main.symbolized_pc (module_id, rel_pc, symbol_set_id) "
    "SELECT mm.new, s.rel_pc, ms.new FROM src.symbolized_pc s "
    "JOIN temp.m_module mm ON mm.old = s.module_id "
    "JOIN temp.m_set ms ON ms.old = s.symbol_set_id WHERE ms.new > :set_base",
    /* the traces not present yet (by import key), new ids past the destination's */
    "INSERT INTO temp.m_trace SELECT s.id, s.id + :o_trace FROM src.trace s "
    "WHERE NOT EXISTS (SELECT 1 FROM main.trace d WHERE d.import_key = s.import_key)",
};

static const char temp_tables[] =
    "CREATE TEMP TABLE IF NOT EXISTS m_trace (old INTEGER PRIMARY KEY, new INTEGER);"
    "CREATE TEMP TABLE IF NOT EXISTS m_mapping (old INTEGER PRIMARY KEY, new INTEGER);"
    "CREATE TEMP TABLE IF NOT EXISTS m_method (old INTEGER PRIMARY KEY, new INTEGER);"
    "CREATE TEMP TABLE IF NOT EXISTS m_module (old INTEGER PRIMARY KEY, new INTEGER);"
    "CREATE TEMP TABLE IF NOT EXISTS m_set (old INTEGER PRIMARY KEY, new INTEGER);"
    "DELETE FROM temp.m_trace; DELETE FROM temp.m_mapping; DELETE FROM temp.m_method;"
    "DELETE FROM temp.m_module; DELETE FROM temp.m_set;";

/* Kept for the whole merge (created by its first source; in a temporary file when db was
 * opened with TDB_WRITE_TEMP_FILE, as tracetool merge opens it): the input each trace of the
 * destination came from (its label; the destination's own traces have the label of db), and
 * the framestats frames of the destination by (scene, IntendedVsync, duration), to find the
 * frames of overlapping dumps analysed in different runs (frames.md 7.3). */
static const char run_tables[] =
    "CREATE TEMP TABLE m_origin (id INTEGER PRIMARY KEY, label TEXT NOT NULL);"
    "CREATE TEMP TABLE m_fkey (scene TEXT, ts INTEGER, dur INTEGER, trace_id INTEGER);"
    "CREATE INDEX temp.m_fkey_by_frame ON m_fkey (scene, ts, dur, trace_id);";

/* The framestats frames of the traces in temp.m_trace (:all = 1: of every trace). */
static const char fkey_add[] =
    "INSERT INTO temp.m_fkey SELECT u.scene, u.ts, u.dur, u.trace_id FROM main.ui_frame u "
    "JOIN main.trace t ON t.id = u.trace_id WHERE t.source_format = 'framestats' "
    "AND (:all OR u.trace_id IN (SELECT new FROM temp.m_trace))";

/* A frame of a copied framestats trace with the same scene, IntendedVsync and duration as a
 * framestats frame of a trace before it (a smaller id: the destination's, an earlier input's,
 * or an earlier one of the same input). */
#define FDUP_FROM                                                                               \
    "main.ui_frame u WHERE u.trace_id IN (SELECT k.new FROM temp.m_trace k JOIN main.trace t " \
    "ON t.id = k.new WHERE t.source_format = 'framestats') AND EXISTS (SELECT 1 FROM "         \
    "temp.m_fkey f WHERE f.scene IS u.scene AND f.ts = u.ts AND f.dur = u.dur AND "            \
    "f.trace_id < u.trace_id)"
#define FDUP_DESC                                                                               \
    "framestats frames also in an earlier trace (overlapping dumps analysed in different "     \
    "runs, then merged): counted twice"
/* The count is the merged database's: a copied row is replaced. */
static const char *const fdup_sql[] = {
    "DELETE FROM main.stats WHERE name = 'frames_overlap' "
    "AND trace_id IN (SELECT new FROM temp.m_trace)",
    "INSERT INTO main.stats (trace_id, name, idx, severity, source, value, description) "
    "SELECT u.trace_id, 'frames_overlap', NULL, 'notice', 'analysis', COUNT(*), '" FDUP_DESC
    "' FROM " FDUP_FROM " GROUP BY u.trace_id ORDER BY u.trace_id",
};

/* One integer from sql (NULL reads as dflt). */
static int query_int(tdb_db *db, const char *sql, int64_t dflt, int64_t *v, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "merge");
    int rc = sqlite3_step(st);
    *v = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL
             ? sqlite3_column_int64(st, 0)
             : dflt;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : tdb__sqlerr(db, err, "merge");
}

/* Binds every named parameter of st (":o_<table>", ":set_base" and ":set_off" from sets,
 * ":d_method"); sets may be NULL when st has neither. */
static void bind_offsets(sqlite3_stmt *st, const int64_t *off, const int64_t *sets,
                         int64_t d_method)
{
    for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++) {
        const char *p = sqlite3_bind_parameter_name(st, i);
        if (!p)
            continue;
        if (!strcmp(p, ":d_method")) {
            sqlite3_bind_int64(st, i, d_method);
            continue;
        }
        if (sets && (!strcmp(p, ":set_base") || !strcmp(p, ":set_off"))) {
            sqlite3_bind_int64(st, i, sets[p[5] == 'o']);
            continue;
        }
        for (size_t t = 0; t < NSHIFTED; t++)
            if (!strncmp(p, ":o_", 3) && !strcmp(p + 3, shifted[t].table))
                sqlite3_bind_int64(st, i, off[t]);
    }
}

/* Runs one statement with the offsets bound; *changes += rows written. */
static int run(tdb_db *db, const char *sql, const int64_t *off, const int64_t *sets,
               int64_t d_method, int64_t *changes, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "merge");
    bind_offsets(st, off, sets, d_method);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return tdb__sqlerr(db, err, "merge");
    if (changes)
        *changes += sqlite3_changes(db->h);
    return 0;
}

/* Runs sql with :label and :all bound; *out = a copy of the first column of its first row
 * (NULL when NULL or none) when out is given. */
static int run_text(tdb_db *db, const char *sql, const char *label, int all, char **out,
                    tt_error *err)
{
    sqlite3_stmt *st;
    if (out)
        *out = NULL;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "merge");
    int i = sqlite3_bind_parameter_index(st, ":label");
    if (i)
        sqlite3_bind_text(st, i, label, -1, SQLITE_STATIC);
    if ((i = sqlite3_bind_parameter_index(st, ":all")))
        sqlite3_bind_int(st, i, all);
    int rc = sqlite3_step(st);
    if (out && rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        if (t && !(*out = strdup(t))) {
            sqlite3_finalize(st);
            return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : tdb__sqlerr(db, err, "merge");
}

/* The labels of the inputs (in merge order) of the traces matched by the query
 * "SELECT id ..." in ids, joined by ", ". */
static int origins(tdb_db *db, const char *ids, char **out, tt_error *err)
{
    tt_buf sql = {0};
    tt_buf_printf(&sql,
                  "SELECT group_concat(label, ', ') FROM (SELECT o.label AS label FROM "
                  "temp.m_origin o WHERE o.id IN (%s) GROUP BY o.label ORDER BY MIN(o.id))",
                  ids);
    if (!sql.data)
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    int rc = run_text(db, sql.data, NULL, 0, out, err);
    tt_buf_free(&sql);
    return rc;
}

void tdb_merge_stats_free(tdb_merge_stats *ms)
{
    free(ms->held_by);
    free(ms->overlaps);
    ms->held_by = ms->overlaps = NULL;
}

/* After the copy: the framestats frames of the copied traces that duplicate frames of
 * earlier traces, counted per trace in a stats row 'frames_overlap' and in ms. */
static int find_overlaps(tdb_db *db, const char *label, tdb_merge_stats *ms, tt_error *err)
{
    int rc = run_text(db, "INSERT INTO temp.m_origin SELECT new, :label FROM temp.m_trace",
                      label, 0, NULL, err);
    if (!rc)
        rc = run_text(db, fkey_add, NULL, 0, NULL, err);
    /* a copied row that is replaced was counted by the copy: it is one row written */
    int64_t replaced = 0;
    for (size_t i = 0; i < sizeof fdup_sql / sizeof fdup_sql[0] && !rc; i++)
        rc = run(db, fdup_sql[i], NULL, NULL, 0, i ? &ms->rows : &replaced, err);
    ms->rows -= replaced;
    if (!rc)
        rc = query_int(db, "SELECT COUNT(*) FROM " FDUP_FROM, 0, &ms->frames_overlap, err);
    if (!rc && ms->frames_overlap)
        rc = query_int(db, "SELECT COUNT(*) FROM main.stats WHERE name = 'frames_overlap' "
                           "AND trace_id IN (SELECT new FROM temp.m_trace)",
                       0, &ms->traces_overlap, err);
    if (!rc && ms->frames_overlap)
        rc = origins(db,
                     "SELECT f.trace_id FROM temp.m_fkey f JOIN " FDUP_FROM
                     " AND f.scene IS u.scene AND f.ts = u.ts AND f.dur = u.dur "
                     "AND f.trace_id < u.trace_id",
                     &ms->overlaps, err);
    return rc;
}

void tdb_merge_stop(tdb_db *db, volatile sig_atomic_t *flag) { db->stop = flag; }

/* 1 when the source table has the column (older schemas lack columns added since). */
static int src_has(tdb_db *db, const char *table, const char *col)
{
    return tdb__has_column(db, "src", table, col);
}

/* INSERT INTO main.T (cols) SELECT exprs FROM ...: the statement text is assembled from the
 * static table above only (no value is ever part of it). A column the source's schema
 * version does not have yet is left out: it gets its default (NULL, or 0 for
 * call_node.is_recursive, computed after the copy), as the migration adding it leaves it. */
static int copy_table(tdb_db *db, const mtable *t, const int64_t *off, int method_shift,
                      int64_t d_method, int64_t *changes, tt_error *err)
{
    if (!src_has(db, t->name, t->cols[0].name))
        return 0; /* a table the source's schema does not have */
    if (!strcmp(t->name, "args")) { /* few inputs write args: skip the owners' scans */
        int64_t any;
        int rc = query_int(db, "SELECT EXISTS (SELECT 1 FROM src.args)", 0, &any, err);
        if (rc || !any)
            return rc;
    }
    tt_buf sql = {0};
    tt_buf_printf(&sql, "INSERT INTO main.%s (", t->name);
    for (int i = 0, n = 0; t->cols[i].name; i++)
        if (src_has(db, t->name, t->cols[i].name))
            tt_buf_printf(&sql, "%s%s", n++ ? ", " : "", t->cols[i].name);
    tt_buf_puts(&sql, ") SELECT ");
    for (int i = 0, n = 0; t->cols[i].name; i++) {
        const mcol *c = &t->cols[i];
        if (!src_has(db, t->name, c->name))
            continue;
        const char *sep = n++ ? ", " : "";
        if (method_shift && c->expr && strstr(c->expr, "temp.m_method"))
            tt_buf_printf(&sql, "%ss.%s + :d_method", sep, c->name); /* no lookup per row */
        else if (c->expr)
            tt_buf_printf(&sql, "%s%s", sep, c->expr);
        else
            tt_buf_printf(&sql, "%ss.%s", sep, c->name);
    }
    tt_buf_puts(&sql, " FROM ");
    tt_buf_printf(&sql, t->from ? t->from : KEPT, t->name);
    if (!strcmp(t->name, "args")) {
        int n = 0;
        for (size_t i = 0; i < sizeof arg_owners / sizeof arg_owners[0]; i++)
            if (src_has(db, arg_owners[i].table, "arg_set_id"))
                tt_buf_printf(&sql, "%s%s", n++ ? " UNION " : "", arg_owners[i].sql);
        if (!n)
            tt_buf_puts(&sql, "SELECT NULL");
        tt_buf_puts(&sql, ")");
    }
    tt_buf_puts(&sql, " ORDER BY s.rowid");
    if (!sql.data) {
        tt_buf_free(&sql);
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    }
    int rc = run(db, sql.data, off, NULL, d_method, changes, err);
    tt_buf_free(&sql);
    return rc;
}

/* The tables that hold symbol set numbers; symbol's first: its index gives its ends. */
static const char *const set_tables[] = {"symbol", "symbolized_pc", "stack_frame"};

/* sets[1] (:set_off): the shift of the source's symbol set numbers past the destination's
 * largest, sets[0] (:set_base): sets[0] itself when they are all positive (set N becomes
 * sets[0] + N), else larger, so that the smallest lands just past sets[0]. A number that
 * would pass 2^63 - 1 is refused, as the row ids are: SQLite would make it a REAL, a set
 * that matches nothing. Runs after temp.m_set holds the sets the destination has already
 * (by module and rel_pc): the ends of each table are read first (one end of an index
 * each); when they do not fit, only the sets that need a new number count (a source
 * merged again adds none, and is not refused: tracetool-merge(1), idempotent). */
static int set_offset(tdb_db *db, const char *src_path, const char *db_label, int64_t *sets,
                      tt_error *err)
{
    int64_t lo[3], hi[3];
    size_t bad = 3;
    for (int only_new = 0; only_new < 2 && (only_new == 0 || bad < 3); only_new++) {
        size_t low = 0; /* the table with the smallest number */
        char sql[200];
        int rc = 0;
        const char *cond = only_new ? " WHERE symbol_set_id NOT IN (SELECT old FROM temp.m_set)"
                                    : "";
        for (size_t t = 0; t < 3 && !rc; t++) {
            snprintf(sql, sizeof sql, "SELECT MIN(symbol_set_id) FROM src.%s%s", set_tables[t],
                     cond);
            rc = query_int(db, sql, 1, &lo[t], err);
            snprintf(sql, sizeof sql, "SELECT MAX(symbol_set_id) FROM src.%s%s", set_tables[t],
                     cond);
            if (!rc)
                rc = query_int(db, sql, 0, &hi[t], err);
            if (!rc && lo[t] < lo[low])
                low = t;
        }
        if (rc)
            return rc;
        int64_t gap = 0, top;
        bad = 3;
        if (lo[low] < 1 && (__builtin_sub_overflow(1, lo[low], &gap) ||
                            __builtin_add_overflow(sets[0], gap, &sets[1])))
            bad = low;
        else if (lo[low] >= 1)
            sets[1] = sets[0];
        for (size_t t = 0; t < 3 && bad == 3; t++)
            if (lo[t] <= hi[t] && __builtin_add_overflow(hi[t], sets[1], &top))
                bad = t;
    }
    if (bad == 3)
        return 0;
    return tt_error_set(err, TT_ELIMIT, src_path, 0, 0,
                        "table %s: symbol sets %lld..%lld cannot follow %s's largest, %lld, "
                        "without passing 2^63 - 1 (the largest SQLite integer)",
                        set_tables[bad], (long long)lo[bad], (long long)hi[bad], db_label,
                        (long long)sets[0]);
}

int tdb_merge_add(tdb_db *db, const char *src_path, const char *db_label, int pages_checked,
                  tdb_merge_stats *ms, tt_error *err)
{
    memset(ms, 0, sizeof *ms);
    /* the source is checked as query opens it: a tracetool database of a schema we read */
    tdb_db *check;
    int newer;
    int absent = tdb__wal_absent(src_path);
    /* a signal (tdb_merge_stop) stops the wait for a writer of the source at once */
    int rc = tdb__open_read_stop(&check, src_path, db->stop, !pages_checked, &newer, err);
    if (rc)
        return rc;
    int64_t version = 0;
    rc = tdb__check_header(check, &version, err);
    int immutable = tdb__immutable(check);
    tdb_close(check);
    if (rc)
        return rc;
    if (newer || version > TDB_SCHEMA_VERSION)
        return tt_error_set(err, TT_EUNSUPPORTED, src_path, 0, 0,
                            "written by a newer tracetool; schema %lld > %d: merge it with "
                            "that version",
                            (long long)version, TDB_SCHEMA_VERSION);
    if (!db->tmp || !db->in_tx)
        return tt_error_set(err, TT_EUNSUPPORTED, db->path, 0, 0,
                            "merge needs a database built aside");
    sqlite3_busy_handler(db->h, tdb__stop_busy, db); /* a writer of the source finishing */
    /* read-only, as query reads it: a source on a read-only volume, or one whose -shm file
     * we cannot write, is still read (immutable when no -shm file can be used at all) */
    int tidy = absent && !immutable;
    /* an attached database takes the default locking mode, and this connection's is
     * EXCLUSIVE (tdb_open_write): a read-only WAL source in exclusive mode cannot read its
     * log (SQLITE_IOERR), so the default goes back to NORMAL and only main stays exclusive */
    if ((rc = tdb__exec(db, "PRAGMA locking_mode = NORMAL; PRAGMA main.locking_mode = EXCLUSIVE",
                        err)))
        return rc;
    if ((rc = tdb__attach_read(db->h, src_path, "src", immutable, err)))
        return rc;
    /* from here every path lets the source go (below): a signal (tdb_merge_stop) stops the
     * statement running and the wait for a writer of the source */
    sqlite3_progress_handler(db->h, 1000, tdb__stop_progress, db);
    /* rows of another file: SQLite checks their CHECK lists (tdb_open_write turns that off
     * for the row writers, which check in C) */
    rc = tdb__exec(db, "PRAGMA src.locking_mode = NORMAL; PRAGMA ignore_check_constraints = OFF",
                   err);
    /* the tables of schema 1 that the shared rows are read from: a file stamped as a
     * tracetool database without them is not one */
    static const char *const need[][2] = {{"trace", "import_key"}, {"method_mapping", "sha256"},
                                          {"method", "method_id"}, {"module", "build_id"},
                                          {"symbol", "symbol_set_id"},
                                          {"symbolized_pc", "rel_pc"},
                                          {"stack_frame", "symbol_set_id"}};
    for (size_t i = 0; i < sizeof need / sizeof need[0] && !rc; i++)
        if (!src_has(db, need[i][0], need[i][1]))
            rc = tt_error_set(err, TT_EFORMAT, src_path, 0, 0,
                              "not a tracetool database (no column %s.%s)", need[i][0],
                              need[i][1]);
    int64_t off[NSHIFTED], sets[2] = {0, 0}; /* :set_base, :set_off */
    int64_t first = 0, node_first = 0; /* the first call_node id a copy writes */
    if (!rc)
        rc = query_int(db, "SELECT NOT EXISTS (SELECT 1 FROM temp.sqlite_master WHERE name = "
                           "'m_origin')", 0, &first, err);
    if (!rc)
        rc = tdb__exec(db, temp_tables, err);
    /* the first source: the destination's own traces (--append) */
    if (!rc && first && !(rc = tdb__exec(db, run_tables, err)))
        rc = run_text(db, "INSERT INTO temp.m_origin SELECT id, :label FROM main.trace",
                      db_label, 0, NULL, err);
    if (!rc && first)
        rc = run_text(db, fkey_add, NULL, 1, NULL, err);
    /* one offset per table: the source's first row lands just past the destination's last */
    for (size_t t = 0; t < NSHIFTED && !rc; t++) {
        char sql[256];
        int64_t dmax, smin, smax = 0;
        snprintf(sql, sizeof sql, "SELECT MAX(%s) FROM main.%s", shifted[t].pk,
                 shifted[t].table);
        rc = query_int(db, sql, 0, &dmax, err);
        if (!rc && src_has(db, shifted[t].table, shifted[t].pk)) {
            /* one aggregate a statement: each reads one end of the table's b-tree (a damaged
             * page there is found, as the copy would find it), not a whole index */
            snprintf(sql, sizeof sql, "SELECT MIN(%s) FROM src.%s", shifted[t].pk,
                     shifted[t].table);
            rc = query_int(db, sql, 1, &smin, err);
            snprintf(sql, sizeof sql, "SELECT MAX(%s) FROM src.%s", shifted[t].pk,
                     shifted[t].table);
            if (!rc)
                rc = query_int(db, sql, 1, &smax, err);
        } else {
            smin = 1;
        }
        /* SQLite would turn an id past 2^63 - 1 into a REAL ("datatype mismatch") */
        int64_t next, top;
        if (!rc && (__builtin_add_overflow(dmax, 1, &next) ||
                    __builtin_sub_overflow(next, smin, &off[t]) ||
                    __builtin_add_overflow(smax, off[t], &top)))
            rc = tt_error_set(err, TT_ELIMIT, src_path, 0, 0,
                              "table %s: ids %lld..%lld cannot follow %s's largest, %lld, "
                              "without passing 2^63 - 1 (the largest SQLite integer)",
                              shifted[t].table, (long long)smin, (long long)smax, db_label,
                              (long long)dmax);
        if (!rc && !strcmp(shifted[t].table, "call_node"))
            node_first = next;
    }
    if (!rc)
        rc = query_int(db,
                       "SELECT MAX(m) FROM (SELECT MAX(symbol_set_id) AS m FROM main.symbol "
                       "UNION ALL SELECT MAX(symbol_set_id) FROM main.symbolized_pc)",
                       0, &sets[0], err);
    if (!rc)
        rc = tdb__exec(db, "PRAGMA defer_foreign_keys = ON", err);
    /* rows added only: a module row updated in place is not one more (tracetool-merge(1)) */
    int ignored_src = !rc && src_has(db, "ignored_method", "mapping_id");
    for (size_t i = 0; i < sizeof shared_sql / sizeof shared_sql[0] && !rc; i++) {
        /* the new set numbers, once temp.m_set maps the sets the destination has */
        if (!strncmp(shared_sql[i], "INSERT OR IGNORE INTO temp.m_set", 32))
            rc = set_offset(db, src_path, db_label, sets, err);
        if (!rc && (ignored_src || !strstr(shared_sql[i], "src.ignored_method")))
            rc = run(db, shared_sql[i], off, sets, 0,
                     !strncmp(shared_sql[i], "INSERT INTO main.", 17)  ? &ms->rows
                     : !strncmp(shared_sql[i], "UPDATE main.", 12) ? &ms->rows_updated
                                                                    : NULL,
                     err);
    }
    if (!rc)
        rc = query_int(db, "SELECT COUNT(*) FROM src.trace", 0, &ms->traces_in, err);
    if (!rc)
        rc = query_int(db, "SELECT COUNT(*) FROM temp.m_trace", 0, &ms->traces_added, err);
    if (!rc && ms->traces_added < ms->traces_in)
        rc = origins(db,
                     "SELECT d.id FROM src.trace s JOIN main.trace d ON d.import_key = "
                     "s.import_key",
                     &ms->held_by, err);
    /* methods usually keep their order (one mapping copied whole, or found whole): then
     * one difference maps every method id, without a lookup per row; not when a difference
     * passes the SQLite integers (ids near -2^63 shifted to small ones: SQLite makes it a
     * REAL), then each id is looked up, which adds nothing */
    int64_t dmin = 0, dmax = 0, nmeth = 0, nsrc = 0, wide = 0;
    if (!rc)
        rc = query_int(db, "SELECT EXISTS (SELECT 1 FROM temp.m_method WHERE "
                           "typeof(new - old) <> 'integer')", 0, &wide, err);
    if (!rc)
        rc = query_int(db, "SELECT MIN(new - old) FROM temp.m_method", 0, &dmin, err);
    if (!rc)
        rc = query_int(db, "SELECT MAX(new - old) FROM temp.m_method", 0, &dmax, err);
    if (!rc)
        rc = query_int(db, "SELECT COUNT(*) FROM temp.m_method", 0, &nmeth, err);
    if (!rc)
        rc = query_int(db, "SELECT COUNT(*) FROM src.method", 0, &nsrc, err);
    int method_shift = dmin == dmax && nmeth == nsrc && !wide;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0] && !rc && ms->traces_added; i++)
        rc = copy_table(db, &tables[i], off, method_shift, dmin, &ms->rows, err);
    /* a source of schema 5 or older: its nodes nested in a call of the same method are found
     * as tdb_node_add finds them (the copy keeps each tree's pre-order) */
    if (!rc && ms->traces_added && !src_has(db, "call_node", "is_recursive"))
        rc = tdb__node_recursion(db, node_first, err);
    if (!rc && ms->traces_added)
        rc = find_overlaps(db, src_path, ms, err);
    /* committed to the temporary file (a source's read lock ends with its transaction, and
     * only then can it be detached); the target is replaced by tdb_commit only */
    if (!rc && !(rc = tdb__exec(db, "COMMIT", err)))
        db->in_tx = 0;
    if (!rc)
        rc = tdb__exec(db, "DETACH DATABASE src", err);
    if (!rc && tidy)
        tdb__wal_tidy(src_path); /* the -wal and -shm files the read-only attach made */
    if (!rc && !(rc = tdb__exec(db, "BEGIN", err)))
        db->in_tx = 1;
    /* the tables analyze's summary reads get their statistics from PRAGMA optimize
     * (tdb_commit), as analyze's do, and only those: a schema change rolled back reloads the
     * schema, which forgets the tables the merge's own statements asked for (trace, by its
     * import key); then the summary's plans ask (after each source: the last one counts) */
    if (!rc)
        rc = tdb__exec(db, "SAVEPOINT tt_replan; CREATE TABLE main.tt_replan (x);"
                           "ROLLBACK TO tt_replan; RELEASE tt_replan", err);
    if (!rc)
        rc = tdb__summary_plan(db, err);
    /* method_by_name as analyze creates it when it loads a mapping (tdb_method_index) */
    int64_t methods = 0;
    if (!rc)
        rc = query_int(db, "SELECT EXISTS (SELECT 1 FROM main.method)", 0, &methods, err);
    if (!rc && methods)
        rc = tdb_method_index(db, err);
    /* a damaged page found while copying is the source's (the file built aside is ours) */
    int ec = rc ? sqlite3_errcode(db->h) & 0xff : SQLITE_OK;
    if (ec == SQLITE_CORRUPT || ec == SQLITE_NOTADB)
        rc = tt_error_set(err, TT_EFORMAT, src_path, 0, 0, "cannot read the database: %s",
                          sqlite3_errmsg(db->h));
    /* the statements letting the source go must run, also when stopped */
    sqlite3_progress_handler(db->h, 0, NULL, NULL);
    sqlite3_busy_timeout(db->h, 5000);
    if (rc && db->in_tx) {
        /* the merge stops here and its file is removed: the source is let go now, so that
         * the -wal and -shm files its read-only attach made do not outlive the merge */
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        db->in_tx = 0;
        sqlite3_exec(db->h, "DETACH DATABASE src", NULL, NULL, NULL);
        if (tidy)
            tdb__wal_tidy(src_path);
    }
    if (rc)
        tdb_merge_stats_free(ms);
    return rc;
}
