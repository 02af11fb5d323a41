/* libtrace public API: inputs, method-beat analysis (spec/method-beat.md), reports.
 * Libraries never print, never exit; every function reports through tt_error. */
#ifndef TT_H
#define TT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- errors (STYLE.md section 4) ---- */
enum {
    TT_OK = 0,
    TT_ENOMEM = -1,
    TT_EIO = -2,
    TT_EFORMAT = -3,
    TT_EUNSUPPORTED = -4,
    TT_ENOTFOUND = -5,
    TT_ELIMIT = -6,
    TT_EINVAL = -7,
    TT_DONE = 1
};

#define TT_ERRMSG_MAX 512
#define TT_LOC_NONE 0
#define TT_LOC_LINE 1   /* text input: loc is a 1-based line number */
#define TT_LOC_OFFSET 2 /* binary input: loc is a byte offset */

typedef struct tt_error {
    int code;
    int loc_kind;
    uint64_t loc;
    char file[256];
    char msg[TT_ERRMSG_MAX];
} tt_error;

/* Fill err (may be NULL) and return code. file may be NULL. */
int tt_error_set(tt_error *err, int code, const char *file, int loc_kind, uint64_t loc,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
void tt_error_clear(tt_error *err);
const char *tt_strerror(int code);

/* ---- stats sink: counted repairs and warnings ---- */
enum { TT_SEV_INFO = 0, TT_SEV_WARN = 1, TT_SEV_DATA_LOSS = 2 };

typedef struct tt_stat {
    char name[48];
    char file[256];
    int severity;
    int64_t count;
    char example[200]; /* first occurrence, with its location */
} tt_stat;

typedef struct tt_stats tt_stats;
/* Owned by the caller, free with tt_stats_free. */
tt_stats *tt_stats_new(void);
void tt_stats_free(tt_stats *s);
/* Count n occurrences of `name` for `file`; the first call keeps `example` (may be NULL). */
void tt_stats_add(tt_stats *s, const char *name, const char *file, int severity, int64_t n,
                  const char *example);
size_t tt_stats_count(const tt_stats *s);
/* Borrowed, valid until the next tt_stats_add or tt_stats_free. */
const tt_stat *tt_stats_get(const tt_stats *s, size_t i);

/* ---- arena ---- */
typedef struct tt_arena tt_arena;
tt_arena *tt_arena_new(void);
void tt_arena_free(tt_arena *a);
/* Borrowed, valid until tt_arena_free. NULL on out of memory. */
void *tt_arena_alloc(tt_arena *a, size_t n);
char *tt_arena_strndup(tt_arena *a, const char *s, size_t n);
size_t tt_arena_used(const tt_arena *a);

/* ---- growable array ---- */
typedef struct tt_vec {
    void *data;
    size_t len, cap, elem;
} tt_vec;
void tt_vec_init(tt_vec *v, size_t elem);
void tt_vec_free(tt_vec *v);
/* Appends one element (copied from p, or zeroed when p is NULL); returns its address. */
void *tt_vec_push(tt_vec *v, const void *p);
int tt_vec_reserve(tt_vec *v, size_t n);
#define TT_VEC_AT(v, type, i) (((type *)(v)->data)[i])

/* ---- byte buffer ---- */
typedef struct tt_buf {
    char *data;
    size_t len, cap;
} tt_buf;
int tt_buf_put(tt_buf *b, const char *p, size_t n);
int tt_buf_puts(tt_buf *b, const char *s);
int tt_buf_printf(tt_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tt_buf_free(tt_buf *b);

/* ---- input: file or "-", gzip transparent, streaming ---- */
typedef struct tt_input tt_input;
/* Opens path ("-" = stdin). Owned by the caller, free with tt_input_close. */
int tt_input_open(tt_input **out, const char *path, tt_error *err);
/* Wraps an in-memory buffer (borrowed; must outlive the input). */
int tt_input_open_mem(tt_input **out, const char *name, const void *data, size_t n,
                      tt_error *err);
void tt_input_close(tt_input *in);
const char *tt_input_name(const tt_input *in);
/* Up to n bytes of the (decompressed) start of the input, without consuming them. */
int tt_input_peek(tt_input *in, const unsigned char **p, size_t *n, size_t want, tt_error *err);
/* Reads up to n bytes; *got = 0 at end. */
int tt_input_read(tt_input *in, void *dst, size_t n, size_t *got, tt_error *err);
/* Next line without its '\n' (a trailing '\r' is kept). Borrowed until the next call.
 * Returns TT_DONE at end of input. *lineno is 1-based. */
int tt_input_line(tt_input *in, const char **line, size_t *len, uint64_t *lineno,
                  tt_error *err);
/* Bytes consumed so far (of decompressed data). */
uint64_t tt_input_offset(const tt_input *in);
int tt_input_is_gzip(const tt_input *in);
/* Reads the rest of the input into memory. Owned by the caller (free()). */
int tt_input_slurp(tt_input *in, char **data, size_t *n, tt_error *err);

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

enum { TT_BEAT_FMT_AUTO = 0, TT_BEAT_FMT_BIN = 1, TT_BEAT_FMT_TEXT = 2 };

typedef struct tt_beat_reader tt_beat_reader;
/* Streaming reader over an open input (borrowed). Owned by the caller, free with
 * tt_beat_reader_free. fmt is TT_BEAT_FMT_*. */
int tt_beat_reader_new(tt_beat_reader **out, tt_input *in, int fmt, tt_error *err);
void tt_beat_reader_free(tt_beat_reader *r);
int tt_beat_reader_format(const tt_beat_reader *r);
/* Fills up to cap records; *n = 0 and TT_DONE at end. Zero words are returned too. */
int tt_beat_reader_next(tt_beat_reader *r, uint64_t *recs, size_t cap, size_t *n,
                        tt_error *err);
/* Number of records whose time went backwards (for the once-only warning). */
uint64_t tt_beat_reader_backwards(const tt_beat_reader *r);
uint64_t tt_beat_reader_count(const tt_beat_reader *r);
/* Parses one text-form record ("-123", "123", "0x7b"); 0 on success. */
int tt_beat_parse_word(const char *s, size_t n, uint64_t *out);

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
    int32_t gap;         /* depth gap to the parent (>1 means frames missing) */
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
/* Parses ignoreMethodMapping.txt. */
int tt_mapping_load_ignore(tt_mapping *m, tt_input *in, tt_error *err);
/* Borrowed; NULL if unknown. The dispatch id is always known. */
const tt_method *tt_mapping_get(const tt_mapping *m, uint32_t id);
uint32_t tt_mapping_max_id(const tt_mapping *m);
size_t tt_mapping_count(const tt_mapping *m);
size_t tt_mapping_ignored_count(const tt_mapping *m);
/* 1 if class+method is listed in ignoreMethodMapping.txt. */
int tt_mapping_is_ignored(const tt_mapping *m, const char *cls, const char *name);
/* Is the input's first line "ignore methods:"? */
int tt_mapping_looks_ignore(const char *p, size_t n);
/* Does the start look like a methodMapping.txt? */
int tt_mapping_looks_like(const char *p, size_t n);

enum { TT_NAME_JAVA = 0, TT_NAME_FULL = 1, TT_NAME_RAW = 2 };
/* Appends the display name (4.2) to b. */
int tt_method_format(tt_buf *b, const tt_method *m, int style);
/* Appends the display name of id, or "#<id>" when unknown. */
int tt_mapping_format_id(tt_buf *b, const tt_mapping *m, uint32_t id, int style);

/* ---- ProGuard / R8 mapping.txt (4.6) ---- */
typedef struct tt_proguard tt_proguard;
int tt_proguard_load(tt_proguard **out, tt_input *in, tt_error *err);
void tt_proguard_free(tt_proguard *p);
/* Original class name for an obfuscated one, or NULL. Borrowed. */
const char *tt_proguard_class(const tt_proguard *p, const char *obf);
/* Retraces a methodMapping entry in place (names re-pointed into p's / arena storage).
 * Returns 1 if ambiguous. */
int tt_proguard_retrace_method(const tt_proguard *p, tt_arena *a, tt_method *m);
/* Retraces every method of a mapping. *ambiguous counts ambiguous choices. */
int tt_mapping_retrace(tt_mapping *m, const tt_proguard *p, size_t *ambiguous);
/* Retraces one Java stack frame text "cls.method(File:line)" -> appended lines to b. */
int tt_proguard_retrace_frame(tt_buf *b, const tt_proguard *p, const char *frame, size_t n);

/* ---- JSON writer (streaming) ---- */
typedef int (*tt_write_fn)(void *ctx, const char *p, size_t n);
typedef struct tt_jsonw {
    tt_buf buf;
    int depth;
    unsigned char first[64]; /* per level: no element written yet */
    int android;             /* Android org.json escaping: '/' escaped */
    int pretty;
} tt_jsonw;
void tt_jsonw_init(tt_jsonw *w, int android_escaping);
void tt_jsonw_free(tt_jsonw *w);
void tt_jsonw_obj_begin(tt_jsonw *w);
void tt_jsonw_obj_end(tt_jsonw *w);
void tt_jsonw_arr_begin(tt_jsonw *w);
void tt_jsonw_arr_end(tt_jsonw *w);
void tt_jsonw_key(tt_jsonw *w, const char *k);
void tt_jsonw_str(tt_jsonw *w, const char *s);
void tt_jsonw_strn(tt_jsonw *w, const char *s, size_t n);
void tt_jsonw_int(tt_jsonw *w, int64_t v);
void tt_jsonw_uint(tt_jsonw *w, uint64_t v);
void tt_jsonw_double(tt_jsonw *w, double v);
void tt_jsonw_bool(tt_jsonw *w, int v);
void tt_jsonw_null(tt_jsonw *w);
/* Raw JSON text as one value. */
void tt_jsonw_raw(tt_jsonw *w, const char *s, size_t n);
/* Formats a double as Java/Android would print it (7.6): integral values without
 * fraction, others with the shortest round-trip representation. */
int tt_json_format_double(char *dst, size_t cap, double v);

/* ---- Matrix issue reports (import_report.c; method-beat.md section 7) ---- */

/* ---- frames and FPS (frames.c, import_frames.c; spec/frames.md) ---- */

/* ---- startup (startup.c; spec/startup.md) ---- */

/* ---- sampled stacks (import_perf.c, import_btrace.c, slice.c, export_*.c; spec/samples.md) ---- */
/* Row types are named after storage.md 3.7 (stack_frame, callsite, sample, slice, thread) so
 * the store can write them directly. Times are int64 ns; TT_NONE marks a missing u32 id. */
#define TT_NONE UINT32_MAX
#define TT_MAX_STACK_DEPTH 4096 /* deeper stacks are rejected and counted */

/* Sample types (samples.md 2.1.3, 2.4). */
enum { TT_ST_CPU = 0, TT_ST_CUSTOM, TT_ST_ALLOC, TT_ST_JNI, TT_ST_BINDER, TT_ST_WAIT,
       TT_ST_PARK, TT_ST_MONITOR, TT_ST_MUTEX, TT_ST_GC, TT_ST_LOAD_LIBRARY, TT_ST_IO,
       TT_ST_WAKE, TT_ST_OTHER, TT_ST_COUNT };
const char *tt_sample_type_name(int type);
/* Type for a name ("cpu", "park", ...), -1 if unknown. */
int tt_sample_type_parse(const char *s, size_t n);
/* 1 for the types whose intervals are spent waiting by default. */
int tt_sample_type_blocking(int type);

enum { TT_FRAME_JAVA = 0, TT_FRAME_NATIVE, TT_FRAME_KERNEL, TT_FRAME_JS, TT_FRAME_SYNTHETIC };
const char *tt_frame_kind_name(int kind);
/* Frame identity (samples.md 4.1). */
enum { TT_IDENT_NAME = 0, TT_IDENT_ADDRESS = 1 };

/* One stack_frame row. Strings are borrowed from the profile's arena. */
typedef struct tt_stack_frame {
    const char *name;     /* canonical display name; never NULL */
    const char *raw_name; /* as in the source (PrettyMethod, perf symbol+off), or NULL */
    const char *module;   /* module basename, or NULL */
    const char *file;     /* source file, or NULL */
    int32_t line;         /* 0 = unknown */
    int kind;             /* TT_FRAME_* */
    int has_rel_pc, has_addr, is_unnamed; /* is_unnamed: name made from an address */
    uint64_t rel_pc, addr;
} tt_stack_frame;

/* One callsite row: node (parent, frame) of the prefix tree (samples.md 4.2). Children
 * always have larger ids than their parents. */
typedef struct tt_callsite {
    uint32_t parent; /* TT_NONE at the root frame */
    uint32_t frame;
    uint32_t depth;  /* 0 at the root */
} tt_callsite;

/* One thread row. */
typedef struct tt_thread {
    uint32_t utid;
    uint32_t source;   /* input ordinal: threads of different inputs never merge */
    int64_t pid;       /* -1 = unknown */
    int64_t tid;
    int tid_bits;      /* 16 for btrace, else 32 */
    const char *name;  /* NULL: shown as Thread-<tid> */
    int is_main;
} tt_thread;

enum { TT_CTR_ALLOC_OBJECTS = 0, TT_CTR_ALLOC_BYTES, TT_CTR_MAJ_FLT, TT_CTR_NV_CSW,
       TT_CTR_NIV_CSW, TT_CTR_COUNT };
const char *tt_counter_name(int i);
/* Cumulative per-thread counters of one sample; bit i of `known` says v[i] is valid. For
 * interval samples they belong to the end (samples.md 2.1.3). */
typedef struct tt_counters {
    uint64_t v[TT_CTR_COUNT];
    unsigned known;
} tt_counters;

/* The internal sample record (samples.md 1). */
typedef struct tt_sample {
    int64_t ts, end_ts;   /* end_ts == ts for point samples */
    int64_t cpu, end_cpu; /* thread CPU ns, -1 = unknown */
    int64_t weight;       /* perf period, btrace interval length, 1 otherwise */
    uint64_t msg_id;      /* 0 = unknown */
    uint32_t utid, callsite, seq;
    uint32_t count;       /* raw samples represented (folded lines carry a count) */
    uint32_t waker_utid;  /* TT_NONE */
    uint32_t waker_seq;   /* sample index of the waker's wake-up sample, TT_NONE */
    uint32_t ctr;         /* index of its tt_counters, TT_NONE when none */
    uint8_t type, is_blocking, is_interval;
} tt_sample;

/* A run: consecutive samples of one thread merged (samples.md 4.3); also one `sample` row. */
typedef struct tt_run {
    int64_t ts, end_ts, cpu, end_cpu, weight;
    uint64_t msg_id;
    uint32_t callsite, count;
    uint32_t first, last; /* sample indices of the first and last sample */
    uint32_t waker_utid, waker_seq;
    uint8_t type, is_blocking, is_interval;
} tt_run;

/* Profile-wide facts (trace and metadata rows). Strings borrowed from the arena. */
typedef struct tt_profile_meta {
    const char *source_format; /* 'btrace','perf_script','folded','tt_samples','matrix_beat' */
    const char *clock;         /* 'boottime','monotonic','realtime','relative','unknown' */
    const char *process;       /* NULL = unknown */
    const char *event;         /* perf event kept, or NULL */
    int64_t pid;               /* -1 = unknown */
    int64_t interval_ns;       /* 0 = unknown */
    int timeless;              /* folded: no times, slices cannot be built */
    int truncated;             /* the input ended early: open slices are `truncated` */
    int ambiguous_ts;          /* old simpleperf fractions: slices are unreliable */
} tt_profile_meta;

/* Frames, callsites, threads and samples of one analysis. Owned by the caller, free with
 * tt_profile_free. identity is TT_IDENT_*. */
typedef struct tt_profile tt_profile;
int tt_profile_new(tt_profile **out, int identity);
void tt_profile_free(tt_profile *p);
/* Borrowed, mutable; valid until tt_profile_free. */
tt_profile_meta *tt_profile_meta_get(tt_profile *p);
/* Copies n bytes into the profile's arena (invalid UTF-8 replaced by U+FFFD). Borrowed. */
const char *tt_profile_str(tt_profile *p, const char *s, size_t n);
/* Interns a frame by identity (strings are copied); *id is its dense id. */
int tt_frame_intern(tt_profile *p, uint32_t *id, const tt_stack_frame *f);
/* Interns a root-first frame list (n >= 1) as callsites; *leaf is the leaf callsite. */
int tt_callsite_intern(tt_profile *p, uint32_t *leaf, const uint32_t *frames, size_t n);
/* Thread handle for (source, pid, tid); pid -1 = unknown. */
int tt_thread_intern(tt_profile *p, uint32_t *utid, uint32_t source, int64_t pid, int64_t tid,
                     int tid_bits);
/* Sets a thread's name (copied); the last name wins unless keep_first. 1 if a different
 * name was already set. */
int tt_thread_set_name(tt_profile *p, uint32_t utid, const char *name, size_t n, int keep_first);
void tt_thread_set_main(tt_profile *p, uint32_t utid);
/* Renames a frame, e.g. after native symbolication (name copied). */
int tt_frame_set_name(tt_profile *p, uint32_t id, const char *name);
/* A point sample at 0 with weight 1 and every optional value unknown. */
void tt_sample_init(tt_sample *s);
/* Appends a sample (seq assigned); counters may be NULL. TT_ELIMIT when a time is outside
 * +-2^62 ns, a CPU time below -1, or the weight outside 0..2^40 (the sample is not added). */
int tt_profile_add(tt_profile *p, const tt_sample *s, const tt_counters *c);
/* Sorts every thread's samples by (ts, seq). Call once after importing. */
int tt_profile_finish(tt_profile *p, tt_error *err);

/* Read access; pointers are borrowed until the next intern/add or tt_profile_free. */
size_t tt_profile_nframes(const tt_profile *p);
size_t tt_profile_ncallsites(const tt_profile *p);
size_t tt_profile_nthreads(const tt_profile *p);
size_t tt_profile_nsamples(const tt_profile *p);
const tt_stack_frame *tt_profile_frame(const tt_profile *p, uint32_t id);
const tt_callsite *tt_profile_callsite(const tt_profile *p, uint32_t id);
const tt_thread *tt_profile_thread(const tt_profile *p, uint32_t utid);
tt_sample *tt_profile_sample(tt_profile *p, uint32_t i);
const tt_counters *tt_profile_counters(const tt_profile *p, uint32_t ctr);
/* After finish: the thread's sample indices in (ts, seq) order. Borrowed. */
const uint32_t *tt_profile_thread_order(const tt_profile *p, uint32_t utid, size_t *n);
/* Root-first frame ids of a callsite into out (cap >= depth + 1); returns the count. */
size_t tt_callsite_frames(const tt_profile *p, uint32_t callsite, uint32_t *out, size_t cap);
/* Appends a thread's display name ("main", "Thread-123"). */
int tt_thread_format(tt_buf *b, const tt_profile *p, uint32_t utid);

/* Max gap (samples.md 5.4): TT_GAP_AUTO = 20 x median item interval clamped to
 * [5 ms, 200 ms]; TT_GAP_NONE = unlimited. */
#define TT_GAP_AUTO (-1)
#define TT_GAP_NONE INT64_MAX
/* The max gap in ns used for a thread under the option value max_gap. */
int64_t tt_profile_max_gap(const tt_profile *p, uint32_t utid, int64_t max_gap);
/* Runs of one thread in time order into out (tt_run elements; cleared first). */
int tt_profile_runs(tt_vec *out, const tt_profile *p, uint32_t utid, int64_t max_gap_ns);

/* Aggregates (samples.md 6), arrays indexed by callsite id / frame id. */
typedef struct tt_weight {
    int64_t self_weight, total_weight;
    uint64_t self_samples, total_samples;
} tt_weight;
/* Per callsite: self at the leaf, total over the subtree. utid TT_NONE = all threads.
 * out has tt_profile_ncallsites entries (zeroed here). */
int tt_profile_callsite_weights(tt_weight *out, const tt_profile *p, uint32_t utid);
/* Per frame (flat profile) from callsite weights: recursion counted once per sample. out has
 * tt_profile_nframes entries (zeroed here). */
int tt_profile_frame_weights(tt_weight *out, const tt_profile *p, const tt_weight *cw);

/* A call tree node (call_node rows, storage.md 3.3): top-down nodes are the callsites;
 * inverted (bottom-up) trees start at leaf frames and walk to the callers. Parents come
 * before children; first_child/next_sibling link children in creation order. */
typedef struct tt_tree_node {
    uint32_t parent, frame, depth, first_child, next_sibling;
    tt_weight w;
} tt_tree_node;
/* Builds the tree for the callsite weights cw into out (tt_tree_node elements, cleared). */
int tt_profile_tree(tt_vec *out, const tt_profile *p, const tt_weight *cw, int inverted);

/* ---- slices (slice.c; samples.md 5) ---- */
enum { TT_END_LAST = 0, TT_END_MID, TT_END_NEXT };
typedef struct tt_slice tt_slice;
enum { TT_ENDK_EXACT = 0, TT_ENDK_INFERRED, TT_ENDK_UNTERMINATED, TT_ENDK_TRUNCATED };
const char *tt_end_kind_name(int k);

typedef struct tt_slice_opts {
    int64_t max_gap;             /* ns, TT_GAP_AUTO or TT_GAP_NONE */
    int end_policy;              /* TT_END_* */
    int64_t end_pad;             /* ns, default 10 */
    int no_msg_split;            /* disable the message split (5.3 rule 1) */
    const char *const *loop_frames; /* canonical names; NULL = android.os.Looper.loop() */
    size_t n_loop_frames;
    int mark_gaps;               /* emit [no samples] slices over gaps */
    /* Streaming (5.7): when set, every finished depth-0 subtree is passed to sink in
     * pre-order (parent indices relative to that array) and dropped, so memory stays at one
     * subtree. A non-zero return aborts the build with TT_EIO. */
    int (*sink)(void *ctx, const tt_slice *s, size_t n);
    void *sink_ctx;
} tt_slice_opts;
void tt_slice_opts_init(tt_slice_opts *o);

/* One slice row (storage.md 3.7). Optional values use -1 (durations, gaps) or TT_NONE. */
struct tt_slice {
    int64_t ts, dur;
    int64_t thread_dur, self_dur, self_thread_dur, block_dur; /* -1 = unknown */
    int64_t gap_before, gap_after;                           /* -1 = no neighbour */
    int64_t thread_ts;                                       /* CPU clock at ts, -1 */
    int64_t waker_ts;                                        /* valid with wakeup_utid */
    uint64_t msg_id;
    uint64_t ctr[TT_CTR_COUNT];
    unsigned ctr_known;
    uint32_t utid, depth, parent, frame, callsite, sample_count, wakeup_utid;
    uint8_t type, end_kind, is_recursive, is_synthetic;
};

typedef struct tt_slice_info {
    uint64_t items, gap_splits, msg_splits, negative_counter_deltas;
    int64_t max_gap;          /* ns used */
    int64_t covered_dur;      /* union of depth-0 slices */
    int64_t first_ts, last_ts; /* thread span (items) */
} tt_slice_info;

/* Rebuilds one thread's slices in pre-order (parent before child, siblings by time) into out
 * (tt_slice elements; cleared first; empty at the end when o->sink is set). Needs
 * tt_profile_finish; not for timeless profiles. */
int tt_slice_build(tt_vec *out, tt_slice_info *info, tt_profile *p, uint32_t utid,
                   const tt_slice_opts *o, tt_error *err);
/* Sets fixed slices for a thread (instrumented data, e.g. a method-beat call tree); slice
 * building then returns a copy of them. The array is copied. */
int tt_profile_set_slices(tt_profile *p, uint32_t utid, const tt_slice *s, size_t n);

/* ---- sample readers (import_*.c; samples.md 2) ---- */
enum { TT_KIND_UNKNOWN = 0, TT_KIND_BTRACE, TT_KIND_BTRACE_MAPPING, TT_KIND_PERF,
       TT_KIND_FOLDED, TT_KIND_JSONL, TT_KIND_BEAT };
const char *tt_kind_name(int kind);
/* Detects an input kind from its first bytes (by content, never by name). */
int tt_samples_detect(const unsigned char *p, size_t n);

typedef struct tt_import_opts {
    uint32_t source;        /* input ordinal for thread identity */
    const char *event;      /* perf: event to keep; NULL = the first one seen */
    int keep_runtime;       /* btrace: keep <runtime ...> frames */
} tt_import_opts;

/* Each reader streams `in` into p, counting repairs into stats (may be NULL) and failing with
 * TT_EFORMAT and the input location on unusable input. */
int tt_perf_import(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                   tt_error *err);
int tt_folded_import(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                     tt_error *err);
int tt_jsonl_import(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                    tt_error *err);
/* btrace sampling file plus its sampling-mapping (may be NULL: frames stay pointers). */
int tt_btrace_import(tt_profile *p, tt_input *sampling, tt_input *mapping,
                     const tt_import_opts *o, tt_stats *stats, tt_error *err);
/* Canonical Java key of a PrettyMethod string (2.1.4), appended to b. */
int tt_java_canonical(tt_buf *b, const char *s, size_t n);
/* Parses a perf script timestamp "<sec>.<frac>" exactly into ns; 0 on success. */
int tt_perf_parse_ts(const char *s, size_t n, int64_t *ns, int *frac_digits);

/* ---- exports (export_*.c; samples.md 7) ---- */
enum { TT_WEIGHT_SAMPLES = 0, TT_WEIGHT_WALL, TT_WEIGHT_CPU, TT_WEIGHT_PERIOD };
enum { TT_ROOT_THREAD = 0, TT_ROOT_PROCESS, TT_ROOT_NONE };
typedef struct tt_export_opts {
    tt_slice_opts slice;
    int be_events;          /* chrome: B/E pairs instead of X */
    int chrome_samples;     /* chrome: an instant event per sample */
    int relative_time;      /* subtract the trace start */
    int weight;             /* TT_WEIGHT_* (folded, speedscope) */
    int folded_root;        /* TT_ROOT_* */
    const char *version;    /* exporter version string */
    const uint32_t *threads; /* restrict to these utids (NULL = all) */
    size_t n_threads;
} tt_export_opts;
void tt_export_opts_init(tt_export_opts *o);
/* Writers stream through fn (a failing fn aborts with TT_EIO). The profile must be finished. */
int tt_export_chrome(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err);
int tt_export_folded(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err);
int tt_export_speedscope(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                         tt_error *err);
/* Writes ns as exact microseconds "<ns/1000>.<3 digits>" (7.1). */
int tt_format_us(char *dst, size_t cap, int64_t ns);
/* Method-beat structured stack as one thread of fixed slices laid out from the tree
 * (children back to back from their parent's start); names from m (may be NULL). */
int tt_profile_from_beat(tt_profile *p, const tt_mitem *items, size_t n, const tt_mapping *m,
                         int name_style, size_t *clamped);

/* ---- native-name resolver callback (filled by cli/ with libsym) ---- */

#endif
