/* tracetool analyze, inside cli/: the inputs and options shared by the driver (cmd_analyze.c)
 * and its parts: pass 1 (cli_an_input.c), pass 2 per input (cli_an_import.c) and the summary
 * (cli_an_summary.c). The parts never call back into the driver; import uses input's helpers. */
#ifndef CLI_AN_INT_H
#define CLI_AN_INT_H

#include "cli_an.h"

enum { IN_PENDING, IN_IMPORTED, IN_DUPLICATE, IN_MAPPING, IN_SKIPPED, IN_FAILED, IN_SYMBOLS };

typedef struct ainput {
    char *path;
    tt_kind kind;
    char sha[65];
    uint64_t bytes;
    int status;
    int from_dir; /* found by a directory scan: imported only when detection is positive */
    int64_t trace_id;
    char key[65];
    char *error; /* --keep-going: why it failed ("FILE:LOC: message"), malloc'ed */
    tt_detection *pre; /* --jobs: detected and hashed ahead (sha, bytes set), or NULL */
    int map_ahead;       /* --jobs: the first -m mapping, loaded while hashed ahead ... */
    tt_mapping *pre_map; /* ... into this (NULL: not, or it failed: pass 1 reads it again) */
    tt_stats *pre_stats; /* its counted warnings */
    int btrace;          /* a btrace sampling file (tt_detection.btrace) */
    const char *btrace_map; /* its sampling-mapping among the inputs (tt_btrace_pair;
                             * borrowed), or NULL */
    char *map_path;         /* the sampling-mapping it is read with (among the inputs or the
                             * file beside it; malloc'ed), or NULL: an input of its trace */
    char map_sha[65];
    uint64_t map_bytes;
} ainput;

/* The import keys of the inputs imported so far in this run, by hash (import_one's check for
 * the same content given twice, without comparing every earlier input). */
typedef struct aseen {
    tt_intern *keys; /* NULL until the first import */
    tt_vec ordinal;  /* int: the input of each key id */
    int failed;      /* out of memory: every earlier input is compared */
} aseen;

/* ---- cli_an_check.c: --fail-on ---- */
#define AN_MAX_CHECKS 32
typedef struct an_check {
    const char *arg;    /* as given */
    tt_issue_cond cond;
    int64_t count;      /* found by cli_an__check_count */
} an_check;
typedef struct an_checks {
    an_check c[AN_MAX_CHECKS];
    size_t n;
} an_checks;
/* Adds the condition arg (WHAT[@MS][:N]); CLI_BAD after printing. */
int cli_an__check_parse(an_checks *cs, const char *arg);
/* Counts each condition's rows among traces >= first of db, and adds "fail_on" to json. */
int cli_an__check_count(an_checks *cs, tdb_db *db, int64_t first, tt_jsonw *json,
                        tt_error *err);
/* Prints each tripped condition; how many tripped. */
int cli_an__check_report(const an_checks *cs);

typedef struct aopts {
    const char *out, *proguard;
    int append, replace, skip_unknown, keep_going, kind, format;
    int allow_empty; /* --allow-empty: no trace among the inputs is not an error */
    int dry_run;     /* --dry-run: pass 1 only, the inputs' kinds and status printed */
    int jobs;                      /* --jobs; 0 = the online cores */
    int proguard_given, sym_given; /* --proguard, -e/--symbols on the command line */
    const char *dir_map[2];        /* mapping and ignore mapping taken from a directory */
    char skip_buf[512];
    char **maps;
    size_t nmaps;
    aseen *seen;                   /* pass 2's imported keys */
    an_checks checks;              /* --fail-on */
} aopts;

/* ---- cli_an_input.c: the inputs (pass 1) ---- */
/* Appends an input (ainput) to v; CLI_BAD after printing when out of memory. */
int cli_an__add_input(tt_vec *v, const char *path, int from_dir);
/* Appends the regular files below dir, depth first, sorted by name. */
int cli_an__expand_dir(tt_vec *v, const char *dir, int depth);
/* Opens an input for reading, twice if need be (stdin, a FIFO: read into memory). */
int cli_an__open_input(tt_input **in, const char *path, tt_error *err);
/* An input that failed: its exit code, or 0 when --keep-going recorded it (IN_FAILED). */
int cli_an__input_failed(ainput *ai, const aopts *o, const tt_error *err);
/* cli_an_parallel worker (ctx: the tt_vec of ainput): detects and hashes input i ahead (and
 * loads it when map_ahead is set and it is a method mapping). */
void cli_an__pre_detect(void *ctx, size_t i);
/* Frees a mapping loaded ahead and not used. */
void cli_an__free_ahead(ainput *ai);
/* Pass 1 on one input: detection, hash, a mapping loaded into a->map. */
int cli_an__detect_input(ainput *ai, aopts *o, cli_an *a, cli_ctx *ctx);
/* Skips a binary buffer found in a directory that does not fit the mapping. */
void cli_an__check_dir_beat(ainput *ai, const tt_mapping *map);
/* After pass 1: each btrace sampling file's sampling-mapping among the inputs (tt_btrace_pair,
 * the rule export uses); a mapping that matches none is skipped with a warning. CLI_BAD when
 * out of memory. */
int cli_an__pair_btrace(tt_vec *inputs);

/* ---- cli_an_import.c: one input into the database (pass 2) ---- */
/* --buffer-format names, NULL-terminated (by TT_BEAT_FMT_*). */
extern const char *const cli_an__buffmts[];
/* The mapping's rows a new database will give it, for --jobs workers started early. */
void cli_an__predict_mapping(cli_an *a);
/* Writes the mapping and its methods (or finds them); predicted: checks the prediction. */
int cli_an__store_mapping(cli_an *a, const char *sha, const char *path, const char *pg_sha,
                          int predicted, tt_error *err);
/* Reads one input of kind and writes its rows (the cli_an_parse_fn of the --jobs pool). */
int cli_an__import_parse(cli_an *a, const char *path, tt_kind kind, cli_an_trace *t,
                         tt_error *err);
/* --jobs: queues pending inputs from next on; the first one not queued. */
size_t cli_an__dispatch(cli_an *a, tt_vec *inputs, size_t next, cli_an_pool *pool,
                        cli_an_job **jobs, const aopts *o, const char *map_sha,
                        const char *pg_sha);
/* Imports input ordinal_seen of inputs (or replays job), in a savepoint under --keep-going. */
int cli_an__import_kept(cli_an *a, ainput *ai, int ordinal_seen, const char *map_sha,
                        const char *pg_sha, tt_vec *inputs, const aopts *o, cli_an_pool *pool,
                        cli_an_job *job, tt_error *err);
/* --dry-run: the status the run would give each pending input: already_imported (IN_DUPLICATE)
 * when its import key is an earlier input's of the run (that one's trace id, 0 while it is
 * to be imported) or, with --append and without --replace, a trace's of the database (its
 * id); TT_* after filling err when the database cannot be read. */
int cli_an__dry_run_status(cli_an *a, tt_vec *inputs, const aopts *o, const char *map_sha,
                           const char *pg_sha, tt_error *err);
/* Writes the trace row of an input that failed under --keep-going. */
int cli_an__record_failure(cli_an *a, ainput *ai, tt_error *err);

/* ---- cli_an_summary.c: what the run wrote ---- */
typedef struct summ {
    tt_buf text;
    tt_jsonw json;
    const char *section; /* JSON key of the current array */
    int rows;
    an_checks *checks;   /* --fail-on, or NULL */
} summ;

/* Fills s (text and JSON) from the inputs and the rows of traces >= first, read from db (a's
 * database or a reader of it); touches nothing of a but its per-method totals and names. */
/* The inputs part of the summary (their kind and status; skipped, failed), into s; starts
 * s's JSON object when it is not started (--dry-run). */
void cli_an__summarize_inputs(summ *s, tt_vec *inputs);
int cli_an__summarize(summ *s, cli_an *a, tdb_db *db, int64_t first, const char *dbpath,
                      tt_vec *inputs, tt_error *err);
/* --format jsonl: prints every row of traces >= first of db (the run's rows, read before the
 * rename); 0 or an error in err; a write error's errno in *werr (the caller decides). */
int cli_an__dump_jsonl(tdb_db *db, int64_t first, int *werr, tt_error *err);

#endif
