/* The read side of the tracetool database: read-only opening (storage.md 5.4, 6), running a
 * user's SQL statement by statement. */
#include "tdb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tdb_int.h"

static int open_ro(tdb_db *db, int immutable, tt_error *err)
{
    char *uri = tdb__path_uri(db->path, immutable);
    if (!uri)
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    int rc = sqlite3_open_v2(uri, &db->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (rc != SQLITE_OK)
        return tdb__sqlerr(db, err, "cannot open the database");
    tdb__untrusted(db->h);
    tdb__defensive(db->h);
    return 0;
}

/* Read-only connections (storage.md 5.4): besides SQLITE_OPEN_READONLY and query_only, no
 * statement may switch query_only off or move SQLite's own files elsewhere. Statements that
 * would write (VACUUM INTO creates its file before any check) are refused by tdb_exec_user
 * before they run. */
static int ro_authorizer(void *ctx, int action, const char *a, const char *b, const char *db,
                         const char *view)
{
    (void)db, (void)view;
    if (action == SQLITE_PRAGMA && !b) /* reading a setting: SQLite may not call it read-only */
        ((tdb_db *)ctx)->pragma_read = 1;
    if (action == SQLITE_PRAGMA && b &&
        (!sqlite3_stricmp(a, "query_only") || !sqlite3_stricmp(a, "temp_store_directory") ||
         !sqlite3_stricmp(a, "data_store_directory") || !sqlite3_stricmp(a, "writable_schema")))
        return SQLITE_DENY;
    return SQLITE_OK;
}

/* Writable connections (query --write): notes a statement that changes rows, which
 * tdb_exec_user runs in a savepoint with the removal of the arg sets it leaves without an
 * owner. Refuses nothing. */
static int rw_authorizer(void *ctx, int action, const char *a, const char *b, const char *db,
                         const char *view)
{
    (void)a, (void)b, (void)db, (void)view;
    if (action == SQLITE_INSERT || action == SQLITE_UPDATE || action == SQLITE_DELETE)
        ((tdb_db *)ctx)->user_dml = 1;
    return SQLITE_OK;
}

int tdb__immutable(const tdb_db *db) { return db->immutable; }

int tdb__attach_read(sqlite3 *h, const char *path, const char *schema, int immutable,
                     tt_error *err)
{
    int rc = immutable ? tdb__wal_unread(path, err) : 0; /* changes it would not see */
    if (rc)
        return rc;
    char *uri = tdb__path_uri(path, immutable);
    if (!uri)
        return tt_error_set(err, TT_ENOMEM, path, 0, 0, "out of memory");
    sqlite3_stmt *st;
    const char *what = "cannot open the database";
    rc = sqlite3_prepare_v2(h, "ATTACH DATABASE ?1 AS ?2", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, uri, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, schema, -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        sqlite3_finalize(st);
    }
    free(uri);
    char sql[96];
    if (rc == SQLITE_OK) {
        what = "cannot read the database";
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM \"%s\".sqlite_master", schema);
        rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : SQLITE_ERROR;
            sqlite3_finalize(st);
        }
        if (rc == SQLITE_OK)
            return 0;
    }
    int busy = tdb__busy(h);
    if (busy)
        tt_error_set(err, TT_EIO, path, 0, 0, TDB_LOCKED_MSG);
    else
        tt_error_set(err, TT_EIO, path, 0, 0, "%s: %s", what, sqlite3_errmsg(h));
    snprintf(sql, sizeof sql, "DETACH DATABASE \"%s\"", schema);
    sqlite3_exec(h, sql, NULL, NULL, NULL);
    /* a lock another process holds is no read-only directory: no immutable read past it */
    return immutable || busy ? TT_EIO : tdb__attach_read(h, path, schema, 1, err);
}

int tdb__stop_progress(void *arg)
{
    const tdb_db *db = arg;
    return db->stop && *db->stop;
}

int tdb__stop_busy(void *arg, int tries)
{
    if (tdb__stop_progress(arg) || tries >= 500)
        return 0;
    sqlite3_sleep(10);
    return 1;
}

/* tdb_open_read; a writer of path finishing is waited for by tdb__stop_busy on stop. */
static int open_read(tdb_db **out, const char *path, int writable,
                     volatile sig_atomic_t *stop, int pages, int *newer, tt_error *err)
{
    *out = NULL;
    *newer = 0;
    struct stat sb;
    if (!strcmp(path, "-"))
        return tt_error_set(err, TT_EUNSUPPORTED, "<stdin>", 0, 0,
                            "a database cannot be read from standard input (SQLite seeks in "
                            "it): give its path");
    if (stat(path, &sb) != 0) /* SQLite's text would be "unable to open database file" */
        return tt_error_set(err, TT_EIO, path, 0, 0, "cannot open the database: %s",
                            strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return tt_error_set(err, TT_EUNSUPPORTED, path, 0, 0,
                            S_ISDIR(sb.st_mode) ? "is a directory, not a database"
                                                : "a database cannot be read from a pipe or "
                                                  "device: copy it to a file first");
    tdb_db *db = calloc(1, sizeof *db);
    if (db)
        db->path = strdup(path);
    if (!db || !db->path) {
        free(db);
        return tt_error_set(err, TT_ENOMEM, path, 0, 0, "out of memory");
    }
    int rc;
    if (writable) {
        rc = tdb__open(path, &db->h, SQLITE_OPEN_READWRITE) == SQLITE_OK
                 ? 0
                 : tdb__sqlerr(db, err, "cannot open the database");
    } else {
        db->readonly = 1;
        db->wal_tidy = tdb__wal_absent(path);
        rc = open_ro(db, 0, err);
    }
    int64_t version = 0;
    if (!rc) {
        db->stop = stop;
        if (stop)
            sqlite3_busy_handler(db->h, tdb__stop_busy, db);
        else
            sqlite3_busy_timeout(db->h, 5000);
        rc = tdb__check_header(db, &version, err);
        /* a lock another process holds is no read-only directory: said as it is */
        if (rc && !writable && err && !strstr(err->msg, "application_id") &&
            !tdb__busy(db->h)) {
            /* a WAL database in a directory we cannot write: no -shm possible */
            sqlite3_close(db->h);
            db->h = NULL;
            tt_error e2 = {0};
            /* immutable=1 reads the file without its log: committed changes in it would be
             * silently missed */
            int wrc = tdb__wal_unread(path, err);
            if (wrc) {
                rc = wrc;
            } else if (!open_ro(db, 1, &e2) && !tdb__check_header(db, &version, &e2)) {
                rc = 0;
                db->immutable = 1;
                db->wal_tidy = 0;
            }
        }
    }
    if (!rc && version == 0)
        rc = tt_error_set(err, TT_EFORMAT, path, 0, 0,
                          "not a tracetool database (empty; write one with tracetool analyze)");
    if (!rc && stop) /* a signal (tdb_merge_stop) stops the check of a large file */
        sqlite3_progress_handler(db->h, 1000, tdb__stop_progress, db);
    if (!rc) /* the pages of a merge input: its rows would be lost without a word */
        rc = tdb__check_content(db, version, pages, err);
    if (stop && db->h)
        sqlite3_progress_handler(db->h, 0, NULL, NULL);
    /* storage.md 1, 3: foreign keys are enforced when writing; deleting a trace cascades */
    if (!rc && writable)
        rc = tdb__exec(db, "PRAGMA foreign_keys = ON", err);
    if (!rc && !writable)
        rc = tdb__exec(db, "PRAGMA query_only = ON", err);
    if (!rc)
        sqlite3_set_authorizer(db->h, writable ? rw_authorizer : ro_authorizer, db);
    if (rc) {
        tdb_close(db);
        return rc;
    }
    *newer = version > TDB_SCHEMA_VERSION;
    db->stop = NULL;
    *out = db;
    return 0;
}

int tdb_open_read(tdb_db **out, const char *path, int writable, int *newer, tt_error *err)
{
    return open_read(out, path, writable, NULL, 0, newer, err);
}

int tdb__open_read_stop(tdb_db **out, const char *path, volatile sig_atomic_t *stop, int pages,
                        int *newer, tt_error *err)
{
    return open_read(out, path, 0, stop, pages, newer, err);
}

void tdb__values(sqlite3_stmt *st, int ncol, tdb_value *vals)
{
    for (int c = 0; c < ncol; c++) {
        tdb_value *v = &vals[c];
        memset(v, 0, sizeof *v);
        switch (sqlite3_column_type(st, c)) {
        case SQLITE_INTEGER:
            v->type = TDB_INT;
            v->i = sqlite3_column_int64(st, c);
            break;
        case SQLITE_FLOAT:
            v->type = TDB_REAL;
            v->r = sqlite3_column_double(st, c);
            break;
        case SQLITE_TEXT:
            v->type = TDB_TEXT;
            v->s = (const char *)sqlite3_column_text(st, c);
            v->n = (size_t)sqlite3_column_bytes(st, c);
            break;
        case SQLITE_BLOB:
            v->type = TDB_BLOB;
            v->s = sqlite3_column_blob(st, c);
            v->n = (size_t)sqlite3_column_bytes(st, c);
            break;
        default: v->type = TDB_NULL;
        }
    }
}

static int emit_row(sqlite3_stmt *st, int ncol, const char *const *names, tdb_value *vals,
                    tdb_row_fn fn, void *ctx)
{
    tdb__values(st, ncol, vals);
    return fn(ctx, TDB_EV_ROW, ncol, names, vals);
}

/* Steps st to the end, reporting BEGIN, every ROW and END to fn. */
static int run_stmt(tdb_db *db, sqlite3_stmt *st, tdb_row_fn fn, void *ctx, int *stopped,
                    tt_error *err)
{
    int ncol = sqlite3_column_count(st);
    const char **names = calloc((size_t)(ncol ? ncol : 1), sizeof *names);
    tdb_value *vals = calloc((size_t)(ncol ? ncol : 1), sizeof *vals);
    if (!names || !vals) {
        free(names);
        free(vals);
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    }
    for (int c = 0; c < ncol; c++)
        names[c] = sqlite3_column_name(st, c);
    int rc = 0, began = 0;
    if (ncol && fn(ctx, TDB_EV_BEGIN, ncol, names, NULL))
        *stopped = 1;
    began = ncol > 0;
    while (!*stopped) {
        int r = sqlite3_step(st);
        if (r == SQLITE_DONE)
            break;
        if (r != SQLITE_ROW) {
            rc = tt_error_set(err, TT_EFORMAT, db->path, 0, 0, "%s", sqlite3_errmsg(db->h));
            break;
        }
        if (emit_row(st, ncol, names, vals, fn, ctx))
            *stopped = 1;
    }
    if (began && !rc && !*stopped)
        fn(ctx, TDB_EV_END, ncol, names, NULL);
    free(names);
    free(vals);
    return rc;
}

/* After a statement that changed rows of a writable database: the args rows of the sets
 * whose owner rows it deleted, or pointed at another set, go when no row names them any
 * more (tracetool-query(1) --write, tracetool-schema(5) args), in the statement's
 * transaction: a savepoint around both when no transaction is open. */
static int user_end(tdb_db *db, int wrapped, int rc, tt_error *err)
{
    if (!rc)
        rc = tdb__args_gone(db, 0, err);
    if (!wrapped || sqlite3_get_autocommit(db->h))
        return rc;
    if (!rc && sqlite3_exec(db->h, "RELEASE tdb_user", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    if (!rc) /* e.g. a deferred constraint: nothing of the statement stays */
        rc = tdb__sqlerr(db, err, "write");
    sqlite3_exec(db->h, "ROLLBACK TO tdb_user; RELEASE tdb_user", NULL, NULL, NULL);
    return rc;
}

int tdb_exec_user(tdb_db *db, const char *sql, tdb_row_fn fn, void *ctx, tt_error *err)
{
    const char *p = sql;
    int nstmt = 0, stopped = 0;
    if (!db->readonly && !db->args_watch) {
        int rc = tdb__args_gone(db, 1, err);
        if (rc)
            return rc;
        db->args_watch = 1;
    }
    while (*p && !stopped) {
        sqlite3_stmt *st = NULL;
        const char *tail;
        db->pragma_read = 0;
        db->user_dml = 0;
        if (sqlite3_prepare_v2(db->h, p, -1, &st, &tail) != SQLITE_OK) {
            int auth = db->readonly && sqlite3_errcode(db->h) == SQLITE_AUTH;
            return tt_error_set(err, TT_EFORMAT, db->path, 0, 0, "SQL statement %d: %s%s",
                                nstmt + 1, sqlite3_errmsg(db->h),
                                auth ? ": the database is open read-only" : "");
        }
        if (!st) { /* whitespace or a comment */
            p = tail;
            continue;
        }
        nstmt++;
        if (db->readonly && !sqlite3_stmt_readonly(st) && !db->pragma_read) {
            /* refused before it runs: VACUUM INTO would create its file first */
            int n = (int)(tail - p);
            while (n > 0 && (p[n - 1] == ';' || p[n - 1] == ' ' || p[n - 1] == '\n' ||
                             p[n - 1] == '\t' || p[n - 1] == '\r'))
                n--;
            while (n > 0 && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
                p++, n--;
            sqlite3_finalize(st);
            return tt_error_set(err, TT_EFORMAT, db->path, 0, 0,
                                "SQL statement %d: %.*s%s: refused, it would write and "
                                "the database is open read-only", nstmt, n > 60 ? 57 : n, p, n > 60 ? "..." : "");
        }
        int dml = !db->readonly && db->user_dml && !sqlite3_stmt_readonly(st);
        int wrapped = dml && sqlite3_get_autocommit(db->h);
        int rc = wrapped && sqlite3_exec(db->h, "SAVEPOINT tdb_user", NULL, NULL, NULL)
                     ? tdb__sqlerr(db, err, "write")
                     : 0;
        if (!rc)
            rc = run_stmt(db, st, fn, ctx, &stopped, err);
        sqlite3_finalize(st);
        if (dml)
            rc = user_end(db, wrapped, rc, err);
        if (rc) {
            char m[TT_ERRMSG_MAX];
            snprintf(m, sizeof m, "%s", err ? err->msg : "");
            return tt_error_set(err, TT_EFORMAT, db->path, 0, 0, "SQL statement %d: %s", nstmt,
                                m);
        }
        p = tail;
    }
    return 0;
}

int tdb__rows(tdb_db *db, sqlite3_stmt *st, tdb_row_fn fn, void *ctx, tt_error *err)
{
    int stopped = 0;
    int rc = run_stmt(db, st, fn, ctx, &stopped, err);
    sqlite3_reset(st);
    return rc;
}
