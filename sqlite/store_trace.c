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

/* Deleting a trace deletes the rows ON DELETE CASCADE would, found from the schema: the
 * tables a cascade reaches from trace, each with a WHERE clause naming the rows of trace ?1
 * (a direct child by its trace_id, a grandchild by its parent's rows of the trace). They are
 * deleted child-first with foreign keys off: SQLite's own cascade, and the check of every
 * other reference to a deleted row, would read each referring table without an index on the
 * reference (sample.callsite_id, slice.frame_id, ...) once per deleted row, so that replacing
 * a trace took time in its rows times the database's. A trace's rows refer only to rows of
 * the same trace (all deleted) or to shared ones (module, method, method_mapping: kept), so
 * the checks have nothing to find. */
enum { DEL_TABLES = 64, DEL_EDGES = 128 };

typedef struct del_plan {
    int n, nedge;
    char *table[DEL_TABLES], *pred[DEL_TABLES]; /* trace first, each child after its parents */
    char *child[DEL_EDGES], *from[DEL_EDGES], *parent[DEL_EDGES], *to[DEL_EDGES];
} del_plan;

static void del_plan_free(del_plan *p)
{
    for (int i = 0; i < p->n; i++) {
        sqlite3_free(p->table[i]);
        sqlite3_free(p->pred[i]);
    }
    for (int i = 0; i < p->nedge; i++) {
        sqlite3_free(p->child[i]);
        sqlite3_free(p->from[i]);
        sqlite3_free(p->parent[i]);
        sqlite3_free(p->to[i]);
    }
}

static int del_placed(const del_plan *p, const char *table)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->table[i], table))
            return i;
    return -1;
}

/* The WHERE clause of table: its cascade references to the tables placed so far, joined by
 * OR; NULL when out of memory. */
static char *del_pred(const del_plan *p, const char *table)
{
    char *pred = NULL;
    for (int e = 0; e < p->nedge; e++) {
        int par = strcmp(p->child[e], table) ? -1 : del_placed(p, p->parent[e]);
        if (par < 0)
            continue;
        char *one = par == 0 && !strcmp(p->to[e], "id")
                        ? sqlite3_mprintf("\"%w\" = ?1", p->from[e])
                        : sqlite3_mprintf("\"%w\" IN (SELECT \"%w\" FROM \"%w\" WHERE %s)",
                                          p->from[e], p->to[e], p->parent[e], p->pred[par]);
        char *both = one && pred ? sqlite3_mprintf("%s OR %s", pred, one) : NULL;
        if (pred) {
            sqlite3_free(one);
            one = both;
        }
        sqlite3_free(pred);
        if (!(pred = one))
            return NULL;
    }
    return pred;
}

static int del_plan_make(tdb_db *db, del_plan *p, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT m.name, f.\"from\", f.\"table\", COALESCE(f.\"to\", 'rowid') "
                           "FROM sqlite_master m, pragma_foreign_key_list(m.name) f "
                           "WHERE m.type = 'table' AND f.on_delete = 'CASCADE' ORDER BY 1, 2",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "write");
    int rc = 0, src;
    while (!rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
        if (p->nedge == DEL_EDGES)
            break;
        int e = p->nedge++;
        p->child[e] = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
        p->from[e] = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 1));
        p->parent[e] = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 2));
        p->to[e] = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 3));
        if (!p->child[e] || !p->from[e] || !p->parent[e] || !p->to[e])
            rc = tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    }
    if (!rc && src != SQLITE_DONE)
        rc = p->nedge == DEL_EDGES
                 ? tt_error_set(err, TT_EIO, db->path, 0, 0, "too many foreign keys")
                 : tdb__sqlerr(db, err, "write");
    sqlite3_finalize(st);
    p->table[0] = sqlite3_mprintf("trace");
    p->pred[0] = sqlite3_mprintf("\"id\" = ?1");
    p->n = 1;
    if (!rc && (!p->table[0] || !p->pred[0]))
        rc = tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    /* breadth first: a table is placed when a placed table reaches it */
    for (int i = 0; i < p->n && !rc; i++)
        for (int e = 0; e < p->nedge && !rc; e++) {
            if (strcmp(p->parent[e], p->table[i]))
                continue;
            int j = del_placed(p, p->child[e]);
            if (j >= 0) {
                /* its WHERE clause has the tables placed before it: a way in from a later
                 * one (a cycle) would need a fixed point, which the schema does not need */
                if (j <= i)
                    rc = tt_error_set(err, TT_EIO, db->path, 0, 0,
                                      "cannot delete a trace: cascade %s.%s -> %s reached late",
                                      p->child[e], p->from[e], p->parent[e]);
                continue;
            }
            if (p->n == DEL_TABLES) {
                rc = tt_error_set(err, TT_EIO, db->path, 0, 0, "too many tables");
                break;
            }
            p->table[p->n] = sqlite3_mprintf("%s", p->child[e]);
            p->pred[p->n] = p->table[p->n] ? del_pred(p, p->child[e]) : NULL;
            if (!p->table[p->n] || !p->pred[p->n]) {
                sqlite3_free(p->table[p->n]);
                rc = tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
            } else {
                p->n++;
            }
        }
    return rc;
}

/* One statement of a delete, ?1 bound to the trace id when it has parameters. */
static int del_exec(tdb_db *db, char *sql, int64_t id, tt_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (!sql)
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        rc = tdb__sqlerr(db, err, "write");
    sqlite3_free(sql);
    if (st) {
        if (sqlite3_bind_parameter_count(st))
            sqlite3_bind_int64(st, 1, id);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = tdb__sqlerr(db, err, "write");
        sqlite3_finalize(st);
    }
    return rc;
}

/* The args rows of a deleted trace (storage.md 3.7): args has no trace id; an arg set
 * belongs to the rows whose arg_set_id column (every table's column of that name) names it.
 * The sets the trace's rows name are gathered in temp.tdb_del_args before the rows go
 * (owner[0..nowner): the tables with the column); after, the sets some remaining row still
 * names are taken out of it (one pass over each owner table, only when the trace had
 * args), and the args rows of the others deleted by their primary key. */
int tdb__args_owners(tdb_db *db, char **owner, int *nowner, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT m.name FROM main.sqlite_master m, pragma_table_info(m.name) c "
                           "WHERE m.type = 'table' AND m.name <> 'args' AND "
                           "c.name = 'arg_set_id' ORDER BY 1",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "write");
    int rc = 0, src;
    while (!rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
        if (*nowner == TDB__ARG_OWNERS) {
            rc = tt_error_set(err, TT_EIO, db->path, 0, 0, "too many arg_set_id columns");
            break;
        }
        if (!(owner[*nowner] = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0))))
            rc = tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
        else
            ++*nowner;
    }
    if (!rc && src != SQLITE_DONE)
        rc = tdb__sqlerr(db, err, "write");
    sqlite3_finalize(st);
    return rc;
}

static int del_args_gather(tdb_db *db, const del_plan *p, char **owner, int nowner, int64_t id,
                           tt_error *err)
{
    int rc = del_exec(db,
                      sqlite3_mprintf("CREATE TEMP TABLE IF NOT EXISTS tdb_del_args "
                                      "(id INTEGER PRIMARY KEY)"),
                      id, err);
    if (!rc) /* left by a delete that failed half way */
        rc = del_exec(db, sqlite3_mprintf("DELETE FROM temp.tdb_del_args"), id, err);
    for (int i = 0; i < nowner && !rc; i++) {
        int j = del_placed(p, owner[i]);
        if (j >= 0)
            rc = del_exec(db,
                          sqlite3_mprintf("INSERT OR IGNORE INTO temp.tdb_del_args (id) "
                                          "SELECT arg_set_id FROM \"%w\" WHERE arg_set_id IS "
                                          "NOT NULL AND (%s)",
                                          owner[i], p->pred[j]),
                          id, err);
    }
    return rc;
}

int tdb__args_prune(tdb_db *db, const char *gone, char **owner, int nowner, tt_error *err)
{
    char *q = sqlite3_mprintf("SELECT EXISTS (SELECT 1 FROM temp.%s)", gone);
    sqlite3_stmt *st = NULL;
    if (!q)
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    int r = sqlite3_prepare_v2(db->h, q, -1, &st, NULL);
    sqlite3_free(q);
    if (r != SQLITE_OK)
        return tdb__sqlerr(db, err, "write");
    /* a failed step is an error, not "no sets": their rows would stay without an owner */
    int rc = 0;
    if (sqlite3_step(st) != SQLITE_ROW)
        rc = tdb__sqlerr(db, err, "write");
    int any = !rc && sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (rc || !any)
        return rc;
    for (int i = 0; i < nowner && !rc; i++)
        rc = del_exec(db,
                      sqlite3_mprintf("DELETE FROM temp.\"%w\" WHERE id IN (SELECT "
                                      "arg_set_id FROM main.\"%w\" WHERE arg_set_id IS NOT NULL)",
                                      gone, owner[i]),
                      0, err);
    if (!rc)
        rc = del_exec(db,
                      sqlite3_mprintf("DELETE FROM main.args WHERE arg_set_id IN "
                                      "(SELECT id FROM temp.\"%w\")",
                                      gone),
                      0, err);
    if (!rc)
        rc = del_exec(db, sqlite3_mprintf("DELETE FROM temp.\"%w\"", gone), 0, err);
    return rc;
}

/* The sets whose owning row a user's statement deletes, or points elsewhere (tdb_exec_user
 * with --write): watch makes temporary triggers of this connection only, the file's schema
 * is not changed (a database of any version gets them), that collect them; else the args
 * rows of those no row names any more are deleted. */
int tdb__args_gone(tdb_db *db, int watch, tt_error *err)
{
    char *owner[TDB__ARG_OWNERS];
    int nowner = 0;
    int rc = tdb__args_owners(db, owner, &nowner, err);
    if (!rc && !watch)
        rc = tdb__args_prune(db, "tdb_gone_args", owner, nowner, err);
    if (!rc && watch)
        rc = del_exec(db,
                      sqlite3_mprintf("CREATE TEMP TABLE IF NOT EXISTS tdb_gone_args "
                                      "(id INTEGER PRIMARY KEY)"),
                      0, err);
    for (int i = 0; i < nowner && !rc && watch; i++) {
        rc = del_exec(db,
                      sqlite3_mprintf("CREATE TEMP TRIGGER IF NOT EXISTS \"tdb_gone_%w\" "
                                      "AFTER DELETE ON main.\"%w\" WHEN old.arg_set_id IS NOT "
                                      "NULL BEGIN INSERT OR IGNORE INTO tdb_gone_args (id) "
                                      "VALUES (old.arg_set_id); END",
                                      owner[i], owner[i]),
                      0, err);
        if (!rc)
            rc = del_exec(db,
                          sqlite3_mprintf("CREATE TEMP TRIGGER IF NOT EXISTS \"tdb_moved_%w\" "
                                          "AFTER UPDATE OF arg_set_id ON main.\"%w\" WHEN "
                                          "old.arg_set_id IS NOT NULL AND old.arg_set_id IS NOT "
                                          "new.arg_set_id BEGIN INSERT OR IGNORE INTO "
                                          "tdb_gone_args (id) VALUES (old.arg_set_id); END",
                                          owner[i], owner[i]),
                          0, err);
    }
    for (int i = 0; i < nowner; i++)
        sqlite3_free(owner[i]);
    return rc;
}

int tdb_trace_delete(tdb_db *db, int64_t id, tt_error *err)
{
    if (db->rec)
        return tdb__no_reads(err);
    del_plan p = {0};
    char *owner[TDB__ARG_OWNERS];
    int nowner = 0;
    int rc = del_plan_make(db, &p, err);
    if (!rc)
        rc = tdb__args_owners(db, owner, &nowner, err);
    if (!rc)
        rc = del_args_gather(db, &p, owner, nowner, id, err);
    /* PRAGMA foreign_keys cannot change inside a transaction; the connection's setting can
     * (no statement of ours runs, and no constraint is deferred, so no count is pending) */
    if (!rc && !db->fk_off && sqlite3_db_config(db->h, SQLITE_DBCONFIG_ENABLE_FKEY, 0, NULL))
        rc = tdb__sqlerr(db, err, "write");
    for (int i = p.n - 1; i >= 0 && !rc; i--)
        rc = del_exec(db, sqlite3_mprintf("DELETE FROM \"%w\" WHERE %s", p.table[i], p.pred[i]),
                      id, err);
    if (!db->fk_off && sqlite3_db_config(db->h, SQLITE_DBCONFIG_ENABLE_FKEY, 1, NULL) && !rc)
        rc = tdb__sqlerr(db, err, "write");
    if (!rc)
        rc = tdb__args_prune(db, "tdb_del_args", owner, nowner, err);
    if (!rc)
        rc = del_exec(db, sqlite3_mprintf("DROP TABLE temp.tdb_del_args"), 0, err);
    for (int i = 0; i < nowner; i++)
        sqlite3_free(owner[i]);
    del_plan_free(&p);
    return rc;
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
                                 "SELECT id FROM method_mapping WHERE sha256 = ?1 AND "
                                 "retrace_sha256 IS ?2",
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

int tdb_ignored_method_add(tdb_db *db, int64_t mapping_id, const tt_method *m, const char *name,
                           tt_error *err)
{
    sqlite3_stmt *st =
        tdb__prep(db, ST_IGNORED_ADD,
                  "INSERT INTO ignored_method (mapping_id, class_name, method_name, "
                  "descriptor, name) SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (SELECT 1 "
                  "FROM ignored_method WHERE mapping_id = ?1 AND class_name = ?2 AND "
                  "method_name = ?3 AND descriptor IS ?4)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, mapping_id);
    b_text(db, st, 2, m->cls);
    b_text(db, st, 3, m->name);
    b_text(db, st, 4, m->desc);
    b_text(db, st, 5, name);
    return tdb__step_done(db, st, NULL, err);
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
    return tdb_thread_add_args(db, trace_id, upid, tid, name, is_main, 0, 0, utid, err);
}

int tdb_thread_add_args(tdb_db *db, int64_t trace_id, int64_t upid, const int64_t *tid,
                        const char *name, int is_main, int tid_bits, int64_t arg_set_id,
                        int64_t *utid, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_THREAD_ADD,
                                 "INSERT INTO thread (trace_id, upid, tid, name, is_main_thread, "
                                 "arg_set_id, tid_bits) VALUES (?,?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_id(db, st, 2, upid);
    b_int(db, st, 3, tid != NULL, tid ? *tid : 0);
    b_text(db, st, 4, name);
    b_i64(db, st, 5, is_main ? 1 : 0);
    b_id(db, st, 6, arg_set_id);
    b_i64(db, st, 7, tid_bits > 0 ? tid_bits : 32);
    return tdb__step_done(db, st, utid, err);
}
