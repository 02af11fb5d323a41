/* Shared state of `tracetool analyze`: the database being written, the method mapping and
 * its rows, canonical names; the importers of each input kind (cli_an_*.c). */
#ifndef CLI_AN_H
#define CLI_AN_H

#include "cli.h"

#include "../sqlite/tdb.h"
#include "cli_sym.h"

/* Per-method totals of the slices written by this run (the summary's top self time). */
typedef struct cli_an_acc {
    int64_t self_ms, total_ms;
    uint64_t calls;
} cli_an_acc;

typedef struct cli_an {
    cli_ctx *cli;
    tdb_db *db;
    tt_mapping *map;      /* empty when no mapping was given */
    tt_proguard *pg;      /* --proguard, or NULL */
    int64_t mapping_row;  /* method_mapping.id, 0 = none */
    int64_t *method_rows; /* method.id by Matrix id, or NULL */
    const char **names;   /* canonical names by Matrix id (arena), filled lazily */
    const char **ahead;   /* --jobs: the mapping's names formatted before the workers start
                           * (cli_an_names_ahead; read-only while they run), or NULL */
    tt_arena **ahead_arenas;
    size_t n_ahead;
    tt_arena *arena;
    tt_buf tmp;
    /* beat options */
    int beat_fmt;
    int64_t base_ms, end_ms, evil_ms;
    int have_base, have_end, trim;
    int beat_forced;      /* --kind beat: buffers are read whatever detection says */
    int64_t ring_next;    /* --ring-next: rotate the buffer (a raw ring dump); 0 = not */
    /* startup event stream options (startup(1)): they change the startup rows */
    const char *splash;   /* --splash: Matrix splash activities "a.B;c.D", NULL = none */
    int64_t cold_ms, warm_ms; /* --cold-ms / --warm-ms when has_*, else Matrix's defaults */
    int has_cold_ms, has_warm_ms;
    int no_ui;            /* --no-ui-process */
    /* sampled stacks: --event, the perf/simpleperf event kept (NULL: the first one seen) */
    const char *event;
    cli_sym_opts sym;     /* -e / --symbols: names for native frames of sampled stacks */
    int all_images;       /* --all-images: binary_image rows for unused images too */
    const char *cur_path; /* the input being imported (warnings name it) */
    /* counters for the summary */
    uint64_t unknown_ids;
    struct cli_an_acc *acc; /* per Matrix id: calls and times of this run's slices, or NULL */
    tt_vec *acc_ids;        /* ids whose acc entry became non-zero (each worker: its own) */
    tt_frames_seen *frames_seen; /* framestats frames of this run's earlier inputs (the
                                  * writer's: frames inputs are never parsed by workers) */
} cli_an;

/* Canonical method name (storage.md 8) of a Matrix id, "<unknown id N>" when unmapped;
 * borrowed from the arena. NULL only on out of memory. */
const char *cli_an_name(cli_an *a, uint32_t id);
/* Formats the canonical names of every method of a->map on jobs threads into a->ahead, which
 * cli_an_name reads first (out of memory: it formats them itself); freed by
 * cli_an_names_ahead_free (not by workers sharing them). */
void cli_an_names_ahead(cli_an *a, int jobs);
void cli_an_names_ahead_free(cli_an *a);
/* method.id of a Matrix id, 0 when unmapped. */
int64_t cli_an_method_row(const cli_an *a, uint32_t id);

/* Stores a Matrix stack as a call tree (kind 'issue_stack' or 'beat_slice') with its nodes;
 * *tree_id receives the tree's id. */
int cli_an_store_stack(cli_an *a, int64_t trace_id, const char *kind, int64_t issue_id,
                       int64_t utid, const tt_mitem *items, size_t n, int64_t *tree_id,
                       tt_error *err);
/* Root-to-blamed-item names joined by ';' (arena), or NULL without a key item. */
const char *cli_an_key_path(cli_an *a, const tt_mitem *items, size_t n, ptrdiff_t key_index);

/* Stores one counted repair or warning of an import (storage.md 3.1 stats); a severity
 * above info is also printed at the end of the run (cli_an_print_stat), so the summary's
 * warning count is what was printed. */
int cli_an_stat(cli_an *a, int64_t trace_id, const char *name, const char *severity,
                const char *source, uint64_t value, const char *description, tt_error *err);

/* Adds a stored warning (severity above info) to the run's printed warnings. */
void cli_an_print_stat(cli_an *a, const char *name, const char *severity, const char *file,
                       uint64_t value, const char *example);
/* Counted warnings of a reader (a tt_stats sink) become stats rows of the trace. */
int cli_an_reader_stats(cli_an *a, int64_t trace_id, const tt_stats *st, tt_error *err);
/* One input's counted warnings: from cli_an_input_stats_begin on, whatever is counted into
 * the run's sink (a->cli->stats: the reader's, the symbol stores' sym_* and macho_*, the
 * demangler's) goes to a fresh sink of the input, and *outer keeps the run's; TT_ENOMEM.
 * cli_an_input_stats_end puts the run's sink back and returns the input's (the caller
 * stores it with cli_an_reader_stats and frees it); with failed (the input is not stored)
 * its counts go to the run's sink, to be printed, and it returns NULL. */
int cli_an_input_stats_begin(tt_stats **outer, cli_an *a);
tt_stats *cli_an_input_stats_end(cli_an *a, tt_stats *outer, int failed);

/* Importers: read the input (in), write the trace row and everything under it. */
typedef struct cli_an_trace {
    const char *path, *kind, *sha256, *content_sha256, *import_key, *options;
    const char *btrace_map; /* a btrace sampling file's sampling-mapping (tt_btrace_pair), or
                             * NULL: the one beside it, if any */
    uint64_t bytes;
    /* the sampling-mapping read with it (the second input of its trace), or NULL */
    const char *map_path, *map_sha;
    uint64_t map_bytes;
    int64_t trace_id; /* out */
} cli_an_trace;
int cli_an_beat(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err);
/* Matrix issue reports; a log (logcat lines) is read again for its launches (Displayed,
 * Fully drawn, am start -W lines), stored under the same trace. */
int cli_an_report(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err);
/* 1 when the text input at path holds a Matrix report line (a logcat capture detected by
 * its launches, read as cli_an_report so neither part is lost), else 0. Reads it once. */
int cli_an_report_holds(const char *path);
/* KSCrash / Matrix iOS reports (ios.md 10): issues, threads, modules, call trees, stats. */
int cli_an_kscrash(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err);
/* After the inputs: the macho_dsym_unmatched warning (spec/ios.md 8.1) for every plain
 * --dsym none of whose UUIDs is an image that frames of the iOS report traces[0..n) (this
 * run's, imported or found already imported) refer to; counted into the stats of trace
 * stat_trace (0: printed and counted for the run only). Nothing without --dsym or traces. */
int cli_an_dsym_unmatched(cli_an *a, const int64_t *traces, size_t n, int64_t stat_trace,
                          tt_error *err);
int cli_an_frames(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err);
/* Stores the startups of a finished analysis (startup, startup_segment); make_issues adds
 * the STARTUP issue Matrix's state machine emitted (not for report inputs, whose issues are
 * stored from the reports themselves: a row then links the issue row given as its report's
 * tt_su_report.ref). */
int cli_an_startup_rows(cli_an *a, int64_t trace_id, const tt_startup *s, int make_issues,
                        tt_error *err);
/* Stores the launches (launch rows) of a finished analysis. */
int cli_an_startup_launches(cli_an *a, int64_t trace_id, const tt_startup *s, tt_error *err);
/* Sampled stacks (read by path: a btrace sampling file finds its mapping beside it). */
int cli_an_samples(cli_an *a, const char *path, cli_an_trace *t, tt_error *err);
/* ART method traces (art-trace.md 6.1). */
int cli_an_art(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err);
/* Startup event streams (launches = 0) or logcat/am start -W launches (launches = 1). */
int cli_an_startup(cli_an *a, tt_input *in, cli_an_trace *t, int launches, tt_error *err);
/* Stores the per-scene, all-scene and series statistics of a finished frames analysis (the
 * reports model: per-scene and all-scene only); issue_id: 0 = none. */
int cli_an_frame_stats(cli_an *a, int64_t trace_id, const tt_frames *f, int64_t issue_id,
                       tt_error *err);
/* Stores one Matrix FPS report as its own scene_frame_stats row (model reports, ts its time,
 * dur NULL, its own levels) linked to its issue; a report without time gets none. */
int cli_an_fps_report_row(cli_an *a, int64_t trace_id, const tt_fps_report *r,
                          int64_t issue_id, tt_error *err);

/* analyze --jobs (cli_an_jobs.c): worker threads run parse on inputs with a->db a recording
 * (tdb_rec_new) and their diagnostics captured; the writer replays each job in input order.
 * parse opens path and imports it as import_one would. */
typedef int (*cli_an_parse_fn)(cli_an *a, const char *path, tt_kind kind, cli_an_trace *t,
                               tt_error *err);
typedef struct cli_an_pool cli_an_pool;
typedef struct cli_an_job cli_an_job;
/* Starts jobs - 1 threads (one with jobs 1), each with a copy of a (shared read-only:
 * mapping, method rows, options; own caches); the writer, parsing while it would wait, is the
 * last job. CLI_BAD after printing an error. */
int cli_an_pool_start(cli_an_pool **out, const cli_an *a, int jobs, cli_an_parse_fn parse);
/* Stops the threads and frees every job not released; NULL is a no-op. */
void cli_an_pool_stop(cli_an_pool *p);
/* 1 when no more inputs should be queued: 2 x jobs in flight (submitted, not released), or
 * more that add up to 1 MiB or 16 x jobs. */
int cli_an_pool_full(const cli_an_pool *p);
/* Queues an input (t's strings are copied); NULL on out of memory. */
cli_an_job *cli_an_pool_submit(cli_an_pool *p, const char *path, tt_kind kind,
                               const cli_an_trace *t);
/* Waits for j (rather than idle, the writer runs j itself when no worker took it yet, else
 * the oldest queued job, recorded like a worker's), prints its diagnostics, adds its warnings and totals to a and replays its rows
 * into a->db; t->trace_id gets the real trace id. The parse's error or the database's. */
int cli_an_pool_replay(cli_an_pool *p, cli_an_job *j, cli_an *a, cli_an_trace *t,
                       tt_error *err);
/* Frees j (after it finished); NULL is a no-op. */
void cli_an_pool_release(cli_an_pool *p, cli_an_job *j);

/* Calls fn(ctx, i) for every i < n on jobs threads (this one included); returns when all are
 * done. fn must touch nothing shared but its own slot of ctx. */
void cli_an_parallel(size_t n, int jobs, void (*fn)(void *ctx, size_t i), void *ctx);

/* analyze's check of a stream's head (cli_input_check): refuses, with pass 1's message, an
 * input of unknown kind or a database; ud: NULL or a tt_kind that receives the detected kind. */
int cli_an_check_stream(tt_input *head, const char *path, void *ud, tt_error *err);

/* analyze without its summary, for other commands (diff): maps are -m files, inputs the
 * arguments (directories expanded), the database is written to out; event: analyze's
 * --event or NULL. Returns an exit code after printing any error; the caller handles
 * signals (out's "<out>.tmp-<pid>"). */
int cli_analyze_paths(const char *out, char *const *maps, size_t nmaps, const char *proguard,
                      const char *event, char *const *inputs, int ninputs, cli_ctx *ctx);

#endif
