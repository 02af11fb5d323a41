/* Row writers of a trace and what it is read with (storage.md 3.1-3.3): the trace, its
 * inputs, metadata and stats; method mappings and their methods; processes and threads. */
#include "tdb.h"

#include <string.h>

#include "tdb_int.h"

int tdb_trace_find(tdb_db *db, const char *import_key, int64_t *id, tt_error *err)
{
    if (db->rec)
        return tdb__no_reads(err);
    sqlite3_stmt *st =
        tdb__prep(db, ST_TRACE_FIND, "SELECT id FROM trace WHERE import_key = ?", err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, import_key);
    int found, rc = tdb__step_int(db, st, &found, id, err);
    return rc ? rc : found;
}

/* With foreign keys off (tdb_db.fk_off): the rows whose ON DELETE CASCADE parent is gone are
 * deleted, table by table, until none is left (a cascade's fixed point). Each round reads
 * every referring table: this runs only in the import that migrates a schema-3 database. */
static int cascade_by_hand(tdb_db *db, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT m.name, f.\"from\", f.\"table\", COALESCE(f.\"to\", 'rowid') "
                           "FROM sqlite_master m, pragma_foreign_key_list(m.name) f "
                           "WHERE m.type = 'table' AND f.on_delete = 'CASCADE' ORDER BY 1, 2",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "write");
    tt_buf sqls = {0};
    int rc = 0;
    while (!rc && sqlite3_step(st) == SQLITE_ROW) {
        char *q = sqlite3_mprintf("DELETE FROM \"%w\" WHERE \"%w\" IS NOT NULL AND \"%w\" NOT "
                                  "IN (SELECT \"%w\" FROM \"%w\")",
                                  (const char *)sqlite3_column_text(st, 0),
                                  (const char *)sqlite3_column_text(st, 1),
                                  (const char *)sqlite3_column_text(st, 1),
                                  (const char *)sqlite3_column_text(st, 3),
                                  (const char *)sqlite3_column_text(st, 2));
        if (!q || tt_buf_put(&sqls, q, strlen(q) + 1))
            rc = tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
        sqlite3_free(q);
    }
    sqlite3_finalize(st);
    for (int changed = 1; changed && !rc;) {
        changed = 0;
        for (size_t off = 0; off < sqls.len && !rc; off += strlen(sqls.data + off) + 1) {
            rc = tdb__exec(db, sqls.data + off, err);
            changed |= sqlite3_changes(db->h) > 0;
        }
    }
    tt_buf_free(&sqls);
    return rc;
}

int tdb_trace_delete(tdb_db *db, int64_t id, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_TRACE_DELETE, "DELETE FROM trace WHERE id = ?", err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, id);
    int rc = tdb__step_done(db, st, NULL, err);
    return !rc && db->fk_off ? cascade_by_hand(db, err) : rc;
}

int tdb_trace_add(tdb_db *db, const tdb_trace *t, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_CLOCK, t->clock, err))
        return TT_EINVAL;
    sqlite3_stmt *st =
        tdb__prep(db, ST_TRACE_ADD,
                  "INSERT INTO trace (import_key, content_sha256, source_format, "
                  "tool_version, options, clock, start_ts, end_ts, package, "
                  "app_version, mapping_id, imported_unix_ms) VALUES "
                  "(?,?,?,?,?,?,?,?,?,?,?, CAST(strftime('%s','now') AS INTEGER) * 1000)",
                  err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, t->import_key);
    b_text(db, st, 2, t->content_sha256);
    b_text(db, st, 3, t->source_format);
    b_text(db, st, 4, TT_VERSION_STRING);
    b_text(db, st, 5, t->options ? t->options : "{}");
    b_text(db, st, 6, t->clock ? t->clock : "unknown");
    b_int(db, st, 7, t->have_start, t->start_ts);
    b_int(db, st, 8, t->have_end, t->end_ts);
    b_text(db, st, 9, t->package);
    b_text(db, st, 10, t->app_version);
    b_id(db, st, 11, t->mapping_id);
    return tdb__step_done(db, st, id, err);
}

int tdb_input_add(tdb_db *db, int64_t trace_id, int ordinal, const char *path,
                  const char *kind, const char *sha256, uint64_t bytes, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_INPUT_ADD,
                                 "INSERT INTO trace_input (trace_id, ordinal, path, kind, sha256, "
                                 "bytes) VALUES (?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_i64(db, st, 2, ordinal);
    b_text(db, st, 3, path);
    b_text(db, st, 4, kind);
    b_text(db, st, 5, sha256);
    b_i64(db, st, 6, (int64_t)bytes);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_metadata_add(tdb_db *db, int64_t trace_id, const char *name, const int64_t *int_value,
                     const char *str_value, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_META_ADD,
                                 "INSERT OR REPLACE INTO metadata (trace_id, name, int_value, "
                                 "str_value) VALUES (?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_text(db, st, 2, name);
    b_int(db, st, 3, int_value != NULL, int_value ? *int_value : 0);
    b_text(db, st, 4, str_value);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_stat_add(tdb_db *db, int64_t trace_id, const char *name, const int64_t *idx,
                 const char *severity, const char *source, int64_t value,
                 const char *description, tt_error *err)
{
    if (tdb__enum_check(TDB__E_SEVERITY, severity, err) ||
        tdb__enum_check(TDB__E_STAT_SOURCE, source, err))
        return TT_EINVAL;
    sqlite3_stmt *st = tdb__prep(db, ST_STAT_ADD,
                                 "INSERT INTO stats (trace_id, name, idx, severity, source, value, "
                                 "description) VALUES (?,?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_text(db, st, 2, name);
    b_int(db, st, 3, idx != NULL, idx ? *idx : 0);
    b_text(db, st, 4, severity);
    b_text(db, st, 5, source);
    b_i64(db, st, 6, value);
    b_text(db, st, 7, description ? description : "");
    return tdb__step_done(db, st, NULL, err);
}

int tdb_mapping_find(tdb_db *db, const char *sha256, const char *retrace_sha256, int64_t *id,
                     tt_error *err)
{
    if (db->rec)
        return tdb__no_reads(err);
    sqlite3_stmt *st = tdb__prep(db, ST_MAP_FIND,
                                 "SELECT id FROM method_mapping WHERE sha256 = ? AND "
                                 "IFNULL(retrace_sha256, '') = IFNULL(?, '')",
                                 err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, sha256);
    b_text(db, st, 2, retrace_sha256);
    int found, rc = tdb__step_int(db, st, &found, id, err);
    return rc ? rc : found;
}

int tdb_mapping_add(tdb_db *db, const char *sha256, const char *path, int64_t method_count,
                    const char *retrace_sha256, int64_t *id, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_MAP_ADD,
                                 "INSERT INTO method_mapping (sha256, path, method_count, "
                                 "retrace_sha256) VALUES (?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, sha256);
    b_text(db, st, 2, path);
    b_i64(db, st, 3, method_count);
    b_text(db, st, 4, retrace_sha256);
    return tdb__step_done(db, st, id, err);
}

int tdb_method_add(tdb_db *db, int64_t mapping_id, const tt_method *m, const char *name,
                   int64_t *id, tt_error *err)
{
    sqlite3_stmt *st =
        tdb__prep(db, ST_METHOD_ADD,
                  "INSERT INTO method (mapping_id, method_id, access_flags, "
                  "class_name, method_name, descriptor, name) VALUES (?,?,?,?,?,?,?)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, mapping_id);
    b_i64(db, st, 2, m->id);
    b_i64(db, st, 3, m->flags);
    b_text(db, st, 4, m->cls);
    b_text(db, st, 5, m->name);
    b_text(db, st, 6, m->desc);
    b_text(db, st, 7, name);
    return tdb__step_done(db, st, id, err);
}

int tdb_method_each(tdb_db *db, int64_t mapping_id,
                    void (*fn)(void *ctx, uint32_t method_id, int64_t row_id), void *ctx,
                    tt_error *err)
{
    if (db->rec)
        return tdb__no_reads(err);
    sqlite3_stmt *st = tdb__prep(db, ST_METHOD_EACH,
                                 "SELECT method_id, id FROM method WHERE mapping_id = ?", err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, mapping_id);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        fn(ctx, (uint32_t)sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : tdb__sqlerr(db, err, "read");
}

int tdb_process_add(tdb_db *db, int64_t trace_id, const int64_t *pid, const char *name,
                    int64_t *upid, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_PROCESS_ADD,
                                 "INSERT INTO process (trace_id, pid, name) VALUES (?,?,?)", err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_int(db, st, 2, pid != NULL, pid ? *pid : 0);
    b_text(db, st, 3, name);
    return tdb__step_done(db, st, upid, err);
}

int tdb_thread_add(tdb_db *db, int64_t trace_id, int64_t upid, const int64_t *tid,
                   const char *name, int is_main, int64_t *utid, tt_error *err)
{
    return tdb_thread_add_args(db, trace_id, upid, tid, name, is_main, 0, utid, err);
}

int tdb_thread_add_args(tdb_db *db, int64_t trace_id, int64_t upid, const int64_t *tid,
                        const char *name, int is_main, int64_t arg_set_id, int64_t *utid,
                        tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_THREAD_ADD,
                                 "INSERT INTO thread (trace_id, upid, tid, name, is_main_thread, "
                                 "arg_set_id) VALUES (?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_id(db, st, 2, upid);
    b_int(db, st, 3, tid != NULL, tid ? *tid : 0);
    b_text(db, st, 4, name);
    b_i64(db, st, 5, is_main ? 1 : 0);
    b_id(db, st, 6, arg_set_id);
    return tdb__step_done(db, st, utid, err);
}
