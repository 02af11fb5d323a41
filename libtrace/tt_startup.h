/* Startup (spec/startup.md). Part of the public API; included by tt.h. */
#ifndef TT_STARTUP_H
#define TT_STARTUP_H

#include "tt_beat.h"

/* ---- startup (startup.c; spec/startup.md) ---- */
/* Event kinds of the JSON-lines startup stream (4.2). */
enum {
    TT_SU_LAUNCH_INTENT = 0, TT_SU_PROCESS_START, TT_SU_FIRST_METHOD, TT_SU_BIND_BEGIN,
    TT_SU_BIND_END, TT_SU_APP_CREATE_END, TT_SU_ACTIVITY_CREATE, TT_SU_ACTIVITY_START,
    TT_SU_ACTIVITY_RESUME, TT_SU_ACTIVITY_STOP, TT_SU_ACTIVITY_DESTROY, TT_SU_WINDOW_FOCUS,
    TT_SU_FIRST_FRAME, TT_SU_FULLY_DRAWN, TT_SU_TIME_BASE, TT_SU_NKINDS
};
/* Name of an event kind ("process_start"), or NULL. */
const char *tt_su_kind_name(int kind);

enum { TT_SU_COLD = 0, TT_SU_WARM, TT_SU_HOT, TT_SU_UNKNOWN };
const char *tt_su_type_name(int type);

#define TT_SU_SCENE_UNKNOWN INT32_MIN

/* Input kinds recognised by tt_su_detect. */
enum { TT_SU_IN_UNKNOWN = 0, TT_SU_IN_EVENTS, TT_SU_IN_LAUNCHES, TT_SU_IN_REPORT,
       TT_SU_IN_BEAT, TT_SU_IN_MAPPING };
/* Detects the kind of a startup input from its first bytes (after decompression): also a
 * method-beat buffer (binary, or text whose first record line is a 64-bit word) and a
 * methodMapping.txt / ignoreMethodMapping.txt. */
int tt_su_detect(const char *p, size_t n);

/* Matrix's thresholds (startup.md 1.3) when tt_su_opts leaves them unset. */
#define TT_SU_COLD_MS_DEFAULT 10000
#define TT_SU_WARM_MS_DEFAULT 4000

typedef struct tt_su_opts {
    const char *splash;        /* Matrix splash set "a.B;c.D", may be NULL */
    int64_t cold_ms, warm_ms;  /* Matrix thresholds (1.3) when has_cold_ms / has_warm_ms
                                * (0 included), else the defaults 10000 / 4000 */
    int has_cold_ms, has_warm_ms;
    int no_ui;                 /* process configured without activities */
    int force_stack;           /* compute the Matrix-compatible stack of every cold start */
    int have_base;             /* base_ms given (--base-ms) */
    int64_t base_ms;
    const uint64_t *beat;      /* method-beat buffer covering the startup; borrowed */
    size_t n_beat;
    const tt_mapping *mapping; /* names for native blame; borrowed, may be NULL */
} tt_su_opts;

/* One report Matrix's state machine emits (1.5), or one read from a Matrix report (4.1). */
typedef struct tt_su_matrix {
    int64_t application_create, first_activity_create, startup_duration;
    int32_t scene;             /* application_create_scene */
    int is_warm;
    int issue_only;            /* a STARTUP issue without its Trace_StartUp report: the
                                  application/first-activity fields and scene are unknown */
    int64_t all_cost;          /* duration before the max with the longest line; -1 unknown */
    int64_t at_ms;             /* uptime of the analysis (events), -1 for reports */
    int stack_collected;       /* data copied: all_cost >= threshold (1.5 step 1) */
    int has_issue;             /* a STARTUP Trace_EvilMethod issue exists */
    int64_t cost;              /* issue cost (= stackCost) */
    const char *stack, *stack_key; /* "" when empty; never NULL */
    int sub_type;              /* 1 cold, 2 warm */
    uint32_t process;          /* index of the process (tt_su_row.process) */
    const char *process_name;  /* report tail, NULL when unknown */
    int64_t time_ms;           /* report tail time, -1 when unknown */
    int64_t issue_time_ms;     /* tail time of the STARTUP issue, -1 when unknown */
    const char *file;          /* input of a report read from a file (4.1), else NULL */
    int64_t issue_ref;         /* tt_su_report.ref of the STARTUP issue, 0 when none */
    struct tt_su_matrix *issue; /* a Trace_StartUp report's attached issue report, or NULL */
} tt_su_matrix;

typedef struct tt_su_segment {
    const char *name, *from, *to; /* static strings */
    int64_t from_ms, to_ms, dur_ms;
} tt_su_segment;

typedef struct tt_su_self {
    int32_t id;
    const char *name;          /* display name, "#id" without a mapping */
    int64_t self_ms;
    uint64_t calls;
} tt_su_self;

typedef struct tt_su_native {
    int32_t blame_id;          /* -1: no blame */
    const char *blame_name;
    const char *blame_path;    /* root -> blamed method, names joined by " > " */
    int64_t blame_ms;
    const tt_su_self *top_self;
    size_t n_top_self;
    uint64_t calls, truncated, unterminated, stray_exits, negative;
} tt_su_native;

typedef struct tt_su_row {
    int type;                  /* TT_SU_* */
    const char *source;        /* "events" or "matrix_report" */
    const char *file;
    uint32_t process;          /* 0-based index of the process in the run */
    int has_pid;
    int64_t pid;
    int has_start, has_end;
    int64_t start_ms, end_ms, duration_ms;
    const char *start_event, *end_event; /* NULL when unknown */
    const tt_su_matrix *matrix;          /* NULL: Matrix emitted no report for it */
    const tt_su_segment *segs;
    size_t n_segs;
    int has_ttid, has_ttfd;
    int64_t ttid_ms, ttfd_ms;
    int matrix_over_threshold, matrix_stack_collected, vitals_excessive;
    const char *vitals_basis;  /* "ttid", "duration" or "matrix" */
    int has_stack;             /* stack fields computed (buffer or report) */
    const char *stack, *stack_key;
    int64_t stack_cost;        /* Matrix stackCost; -1 when unknown */
    const tt_su_native *native;/* NULL without a buffer */
} tt_su_row;

/* A system-measured launch: `am start -W` block or logcat Displayed line (4.3, 4.4). */
typedef struct tt_su_launch {
    const char *source;        /* "am" or "logcat" */
    const char *file;
    uint64_t line;
    const char *component;     /* "" when unknown */
    const char *launch_state;  /* NULL when absent */
    const char *status;        /* NULL when absent */
    int has_total, has_wait, has_this, has_fully_drawn;
    int64_t total_ms, wait_ms, this_ms, fully_drawn_ms;
    char log_time[24];         /* "MM-DD HH:MM:SS.mmm" or "" */
    int not_launched;          /* am "Warning: Activity not started" */
    int incomplete;            /* am block without "Complete" */
} tt_su_launch;

/* Distribution of a value over repeated launches (5.5 stats). */
typedef struct tt_su_dist {
    size_t count;
    int64_t min, median, p90, max; /* median of an even count: truncated mean of the middle */
    int64_t mean;                  /* truncated toward zero, integer ms like the median */
} tt_su_dist;
/* Sorts v in place and fills d (all zero when n == 0). */
void tt_su_dist_compute(tt_su_dist *d, int64_t *v, size_t n);

/* A Matrix Trace_StartUp or STARTUP Trace_EvilMethod report, as a report reader decoded it
 * (4.1). Strings are borrowed for the duration of tt_startup_add_report. */
typedef struct tt_su_report {
    int is_issue;              /* 0 Trace_StartUp, 1 STARTUP issue */
    const char *file;
    uint64_t line;
    const char *process;       /* NULL when absent */
    int64_t time_ms;           /* -1 when absent */
    /* Trace_StartUp */
    int64_t application_create, first_activity_create, startup_duration;
    int32_t scene;
    int is_warm;
    /* STARTUP issue */
    int64_t cost;
    const char *stack, *stack_key;
    int sub_type;
    int64_t ref;               /* the caller's reference of the report (analyze: its issue
                                  row), kept as tt_su_matrix.issue_ref; 0 = none */
} tt_su_report;

typedef struct tt_startup tt_startup;
/* Analysis context. stats may be NULL. Owned by the caller, free with tt_startup_free. */
int tt_startup_new(tt_startup **out, const tt_su_opts *opts, tt_stats *stats, tt_error *err);
void tt_startup_free(tt_startup *s);
/* Reads a JSON-lines event stream (4.2) and analyses each process in it. */
int tt_startup_read_events(tt_startup *s, tt_input *in, tt_error *err);
/* Reads logcat Displayed/Fully drawn lines and `am start -W` blocks, mixed freely.
 * TT_ENOTFOUND when the input holds none. */
int tt_startup_read_launches(tt_startup *s, tt_input *in, tt_error *err);
/* Adds one decoded Matrix report; tt_startup_finish attaches issues to startups. */
int tt_startup_add_report(tt_startup *s, const tt_su_report *r, tt_error *err);
/* Attaches report issues (4.1) and computes statistics. Call once after the inputs. */
int tt_startup_finish(tt_startup *s, tt_error *err);

/* Results, borrowed until tt_startup_free. Rows and launches are in input order. */
const tt_su_row *tt_startup_rows(const tt_startup *s, size_t *n);
const tt_su_launch *tt_startup_launches(const tt_startup *s, size_t *n);
/* Every report the Matrix state machine emitted, in emission order (5.1). */
const tt_su_matrix *const *tt_startup_matrix(const tt_startup *s, size_t *n);
/* TotalTime of `am start -W` launches (status ok, launched) and logcat TTID. */
const tt_su_dist *tt_startup_am_stats(const tt_startup *s);
const tt_su_dist *tt_startup_logcat_stats(const tt_startup *s);

/* Parses an Android TimeUtils duration ("+1s234ms", "0") into ms; 0 on success. */
int tt_su_parse_duration(const char *s, size_t n, int64_t *ms, size_t *used);
/* Writes one Matrix-style object (7.3, Android escaping): the Trace_StartUp report when
 * issue == 0, the STARTUP Trace_EvilMethod issue otherwise. */
void tt_su_matrix_json(tt_jsonw *w, const tt_su_matrix *m, int issue);

#endif
