/* The tracetool database (spec/storage.md): schema, atomic write path, migrations, typed row
 * writers with prepared statements, read-only queries. Only sqlite/ contains SQL. */
#ifndef TDB_H
#define TDB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

#define TDB_SCHEMA_VERSION 6
#define TDB_APPLICATION_ID 0x54544442 /* 'TTDB' */

typedef struct tdb_db tdb_db;

/* ---- opening, committing ---- */
/* Opens path for writing (storage.md 5.3, 5.4). Without append, or when path does not exist,
 * a new database is built in "<path>.tmp-<pid>" beside it and renamed over path by
 * tdb_commit. With append an existing database is checked (application id, schema version:
 * older ones are migrated, newer ones refused) and written in place in one transaction.
 * Stale temporary files of dead processes are removed. Owned by the caller, free with
 * tdb_close (which rolls back and removes the temporary file unless committed). */
enum { TDB_WRITE_NEW = 0, TDB_WRITE_APPEND = 1, TDB_WRITE_COPY = 2 };
/* or'ed into the mode of TDB_WRITE_NEW or TDB_WRITE_COPY: the connection keeps its temporary
 * tables in a temporary file (temp_store=FILE, set before anything, a migration included,
 * opens one; SQLite changes it only then), not in memory (tracetool merge: a key per
 * framestats frame). The database written is the same. */
#define TDB_WRITE_TEMP_FILE 8
/* mode TDB_WRITE_COPY builds aside too, starting from a copy of the existing database
 * (upgraded to the current schema): readers never see a partial write (tracetool merge). */
int tdb_open_write(tdb_db **out, const char *path, int append, tt_error *err);
/* 0 when path may be replaced by a new database: missing, empty, not a regular file (the
 * caller refuses those) or a tracetool database; else exit-2 error naming what it is. */
int tdb_check_replace(const char *path, tt_error *err);
/* The temporary file being built, or NULL when writing in place; for signal handlers. */
const char *tdb_tmp_path(const tdb_db *db);
/* Writing in place (TDB_WRITE_APPEND of an existing database): 1 when DB-wal was absent or
 * empty once the write transaction was held (before it wrote anything), so the log holds no
 * other connection's committed frames; 0 otherwise, and when building aside. */
int tdb_wal_empty(const tdb_db *db);
/* Lets SQLite use n helper threads (default 0) to sort the keys of a new database's indexes
 * at tdb_commit; the file written does not depend on n. */
void tdb_set_threads(tdb_db *db, int n);
/* Creates indexes and views, commits, and (new file) fsyncs and renames into place. */
int tdb_commit(tdb_db *db, tt_error *err);
/* A new file: commits its rows (no indexes yet) and opens *reader, a read-only connection
 * to them (the run's summary; tdb_close it before tdb_commit), while db goes on with
 * tdb_build_indexes (on another thread if need be) and tdb_commit; with tdb_set_threads a
 * helper thread starts the rows' fsync meanwhile. The file written is the same whatever
 * runs when. Writing in place: does nothing (*reader NULL). */
int tdb_commit_rows(tdb_db *db, tdb_db **reader, tt_error *err);
/* After tdb_commit_rows: the indexes, views and schema version (else part of tdb_commit). */
int tdb_build_indexes(tdb_db *db, tt_error *err);
void tdb_close(tdb_db *db);

/* A recording handle (analyze --jobs): the row writers below append their rows to memory
 * instead of writing them, and hand out provisional ids; reads (tdb_trace_find, savepoints,
 * tdb_method_each ...) fail with TT_EINVAL. No SQLite connection, so one per thread. Owned by
 * the caller, free with tdb_close. */
int tdb_rec_new(tdb_db **out, tt_error *err);
/* Writes the recorded rows into db in the order they were recorded, each provisional id
 * replaced by the real id its row got (module and symbol-set lookups and tdb_next_id run
 * now), so db ends up as if the writers had written to it directly. Once per recording. */
int tdb_rec_replay(tdb_db *db, tdb_db *rec, tt_error *err);
/* The real id of a provisional id handed out by rec (after tdb_rec_replay); other ids are
 * returned unchanged. */
int64_t tdb_rec_resolve(const tdb_db *rec, int64_t id);
/* Gives back the unused part of the recording's buffer: it waits for its replay. */
void tdb_rec_trim(tdb_db *rec);
/* Bytes of recorded rows not replayed yet. */
size_t tdb_rec_bytes(const tdb_db *rec);

/* Opens an existing database for queries: read-only unless writable (storage.md 5.4, 6). A
 * newer schema is accepted with *newer set; a file that is not a tracetool database is an
 * error naming it. */
int tdb_open_read(tdb_db **out, const char *path, int writable, int *newer, tt_error *err);

/* ---- foreign databases read as inputs ---- */
/* Reads a btrace iOS database (samples.md 2.1.6; data: the whole file, already decompressed;
 * opened read-only in memory, copied only to read a WAL-mode file as one whose log was
 * checkpointed: see tdb_btrace_ios_wal_check) into p: frames image+0xoffset with the image's
 * UUID for symbolication, one thread per tid (main = BTraceModel.main_tid), CPU point and
 * interval samples from row and batch tables. TT_EFORMAT names the trace_id and stack id of
 * a broken stack tree. file names the input in messages. */
int tdb_btrace_ios_import(tt_profile *p, const void *data, size_t n, const char *file,
                          const tt_import_opts *o, tt_stats *stats, tt_error *err);
/* TT_EUNSUPPORTED naming the log when the database file at path has a write-ahead log
 * (path-wal) holding frames: changes its in-memory image would not see; 0 otherwise. */
int tdb_btrace_ios_wal_check(const char *path, tt_error *err);

/* ---- values and row callbacks (queries, summaries) ---- */
enum { TDB_NULL = 0, TDB_INT = 1, TDB_REAL = 2, TDB_TEXT = 3, TDB_BLOB = 4 };
typedef struct tdb_value {
    int type;
    int64_t i;
    double r;
    const char *s; /* TDB_TEXT (NUL-terminated) and TDB_BLOB; borrowed for the callback */
    size_t n;
} tdb_value;
enum { TDB_EV_BEGIN = 0, TDB_EV_ROW = 1, TDB_EV_END = 2 };
/* BEGIN carries the column names of a statement, ROW its values, END closes it. A non-zero
 * return stops the query. */
typedef int (*tdb_row_fn)(void *ctx, int event, int ncol, const char *const *names,
                          const tdb_value *vals);

/* Runs every statement of sql (a user's text) in order. SQL errors fill err with SQLite's
 * message and the 1-based statement number. */
int tdb_exec_user(tdb_db *db, const char *sql, tdb_row_fn fn, void *ctx, tt_error *err);

/* ---- rows (storage.md section 3); ids are the new rows' INTEGER PRIMARY KEYs ---- */
typedef struct tdb_trace {
    const char *import_key, *content_sha256, *source_format, *options, *clock;
    int have_start, have_end;
    int64_t start_ts, end_ts;
    const char *package, *app_version;
    int64_t mapping_id; /* 0 = none */
} tdb_trace;

/* Savepoint around one input (analyze --keep-going): TDB_SP_BEGIN starts it, TDB_SP_RELEASE
 * keeps what was written since, TDB_SP_ROLLBACK undoes it and ends the savepoint. */
enum { TDB_SP_BEGIN, TDB_SP_RELEASE, TDB_SP_ROLLBACK };
int tdb_savepoint(tdb_db *db, int op, tt_error *err);
/* 1 and *id when a trace with this import key exists, 0 when not, negative on error. */
int tdb_trace_find(tdb_db *db, const char *import_key, int64_t *id, tt_error *err);
/* Deletes trace id and the rows ON DELETE CASCADE would, child-first by trace: in time
 * linear in the trace's rows (plus one pass over each small table without a trace index). */
int tdb_trace_delete(tdb_db *db, int64_t id, tt_error *err);
int tdb_trace_add(tdb_db *db, const tdb_trace *t, int64_t *id, tt_error *err);
int tdb_input_add(tdb_db *db, int64_t trace_id, int ordinal, const char *path,
                  const char *kind, const char *sha256, uint64_t bytes, tt_error *err);
int tdb_metadata_add(tdb_db *db, int64_t trace_id, const char *name, const int64_t *int_value,
                     const char *str_value, tt_error *err);
/* severity: "info","notice","data_loss","error"; source: "trace","analysis". idx may be NULL. */
int tdb_stat_add(tdb_db *db, int64_t trace_id, const char *name, const int64_t *idx,
                 const char *severity, const char *source, int64_t value,
                 const char *description, tt_error *err);

/* Method mappings are shared by traces of one build: an existing sha256 is reused (*found). */
int tdb_mapping_find(tdb_db *db, const char *sha256, const char *retrace_sha256, int64_t *id,
                     tt_error *err);
int tdb_mapping_add(tdb_db *db, const char *sha256, const char *path, int64_t method_count,
                    const char *retrace_sha256, int64_t *id, tt_error *err);
/* name: the canonical key (storage.md 8). */
int tdb_method_add(tdb_db *db, int64_t mapping_id, const tt_method *m, const char *name,
                   int64_t *id, tt_error *err);
/* One method of the mapping's ignoreMethodMapping.txt files (method-beat.md 4.3): class,
 * method and descriptor of m as the file gives them, name its canonical key; a line already
 * stored for the mapping is not stored again (schema 5). */
int tdb_ignored_method_add(tdb_db *db, int64_t mapping_id, const tt_method *m, const char *name,
                           tt_error *err);
/* Builds method's index (indexes.sql) now, once a new database's mapping is written, rather
 * than at tdb_commit (analyze --jobs: while the workers parse); the file is the same
 * whichever --jobs. */
int tdb_method_index(tdb_db *db, tt_error *err);
/* Calls fn(ctx, method_id, row_id) for every method of a stored mapping. */
int tdb_method_each(tdb_db *db, int64_t mapping_id,
                    void (*fn)(void *ctx, uint32_t method_id, int64_t row_id), void *ctx,
                    tt_error *err);

int tdb_process_add(tdb_db *db, int64_t trace_id, const int64_t *pid, const char *name,
                    int64_t *upid, tt_error *err);
int tdb_thread_add(tdb_db *db, int64_t trace_id, int64_t upid, const int64_t *tid,
                   const char *name, int is_main, int64_t *utid, tt_error *err);
/* The same with the thread's arg set (0 = none; its rows written with tdb_arg_*) and
 * thread.tid_bits, how many low bits of the OS tid tid holds (16 for btrace Android and ART
 * traces, samples.md 2.1.5; 0 = the default, 32). */
int tdb_thread_add_args(tdb_db *db, int64_t trace_id, int64_t upid, const int64_t *tid,
                        const char *name, int is_main, int tid_bits, int64_t arg_set_id,
                        int64_t *utid, tt_error *err);

typedef struct tdb_slice {
    int64_t id;        /* explicit id (from tdb_next_id), so parents can be referenced */
    int64_t trace_id, utid, ts, dur, depth, parent_id; /* parent_id 0 = none */
    const char *name, *category;
    int64_t method_id; /* 0 = none */
    const char *end_kind; /* 'exact','inferred','unterminated','truncated' */
    int64_t self_dur;
    int is_recursive;
    /* sampled slices (samples.md 5); -1 / 0 = NULL as noted */
    int64_t frame_id, callsite_id;           /* 0 = none */
    int64_t thread_dur, self_thread_dur, block_dur, gap_before, gap_after; /* -1 = none */
    int64_t sample_count;                    /* -1 = none */
    int have_msg_id;
    int64_t msg_id;
    const char *type;                        /* NULL = none */
    int64_t wakeup_utid;                     /* 0 = none */
    unsigned ctr_known;                      /* bit TT_CTR_*: ctr[] valid (alloc_objects ...) */
    uint64_t ctr[TT_CTR_COUNT];
    int64_t arg_set_id;                      /* 0 = none (rows added with tdb_arg_int) */
} tdb_slice;
/* The next free id of a table that takes explicit ids ("slice", "call_node"), or the next
 * free arg_set_id ("args"). */
int tdb_next_id(tdb_db *db, const char *table, int64_t *id, tt_error *err);
int tdb_slice_add(tdb_db *db, const tdb_slice *s, tt_error *err);
/* Adds the integer key/value (key, v) to the arg set arg_set_id (storage.md args table). */
int tdb_arg_int(tdb_db *db, int64_t arg_set_id, const char *key, int64_t v, tt_error *err);
int tdb_arg_real(tdb_db *db, int64_t arg_set_id, const char *key, double v, tt_error *err);
int tdb_arg_str(tdb_db *db, int64_t arg_set_id, const char *key, const char *v, tt_error *err);
/* kind: 'unpark','notify','unlock'. */
int tdb_wakeup_add(tdb_db *db, int64_t trace_id, int64_t wakee_slice_id, int64_t waker_utid,
                   int64_t waker_ts, const char *kind, tt_error *err);

/* kind: 'issue_stack','beat_slice','sample_profile'. issue_id/utid 0 = none. */
int tdb_tree_add(tdb_db *db, int64_t trace_id, const char *kind, int64_t issue_id,
                 int64_t utid, int64_t *id, tt_error *err);
typedef struct tdb_node {
    int64_t id, tree_id, parent_id; /* explicit id; parent 0 = root */
    int64_t depth, ordinal;
    const char *name;
    int64_t method_id; /* 0 = none */
    int64_t count;
    int have_dur;
    int64_t total_dur, self_dur;
    int have_self_count;  /* samples with this node as leaf (sample_profile trees) */
    int64_t self_count;
    int64_t arg_set_id;   /* 0 = none */
} tdb_node;
int tdb_node_add(tdb_db *db, const tdb_node *n, tt_error *err);

typedef struct tdb_issue {
    int64_t trace_id;
    const char *tag, *detail, *kind, *scene, *process_name;
    int have_report_time, have_cost, have_sub_type, have_foreground, have_ts;
    int64_t report_unix_ms, cost_ms, sub_type;
    const char *stack_key_raw;
    int64_t stack_key_method_id; /* 0 = none */
    const char *stack_key, *stack_key_path;
    int is_foreground;
    const char *thread_stack;
    int64_t utid; /* 0 = none */
    int64_t ts;
    int64_t arg_set_id; /* 0 = none */
    const char *raw_json;
} tdb_issue;
int tdb_issue_add(tdb_db *db, const tdb_issue *i, int64_t *id, tt_error *err);
int tdb_issue_set_tree(tdb_db *db, int64_t issue_id, int64_t tree_id, tt_error *err);

/* ---- sampled stacks (storage.md 3.7) ---- */
typedef struct tdb_frame {
    int64_t trace_id;
    const char *name, *raw_name, *kind; /* kind: 'java','native','kernel','js','synthetic' */
    int have_rel_pc;
    int64_t rel_pc;
    int64_t module_id, symbol_set_id;   /* 0 = none */
    const char *file;                   /* source file the input names, or NULL */
    int32_t line;                       /* 0 = unknown */
} tdb_frame;

/* Native modules and symbolication results (storage.md 3.7, symbolication.md 5.6). */
typedef struct tdb_module {
    const char *build_id;  /* lowercase hex, or NULL */
    const char *name;      /* basename */
    const char *path;      /* or NULL */
    const char *kind;      /* 'elf','macho','apk','dex','oat','jit','kernel','unknown' */
    int have_debug_info, has_debug_info;
} tdb_module;
/* The id of the module row with this build id (or none) and name, added when missing. While
 * recording (tdb_rec_new) every call hands out a new provisional id, even for a module given
 * before: callers that deduplicate rows per module key them by (build id, name). */
int tdb_module_get(tdb_db *db, const tdb_module *m, int64_t *id, tt_error *err);
typedef struct tdb_symbol {
    const char *name;        /* NULL is stored as '??' */
    const char *file;        /* or NULL */
    int64_t line, column;    /* 0 = unknown (NULL) */
    int is_inlined;
    const char *symbol_name; /* ELF symbol, outermost frame only, or NULL */
    int is_approximate;
} tdb_symbol;
/* The symbol set of (module_id, rel_pc): the stored one, or a new one holding frames[0..n)
 * (innermost first) with its symbolized_pc row. */
int tdb_symbolized_pc_add(tdb_db *db, int64_t module_id, int64_t rel_pc,
                          const tdb_symbol *frames, size_t n, int64_t *set_id, tt_error *err);
int tdb_frame_add(tdb_db *db, const tdb_frame *f, int64_t *id, tt_error *err);

/* A binary_image row (spec/ios.md 10): one Mach-O image of one iOS report. A row with the
 * same (trace, report id, image_addr) is kept, not replaced. */
typedef struct tdb_binary_image {
    int64_t trace_id;
    const char *report_id, *name, *arch, *debug_file; /* arch, debug_file may be NULL */
    int64_t module_id;                                /* 0: NULL */
    uint64_t image_addr, image_vmaddr, image_size;
    int64_t n_frames;
} tdb_binary_image;
int tdb_binary_image_add(tdb_db *db, const tdb_binary_image *b, tt_error *err);
/* Calls fn with the UUID (module build id, lowercase hex) of every image of trace_id that
 * frames refer to (n_frames > 0), each once; a non-zero return stops. */
typedef int (*tdb_uuid_fn)(void *ctx, const char *uuid);
int tdb_binary_image_uuids(tdb_db *db, int64_t trace_id, tdb_uuid_fn fn, void *ctx,
                           tt_error *err);
int tdb_callsite_add(tdb_db *db, int64_t trace_id, int64_t parent_id, int64_t depth,
                     int64_t frame_id, int64_t *id, tt_error *err);
typedef struct tdb_sample {
    int64_t trace_id, utid, callsite_id;
    int have_ts;
    int64_t ts, dur, count, weight;
    const char *type, *event;
    int have_msg_id, is_interval, is_blocking, have_thread;
    int64_t msg_id, thread_ts, thread_dur;
} tdb_sample;
int tdb_sample_add(tdb_db *db, const tdb_sample *s, tt_error *err);

/* ---- UI frames and per-scene statistics (storage.md 3.5) ---- */
typedef struct tdb_ui_frame {
    int64_t trace_id, utid; /* utid 0 = none */
    const char *scene;
    int64_t ts, dur, interval_dur, expected_dur; /* expected_dur 0 = unknown */
    int64_t busy_dur, dropped_frames;
    const char *drop_level; /* 'best' ... 'frozen' */
    int is_jank, is_slow, is_frozen, have_vsync_id;
    int64_t vsync_id;
    int64_t arg_set_id; /* 0 = none: the phase durations (tdb_arg_int rows) */
} tdb_ui_frame;
int tdb_ui_frame_add(tdb_db *db, const tdb_ui_frame *f, tt_error *err);

typedef struct tdb_scene_stats {
    int64_t trace_id;
    const char *model, *scene; /* scene "*" = all scenes */
    int have_window;           /* ts of a series window or a Matrix FPS report; 0 = whole trace */
    int have_dur;              /* dur of a series window (a report's span is unknown: NULL) */
    int64_t ts, dur, frames;
    int have_busy, have_fps, have_flags, have_times;
    int64_t busy_dur;
    double fps;
    int64_t dropped_sum;
    int64_t level_count[5], level_sum[5]; /* best, normal, middle, high, frozen */
    int64_t jank_count, slow_count, frozen_count;
    int64_t p50_dur, p90_dur, p95_dur, p99_dur, max_dur, mean_dur;
    int64_t issue_id; /* 0 = none */
} tdb_scene_stats;
int tdb_scene_stats_add(tdb_db *db, const tdb_scene_stats *s, tt_error *err);

/* ---- startup (storage.md 3.6) ---- */
typedef struct tdb_startup {
    int64_t trace_id;
    const char *kind, *source; /* 'cold','warm','hot','unknown'; 'events','matrix_report' */
    int have_ts, have_dur;
    int64_t ts, dur;
    const char *start_event, *end_event;
    int have_matrix;           /* the Matrix report columns */
    int64_t application_create_ms, application_create_scene, first_activity_create_ms,
        startup_duration_ms;
    int have_ttid, have_ttfd;
    int64_t ttid_dur, ttfd_dur;
    int matrix_over_threshold, matrix_stack_collected, vitals_excessive;
    int64_t issue_id; /* 0 = none */
} tdb_startup;
int tdb_startup_add(tdb_db *db, const tdb_startup *s, int64_t *id, tt_error *err);
int tdb_segment_add(tdb_db *db, int64_t startup_id, int ordinal, const char *name,
                    const char *from_event, const char *to_event, int have_ts, int64_t ts,
                    int64_t dur, tt_error *err);
typedef struct tdb_launch {
    int64_t trace_id;
    const char *source, *component, *launch_state, *status, *log_time; /* NULL = absent */
    int have_total, have_wait, have_this, have_fully_drawn;
    int64_t total_ms, wait_ms, this_ms, fully_drawn_ms;
    int not_launched; /* am "Warning: Activity not started" (schema 4) */
    int incomplete;   /* am block without "Complete" (schema 4) */
} tdb_launch;
int tdb_launch_add(tdb_db *db, const tdb_launch *l, tt_error *err);

/* ---- merge (storage.md 9): traces of other tracetool databases ---- */
typedef struct tdb_merge_stats {
    int64_t traces_in;    /* traces in the source */
    int64_t traces_added; /* not present yet (import key), copied */
    int64_t rows;         /* rows added */
    int64_t rows_updated; /* shared rows changed in place (a module's smaller path) */
    char *held_by;        /* when traces were skipped: the labels of the inputs (db_label for
                           * db's own) that brought them, joined by ", " */
    int64_t frames_overlap; /* framestats frames of copied traces also in an earlier trace */
    int64_t traces_overlap; /* copied traces with such frames ('frames_overlap' stats rows) */
    char *overlaps;       /* the labels of the inputs those earlier traces came from */
} tdb_merge_stats;
/* A flag a signal handler sets to stop tdb_merge_add: the statement running (or waiting for
 * a source's lock) fails at once, the source is let go as on any error (its -wal and -shm
 * files that the merge made are removed) and it fails (the caller, which knows the signal,
 * ends the run). NULL clears it. */
void tdb_merge_stop(tdb_db *db, volatile sig_atomic_t *flag);
/* Frees the strings of ms (tdb_merge_add frees them itself when it fails). */
void tdb_merge_stats_free(tdb_merge_stats *ms);
/* Copies every trace of the database at src_path whose import key db does not hold yet, with
 * all its rows, ids shifted past db's; method mappings, methods, modules and symbol sets are
 * matched by their keys (storage.md 8) and added when new. The source is checked as by
 * tdb_open_read, and its pages with PRAGMA quick_check unless pages_checked (tdb_precheck):
 * a newer schema is TT_EUNSUPPORTED, another or a damaged file TT_EFORMAT; an older schema
 * is read through the current one (columns added since read as NULL). db must have been
 * opened with TDB_WRITE_NEW or TDB_WRITE_COPY: each source is committed to the temporary
 * file on its own (tdb_commit still decides whether it replaces the target). src_path is
 * the label of the source's traces in ms (held_by, overlaps), db_label that of db's own
 * (--append). Framestats frames of a copied trace with the scene, IntendedVsync and duration
 * of a framestats frame of a trace before it (overlapping dumps analysed in different runs,
 * frames.md 7.3) are counted in a stats row 'frames_overlap' of that trace. */
int tdb_merge_add(tdb_db *db, const char *src_path, const char *db_label, int pages_checked,
                  tdb_merge_stats *ms, tt_error *err);

/* ---- merge inputs checked ahead (merge_check.c) ---- */
/* A thread that checks the pages of paths[0..n) in order (PRAGMA quick_check, as
 * tdb_merge_add does), each while the input before it is merged. NULL when no thread can be
 * started: tdb_merge_add checks every input itself then. paths must outlive it. */
typedef struct tdb_precheck tdb_precheck;
tdb_precheck *tdb_precheck_start(char *const *paths, size_t n);
/* Waits for input i's check (inputs are taken in order) and lets the thread go on to input
 * i + 1: 1 when its pages were found intact (tdb_merge_add's pages_checked), 0 when the
 * check failed or could not tell (tdb_merge_add checks it and says why) or *stop was set. */
int tdb_precheck_take(tdb_precheck *pc, size_t i, volatile sig_atomic_t *stop);
/* Stops the thread (a check running ends at once) and frees pc; NULL is a no-op. */
void tdb_precheck_free(tdb_precheck *pc);

/* ---- every row of a run (analyze --format jsonl) ---- */
/* fn gets the table name, its column names and one row's values (text borrowed for the call);
 * a non-zero return stops and is returned. */
typedef int (*tdb_dump_fn)(void *ctx, const char *table, int ncol, const char *const *names,
                           const tdb_value *vals);
/* Every row of the traces with id >= first_trace (tables in schema order, rows in id order),
 * and every row of the shared tables (method_mapping, method, module, symbol, symbolized_pc,
 * args). */
int tdb_dump_rows(tdb_db *db, int64_t first_trace, tdb_dump_fn fn, void *ctx, tt_error *err);

/* ---- summaries for analyze (rows of traces with id >= first_trace) ---- */
/* Row counts of the main tables: columns (table, rows). */
int tdb_summary_counts(tdb_db *db, int64_t first_trace, tdb_row_fn fn, void *ctx,
                       tt_error *err);
/* Issues worst first: (kind, cost_ms, stack_key, scene, tag, detail). */
int tdb_summary_top_issues(tdb_db *db, int64_t first_trace, int limit, tdb_row_fn fn,
                           void *ctx, tt_error *err);
/* Issues grouped by blamed method name: (kind, stack_key, issues, max_cost_ms, avg_cost_ms,
 * scenes). */
int tdb_summary_by_key(tdb_db *db, int64_t first_trace, int limit, tdb_row_fn fn, void *ctx,
                       tt_error *err);
/* Scenes worst first (frozen + high-level frames per frame, then fps): (scene, model,
 * frames, avg_fps, jank_frames, bad_frames). */
int tdb_summary_scenes(tdb_db *db, int64_t first_trace, int limit, tdb_row_fn fn, void *ctx,
                       tt_error *err);
/* Startups: (kind, source, dur_ms, ttid_ms, ttfd_ms, startup_duration_ms), slowest first. */
int tdb_summary_startups(tdb_db *db, int64_t first_trace, int limit, tdb_row_fn fn, void *ctx,
                         tt_error *err);
/* analyze --fail-on: *n = the issues of traces >= first_trace, of kind (any when NULL) with
 * cost_ms >= min_cost_ms (any cost, even none, when min_cost_ms is INT64_MIN). */
int tdb_count_issues(tdb_db *db, int64_t first_trace, const char *kind, int64_t min_cost_ms,
                     int64_t *n, tt_error *err);
/* *n = the sum of the stats values of severity data_loss or error of traces >= first_trace. */
int tdb_count_lost(tdb_db *db, int64_t first_trace, int64_t *n, tt_error *err);

/* ---- export (tracetool-export(1)): stored traces read back as profiles ---- */
typedef struct tdb_trace_info {
    int64_t id;
    char source_format[32];
    int has_samples, has_slices;
} tdb_trace_info;
/* Every trace in id order; *out owned by the caller (free()). */
int tdb_trace_list(tdb_trace_info **out, size_t *n, tdb_db *db, tt_error *err);
/* Rebuilds one trace as a finished profile (owned by the caller, tt_profile_free): its
 * stack_frame rows in id order (never merged), callsites, threads (process pid, "Thread-N"
 * names read back as unnamed), one sample per stored run (meta.runs; no sample rows with a
 * NULL ts: timeless) and its slices as fixed slices per thread. Slices must be stored
 * parent first, each inside its parent; a slice without frame_id (method-beat) gets a frame
 * by name. Slices and callsites are read back at any depth; a sample whose callsite is deeper
 * than TT_MAX_STACK_DEPTH (the readers' limit for sampled stacks) is refused. name is the
 * database in messages (NULL: its path). TT_ENOTFOUND for an unknown trace; TT_EFORMAT
 * naming table and row for rows that do not fit together. */
int tdb_profile_load(tt_profile **out, tdb_db *db, int64_t trace_id, const char *name,
                     tt_stats *stats, tt_error *err);

/* ---- diff (storage.md 8): two databases compared by canonical name, never by id ---- */
typedef struct tdb_diff tdb_diff;
/* Opens base and new read-only (each checked as by tdb_open_read; newer[i] set for a newer
 * schema) and attaches both to one in-memory connection. A trace id selects one trace of a
 * side, 0 every trace. Owned by the caller, free with tdb_diff_close. */
int tdb_diff_open(tdb_diff **out, const char *base_path, int64_t base_trace,
                  const char *new_path, int64_t new_trace, int newer[2], tt_error *err);
void tdb_diff_close(tdb_diff *d);
/* Number of traces selected on side 0 (base) or 1 (new). */
int tdb_diff_traces(tdb_diff *d, int side, int64_t *n, tt_error *err);

/* Sections; the values of each, in order (times in ms, NAN when a side has no value):
 * METHODS  key name (slices except 'sampled', call nodes of 'issue_stack' trees):
 *          self_ms, total_ms, calls
 * ISSUES   sub kind, key stack_key ('unresolved:RAW' or '(no stack key)' when unnamed):
 *          count, max_cost_ms, avg_cost_ms
 * STARTUP  sub kind (startup.kind; a launch's state: cold, warm, hot, relaunch, else
 *          unknown), key 'total', a segment name or 'launch:COMPONENT', from/to the endpoint
 *          events (part of the key): avg_ms, count
 * SCENES   sub model, key scene (whole-trace rows, frames > 0; frame-weighted averages):
 *          fps, jank_pct, p50_ms, p90_ms, p95_ms, p99_ms, frozen_pct, high_pct, middle_pct,
 *          frames
 * SAMPLED  key function name (or 'module+0xPC' when unnamed): self_ms, total_ms (the
 *          samples' time weighed as tracetool samples weighs it: self at the leaf, total
 *          once per sample on the stack), samples (as the leaf frame), calls (sampled
 *          slices) */
enum { TDB_DIFF_METHODS, TDB_DIFF_ISSUES, TDB_DIFF_STARTUP, TDB_DIFF_SCENES, TDB_DIFF_SAMPLED,
       TDB_DIFF__COUNT };
#define TDB_DIFF_NVAL 10
typedef struct tdb_diff_row {
    const char *sub, *key; /* sub NULL for METHODS and SAMPLED */
    const char *from, *to; /* STARTUP: the endpoint events; NULL when none were recorded */
    int have[2];           /* the key occurs in base (0) / new (1) */
    double v[2][TDB_DIFF_NVAL]; /* 0 on a side without the key */
} tdb_diff_row;
typedef int (*tdb_diff_fn)(void *ctx, const tdb_diff_row *r);
/* Calls fn once per key of the section found on either side, keys paired by name. A
 * non-zero return stops. Strings are borrowed for the call. */
int tdb_diff_section(tdb_diff *d, int section, tdb_diff_fn fn, void *ctx, tt_error *err);
/* Folded call paths (root first, names joined by ';') with their weight per side: self time
 * in whole ms (rounded per path) from non-sampled slices' parent chains, 'issue_stack' call
 * trees and the samples' time whose leaf the path is (SAMPLED), plus the untimed samples
 * (folded input) whose leaf the path is; sorted by path, paths
 * weighing 0 on both sides left out. units gets per side the TDB_FOLDED_* it found. */
enum { TDB_FOLDED_MS = 1, TDB_FOLDED_SAMPLES = 2 };
typedef int (*tdb_folded_fn)(void *ctx, const char *path, int64_t base, int64_t new_);
int tdb_diff_folded(unsigned units[2], tdb_diff *d, tdb_folded_fn fn, void *ctx,
                    tt_error *err);

/* ---- the HTML report (visual.md 10) ---- */
/* Adds the report's tables (summary, inputs, startup, frames, issues, methods) of the
 * traces trace_lo..trace_hi to r; top limits the ranked tables. With base (diff mode, db the
 * new database) the summary has the figures of every trace of base and of db, and new - base. */
int tdb_report_fill(tt_hreport *r, tdb_db *db, tdb_db *base, int64_t trace_lo,
                    int64_t trace_hi, int top, tt_error *err);

/* The call_node rows (id, parent_id, depth, name, count, total_dur, self_dur, self_count) of
 * call tree
 * id, or of issue id's tree (by_issue), in id order (parents first). */
int tdb_call_tree_rows(tdb_db *db, int64_t id, int by_issue, tdb_row_fn fn, void *ctx,
                       tt_error *err);

/* A startup window with times (flamegraph --source=startup): startup id, or with id 0 the
 * first startup with ts and dur, one of trace prefer_trace first. TT_ENOTFOUND without one. */
typedef struct tdb_startup_win {
    int64_t id, trace_id, ts, dur;
    char kind[16], clock[32]; /* clock of the startup's trace */
} tdb_startup_win;
int tdb_startup_window(tdb_startup_win *out, tdb_db *db, int64_t id, int64_t prefer_trace,
                       tt_error *err);

#endif
