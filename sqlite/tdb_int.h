/* sqlite/ internal declarations, shared by the files of sqlite/ only. */
#ifndef TDB_INT_H
#define TDB_INT_H

#include <sqlite3.h>

#include <pthread.h>

#include "tdb.h"

enum {
    ST_TRACE_FIND, ST_TRACE_ADD, ST_INPUT_ADD, ST_META_ADD, ST_STAT_ADD,
    ST_MAP_FIND, ST_MAP_ADD, ST_METHOD_ADD, ST_METHOD_EACH, ST_PROCESS_ADD, ST_THREAD_ADD,
    ST_SLICE_ADD, ST_TREE_ADD, ST_NODE_ADD, ST_ISSUE_ADD, ST_ISSUE_TREE, ST_UI_FRAME_ADD,
    ST_SCENE_STATS_ADD, ST_STARTUP_ADD, ST_SEGMENT_ADD, ST_LAUNCH_ADD,
    ST_FRAME_ADD, ST_CALLSITE_ADD, ST_SAMPLE_ADD, ST_WAKEUP_ADD, ST_ARG_INT,
    ST_MODULE_FIND, ST_MODULE_ADD, ST_SYMPC_FIND, ST_SYMBOL_ADD, ST_SYMPC_ADD,
    ST_BINIMG_ADD, ST_MODULE_UPDATE, ST_IGNORED_ADD,
    ST__COUNT
};

/* The path of the call tree being written (node_path.c): per name the count of its nodes on
 * it. Zeroed = empty; tdb__npath_free empties it. */
typedef struct tdb__npath {
    tt_vec path, active;
    tt_intern *names;
} tdb__npath;
/* Adds node id below parent (has_parent = 0: a root); *nested = 1 when a node of the same
 * name (n bytes; NULL: no name) is on its path. TT_ENOMEM on out of memory. */
int tdb__npath_add(tdb__npath *p, int64_t id, int has_parent, int64_t parent, const char *name,
                   size_t n, int *nested);
void tdb__npath_free(tdb__npath *p);

struct tdb_db {
    sqlite3 *h;
    char *path;     /* target */
    char *tmp;      /* temporary file being built, NULL when in place */
    int tmp_fd, tmp_held; /* tmp_held: tmp_fd holds tmp's flock (tt_tmp_hold) until the
                           * connection is closed (0 in every zeroed handle: no descriptor) */
    int in_tx, committed, readonly;
    int copy;       /* TDB_WRITE_COPY of an existing database */
    int temp_file;  /* TDB_WRITE_TEMP_FILE */
    int fk_off;     /* appending with foreign keys off (a 3 -> 4 migration); else
                     * tdb_trace_delete turns them off for its deletes only */
    int keep_mode;  /* tmp replaces a regular file: it gets mode (tdb_commit) */
    unsigned mode;  /* the replaced file's permission bits (& 07777) */
    int immutable;  /* read-only open that needed immutable=1 (no -shm possible) */
    int wal_tidy;   /* read-only open that found no -wal or -shm file (wal_tidy.c) */
    int wal_empty;  /* append: -wal absent or empty once BEGIN IMMEDIATE held (tdb_wal_empty) */
    int pragma_read; /* the statement being prepared reads a PRAGMA setting */
    int user_dml;    /* the statement being prepared inserts, updates or deletes rows */
    int args_watch;  /* tdb__args_gone(watch) ran (tdb_exec_user on a writable connection) */
    sqlite3_stmt *st[ST__COUNT];
    sqlite3_stmt *next_id_st[3]; /* tdb_next_id of slice, call_node, args */
    int64_t next_symbol_set; /* next symbol.symbol_set_id, 0 until first needed */
    struct tdb_rec *rec;     /* tdb_rec_new: rows are recorded, there is no connection */
    int rec_slot;            /* the statement slot of the row being recorded */
    int sort_threads;        /* tdb_set_threads */
    int rows_committed;      /* tdb_commit_rows ran */
    int indexed;             /* the indexes, views and version are written (finish_schema) */
    int syncing;             /* syncer: a helper thread fsyncing tmp (tdb_commit_rows) */
    pthread_t syncer;
    volatile sig_atomic_t *stop; /* tdb_merge_stop: set by a signal handler, stops a merge */
    tdb__npath npath;            /* tdb_node_add: the path of the tree being written */
};

/* Sets call_node.is_recursive of the nodes with id >= first_id (written without it: a
 * migrated database, a merged source of schema 5 or older), in one walk in id order. */
int tdb__node_recursion(tdb_db *db, int64_t first_id, tt_error *err);

/* Recording (rec.c): a row of statement slot, its values in bind order (i is the 1-based
 * parameter; have = 0 binds NULL), its end (rowid: a new recorded id of slot's table). A
 * reference (tdb__rec_ref) to a recorded id is replayed as the real id it got. */
typedef struct tdb_rec tdb_rec;
void tdb__rec_free(tdb_rec *r);
void tdb__rec_row(tdb_rec *r, int slot, const char *sql);
void tdb__rec_int(tdb_rec *r, int i, int have, int64_t v);
void tdb__rec_ref(tdb_rec *r, int i, int have, int64_t v);
void tdb__rec_text(tdb_rec *r, int i, const char *s);
void tdb__rec_real(tdb_rec *r, int i, int have, double v);
int tdb__rec_end(tdb_rec *r, int slot, int64_t *rowid, tt_error *err);
/* tdb_next_id (slot ST_SLICE_ADD, ST_NODE_ADD or ST_ARG_INT), tdb_module_get, tdb_symbolized_pc_add:
 * their lookups happen at replay. */
int tdb__rec_next_id(tdb_rec *r, int slot, int64_t *id, tt_error *err);
int tdb__rec_module(tdb_rec *r, const tdb_module *m, int64_t *id, tt_error *err);
int tdb__rec_sympc(tdb_rec *r, int64_t module_id, int64_t rel_pc, const tdb_symbol *f,
                   size_t n, int64_t *set_id, tt_error *err);

/* ---- statements of the row writers (stmt.c; the writers are store_*.c, the replay rec.c) ----
 * A recording handle (tdb_rec_new) has no connection: tdb__prep starts a recorded row, the
 * binders record values (references as references, so replay can give them their real
 * ids) and tdb__step_done ends the row. */
/* Prepared statement of slot (prepared on first use); NULL after filling err. */
sqlite3_stmt *tdb__prep(tdb_db *db, int slot, const char *sql, tt_error *err);
/* Steps a write and resets it; *rowid (may be NULL) gets the new row's id. */
int tdb__step_done(tdb_db *db, sqlite3_stmt *st, int64_t *rowid, tt_error *err);
/* Reads need the database: a recording handle refuses them (before recording anything). */
int tdb__no_reads(tt_error *err);
/* One integer result, or *found = 0. */
int tdb__step_int(tdb_db *db, sqlite3_stmt *st, int *found, int64_t *v, tt_error *err);
/* The binders of parameter i: static inline, so that each writer's per-column calls stay as
 * cheap as when the writers were one file. have = 0 binds NULL. */
static inline void b_text(tdb_db *db, sqlite3_stmt *st, int i, const char *s)
{
    if (db->rec)
        tdb__rec_text(db->rec, i, s);
    else if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}
static inline void b_int(tdb_db *db, sqlite3_stmt *st, int i, int have, int64_t v)
{
    if (db->rec)
        tdb__rec_int(db->rec, i, have, v);
    else if (have)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}
static inline void b_i64(tdb_db *db, sqlite3_stmt *st, int i, int64_t v) { b_int(db, st, i, 1, v); }
/* references to rows (ids); b_id: 0 means "no reference" */
static inline void b_ref(tdb_db *db, sqlite3_stmt *st, int i, int64_t id)
{
    if (db->rec)
        tdb__rec_ref(db->rec, i, 1, id);
    else
        sqlite3_bind_int64(st, i, id);
}
static inline void b_id(tdb_db *db, sqlite3_stmt *st, int i, int64_t id)
{
    if (db->rec)
        tdb__rec_ref(db->rec, i, id != 0, id);
    else
        b_int(db, st, i, id != 0, id);
}
static inline void b_real(tdb_db *db, sqlite3_stmt *st, int i, int have, double v)
{
    if (db->rec)
        tdb__rec_real(db->rec, i, have, v);
    else if (have)
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

/* The CHECK (column IN (...)) lists of the schema (check.c): a new database is built with
 * ignore_check_constraints, so the row writers check these values themselves. */
enum {
    TDB__E_CLOCK, TDB__E_SEVERITY, TDB__E_STAT_SOURCE, TDB__E_TREE_KIND, TDB__E_ISSUE_KIND,
    TDB__E_DROP_LEVEL, TDB__E_STARTUP_KIND, TDB__E_LAUNCH_SOURCE, TDB__E_MODULE_KIND,
    TDB__E_FRAME_KIND, TDB__E_END_KIND,
    TDB__E_COUNT
};
/* 0 when v (NULL: not checked here) is in list which, else TT_EINVAL naming the column
 * (and no file: --keep-going does not take it for a failed input). */
int tdb__enum_check(int which, const char *v, tt_error *err);
/* List which (NULL-terminated) with its table and column; NULL for an unknown list. */
const char *const *tdb__enum_values(int which, const char **table, const char **column);

/* Fills err with SQLite's current message about db->h (file = the target path). */
int tdb__sqlerr(tdb_db *db, tt_error *err, const char *what);
/* Runs SQL without results (internal statements only). */
int tdb__exec(tdb_db *db, const char *sql, tt_error *err);
/* Arg sets without an owner (store_trace.c): owner[0..*nowner) (sqlite3_free each) the
 * tables with an arg_set_id column; tdb__args_prune deletes the args rows of the sets in
 * temp table gone (a plain name) that no owner row names, and empties gone;
 * tdb__args_gone with watch makes the connection's temporary triggers that collect the
 * sets of deleted or changed owner rows in temp.tdb_gone_args, without it prunes those. */
#define TDB__ARG_OWNERS 16
int tdb__args_owners(tdb_db *db, char **owner, int *nowner, tt_error *err);
int tdb__args_prune(tdb_db *db, const char *gone, char **owner, int nowner, tt_error *err);
int tdb__args_gone(tdb_db *db, int watch, tt_error *err);
/* Steps a statement that returns rows, calling fn; resets it. */
int tdb__rows(tdb_db *db, sqlite3_stmt *st, tdb_row_fn fn, void *ctx, tt_error *err);
/* Reads application_id and user_version; refuses foreign files. */
int tdb__check_header(tdb_db *db, int64_t *version, tt_error *err);
/* verify.c: a database of schema version (> 0) whose tables are not all tables (missing, or
 * a view) is TT_EFORMAT "not a tracetool database: ..."; with pages, one whose PRAGMA
 * quick_check finds damage is TT_EFORMAT "database is corrupt: ..." (tracetool-schema(5)
 * INPUT CHECKS). */
int tdb__check_content(tdb_db *db, int64_t version, int pages, tt_error *err);
/* verify.c: SQLITE_DBCONFIG_TRUSTED_SCHEMA off (the file's views and triggers call no
 * function with side effects), and SQLITE_DBCONFIG_DEFENSIVE on (read-only connections),
 * where this SQLite has them. */
void tdb__untrusted(sqlite3 *h);
void tdb__defensive(sqlite3 *h);

/* The values of the current row of st (strings borrowed until the next step). */
void tdb__values(sqlite3_stmt *st, int ncol, tdb_value *vals);
/* 1 when table of schema ("main", "src", ...) has column col. */
int tdb__has_column(tdb_db *db, const char *schema, const char *table, const char *col);

/* wal_tidy.c: 1 when neither PATH-wal nor PATH-shm exists; after a read-only connection
 * that found them absent has closed, removes them unless another connection still uses
 * them (through a read-write connection's close; nothing when PATH cannot be written). */
int tdb__wal_absent(const char *path);
void tdb__wal_tidy(const char *path);
/* wal_tidy.c: before an immutable=1 open of path, which reads the file without its log: an
 * error (TT_EUNSUPPORTED, naming PATH-wal) when PATH-wal holds frames past its 32-byte
 * header, i.e. committed changes the immutable open would silently miss; else 0. */
int tdb__wal_unread(const char *path, tt_error *err);
/* 1 when path-wal holds frames (changes not yet in path), 0 when not, -1 out of memory. */
int tdb__wal_frames(const char *path);
/* query.c: SQLite's progress handler while a merge reads a source: non-zero (the statement
 * stops, SQLITE_INTERRUPT) once db->stop is set (tdb_merge_stop). */
int tdb__stop_progress(void *arg);
/* query.c: the busy handler of a read (arg: the tdb_db): a writer of the database finishing
 * is waited for up to 5 seconds, unless db->stop is set. */
int tdb__stop_busy(void *arg, int tries);
/* stmt.c: 1 when the last error on h is SQLITE_BUSY: another process holds the lock. */
int tdb__busy(sqlite3 *h);
/* The message for a database whose lock another process held through the wait. */
#define TDB_LOCKED_MSG \
    "cannot read the database: another process holds its lock (waited 5 s for it to finish " \
    "writing): try again when it is done"
/* query.c: tdb_open_read (not writable), the wait for a writer of path stopping once *stop
 * is set (tdb_merge_stop); the connection keeps no stop flag. With pages, the file's pages
 * are checked too (PRAGMA quick_check, tdb__check_content), as a merge input's are. */
int tdb__open_read_stop(tdb_db **out, const char *path, volatile sig_atomic_t *stop, int pages,
                        int *newer, tt_error *err);
/* 1 when tdb_open_read had to open db with immutable=1. */
int tdb__immutable(const tdb_db *db);
/* query.c: attaches path as schema on h read-only, as tdb_open_read opens it ("file:" URI,
 * mode=ro; with immutable, or when the plain read-only attach cannot be read, e.g. a WAL
 * database in a directory we cannot write, immutable=1 after tdb__wal_unread). */
int tdb__attach_read(sqlite3 *h, const char *path, const char *schema, int immutable,
                     tt_error *err);
/* names.c: the name SQLite is given for the file path (a relative "file:..." becomes
 * "./file:...", a file and not a URI; sqlite3_malloc'd, NULL when out of memory), and
 * sqlite3_open_v2 of it */
char *tdb__file_name(const char *path);
int tdb__open(const char *path, sqlite3 **h, int flags);
/* "file:PATH?mode=ro" (with "&immutable=1"), every unsafe byte percent-encoded; malloc'd. */
char *tdb__path_uri(const char *path, int immutable);

/* Prepares the summary's queries (query.c) on db without running them: PRAGMA optimize then
 * analyses the tables they would have liked statistics for, as when they ran there. */
int tdb__summary_plan(tdb_db *db, tt_error *err);

/* diff_sampled.c: the sampled weights of the traces of a diff side (path; trace 0 = all)
 * that have samples, one call of fn per trace (tracetool-diff(1) sampled, samples.md 6). */
typedef struct tdb__sw {
    const tt_profile *p;
    const char *const *key; /* per frame: its diff key (the name, or module+0xPC) */
    const tt_weight *cw;    /* per callsite: self_samples are the samples whose leaf it is */
    const int64_t *self_ns; /* per callsite: their time in ns (when timed) */
    int timed;              /* self_ns are times: tracetool samples' default weight when
                             * its unit is time, else the wall weight, else samples times
                             * the sample interval */
    int timeless;           /* the trace has no times (folded input) */
} tdb__sw;
typedef int (*tdb__sw_fn)(void *ctx, const tdb__sw *w);
int tdb__diff_sampled(const char *path, int64_t trace, tdb__sw_fn fn, void *ctx, tt_error *err);

#endif
