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

/* ---- native-name resolver callback (filled by cli/ with libsym) ---- */
/* libtrace names native frames through this callback so it never links libdwarf
 * (STYLE.md section 2); cli/ fills it with libsym (cli_sym.c), tests pass a fake. */
enum {
    TT_NADDR_VADDR = 0,   /* ELF virtual address (rel_pc) */
    TT_NADDR_OFFSET = 1,  /* module offset: runtime address - module's first byte */
};

typedef struct tt_native_loc {
    const char *module;   /* module path or bare name; may be NULL when build_id is set */
    const char *build_id; /* lowercase hex, or NULL / "" when unknown */
    uint64_t addr;
    int addr_kind;        /* TT_NADDR_* */
    int return_address;   /* 1: look up addr - 1 (frames >= 1 of a stack walk, spec 3.3) */
} tt_native_loc;

typedef struct tt_native_frame {
    const char *function; /* display name; NULL when unknown */
    const char *file;     /* NULL when unknown */
    uint32_t line, column;
    int inlined;          /* 1 for every frame but the last (out-of-line) one */
} tt_native_frame;

/* Resolves loc into at most cap frames, innermost first. Returns the number of frames
 * (0: the module is known but nothing covers the address), or a negative TT_E* when the
 * module cannot be symbolicated (err says why). Strings are borrowed from the resolver
 * and stay valid until the resolver's owner frees it. */
typedef int (*tt_resolve_fn)(void *ctx, tt_native_frame *frames, size_t cap,
                             const tt_native_loc *loc, tt_error *err);

typedef struct tt_resolver {
    tt_resolve_fn fn; /* NULL: no symbolication (every call returns 0 frames) */
    void *ctx;
} tt_resolver;

/* Calls r->fn when set; r may be NULL. */
int tt_resolve(const tt_resolver *r, tt_native_frame *frames, size_t cap,
               const tt_native_loc *loc, tt_error *err);

#endif
