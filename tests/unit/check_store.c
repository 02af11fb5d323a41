/* The SQLite store (storage.md 5 and 6): atomic build-aside writes, append, idempotence keys,
 * header checks, read-only queries, detection of input kinds and content hashes. */
#include "unit.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../sqlite/tdb.h"
#include "../../sqlite/tdb_int.h"
#include "sql_blobs.h"

static char dir[64];
static char path[128];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tt-store-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.db", dir);
}

static void teardown(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static int64_t add_trace(tdb_db *db, const char *key)
{
    tdb_trace t = {.import_key = key, .content_sha256 = "c", .source_format = "matrix_beat",
                   .clock = "relative"};
    int64_t id;
    tt_error err;
    ck_assert_int_eq(tdb_trace_add(db, &t, &id, &err), 0);
    return id;
}

typedef struct rows {
    int n;
    char first[256];
} rows;

static int count_rows(void *ctx, int ev, int ncol, const char *const *names, const tdb_value *v)
{
    (void)names;
    rows *r = ctx;
    if (ev == TDB_EV_ROW) {
        if (!r->n && ncol && v[0].type == TDB_TEXT)
            snprintf(r->first, sizeof r->first, "%s", v[0].s);
        else if (!r->n && ncol && v[0].type == TDB_INT)
            snprintf(r->first, sizeof r->first, "%lld", (long long)v[0].i);
        r->n++;
    }
    return 0;
}

static rows query(const char *sql)
{
    tdb_db *db;
    int newer;
    tt_error err = {0};
    ck_assert_msg(tdb_open_read(&db, path, 0, &newer, &err) == 0, "%s", err.msg);
    rows r = {0};
    ck_assert_msg(tdb_exec_user(db, sql, count_rows, &r, &err) == 0, "%s", err.msg);
    tdb_close(db);
    return r;
}

START_TEST(build_aside_and_rename)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    ck_assert_ptr_nonnull(tdb_tmp_path(db));
    struct stat sb;
    ck_assert_int_ne(stat(path, &sb), 0); /* nothing at the target before the commit */
    ck_assert_int_eq(stat(tdb_tmp_path(db), &sb), 0);
    add_trace(db, "k1");
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_str_eq(query("PRAGMA application_id").first, "1414808642");
    ck_assert_str_eq(query("PRAGMA user_version").first, "6");
    ck_assert_str_eq(query("PRAGMA journal_mode").first, "wal");
    ck_assert_int_eq(query("select * from trace").n, 1);
}
END_TEST

START_TEST(close_without_commit_leaves_nothing)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", tdb_tmp_path(db));
    add_trace(db, "k1");
    tdb_close(db);
    struct stat sb;
    ck_assert_int_ne(stat(path, &sb), 0);
    ck_assert_int_ne(stat(tmp, &sb), 0);
}
END_TEST

/* analyze --append guards -wal/-shm on SIGINT only when the log held nothing once its write
 * transaction began: another connection's committed frames there are never its to remove */
START_TEST(append_wal_empty)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    ck_assert_int_eq(tdb_wal_empty(db), 0); /* built aside */
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    sqlite3 *f;
    ck_assert_int_eq(sqlite3_open(path, &f), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(f, "PRAGMA journal_mode=WAL; CREATE TABLE other(x);", NULL,
                                  NULL, NULL),
                     SQLITE_OK); /* committed, in the log while f stays open */
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    ck_assert_int_eq(tdb_wal_empty(db), 0);
    tdb_close(db);
    sqlite3_close(f); /* the last connection: checkpointed, the log removed */
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    ck_assert_int_eq(tdb_wal_empty(db), 1);
    tdb_close(db);
}
END_TEST

START_TEST(append_and_find)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0); /* missing: created */
    int64_t id1 = add_trace(db, "k1");
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    ck_assert_ptr_null(tdb_tmp_path(db));
    int64_t found = 0;
    ck_assert_int_eq(tdb_trace_find(db, "k1", &found, &err), 1);
    ck_assert_int_eq(found, id1);
    ck_assert_int_eq(tdb_trace_find(db, "k2", &found, &err), 0);
    add_trace(db, "k2");
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(query("select * from trace").n, 2);
    /* an uncommitted append changes nothing */
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    add_trace(db, "k3");
    tdb_close(db);
    ck_assert_int_eq(query("select * from trace").n, 2);
    /* a duplicate import key is refused by the schema */
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    tdb_trace t = {.import_key = "k1", .content_sha256 = "c", .source_format = "x"};
    int64_t id;
    ck_assert_int_ne(tdb_trace_add(db, &t, &id, &err), 0);
    tdb_close(db);
}
END_TEST

START_TEST(delete_cascades)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    int64_t t = add_trace(db, "k1");
    ck_assert_int_eq(tdb_stat_add(db, t, "x", NULL, "info", "trace", 3, "d", &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    ck_assert_int_eq(tdb_trace_delete(db, t, &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(query("select * from stats").n, 0);
}
END_TEST

/* Trace t with k stack frames, callsites, samples, slices (each with an arg set of one
 * args row), wakeups and call nodes, one thread, and a startup with a segment (call_node
 * and startup_segment are a cascade's grandchildren), written by SQL. */
static void fill_trace(tdb_db *db, int t, int k)
{
    char sql[4096];
    snprintf(sql, sizeof sql,
             "INSERT INTO trace (id, import_key, content_sha256, source_format, tool_version, "
             "options, clock, imported_unix_ms) VALUES (%d, 'k%d', 'c', 'perf_script', 'v', "
             "'{}', 'relative', 0);"
             "INSERT INTO thread (trace_id, tid) VALUES (%d, 1);"
             "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d) "
             "INSERT INTO stack_frame (trace_id, name, kind) SELECT %d, 'f' || i, 'native' "
             "FROM n;"
             "INSERT INTO callsite (trace_id, depth, frame_id) SELECT %d, 0, id FROM "
             "stack_frame WHERE trace_id = %d;"
             "INSERT INTO sample (trace_id, utid, ts, callsite_id) SELECT %d, (SELECT utid "
             "FROM thread WHERE trace_id = %d), id, id FROM callsite WHERE trace_id = %d;"
             "INSERT INTO slice (trace_id, utid, ts, dur, depth, name, category, frame_id, "
             "callsite_id, end_kind, self_dur) SELECT trace_id, utid, ts, 1, 0, 's', "
             "'sampled', callsite_id, callsite_id, 'exact', 1 FROM sample WHERE trace_id = %d;"
             "INSERT INTO wakeup (trace_id, wakee_slice_id, waker_utid, waker_ts, kind) "
             "SELECT trace_id, id, utid, ts, 'unpark' FROM slice WHERE trace_id = %d;"
             "INSERT INTO call_tree (trace_id, kind) VALUES (%d, 'sample_profile');"
             "INSERT INTO call_node (tree_id, depth, ordinal, name, callsite_id, count) "
             "SELECT (SELECT MAX(id) FROM call_tree), 0, id, 'n', id, 1 FROM callsite "
             "WHERE trace_id = %d;"
             "INSERT INTO startup (trace_id, kind, source) VALUES (%d, 'cold', 'events');"
             "INSERT INTO startup_segment (startup_id, ordinal, name, from_event, to_event, "
             "dur) VALUES ((SELECT MAX(id) FROM startup), 0, 'a', 'x', 'y', 1);"
             "UPDATE slice SET arg_set_id = id WHERE trace_id = %d;"
             "INSERT INTO args (arg_set_id, key, value_type, int_value) SELECT arg_set_id, "
             "'unwound', 'int', 1 FROM slice WHERE trace_id = %d;",
             t, t, t, k, t, t, t, t, t, t, t, t, t, t, t, t, t);
    ck_assert_int_eq(sqlite3_exec(db->h, sql, NULL, NULL, NULL), SQLITE_OK);
}

static int count_op(void *ctx)
{
    ++*(long *)ctx;
    return 0;
}

/* SQLite VM instructions of deleting trace 1 (n rows of each kind) beside trace 2 (m rows),
 * appended with foreign keys on; checks that exactly trace 2's rows are left, that the
 * foreign keys hold and that they are enforced again after the delete. */
static long delete_ops(int n, int m)
{
    tdb_db *db;
    tt_error err = {0};
    unlink(path);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    fill_trace(db, 1, n);
    fill_trace(db, 2, m);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    long ops = 0;
    sqlite3_progress_handler(db->h, 1, count_op, &ops);
    ck_assert_int_eq(tdb_trace_delete(db, 1, &err), 0);
    sqlite3_progress_handler(db->h, 0, NULL, NULL);
    static const char *const left[] = {
        "SELECT COUNT(*) FROM trace WHERE id = 2", "SELECT COUNT(*) FROM thread",
        "SELECT COUNT(*) FROM call_tree", "SELECT COUNT(*) FROM startup",
        "SELECT COUNT(*) FROM startup_segment", "SELECT COUNT(*) / ?1 FROM stack_frame",
        "SELECT COUNT(*) / ?1 FROM callsite", "SELECT COUNT(*) / ?1 FROM sample",
        "SELECT COUNT(*) / ?1 FROM slice", "SELECT COUNT(*) / ?1 FROM wakeup",
        "SELECT COUNT(*) / ?1 FROM args", ("SELECT COUNT(*) = 0 FROM args WHERE arg_set_id "
         "NOT IN (SELECT arg_set_id FROM slice WHERE trace_id = 2)"),
        "SELECT COUNT(*) / ?1 FROM call_node", "SELECT COUNT(*) = 0 FROM trace WHERE id = 1",
        "SELECT COUNT(*) = 0 FROM pragma_foreign_key_check",
    };
    for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
        sqlite3_stmt *st;
        ck_assert_int_eq(sqlite3_prepare_v2(db->h, left[i], -1, &st, NULL), SQLITE_OK);
        if (sqlite3_bind_parameter_count(st))
            sqlite3_bind_int(st, 1, m);
        ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
        ck_assert_msg(sqlite3_column_int(st, 0) == 1, "%s", left[i]);
        sqlite3_finalize(st);
    }
    ck_assert_int_ne(sqlite3_exec(db->h,
                                  "INSERT INTO sample (trace_id, utid, callsite_id) VALUES "
                                  "(2, (SELECT utid FROM thread), 1000000)",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    tdb_close(db);
    return ops;
}

/* Deleting a trace reads the other traces' rows at most a few times (one pass over a table
 * without a trace index), not once per deleted row: the foreign key checks of SQLite's
 * cascade read sample, slice and call_node once per deleted callsite. */
START_TEST(delete_linear)
{
    long small = delete_ops(300, 300), big = delete_ops(300, 3000);
    ck_assert_msg(big - small < 100L * 2700, "%ld VM instructions per row of another trace",
                  (big - small) / 2700);
}
END_TEST

/* The args of a deleted trace's rows go (args has no trace id), those of the other trace
 * stay, and so does a set that a row of the other trace names too. */
START_TEST(delete_args)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    fill_trace(db, 1, 5);
    fill_trace(db, 2, 7);
    ck_assert_int_eq(sqlite3_exec(db->h,
                                  "INSERT INTO args (arg_set_id, key, value_type, string_value) "
                                  "VALUES (100, 'shared', 'string', 'x'), (101, 'own', 'string', "
                                  "'y'), (102, 'node', 'string', 'z');"
                                  "UPDATE thread SET arg_set_id = 100;"
                                  "UPDATE call_node SET arg_set_id = 101 WHERE tree_id = "
                                  "(SELECT id FROM call_tree WHERE trace_id = 1);"
                                  "UPDATE call_node SET arg_set_id = 102 WHERE tree_id = "
                                  "(SELECT id FROM call_tree WHERE trace_id = 2);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(query("select * from args").n, 5 + 7 + 3);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    ck_assert_int_eq(tdb_trace_delete(db, 1, &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(query("select * from args").n, 7 + 2);
    ck_assert_int_eq(query("select * from args where key in ('shared', 'node')").n, 2);
    ck_assert_int_eq(query("select * from args a join slice s using (arg_set_id) "
                           "where s.trace_id = 2").n, 7);
    /* deleting the last owner of a set deletes it; another delete starts afresh */
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    ck_assert_int_eq(tdb_trace_delete(db, 2, &err), 0);
    ck_assert_int_eq(tdb_trace_delete(db, 2, &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(query("select * from args").n, 0);
}
END_TEST

/* sqlite3_interrupt at the start of the statement whose text is ud */
static int interrupt_at(unsigned type, void *ud, void *p, void *x)
{
    (void)type;
    const char *sql = sqlite3_sql(p);
    if (sql && x && strstr(sql, ud))
        sqlite3_interrupt(sqlite3_db_handle(p));
    return 0;
}

START_TEST(delete_args_step_error)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    fill_trace(db, 1, 5);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    /* the step that asks whether any set was gathered fails: an error, not "none" */
    sqlite3_trace_v2(db->h, SQLITE_TRACE_STMT, interrupt_at,
                     (void *)"SELECT EXISTS (SELECT 1 FROM temp.tdb_del_args)");
    ck_assert_int_ne(tdb_trace_delete(db, 1, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "interrupt"));
    tdb_close(db);
    ck_assert_int_eq(query("select * from args").n, 5);
}
END_TEST

/* A PID that is no process: a child that has exited and been reaped. */
/* A run whose PID looks dead from the sweeper (another PID namespace, a reused PID) keeps its
 * temporary: it holds a lock on it that the sweep must take; a symbolic link of that form and
 * a file of an "-o DIR/" are not swept either. */
START_TEST(stale_sweep_spares_held)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    char other[256], link[256], victim[256], slash[256], bare[256];
    long dead = unit_dead_pid();
    snprintf(other, sizeof other, "%s.tmp-%ld", path, dead);
    ck_assert_int_eq(rename(tdb_tmp_path(db), other), 0); /* as another namespace names it */
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(link, sizeof link, "%s/u.db.tmp-%ld", dir, dead);
    FILE *f = fopen(victim, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(symlink(victim, link), 0);
    snprintf(bare, sizeof bare, "%s/.tmp-%ld", dir, dead);
    ck_assert_ptr_nonnull(f = fopen(bare, "w"));
    fclose(f);
    tt_remove_stale_tmp(path);
    snprintf(slash, sizeof slash, "%s/u.db", dir);
    tt_remove_stale_tmp(slash);
    snprintf(slash, sizeof slash, "%s/", dir);
    tt_remove_stale_tmp(slash);
    struct stat sb;
    ck_assert_int_eq(stat(other, &sb), 0);
    ck_assert_int_eq(lstat(link, &sb), 0);
    ck_assert_int_eq(stat(bare, &sb), 0);
    ck_assert_int_eq(rename(other, tdb_tmp_path(db)), 0);
    tdb_close(db);
    /* nobody holds it any more: swept */
    ck_assert_ptr_nonnull(f = fopen(other, "w"));
    fclose(f);
    tt_remove_stale_tmp(path);
    ck_assert_int_ne(stat(other, &sb), 0);
}
END_TEST

START_TEST(refuses_foreign_and_newer)
{
    FILE *f = fopen(path, "w");
    fputs("not a database at all, just text that is long enough to be a header......", f);
    fclose(f);
    tdb_db *db;
    tt_error err = {0};
    int newer;
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), TT_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a tracetool database"));
    ck_assert_int_ne(tdb_open_read(&db, path, 0, &newer, &err), 0);
    /* a tracetool database from the future */
    unlink(path);
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_read(&db, path, 1, &newer, &err), 0);
    ck_assert_int_eq(tdb_exec_user(db, "PRAGMA user_version = 7", count_rows, &(rows){0}, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), TT_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "newer"));
    ck_assert_int_eq(tdb_open_read(&db, path, 0, &newer, &err), 0);
    ck_assert_int_eq(newer, 1);
    tdb_close(db);
}
END_TEST

/* A database holding one trace, opened read-only. */
static tdb_db *one_trace_read_only(void)
{
    tdb_db *db;
    tt_error err = {0};
    int newer;
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    add_trace(db, "k1");
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_read(&db, path, 0, &newer, &err), 0);
    return db;
}

START_TEST(read_only_and_statement_errors)
{
    tt_error err = {0};
    tdb_db *db = one_trace_read_only();
    rows r = {0};
    ck_assert_int_ne(tdb_exec_user(db, "delete from trace", count_rows, &r, &err), 0);
    ck_assert_int_ne(tdb_exec_user(db, "create temp table x(a)", count_rows, &r, &err), 0);
    ck_assert_int_ne(tdb_exec_user(db, "select 1; select nope from trace", count_rows, &r, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(err.msg, "statement 2"));
    ck_assert_int_eq(r.n, 1);
    r.n = 0;
    ck_assert_int_eq(tdb_exec_user(db, "-- comment only\n select 1; ; select 2;", count_rows, &r,
                                   &err),
                     0);
    ck_assert_int_eq(r.n, 2);
    tdb_close(db);
    ck_assert_int_eq(query("select count(*) from trace").n, 1);
}
END_TEST

/* Read-only means no file is created: statements that would write are refused before they
 * run (VACUUM INTO creates its file first), query_only cannot be switched off, ATTACH cannot
 * create a database, and a pipe is refused before SQLite opens it. */
START_TEST(read_only_creates_nothing)
{
    tt_error err = {0};
    int newer;
    tdb_db *db = one_trace_read_only();
    char out[192], sql[256];
    struct stat sb;
    rows r = {0};
    snprintf(out, sizeof out, "%s/vacuumed.db", dir);
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", out);
    ck_assert_int_ne(tdb_exec_user(db, sql, count_rows, &r, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "read-only"));
    ck_assert_int_ne(stat(out, &sb), 0);
    snprintf(sql, sizeof sql, "ATTACH '%s' AS x", out);
    ck_assert_int_ne(tdb_exec_user(db, sql, count_rows, &r, &err), 0);
    snprintf(sql, sizeof sql, "ATTACH 'file:%s?mode=rwc' AS x", out);
    ck_assert_int_ne(tdb_exec_user(db, sql, count_rows, &r, &err), 0);
    ck_assert_int_ne(stat(out, &sb), 0);
    ck_assert_int_ne(tdb_exec_user(db, "PRAGMA query_only = 0", count_rows, &r, &err), 0);
    ck_assert_int_ne(tdb_exec_user(db, "PRAGMA user_version = 9", count_rows, &r, &err), 0);
    /* reading pragmas and pragma functions still work */
    ck_assert_int_eq(tdb_exec_user(db, "PRAGMA user_version; PRAGMA table_info(trace); "
                                       "PRAGMA journal_mode",
                                   count_rows, &r, &err),
                     0);
    tdb_close(db);
    ck_assert_str_eq(query("PRAGMA user_version").first, "6");
    char fifo[192];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(tdb_open_read(&db, fifo, 0, &newer, &err), TT_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "pipe"));
}
END_TEST

START_TEST(views_parse)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    static const char *const views[] = {"top_self_methods", "issues_by_stack_key",
                                        "worst_scenes", "thread_sample_summary", "slice_ms",
                                        "top_stack_methods", "evil_methods", "slow_startups"};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "select * from %s", views[i]);
        ck_assert_int_eq(query(sql).n, 0);
    }
    ck_assert_int_eq(query("PRAGMA foreign_key_check").n, 0);
}
END_TEST

/* call_node.is_recursive: a name already on the path (directly or through other nodes) is
 * nested; a sibling subtree, a new root and a parent not on the path start over. */
START_TEST(node_path_nesting)
{
    static const struct {
        int64_t id, parent; /* parent 0: a root */
        const char *name;
        int nested;
    } n[] = {{1, 0, "main", 0}, {2, 1, "work", 0}, {3, 2, "slow", 0}, {4, 3, "work", 1},
             {5, 4, "work", 1}, {6, 1, "work", 0}, {7, 6, NULL, 0}, {8, 7, "work", 1},
             {9, 0, "work", 0}, {10, 2, "work", 0}, {11, 10, "work", 1}};
    tdb__npath p = {0};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        int nested = -1;
        ck_assert_int_eq(tdb__npath_add(&p, n[i].id, n[i].parent != 0, n[i].parent, n[i].name,
                                        n[i].name ? strlen(n[i].name) : 0, &nested),
                         0);
        ck_assert_msg(nested == n[i].nested, "node %lld: nested %d", (long long)n[i].id, nested);
    }
    tdb__npath_free(&p);
    tdb__npath_free(&p); /* an emptied path can be freed again */
}
END_TEST

START_TEST(content_hash)
{
    char hex[65];
    ck_assert_int_eq(tt_sha256_buf(hex, "abc", 3), 0);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /* hashing an input covers what was peeked, read and left unread */
    tt_input *in = unit_mem("m", "abc", 3);
    const unsigned char *p;
    size_t n;
    tt_error err;
    ck_assert_int_eq(tt_input_peek(in, &p, &n, 2, &err), 0);
    ck_assert_int_eq(tt_input_hash_begin(in, &err), 0);
    char c;
    size_t got;
    ck_assert_int_eq(tt_input_read(in, &c, 1, &got, &err), 0);
    uint64_t bytes;
    ck_assert_int_eq(tt_input_hash_end(in, hex, &bytes, &err), 0);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    ck_assert_uint_eq(bytes, 3);
    tt_input_close(in);
    /* too late once something was consumed */
    in = unit_mem("m", "abc", 3);
    ck_assert_int_eq(tt_input_read(in, &c, 1, &got, &err), 0);
    ck_assert_int_ne(tt_input_hash_begin(in, &err), 0);
    tt_input_close(in);
}
END_TEST

START_TEST(detection)
{
    static const struct {
        const char *text;
        size_t n;
        tt_kind kind;
    } cases[] = {
        {"1,1,com.a.B c ()V\n", 0, TT_KIND_MAPPING},
        {"ignore methods:\ncom.a.B c\n", 0, TT_KIND_IGNORE},
        {"# comment\n-9223363240761752600\n0x7ffff000000009ec\n0x00003800000009ec\n", 0,
         TT_KIND_BEAT},
        {"1\n2\n3\n", 0, TT_KIND_UNKNOWN}, /* small numbers: method id 0 */
        /* launches and startup events need their shape, not just the words */
        {"Traces. Displayed (with total, for user), Fully drawn and TotalTime: lines\n", 0,
         TT_KIND_UNKNOWN},
        {"11-23 09:14:03.402  1402  1460 I ActivityTaskManager: Displayed com.ex/.Main: +612ms\n",
         0, TT_KIND_LAUNCHES},
        {"Status: ok\nTotalTime: 612\n", 0, TT_KIND_LAUNCHES},
        {"{\"kind\":\"Deployment\",\"spec\":{}}\n", 0, TT_KIND_UNKNOWN},
        {"{\"kind\": \"process_start\", \"ts_ms\": 1}\n", 0, TT_KIND_STARTUP},
        {"com.example.Foo -> a.a:\n    void bar() -> a\n", 0, TT_KIND_PROGUARD},
        {"{\"machine\":\"HIGH\",\"tag\":\"Trace_EvilMethod\"}\n", 0, TT_KIND_REPORT},
        {"[ {\"tag\": \"Trace_FPS\"} ]", 0, TT_KIND_REPORT},
        {"01-01 00:00:00.000 I/Matrix: tag[Trace_EvilMethod]type[0];key[null];content[{}]\n", 0,
         TT_KIND_REPORT},
        {"{\"some\":\"json\"}\n", 0, TT_KIND_UNKNOWN},
        {"hello world\n", 0, TT_KIND_UNKNOWN},
        {"", 0, TT_KIND_UNKNOWN},
        {"SQLite format 3\0xxxx", 20, TT_KIND_UNKNOWN}, /* no tracetool application_id */
        {"\xe8\x03\0\0\0\xf0\xff\xff", 8, TT_KIND_BEAT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = cases[i].n ? cases[i].n : strlen(cases[i].text);
        ck_assert_msg(tt_detect((const unsigned char *)cases[i].text, n) == cases[i].kind,
                      "case %zu", i);
    }
    unsigned char db[100] = "SQLite format 3";
    memcpy(db + 68, "TTDB", 4); /* tracetool's application_id */
    ck_assert_int_eq(tt_detect(db, sizeof db), TT_KIND_DATABASE);
    ck_assert_str_eq(tt_kind_name(TT_KIND_BEAT), "beat");
    ck_assert_int_eq(tt_kind_parse("report"), TT_KIND_REPORT);
    ck_assert_int_eq(tt_kind_parse("nope"), -1);
}
END_TEST

/* ---- recorded rows (analyze --jobs): replayed in order, they build the same database ---- */
static void write_some(tdb_db *db, const char *key, int64_t *trace_id)
{
    tt_error err = {0};
    int64_t tid, upid, utid, base, tree, issue, nb, mod, set, fr, cs;
    tdb_trace t = {.import_key = key, .content_sha256 = "c", .source_format = "x"};
    ck_assert_int_eq(tdb_trace_add(db, &t, &tid, &err), 0);
    int64_t pid = 7;
    ck_assert_int_eq(tdb_process_add(db, tid, &pid, "app", &upid, &err), 0);
    ck_assert_int_eq(tdb_thread_add(db, tid, upid, &pid, "main", 1, &utid, &err), 0);
    ck_assert_int_eq(tdb_next_id(db, "slice", &base, &err), 0);
    for (int i = 0; i < 3; i++) {
        tdb_slice sl = {.id = base + i, .trace_id = tid, .utid = utid, .ts = 10 * i, .dur = 5,
                        .depth = i, .parent_id = i ? base + i - 1 : 0, .name = "m",
                        .category = "beat", .end_kind = "exact", .thread_dur = -1, .self_thread_dur = -1,
                        .block_dur = -1, .gap_before = -1, .gap_after = -1,
                        .sample_count = -1};
        /* a replay binds a parameter only when it changed: value, NULL, value; 4, 4, 5 */
        sl.gap_before = i == 1 ? -1 : 3;
        sl.sample_count = i < 2 ? 4 : 5;
        ck_assert_int_eq(tdb_slice_add(db, &sl, &err), 0);
    }
    ck_assert_int_eq(tdb_wakeup_add(db, tid, base + 2, utid, 3, "unpark", &err), 0);
    tdb_issue is = {.trace_id = tid, .tag = "Trace_EvilMethod", .kind = "evil_method",
                    .utid = utid};
    ck_assert_int_eq(tdb_issue_add(db, &is, &issue, &err), 0);
    ck_assert_int_eq(tdb_tree_add(db, tid, "issue_stack", issue, 0, &tree, &err), 0);
    ck_assert_int_eq(tdb_issue_set_tree(db, issue, tree, &err), 0);
    for (int k = 0; k < 2; k++) { /* two id ranges of one table */
        ck_assert_int_eq(tdb_next_id(db, "call_node", &nb, &err), 0);
        for (int i = 0; i < 2; i++) {
            tdb_node n = {.id = nb + i, .tree_id = tree, .parent_id = i ? nb : 0, .depth = i,
                          .ordinal = i, .name = "n", .count = 1};
            ck_assert_int_eq(tdb_node_add(db, &n, &err), 0);
        }
    }
    tdb_module m = {.build_id = "abcd", .name = "libx.so", .kind = "elf"};
    ck_assert_int_eq(tdb_module_get(db, &m, &mod, &err), 0);
    tdb_symbol sy[2] = {{.name = "inl", .file = "x.c", .line = 3, .is_inlined = 1},
                        {.name = "f", .symbol_name = "f"}};
    ck_assert_int_eq(tdb_symbolized_pc_add(db, mod, 0x10, sy, 2, &set, &err), 0);
    tdb_frame f = {.trace_id = tid, .name = "f", .kind = "native", .have_rel_pc = 1,
                   .rel_pc = 0x10, .module_id = mod, .symbol_set_id = set};
    ck_assert_int_eq(tdb_frame_add(db, &f, &fr, &err), 0);
    ck_assert_int_eq(tdb_callsite_add(db, tid, 0, 0, fr, &cs, &err), 0);
    tdb_sample sa = {.trace_id = tid, .utid = utid, .callsite_id = cs, .have_ts = 1, .ts = 4,
                     .count = 1, .weight = 1};
    ck_assert_int_eq(tdb_sample_add(db, &sa, &err), 0);
    tdb_scene_stats ss = {.trace_id = tid, .model = "matrix", .scene = "*", .frames = 2,
                          .have_fps = 1, .fps = 59.5, .issue_id = issue};
    ck_assert_int_eq(tdb_scene_stats_add(db, &ss, &err), 0);
    int64_t v = 1;
    ck_assert_int_eq(tdb_metadata_add(db, tid, "n", &v, NULL, &err), 0);
    *trace_id = tid;
}

static int dump_row(void *ctx, int ev, int ncol, const char *const *names, const tdb_value *v)
{
    (void)names;
    tt_buf *b = ctx;
    for (int i = 0; ev == TDB_EV_ROW && i < ncol; i++) {
        if (v[i].type == TDB_INT)
            tt_buf_printf(b, "%lld|", (long long)v[i].i);
        else if (v[i].type == TDB_REAL)
            tt_buf_printf(b, "%g|", v[i].r);
        else if (v[i].type == TDB_TEXT)
            tt_buf_printf(b, "%s|", v[i].s);
        else
            tt_buf_puts(b, "NULL|");
    }
    if (ev == TDB_EV_ROW)
        tt_buf_puts(b, "\n");
    return 0;
}

static void dump(tt_buf *b, const char *file)
{
    static const char *const sql =
        "select id, trace_id is null from slice; select * from slice; select * from wakeup; "
        "select * from issue; select * from call_tree; select * from call_node; "
        "select * from module; select * from symbol; select * from symbolized_pc; "
        "select * from stack_frame; select * from callsite; select * from sample; "
        "select * from scene_frame_stats; select * from metadata; select * from process; "
        "select * from thread; select id, import_key from trace";
    tdb_db *db;
    int newer;
    tt_error err = {0};
    ck_assert_msg(tdb_open_read(&db, file, 0, &newer, &err) == 0, "%s", err.msg);
    ck_assert_msg(tdb_exec_user(db, sql, dump_row, b, &err) == 0, "%s", err.msg);
    tdb_close(db);
}

START_TEST(recorded_rows_replay)
{
    tdb_db *db, *rec[2];
    tt_error err = {0};
    int64_t direct[2], recorded[2];
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    write_some(db, "k1", &direct[0]);
    write_some(db, "k2", &direct[1]);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    /* both recorded before either is replayed, as two threads would */
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(tdb_rec_new(&rec[i], &err), 0);
        write_some(rec[i], i ? "k2" : "k1", &recorded[i]);
        ck_assert_int_gt(tdb_rec_bytes(rec[i]), 0);
    }
    int64_t id;
    ck_assert_int_lt(tdb_trace_find(rec[0], "k1", &id, &err), 0); /* no reads */
    ck_assert_int_lt(tdb_savepoint(rec[0], TDB_SP_BEGIN, &err), 0);
    char path2[160];
    snprintf(path2, sizeof path2, "%s/r.db", dir);
    ck_assert_int_eq(tdb_open_write(&db, path2, 0, &err), 0);
    for (int i = 0; i < 2; i++) {
        ck_assert_msg(tdb_rec_replay(db, rec[i], &err) == 0, "%s", err.msg);
        ck_assert_int_eq(tdb_rec_resolve(rec[i], recorded[i]), direct[i]);
        tdb_close(rec[i]);
    }
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    tt_buf a = {0}, b = {0};
    dump(&a, path);
    dump(&b, path2);
    ck_assert_str_eq(a.data, b.data);
    ck_assert_ptr_nonnull(strstr(a.data, "abcd|libx.so|")); /* one module row, shared */
    ck_assert_ptr_null(strstr(strstr(a.data, "abcd|libx.so|") + 1, "abcd|libx.so|"));
    tt_buf_free(&a);
    tt_buf_free(&b);
}
END_TEST

/* The sorter's helper threads (analyze --jobs) cut index keys above 2 MiB into runs sorted
 * beside the writer; the file is the one a single thread writes. */
static void write_slices(const char *file, int threads, tt_buf *bytes)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, file, 0, &err), 0);
    tdb_set_threads(db, threads);
    int64_t base;
    ck_assert_int_eq(tdb_next_id(db, "slice", &base, &err), 0);
    char name[128];
    for (int i = 0; i < 40000; i++) { /* 3 MiB of slice_by_name keys, in no order */
        snprintf(name, sizeof name, "com.example.feed.ui.SomeLongClassName%05d.bind(int,"
                 "android.view.View,java.lang.String)", (i * 7919) % 40000);
        tdb_slice sl = {.id = base + i, .trace_id = 1, .utid = 1 + i % 7, .ts = (i * 31) % 997,
                        .dur = 5, .parent_id = i % 3 ? base + i - 1 : 0, .name = name,
                        .category = "beat", .end_kind = "exact", .thread_dur = -1,
                        .self_thread_dur = -1, .block_dur = -1, .gap_before = -1,
                        .gap_after = -1, .sample_count = -1};
        ck_assert_int_eq(tdb_slice_add(db, &sl, &err), 0);
    }
    ck_assert_msg(tdb_commit(db, &err) == 0, "%s", err.msg);
    tdb_close(db);
    FILE *f = fopen(file, "rb");
    ck_assert_ptr_nonnull(f);
    char chunk[65536];
    for (size_t n; (n = fread(chunk, 1, sizeof chunk, f)) > 0;)
        ck_assert_int_eq(tt_buf_put(bytes, chunk, n), 0);
    fclose(f);
}

START_TEST(index_sort_threads_same_file)
{
    char p1[96], p2[96];
    snprintf(p1, sizeof p1, "%s/one.db", dir);
    snprintf(p2, sizeof p2, "%s/three.db", dir);
    tt_buf a = {0}, b = {0};
    write_slices(p1, 0, &a);
    write_slices(p2, 3, &b);
    ck_assert_uint_gt(a.len, 4 << 20);
    ck_assert_uint_eq(a.len, b.len);
    ck_assert_int_eq(memcmp(a.data, b.data, a.len), 0);
    tt_buf_free(&a);
    tt_buf_free(&b);
    strcpy(path, p2); /* the index answers */
    rows r = query("select name from slice indexed by slice_by_name order by name limit 1");
    ck_assert_str_eq(r.first, "com.example.feed.ui.SomeLongClassName00000.bind(int,"
                              "android.view.View,java.lang.String)");
}
END_TEST

/* A new database is built with ignore_check_constraints: the writers' own lists (check.c)
 * are the schema's CHECK (column IN (...)) lists, and every list of the schema has one. */
START_TEST(check_lists_match_schema)
{
    const char *sql = tdb_sql_schema;
    int lists = 0;
    for (const char *chk = strstr(sql, "CHECK ("); chk; chk = strstr(chk + 1, "CHECK (")) {
        const char *p = chk + 7;
        while (*p == '_' || (*p >= 'a' && *p <= 'z'))
            p++;
        if (strncmp(p, " IN", 3))
            continue;
        p += 3;
        while (*p == ' ' || *p == '\n')
            p++;
        ck_assert_int_eq(*p, '(');
        p -= 4; /* the values start at p + 5 */
        const char *tb = chk;
        while (tb > sql && strncmp(tb, "CREATE TABLE ", 13))
            tb--;
        char table[64], column[64];
        ck_assert_int_eq(sscanf(tb + 13, "%63[a-z_]", table), 1);
        ck_assert_int_eq(sscanf(chk + 7, "%63[a-z_]", column), 1);
        /* the schema's values, in order */
        char vals[16][32];
        int nv = 0;
        for (const char *q = p + 5; *q && *q != ')'; q++)
            if (*q == '\'') {
                const char *e = strchr(q + 1, '\'');
                ck_assert(nv < 16 && e - q - 1 < 32);
                snprintf(vals[nv++], sizeof vals[0], "%.*s", (int)(e - q - 1), q + 1);
                q = e;
            }
        if (!strcmp(table, "args"))
            continue; /* value_type: the writers bind only the constant 'int' */
        int found = 0;
        for (int w = 0; w < TDB__E_COUNT; w++) {
            const char *t, *c;
            const char *const *v = tdb__enum_values(w, &t, &c);
            if (strcmp(t, table) || strcmp(c, column))
                continue;
            found = 1;
            int k = 0;
            for (; v[k]; k++)
                ck_assert_msg(k < nv && !strcmp(v[k], vals[k]), "%s.%s: %s", table, column, v[k]);
            ck_assert_int_eq(k, nv);
        }
        ck_assert_msg(found, "%s.%s: no list in sqlite/check.c", table, column);
        lists++;
    }
    ck_assert_int_eq(lists, TDB__E_COUNT);
}
END_TEST

/* ... and refuse a value outside its list, in a new database, appending, and recording. */
/* A database at p with one framestats trace (import key key) of n frames. */
static void framestats_db(const char *p, const char *key, int n)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, p, 0, &err), 0);
    tdb_trace t = {.import_key = key, .content_sha256 = key, .source_format = "framestats",
                   .clock = "boottime"};
    int64_t id;
    ck_assert_int_eq(tdb_trace_add(db, &t, &id, &err), 0);
    char sql[640];
    snprintf(sql, sizeof sql,
             "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < %d) "
             "INSERT INTO ui_frame (trace_id, scene, ts, dur, interval_dur, busy_dur, "
             "dropped_frames, drop_level, is_jank, is_slow, is_frozen) SELECT %lld, 'S' || "
             "(i %% 3), 1000000000 + i * 16666667, 8000000, 16666667, 7000000, 0, 'best', 0, "
             "0, 0 FROM k",
             n, (long long)id);
    ck_assert_int_eq(sqlite3_exec(db->h, sql, NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
}

/* merge keeps a row per framestats frame of the destination in its temporary tables
 * (frames_overlap): they are paged through a temporary file, not held in memory (the
 * connection's temp_store=MEMORY), from the first source on; the overlap is still found */
START_TEST(merge_temp_tables_on_disk)
{
    char a[160], b[160];
    snprintf(a, sizeof a, "%s/a.db", dir);
    snprintf(b, sizeof b, "%s/b.db", dir);
    framestats_db(a, "a", 3000);
    framestats_db(b, "b", 3000);
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, TDB_WRITE_NEW | TDB_WRITE_TEMP_FILE, &err), 0);
    tdb_merge_stats ms;
    ck_assert_msg(tdb_merge_add(db, a, "t.db", 0, &ms, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(ms.frames_overlap, 0);
    tdb_merge_stats_free(&ms);
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_prepare_v2(db->h, "PRAGMA temp_store", -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(st, 0), 1); /* FILE */
    sqlite3_finalize(st);
    ck_assert_msg(tdb_merge_add(db, b, "t.db", 0, &ms, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(ms.frames_overlap, 3000);
    ck_assert_int_eq(ms.traces_overlap, 1);
    tdb_merge_stats_free(&ms);
    ck_assert_int_eq(sqlite3_prepare_v2(db->h, "SELECT COUNT(*) FROM temp.m_fkey", -1, &st,
                                        NULL),
                     SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(st, 0), 6000);
    sqlite3_finalize(st);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    rows r = query("SELECT value FROM stats WHERE name = 'frames_overlap' AND trace_id = 2");
    ck_assert_int_eq(r.n, 1);
    ck_assert_str_eq(r.first, "3000");
}
END_TEST

START_TEST(check_lists_refuse)
{
    for (int mode = 0; mode < 3; mode++) {
        tdb_db *db;
        tt_error err = {0};
        if (mode == 2)
            ck_assert_int_eq(tdb_rec_new(&db, &err), 0);
        else
            ck_assert_int_eq(tdb_open_write(&db, path, mode, &err), 0);
        const char *keys[] = {"k0", "k1", "k2"};
        tdb_trace t = {.import_key = keys[mode], .content_sha256 = "c", .source_format = "x",
                       .clock = "sometimes"};
        int64_t id;
        ck_assert_int_eq(tdb_trace_add(db, &t, &id, &err), TT_EINVAL);
        ck_assert_str_eq(err.msg, "trace.clock: value 'sometimes' is not allowed");
        ck_assert_str_eq(err.file, ""); /* a writer's bug: --keep-going stops on it */
        t.clock = "uptime";
        ck_assert_msg(tdb_trace_add(db, &t, &id, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(tdb_stat_add(db, id, "n", NULL, "bad", "trace", 1, "d", &err),
                         TT_EINVAL);
        ck_assert_int_eq(tdb_tree_add(db, id, "tree", 0, 0, &id, &err), TT_EINVAL);
        if (mode < 2)
            ck_assert_int_eq(tdb_commit(db, &err), 0);
        tdb_close(db);
    }
    ck_assert_int_eq(query("select * from trace").n, 2);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("store");
    TCase *tc = tcase_create("store");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, build_aside_and_rename);
    tcase_add_test(tc, close_without_commit_leaves_nothing);
    tcase_add_test(tc, append_and_find);
    tcase_add_test(tc, append_wal_empty);
    tcase_add_test(tc, delete_cascades);
    tcase_add_test(tc, delete_linear);
    tcase_add_test(tc, delete_args);
    tcase_add_test(tc, delete_args_step_error);
    tcase_add_test(tc, stale_sweep_spares_held);
    tcase_add_test(tc, refuses_foreign_and_newer);
    tcase_add_test(tc, read_only_and_statement_errors);
    tcase_add_test(tc, read_only_creates_nothing);
    tcase_add_test(tc, views_parse);
    tcase_add_test(tc, node_path_nesting);
    tcase_add_test(tc, content_hash);
    tcase_add_test(tc, detection);
    tcase_add_test(tc, recorded_rows_replay);
    tcase_add_test(tc, index_sort_threads_same_file);
    tcase_add_test(tc, check_lists_match_schema);
    tcase_add_test(tc, check_lists_refuse);
    tcase_add_test(tc, merge_temp_tables_on_disk);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
