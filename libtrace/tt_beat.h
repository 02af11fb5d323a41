/* Method-beat analysis (spec/method-beat.md): records, Matrix structured stack, stack
 * strings, method and ProGuard mapping, native beat slices, Matrix issue reports.
 * Part of the public API; included by tt.h. */
#ifndef TT_BEAT_H
#define TT_BEAT_H

#include "tt_base.h"

/* ---- method-beat records (method-beat.md sections 1-3) ---- */
#define TT_BEAT_ID_MAX 0xFFFFFu
#define TT_BEAT_DISPATCH 0xFFFFEu
#define TT_BEAT_TIME_MASK 0x7FFFFFFFFFFULL

static inline int tt_beat_is_entry(uint64_t w) { return (int)((w >> 63) & 1u); }
static inline uint32_t tt_beat_id(uint64_t w) { return (uint32_t)((w >> 43) & 0xFFFFFu); }
static inline int64_t tt_beat_time(uint64_t w) { return (int64_t)(w & TT_BEAT_TIME_MASK); }
static inline uint64_t tt_beat_encode(int entry, uint32_t id, int64_t t_ms)
{
    return ((uint64_t)(entry ? 1u : 0u) << 63) | ((uint64_t)(id & 0xFFFFFu) << 43) |
           ((uint64_t)t_ms & TT_BEAT_TIME_MASK);
}

/* AUTO tells binary from text by content and refuses binary data that is no plausible buffer
 * ("not a trace: ..."); AUTO_ANY decides the same way but reads whatever it is given (the
 * kind was forced). */
enum { TT_BEAT_FMT_AUTO = 0, TT_BEAT_FMT_BIN = 1, TT_BEAT_FMT_TEXT = 2, TT_BEAT_FMT_AUTO_ANY = 3 };

typedef struct tt_beat_reader tt_beat_reader;
/* Streaming reader over an open input (borrowed). Owned by the caller, free with
 * tt_beat_reader_free. fmt is TT_BEAT_FMT_*. */
int tt_beat_reader_new(tt_beat_reader **out, tt_input *in, int fmt, tt_error *err);
void tt_beat_reader_free(tt_beat_reader *r);
int tt_beat_reader_format(const tt_beat_reader *r);
/* Fills up to cap records; *n = 0 and TT_DONE at end. Zero words are returned too. */
int tt_beat_reader_next(tt_beat_reader *r, uint64_t *recs, size_t cap, size_t *n,
                        tt_error *err);
/* Rotates a raw ring dump (method-beat.md 3.4): records are handed out as slots k..end, then
 * 0..k-1, where k is Matrix's sIndex (the next slot to be written); 0 = file order. The
 * first k records are held in memory. Call before the first tt_beat_reader_next. */
void tt_beat_reader_set_ring_next(tt_beat_reader *r, uint64_t k);
/* Number of records whose time went backwards, in the order handed out (for the once-only
 * warning). */
uint64_t tt_beat_reader_backwards(const tt_beat_reader *r);
uint64_t tt_beat_reader_count(const tt_beat_reader *r);
/* Parses one text-form record ("-123", "123", "0x7b"); 0 on success. */
int tt_beat_parse_word(const char *s, size_t n, uint64_t *out);
typedef struct tt_mapping tt_mapping;
/* Plausibility of the first records of a buffer (method-beat.md 3.4, detection): among the
 * non-zero words, at most 1/16 may have an invalid method id (0, 0xFFFFF), at most 1/16 a
 * time of 2^36 ms (2.2 years) or more, and at most 1/16 + 1 may be older than their
 * predecessor (one wrap of a ring dump, a few concatenated slices); at least one word must
 * be non-zero, and 64 or more may not all be exits (the direction bit) nor all entries,
 * unless those entries hold a dispatch entry and their times never go backwards (a slice
 * stuck deep in calls, each nested in the one before).
 * With a mapping (may be NULL; one with methods), at least half of the ids must be in it.
 * 1 when plausible; otherwise 0 and why says what was found. */
int tt_beat_plausible(const uint64_t *w, size_t n, const tt_mapping *m, char *why, size_t cap);
/* The same over little-endian bytes (whole words only), except that a whole file (n below
 * TT_DETECT_PEEK) with no non-zero word and non-zero bytes in a trailing partial word is
 * plausible: reading it fails with the incomplete-record error of 3.2. */
int tt_beat_plausible_bytes(const unsigned char *p, size_t n, const tt_mapping *m, char *why,
                            size_t cap);

/* ---- Matrix structured stack (method-beat.md section 5) ---- */
typedef struct tt_mitem {
    int32_t depth, id, count, dur;
} tt_mitem;

enum {
    TT_EMPTY_NONE = 0,
    TT_EMPTY_NO_RECORDS,   /* nothing completed */
    TT_EMPTY_NEGATIVE,     /* a negative duration discarded everything (5.2) */
    TT_EMPTY_FIRST_DEPTH,  /* newest completion not at depth 0 (5.5) */
    TT_EMPTY_TRIMMED       /* trim target < 0 */
};

typedef struct tt_mstack_opts {
    int strict;         /* 1 strict (default), 0 lenient */
    int have_end;       /* end_ms given */
    int64_t end_ms;     /* absolute uptime ms (verbatim, may be ns for HEAD's bug) */
    int64_t base_ms;    /* time base added to entry times when draining */
    int have_cost;
    int64_t cost_ms;    /* analysis cost; default 0 */
    int trim;           /* target lines; 0 = no trimming */
} tt_mstack_opts;

typedef struct tt_mstack tt_mstack;
/* Incremental pairing: feed records in slice order, then finish. Owned by the caller,
 * free with tt_mstack_free. */
int tt_mstack_new(tt_mstack **out, const tt_mstack_opts *opts);
void tt_mstack_free(tt_mstack *m);
void tt_mstack_feed(tt_mstack *m, const uint64_t *recs, size_t n);
/* Runs drain, tree, flatten, trim, string, key. Idempotent after the first call. */
int tt_mstack_finish(tt_mstack *m, tt_error *err);

typedef struct tt_mstack_result {
    const tt_mitem *items; /* trimmed stack in pre-order; borrowed */
    size_t n_items;
    size_t n_untrimmed;    /* lines before trimming */
    int64_t stack_cost;
    int32_t key_id;        /* -1 when the key is empty */
    int32_t key_index;     /* index into items of the key item, -1 if none */
    int empty_reason;      /* TT_EMPTY_* */
    uint64_t negative_record; /* 1-based index of the exit with negative duration */
    /* counters of the pairing pass */
    uint64_t records, zero_records, skipped_before_dispatch, stray_exits, discarded_entries,
        unrelated_bottom, drained, merged;
    int end_defaulted;     /* strict drain used time_base + last record time */
    int64_t end_ms_used;
} tt_mstack_result;
/* Borrowed, valid until tt_mstack_free. Only after tt_mstack_finish. */
const tt_mstack_result *tt_mstack_result_get(const tt_mstack *m);
/* Appends "depth,id,count,dur\n" per item (5.8). */
int tt_mstack_to_string(tt_buf *b, const tt_mitem *items, size_t n);
/* The max-dur rule of 5.8 (starts at 0). */
int64_t tt_mstack_max_dur(const tt_mitem *items, size_t n);
/* getTreeKey (5.9): index of the chosen item or -1. */
ptrdiff_t tt_mstack_tree_key(const tt_mitem *items, size_t n, int64_t stack_cost);
/* trimStack (5.7) in place; returns the new length. */
size_t tt_mstack_trim(tt_mitem *items, size_t n, int target);

/* Java numeric helpers (0.3). */
int32_t tt_java_wrap32(int64_t x);
int64_t tt_java_f2l(float f);
int32_t tt_java_round(float f);

/* ---- stack strings (7.7) ---- */
/* Parses a report's stack ("d,id,count,dur\n..." or the dotted print form) into items.
 * items is owned by the caller (free()). On error err names `file` and the 1-based
 * line inside the stack. */
int tt_stack_parse(tt_mitem **items, size_t *n, const char *s, size_t len, const char *file,
                   uint64_t base_line, tt_error *err);

/* A call tree over items (7.7 step 3): parent index per line (-1 = root), self time. */
typedef struct tt_stree_node {
    int32_t parent;      /* index or -1 */
    int64_t gap;         /* depth gap to the parent (>1 means gap - 1 frames missing); a
                          * root's is depth + 1 (a root at depth N > 0 misses N frames);
                          * up to 2^32 - 1 for int32 depths, so 64 bits */
    int64_t self_ms;     /* clamped to 0 */
    int clamped;
} tt_stree_node;
/* nodes: owned by the caller (free()); one per item. */
int tt_stree_build(tt_stree_node **nodes, const tt_mitem *items, size_t n, size_t *clamps);

/* ---- method mapping (method-beat.md 4.1-4.3) ---- */
typedef struct tt_mapping tt_mapping;
typedef struct tt_method {
    uint32_t id;
    uint32_t flags;
    const char *cls, *name, *desc; /* desc may be NULL */
    uint32_t line;
    int bad_desc;
} tt_method;
typedef struct tt_ctx_warn {
    tt_stats *stats;
} tt_ctx_warn;
/* Owned by the caller, free with tt_mapping_free. */
tt_mapping *tt_mapping_new(void);
void tt_mapping_free(tt_mapping *m);
/* Parses a methodMapping.txt (or baseMethodMapFile) from in. Duplicates are counted into
 * stats (may be NULL). */
int tt_mapping_load(tt_mapping *m, tt_input *in, tt_stats *stats, tt_error *err);
/* 1 when a later tt_mapping_load gave a method id that an earlier one had given another line
 * (the earlier line is kept): the order of the loads decides the mapping. */
int tt_mapping_order_matters(const tt_mapping *m);
/* Parses ignoreMethodMapping.txt. */
int tt_mapping_load_ignore(tt_mapping *m, tt_input *in, tt_error *err);
/* Borrowed; NULL if unknown. The dispatch id is always known. */
const tt_method *tt_mapping_get(const tt_mapping *m, uint32_t id);
uint32_t tt_mapping_max_id(const tt_mapping *m);
size_t tt_mapping_count(const tt_mapping *m);
/* The i-th method in file order (i < tt_mapping_count); borrowed. */
const tt_method *tt_mapping_at(const tt_mapping *m, size_t i);
/* Distinct class+method pairs of the ignoreMethodMapping.txt files loaded. */
size_t tt_mapping_ignored_count(const tt_mapping *m);
/* Lines of those files (duplicates included), and the i-th in load order (i <
 * tt_mapping_ignored_lines): class, method and descriptor as the file gives them, id 0,
 * line its line number; borrowed. */
size_t tt_mapping_ignored_lines(const tt_mapping *m);
const tt_method *tt_mapping_ignored_at(const tt_mapping *m, size_t i);
/* 1 if class+method is listed in ignoreMethodMapping.txt. */
int tt_mapping_is_ignored(const tt_mapping *m, const char *cls, const char *name);
/* Is the input's first line "ignore methods:"? */
int tt_mapping_looks_ignore(const char *p, size_t n);
/* Does the start look like a methodMapping.txt? */
int tt_mapping_looks_like(const char *p, size_t n);

enum { TT_NAME_JAVA = 0, TT_NAME_FULL = 1, TT_NAME_RAW = 2 };
/* Appends the display name (4.2) to b. */
int tt_method_format(tt_buf *b, const tt_method *m, int style);
/* Appends the display name of id, or "<unknown id N>" when unknown (4.2). */
int tt_mapping_format_id(tt_buf *b, const tt_mapping *m, uint32_t id, int style);

/* ---- ProGuard / R8 mapping.txt (4.6) ---- */
typedef struct tt_proguard tt_proguard;
int tt_proguard_load(tt_proguard **out, tt_input *in, tt_error *err);
void tt_proguard_free(tt_proguard *p);
/* Original class name for an obfuscated one, or NULL. Borrowed. */
const char *tt_proguard_class(const tt_proguard *p, const char *obf);
/* Retraces a methodMapping entry in place; new names are copied into a, so they stay valid
 * after tt_proguard_free(p). Returns 1 if ambiguous. */
int tt_proguard_retrace_method(const tt_proguard *p, tt_arena *a, tt_method *m);
/* Retraces every method of a mapping. *ambiguous counts ambiguous choices. */
int tt_mapping_retrace(tt_mapping *m, const tt_proguard *p, size_t *ambiguous);
/* Retraces one Java stack frame text "cls.method(File:line)" -> appended lines to b.
 * Returns 0, or 1 when the frame is ambiguous (several ranges hold its line, or no range
 * does and several names share the obfuscated one): b then holds the candidates joined by
 * " | " with the line unknown (method-beat.md 4.6). */
int tt_proguard_retrace_frame(tt_buf *b, const tt_proguard *p, const char *frame, size_t n);

/* ---- native method-beat slices (beat_slice.c; method-beat.md 8.2) ---- */
enum { TT_SLICE_EXACT = 0, TT_SLICE_INFERRED = 1, TT_SLICE_UNTERMINATED = 2,
       TT_SLICE_TRUNCATED = 3 };

typedef struct tt_bslice {
    int64_t ts_ms, dur_ms, self_ms; /* buffer-relative ms (time base not added) */
    uint32_t id;                    /* Matrix method id */
    int32_t parent;                 /* index of the parent slice, -1 for roots */
    int32_t depth;                  /* 0 for roots */
    uint8_t end_kind;               /* TT_SLICE_* */
    uint8_t dropped;                /* negative duration: not part of the result */
    uint8_t recursive;              /* an ancestor is the same method */
    uint8_t synthetic;              /* the <unknown caller> of orphaned calls (8.2); id 0 */
} tt_bslice;

/* A dispatch long enough to be an evil method, analysed as Matrix would (5.11). */
typedef struct tt_bevil {
    uint32_t slice;        /* index of the dispatch slice */
    int64_t ts_ms, dur_ms; /* dispatch begin and wall time (the analysis cost) */
    int64_t stack_cost;
    int32_t key_id, key_index;
    tt_mitem *items;       /* Matrix stack (trimmed); owned by the slicer */
    size_t n_items;
    int empty_reason;
} tt_bevil;

typedef struct tt_bslicer_opts {
    int64_t base_ms;  /* time base (1.3) */
    int have_end;
    int64_t end_ms;   /* absolute end time for frames still open; the latest record time
                       * when it is earlier (or not given and times went backwards) */
    int64_t evil_ms;  /* evil-method threshold; < 0 disables the Matrix analysis */
    int trim;         /* Matrix trim target for evil stacks (30) */
} tt_bslicer_opts;

typedef struct tt_bslicer_stats {
    uint64_t records, zero_records, invalid_ids, stray_exits, unterminated, truncated,
        negative_dropped, clamped_self, clamped_end, backwards, slices, evil_dispatches;
    /* frames still open at the end closed at the latest record time instead of an end_ms
     * before it (8.2: never before the records they hold) */
    uint64_t end_raised;
    /* calls whose caller entered before the buffer: exits came with nothing open after
     * calls had completed (8.2). orphans: the top-level calls (subtrees) then attached to
     * one synthetic <unknown caller> slice, the first of the list, from the first record's
     * time to the last such exit (caller_exits of them; they are not stray exits) */
    uint64_t orphans, caller_exits;
    int64_t end_ms_used; /* buffer-relative */
    int end_defaulted;
} tt_bslicer_stats;

typedef struct tt_bslicer tt_bslicer;
/* Owned by the caller, free with tt_bslicer_free. Feed records in file order, then finish.
 * TT_EINVAL when base_ms or end_ms lies outside -TT_MS_MAX..TT_MS_MAX. */
int tt_bslicer_new(tt_bslicer **out, const tt_bslicer_opts *opts);
void tt_bslicer_free(tt_bslicer *b);
void tt_bslicer_feed(tt_bslicer *b, const uint64_t *recs, size_t n);
int tt_bslicer_finish(tt_bslicer *b, tt_error *err);
/* Borrowed, valid until tt_bslicer_free; only after finish. Dropped slices are included
 * (skip them); parents never point at a dropped slice. In pre-order; slices[0] is the
 * synthetic <unknown caller> when stats.orphans > 0. stats.slices counts the kept calls
 * (synthetic slice excluded). */
const tt_bslice *tt_bslicer_slices(const tt_bslicer *b, size_t *n);
const tt_bevil *tt_bslicer_evil(const tt_bslicer *b, size_t *n);
const tt_bslicer_stats *tt_bslicer_stats_get(const tt_bslicer *b);

/* ---- Matrix issue reports (import_report.c, report_fields.c; method-beat.md section 7) ---- */

/* Containers (7.1): a JSON array, a stream of JSON objects, text (logcat) lines. */
enum { TT_REPORT_ARRAY = 1, TT_REPORT_STREAM = 2, TT_REPORT_LOG = 3 };
/* Report kinds by tag (7.2): Trace_EvilMethod, Trace_StartUp, Trace_FPS, anything else. */
enum { TT_RKIND_OTHER = 0, TT_RKIND_EVIL = 1, TT_RKIND_STARTUP = 2, TT_RKIND_FPS = 3 };
/* FPS generations (7.4): a (has dropTaskFrameSum), ab (a or b), c (TOTAL_DURATION or
 * REFRESH_RATE present). */
enum { TT_FPS_GEN_NONE = 0, TT_FPS_GEN_A = 1, TT_FPS_GEN_AB = 2, TT_FPS_GEN_C = 3 };
/* Drop levels, index into dropLevel/dropSum arrays (from best to worst). */
enum { TT_DROP_BEST = 0, TT_DROP_NORMAL, TT_DROP_MIDDLE, TT_DROP_HIGH, TT_DROP_FROZEN,
       TT_DROP_LEVELS };
/* Generation c average durations (ns), index into tt_report_fps.dur_ns. */
enum { TT_FPS_DUR_UNKNOWN_DELAY = 0, TT_FPS_DUR_INPUT_HANDLING, TT_FPS_DUR_ANIMATION,
       TT_FPS_DUR_LAYOUT_MEASURE, TT_FPS_DUR_DRAW, TT_FPS_DUR_SYNC, TT_FPS_DUR_COMMAND_ISSUE,
       TT_FPS_DUR_SWAP_BUFFERS, TT_FPS_DUR_TOTAL, TT_FPS_DUR_GPU, TT_FPS_DURS };

typedef struct tt_report_startup {        /* Trace_StartUp (7.3); values in ms */
    int64_t application_create_ms;
    int have_application_create_scene;
    int64_t application_create_scene;       /* msg.what; INT32_MIN or -100 = unknown */
    int64_t first_activity_create_ms;
    int64_t startup_duration_ms;
    int is_warm_start_up;
} tt_report_startup;

typedef struct tt_report_fps {            /* Trace_FPS (7.4) */
    int gen;                                /* TT_FPS_GEN_* */
    double fps;                             /* a Java float widened to double */
    int64_t drop_level[TT_DROP_LEVELS];     /* frames per level, TT_DROP_* order */
    int64_t drop_sum[TT_DROP_LEVELS];       /* dropped frames summed per level */
    int have_drop_task_frame_sum;
    int64_t drop_task_frame_sum;            /* generation a (v0.6.5) */
    int have_dur[TT_FPS_DURS];
    int64_t dur_ns[TT_FPS_DURS];            /* generation c averages, TT_FPS_DUR_* order */
    int have_drop_count, have_refresh_rate;
    int64_t drop_count, refresh_rate;       /* generation c */
} tt_report_fps;

typedef struct tt_report_anr {            /* optional fields of ANR/LAG-type reports */
    int have_process_priority, have_process_nice, have_is_foreground, have_memory,
        have_timer_slack;
    int64_t process_priority, process_nice; /* /proc/<pid>/stat fields 18 and 19 */
    int is_foreground;
    int64_t dalvik_heap_kb, native_heap_kb, vm_size_kb; /* "memory" object */
    int have_dalvik_heap, have_native_heap, have_vm_size; /* each absent or mistyped: 0 */
    int64_t timer_slack;                    /* processTimerSlack */
} tt_report_anr;

/* One decoded report. Every pointer is borrowed: valid until the next
 * tt_report_reader_next or tt_report_reader_free. Strings are NUL-terminated UTF-8;
 * a NULL string and have_* == 0 mean the key was absent. */
typedef struct tt_report {
    const char *file;        /* input name */
    uint64_t line;           /* 1-based line where the report (its '{' or its log line) starts */
    uint64_t index;          /* 0-based index among the reports this reader returned */
    int container;           /* TT_REPORT_* */
    /* log container only: the wrapper tag[..]type[..];key[..] (key NULL when "null") */
    const char *wrap_tag, *wrap_key;
    int have_wrap_type;
    int64_t wrap_type;
    /* common blocks (7.2) */
    int kind;                /* TT_RKIND_* */
    const char *tag;         /* the JSON's tag; the wrapper's or inferred when absent */
    int tag_inferred;        /* tag was absent from the JSON object */
    const char *detail;      /* Trace_EvilMethod detail (NORMAL, ANR, LAG, ...) */
    const char *scene, *process, *machine, *usage;
    int have_time, have_cost, have_type;
    int64_t time_ms;         /* epoch ms at report time */
    int64_t cost_ms;         /* stackCost (5.8) */
    int64_t type;            /* tail "type" (absent for trace issues) */
    /* method-beat stack (7.7) */
    int have_stack;
    const char *stack;       /* raw "depth,id,count,dur\n..." text */
    const tt_mitem *items;   /* decoded with tt_stack_parse */
    size_t n_items;
    const char *stack_key;   /* raw stackKey, e.g. "243|" */
    int32_t key_id;          /* the id in stackKey; -1 when absent, empty or unparsable */
    ptrdiff_t key_index;     /* the items[] line key_id names (getTreeKey's choice), -1 */
    int have_sub_type;
    int64_t sub_type;        /* STARTUP: 1 cold, 2 warm; v0.4 evil method: -1 */
    const char *thread_stack; /* Java stack text, '\n'-separated frames */
    tt_report_anr anr;
    tt_report_startup startup; /* valid when kind == TT_RKIND_STARTUP */
    tt_report_fps fps;         /* valid when kind == TT_RKIND_FPS */
    const char *json;        /* the whole object re-serialised compactly, keys in input order;
                              * NULL after tt_report_reader_set_json(r, 0) */
    size_t json_len;
} tt_report;

typedef struct tt_report_reader tt_report_reader;
/* Streaming reader over in (borrowed; must outlive the reader), container detected from the
 * first bytes (7.1). Counted warnings go to stats (may be NULL): report_missing_field and
 * report_mistyped_field (a required field: the report is skipped), report_line_malformed
 * (a log line whose content[...] is cut or not JSON: skipped), report_bad_field (an
 * optional field of the wrong type, ignored), report_bad_stack_key; informational:
 * report_lines_skipped (log lines without a wrapper), report_unknown_tag,
 * report_unknown_detail, report_tag_inferred. Owned by the caller, free with
 * tt_report_reader_free. */
int tt_report_reader_new(tt_report_reader **out, tt_input *in, tt_stats *stats, tt_error *err);
void tt_report_reader_free(tt_report_reader *r);
/* Next usable report: 0 and *rep (borrowed until the next call), TT_DONE at the end, or an
 * error naming file and line (invalid JSON, a bad stack line, no report in the file). */
int tt_report_reader_next(tt_report_reader *r, const tt_report **rep, tt_error *err);
/* Whether tt_report.json is filled (default 1); re-serialising costs about a third of the
 * reading time, so readers that never look at it turn it off. */
void tt_report_reader_set_json(tt_report_reader *r, int on);
/* TT_REPORT_* of the input (detected by tt_report_reader_new). */
int tt_report_reader_container(const tt_report_reader *r);
/* Reports returned, and reports skipped for missing or mistyped fields, so far. */
uint64_t tt_report_reader_count(const tt_report_reader *r);
uint64_t tt_report_reader_skipped(const tt_report_reader *r);
/* Every top-level key of the current report (the one the last tt_report_reader_next
 * returned), in input order: type is TT_JSON_*, text the string's value for strings and
 * the compact JSON text otherwise (both borrowed for the call). A non-zero return of fn
 * stops the walk and is returned. For storing keys that tt_report has no field for. */
enum { TT_JSON_NULL = 0, TT_JSON_BOOL, TT_JSON_INT, TT_JSON_REAL, TT_JSON_STRING, TT_JSON_OBJECT,
       TT_JSON_ARRAY };
typedef int (*tt_report_key_fn)(void *ctx, const char *key, int type, const char *text,
                                size_t len);
int tt_report_reader_keys(tt_report_reader *r, tt_report_key_fn fn, void *ctx, tt_error *err);
/* Issue kind of storage.md 3.4: "evil_method", "anr", "lag", "startup", "signal_anr",
 * "idle_lag", "touch_lag", "priority", "timerslack", "fps" or "other". Static. */
const char *tt_report_issue_kind(const tt_report *r);
/* The issue's cost in ms, Matrix's stackCost (method-beat.md 5.8): the report's 'cost', or
 * for a Trace_StartUp report without one (Matrix writes none) its startup_duration. 0 when
 * neither is there (*ms untouched), else 1. What issue.cost_ms holds (analyze). */
int tt_report_cost(const tt_report *r, int64_t *ms);
/* The stack-key line's call path: indexes into r->items from the root to key_index (each
 * line's parent is the nearest previous line with a smaller depth, 7.7). Writes at most cap
 * of them and returns the path length (0 without a key line). */
size_t tt_report_key_path(const tt_report *r, int32_t *idx, size_t cap);
/* Static names: "array", "stream", "log"; "a", "ab", "c"; "BEST" ... "FROZEN"; the
 * generation c key ("UNKNOWN_DELAY_DURATION" ...). NULL for values out of range. */
const char *tt_report_container_name(int container);
const char *tt_report_fps_gen_name(int gen);
const char *tt_report_drop_level_name(int level);
const char *tt_report_fps_dur_name(int dur);

#endif
