/* ART method traces (.trace): reader, per-thread call rebuilding and per-method profile,
 * spec/art-trace.md sections 2-5. Kept out of tt.h: only the art command and analyze use it. */
#ifndef TT_ART_H
#define TT_ART_H

#include "tt.h"

/* What the first bytes of a file are (section 2.1). */
enum {
    TT_ART_NOT = 0,    /* not an ART method trace */
    TT_ART_LEGACY = 1, /* "*version" text header + binary records */
    TT_ART_STREAMING,  /* "SLOW" with version 0xF1..0xF3 */
    TT_ART_V2,         /* format V2 (versions 4/5): detected, not decoded (2.6) */
    TT_ART_BARE,       /* "SLOW" version 1-3: a data section without its text header */
    TT_ART_UNSUPPORTED, /* "*version" text header with a version other than 1-3 (2.1) */
};
/* Kind of p[0..n); for TT_ART_NOT and TT_ART_V2/BARE/UNSUPPORTED, what (cap bytes) says what it is
 * instead ("this is a simpleperf recording; ..."), or "" when nothing is known. */
int tt_art_detect(const unsigned char *p, size_t n, char *what, size_t cap);

enum { TT_ART_CLOCK_CPU = 0, TT_ART_CLOCK_WALL = 1, TT_ART_CLOCK_DUAL = 2 };
enum { TT_ART_ENTER = 0, TT_ART_EXIT = 1, TT_ART_UNROLL = 2 };
enum { TT_ART_MODE_AUTO = 0, TT_ART_MODE_INSTRUMENTED, TT_ART_MODE_SAMPLED, TT_ART_MODE_SAMPLES };
enum { TT_ART_CLOSE_THREAD_LAST = 0, TT_ART_CLOSE_TRACE_END = 1 };
#define TT_ART_NONE INT64_MIN /* a clock the trace does not have */

typedef struct tt_art_method {
    uint32_t id;                /* method id of the file (value & ~3) */
    const char *cls, *name, *sig, *src; /* sig and src may be "" */
    const char *key;            /* canonical key: class.method(param,types) (3.2) */
    const char *raw;            /* class.method signature */
    int bad_desc, unknown;      /* malformed descriptor; id not in the method table */
    int32_t line;               /* Dalvik's sixth field, the source line; 0 = none */
} tt_art_method;

/* One record: method index (low 24 bits) and action (high 8 bits), record index in the file,
 * clocks in us after wrap repair (3.1) or TT_ART_NONE. */
typedef struct tt_art_event {
    uint32_t ma;
    uint32_t rec;
    int64_t wall_us, cpu_us;
} tt_art_event;
#define TT_ART_EV_METHOD(e) ((e)->ma & 0xFFFFFFu)
#define TT_ART_EV_ACTION(e) ((int)((e)->ma >> 24))

typedef struct tt_art_thread {
    uint32_t id;        /* the id the records carry (16 bits, 8 for version 1) */
    uint32_t tid;       /* the id to show: the *threads list's (the whole tid, 70000 where
                         * the records carry 4464), else id */
    int tid_full;       /* tid is wider than the records' ids: the whole OS tid (32 bits) */
    const char *name;   /* from the thread list or packet, else "thread <id>" */
    int listed;
    size_t nev;
    tt_art_event *ev;   /* this thread's events in file order */
    int64_t last_wall, last_cpu; /* wrap repair state (us) */
} tt_art_thread;

typedef struct tt_art_kv {
    const char *key, *value;
} tt_art_kv;

typedef struct tt_art tt_art;

typedef struct tt_art_opts {
    int clock_guess;  /* clock of a streaming file without summary: TT_ART_CLOCK_WALL (default)
                       * or TT_ART_CLOCK_CPU (--art-clock) */
    /* --art-keys (2.1): the text header ("*version" to "*end") of a bare data section, from a
     * separate file named keys_name (error locations); NULL when none. Borrowed during the
     * parse. A file with its own header is refused when keys are given. */
    const unsigned char *keys;
    size_t nkeys;
    const char *keys_name;
    /* Streaming (section 4): when set, no events are stored (threads' ev stay NULL, nev is
     * still the count); each decoded record goes to event with its thread's index in the
     * final, id-sorted threads array, in file order. Non-zero stops the parse with it. */
    int (*event)(void *ud, const tt_art *a, size_t t, const tt_art_event *e);
    void *event_ud;
    size_t chunk_bytes; /* tt_art_parse_src: bytes read at a time (0: 1 MiB) */
} tt_art_opts;

struct tt_art {
    int kind;             /* TT_ART_LEGACY or TT_ART_STREAMING */
    int version;          /* 1..3 (the binary header's) */
    int clock;            /* TT_ART_CLOCK_* */
    int clock_guessed;    /* streaming file without summary */
    int has_summary;
    unsigned record_size;
    uint64_t start_us;    /* header start time, CLOCK_MONOTONIC us */
    int overflow;         /* data-file-overflow=true */
    int64_t elapsed_us;   /* elapsed-time-usec, or -1 */
    int64_t pid;          /* pid=, or -1 */
    uint64_t records;     /* records decoded (bad actions excluded) */
    tt_art_method *methods;
    size_t nmethods;
    tt_art_thread *threads; /* sorted by id */
    size_t nthreads;
    tt_art_kv *kv;        /* every key=value of the header or summary, in order */
    size_t nkv;
    tt_arena *arena;
};

/* Parses a whole file held in memory (data is borrowed only during the call); name is used in
 * error locations, stats receives the counted repairs (section 4; may be NULL). Owned by the
 * caller, free with tt_art_free. Errors: TT_EFORMAT (with the byte offset), TT_EUNSUPPORTED
 * (format V2, a bare data section), TT_ELIMIT, TT_ENOMEM. */
int tt_art_parse(tt_art **out, const unsigned char *data, size_t n, const char *name,
                 const tt_art_opts *o, tt_stats *stats, tt_error *err);
/* A file read in chunks: open gives an input at the file's start, once per pass (twice);
 * the parser releases each with close (NULL: tt_input_close). */
typedef struct tt_art_src {
    int (*open)(void *ud, tt_input **in, tt_error *err);
    void *ud;
    void (*close)(void *ud, tt_input *in);
} tt_art_src;
/* tt_art_parse reading the file in chunks of o->chunk_bytes (section 4): memory holds a chunk,
 * the text header and what the parse keeps (with o->event, no events), not the file. The
 * same results, stats and errors as tt_art_parse on the whole file. */
int tt_art_parse_src(tt_art **out, const tt_art_src *src, const char *name,
                     const tt_art_opts *o, tt_stats *stats, tt_error *err);
void tt_art_free(tt_art *a);
const char *tt_art_clock_name(int clock);
const char *tt_art_action_name(int action); /* "ent", "xit", "unr" */
/* Value of a header key, or NULL. Borrowed. */
const char *tt_art_meta(const tt_art *a, const char *key);
/* 1 when the trace has a wall clock, and the time of an event on the layout clock (wall, else
 * thread CPU) and the CPU clock. */
int tt_art_has_wall(const tt_art *a);
int tt_art_has_cpu(const tt_art *a);

/* ---- rebuilding calls (section 5) ---- */
enum { TT_ART_END_EXACT = 0, TT_ART_END_UNTERMINATED, TT_ART_END_TRUNCATED, TT_ART_END_INFERRED };
const char *tt_art_end_kind_name(int k);

typedef struct tt_art_slice {
    uint32_t method, depth;
    int64_t ts_us, dur_us;        /* layout clock (wall, else thread CPU), since trace start */
    int64_t cpu_ts_us, cpu_dur_us; /* TT_ART_NONE without a CPU clock */
    int64_t self_us, cpu_self_us;
    int end_kind, unwound, recursive;
    uint32_t sample_count;        /* sampled mode: sample groups within the slice */
    uint64_t begin_ev, end_ev;    /* indices of the thread's enter and closing events */
} tt_art_slice;

/* Visitor: enter is called when a frame is pushed (depth = its depth), slice when it is closed
 * (innermost first: closes are strictly last-in first-out). Return non-zero to stop. */
typedef struct tt_art_visit {
    int (*enter)(void *ud, uint32_t method, uint32_t depth);
    int (*slice)(void *ud, const tt_art_slice *s);
    void *ud;
} tt_art_visit;

typedef struct tt_art_rebuild_opts {
    int close_at;   /* TT_ART_CLOSE_* */
    int sampled;    /* end_kind 'inferred' instead of 'exact', sample counts */
    int64_t overhead_ns; /* --art-subtract-overhead (3.1): each call's enter and exit cost
                          * 2 x overhead_ns, removed from its self time and from the total
                          * of it and every caller, never below 0 (both clocks); 0 = off */
    int samples;    /* --art-mode samples (5.5): calls rebuilt from one point sample per
                     * timestamp group by samples.md 5 (default slice options); the slices'
                     * begin_ev/end_ev and unwound are 0 then */
} tt_art_rebuild_opts;

/* Section 5.1 on thread t; counts art_unmatched_exit, art_missing_exit, art_truncated_frame
 * into stats (file names the trace). Returns 0, the visitor's non-zero value, or TT_ENOMEM. */
int tt_art_rebuild(const tt_art *a, size_t t, const tt_art_rebuild_opts *o,
                   const tt_art_visit *v, tt_stats *stats, const char *file, tt_error *err);

/* The samples mode of tt_art_rebuild (art_samples.c; library-internal). */
int tt_art__rebuild_samples(const tt_art *a, size_t t, const tt_art_visit *v, const char *file,
                            tt_error *err);

/* Matrix-style slow messages (6.3) of thread t: the outermost calls of a window method
 * (win[nwin], method indices) lasting at least threshold_us, each converted to method-beat
 * records (window method = 1048574, other methods window-local ids from 1) and run through
 * the method-beat section 5 pipeline (strict, trim to 30 lines). */
typedef struct tt_art_issue {
    int64_t ts_us, dur_us;
    tt_mitem *items;      /* trimmed stack in pre-order, window-local ids; malloc'd */
    size_t n;
    ptrdiff_t key_index;  /* the blamed item (getTreeKey), -1 when none */
    uint32_t *methods;    /* window-local id -> method index (TT_NONE for 1048574's slot) */
    size_t nmethods;
} tt_art_issue;
/* out receives tt_art_issue elements; free them with tt_art_issues_free. */
int tt_art_slow_messages(tt_vec *out, const tt_art *a, size_t t, const uint32_t *win,
                         size_t nwin, int64_t threshold_us, tt_error *err);
void tt_art_issues_free(tt_vec *v);
/* The method index of a window-local id of an issue (the window method for 1048574). */
uint32_t tt_art_issue_method(const tt_art_issue *is, int32_t id, uint32_t window_method);

/* The blamed item's canonical name and its root-to-item path (names joined by ';') into
 * name and path (emptied first; empty without a key item). 0 or TT_ENOMEM. */
int tt_art_issue_blame(tt_buf *name, tt_buf *path, const tt_art *a, const tt_art_issue *is,
                       uint32_t window_method);

/* Sampled-trace detection of section 5.5: 1 when sampled, with the interval in us. */
int tt_art_detect_sampled(const tt_art *a, int64_t *interval_us);

/* Per-method profile (section 5.2 table): calls, recursive calls, self and non-recursive total
 * on both clocks (us; cpu_* are 0 without a CPU clock). */
typedef struct tt_art_prof {
    uint64_t calls, recursive_calls;
    int64_t self_us, total_us, cpu_self_us, cpu_total_us;
} tt_art_prof;
/* Fills prof[nmethods] (zeroed first) over the threads whose flag in use[] is set (NULL: all);
 * span_us / cpu_span_us get the sum over those threads of last - first event time. */
int tt_art_profile(tt_art_prof *prof, int64_t *span_us, int64_t *cpu_span_us, const tt_art *a,
                   const unsigned char *use, const tt_art_rebuild_opts *o, tt_stats *stats,
                   const char *file, tt_error *err);

/* The per-method profile without stored events (section 4, 6.6): give tt_art_pstream_event
 * and the stream as tt_art_opts.event / event_ud to tt_art_parse, which then keeps no events
 * and hands each record to the per-thread stacks as it decodes it (memory: the methods and
 * each thread's open frames). want (may be NULL: every thread) selects a thread at its first
 * record; o (borrowed, may be NULL; its samples flag is ignored) is read after want. tt_art_pstream_finish closes the open frames and gives prof[nmethods + 1] (owned by
 * the caller, free()) and the thread spans as tt_art_profile does. Errors: TT_ENOMEM. */
typedef struct tt_art_pstream tt_art_pstream;
int tt_art_pstream_new(tt_art_pstream **out, const tt_art_rebuild_opts *o,
                       int (*want)(void *ud, const tt_art *a, size_t t), void *want_ud);
int tt_art_pstream_event(void *ud, const tt_art *a, size_t t, const tt_art_event *e);
int tt_art_pstream_finish(tt_art_prof **prof, int64_t *span_us, int64_t *cpu_span_us,
                          tt_art_pstream *ps, const tt_art *a, tt_stats *stats,
                          const char *file, tt_error *err);
void tt_art_pstream_free(tt_art_pstream *ps);

/* Retraces every method through a ProGuard/R8 mapping (method-beat.md 4.6 "obfuscated method
 * with descriptor"): class, name and descriptor, then the canonical keys again. *ambiguous
 * (may be NULL) counts ambiguous choices. 0 or TT_ENOMEM. */
int tt_art_retrace(tt_art *a, const tt_proguard *p, size_t *ambiguous);

/* --normalize-synthetic (3.2): digit runs of R8/D8/javac synthetic names in the canonical
 * keys become '#' (after '$', "Lambda" or "$Proxy": Foo$1, lambda$onCreate$0,
 * $$ExternalSyntheticLambda3, $Proxy12). *collisions (may be NULL) counts distinct keys
 * merged by it. 0 or TT_ENOMEM. */
int tt_art_normalize_synthetic(tt_art *a, size_t *collisions);

/* Adds every thread's calls to p as fixed slices (Java frames named by canonical key, raw
 * names kept), for the exporters (6.2). */
int tt_art_to_profile(tt_profile *p, const tt_art *a, const tt_art_rebuild_opts *o,
                      tt_stats *stats, const char *file, tt_error *err);

#endif
