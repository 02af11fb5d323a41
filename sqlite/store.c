/* The write path of the tracetool database (storage.md 5 and 6): build aside and rename
 * atomically, or append in one transaction; schema versions and migrations; savepoints. The
 * typed row writers (store_*.c) use the persistent prepared statements of stmt.c. */
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
    int (*fill)(tdb_db *db, int64_t first_id, tt_error *err); /* after sql: values to compute */
} migrations[] = {
    /* 1 -> 2: the source location an input gives for a frame */
    {1, "ALTER TABLE stack_frame ADD COLUMN file TEXT; "
        "ALTER TABLE stack_frame ADD COLUMN line INTEGER;", NULL},
    /* 2 -> 3: the Mach-O images of iOS reports (spec/ios.md 10) */
    {2, "CREATE TABLE binary_image (trace_id INTEGER NOT NULL REFERENCES trace(id) ON DELETE "
        "CASCADE, report_id TEXT NOT NULL, module_id INTEGER REFERENCES module(id), "
        "image_addr INTEGER NOT NULL, image_vmaddr INTEGER NOT NULL, image_size INTEGER NOT "
        "NULL, name TEXT NOT NULL, arch TEXT, debug_file TEXT, n_frames INTEGER NOT NULL "
        "DEFAULT 0, PRIMARY KEY (trace_id, report_id, image_addr));", NULL},
    /* 3 -> 4: args of threads and call nodes (spec/ios.md 10: task index, sample_background);
     * launches that are no launch ("Activity not started") or were cut off (no "Complete"),
     * so statistics over the table can leave them out (startup.md 4.4); a mapping's identity
     * is its sha256 with the retrace mapping's (the method names differ): the table is
     * rebuilt without the UNIQUE on sha256 alone (SQLite cannot drop a column's constraint),
     * ids kept, so the references of method and trace stay; the connection has foreign keys
     * off (the DROP would otherwise delete the methods) */
    {3, "ALTER TABLE thread ADD COLUMN arg_set_id INTEGER; "
        "ALTER TABLE call_node ADD COLUMN arg_set_id INTEGER; "
        "ALTER TABLE launch ADD COLUMN not_launched INTEGER; "
        "ALTER TABLE launch ADD COLUMN incomplete INTEGER; "
        "CREATE TABLE method_mapping_v4 (id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL, path "
        "TEXT NOT NULL, method_count INTEGER NOT NULL, retrace_sha256 TEXT); "
        "INSERT INTO method_mapping_v4 (id, sha256, path, method_count, retrace_sha256) "
        "SELECT id, sha256, path, method_count, retrace_sha256 FROM method_mapping; "
        "DROP TABLE method_mapping; "
        "ALTER TABLE method_mapping_v4 RENAME TO method_mapping; "
        "CREATE UNIQUE INDEX method_mapping_pair ON method_mapping(sha256, retrace_sha256);", NULL},
    /* 4 -> 5: the methods an ignoreMethodMapping.txt lists (method-beat.md 4.3) */
    {4, "CREATE TABLE ignored_method (id INTEGER PRIMARY KEY, mapping_id INTEGER NOT NULL "
        "REFERENCES method_mapping(id) ON DELETE CASCADE, class_name TEXT NOT NULL, "
        "method_name TEXT NOT NULL, descriptor TEXT, name TEXT NOT NULL); "
        "CREATE UNIQUE INDEX ignored_method_name ON ignored_method(mapping_id, class_name, "
        "method_name, descriptor);", NULL},
    /* 5 -> 6: the call nodes nested in a call of the same method (top_stack_methods) */
    {5, "ALTER TABLE call_node ADD COLUMN is_recursive INTEGER NOT NULL DEFAULT 0;",
     tdb__node_recursion},
};

/* The steps from version on, inside the open transaction. Then, at any version: the
 * indexes on expressions that tracetool wrote into schemas 4 to 6 before it kept to SQLite
 * 3.8.3 (storage.md 1; an older SQLite cannot read any table of such a file) are replaced
 * by unique indexes on the columns (unique as the old ones were: two NULLs are distinct to
 * them, and the writers keep those rows unique). Nothing is written when there are none. */
static int run_migrations(tdb_db *db, int64_t version, tt_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < sizeof migrations / sizeof migrations[0] && !rc; i++) {
        if (migrations[i].from < version)
            continue;
        rc = tdb__exec(db, migrations[i].sql, err);
        if (!rc && migrations[i].fill)
            rc = migrations[i].fill(db, INT64_MIN, err);
    }
    if (!rc)
        rc = tdb__exec(db,
                       "DROP INDEX IF EXISTS method_mapping_key; "
                       "DROP INDEX IF EXISTS ignored_method_key; "
                       "CREATE UNIQUE INDEX IF NOT EXISTS method_mapping_pair ON "
                       "method_mapping(sha256, retrace_sha256); "
                       "CREATE UNIQUE INDEX IF NOT EXISTS ignored_method_name ON "
                       "ignored_method(mapping_id, class_name, method_name, descriptor);",
                       err);
    return rc;
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

/* "gzip" (or zstd, xz) when the file starts with that compressor's magic, else NULL. */
static const char *compressed(const char *path)
{
    unsigned char m[6] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
        return "gzip";
    if (n >= 4 && !memcmp(m, "\x28\xb5\x2f\xfd", 4))
        return "zstd";
    if (n >= 6 && !memcmp(m, "\xfd" "7zXZ\0", 6))
        return "xz";
    return NULL;
}

/* The known format of a file SQLite refused ("ELF executable", "PNG image"), from its first
 * TT_DETECT_PEEK bytes; NULL when none, unreadable or an SQLite file. Static text. */
static const char *foreign(const char *path)
{
    unsigned char *p = malloc(TT_DETECT_PEEK);
    FILE *f = p ? fopen(path, "rb") : NULL;
    const char *what = NULL;
    if (f) {
        size_t n = fread(p, 1, TT_DETECT_PEEK, f);
        fclose(f);
        /* an SQLite file SQLite refused is corrupt, whoever wrote it */
        what = n >= 16 && !memcmp(p, "SQLite format 3", 16) ? NULL : tt_detect_foreign(p, n);
    }
    free(p);
    return what;
}

int tdb__check_header(tdb_db *db, int64_t *version, tt_error *err)
{
    int64_t app, ntab;
    int rc = pragma_int(db, "PRAGMA application_id", &app, err);
    const char *z = rc ? compressed(db->path) : NULL;
    if (z) /* SQLite reads a database in place, by seeking: it cannot be decompressed on the fly */
        return tt_error_set(err, TT_EFORMAT, db->path, 0, 0,
                            "a %s-compressed file, not a database: decompress it first", z);
    const char *what = rc && !z ? foreign(db->path) : NULL;
    if (what) /* a known format (tracetool(1) INPUT): said as the trace commands say it */
        return tt_error_set(err, TT_EFORMAT, db->path, 0, 0, "not a tracetool database: %s",
                            what);
    if (rc && tdb__busy(db->h)) /* another process writing it, through the 5 s wait */
        return tt_error_set(err, TT_EIO, db->path, 0, 0, TDB_LOCKED_MSG);
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
    if (*version == 0 && ntab > 0) /* not empty: a schema of unknown version */
        return tt_error_set(err, TT_EFORMAT, db->path, 0, 0,
                            "a tracetool database whose schema version (PRAGMA user_version) "
                            "is 0 although it holds tables: its header was changed; set "
                            "user_version back to the version that wrote it (1 to %d) or "
                            "analyze its inputs again",
                            TDB_SCHEMA_VERSION);
    return 0;
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
    /* views first: a table rebuilt (3 -> 4) is renamed, which SQLite refuses while a view
     * names the table it replaces */
    int rc = drop_views(db, err);
    if (!rc)
        rc = run_migrations(db, version, err);
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

/* The database that replaces an existing file keeps its owner and group (when permitted:
 * as root, or a group of ours) and its mode, as export's outputs do (cli_out_file_open).
 * Created 0600, nobody else can open it before it has the old file's mode; the owner may
 * read and write it while it is built (SQLite opens it again by name); the exact mode is set
 * before the rename (tdb_commit). */
static void keep_owner(tdb_db *db, int fd, const struct stat *sb)
{
    if (fchown(fd, sb->st_uid, sb->st_gid) && fchown(fd, (uid_t)-1, sb->st_gid)) {
        /* not permitted: the file stays ours, in our group */
    }
    db->keep_mode = 1;
    db->mode = (unsigned)sb->st_mode & 07777;
    /* after fchown, which clears the set-user-ID and set-group-ID bits */
    (void)fchmod(fd, (mode_t)(db->mode | S_IRUSR | S_IWUSR));
}

/* Whether the SQLite write-ahead log beside path holds anything. */
static int wal_nonempty(const char *path)
{
    size_t n = strlen(path) + 8;
    char *wal = malloc(n);
    struct stat sb;
    int r = 1; /* out of memory: assume it does */
    if (wal) {
        snprintf(wal, n, "%s-wal", path);
        r = !stat(wal, &sb) && sb.st_size > 0;
        free(wal);
    }
    return r;
}

/* A file that -o would replace must be a tracetool database (or empty): a mistyped -o
 * (analyze -o methodMapping.txt ...) must not turn someone's mapping, trace or other program's
 * database into ours. An SQLite file without tracetool's application_id counts as empty only
 * when it is one page at most and its write-ahead log is empty (another program's rows may
 * be in the log only); the header's page count is not trusted (SQLite before 3.7.0 left it
 * 0). A file that cannot be read is refused: nothing else would check it, as the rename
 * only needs the directory. */
int tdb_check_replace(const char *path, tt_error *err)
{
    struct stat sb;
    if (stat(path, &sb) || !S_ISREG(sb.st_mode) || sb.st_size == 0)
        return 0; /* created; a non-regular file is refused by the caller */
    unsigned char h[100] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return tt_error_set(err, TT_EIO, path, 0, 0,
                            "exists and cannot be read (%s), so it cannot be checked to be a "
                            "tracetool database: refusing to replace it",
                            strerror(errno));
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    char what[160] = "";
    const char *z;
    if (n == sizeof h && !memcmp(h, "SQLite format 3", 16)) {
        uint32_t app = (uint32_t)h[68] << 24 | (uint32_t)h[69] << 16 | (uint32_t)h[70] << 8 | h[71];
        unsigned psize = (unsigned)h[16] << 8 | h[17];
        if (psize == 1)
            psize = 65536;
        if (app == TDB_APPLICATION_ID ||
            (app == 0 && sb.st_size <= (off_t)psize && !wal_nonempty(path)))
            return 0;
        snprintf(what, sizeof what, " (an SQLite database of another program: application_id %lu)",
                 (unsigned long)app);
    } else if ((z = compressed(path))) {
        snprintf(what, sizeof what, " (%s-compressed)", z);
    } else if ((z = foreign(path))) {
        snprintf(what, sizeof what, " (%s)", z);
    }
    return tt_error_set(err, TT_EINVAL, path, 0, 0,
                        "exists and is not a tracetool database%s: refusing to replace it; "
                        "remove it first or write to another file",
                        what);
}

static int open_new(tdb_db *db, tt_error *err)
{
    no_memstatus();
    size_t n = strlen(db->path) + 32;
    db->tmp = malloc(n);
    if (!db->tmp)
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    /* fail early and clearly when the directory is not writable */
    struct stat sb;
    int replace = stat(db->path, &sb) == 0 && S_ISREG(sb.st_mode);
    if (replace && !db->copy && tdb_check_replace(db->path, err)) {
        free(db->tmp);
        db->tmp = NULL;
        return TT_EINVAL;
    }
    /* held while the file is built: another run's sweep leaves it whatever our PID looks
     * like from there (tt_remove_stale_tmp). The descriptor stays open until SQLite's
     * connection is closed, as closing one drops the fcntl locks SQLite holds on the file. */
    int fd = tt_tmp_create(db->tmp, n, db->path, -1, replace ? 0600 : 0644, NULL);
    if (fd < 0) {
        int e = errno;
        free(db->tmp);
        db->tmp = NULL;
        return tt_error_set(err, TT_EIO, db->path, 0, 0, "cannot create the database: %s",
                            strerror(e));
    }
    if (replace)
        keep_owner(db, fd, &sb);
    db->tmp_fd = fd;
    db->tmp_held = 1;
    /* URIs: merge attaches a source in a read-only directory as an immutable file */
    if (tdb__open(db->tmp, &db->h,
                  SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI) != SQLITE_OK)
        return tdb__sqlerr(db, err, "cannot create the database");
    int rc = tdb__exec(db,
                       "PRAGMA page_size=8192; PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF;"
                       "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-65536;"
                       "PRAGMA foreign_keys=OFF; PRAGMA ignore_check_constraints=ON;",
                       err);
    if (!rc)
        rc = tdb__exec(db, db->temp_file ? "PRAGMA temp_store=FILE" : "PRAGMA temp_store=MEMORY",
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
    int tidy = tdb__wal_absent(db->path);
    int rc = tdb__open(db->path, &from, SQLITE_OPEN_READONLY);
    const char *why = NULL; /* the step's error is the backup's, not a connection's */
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(from, 5000);
        sqlite3_backup *b = sqlite3_backup_init(db->h, "main", from, "main");
        if (b) {
            rc = sqlite3_backup_step(b, -1);
            sqlite3_backup_finish(b);
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            why = sqlite3_errstr(rc);
        } else {
            rc = SQLITE_ERROR;
        }
    }
    if (rc != SQLITE_OK) {
        tt_error_set(err, TT_EIO, db->path, 0, 0, "cannot copy the database: %s",
                     why ? why : sqlite3_errmsg(from ? from : db->h));
        sqlite3_close(from);
        if (tidy)
            tdb__wal_tidy(db->path);
        return TT_EIO;
    }
    sqlite3_close(from);
    if (tidy)
        tdb__wal_tidy(db->path);
    int64_t version;
    if ((rc = tdb__check_header(db, &version, err)) ||
        (version <= TDB_SCHEMA_VERSION && (rc = tdb__check_content(db, version, 1, err))))
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
    rc = drop_views(db, err); /* before a table is rebuilt (migrate) */
    return rc ? rc : run_migrations(db, version, err);
}

static int open_append(tdb_db *db, tt_error *err)
{
    no_memstatus();
    if (tdb__open(db->path, &db->h, SQLITE_OPEN_READWRITE) != SQLITE_OK)
        return tdb__sqlerr(db, err, "cannot open the database");
    sqlite3_busy_timeout(db->h, 5000);
    int64_t version;
    int rc = tdb__check_header(db, &version, err);
    if (!rc && version <= TDB_SCHEMA_VERSION)
        rc = tdb__check_content(db, version, 1, err);
    if (rc)
        return rc;
    if (version > TDB_SCHEMA_VERSION)
        return tt_error_set(err, TT_EUNSUPPORTED, db->path, 0, 0,
                            "written by a newer tracetool; schema %lld > %d", (long long)version,
                            TDB_SCHEMA_VERSION);
    /* foreign keys stay off for a migration that rebuilds a table (3 -> 4): DROP TABLE would
     * delete the rows that refer to it (PRAGMA foreign_keys is fixed once BEGIN ran). The
     * migration and the import are one transaction (a failed run changes nothing), so the
     * import runs with them off too: tdb_trace_delete then deletes a trace's rows itself. */
    db->fk_off = version && version < 4;
    if ((rc = tdb__exec(db,
                        db->fk_off ? "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=OFF;"
                                   : "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;",
                        err)) ||
        (rc = tdb__exec(db, "PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY;", err)))
        return rc;
    if ((rc = tdb__exec(db, "BEGIN IMMEDIATE", err)))
        return rc;
    db->in_tx = 1;
    /* checked before this transaction writes anything: no writer can commit while it holds
     * the write lock, so an empty log holds no other connection's commit until ours */
    size_t n = strlen(db->path);
    char *wal = malloc(n + 5);
    if (!wal)
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    memcpy(wal, db->path, n);
    memcpy(wal + n, "-wal", 5);
    struct stat ws;
    db->wal_empty = stat(wal, &ws) != 0 ? errno == ENOENT : ws.st_size == 0;
    free(wal);
    if (version == 0)
        rc = create_schema(db, err);
    else if (version < TDB_SCHEMA_VERSION)
        rc = migrate(db, version, err);
    else if (!(rc = drop_views(db, err)) && /* a fixed view reaches databases written before */
             !(rc = run_migrations(db, version, err))) /* no step: the indexes */
        rc = tdb__exec(db, tdb_sql_views, err);
    return rc;
}

int tdb_open_write(tdb_db **out, const char *path, int append, tt_error *err)
{
    *out = NULL;
    tdb_db *db = NULL;
    int rc = db_alloc(&db, path, err);
    if (rc)
        return rc;
    tt_remove_stale_tmp(path);
    db->temp_file = (append & TDB_WRITE_TEMP_FILE) && !(append & TDB_WRITE_APPEND);
    append &= ~TDB_WRITE_TEMP_FILE;
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

int tdb_wal_empty(const tdb_db *db) { return !db->tmp && db->wal_empty; }

static int fsync_path(const char *p, int dir)
{
    int fd = open(p, (dir ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int r = fsync(fd);
    close(fd);
    return r;
}

void tdb_set_threads(tdb_db *db, int n) { db->sort_threads = n < 0 ? 0 : n; }

/* The indexes of a new database. With helper threads, SQLite's sorter cuts the keys into
 * runs of 2 MiB (its minimum, set through cache_size: every page is dirty in this
 * transaction, and cache_spill keeps them all in memory) that helpers sort and merge beside
 * the writer; it needs temporary files for that (SQLite tries $SQLITE_TMPDIR, $TMPDIR,
 * /var/tmp, /usr/tmp, /tmp and the current directory). The index pages do not depend on how
 * the keys were sorted, so the file is the one a single thread writes. */
static int create_indexes(tdb_db *db, tt_error *err)
{
    if (!db->tmp || db->copy || !db->sort_threads)
        return tdb__exec(db, tdb_sql_indexes, err);
    char sql[160];
    snprintf(sql, sizeof sql, "PRAGMA cache_spill=%d; PRAGMA temp_store=FILE; PRAGMA threads=%d;"
             "PRAGMA cache_size=-2048;", INT32_MAX, db->sort_threads);
    /* SQLite undoes at most the failing statement of the script (or, on some errors, the
     * whole transaction): the savepoint undoes every index of this build, whose journal is
     * in memory (the transaction began with temp_store=MEMORY) */
    int rc = tdb__exec(db, "SAVEPOINT tt_index", err);
    if (!rc && !(rc = tdb__exec(db, sql, err)))
        rc = tdb__exec(db, tdb_sql_indexes, err);
    int code = rc ? sqlite3_extended_errcode(db->h) & 0xff : SQLITE_OK;
    int rc2 = tdb__exec(db,
                        db->temp_file
                            ? "PRAGMA threads=0; PRAGMA temp_store=FILE; PRAGMA cache_size=-65536;"
                            : "PRAGMA threads=0; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536;",
                        rc ? NULL : err);
    if (!rc)
        return rc2 ? rc2 : tdb__exec(db, "RELEASE tt_index", err);
    if (rc2 || (code != SQLITE_FULL && code != SQLITE_IOERR && code != SQLITE_CANTOPEN))
        return rc;
    /* the temporary directory is full or unusable (the database's own disk is checked by the
     * retry): the keys are sorted in memory by this thread, as without --jobs. A disk-full
     * or I/O error rolled back the whole transaction, the index build only when the rows were
     * committed before it (tdb_commit_rows); otherwise the rows are gone and the run fails. */
    if (sqlite3_get_autocommit(db->h)) {
        db->in_tx = 0;
        if (!db->rows_committed) {
            char m[TT_ERRMSG_MAX];
            snprintf(m, sizeof m, "%s", err ? err->msg : "");
            return tt_error_set(err, TT_EIO, db->path, 0, 0,
                                "%s: sorting the indexes needs space in the temporary directory "
                                "($SQLITE_TMPDIR, $TMPDIR or /tmp): free some or point TMPDIR "
                                "elsewhere",
                                m);
        }
        if ((rc = tdb__exec(db, "BEGIN IMMEDIATE", err)))
            return rc;
        db->in_tx = 1;
    } else if ((rc = tdb__exec(db, "ROLLBACK TO tt_index; RELEASE tt_index", err))) {
        return rc;
    }
    /* the rollback reloaded the schema, and with it went what the summary's plans asked of
     * PRAGMA optimize (tdb_commit_rows): asked again, the file is the one --jobs 1 writes */
    if (db->rows_committed && (rc = tdb__summary_plan(db, err)))
        return rc;
    return tdb__exec(db, tdb_sql_indexes, err);
}

static void *sync_tmp(void *arg)
{
    fsync_path(((tdb_db *)arg)->tmp, 0); /* tdb_commit fsyncs again and checks */
    return NULL;
}

static void sync_join(tdb_db *db)
{
    if (db->syncing)
        pthread_join(db->syncer, NULL);
    db->syncing = 0;
}

/* Indexes, views (new file), schema version: what the transaction adds before COMMIT. */
static int finish_schema(tdb_db *db, tt_error *err)
{
    if (db->indexed)
        return 0;
    db->indexed = 1;
    int rc = create_indexes(db, err);
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
    return rc;
}

int tdb_method_index(tdb_db *db, tt_error *err)
{
    return tdb__exec(db, "CREATE INDEX IF NOT EXISTS method_by_name ON method(name)", err);
}

int tdb_commit_rows(tdb_db *db, tdb_db **reader, tt_error *err)
{
    *reader = NULL;
    if (!db->tmp || db->copy || db->rows_committed)
        return 0;
    /* the lock is dropped at the end of the transaction, so that a second connection reads
     * the rows while this one writes the indexes */
    int rc = tdb__exec(db, "PRAGMA locking_mode=NORMAL; COMMIT", err);
    if (rc)
        return rc;
    db->in_tx = 0;
    db->rows_committed = 1;
    sqlite3_busy_timeout(db->h, 5000); /* its COMMIT waits for the reader to finish */
    tdb_db *rd = calloc(1, sizeof *rd);
    if (!rd || !(rd->path = strdup(db->path))) {
        free(rd);
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    }
    rd->readonly = 1;
    *reader = rd;
    if (tdb__open(db->tmp, &rd->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX) != SQLITE_OK)
        return tdb__sqlerr(rd, err, "cannot open the database");
    sqlite3_busy_timeout(rd->h, 5000);
    /* a small cache: the summary scans each table once, and with the writer's cache (every
     * row still there) the run would need more memory than when it read them itself */
    if ((rc = tdb__exec(rd, "PRAGMA query_only = ON; PRAGMA cache_size=-512;"
                            "PRAGMA temp_store=MEMORY", err)))
        return rc;
    /* PRAGMA optimize (tdb_commit) analyses the tables this connection's queries would have
     * liked statistics for: the run's summary, read before the indexes existed */
    if ((rc = tdb__summary_plan(db, err)) || (rc = tdb__exec(db, "BEGIN IMMEDIATE", err)))
        return rc;
    db->in_tx = 1;
    /* the rows' pages start their way to the disk while the indexes are built */
    if (db->sort_threads && !pthread_create(&db->syncer, NULL, sync_tmp, db))
        db->syncing = 1;
    return 0;
}

int tdb_build_indexes(tdb_db *db, tt_error *err)
{
    return db->rows_committed && db->in_tx ? finish_schema(db, err) : 0;
}

/* The target's write-ahead log, when it still holds frames (a writer of the old file that
 * was killed, or another program's connection), would be read as the log of the file renamed
 * over it and corrupt it: the frames go into the old file first (whose committed content the
 * new file already has). A log that another connection keeps in use is an error. */
static int settle_target_wal(tdb_db *db, tt_error *err)
{
    struct stat sb;
    size_t n = strlen(db->path) + 8;
    char *wal = malloc(n);
    if (!wal)
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    snprintf(wal, n, "%s-wal", db->path);
    int stale = !stat(wal, &sb) && sb.st_size > 0;
    if (stale && stat(db->path, &sb) && errno == ENOENT) { /* the log of a deleted file */
        unlink(wal);
        snprintf(wal, n, "%s-shm", db->path);
        unlink(wal);
        stale = 0;
    }
    free(wal);
    if (!stale)
        return 0;
    sqlite3 *h = NULL;
    int busy = 1;
    if (tdb__open(db->path, &h, SQLITE_OPEN_READWRITE) == SQLITE_OK) {
        sqlite3_busy_timeout(h, 5000);
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(h, "PRAGMA wal_checkpoint(TRUNCATE)", -1, &st, NULL) == SQLITE_OK) {
            if (sqlite3_step(st) == SQLITE_ROW)
                busy = sqlite3_column_int(st, 0);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(h);
    if (busy)
        return tt_error_set(err, TT_EIO, db->path, 0, 0,
                            "its write-ahead log %s-wal is in use by another process: close it "
                            "and run again",
                            db->path);
    return 0;
}

int tdb_commit(tdb_db *db, tt_error *err)
{
    int rc = finish_schema(db, err);
    if (!rc && db->in_tx)
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
    sync_join(db);
    if (fsync_path(db->tmp, 0))
        return tt_error_set(err, TT_EIO, db->path, 0, 0, "fsync: %s", strerror(errno));
    if ((rc = settle_target_wal(db, err)))
        return rc;
    /* a file system without modes refuses it: the mode open_new gave it stays */
    if (db->keep_mode)
        (void)chmod(db->tmp, (mode_t)db->mode);
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
    sync_join(db);
    for (int i = 0; i < ST__COUNT; i++)
        sqlite3_finalize(db->st[i]);
    sqlite3_finalize(db->next_id_st[0]);
    sqlite3_finalize(db->next_id_st[1]);
    sqlite3_finalize(db->next_id_st[2]);
    tdb__rec_free(db->rec);
    tdb__npath_free(&db->npath);
    if (db->h && db->in_tx)
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    if (db->h)
        sqlite3_close(db->h);
    if (db->tmp_held)
        close(db->tmp_fd);
    if (db->wal_tidy)
        tdb__wal_tidy(db->path);
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
