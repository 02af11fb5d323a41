/* libtrace public API: inputs, method-beat analysis (spec/method-beat.md), reports.
 * Libraries never print, never exit; every function reports through tt_error. */
#ifndef TT_H
#define TT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The tool version, stored with every import (storage.md 3.1). */
#define TT_VERSION_STRING "0.2.0"

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

#include "tt_checked.h" /* checked int64 arithmetic, TT_NS_PER_MS, TT_MS_MAX */

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
/* Room for n elements (an estimate) in 2 MiB huge pages where the system has them: one
 * page fault instead of 512; a last one less than half filled gets small pages. 0 or
 * TT_ENOMEM (v unchanged). Later growth is tt_vec_reserve's. */
int tt_vec_reserve_huge(tt_vec *v, size_t n);
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
/* The longest line (and multi-line report object) an input accepts: 64 MiB by default. */
#define TT_LINE_MAX ((size_t)64 * 1024 * 1024)
void tt_input_set_line_max(tt_input *in, size_t bytes);
size_t tt_input_line_max(const tt_input *in);
/* "64 MiB" or "1000 bytes": the cap as the messages name it. */
void tt_input_line_max_text(char *out, size_t cap, size_t bytes);
/* Up to n bytes of the (decompressed) start of the input, without consuming them. */
int tt_input_peek(tt_input *in, const unsigned char **p, size_t *n, size_t want, tt_error *err);
/* Like tt_input_peek (at least want bytes), but the window grows (up to the line cap)
 * until it holds the first meaningful line (not blank, not '#') whole, so content
 * detection sees a folded stack or perf header even when that line is long. */
int tt_input_peek_text(tt_input *in, const unsigned char **p, size_t *n, size_t want,
                       tt_error *err);
/* Reads up to n bytes; *got = 0 at end. */
int tt_input_read(tt_input *in, void *dst, size_t n, size_t *got, tt_error *err);
/* Next line without its '\n' (a trailing '\r' is kept). Borrowed until the next call.
 * Returns TT_DONE at end of input. *lineno is 1-based. A line longer than the input's
 * line cap (TT_LINE_MAX unless set) is TT_ELIMIT "line longer than 64 MiB" at its line:
 * memory stays bounded on a stream without newlines. */
int tt_input_line(tt_input *in, const char **line, size_t *len, uint64_t *lineno,
                  tt_error *err);
/* 1 when the next tt_input_line needs no read (a whole line, the end of a plain input, or
 * an error is already buffered): callers that answer each line before reading the next
 * (pipes) may batch the lines that arrived together. */
int tt_input_line_ready(const tt_input *in);
/* Total size of a plain (not compressed) regular file or memory input: 0, or TT_ENOTFOUND when
 * unknown (pipes, gzip). */
int tt_input_size(tt_input *in, uint64_t *bytes);
/* Bytes consumed so far (of decompressed data). */
uint64_t tt_input_offset(const tt_input *in);
int tt_input_is_gzip(const tt_input *in);
/* Content hash (storage.md 5.2): SHA-256 of the decompressed bytes, via libcrypto.
 * tt_input_hash_begin must be called before anything is consumed (a peek is fine); tt_input_hash_end reads
 * whatever the parser left, writes the lowercase hex digest and the decompressed size. */
int tt_input_hash_begin(tt_input *in, tt_error *err);
int tt_input_hash_end(tt_input *in, char hex[65], uint64_t *bytes, tt_error *err);
/* SHA-256 of a memory buffer as lowercase hex; 0 or TT_EIO. */
int tt_sha256_buf(char hex[65], const void *data, size_t n);
void tt_sha256_hex(char hex[65], const unsigned char md[32]);
/* Reads the rest of the input into memory. Owned by the caller (free()). */
int tt_input_slurp(tt_input *in, char **data, size_t *n, tt_error *err);
/* Progress of the reads from the underlying file (the library never prints it): fn gets the
 * raw (for gzip: compressed) bytes read so far and the file size (0 when unknown, e.g. a
 * pipe) after every read, and once more with end = 1 at the end of the file. fn must not
 * use the input. */
typedef void (*tt_progress_fn)(void *ud, const char *name, uint64_t done, uint64_t total,
                               int end);
void tt_input_set_progress(tt_input *in, tt_progress_fn fn, void *ud);

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
/* Number of records whose time went backwards (for the once-only warning). */
uint64_t tt_beat_reader_backwards(const tt_beat_reader *r);
uint64_t tt_beat_reader_count(const tt_beat_reader *r);
/* Parses one text-form record ("-123", "123", "0x7b"); 0 on success. */
int tt_beat_parse_word(const char *s, size_t n, uint64_t *out);
typedef struct tt_mapping tt_mapping;
/* Plausibility of the first records of a buffer (method-beat.md 3.4, detection): among the
 * non-zero words, at most 1/16 may have an invalid method id (0, 0xFFFFF), at most 1/16 a
 * time of 2^36 ms (2.2 years) or more, and at most 1/16 + 1 may be older than their
 * predecessor (one wrap of a ring dump, a few concatenated slices); at least one word must
 * be non-zero, and 64 or more may not all be entries or all exits (the direction bit).
 * With a mapping (may be NULL; one with methods), at least half of the ids must be in it.
 * 1 when plausible; otherwise 0 and why says what was found. */
int tt_beat_plausible(const uint64_t *w, size_t n, const tt_mapping *m, char *why, size_t cap);
/* The same over little-endian bytes (whole words only; a trailing partial word is ignored). */
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
/* The i-th method in file order (i < tt_mapping_count); borrowed. */
const tt_method *tt_mapping_at(const tt_mapping *m, size_t i);
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
/* Retraces a methodMapping entry in place; new names are copied into a, so they stay valid
 * after tt_proguard_free(p). Returns 1 if ambiguous. */
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
    int has_elem;  /* the innermost open container has an element (next one needs a comma) */
    int after_key; /* a key was written, its value follows */
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
/* A key of n bytes that needs no escaping (a literal such as "FunctionName"): written
 * without scanning it. */
void tt_jsonw_key_plain(tt_jsonw *w, const char *k, size_t n);
void tt_jsonw_str(tt_jsonw *w, const char *s);
void tt_jsonw_strn(tt_jsonw *w, const char *s, size_t n);
void tt_jsonw_int(tt_jsonw *w, int64_t v);
void tt_jsonw_uint(tt_jsonw *w, uint64_t v);
void tt_jsonw_double(tt_jsonw *w, double v);
void tt_jsonw_bool(tt_jsonw *w, int v);
void tt_jsonw_null(tt_jsonw *w);
/* Key/value pairs written into the open object with one reservation (bulk writers such as
 * symbolicate's results, about 20 pairs per address). key: a literal needing no escaping;
 * a NULL string is written as "". At most TT_JSONW_FIELDS_MAX pairs per call. */
enum { TT_JSONW_STR, TT_JSONW_UINT, TT_JSONW_BOOL };
#define TT_JSONW_FIELDS_MAX 16
typedef struct tt_jsonw_field {
    const char *key;
    size_t key_len;
    int type;
    const char *s; /* TT_JSONW_STR */
    uint64_t u;    /* TT_JSONW_UINT, TT_JSONW_BOOL */
} tt_jsonw_field;
void tt_jsonw_fields(tt_jsonw *w, const tt_jsonw_field *f, size_t n);
/* Raw JSON text as one value. */
void tt_jsonw_raw(tt_jsonw *w, const char *s, size_t n);
/* Bulk writers (symbolicate's frames, one fixed layout written with literal text):
 * tt_jsonw_value_room writes what a new value of the open container needs before it (a
 * comma) and returns room for n bytes (NULL when out of memory); the caller writes the
 * value's JSON text there and ends it with tt_jsonw_value_end at its end. */
char *tt_jsonw_value_room(tt_jsonw *w, size_t n);
void tt_jsonw_value_end(tt_jsonw *w, char *end);
/* s (n bytes) as a JSON string at p, which has room for 6 * n + 2 bytes, escaped as w
 * escapes; returns its end. */
char *tt_jsonw_quote(const tt_jsonw *w, char *p, const char *s, size_t n);
/* v in decimal at p (room for 20 bytes); returns its end. */
char *tt_json_uint(char *p, uint64_t v);
/* Formats a double as Java/Android would print it (7.6): integral values without
 * fraction, others with the shortest round-trip representation. */
int tt_json_format_double(char *dst, size_t cap, double v);

/* ---- input kinds, detected by content (cli.md "Inputs"; detect.c) ---- */
typedef enum tt_kind {
    TT_KIND_UNKNOWN = 0,
    TT_KIND_BEAT,          /* method-beat buffer, binary or text (method-beat.md 3) */
    TT_KIND_MAPPING,       /* methodMapping.txt (4.1) */
    TT_KIND_IGNORE,        /* ignoreMethodMapping.txt (4.3) */
    TT_KIND_PROGUARD,      /* ProGuard/R8 mapping.txt (4.6) */
    TT_KIND_REPORT,        /* Matrix issue reports in any container (7.1) */
    TT_KIND_DATABASE,      /* an SQLite file */
    TT_KIND_FRAMES,        /* per-frame JSON lines or dumpsys gfxinfo framestats (frames.md 7) */
    TT_KIND_STARTUP,       /* JSON-lines startup event stream (startup.md 4.2) */
    TT_KIND_LAUNCHES,      /* logcat Displayed/Fully drawn lines, am start -W output (4.3, 4.4) */
    TT_KIND_SAMPLES,       /* btrace sampling, perf script, folded, JSON-lines samples (samples.md 2) */
    TT_KIND_BTRACE_MAPPING, /* btrace sampling-mapping: read with its sampling file */
    TT_KIND_KSCRASH,       /* KSCrash / Matrix iOS JSON reports (ios.md 2.1; tt_kscrash.h) */
    TT_KIND_ART,           /* ART method trace .trace, legacy or streaming (art-trace.md 2.1) */
    TT_KIND__COUNT
} tt_kind;
/* Kind of an input from its first (decompressed) bytes, up to 64 KiB from tt_input_peek.
 * Every kind needs positive evidence: binary data is a method-beat buffer only when its
 * words are plausible records (tt_beat_plausible), text only when its lines have the
 * kind's shape; anything else is TT_KIND_UNKNOWN. */
tt_kind tt_detect(const unsigned char *p, size_t n);
#define TT_DETECT_PEEK 65536 /* bytes detection looks at */
typedef struct tt_detection {
    tt_kind kind;
    /* when kind is TT_KIND_UNKNOWN: what the input is instead ("ELF executable", "binary data,
     * not method-beat records: ..."), or "" when nothing is known */
    char what[200];
    int foreign; /* what names a known file format that is not a trace (magic number) */
    int elf;     /* an ELF file: possibly symbols */
    int sqlite;  /* an SQLite 3 file, tracetool's (kind TT_KIND_DATABASE) or not */
} tt_detection;
void tt_detect_full(tt_detection *d, const unsigned char *p, size_t n);
/* Peeks TT_DETECT_PEEK bytes of in (nothing is consumed) and detects them; a gzip-compressed
 * input's foreign format is described as such ("tar archive, gzip-compressed"). */
int tt_input_detect(tt_detection *d, tt_input *in, tt_error *err);
/* The known file format (magic number) of p that is not a trace, e.g. "PNG image", "ELF
 * executable", "SQLite database not written by tracetool"; NULL when none. Static text. */
const char *tt_detect_foreign(const unsigned char *p, size_t n);
/* Stable lowercase name ("beat", "mapping", ...); tt_kind_parse returns -1 if unknown. */
const char *tt_kind_name(tt_kind k);
int tt_kind_parse(const char *name);

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
    int64_t end_ms;   /* absolute end time for frames still open */
    int64_t evil_ms;  /* evil-method threshold; < 0 disables the Matrix analysis */
    int trim;         /* Matrix trim target for evil stacks (30) */
} tt_bslicer_opts;

typedef struct tt_bslicer_stats {
    uint64_t records, zero_records, invalid_ids, stray_exits, unterminated, truncated,
        negative_dropped, clamped_self, clamped_end, backwards, slices, evil_dispatches;
    int64_t end_ms_used;
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
 * (skip them); parents never point at a dropped slice. */
const tt_bslice *tt_bslicer_slices(const tt_bslicer *b, size_t *n);
const tt_bevil *tt_bslicer_evil(const tt_bslicer *b, size_t *n);
const tt_bslicer_stats *tt_bslicer_stats_get(const tt_bslicer *b);

/* ---- Matrix issue reports (import_report.c; method-beat.md section 7) ---- */

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
 * report_mistyped_field (a required field: the report is skipped), report_bad_field (an
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

/* ---- frames and FPS (frames.c, import_frames.c; spec/frames.md) ---- */

/* The drop level (TT_DROP_*, frames.md section 2) of d dropped frames with thresholds
 * t[4] (3, 9, 24, 42 by default). */
int tt_level_of(int64_t d, const int32_t t[4]);

/* FrameMetrics values by Android constant name (7.2); the first nine are the durations
 * Matrix checks, TOTAL included. */
enum { TT_FM_UNKNOWN_DELAY = 0, TT_FM_INPUT_HANDLING, TT_FM_ANIMATION, TT_FM_LAYOUT_MEASURE,
       TT_FM_DRAW, TT_FM_SYNC, TT_FM_COMMAND_ISSUE, TT_FM_SWAP_BUFFERS, TT_FM_TOTAL,
       TT_FM_GPU, TT_FM_DEADLINE, TT_FM_FIRST_DRAW_FRAME, TT_FM_INTENDED_VSYNC, TT_FM_VSYNC,
       TT_FM_COUNT };
/* "UNKNOWN_DELAY_DURATION", ... "VSYNC_TIMESTAMP". */
const char *tt_fm_name(int fm);

/* Input kinds of `frames` (detected by content). */
enum { TT_FIN_UNKNOWN = 0, TT_FIN_JSONL, TT_FIN_FRAMESTATS, TT_FIN_REPORT };
/* Kind of an input from its first bytes (up to 64 KiB). */
int tt_frames_detect(const char *p, size_t n);
const char *tt_frames_kind_name(int kind);

enum { TT_FREC_FRAME = 0, TT_FREC_PAUSE = 1 };
#define TT_REFRESH_HZ_MIN 0.01 /* accepted refresh rates (refresh_hz, --refresh-hz) */
#define TT_REFRESH_HZ_MAX 100000.0
enum { TT_FSRC_JSONL = 0, TT_FSRC_FRAMESTATS = 1 };
enum { TT_FSKIP_NONE = 0, TT_FSKIP_FLAGS, TT_FSKIP_INVALID, TT_FSKIP_OUTLIER };

/* One per-frame input record (7.2) or framestats row (7.3). */
typedef struct tt_frame_rec {
    int type;               /* TT_FREC_* */
    int source;             /* TT_FSRC_* */
    int skip;               /* TT_FSKIP_*: counted, not analysed */
    int vsync;              /* 1: a real frame; 0: a plain Looper message */
    const char *scene;      /* borrowed until the next record; not NUL-terminated */
    size_t scene_len;
    int64_t start_ns, end_ns, iv_ns;
    int64_t vsync_ns;       /* valid when has_vsync_ns */
    int has_vsync_ns;
    int64_t interval_ns;    /* refresh period when known (> 0), else 0 */
    double refresh_hz;      /* refresh rate when known (> 0), else 0 */
    int64_t ui_ns;          /* UI-thread duration (6.1, jank basis ui); -1 unknown */
    int64_t fm[TT_FM_COUNT];
    uint32_t fm_mask;       /* bit i: fm[i] given */
    int64_t ts_ns;          /* pause records */
    int has_vsync_id;
    int64_t vsync_id;       /* framestats FrameTimelineVsyncId (Android 12+) */
    uint64_t line;          /* 1-based input line */
} tt_frame_rec;

typedef struct tt_frames_reader tt_frames_reader;
/* Streaming reader of JSON lines or a framestats dump over in (borrowed). kind is a
 * TT_FIN_* or TT_FIN_UNKNOWN to detect; Matrix reports are refused (TT_EUNSUPPORTED).
 * Owned by the caller, free with tt_frames_reader_free. */
int tt_frames_reader_new(tt_frames_reader **out, tt_input *in, int kind, tt_error *err);
void tt_frames_reader_free(tt_frames_reader *r);
int tt_frames_reader_kind(const tt_frames_reader *r);
/* Next record (skipped rows included, marked in rec->skip); TT_DONE at the end. */
int tt_frames_reader_next(tt_frames_reader *r, tt_frame_rec *rec, tt_error *err);

/* A Matrix Trace_FPS report (frames.md 7.1), read or replayed. */
enum { TT_FGEN_AB = 0, TT_FGEN_A1, TT_FGEN_A2, TT_FGEN_B, TT_FGEN_C };
typedef struct tt_fps_report {
    const char *scene;      /* borrowed (from the tt_report or the tt_frames) */
    int generation;         /* TT_FGEN_*; a read report is AB, A2 or C */
    double fps;             /* a Java float widened to double */
    int64_t level_count[TT_DROP_LEVELS], level_sum[TT_DROP_LEVELS];
    int64_t frames;         /* sum of level_count */
    int64_t drop_task_frame_sum; /* a2 only */
    int has_time;
    int64_t time_unix_ms;   /* report "time" */
    int64_t fm_avg[TT_FM_GPU + 1]; /* c: average durations, ns */
    uint32_t fm_mask;       /* bit i: fm_avg[i] present */
    int has_c_fields;
    int32_t drop_count, refresh_rate; /* c */
    uint64_t line;          /* input line of the report, or of the frame that emitted it */
} tt_fps_report;
/* Copies the FPS fields of a decoded Trace_FPS report (rep->kind == TT_RKIND_FPS); the
 * scene stays borrowed from rep. */
void tt_fps_report_from_report(tt_fps_report *out, const tt_report *rep);

/* Analysis models (frames.md sections 3 and 6). */
enum { TT_FMODEL_NATIVE = 0, TT_FMODEL_A1, TT_FMODEL_A2, TT_FMODEL_B, TT_FMODEL_C,
       TT_FMODEL_REPORTS };
/* "native", "matrix-a1", ..., "reports". */
const char *tt_fmodel_name(int model);

typedef struct tt_frames_opts {
    int model;              /* TT_FMODEL_*; REPORTS is set by the first added report */
    int scaled;             /* drop levels: 0 matrix, 1 scaled (native only, section 5) */
    int32_t levels[4];      /* thresholds; all 0 = 3, 9, 24, 42 */
    double refresh_hz;      /* --refresh-hz; 0 = none */
    int64_t slow_ns;        /* 0 = 16 ms */
    int64_t frozen_ns;      /* 0 = 700 ms */
    double jank_multiplier; /* 0 = 2.0 */
    int jank_ui;            /* jank basis: 0 total, 1 UI-thread duration */
    int64_t window_ms;      /* series window; 0 = 1000 */
    int b_frame_metrics;    /* matrix-b: 0 Looper path, 1 FrameMetrics path */
    int b_cap_zero;         /* matrix-b Looper path of v2.0.5-v2.0.8: fps cap 0 */
    int64_t time_slice_ms;  /* matrix replays: report budget; 0 = 10000 */
} tt_frames_opts;

/* Aggregates of one scene, all scenes ("*") or one series window (6.2, 6.3, 7.1).
 * Fields that a model cannot derive have has_* = 0 (printed as null). */
typedef struct tt_frame_stats {
    const char *scene;      /* borrowed; "*" for all scenes */
    int has_start;
    int64_t start_ns;       /* series: window start (trace clock; reports: time in ns) */
    int64_t frames;
    int has_busy;
    int64_t busy_ns;
    int has_fps;
    double fps;
    int64_t dropped_sum;
    int64_t level_count[TT_DROP_LEVELS], level_sum[TT_DROP_LEVELS];
    int has_flags;          /* jank, slow, frozen known */
    int64_t jank, slow, frozen;
    int has_times;          /* frame_time percentiles known (frames > 0, native) */
    int64_t p50_ns, p90_ns, p95_ns, p99_ns, max_ns, mean_ns;
    int64_t reports, fps_zero_reports; /* reports model */
    int64_t fm_avg[TT_FM_GPU + 1];     /* reports model: generation c averages */
    uint32_t fm_mask;
} tt_frame_stats;

/* One analysed frame of the native model (storage.md table ui_frame). */
typedef struct tt_ui_frame {
    uint32_t scene_id;      /* index into tt_frames_scene_name */
    int64_t ts;             /* intended vsync */
    int64_t dur;            /* T */
    int64_t interval_dur;   /* P */
    int64_t expected_dur;   /* deadline when known, else 0 */
    int64_t busy_dur;
    int64_t dropped;        /* d (60 Hz-equivalent frames in scaled mode) */
    uint8_t level;          /* TT_DROP_* */
    uint8_t is_jank, is_slow, is_frozen;
    uint8_t has_vsync_id;
    int64_t vsync_id;       /* FrameTimelineVsyncId when has_vsync_id */
    uint64_t seq;           /* input order */
} tt_ui_frame;

typedef struct tt_frames_skipped {
    int64_t flags, invalid, outliers, non_frame_messages, duplicates, empty_scene;
} tt_frames_skipped;

typedef struct tt_frames tt_frames;
/* Owned by the caller, free with tt_frames_free. opts is copied. */
int tt_frames_new(tt_frames **out, const tt_frames_opts *opts, tt_error *err);
void tt_frames_free(tt_frames *f);
/* Adds one record in input order (native: stored; replays: processed now). file names
 * the input in errors. */
int tt_frames_add(tt_frames *f, const tt_frame_rec *rec, const char *file, tt_error *err);
/* Adds one Matrix FPS report (reports model); the report is copied. TT_EINVAL when
 * frames were added before. */
int tt_frames_add_fps_report(tt_frames *f, const tt_fps_report *r, tt_error *err);
/* Computes every result; call once after the last add. */
int tt_frames_finish(tt_frames *f, tt_error *err);

/* Results, borrowed until tt_frames_free; valid after tt_frames_finish. */
int tt_frames_model(const tt_frames *f);
const tt_frames_opts *tt_frames_options(const tt_frames *f); /* with defaults filled */
size_t tt_frames_scene_count(const tt_frames *f);
const char *tt_frames_scene_name(const tt_frames *f, uint32_t scene_id);
/* Per scene (in order of first appearance) and the all-scene row. */
const tt_frame_stats *tt_frames_scene_stats(const tt_frames *f, size_t i);
const tt_frame_stats *tt_frames_all_stats(const tt_frames *f);
/* Series (6.3): "*" windows first, then each scene's windows, by start. */
size_t tt_frames_series_count(const tt_frames *f);
const tt_frame_stats *tt_frames_series_get(const tt_frames *f, size_t i);
/* Native frames sorted by scene and intended vsync. */
size_t tt_frames_frame_count(const tt_frames *f);
const tt_ui_frame *tt_frames_frame_get(const tt_frames *f, size_t i);
const tt_frames_skipped *tt_frames_skipped_get(const tt_frames *f);
/* 1 when the UI jank basis was asked for but some frame lacked it (T was used). */
int tt_frames_jank_fallback(const tt_frames *f);
/* Matrix replays: the reports emitted, in order. */
size_t tt_frames_report_count(const tt_frames *f);
const tt_fps_report *tt_frames_report_get(const tt_frames *f, size_t i);
/* Matrix replays: frames left in unflushed items at the end (never reported), per scene
 * (scene_id) and count; returns the number of entries. */
size_t tt_frames_unflushed_count(const tt_frames *f);
void tt_frames_unflushed_get(const tt_frames *f, size_t i, uint32_t *scene_id, int64_t *frames);
/* Writes a report as Matrix would (key order of its generation, method-beat.md 7.4/7.6). */
void tt_fps_report_write(tt_jsonw *w, const tt_fps_report *r);


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

typedef struct tt_su_opts {
    const char *splash;        /* Matrix splash set "a.B;c.D", may be NULL */
    int64_t cold_ms, warm_ms;  /* Matrix thresholds (1.3); 0 = defaults 10000 / 4000 */
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
    double mean;
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
/* Frame identity (samples.md 4.1). TT_IDENT_NAME_UNNAMED_ADDRESS: by name, except frames
 * named from an address (is_unnamed), which stay one frame per address so that native
 * symbolication can name each one (perf's "[unknown] <dso>" frames). */
enum { TT_IDENT_NAME = 0, TT_IDENT_ADDRESS = 1, TT_IDENT_NAME_UNNAMED_ADDRESS = 2 };

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
    /* perf runtime address inside a known mapping (PERF_RECORD_MMAP): the module file's
     * path and the file offset of addr; libsym turns it into rel_pc (symbolication.md 3.2) */
    int has_file_off;
    uint64_t file_off;
    const char *module_path;
    /* Mach-O image of an iOS address (btrace iOS, samples.md 2.1.6): its UUID (lowercase hex,
     * the build id) or NULL; addr_is_offset: addr is pc - image load address and module_path
     * the image path, so symbolication looks it up as a TT_NADDR_OFFSET */
    const char *build_id;
    int addr_is_offset;
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
    int64_t weight;       /* the source's weight: perf period, else 1 */
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
    const char *event;         /* perf event kept, without modifiers ("cycles"), or NULL */
    const char *event_variants; /* its spellings in the input when they differ from event
                                 * ("cycles:u, cycles:ppp, cycles"), or NULL */
    int64_t pid;               /* -1 = unknown */
    int64_t interval_ns;       /* 0 = unknown */
    int timeless;              /* folded, perf without times: slices cannot be built */
    int truncated;             /* the input ended early: open slices are `truncated` */
    int ambiguous_ts;          /* old simpleperf fractions: slices are unreliable */
    int runs;                  /* every sample is a stored run (a database's sample row): runs
                                * are never merged again and a point run keeps end_ts/end_cpu */
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
/* Appends a frame as given (strings copied), without merging it into an equal frame: rows
 * read back from a database keep their ids. Later interning finds the first equal frame. */
int tt_frame_add(tt_profile *p, uint32_t *id, const tt_stack_frame *f);
/* Interns a root-first frame list (n >= 1) as callsites; *leaf is the leaf callsite. */
int tt_callsite_intern(tt_profile *p, uint32_t *leaf, const uint32_t *frames, size_t n);
/* Interns the one callsite (parent, frame); parent TT_NONE for a root frame. */
int tt_callsite_child(tt_profile *p, uint32_t *id, uint32_t parent, uint32_t frame);
/* Thread handle for (source, pid, tid); pid -1 = unknown. */
int tt_thread_intern(tt_profile *p, uint32_t *utid, uint32_t source, int64_t pid, int64_t tid,
                     int tid_bits);
/* Appends a new thread row for (source, pid, tid) even when one exists: perf gives a thread
 * renamed by exec or prctl a row per name. Interning keeps finding the first row. */
int tt_thread_add(tt_profile *p, uint32_t *utid, uint32_t source, int64_t pid, int64_t tid,
                  int tid_bits);
/* Sets a thread's name (copied); the last name wins unless keep_first. 1 if a different
 * name was already set. */
int tt_thread_set_name(tt_profile *p, uint32_t utid, const char *name, size_t n, int keep_first);
void tt_thread_set_main(tt_profile *p, uint32_t utid);
/* Renames a frame, e.g. after native symbolication (name copied). */
int tt_frame_set_name(tt_profile *p, uint32_t id, const char *name);
/* Records the ELF virtual address found for a frame (symbolication); no-op when it has one. */
int tt_frame_set_rel_pc(tt_profile *p, uint32_t id, uint64_t rel_pc);
/* After renames: frames whose identity became equal are merged (the first id kept), their
 * callsites re-interned and samples (and fixed slices) remapped; ids stay dense and children
 * keep larger ids than their parents. Frame and callsite ids and pointers change. A profile
 * made with TT_IDENT_NAME_UNNAMED_ADDRESS continues with TT_IDENT_NAME (frames still unnamed
 * merge per name again). */
int tt_profile_merge_frames(tt_profile *p);
/* A point sample at 0 with weight 1 and every optional value unknown. */
void tt_sample_init(tt_sample *s);
/* Appends a sample (seq assigned); counters may be NULL. TT_ELIMIT when a time is outside
 * +-2^62 ns, a CPU time below -1, or the weight outside 0..2^40 (the sample is not added). */
int tt_profile_add(tt_profile *p, const tt_sample *s, const tt_counters *c);
/* Capacity hint: room for n more samples (and their counters when with_counters), so that
 * importers that know their record count grow the arrays once. */
int tt_profile_reserve(tt_profile *p, size_t n, int with_counters);
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
/* The counters of a sample (its ctr index) into *out: 0, or TT_ENOTFOUND for TT_NONE. The
 * u32 rusage counters come back modulo 2^32. */
int tt_profile_counters(tt_counters *out, const tt_profile *p, uint32_t ctr);
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
/* Weight units: one unit a column. SAMPLES counts samples (a merged run or folded line
 * its count), WALL and CPU attribute ns (each run up to the midpoints to its neighbours,
 * samples.md 7.2), PERIOD sums the source's sample weights (perf period, else 1). */
enum { TT_WEIGHT_DEFAULT = -1, TT_WEIGHT_SAMPLES, TT_WEIGHT_WALL, TT_WEIGHT_CPU,
       TT_WEIGHT_PERIOD };
/* The unit whose percentages mean what a reader of the source expects: wall time for btrace
 * and JSON-lines samples (not periodic, with intervals) and method-beat trees, the period
 * for perf, sample counts for folded stacks and other inputs without times. */
int tt_weight_default(const tt_profile_meta *m);
/* "samples", "wall_ns", "cpu_ns", "period". Static. */
const char *tt_weight_unit(int weight);
/* Per callsite in the unit weight (TT_WEIGHT_*): self at the leaf, total over the subtree;
 * utid TT_NONE = all threads. Wall and cpu need a finished profile with times (else
 * TT_EUNSUPPORTED) and use the max gap option and end pad of the slice options. out has
 * tt_profile_ncallsites entries (zeroed here). */
int tt_profile_callsite_weights(tt_weight *out, const tt_profile *p, uint32_t utid, int weight,
                                int64_t max_gap, int64_t end_pad);
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
    uint8_t is_instrumented; /* a method-beat call (category beat), not rebuilt from samples;
                              * 2: an ART method trace call (category art) */
    uint8_t is_unwound;      /* ART: closed by an exception unwinding it (args.unwound) */
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
enum { TT_SKIND_UNKNOWN = 0, TT_SKIND_BTRACE, TT_SKIND_BTRACE_MAPPING, TT_SKIND_PERF,
       TT_SKIND_FOLDED, TT_SKIND_JSONL, TT_SKIND_BEAT, TT_SKIND_DATABASE, TT_SKIND_BTRACE_IOS };
/* 1 when p (the first bytes of a file) is a btrace iOS SQLite database (samples.md 2.1.6):
 * an SQLite header whose schema names BTraceModel and CallStackTableModel. */
int tt_btrace_ios_detect(const unsigned char *p, size_t n);
const char *tt_samples_kind_name(int kind);
/* Detects an input kind from its first bytes (by content, never by name). */
int tt_samples_detect(const unsigned char *p, size_t n);

typedef struct tt_import_opts {
    uint32_t source;        /* input ordinal for thread identity */
    const char *event;      /* perf: event to keep; NULL = the first one seen */
    int keep_runtime;       /* btrace: keep <runtime ...> frames */
    int jobs;               /* perf text: threads mapping a plain file's chunks (>= 1; the
                               output is the same for any number); 0: read as a stream;
                               -1: every line parsed on its own (the tests' reference) */
    size_t chunk_bytes;     /* bytes per chunk (0: 4 MiB; tests cut small ones) */
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

/* Hexadecimal digit value, -1 for another character (perf_mmap.c). */
int tt_hex_digit(char c);
/* Up to 16 hex digits at p into *v; the number of digits, 0 when none or more than 16. */
size_t tt_hex_run(uint64_t *v, const char *p, size_t n);

/* perf script side-band memory maps (perf_mmap.c; symbolication.md 7.4). */
typedef struct tt_perf_mmap {
    int64_t pid;            /* -1: kernel maps */
    uint64_t start, len, pgoff;
    int executable;
    const char *path;       /* points into the line, path_len bytes */
    size_t path_len;
} tt_perf_mmap;
/* Parses a PERF_RECORD_MMAP/MMAP2 line of `perf script --show-mmap-events`: 0, or
 * TT_ENOTFOUND when the line is not one. */
int tt_perf_mmap_parse(tt_perf_mmap *out, const char *line, size_t n);

typedef struct tt_perf_map {
    int64_t pid;
    uint64_t start, len, pgoff;
    const char *path;       /* NUL-terminated, owned by the table */
} tt_perf_map;
/* Executable mappings by path; the newest mapping of an address wins. */
typedef struct tt_perf_maps tt_perf_maps;
int tt_perf_maps_new(tt_perf_maps **out);
void tt_perf_maps_free(tt_perf_maps *t);
/* Adds an executable mapping (others are ignored): 0, TT_ENOMEM or TT_ELIMIT. */
int tt_perf_maps_add(tt_perf_maps *t, const tt_perf_mmap *mm);
/* The mapping of path that explains the address perf printed, or NULL; t may be NULL.
 * A runtime address inside a mapping of process pid (or, failing that, of another process)
 * gives *file_off = addr - start + pgoff. Recent perf versions print the map-relative
 * address instead (the file offset): an address inside no mapping but inside a mapping's
 * file range [pgoff, pgoff + len) is taken as that, *file_off = addr. */
const tt_perf_map *tt_perf_maps_find(const tt_perf_maps *t, int64_t pid, const char *path,
                                     size_t path_len, uint64_t addr, uint64_t *file_off);

/* ---- exports (export_*.c; samples.md 7) ---- */
enum { TT_ROOT_THREAD = 0, TT_ROOT_PROCESS, TT_ROOT_NONE };
typedef struct tt_export_opts {
    tt_slice_opts slice;
    int be_events;          /* chrome: B/E pairs instead of X */
    int chrome_samples;     /* chrome: an instant event per sample */
    int relative_time;      /* subtract the trace start */
    int weight;             /* TT_WEIGHT_* (folded, speedscope); DEFAULT (the init value):
                             * samples (7.2), wall for instrumented method-beat trees */
    int folded_root;        /* TT_ROOT_* */
    const char *version;    /* exporter version string */
    const uint32_t *threads; /* restrict to these utids (NULL = all) */
    size_t n_threads;
} tt_export_opts;
/* The weight TT_WEIGHT_DEFAULT stands for when p is exported: samples, or wall time for an
 * instrumented method-beat call tree (TT_WEIGHT_*). */
int tt_export_default_weight(const tt_profile *p);
void tt_export_opts_init(tt_export_opts *o);
/* Writers stream through fn (a failing fn aborts with TT_EIO). The profile must be finished. */
int tt_export_chrome(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err);
int tt_export_folded(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err);
int tt_export_speedscope(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                         tt_error *err);
/* A legacy ART .trace (art-trace.md 6.2); TT_EUNSUPPORTED for an input without times. */
int tt_export_art(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                  tt_error *err);
/* One document from several profiles, e.g. the traces of a database (tracetool-export(1)):
 * tt_export_open, tt_export_add for each profile in turn (a profile may be freed once
 * added; at most n_parts), tt_export_close. A single part without a label gives exactly what
 * tt_export_chrome/folded/speedscope write. Several parts: Chrome JSON names each part's
 * processes "<name> (<label>)" and moves a part whose pids an earlier part used to
 * id * 10000000 + pid; folded lines get the label as their outermost frame (unless the root
 * is none) and equal lines of all parts add up; speedscope names profiles "<label>: ...",
 * writes "shared" after "profiles" and calls the document doc_name. */
enum { TT_EXPORT_CHROME = 0, TT_EXPORT_FOLDED, TT_EXPORT_SPEEDSCOPE,
       TT_EXPORT_ART /* a legacy v3 dual ART .trace (art-trace.md 6.2) */ };
typedef struct tt_export tt_export;
typedef struct tt_export_part {
    const char *label;       /* names the part ("trace 2"); NULL = none */
    int64_t id;              /* chrome: pid offset id * 10000000 on a pid clash */
    const uint32_t *threads; /* restrict to these utids (NULL = all) */
    size_t n_threads;
} tt_export_part;
/* o (borrowed) must outlive the exporter. Owned by the caller: tt_export_close writes the
 * end of the document, tt_export_free (after close, or instead of it) releases. */
int tt_export_open(tt_export **out, int format, const tt_export_opts *o, size_t n_parts,
                   const char *doc_name, tt_write_fn fn, void *ctx, tt_error *err);
/* Writes one finished profile. TT_EUNSUPPORTED when the format cannot show it (no
 * timestamps: Chrome JSON, wall/cpu weights); nothing of the part is written then. */
int tt_export_add(tt_export *x, tt_profile *p, const tt_export_part *part, tt_error *err);
int tt_export_close(tt_export *x, tt_error *err);
void tt_export_free(tt_export *x);
/* Writes ns as exact microseconds "<ns/1000>.<3 digits>" (7.1). */
int tt_format_us(char *dst, size_t cap, int64_t ns);
/* Method-beat structured stack as one thread of fixed slices laid out from the tree
 * (children back to back from their parent's start); names from m (may be NULL). */
int tt_profile_from_beat(tt_profile *p, const tt_mitem *items, size_t n, const tt_mapping *m,
                         int name_style, size_t *clamped);

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
    int has_start;        /* start is known */
    uint64_t start;       /* the out-of-line function's start in loc->addr's address space
                           * (a module offset for TT_NADDR_OFFSET): Apple's "name + N" */
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

/* ---- string interning (intern.c): dense ids for byte strings ---- */
typedef struct tt_intern tt_intern;
/* Owned by the caller, free with tt_intern_free (accepts NULL). NULL on out of memory. */
tt_intern *tt_intern_new(void);
void tt_intern_free(tt_intern *t);
/* The id of the n bytes at s (0, 1, 2, ... in first-seen order), added when new; 0 or
 * TT_ENOMEM. The bytes may contain NULs. */
int tt_intern_get(tt_intern *t, const char *s, size_t n, uint32_t *id);
/* The interned bytes of id, NUL-terminated; borrowed until tt_intern_free. *n may be NULL. */
const char *tt_intern_str(const tt_intern *t, uint32_t id, size_t *n);
/* The id of an already interned string: 0, or TT_ENOTFOUND. */
int tt_intern_find(const tt_intern *t, const char *s, size_t n, uint32_t *id);
size_t tt_intern_count(const tt_intern *t);

/* ---- diff thresholds, CI gates and name matching (diff.c; tracetool-diff(1)) ---- */
#define TT_GATES_MAX 32
typedef struct tt_gate {
    const char *metric; /* canonical metric name (static string of tt_diff_metric_names) */
    int dir;            /* +1: an increase is a regression; -1: a decrease is */
    int is_pct;         /* value is a percentage of the base value; else absolute */
    double value;       /* >= 0 */
} tt_gate;
/* The metric names --fail-on accepts, NULL-terminated (aliases "fps", "jank" excluded). */
const char *const *tt_diff_metric_names(void);
/* The natural regression direction of a canonical metric (+1 or -1); 0 if unknown. */
int tt_diff_metric_dir(const char *metric);
/* A percentage: "25%", "25" or "2.5"; 0 <= value <= 1e6. */
int tt_diff_parse_pct(double *out, const char *s, tt_error *err);
/* A --fail-on list "METRIC=[+|-]NUMBER[%|ms][,...]" (at most cap items). Without a sign the
 * metric's natural direction applies; aliases are replaced by canonical names. */
int tt_diff_parse_gates(tt_gate *out, size_t cap, size_t *n, const char *s, tt_error *err);
/* 1 when base -> new regresses beyond g: dir * (new - base) > value, or, for a percentage,
 * > value % of |base| (never when base is 0: a relative change from nothing is undefined).
 * *amount (may be NULL) receives dir * (new - base). */
int tt_gate_trips(const tt_gate *g, double base, double new_value, double *amount);
/* Writes g as "metric=+10%" into out (cap bytes); the text of a gate that
 * tt_diff_parse_gates produced parses back to the same gate (shortest exact decimal). */
void tt_gate_format(char *out, size_t cap, const tt_gate *g);
/* Cross-build matching (storage.md 8): TT_NAME_UNRESOLVED for "<unknown id N>",
 * "unresolved:..." keys, raw addresses and "??"; TT_NAME_OBFUSCATED when both the class
 * and the method segment of a Java key are one or two lowercase letters ("a.b.c(int)"). */
enum { TT_NAME_OK = 0, TT_NAME_UNRESOLVED = 1, TT_NAME_OBFUSCATED = 2 };
int tt_name_classify(const char *name);

/* ---- flame graphs (flame.c, palette.c, svg.c, export_svg.c; spec/visual.md) ---- */
/* Frame categories (visual.md 4.1). */
enum { TT_FCAT_SYNTHETIC = 0, TT_FCAT_ELIDED, TT_FCAT_KERNEL, TT_FCAT_JS, TT_FCAT_JAVA_PLATFORM,
       TT_FCAT_JAVA_APP, TT_FCAT_CPP, TT_FCAT_NATIVE, TT_FCAT_COUNT };
const char *tt_flame_cat_name(int cat);
/* The category of a frame: kind TT_FRAME_*, its name and module (may be NULL); app package
 * prefixes (n may be 0) make other Java frames platform code. */
int tt_flame_category(int kind, const char *name, const char *module,
                      const char *const *app, size_t napp);

/* A weighted tree (visual.md 2): node 0 is the root "all"; a node's parent has a smaller id.
 * Side 0 is "new" (total/self), side 1 "base" (total_b/self_b) of a differential graph. */
typedef struct tt_flame_node {
    uint32_t name, parent, child, next; /* child/next: first child, next sibling; TT_NONE */
    uint32_t depth;
    int64_t total, self, total_b, self_b;
    int64_t reported;                   /* a tree source's own total (-1: none) */
    int64_t matrix_depth;               /* Matrix depth when it skips levels (-1: none) */
    int64_t x0;                         /* flame chart: position in units (-1: graph) */
} tt_flame_node;
typedef struct tt_flame tt_flame;
/* Owned by the caller, free with tt_flame_free. */
int tt_flame_new(tt_flame **out);
void tt_flame_free(tt_flame *f);
/* Interns a display name (copied) with its category (the first category given wins) and
 * colour module (may be NULL). */
int tt_flame_intern(tt_flame *f, uint32_t *id, const char *name, int cat, const char *module);
const char *tt_flame_name(const tt_flame *f, uint32_t id, size_t *len);
int tt_flame_name_cat(const tt_flame *f, uint32_t id);
const char *tt_flame_name_module(const tt_flame *f, uint32_t id);
/* A flame chart node (visual.md 3.1): never merged, at x0 (units from the chart start) with
 * width total and self weight self. */
int tt_flame_chart_node(tt_flame *f, uint32_t *out, uint32_t parent, uint32_t name,
                        int64_t x0, int64_t total, int64_t self);
/* The child of parent named name, created when missing (siblings merge by display name). */
int tt_flame_child(tt_flame *f, uint32_t *out, uint32_t parent, uint32_t name);
size_t tt_flame_nnodes(const tt_flame *f);
tt_flame_node *tt_flame_node_at(tt_flame *f, uint32_t id);

/* Stack transformations applied before merging (visual.md 2). */
typedef struct tt_flame_xform {
    int reverse;             /* leaf first */
    int fold_recursion;      /* A;A;A -> A */
    const void *focus;       /* a compiled regex_t, or NULL */
    size_t keep_roots;       /* leading frames kept above a focus cut (thread roots) */
    int norm_roots;          /* tt_flame_add_profile: thread roots with digit runs as '#' */
    int windowed;            /* only the time in [win_from, win_to] (ns, the startup window) */
    int64_t win_from, win_to;
} tt_flame_xform;
/* Adds weight w to the self of the path names[0..n) (root first) below the root, on side
 * (0 new, 1 base), after the transformations of x (may be NULL). A focus without a match
 * drops the stack (returns 0). names is modified. */
int tt_flame_add_stack(tt_flame *f, uint32_t *names, size_t n, int64_t w, int side,
                       const tt_flame_xform *x);
/* Totals from selves, children before parents: total = max(reported, self + sum of
 * children); returns the number of nodes whose children exceeded their reported total. */
size_t tt_flame_finish(tt_flame *f);
/* Rescales the base selves to the new total by largest-remainder apportionment (visual.md
 * 5.1); call tt_flame_finish afterwards. */
int tt_flame_normalize(tt_flame *f);

/* Layout (visual.md 3). */
enum { TT_FLAME_WIDTH_NEW = 0, TT_FLAME_WIDTH_BASE, TT_FLAME_WIDTH_SUM };
typedef struct tt_flame_layout_opts {
    int sort_weight;         /* siblings by total descending instead of by name */
    int width;               /* image width in px (minwidth in px uses width - 20) */
    int64_t minwidth_milli;  /* minimum width, thousandths of a px or (pct) of a percent */
    int minwidth_pct;
    size_t max_frames;       /* 0 = no budget */
    int widths;              /* TT_FLAME_WIDTH_* */
} tt_flame_layout_opts;
typedef struct tt_flame_frame {
    uint32_t node;           /* TT_NONE for an elided aggregate */
    uint32_t depth, parent_frame;
    int64_t x, w;            /* weight units */
    int64_t elided_n, elided_w; /* pruned children of this frame (count, weight) */
    uint32_t top[3];         /* elided aggregate: its three largest nodes (TT_NONE) */
} tt_flame_frame;
typedef struct tt_flame_layout {
    tt_flame_frame *frames;
    size_t n, nodes;         /* drawn frames; nodes with a non-zero width */
    int64_t total, threshold;
    uint32_t max_depth;
} tt_flame_layout;
/* Owned by the caller, free with tt_flame_layout_free. */
int tt_flame_layout_build(tt_flame_layout *out, tt_flame *f, const tt_flame_layout_opts *o);
void tt_flame_layout_free(tt_flame_layout *l);
/* Width units of node under mode (TT_FLAME_WIDTH_*). */
int64_t tt_flame_width_of(const tt_flame_node *n, int mode);
/* round_half_up(a * b / c) in 128-bit arithmetic (c > 0, a, b >= 0). */
int64_t tt_muldiv(int64_t a, int64_t b, int64_t c);

/* Colours (palette.c, visual.md 4, 5.2) as 0xRRGGBB. */
enum { TT_COLORS_LANG = 0, TT_COLORS_MODULE, TT_COLORS_PACKAGE, TT_COLORS_HOT, TT_COLORS_MONO };
uint64_t tt_fnv1a64(const char *s, size_t n);
uint32_t tt_flame_color(int scheme, int cat, const char *name, size_t len, const char *module);
/* The colour key of the module and package schemes (visual.md 4.2): *n bytes at the result
 * (borrowed from name or module). */
const char *tt_flame_color_key(int scheme, int cat, const char *name, size_t len,
                               const char *module, size_t *n);
/* Differential colour: delta against the scale max m (>= 1); dead = below --diff-min. */
uint32_t tt_flame_diff_color(int64_t delta, int64_t m, int dead);
/* WCAG 2.1 contrast ratio of rgb against black, times 100. */
int tt_contrast_black_x100(uint32_t rgb);

/* Text (svg.c, visual.md 6): escaping with UTF-8 repair, cells, fitting. */
/* Appends s[0..n) as XML text (attr: also '"'), invalid or forbidden code points as U+FFFD,
 * tab/CR/LF as blanks. */
int tt_svg_escape(tt_buf *b, const char *s, size_t n, int attr);
/* Display cells of s[0..n) (East Asian wide code points count two). */
size_t tt_svg_cells(const char *s, size_t n);
/* The text fitting cells cells (visual.md 6.1), appended escaped to b; 0 when nothing fits
 * (under 3 cells). truncate_left: ".." first. */
int tt_svg_fit(tt_buf *b, const char *name, size_t n, size_t cells, int truncate_left);

/* SVG writer (export_svg.c, visual.md 7). */
typedef struct tt_svg_opts {
    int width, row_height, font_size;
    int icicle, chart, diff;
    int colors;              /* TT_COLORS_* */
    int truncate_left;
    int script;              /* embed the script and buttons */
    int inline_html;         /* inside the HTML report: no XML declaration, no onload */
    int weight_ns;           /* weights are ns: printed as ms */
    int diff_total;          /* colour by total delta instead of self */
    int64_t diff_min_milli;  /* thousandths of a percent of T */
    int widths;              /* TT_FLAME_WIDTH_* */
    const char *title, *subtitle, *countname, *nametype, *id_prefix;
} tt_svg_opts;
void tt_svg_opts_init(tt_svg_opts *o);
/* Writes the laid out tree as SVG into b (visual.md 7). */
int tt_svg_write(tt_buf *b, tt_flame *f, const tt_flame_layout *l, const tt_svg_opts *o);
/* The layout as TSV rows (visual.md 3.4). */
int tt_flame_write_tsv(tt_buf *b, tt_flame *f, const tt_flame_layout *l);
/* The embedded script and style sheet (libtrace/assets/). */
const char *tt_flame_script(void);
const char *tt_flame_style(void);

/* Adds the weighted stacks of the profile's threads (eo: weight, thread filter, root kind,
 * slice options) to side of f, through the transformations of x (may be NULL); app (napp)
 * marks app Java packages. */
/* The flame chart of one thread (visual.md 3.1): its slices (rebuilt or instrumented) in
 * time order, x = ts - first ts, w = dur; root_thread adds the thread as the root frame.
 * x (may be NULL): only its window counts (slices clipped to it, x from its start). */
int tt_flame_add_chart(tt_flame *f, tt_profile *p, uint32_t utid, const tt_slice_opts *so,
                       int root_thread, const tt_flame_xform *x, const char *const *app,
                       size_t napp, tt_error *err);
/* A call tree without times as a flame chart (visual.md 3.1, Matrix trees): after
 * tt_flame_finish, every chart node is placed at its parent's left edge plus the totals of
 * the siblings created before it (Matrix line order). */
int tt_flame_chart_pack(tt_flame *f);
int tt_flame_add_profile(tt_flame *f, tt_profile *p, const tt_export_opts *eo,
                         const tt_flame_xform *x, const char *const *app, size_t napp,
                         int side, tt_error *err);

/* ---- the HTML report (html.c, chart.c; spec/visual.md 10) ---- */
/* Charts of a table: BARS (label_col, value_col), LEVELS (value_col .. +4 level counts),
 * WATERFALL (a chart per value of column 0, the startup; column 1 its kind; value_col the
 * start ms, the next the duration ms), HIST (value_col the count, the next the drop level
 * that colours the bar). */
enum { TT_RCHART_NONE = 0, TT_RCHART_BARS, TT_RCHART_LEVELS, TT_RCHART_WATERFALL,
       TT_RCHART_HIST };
#define TT_HREPORT_TABLES 32
typedef struct tt_hreport_table {
    const char *section;     /* summary, inputs, startup, frames, issues, methods */
    const char *caption;
    size_t ncol, nrow;
    const char **cols;
    tt_vec cells;            /* const char * (NULL = empty), nrow * ncol */
    tt_vec nums;             /* double per cell; NAN = text */
    int chart;               /* TT_RCHART_* */
    int label_col, value_col; /* bars: label and value; levels: the first of 5 count columns */
    const char *unit;        /* of the charted value */
    int details;             /* the table folds into <details> */
    const char *color;       /* bars: fill (static string; NULL = #0072B2) */
    int ref_col;             /* bars: 1 + the column whose largest value gets a dashed line
                              * (refresh rate); 0 = none */
} tt_hreport_table;
/* An issue's call tree in the report (visual.md 10.2 item 5): nodes in pre-order. */
typedef struct tt_hreport_node {
    uint32_t depth;          /* 0 = a root */
    const char *name;
    int64_t count, total_dur, self_dur; /* -1 = unknown */
} tt_hreport_node;
typedef struct tt_hreport_tree {
    const char *title;       /* kind, stack key, cost, scene */
    int64_t issue_id;
    tt_vec nodes;            /* tt_hreport_node */
    size_t omitted;          /* nodes beyond the report's cap */
    const char *svg;         /* its icicle (inline SVG, borrowed from the caller) or NULL */
} tt_hreport_tree;
#define TT_HREPORT_TREES 10
#define TT_HREPORT_TREE_NODES 400
typedef struct tt_hreport {
    tt_arena *arena;
    tt_hreport_table tables[TT_HREPORT_TABLES];
    size_t ntables;
    tt_hreport_tree trees[TT_HREPORT_TREES];
    size_t ntrees;
} tt_hreport;
/* Owned by the caller, free with tt_hreport_free. */
int tt_hreport_new(tt_hreport **out);
void tt_hreport_free(tt_hreport *r);
/* A new table (cols copied); *out borrowed until tt_hreport_free. TT_ELIMIT when full. */
int tt_hreport_table_add(tt_hreport *r, tt_hreport_table **out, const char *section,
                        const char *caption, size_t ncol, const char *const *cols);
/* A new issue tree (title copied); *out borrowed until tt_hreport_free. TT_ELIMIT when
 * full. Nodes beyond TT_HREPORT_TREE_NODES are counted in omitted, not kept. */
int tt_hreport_tree_add(tt_hreport *r, tt_hreport_tree **out, int64_t issue_id,
                        const char *title);
int tt_hreport_node_add(tt_hreport *r, tt_hreport_tree *t, uint32_t depth, const char *name,
                        int64_t count, int64_t total_dur, int64_t self_dur);
/* One row: ncol texts (copied; NULL = empty) and values (NAN = not a number). */
int tt_hreport_row_add(tt_hreport *r, tt_hreport_table *t, const char *const *cells,
                      const double *nums);
typedef struct tt_html_graph {
    const char *title;
    const char *svg;         /* inline SVG (tt_svg_opts.inline_html) */
    int diff;                /* drawn in the Diff section (the differential flame graph) */
} tt_html_graph;
typedef struct tt_html_opts {
    const char *title;       /* document title */
    const char *inputs;      /* input names shown under the title */
    const tt_html_graph *graphs;
    size_t ngraphs;
    int script;              /* the page script (graph interaction, sorting) */
    const char *about;       /* the About section's extra text (options), or NULL */
    int diff;                /* diff mode: the Diff section */
} tt_html_opts;
/* Writes the self-contained HTML document (visual.md 10) into b. */
int tt_html_write(tt_buf *b, const tt_hreport *r, const tt_html_opts *o);
/* Horizontal bar chart (visual.md 10.3) of labels/values (n) into b; unit names values. */
int tt_chart_bars(tt_buf *b, const char *title, const char *const *labels,
                  const double *values, size_t n, const char *unit, const char *color);
/* The same with a colour per bar (colors[i % ncolors]) and, when ref > 0, a dashed line at
 * ref named ref_name (the refresh rate of an FPS chart). */
int tt_chart_bars_ex(tt_buf *b, const char *title, const char *const *labels,
                     const double *values, size_t n, const char *unit,
                     const char *const *colors, size_t ncolors, double ref, const char *ref_name);
/* A startup waterfall (visual.md 10.3): a row per segment from start_ms for dur_ms, dashed
 * lines at the Vitals TTID limit and Matrix's threshold of kind when they fit the axis. */
int tt_chart_waterfall(tt_buf *b, const char *title, const char *const *labels,
                       const double *start_ms, const double *dur_ms, size_t n, const char *kind);
/* 100% stacked drop-level bars: counts[i * 5 + level] for best..frozen. */
int tt_chart_levels(tt_buf *b, const char *title, const char *const *labels,
                    const double *counts, size_t n);
/* The axis step of max (1, 2 or 5 x 10^k, max / step <= 6) in units of 10^-3. */
int64_t tt_chart_step_milli(double max);

#endif
