/* libtrace internal declarations, shared by libtrace's .c files only. */
#ifndef TT_INT_H
#define TT_INT_H

#include "tt.h"

#define TT_UNUSED(x) ((void)(x))

/* Truncates s for messages: copies at most 40 characters, adding "..." when cut; control
 * bytes and bytes that are no valid UTF-8 are written as \xNN (dst stays valid UTF-8). */
void tt__snippet(char *dst, size_t cap, const char *s, size_t n);
/* A ProGuard/R8 class line "a.b.C -> x.y:" (trimmed; method-beat.md 4.6). */
int tt__proguard_class_line(const char *l, size_t n);
/* Strict decimal parsers; 0 on success. */
int tt__parse_u64(const char *s, size_t n, uint64_t *out);
int tt__parse_i64(const char *s, size_t n, int64_t *out);
/* Trim spaces/tabs and a trailing '\r'. */
void tt__trim(const char **s, size_t *n);
/* Logcat Displayed/Fully drawn lines or `am start -W` output (startup.md 4.3, 4.4). */
int tt__looks_launches(const char *p, size_t n);
/* A logcat -v long entry header, "[ MM-DD HH:MM:SS.mmm  pid:  tid P/tag ]" (with or
 * without the year): a text that starts with '[' and is no JSON. */
int tt__logcat_long_header(const char *l, size_t n);
/* The head of a logcat capture (import_launch.c): most lines have a logcat format's shape. */
int tt__looks_logcat(const char *p, size_t n);
/* A JSON-lines startup event stream: the first line's "kind" is an event kind (4.2). */
int tt__looks_startup_events(const char *p, size_t n);
/* perf script detection (import_perf.c, samples.md 2.2): 1 when line, the first meaningful
 * line of an input, starts perf script output; next is the line after it (NULL at the end). */
int tt__perf_detect(const char *line, size_t n, const char *next, size_t nn);
/* perf's own warning on its stderr, captured into the text with 2>&1 (samples.md 2.2): the
 * line s is exactly "Warning:" and the message after it (next, NULL at the end) is not
 * indented as a frame is. */
int tt__perf_warning_head(const char *s, size_t n, const char *next, size_t nn);
/* A line of one of perf's warning messages (the known ones, samples.md 2.2): the count of
 * blank lines perf prints after it, -1 when s is none. */
int tt__perf_warning_msg(const char *s, size_t n);
/* p[0..n) starts with such warning blocks (each "Warning:" and the paragraphs of its
 * message) and then perf script text: 1, *off the offset of its first sample header. */
int tt__perf_skip_warnings(const char *p, size_t n, size_t *off);
/* A dex method descriptor "(params)ret" that tt_method_format can convert (mapping.c). */
int tt__desc_valid(const char *d);
/* memmem without _GNU_SOURCE. */
const char *tt__memmem(const char *h, size_t hn, const char *n, size_t nn);
/* A Perfetto protobuf trace by its first packet (import_art.c, with the ART check that names
 * it). */
int tt__looks_perfetto(const unsigned char *p, size_t n);

/* ---- jscan.c: the fast path for one-line JSON records ---- */
enum { TT_JV_ABSENT = 0, TT_JV_INT, TT_JV_REAL, TT_JV_STR, TT_JV_TRUE, TT_JV_FALSE, TT_JV_NULL,
       TT_JV_OBJ, TT_JV_ARR };
typedef struct tt_jval {
    int type;     /* TT_JV_* */
    int64_t i;    /* TT_JV_INT */
    double d;     /* TT_JV_INT and TT_JV_REAL */
    const char *s; /* TT_JV_STR: into the scanned bytes (no escapes), not NUL-terminated */
    size_t n;
} tt_jval;
typedef struct tt_jscan_spec {
    const char *const *keys; /* top-level keys of interest; vals[i] is keys[i]'s last value */
    size_t n_keys;
    int nested;              /* index of the one key whose object value is scanned, or -1 */
    const char *const *sub_keys; /* its keys of interest, into sub[] */
    size_t n_sub;
    const uint8_t *key_lens, *sub_lens; /* optional: strlen of each key (faster matching) */
} tt_jscan_spec;
/* 1 when p[0..n) is one JSON object in the subset the scanner accepts (vals and sub
 * filled, absent keys TT_JV_ABSENT); 0 when the caller must parse the line itself. */
int tt_jscan(const tt_jscan_spec *sp, const char *p, size_t n, tt_jval *vals, tt_jval *sub);

/* ---- Matrix FPS replays (frames_matrix.c, frames.md section 3) ---- */
typedef struct tt_fps_replay tt_fps_replay;
/* o has its defaults filled. Owned by the caller, free with tt_frames__replay_free. */
int tt_frames__replay_new(tt_fps_replay **out, const tt_frames_opts *o);
void tt_frames__replay_free(tt_fps_replay *rp);
/* One record in input order; scene is interned (stable) with its id. */
int tt_frames__replay_add(tt_fps_replay *rp, const tt_frame_rec *rec, uint32_t scene_id,
                          const char *scene, const char *file, tt_error *err);
/* Emitted reports (borrowed). */
const tt_fps_report *tt_frames__replay_reports(const tt_fps_replay *rp, size_t *n);
/* Frames left in unflushed items: fills a vec of tt_frames__unflushed. */
typedef struct tt_frames__unflushed {
    uint32_t scene_id;
    int64_t frames;
} tt_frames__unflushed;
int tt_frames__replay_unflushed(const tt_fps_replay *rp, tt_vec *out);
/* Saturating int64 addition (counters over hostile input). */
static inline int64_t tt__sat_add(int64_t a, int64_t b) { return tt_sat_add_i64(a, b); }
/* Reports model (frames_report.c): fills stats[ns] (scene names set) and all from the
 * reports, sid[i] being report i's scene, and appends one series point per report. */
int tt_frames__report_stats(tt_frame_stats *stats, size_t ns, tt_frame_stats *all,
                            tt_vec *series, const tt_fps_report *r, const uint32_t *sid,
                            size_t nr);
/* Levels, shared by the native model and the replays (section 2). */
void tt_frames__level_add(int64_t *count, int64_t *sum, int64_t d, const int32_t t[4]);
/* ---- startup (startup.c, import_startup.c, startup_stack.c) ---- */
#define TT__SU_NONE UINT32_MAX

typedef struct tt__su_event {
    int kind;
    int64_t ms;               /* uptime ms (floor of ns) */
    int64_t ns;               /* ordering key */
    uint32_t activity, instance, component; /* interned ids or TT__SU_NONE */
    int32_t scene;
    int launch, focus;
    int64_t base_ms;
    uint64_t line;
    uint32_t proc;            /* the process (pid, generation) it belongs to, while reading */
} tt__su_event;

struct tt_startup {
    tt_su_opts o;
    tt_stats *stats;
    tt_arena *arena;
    /* interned strings: id -> string, open-addressing hash of ids */
    tt_vec strs;              /* const char * */
    uint32_t *hash;
    size_t hash_cap;
    uint32_t *splash;         /* sorted interned ids of the splash set */
    size_t n_splash;
    tt_vec ev;                /* tt__su_event of the current process */
    tt_vec rows;              /* tt_su_row */
    tt_vec matrix;            /* tt_su_matrix * (arena), emission order */
    tt_vec launches;          /* tt_su_launch */
    tt_vec last_logcat;       /* per interned component id: 1 + index of its latest logcat
                                 launch, 0 none (Fully drawn attachment) */
    tt_vec reports;           /* tt_su_matrix * from reports (arena) */
    uint32_t nproc;
    tt_su_dist am, logcat;
    int finished;
};

/* Matrix's startup state of one process (startup.md 1.3). */
typedef struct tt__su_mx {
    int64_t E, A, base_ms;
    int have_E, app_done, launch;
    int32_t scene;
    int64_t first_screen, cold_cost, last_create, active;
    int splash_seen, warm_pending, discarded;
    struct mx_inst *inst;     /* per interned id: creation time per instance, focus per class */
    tt_su_matrix *last;       /* report emitted by the last event, or NULL */
    int rc;
} tt__su_mx;

int tt_startup__mx_init(tt_startup *s, tt__su_mx *m, int64_t base_ms);
void tt_startup__mx_free(tt__su_mx *m);
int tt_startup__mx_event(tt_startup *s, tt__su_mx *m, const tt__su_event *e);
int tt_startup__is_splash(const tt_startup *s, uint32_t cls);
/* Threshold flags of one row (5.3). */
void tt_startup__row_flags(const tt_startup *s, tt_su_row *r);

/* Interns s[0..n) and returns its id (TT__SU_NONE on out of memory). */
/* Parses o.splash (';'-separated class names) into the sorted splash set (startup_names.c). */
int tt_startup__parse_splash(tt_startup *s);
uint32_t tt_startup__intern(tt_startup *s, const char *p, size_t n);
const char *tt_startup__str(const tt_startup *s, uint32_t id);
/* Analyses the events of one process (s->ev, sorted). */
int tt_startup__process(tt_startup *s, const char *file, int has_pid, int64_t pid,
                        tt_error *err);
/* Matrix-compatible lenient stack of the buffer slice from its first record to the last
 * record whose absolute time (t + base_ms) is <= end_ms (startup.md 5.4). Strings are
 * arena-owned. */
int tt_startup__matrix_stack(tt_startup *s, int64_t base_ms, int64_t end_ms, int64_t cost,
                             const char **stack, const char **key, int64_t *stack_cost);
/* Native pairing of the records inside [from_ms, to_ms] (absolute), blame and top self
 * time (5.4, method-beat.md 8.2). *out is arena-owned. */
int tt_startup__native_stack(tt_startup *s, int64_t base_ms, int64_t from_ms, int64_t to_ms,
                             tt_su_native **out);
/* Decimal text without printf (jsonw.c): each writes at p (room for 21 bytes, 28 for the
 * decimals) and returns the end; no NUL. dec3/dec6: v / 10^3 or v / 10^6 exactly, with 3 or 6
 * fraction digits (ns as us or ms). */
char *tt__fmt_u64(char *p, uint64_t v);
char *tt__fmt_i64(char *p, int64_t v);
char *tt__fmt_dec3(char *p, int64_t v);
char *tt__fmt_dec6(char *p, int64_t v);
/* The write position of b with room for n more bytes (and the NUL), or NULL when out of
 * memory; the caller sets b->len afterwards (vec.c). */
char *tt__buf_room(tt_buf *b, size_t n);
/* Asks the kernel for transparent huge pages over the 2 MiB-aligned interior of a large
 * array (vec.c); a no-op for small arrays or where unsupported. */
void tt__hint_huge(void *p, size_t n);
/* Room for exactly n elements, without the huge-page hint: for an upper bound of which only a
 * part will be written (the caller hints that part). */
int tt__vec_reserve_exact(tt_vec *v, size_t n);
/* ---- rd.c: bounds-checked little-endian cursor over packed binary data (STYLE.md 5) ---- */
typedef struct tt_rd {
    const unsigned char *p;
    size_t n, pos;
} tt_rd;
void tt_rd_init(tt_rd *r, const void *p, size_t n);
size_t tt_rd_left(const tt_rd *r);
/* Each returns 0, or TT_EFORMAT without moving when fewer bytes are left. */
int tt_rd_u8(tt_rd *r, uint8_t *v);
int tt_rd_u16le(tt_rd *r, uint16_t *v);
int tt_rd_u32le(tt_rd *r, uint32_t *v);
int tt_rd_i32le(tt_rd *r, int32_t *v);
int tt_rd_u64le(tt_rd *r, uint64_t *v);
int tt_rd_bytes(tt_rd *r, const unsigned char **p, size_t n);
int tt_rd_skip(tt_rd *r, size_t n);
/* Plain little-endian loads for hot loops, only inside a region already bounds-checked as a
 * whole (tt_rd_bytes or an explicit length test). */
static inline uint16_t tt__le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t tt__le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t tt__le64(const unsigned char *p)
{
    return (uint64_t)tt__le32(p) | (uint64_t)tt__le32(p + 4) << 32;
}

/* ---- hash.c: open-addressed tables ---- */
/* u64 key -> u32 value (TT_NONE is reserved as "empty"). */
typedef struct tt__map {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, len;
} tt__map;
int tt__map_get(const tt__map *m, uint64_t key, uint32_t *val); /* 1 found, 0 not */
int tt__map_put(tt__map *m, uint64_t key, uint32_t val);        /* insert or replace */
void tt__map_free(tt__map *m);
/* Table of u32 ids keyed by a caller hash with a caller equality test. */
typedef int (*tt__eq_fn)(const void *ctx, uint32_t id, const void *key);
typedef struct tt__idtab {
    uint32_t *ids;
    uint64_t *hashes;
    size_t cap, len;
} tt__idtab;
uint32_t tt__idtab_find(const tt__idtab *t, uint64_t h, tt__eq_fn eq, const void *ctx,
                        const void *key); /* TT_NONE when absent */
int tt__idtab_add(tt__idtab *t, uint64_t h, uint32_t id);
void tt__idtab_free(tt__idtab *t);
uint64_t tt__hash(const void *p, size_t n, uint64_t seed);
static inline uint64_t tt__mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* ---- linechunk.c: text input in chunks of whole lines, read in parallel (issue 16) ---- */
/* The readers' main thread reads a few bytes of some lines (headers, counts) that another thread
 * read in: asking for them some lines before keeps it from waiting on the other core's cache
 * (perf headers were a sixth of its time with --jobs 2 without this). */
static inline void tt__prefetch(const char *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}
typedef struct tt__lrec {
    uint32_t len; /* bytes, without the '\n'; the next line starts len + 1 further */
    uint32_t id;  /* chunk-local id of the line's text (want() picked it), else TT_NONE; in
                   * fields mode the index of its fields in fids */
} tt__lrec;
typedef struct tt__ldist {
    uint64_t hash;
    uint32_t off, len; /* the text's latest occurrence in the chunk */
    uint32_t next[3];  /* chunk-local ids of the lines that followed it, the latest first */
    uint32_t member;   /* the reader's member() picked it: it joins runs */
} tt__ldist;
/* A run: consecutive numbered lines that the reader's member() picked (perf: the frame lines
 * of one sample), numbered by their texts in order on the thread that read the chunk, so that
 * the reader looks at each different run once per chunk (linerun.c). */
typedef struct tt__lrun {
    uint64_t hash;   /* of its lines' hashes in order */
    uint32_t rec, n; /* its latest occurrence's first record; its number of records */
    size_t bytes;    /* its text with the newlines */
} tt__lrun;
typedef struct tt__locc {
    size_t off;        /* where a run occurs: its text's offset in the chunk, */
    uint32_t rec, run; /* its first record and its chunk-local run id */
} tt__locc;
typedef int (*tt__lwant_fn)(const char *s, size_t n);
typedef struct tt__lchunk {
    char *data;       /* whole lines; the last one lacks '\n' at the end of the input */
    size_t len, cap;
    tt__lrec *recs;   /* one per line, in order */
    size_t nrecs, rcap;
    uint32_t *fids;   /* fields mode: per numbered line its field count, the offset in the
                       * line of the field after them (the last one), then their ids */
    size_t nfids, fcap;
    tt__ldist *dist;  /* per chunk-local id */
    size_t ndistinct, dcap;
    uint32_t *slots;
    size_t nslots;
    int too_long;     /* the line after the records is longer than the input's line cap */
    tt__lwant_fn member; /* the reader's; NULL: no runs */
    tt__lrun *runs;   /* per chunk-local run id */
    size_t nruns, runcap;
    uint32_t *rslots;
    size_t nrslots;
    tt__locc *occ;    /* the runs in record order */
    size_t nocc, occap;
} tt__lchunk;
/* Which lines get a chunk-local id (a pure function of the text: called from any thread). */
typedef struct tt__lreader tt__lreader;
/* Reads the rest of in: a plain regular file (tt__input_take_file) with jobs >= 1 is read
 * in chunks of chunk_bytes (0: 4 MiB) by jobs threads (the caller's included), anything else
 * goes through tt_input_read. sep 0: the lines want() picks get an id for their text; else
 * fields mode: of those lines, each field that sep ends (all but the last) gets an id for its
 * text. member (sep 0 only, may be NULL): which numbered lines make runs (also a pure
 * function of the text). Free with tt__lreader_close. */
int tt__lreader_open(tt__lreader **out, tt_input *in, int jobs, size_t chunk_bytes,
                     tt__lwant_fn want, tt__lwant_fn member, char sep, tt_error *err);
/* The next chunk in input order, borrowed until the next call; TT_DONE at the end; a line
 * longer than the cap is TT_ELIMIT at its line after the chunk before it. */
int tt__lreader_next(tt__lreader *r, const tt__lchunk **c, tt_error *err);
void tt__lreader_close(tt__lreader *r);
/* linegrow.c, for linechunk.c and linerun.c: doubles the open-addressing table of ids + 1 over the n entries (size bytes
 * each, their hash first) at ents (first: the first size); doubles the array p of *cap elements
 * of elem bytes (the new array, *cap updated; NULL, p unchanged, when out of memory). */
int tt__lslots_grow(uint32_t **slots, size_t *nslots, const void *ents, size_t n, size_t size,
                    size_t first);
void *tt__lgrow(void *p, size_t *cap, size_t elem, size_t first);
/* linerun.c: numbers the chunk's runs and lists where they occur (chunk_index calls it). */
int tt__lchunk_runs(tt__lchunk *c);
/* Lines of all chunks: text (hash from the chunk) to a dense id and the reader's notes. */
typedef struct tt__lent {
    uint64_t hash;
    const char *s;
    uint32_t len;
    uint32_t kind; /* the reader's: 0 until it looked at the text */
    uint32_t val;  /* the reader's: TT_NONE until set */
} tt__lent;
typedef struct tt__ltab {
    tt_arena *arena;
    tt__lent *ents;
    size_t len, cap;
    uint32_t *slots;
    size_t nslots;
} tt__ltab;
int tt__ltab_get(tt__ltab *t, uint32_t *id, uint64_t h, const char *s, size_t n);
uint64_t tt__ltab_hash(const char *s, size_t n); /* the hash chunks give their lines */
void tt__ltab_free(tt__ltab *t);
/* input.c for the reader: the current line number; the file behind a plain (not gzip, not
 * hashed) regular-file input, marked as read to its end (0, else TT_ENOTFOUND); progress. */
uint64_t tt__input_lineno(const tt_input *in);
int tt__input_take_file(tt_input *in, int *fd, uint64_t *offset, uint64_t *size);
void tt__input_progress(tt_input *in, uint64_t done_bytes, int end);

/* ---- sampled-stack profile internals (callsite.c, profile.c, slice.c, import_*.c) ---- */
/* Stored counters of one sample: the u32 rusage counters (samples.md 2.1.2) are kept modulo
 * 2^32, which is all their wrapping differences use; 32 bytes instead of 48 per sample. */
typedef struct tt__ctr_packed {
    uint64_t alloc[TT_CTR_MAJ_FLT];              /* alloc_objects, alloc_bytes */
    uint32_t rusage[TT_CTR_COUNT - TT_CTR_MAJ_FLT]; /* maj_flt, nv_csw, niv_csw */
    uint32_t known;
} tt__ctr_packed;
static inline uint64_t tt__ctr_get(const tt__ctr_packed *c, int k)
{
    return k < TT_CTR_MAJ_FLT ? c->alloc[k] : c->rusage[k - TT_CTR_MAJ_FLT];
}
typedef struct tt__pname {
    int64_t pid;
    const char *name; /* in the profile's arena */
    uint32_t source;  /* the input that gave it */
} tt__pname;
struct tt_profile {
    tt_arena *arena;
    int identity;
    tt_profile_meta meta;
    tt_vec frames;     /* tt_stack_frame */
    tt__idtab ftab;
    int ftab_stale;    /* frames renamed since ftab was built: rebuild before a lookup */
    tt_vec callsites;  /* tt_callsite */
    tt__map csmap;     /* (parent << 32 | frame) -> callsite */
    uint64_t *cs_hint; /* per callsite: (frame << 32 | child) of the child looked up last */
    size_t cs_hint_n;
    tt_vec threads;    /* tt_thread */
    tt__idtab ttab;
    tt_vec samples;    /* tt_sample */
    tt_vec counters;   /* tt__ctr_packed */
    tt_vec pnames;     /* tt__pname: the process names of earlier inputs' pids, kept when
                        * another input claimed the meta (tt_profile_meta_claim); pid -1:
                        * a name given without a pid, used only for the document name */
    uint32_t *order;   /* after finish: sample indices grouped by thread, time-sorted */
    size_t *toff;      /* per utid: offset into order; toff[utid + 1] - toff[utid] = count */
    uint8_t *run_brk;  /* after finish, per sample: 1 when the end of an earlier interval sample
                        * of its thread falls between it and the thread's previous sample, so
                        * the two are not one run (samples.md 4.3); NULL when no sample has it */
    int finished;
    tt_vec *fixed;     /* per utid fixed slices (tt_vec of tt_slice) or NULL */
    size_t nfixed;
    uint8_t *cs_rec;   /* lazily: callsite frame also among its ancestors */
    size_t cs_rec_n;
    struct tt__slice_ws *sws; /* slice.c buffers reused from thread to thread */
    int64_t *gap_auto; /* lazily, per utid: the automatic max gap, 0 = not yet known */
    tt_buf tmp;
};
/* Buffers of one slice build (slice.c), kept in the profile for the next thread so that their
 * pages stay mapped (page faults cost more than the slice building on virtual machines);
 * freed by tt_profile_free. */
typedef struct tt__slice_ws {
    tt_vec items; /* item (slice.c) */
    tt_vec open;  /* open_slice (slice.c) */
    int64_t *cum_block;
    uint64_t *cum_count;
    size_t cum_cap;
    uint32_t *path; /* TT_MAX_STACK_DEPTH + 1 */
    /* loop frame flags of the last build's stacks (slice.c tt__slice_loop_flags) */
    uint8_t *loop;     /* per frame (room for loop_cap): 1 for a loop frame, else 0 */
    uint32_t *loop_on; /* the frames set in loop, reset by the next build */
    size_t nloop_on, loop_cap;
    uint32_t *seen;    /* per callsite (room for seen_cap): the stamp of the build that saw it */
    size_t seen_cap;
    uint32_t stamp;
} tt__slice_ws;
/* The previous stack of one thread: consecutive samples share most of their root-side frames,
 * so only the differing tail is looked up (callsite.c). */
typedef struct tt__cscache {
    uint32_t frames[TT_MAX_STACK_DEPTH];
    uint32_t path[TT_MAX_STACK_DEPTH];
    size_t n;
} tt__cscache;
/* Removes the frames i < n with drop[i] set that no callsite or fixed slice uses (an
 * importer's frames that turned out to be something else: perf's "(inlined)" srcline), the
 * others renumbered in order; 0 or TT_ENOMEM. One pass over the callsites. */
int tt__profile_drop_frames(tt_profile *p, const unsigned char *drop, size_t n);
/* The callsite (parent, frame) at depth, created when missing (4.2); parent TT_NONE = root. */
int tt__callsite_child(tt_profile *p, uint32_t *node, uint32_t parent, uint32_t frame,
                       uint32_t depth);
int tt__callsite_intern_cached(tt_profile *p, uint32_t *leaf, const uint32_t *frames, size_t n,
                               tt__cscache *cache);
/* A stack of depth frames, root first, of which f holds the first *n (all of them, or at
 * least TT_MAX_STACK_DEPTH): deeper than TT_MAX_STACK_DEPTH, its TT_MAX_STACK_DEPTH - 1
 * outermost frames are kept under a TT_TRUNCATED_FRAME leaf (*n becomes the limit), so its
 * weight still counts; 0 or TT_ENOMEM. */
int tt__stack_truncate(tt_profile *p, uint32_t *f, size_t *n, size_t depth);
/* Counts one truncated stack of n frames, at file:line, as stack_too_deep (data loss). */
void tt__stack_truncated_note(tt_stats *stats, const char *file, uint64_t line, size_t n);
/* Run merging (samples.md 4.3) one run at a time over a thread's time order o[0..n-1], from
 * o[*pos]: 1 with *r filled and *pos advanced, 0 at the end. */
int tt__run_next(tt_run *r, const tt_profile *p, const uint32_t *o, size_t n, size_t *pos,
                 int64_t max_gap_ns);
/* A reader of a file of known size, after its first chunk (done of total bytes, added samples):
 * room for as many samples as the rest probably holds (the density so far, plus an eighth), so
 * that the sample array is not copied at every doubling (each copy faults in fresh pages).
 * Pages never written cost nothing. */
void tt__profile_reserve_rest(tt_profile *p, size_t added, uint64_t done, uint64_t total);
/* 1 when sample o[j] starts a run (tt__run_next) whatever came before it: it cannot merge into
 * sample o[j - 1]. */
int tt__run_starts(const tt_profile *p, const uint32_t *o, size_t j, int64_t max_gap_ns);
/* The k-th smallest of d[0..n-1] (0-based, k < n); reorders d. */
int64_t tt__select_i64(int64_t *d, size_t n, size_t k);
/* Length of the valid UTF-8 sequence at s (1..4, of the n bytes there), 0 when invalid. */
size_t tt__utf8_len(const unsigned char *s, size_t n);
/* 1 when the callsite's frame also occurs among its ancestors (lazily computed array). */
const uint8_t *tt__callsite_recursive(tt_profile *p);
/* Interns a frame made only of a name and kind. */
int tt__frame_simple(tt_profile *p, uint32_t *id, const char *name, size_t n, int kind,
                     const char *module);
/* Weight of run r between its neighbours q and nx (NULL when none) for folded/speedscope
 * output (7.2): count, period, or the run's wall/CPU span under the mid policy; right only when
 * no interval sample's end lies beyond the next run's begin (tt__wruns sees to that). */
int64_t tt__run_weight3(const tt_run *q, const tt_run *r, const tt_run *nx, int weight,
                        int64_t max_gap, int64_t pad);
/* One thread's runs in time order with their weights (7.2): wall and CPU weights are the leaf
 * self time of the mid policy, so they sum to the covered time. Through a window of three runs
 * when the runs' items come in run order; when an interval sample contains later samples, from
 * the thread's items (weights of every run, computed by init). init: 0 or TT_ENOMEM; free with
 * tt__wruns_free (also after a failed init). next: 1 with *r (borrowed until the next call)
 * and *w, 0 at the end. */
typedef struct tt__wruns {
    const tt_profile *p;
    const uint32_t *o;
    size_t n, pos, have;
    int64_t gap, pad;
    int weight, done;
    int64_t *iw; /* per run, when computed from the items; NULL otherwise */
    tt_run w[3];
} tt__wruns;
int tt__wruns_init(tt__wruns *it, const tt_profile *p, uint32_t utid, int weight,
                   int64_t max_gap, int64_t pad);
int tt__wruns_next(tt__wruns *it, const tt_run **r, int64_t *w);
void tt__wruns_free(tt__wruns *it);
/* The weights of a thread's nruns runs (tt_profile_runs) in a malloc'd array (*out, free()),
 * as tt__wruns gives them; 0 or TT_ENOMEM. */
int tt__run_weights(int64_t **out, const tt_profile *p, uint32_t utid, size_t nruns,
                    int weight, int64_t max_gap, int64_t pad);
/* Smallest timestamp of the profile (samples or fixed slices); 0 when empty. */
int64_t tt__profile_start(const tt_profile *p);
/* 1 when the profile's pid and process are those of t's input (meta.pid_source). */
int tt__meta_owns(const tt_profile *p, const tt_thread *t);
/* The process name the input source itself gave pid (its meta process), or NULL. */
const char *tt__profile_source_pid_name(const tt_profile *p, uint32_t source, int64_t pid);
/* The name of the input that left p without times (meta.timeless_source) for a message,
 * NULL when not known. */
const char *tt__timeless_input(const tt_profile *p, const tt_export_opts *o);
/* The name of the input thread t was read from for a message (its warnings name it as
 * analyze's do), NULL when not known (a profile from a database). */
const char *tt__thread_input(const tt_thread *t, const tt_export_opts *o);
/* The source format of p's inputs when they agree, "mixed" when they differ, else the
 * profile's: the same whatever the order of the inputs. Static or borrowed. */
const char *tt__export_format(const tt_profile *p, const tt_export_opts *o);
/* The first in byte order of the process names p's inputs gave (their pids', or the one
 * input's), NULL when none: the same whatever the order of the inputs. Borrowed. */
const char *tt__export_process(const tt_profile *p);
/* 1 when utid passes the export's thread filter. */
int tt__export_wants(const tt_export_opts *o, uint32_t utid);
/* Streaming JSON output helper of the exporters: flushes w->buf through fn when large. */
int tt__flush(tt_jsonw *w, tt_write_fn fn, void *ctx, int force, tt_error *err);
/* The document writers behind tt_export_open/add/close (export_<format>.c): open allocates,
 * add writes one part under its own options o (the document's with the part's threads),
 * close writes the end, free releases. open returns TT_ENOMEM only. */
typedef struct tt__chrome tt__chrome;
int tt__chrome_open(tt__chrome **out, const tt_export_opts *o, tt_write_fn fn, void *ctx);
int tt__chrome_add(tt__chrome *x, tt_profile *p, const tt_export_opts *o,
                   const tt_export_part *part, tt_error *err);
int tt__chrome_close(tt__chrome *x, tt_error *err);
void tt__chrome_free(tt__chrome *x);
typedef struct tt__folded tt__folded;
int tt__folded_open(tt__folded **out, const tt_export_opts *o, tt_write_fn fn, void *ctx);
int tt__folded_add(tt__folded *x, tt_profile *p, const tt_export_opts *o, const char *label,
                   const char *file, tt_error *err);
int tt__folded_close(tt__folded *x, tt_error *err);
void tt__folded_free(tt__folded *x);
typedef struct tt__art tt__art;
int tt__art_open(tt__art **out, tt_write_fn fn, void *ctx);
int tt__art_add(tt__art *x, tt_profile *p, const tt_export_opts *o, tt_error *err);
int tt__art_close(tt__art *x, tt_error *err);
void tt__art_free(tt__art *x);
typedef struct tt__speedscope tt__speedscope;
int tt__speedscope_open(tt__speedscope **out, const tt_export_opts *o, size_t n_parts,
                        const char *doc_name, tt_write_fn fn, void *ctx);
int tt__speedscope_add(tt__speedscope *x, tt_profile *p, const tt_export_opts *o,
                       const tt_export_part *part, tt_error *err);
int tt__speedscope_close(tt__speedscope *x, tt_error *err);
void tt__speedscope_free(tt__speedscope *x);

/* Per-callsite weights of one thread as folded export computes them (w indexed by callsite,
 * touched receives the callsites made non-zero); flame graphs use the same numbers. */
int tt__folded_weights(int64_t *w, tt_vec *touched, tt_profile *p, uint32_t utid,
                       const tt_export_opts *o, tt_error *err);

/* libcrypto's digest functions (OpenSSL's EVP_MD_CTX, EVP_MD, ENGINE are the struct types),
 * loaded on first use (crypto.c); NULL when libcrypto cannot be loaded. */
struct evp_md_ctx_st;
struct evp_md_st;
struct engine_st;
typedef struct tt__crypto_fns {
    struct evp_md_ctx_st *(*EVP_MD_CTX_new)(void);
    void (*EVP_MD_CTX_free)(struct evp_md_ctx_st *ctx);
    int (*EVP_DigestInit_ex)(struct evp_md_ctx_st *ctx, const struct evp_md_st *type,
                             struct engine_st *impl);
    int (*EVP_DigestUpdate)(struct evp_md_ctx_st *ctx, const void *d, size_t cnt);
    int (*EVP_DigestFinal_ex)(struct evp_md_ctx_st *ctx, unsigned char *md, unsigned int *s);
    int (*EVP_Digest)(const void *data, size_t count, unsigned char *md, unsigned int *size,
                      const struct evp_md_st *type, struct engine_st *impl);
    const struct evp_md_st *(*EVP_sha256)(void);
} tt__crypto_fns;
const tt__crypto_fns *tt__crypto(void);

#endif
