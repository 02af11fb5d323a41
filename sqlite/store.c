/* The write path of the tracetool database (storage.md 5 and 6): build aside and rename
 * atomically, or append in one transaction; schema versions and migrations; typed row
 * writers over persistent prepared statements (no SQL text is ever built from values). */
#include "tdb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sql_blobs.h"
#include "tdb_int.h"

/* Migration steps N -> N+1, in order (storage.md 6). Version 1 is the first schema. */
static const struct {
    int from;
    const char *sql;
} migrations[] = {
    /* 1 -> 2: the source location an input gives for a frame */
    {1, "ALTER TABLE stack_frame ADD COLUMN file TEXT; "
        "ALTER TABLE stack_frame ADD COLUMN line INTEGER;"},
    /* 2 -> 3: the Mach-O images of iOS reports (spec/ios.md 10) */
    {2, "CREATE TABLE binary_image (trace_id INTEGER NOT NULL REFERENCES trace(id) ON DELETE "
        "CASCADE, report_id TEXT NOT NULL, module_id INTEGER REFERENCES module(id), "
        "image_addr INTEGER NOT NULL, image_vmaddr INTEGER NOT NULL, image_size INTEGER NOT "
        "NULL, name TEXT NOT NULL, arch TEXT, debug_file TEXT, n_frames INTEGER NOT NULL "
        "DEFAULT 0, PRIMARY KEY (trace_id, report_id, image_addr));"},
};

int tdb__sqlerr(tdb_db *db, tt_error *err, const char *what)
{
    return tt_error_set(err, TT_EIO, db->path, 0, 0, "%s: %s", what,
                        db->h ? sqlite3_errmsg(db->h) : "out of memory");
}

int tdb__exec(tdb_db *db, const char *sql, tt_error *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        tt_error_set(err, TT_EIO, db->path, 0, 0, "%s", msg ? msg : sqlite3_errmsg(db->h));
        sqlite3_free(msg);
        return TT_EIO;
    }
    return 0;
}

static int pragma_int(tdb_db *db, const char *sql, int64_t *v, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "cannot read the database header");
    int rc = sqlite3_step(st);
    *v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return tdb__sqlerr(db, err, "cannot read the database header");
    return 0;
}

int tdb__check_header(tdb_db *db, int64_t *version, tt_error *err)
{
    int64_t app, ntab;
    int rc = pragma_int(db, "PRAGMA application_id", &app, err);
    if (rc) {
        /* SQLite says "file is not a database" for anything else */
        return tt_error_set(err, TT_EFORMAT, db->path, 0, 0,
                            "not a tracetool database (not an SQLite file, or corrupt: %s)",
                            sqlite3_errmsg(db->h));
    }
    if ((rc = pragma_int(db, "PRAGMA user_version", version, err)) ||
        (rc = pragma_int(db, "SELECT count(*) FROM sqlite_master", &ntab, err)))
        return rc;
    if (app == 0 && ntab == 0) {
        *version = 0; /* an empty database: the schema is created */
        return 0;
    }
    if (app != TDB_APPLICATION_ID)
        return tt_error_set(err, TT_EFORMAT, db->path, 0, 0,
                            "not a tracetool database (application_id %lld, expected %d)",
                            (long long)app, TDB_APPLICATION_ID);
    return 0;
}

/* Removes "<base>.tmp-<pid>" files left by processes that no longer exist (kill -9). */
static void remove_stale_tmp(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash) {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof dir)
            return;
        memcpy(dir, path, n);
        dir[n] = 0;
        if (!n)
            strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t bl = strlen(base);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        if (strncmp(nm, base, bl) || strncmp(nm + bl, ".tmp-", 5))
            continue;
        const char *p = nm + bl + 5;
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p || *end || pid <= 0 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char full[8192];
        snprintf(full, sizeof full, "%s/%s", dir, nm);
        unlink(full);
    }
    closedir(d);
}

static int create_schema(tdb_db *db, tt_error *err)
{
    return tdb__exec(db, tdb_sql_schema, err);
}

static int drop_views(tdb_db *db, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT name FROM sqlite_master WHERE type = 'view'", -1,
                           &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "migration");
    tt_buf names = {0};
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *n = (const char *)sqlite3_column_text(st, 0);
        if (n && tt_buf_put(&names, n, strlen(n) + 1)) {
            sqlite3_finalize(st);
            tt_buf_free(&names);
            return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
        }
    }
    sqlite3_finalize(st);
    int rc = 0;
    for (size_t off = 0; off < names.len && !rc; off += strlen(names.data + off) + 1) {
        char *sql = sqlite3_mprintf("DROP VIEW \"%w\"", names.data + off);
        rc = sql ? tdb__exec(db, sql, err) : TT_ENOMEM;
        sqlite3_free(sql);
    }
    tt_buf_free(&names);
    return rc;
}

/* Upgrades an older schema inside the open transaction (storage.md 6). */
static int migrate(tdb_db *db, int64_t version, tt_error *err)
{
    for (size_t i = 0; i < sizeof migrations / sizeof migrations[0]; i++) {
        if (!migrations[i].sql || migrations[i].from < version)
            continue;
        int rc = tdb__exec(db, migrations[i].sql, err);
        if (rc)
            return rc;
    }
    int rc = drop_views(db, err);
    if (!rc)
        rc = tdb__exec(db, tdb_sql_views, err);
    return rc;
}

static int db_alloc(tdb_db **out, const char *path, tt_error *err)
{
    tdb_db *db = calloc(1, sizeof *db);
    if (db)
        db->path = strdup(path);
    if (!db || !db->path) {
        free(db);
        return tt_error_set(err, TT_ENOMEM, path, 0, 0, "out of memory");
    }
    *out = db;
    return 0;
}

/* SQLite's allocation statistics take a global mutex on every malloc; tracetool never reads
   them. Must run before SQLite initialises; later calls fail harmlessly. */
static void no_memstatus(void)
{
    static int done;
    if (!done) {
        done = 1;
        (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    }
}

static int copy_existing(tdb_db *db, tt_error *err);

static int open_new(tdb_db *db, tt_error *err)
{
    no_memstatus();
    size_t n = strlen(db->path) + 32;
    db->tmp = malloc(n);
    if (!db->tmp)
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    snprintf(db->tmp, n, "%s.tmp-%ld", db->path, (long)getpid());
    unlink(db->tmp);
    /* fail early and clearly when the directory is not writable */
    int fd = open(db->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        free(db->tmp);
        db->tmp = NULL;
        return tt_error_set(err, TT_EIO, db->path, 0, 0, "cannot create the database: %s",
                            strerror(e));
    }
    close(fd);
    if (sqlite3_open_v2(db->tmp, &db->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK)
        return tdb__sqlerr(db, err, "cannot create the database");
    int rc = tdb__exec(db,
                       "PRAGMA page_size=8192; PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF;"
                       "PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=MEMORY;"
                       "PRAGMA cache_size=-65536; PRAGMA foreign_keys=OFF;"
                       "PRAGMA ignore_check_constraints=ON;",
                       err);
    if (!rc && db->copy) {
        rc = copy_existing(db, err);
    } else if (!rc) {
        rc = tdb__exec(db, "BEGIN", err);
        db->in_tx = !rc;
        if (!rc)
            rc = create_schema(db, err);
    }
    return rc;
}

/* TDB_WRITE_COPY: the temporary file starts as a copy of the existing database (the SQLite
 * backup API, so a WAL database's committed pages are included), upgraded to the current
 * schema; its views are dropped and recreated by tdb_commit. */
static int copy_existing(tdb_db *db, tt_error *err)
{
    sqlite3 *from = NULL;
    int rc = sqlite3_open_v2(db->path, &from, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(from, 5000);
        sqlite3_backup *b = sqlite3_backup_init(db->h, "main", from, "main");
        if (b) {
            rc = sqlite3_backup_step(b, -1);
            sqlite3_backup_finish(b);
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        } else {
            rc = SQLITE_ERROR;
        }
    }
    if (rc != SQLITE_OK) {
        tt_error_set(err, TT_EIO, db->path, 0, 0, "cannot copy the database: %s",
                     sqlite3_errmsg(from ? from : db->h));
        sqlite3_close(from);
        return TT_EIO;
    }
    sqlite3_close(from);
    int64_t version;
    if ((rc = tdb__check_header(db, &version, err)))
        return rc;
    if (version > TDB_SCHEMA_VERSION)
        return tt_error_set(err, TT_EUNSUPPORTED, db->path, 0, 0,
                            "written by a newer tracetool; schema %lld > %d", (long long)version,
                            TDB_SCHEMA_VERSION);
    if ((rc = tdb__exec(db, "PRAGMA journal_mode=MEMORY; PRAGMA locking_mode=EXCLUSIVE;", err)) ||
        (rc = tdb__exec(db, "BEGIN", err)))
        return rc;
    db->in_tx = 1;
    if (version == 0)
        return create_schema(db, err);
    for (size_t i = 0; i < sizeof migrations / sizeof migrations[0] && !rc; i++)
        if (migrations[i].sql && migrations[i].from >= version)
            rc = tdb__exec(db, migrations[i].sql, err);
    return rc ? rc : drop_views(db, err);
}

static int open_append(tdb_db *db, tt_error *err)
{
    no_memstatus();
    if (sqlite3_open_v2(db->path, &db->h, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "cannot open the database");
    sqlite3_busy_timeout(db->h, 5000);
    int64_t version;
    int rc = tdb__check_header(db, &version, err);
    if (rc)
        return rc;
    if (version > TDB_SCHEMA_VERSION)
        return tt_error_set(err, TT_EUNSUPPORTED, db->path, 0, 0,
                            "written by a newer tracetool; schema %lld > %d", (long long)version,
                            TDB_SCHEMA_VERSION);
    if ((rc = tdb__exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;"
                            "PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY;", err)))
        return rc;
    if ((rc = tdb__exec(db, "BEGIN IMMEDIATE", err)))
        return rc;
    db->in_tx = 1;
    if (version == 0)
        rc = create_schema(db, err);
    else if (version < TDB_SCHEMA_VERSION)
        rc = migrate(db, version, err);
    return rc;
}

int tdb_open_write(tdb_db **out, const char *path, int append, tt_error *err)
{
    *out = NULL;
    tdb_db *db = NULL;
    int rc = db_alloc(&db, path, err);
    if (rc)
        return rc;
    remove_stale_tmp(path);
    struct stat sb;
    db->copy = append == TDB_WRITE_COPY && stat(path, &sb) == 0;
    if (append == TDB_WRITE_APPEND && stat(path, &sb) == 0)
        rc = open_append(db, err);
    else
        rc = open_new(db, err);
    if (rc) {
        tdb_close(db);
        return rc;
    }
    *out = db;
    return 0;
}

const char *tdb_tmp_path(const tdb_db *db) { return db->tmp; }

static int fsync_path(const char *p, int dir)
{
    int fd = open(p, (dir ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int r = fsync(fd);
    close(fd);
    return r;
}

int tdb_commit(tdb_db *db, tt_error *err)
{
    int rc = tdb__exec(db, tdb_sql_indexes, err);
    if (!rc && db->tmp) {
        rc = tdb__exec(db, tdb_sql_views, err);
        if (!rc)
            rc = tdb__exec(db, "PRAGMA application_id = 1414808642", err);
    }
    if (!rc) {
        char v[64];
        snprintf(v, sizeof v, "PRAGMA user_version = %d", TDB_SCHEMA_VERSION);
        rc = tdb__exec(db, v, err);
    }
    if (!rc)
        rc = tdb__exec(db, "COMMIT", err);
    if (rc)
        return rc;
    db->in_tx = 0;
    tdb__exec(db, "PRAGMA optimize", NULL);
    for (int i = 0; i < ST__COUNT; i++) {
        sqlite3_finalize(db->st[i]);
        db->st[i] = NULL;
    }
    for (int i = 0; i < 3; i++) {
        sqlite3_finalize(db->next_id_st[i]);
        db->next_id_st[i] = NULL;
    }
    if (!db->tmp) {
        db->committed = 1;
        return 0;
    }
    if ((rc = tdb__exec(db, "PRAGMA journal_mode=WAL", err)))
        return rc;
    if (sqlite3_close(db->h) != SQLITE_OK)
        return tdb__sqlerr(db, err, "cannot close the database");
    db->h = NULL;
    if (fsync_path(db->tmp, 0))
        return tt_error_set(err, TT_EIO, db->path, 0, 0, "fsync: %s", strerror(errno));
    if (rename(db->tmp, db->path))
        return tt_error_set(err, TT_EIO, db->path, 0, 0, "cannot rename %s into place: %s",
                            db->tmp, strerror(errno));
    char dir[4096];
    const char *slash = strrchr(db->path, '/');
    if (slash && (size_t)(slash - db->path) < sizeof dir) {
        memcpy(dir, db->path, (size_t)(slash - db->path));
        dir[slash - db->path] = 0;
        fsync_path(dir[0] ? dir : "/", 1);
    } else if (!slash) {
        fsync_path(".", 1);
    }
    free(db->tmp);
    db->tmp = NULL;
    db->committed = 1;
    return 0;
}

void tdb_close(tdb_db *db)
{
    if (!db)
        return;
    for (int i = 0; i < ST__COUNT; i++)
        sqlite3_finalize(db->st[i]);
    sqlite3_finalize(db->next_id_st[0]);
    sqlite3_finalize(db->next_id_st[1]);
    sqlite3_finalize(db->next_id_st[2]);
    tdb__rec_free(db->rec);
    if (db->h && db->in_tx)
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    if (db->h)
        sqlite3_close(db->h);
    if (db->tmp) {
        unlink(db->tmp);
        size_t n = strlen(db->tmp) + 16;
        char *p = malloc(n);
        if (p) {
            snprintf(p, n, "%s-journal", db->tmp);
            unlink(p);
            snprintf(p, n, "%s-wal", db->tmp);
            unlink(p);
            snprintf(p, n, "%s-shm", db->tmp);
            unlink(p);
            free(p);
        }
    }
    free(db->tmp);
    free(db->path);
    free(db);
}

/* ---- prepared statements and binding ----
 * A recording handle (tdb_rec_new) has no connection: prep starts a recorded row, the
 * binders record values (references as references, so replay can give them their real
 * ids) and step_done ends the row. */
static sqlite3_stmt *prep(tdb_db *db, int slot, const char *sql, tt_error *err)
{
    if (db->rec) {
        tdb__rec_row(db->rec, slot, sql);
        db->rec_slot = slot;
        return (sqlite3_stmt *)(void *)db->rec; /* a marker: never used as a statement */
    }
    if (!db->st[slot] &&
        sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &db->st[slot], NULL) !=
            SQLITE_OK) {
        tdb__sqlerr(db, err, "prepare");
        return NULL;
    }
    return db->st[slot];
}

sqlite3_stmt *tdb__prep(tdb_db *db, int slot, const char *sql, tt_error *err)
{
    return prep(db, slot, sql, err);
}

static void b_text(tdb_db *db, sqlite3_stmt *st, int i, const char *s)
{
    if (db->rec)
        tdb__rec_text(db->rec, i, s);
    else if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}
static void b_int(tdb_db *db, sqlite3_stmt *st, int i, int have, int64_t v)
{
    if (db->rec)
        tdb__rec_int(db->rec, i, have, v);
    else if (have)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}
static void b_i64(tdb_db *db, sqlite3_stmt *st, int i, int64_t v) { b_int(db, st, i, 1, v); }
/* references to rows (ids); b_id: 0 means "no reference" */
static void b_ref(tdb_db *db, sqlite3_stmt *st, int i, int64_t id)
{
    if (db->rec)
        tdb__rec_ref(db->rec, i, 1, id);
    else
        sqlite3_bind_int64(st, i, id);
}
static void b_id(tdb_db *db, sqlite3_stmt *st, int i, int64_t id)
{
    if (db->rec)
        tdb__rec_ref(db->rec, i, id != 0, id);
    else
        b_int(db, st, i, id != 0, id);
}
static void b_real(tdb_db *db, sqlite3_stmt *st, int i, int have, double v)
{
    if (db->rec)
        tdb__rec_real(db->rec, i, have, v);
    else if (have)
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static int step_done(tdb_db *db, sqlite3_stmt *st, int64_t *rowid, tt_error *err)
{
    if (db->rec)
        return tdb__rec_end(db->rec, db->rec_slot, rowid, err);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return tdb__sqlerr(db, err, "write");
    if (rowid)
        *rowid = sqlite3_last_insert_rowid(db->h);
    return 0;
}

int tdb__step_done(tdb_db *db, sqlite3_stmt *st, int64_t *rowid, tt_error *err)
{
    return step_done(db, st, rowid, err);
}

/* Reads need the database: a recording handle refuses them (before recording anything). */
static int no_reads(tt_error *err)
{
    return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "no reads while recording rows");
}

/* One integer result, or *found = 0. */
static int step_int(tdb_db *db, sqlite3_stmt *st, int *found, int64_t *v, tt_error *err)
{
    if (db->rec)
        return no_reads(err);
    int rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    if (*found)
        *v = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return tdb__sqlerr(db, err, "read");
    return 0;
}

/* ---- rows ---- */
int tdb_savepoint(tdb_db *db, int op, tt_error *err)
{
    if (db->rec)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "no savepoints while recording rows");
    /* a new database keeps its rollback journal in memory: a fresh file has no pages to
     * journal, so only savepoints cost anything (their sub-journal, temp_store=MEMORY) */
    return tdb__exec(db, op == TDB_SP_BEGIN      ? "SAVEPOINT tt_input"
                         : op == TDB_SP_RELEASE ? "RELEASE tt_input"
                                                : "ROLLBACK TO tt_input; RELEASE tt_input",
                     err);
}

int tdb_trace_find(tdb_db *db, const char *import_key, int64_t *id, tt_error *err)
{
    if (db->rec)
        return no_reads(err);
    sqlite3_stmt *st = prep(db, ST_TRACE_FIND, "SELECT id FROM trace WHERE import_key = ?", err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, import_key);
    int found, rc = step_int(db, st, &found, id, err);
    return rc ? rc : found;
}

int tdb_trace_delete(tdb_db *db, int64_t id, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_TRACE_DELETE, "DELETE FROM trace WHERE id = ?", err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, id);
    return step_done(db, st, NULL, err);
}

int tdb_trace_add(tdb_db *db, const tdb_trace *t, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_CLOCK, t->clock, err))
        return TT_EINVAL;
    sqlite3_stmt *st = prep(db, ST_TRACE_ADD,
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
    return step_done(db, st, id, err);
}

int tdb_input_add(tdb_db *db, int64_t trace_id, int ordinal, const char *path,
                  const char *kind, const char *sha256, uint64_t bytes, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_INPUT_ADD,
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
    return step_done(db, st, NULL, err);
}

int tdb_metadata_add(tdb_db *db, int64_t trace_id, const char *name, const int64_t *int_value,
                     const char *str_value, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_META_ADD,
                            "INSERT OR REPLACE INTO metadata (trace_id, name, int_value, "
                            "str_value) VALUES (?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_text(db, st, 2, name);
    b_int(db, st, 3, int_value != NULL, int_value ? *int_value : 0);
    b_text(db, st, 4, str_value);
    return step_done(db, st, NULL, err);
}

int tdb_binary_image_add(tdb_db *db, const tdb_binary_image *b, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_BINIMG_ADD,
                            "INSERT OR IGNORE INTO binary_image (trace_id, report_id, module_id, "
                            "image_addr, image_vmaddr, image_size, name, arch, debug_file, "
                            "n_frames) VALUES (?,?,?,?,?,?,?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, b->trace_id);
    b_text(db, st, 2, b->report_id);
    b_id(db, st, 3, b->module_id);
    b_i64(db, st, 4, (int64_t)b->image_addr);
    b_i64(db, st, 5, (int64_t)b->image_vmaddr);
    b_i64(db, st, 6, (int64_t)b->image_size);
    b_text(db, st, 7, b->name);
    b_text(db, st, 8, b->arch);
    b_text(db, st, 9, b->debug_file);
    b_i64(db, st, 10, b->n_frames);
    return step_done(db, st, NULL, err);
}

int tdb_stat_add(tdb_db *db, int64_t trace_id, const char *name, const int64_t *idx,
                 const char *severity, const char *source, int64_t value,
                 const char *description, tt_error *err)
{
    if (tdb__enum_check(TDB__E_SEVERITY, severity, err) ||
        tdb__enum_check(TDB__E_STAT_SOURCE, source, err))
        return TT_EINVAL;
    sqlite3_stmt *st = prep(db, ST_STAT_ADD,
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
    return step_done(db, st, NULL, err);
}

int tdb_mapping_find(tdb_db *db, const char *sha256, int64_t *id, tt_error *err)
{
    if (db->rec)
        return no_reads(err);
    sqlite3_stmt *st = prep(db, ST_MAP_FIND, "SELECT id FROM method_mapping WHERE sha256 = ?",
                            err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, sha256);
    int found, rc = step_int(db, st, &found, id, err);
    return rc ? rc : found;
}

int tdb_mapping_add(tdb_db *db, const char *sha256, const char *path, int64_t method_count,
                    const char *retrace_sha256, int64_t *id, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_MAP_ADD,
                            "INSERT INTO method_mapping (sha256, path, method_count, "
                            "retrace_sha256) VALUES (?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, sha256);
    b_text(db, st, 2, path);
    b_i64(db, st, 3, method_count);
    b_text(db, st, 4, retrace_sha256);
    return step_done(db, st, id, err);
}

int tdb_method_add(tdb_db *db, int64_t mapping_id, const tt_method *m, const char *name,
                   int64_t *id, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_METHOD_ADD,
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
    return step_done(db, st, id, err);
}

int tdb_method_each(tdb_db *db, int64_t mapping_id,
                    void (*fn)(void *ctx, uint32_t method_id, int64_t row_id), void *ctx,
                    tt_error *err)
{
    if (db->rec)
        return no_reads(err);
    sqlite3_stmt *st = prep(db, ST_METHOD_EACH,
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
    sqlite3_stmt *st = prep(db, ST_PROCESS_ADD,
                            "INSERT INTO process (trace_id, pid, name) VALUES (?,?,?)", err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_int(db, st, 2, pid != NULL, pid ? *pid : 0);
    b_text(db, st, 3, name);
    return step_done(db, st, upid, err);
}

int tdb_thread_add(tdb_db *db, int64_t trace_id, int64_t upid, const int64_t *tid,
                   const char *name, int is_main, int64_t *utid, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_THREAD_ADD,
                            "INSERT INTO thread (trace_id, upid, tid, name, is_main_thread) "
                            "VALUES (?,?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_id(db, st, 2, upid);
    b_int(db, st, 3, tid != NULL, tid ? *tid : 0);
    b_text(db, st, 4, name);
    b_i64(db, st, 5, is_main ? 1 : 0);
    return step_done(db, st, utid, err);
}

int tdb_next_id(tdb_db *db, const char *table, int64_t *id, tt_error *err)
{
    const char *sql;
    if (!strcmp(table, "slice"))
        sql = "SELECT COALESCE(MAX(id), 0) + 1 FROM slice";
    else if (!strcmp(table, "call_node"))
        sql = "SELECT COALESCE(MAX(id), 0) + 1 FROM call_node";
    else if (!strcmp(table, "args"))
        sql = "SELECT COALESCE(MAX(arg_set_id), 0) + 1 FROM args";
    else
        return tt_error_set(err, TT_EINVAL, db->path, 0, 0, "no explicit ids for %s", table);
    int k = table[0] == 's' ? 0 : table[0] == 'c' ? 1 : 2;
    static const int slots[3] = {ST_SLICE_ADD, ST_NODE_ADD, ST_ARG_INT};
    if (db->rec)
        return tdb__rec_next_id(db->rec, slots[k], id, err);
    /* kept prepared: an importer asks once per stack it stores */
    if (!db->next_id_st[k] &&
        sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &db->next_id_st[k], NULL) !=
            SQLITE_OK)
        return tdb__sqlerr(db, err, "read");
    int found;
    return step_int(db, db->next_id_st[k], &found, id, err);
}

/* -1 means unknown for optional sampled-slice values */
static void b_opt(tdb_db *db, sqlite3_stmt *st, int i, int64_t v)
{
    b_int(db, st, i, v >= 0, v);
}

int tdb_slice_add(tdb_db *db, const tdb_slice *s, tt_error *err)
{
    if (tdb__enum_check(TDB__E_END_KIND, s->end_kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st = prep(db, ST_SLICE_ADD,
                            "INSERT INTO slice (id, trace_id, utid, ts, dur, depth, parent_id, "
                            "name, category, method_id, end_kind, self_dur, is_recursive, "
                            "frame_id, callsite_id, thread_dur, self_thread_dur, block_dur, "
                            "gap_before, gap_after, sample_count, msg_id, type, wakeup_utid, "
                            "alloc_objects, alloc_bytes, maj_flt, nv_csw, niv_csw, arg_set_id) "
                            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, s->id);
    b_ref(db, st, 2, s->trace_id);
    b_ref(db, st, 3, s->utid);
    b_i64(db, st, 4, s->ts);
    b_i64(db, st, 5, s->dur);
    b_i64(db, st, 6, s->depth);
    b_id(db, st, 7, s->parent_id);
    b_text(db, st, 8, s->name);
    b_text(db, st, 9, s->category);
    b_id(db, st, 10, s->method_id);
    b_text(db, st, 11, s->end_kind);
    b_i64(db, st, 12, s->self_dur);
    b_i64(db, st, 13, s->is_recursive ? 1 : 0);
    b_id(db, st, 14, s->frame_id);
    b_id(db, st, 15, s->callsite_id);
    b_opt(db, st, 16, s->thread_dur);
    b_opt(db, st, 17, s->self_thread_dur);
    b_opt(db, st, 18, s->block_dur);
    b_opt(db, st, 19, s->gap_before);
    b_opt(db, st, 20, s->gap_after);
    b_opt(db, st, 21, s->sample_count);
    b_int(db, st, 22, s->have_msg_id, s->msg_id);
    b_text(db, st, 23, s->type);
    b_id(db, st, 24, s->wakeup_utid);
    for (int k = 0; k < TT_CTR_COUNT; k++) /* columns in TT_CTR_* order */
        b_int(db, st, 25 + k, (s->ctr_known >> k) & 1, (int64_t)s->ctr[k]);
    b_id(db, st, 25 + TT_CTR_COUNT, s->arg_set_id);
    return step_done(db, st, NULL, err);
}

int tdb_arg_int(tdb_db *db, int64_t arg_set_id, const char *key, int64_t v, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_ARG_INT,
                            "INSERT INTO args (arg_set_id, key, value_type, int_value) "
                            "VALUES (?,?,'int',?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, arg_set_id);
    b_text(db, st, 2, key);
    b_i64(db, st, 3, v);
    return step_done(db, st, NULL, err);
}

int tdb_wakeup_add(tdb_db *db, int64_t trace_id, int64_t wakee_slice_id, int64_t waker_utid,
                   int64_t waker_ts, const char *kind, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_WAKEUP_ADD,
                            "INSERT INTO wakeup (trace_id, wakee_slice_id, waker_utid, waker_ts, "
                            "kind) VALUES (?,?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_ref(db, st, 2, wakee_slice_id);
    b_ref(db, st, 3, waker_utid);
    b_i64(db, st, 4, waker_ts);
    b_text(db, st, 5, kind);
    return step_done(db, st, NULL, err);
}

int tdb_frame_add(tdb_db *db, const tdb_frame *f, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_FRAME_KIND, f->kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st = prep(db, ST_FRAME_ADD,
                            "INSERT INTO stack_frame (trace_id, name, raw_name, kind, rel_pc, "
                            "module_id, symbol_set_id, file, line) VALUES (?,?,?,?,?,?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, f->trace_id);
    b_text(db, st, 2, f->name);
    b_text(db, st, 3, f->raw_name);
    b_text(db, st, 4, f->kind);
    b_int(db, st, 5, f->have_rel_pc, f->rel_pc);
    b_id(db, st, 6, f->module_id);
    b_id(db, st, 7, f->symbol_set_id);
    b_text(db, st, 8, f->file);
    b_int(db, st, 9, f->line > 0, f->line);
    return step_done(db, st, id, err);
}

int tdb_module_get(tdb_db *db, const tdb_module *m, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_MODULE_KIND, m->kind, err))
        return TT_EINVAL;
    if (db->rec) /* matched at replay */
        return tdb__rec_module(db->rec, m, id, err);
    sqlite3_stmt *st = prep(db, ST_MODULE_FIND,
                            "SELECT id FROM module WHERE build_id IS ? AND name = ?", err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, m->build_id);
    b_text(db, st, 2, m->name);
    int found, rc = step_int(db, st, &found, id, err);
    if (rc || found)
        return rc;
    st = prep(db, ST_MODULE_ADD,
              "INSERT INTO module (build_id, name, path, kind, has_debug_info) "
              "VALUES (?,?,?,?,?)",
              err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, m->build_id);
    b_text(db, st, 2, m->name);
    b_text(db, st, 3, m->path);
    b_text(db, st, 4, m->kind);
    b_int(db, st, 5, m->have_debug_info, m->has_debug_info);
    return step_done(db, st, id, err);
}

int tdb_symbolized_pc_add(tdb_db *db, int64_t module_id, int64_t rel_pc,
                          const tdb_symbol *frames, size_t n, int64_t *set_id, tt_error *err)
{
    if (db->rec) /* matched at replay */
        return tdb__rec_sympc(db->rec, module_id, rel_pc, frames, n, set_id, err);
    sqlite3_stmt *st = prep(db, ST_SYMPC_FIND,
                            "SELECT symbol_set_id FROM symbolized_pc "
                            "WHERE module_id = ? AND rel_pc = ?",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, module_id);
    b_i64(db, st, 2, rel_pc);
    int found, rc = step_int(db, st, &found, set_id, err);
    if (rc || found)
        return rc;
    if (!db->next_symbol_set) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(db->h, "SELECT COALESCE(MAX(symbol_set_id), 0) + 1 FROM symbol",
                               -1, &q, NULL) != SQLITE_OK)
            return tdb__sqlerr(db, err, "read");
        rc = step_int(db, q, &found, &db->next_symbol_set, err);
        sqlite3_finalize(q);
        if (rc)
            return rc;
    }
    *set_id = db->next_symbol_set++;
    st = prep(db, ST_SYMBOL_ADD,
              "INSERT INTO symbol (symbol_set_id, inline_depth, name, file, line, column_no, "
              "is_inlined, symbol_name, is_approximate) VALUES (?,?,?,?,?,?,?,?,?)",
              err);
    if (!st)
        return TT_EIO;
    for (size_t i = 0; i < n; i++) {
        const tdb_symbol *f = &frames[i];
        b_i64(db, st, 1, *set_id);
        b_i64(db, st, 2, (int64_t)i);
        b_text(db, st, 3, f->name ? f->name : "??");
        b_text(db, st, 4, f->file);
        b_int(db, st, 5, f->line > 0, f->line);
        b_int(db, st, 6, f->column > 0, f->column);
        b_i64(db, st, 7, f->is_inlined);
        b_text(db, st, 8, f->symbol_name);
        b_i64(db, st, 9, f->is_approximate);
        if ((rc = step_done(db, st, NULL, err)))
            return rc;
    }
    st = prep(db, ST_SYMPC_ADD,
              "INSERT INTO symbolized_pc (module_id, rel_pc, symbol_set_id) VALUES (?,?,?)", err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, module_id);
    b_i64(db, st, 2, rel_pc);
    b_i64(db, st, 3, *set_id);
    return step_done(db, st, NULL, err);
}

int tdb_callsite_add(tdb_db *db, int64_t trace_id, int64_t parent_id, int64_t depth,
                     int64_t frame_id, int64_t *id, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_CALLSITE_ADD,
                            "INSERT INTO callsite (trace_id, parent_id, depth, frame_id) "
                            "VALUES (?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_id(db, st, 2, parent_id);
    b_i64(db, st, 3, depth);
    b_ref(db, st, 4, frame_id);
    return step_done(db, st, id, err);
}

int tdb_sample_add(tdb_db *db, const tdb_sample *s, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_SAMPLE_ADD,
                            "INSERT INTO sample (trace_id, utid, ts, dur, callsite_id, count, "
                            "weight, type, event, msg_id, is_interval, is_blocking, thread_ts, "
                            "thread_dur) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, s->trace_id);
    b_ref(db, st, 2, s->utid);
    b_int(db, st, 3, s->have_ts, s->ts);
    b_i64(db, st, 4, s->dur);
    b_ref(db, st, 5, s->callsite_id);
    b_i64(db, st, 6, s->count);
    b_i64(db, st, 7, s->weight);
    b_text(db, st, 8, s->type ? s->type : "cpu");
    b_text(db, st, 9, s->event);
    b_int(db, st, 10, s->have_msg_id, s->msg_id);
    b_i64(db, st, 11, s->is_interval ? 1 : 0);
    b_i64(db, st, 12, s->is_blocking ? 1 : 0);
    b_int(db, st, 13, s->have_thread, s->thread_ts);
    b_int(db, st, 14, s->have_thread, s->thread_dur);
    return step_done(db, st, NULL, err);
}

int tdb_tree_add(tdb_db *db, int64_t trace_id, const char *kind, int64_t issue_id,
                 int64_t utid, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_TREE_KIND, kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st = prep(db, ST_TREE_ADD,
                            "INSERT INTO call_tree (trace_id, kind, issue_id, utid) "
                            "VALUES (?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_text(db, st, 2, kind);
    b_id(db, st, 3, issue_id);
    b_id(db, st, 4, utid);
    return step_done(db, st, id, err);
}

int tdb_node_add(tdb_db *db, const tdb_node *n, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_NODE_ADD,
                            "INSERT INTO call_node (id, tree_id, parent_id, depth, ordinal, "
                            "name, method_id, count, total_dur, self_dur, self_count) "
                            "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, n->id);
    b_ref(db, st, 2, n->tree_id);
    b_id(db, st, 3, n->parent_id);
    b_i64(db, st, 4, n->depth);
    b_i64(db, st, 5, n->ordinal);
    b_text(db, st, 6, n->name);
    b_id(db, st, 7, n->method_id);
    b_i64(db, st, 8, n->count);
    b_int(db, st, 9, n->have_dur, n->total_dur);
    b_int(db, st, 10, n->have_dur, n->self_dur);
    b_int(db, st, 11, n->have_self_count, n->self_count);
    return step_done(db, st, NULL, err);
}

int tdb_issue_add(tdb_db *db, const tdb_issue *i, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_ISSUE_KIND, i->kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st = prep(db, ST_ISSUE_ADD,
                            "INSERT INTO issue (trace_id, tag, detail, kind, scene, "
                            "process_name, report_unix_ms, cost_ms, sub_type, stack_key_raw, "
                            "stack_key_method_id, stack_key, stack_key_path, is_foreground, "
                            "thread_stack, utid, ts, raw_json) "
                            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, i->trace_id);
    b_text(db, st, 2, i->tag);
    b_text(db, st, 3, i->detail);
    b_text(db, st, 4, i->kind);
    b_text(db, st, 5, i->scene);
    b_text(db, st, 6, i->process_name);
    b_int(db, st, 7, i->have_report_time, i->report_unix_ms);
    b_int(db, st, 8, i->have_cost, i->cost_ms);
    b_int(db, st, 9, i->have_sub_type, i->sub_type);
    b_text(db, st, 10, i->stack_key_raw);
    b_id(db, st, 11, i->stack_key_method_id);
    b_text(db, st, 12, i->stack_key);
    b_text(db, st, 13, i->stack_key_path);
    b_int(db, st, 14, i->have_foreground, i->is_foreground);
    b_text(db, st, 15, i->thread_stack);
    b_id(db, st, 16, i->utid);
    b_int(db, st, 17, i->have_ts, i->ts);
    b_text(db, st, 18, i->raw_json ? i->raw_json : "{}");
    return step_done(db, st, id, err);
}

int tdb_issue_set_tree(tdb_db *db, int64_t issue_id, int64_t tree_id, tt_error *err)
{
    sqlite3_stmt *st =
        prep(db, ST_ISSUE_TREE, "UPDATE issue SET call_tree_id = ? WHERE id = ?", err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, tree_id);
    b_ref(db, st, 2, issue_id);
    return step_done(db, st, NULL, err);
}

int tdb_ui_frame_add(tdb_db *db, const tdb_ui_frame *f, tt_error *err)
{
    if (tdb__enum_check(TDB__E_DROP_LEVEL, f->drop_level, err))
        return TT_EINVAL;
    sqlite3_stmt *st = prep(db, ST_UI_FRAME_ADD,
                            "INSERT INTO ui_frame (trace_id, utid, scene, ts, dur, interval_dur, "
                            "expected_dur, busy_dur, dropped_frames, drop_level, is_jank, is_slow, "
                            "is_frozen, vsync_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
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
    return step_done(db, st, NULL, err);
}

int tdb_scene_stats_add(tdb_db *db, const tdb_scene_stats *s, tt_error *err)
{
    sqlite3_stmt *st =
        prep(db, ST_SCENE_STATS_ADD,
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
    b_int(db, st, 5, s->have_window, s->dur);
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
    return step_done(db, st, NULL, err);
}

int tdb_startup_add(tdb_db *db, const tdb_startup *s, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_STARTUP_KIND, s->kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st =
        prep(db, ST_STARTUP_ADD,
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
    return step_done(db, st, id, err);
}

int tdb_segment_add(tdb_db *db, int64_t startup_id, int ordinal, const char *name,
                    const char *from_event, const char *to_event, int have_ts, int64_t ts,
                    int64_t dur, tt_error *err)
{
    sqlite3_stmt *st = prep(db, ST_SEGMENT_ADD,
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
    return step_done(db, st, NULL, err);
}

int tdb_launch_add(tdb_db *db, const tdb_launch *l, tt_error *err)
{
    if (tdb__enum_check(TDB__E_LAUNCH_SOURCE, l->source, err))
        return TT_EINVAL;
    sqlite3_stmt *st = prep(db, ST_LAUNCH_ADD,
                            "INSERT INTO launch (trace_id, source, component, launch_state, "
                            "status, total_ms, wait_ms, this_ms, fully_drawn_ms, log_time) "
                            "VALUES (?,?,?,?,?,?,?,?,?,?)",
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
    return step_done(db, st, NULL, err);
}
