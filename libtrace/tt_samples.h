/* Sampled stacks (spec/samples.md): samples, slices, sample readers, exports and the
 * native-name resolver callback. Part of the public API; included by tt.h. */
#ifndef TT_SAMPLES_H
#define TT_SAMPLES_H

#include "tt_beat.h"

/* ---- sampled stacks (import_perf.c, import_btrace.c, slice.c, export_*.c; spec/samples.md) ---- */
/* Row types are named after storage.md 3.7 (stack_frame, callsite, sample, slice, thread) so
 * the store can write them directly. Times are int64 ns; TT_NONE marks a missing u32 id. */
#define TT_NONE UINT32_MAX
#define TT_MAX_STACK_DEPTH 4096 /* deeper stacks are truncated (or refused) and counted */
/* The leaf frame that replaces the frames of a stack beyond TT_MAX_STACK_DEPTH. */
#define TT_TRUNCATED_FRAME "[deeper frames truncated]"

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
    /* the module file's path as the input names it (perf's dso, a JSON-lines module line),
     * or NULL: the module row's path (storage.md 3.7). Not part of the frame's identity:
     * frames equal by name keep the first one's. */
    const char *module_file;
    /* Mach-O image of an iOS address (btrace iOS, samples.md 2.1.6): its UUID (lowercase hex,
     * the build id) or NULL; addr_is_offset: addr is pc - image load address and module_path
     * the image path, so symbolication looks it up as a TT_NADDR_OFFSET */
    const char *build_id;
    int addr_is_offset;
    /* a frame made from an address that is no sample's leaf: a return address, looked up at
     * address - 1 (symbolication.md 3.3); part of an address identity, so that a program
     * counter and a return address at one address are two frames (tt_profile_split_return_frames) */
    int return_address;
    /* rel_pc is a module offset (a JSON-lines addr - module base), not yet the ELF vaddr:
     * symbolication adds the first PT_LOAD's p_vaddr - p_offset (symbolication.md 3.2) and
     * clears it (tt_frame_set_rel_pc) */
    int rel_pc_is_offset;
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
    int no_thread;     /* perf printed -1 for its tid: samples without a thread (pid, tid -1) */
    int no_root;       /* the one thread of a folded input, which names no thread or process:
                        * no root frame for it in folded output and flame graphs */
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
    uint32_t pid_source;       /* the input (thread source) pid and process are of: they
                                * name the process of its threads without a pid only;
                                * TT_NONE: of every thread (a database trace) */
    int64_t interval_ns;       /* 0 = unknown */
    int timeless;              /* folded, perf without times: slices cannot be built */
    uint32_t timeless_source;  /* the first input (thread source) without times, TT_NONE when
                                * not known (tt_profile_meta_timeless) */
    int truncated;             /* the input ended early: open slices are `truncated` */
    int ambiguous_ts;          /* old simpleperf fractions: slices are unreliable */
    int periods;               /* perf: 1 every sample had a period (the default weight),
                                * -1 some had none, 0 not known */
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
/* Before an importer sets the meta pid or process of its input (source): when they are
 * another input's, they are dropped (pid -1, process NULL) and become source's; the
 * process name that input gave its pid stays that pid's (tt_profile_pid_name). 0, or
 * TT_ENOMEM. */
int tt_profile_meta_claim(tt_profile *p, uint32_t source);
/* The process name of pid: the meta process when pid is the meta pid, and the names inputs
 * gave their pid before another input claimed the meta; when inputs name one pid
 * differently, the first name in byte order (whatever the order of the inputs); NULL when
 * none. Borrowed. */
const char *tt_profile_pid_name(const tt_profile *p, int64_t pid);
/* An importer's input (source) has no times: the profile is timeless; the first such input
 * is kept to be named in messages (meta.timeless_source). */
void tt_profile_meta_timeless(tt_profile *p, uint32_t source);
/* Copies n bytes into the profile's arena, invalid UTF-8 kept as it is. Borrowed. */
const char *tt_profile_str(tt_profile *p, const char *s, size_t n);
/* Interns a frame by identity (strings are copied); *id is its dense id. */
int tt_frame_intern(tt_profile *p, uint32_t *id, const tt_stack_frame *f);
/* Appends a frame as given (strings copied), without merging it into an equal frame: rows
 * read back from a database keep their ids. Later interning finds the first equal frame. */
int tt_frame_add(tt_profile *p, uint32_t *id, const tt_stack_frame *f);
/* Interns a root-first frame list (n >= 1) as callsites; *leaf is the leaf callsite. */
int tt_callsite_intern(tt_profile *p, uint32_t *leaf, const uint32_t *frames, size_t n);
/* Interns the one callsite (parent, frame); parent TT_NONE for a root frame. No depth limit:
 * the call chains of instrumented slices (an ART trace's recursion) are as deep as the calls;
 * sampled stacks are truncated at TT_MAX_STACK_DEPTH by their readers. */
int tt_callsite_child(tt_profile *p, uint32_t *id, uint32_t parent, uint32_t frame);
/* Thread handle for (source, pid, tid); pid -1 = unknown. */
int tt_thread_intern(tt_profile *p, uint32_t *utid, uint32_t source, int64_t pid, int64_t tid,
                     int tid_bits);
/* Appends a new thread row for (source, pid, tid) even when one exists: a tid reused by a new
 * thread (perf's fork records) or, without a tid, another comm. Interning keeps finding the
 * first row. */
int tt_thread_add(tt_profile *p, uint32_t *utid, uint32_t source, int64_t pid, int64_t tid,
                  int tid_bits);
/* Sets a thread's name (copied); the last name wins unless keep_first. 1 if a different
 * name was already set. */
int tt_thread_set_name(tt_profile *p, uint32_t utid, const char *name, size_t n, int keep_first);
void tt_thread_set_main(tt_profile *p, uint32_t utid);
/* Marks the thread of samples without a thread (perf's tid -1): no other thread's tid or pid. */
void tt_thread_set_no_thread(tt_profile *p, uint32_t utid);
/* Marks the one thread of a folded input (samples.md 2.3): folded output and flame graphs
 * write no thread or process root for it, so folded stacks export as they were read. */
void tt_thread_set_no_root(tt_profile *p, uint32_t utid);
/* Renames a frame, e.g. after native symbolication (name copied). */
int tt_frame_set_name(tt_profile *p, uint32_t id, const char *name);
/* Records the ELF virtual address found for a frame (symbolication); no-op when it has one
 * (a rel_pc_is_offset module offset is replaced). */
int tt_frame_set_rel_pc(tt_profile *p, uint32_t id, uint64_t rel_pc);
/* After renames: frames whose identity became equal are merged (the first id kept), their
 * callsites re-interned and samples (and fixed slices) remapped; ids stay dense and children
 * keep larger ids than their parents. Frame and callsite ids and pointers change. A profile
 * made with TT_IDENT_NAME_UNNAMED_ADDRESS continues with TT_IDENT_NAME (frames still unnamed
 * merge per name again). */
int tt_profile_merge_frames(tt_profile *p);
/* Before native symbolication (symbolication.md 3.3): frames made from an address (unnamed
 * native frames of a module) that are no sample's leaf get return_address; one that is some
 * sample's leaf and another's caller becomes two frames, the callers' copy with
 * return_address, its callsites split and samples (and fixed slices) remapped, so that a
 * sample's stack never depends on the other samples. A frame whose callee is a kernel frame
 * (a sample in the kernel: the interrupted user pc) counts as a leaf. Frame and callsite ids
 * may change. */
int tt_profile_split_return_frames(tt_profile *p);
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
/* The named threads of a profile by tid (built once, sorted): what
 * tt_thread_process_format looks a pid up in, in O(log threads). */
typedef struct tt_proc_ent {
    int64_t tid;
    uint32_t source, utid;
} tt_proc_ent;
typedef struct tt_proc_index {
    tt_proc_ent *e; /* named threads ordered by (tid, source, utid); source 0 unless by_input */
    size_t n;
    int by_input;   /* the thread sources are inputs (a raw export of several) */
} tt_proc_index;
/* by_input: the profile holds several inputs, each thread's source its input (a raw
 * export's o->n_inputs > 1); 0 for one input or a database's profile (whose threads are
 * sources of their own). */
int tt_proc_index_build(tt_proc_index *x, const tt_profile *p, int by_input);
void tt_proc_index_free(tt_proc_index *x);
/* Appends the name of a thread's own process (samples.md 7.2, the process root), whatever
 * the order of the inputs and as Chrome export names processes: the name the thread's own
 * input gave its pid (x->by_input), else the name an input gave it (tt_profile_pid_name),
 * else the name of the first thread (of its own input when x->by_input) whose tid is the
 * pid, else "[pid N]"; without a pid the profile's process when the thread is of the input that gave it
 * (meta.pid_source), else "unknown"; "unknown" for the thread of samples without a thread
 * (no_thread). x: built from p. */
int tt_thread_process_format(tt_buf *b, const tt_profile *p, const tt_proc_index *x,
                             uint32_t utid);
/* The pid of a thread's process: its own, else the profile's when the thread is of the
 * input that gave it (meta.pid_source), else -1 (unknown; also for samples without a
 * thread). */
int64_t tt_thread_pid(const tt_profile *p, uint32_t utid);

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
 * TT_EUNSUPPORTED) and use the max gap option and end pad of the slice options: each leaf's
 * self time under the mid policy (samples.md 7.2; TT_ENOMEM possible). out has
 * tt_profile_ncallsites entries (zeroed here). */
int tt_profile_callsite_weights(tt_weight *out, const tt_profile *p, uint32_t utid, int weight,
                                int64_t max_gap, int64_t end_pad);
/* Per frame (flat profile) from callsite weights: recursion counted once per sample. out has
 * tt_profile_nframes entries (zeroed here). */
int tt_profile_frame_weights(tt_weight *out, const tt_profile *p, const tt_weight *cw);
/* One thread's weights in time proportional to its samples and the callsites they touch (the
 * samples' callsites and their callers), not to the profile: a tt_touched remembers the ids
 * one call touched so that the next call resets only those (tt_touched_free accepts NULL). */
typedef struct tt_touched tt_touched;
int tt_touched_new(tt_touched **out, const tt_profile *p);
void tt_touched_free(tt_touched *t);
/* As tt_profile_callsite_weights then tt_profile_frame_weights for thread utid, into cw
 * (ncallsites entries) and fw (nframes entries), equal to them on the touched ids and zero
 * elsewhere. cw and fw are zero on the first call with t and only written by calls with t in
 * between (each call first zeroes what the previous one wrote). TT_EINVAL: utid is no thread;
 * TT_EUNSUPPORTED: not finished, or wall/cpu without times; TT_ENOMEM. */
int tt_profile_thread_weights(tt_weight *cw, tt_weight *fw, tt_touched *t, const tt_profile *p,
                              uint32_t utid, int weight, int64_t max_gap, int64_t end_pad);
/* The callsites (ascending ids, every caller included) and frames (ascending) the last
 * tt_profile_thread_weights call touched. */
const uint32_t *tt_touched_callsites(const tt_touched *t, size_t *n);
const uint32_t *tt_touched_frames(const tt_touched *t, size_t *n);

/* A call tree node (call_node rows, storage.md 3.3): top-down nodes are the callsites;
 * inverted (bottom-up) trees start at leaf frames and walk to the callers. Parents come
 * before children; first_child/next_sibling link children in creation order. */
typedef struct tt_tree_node {
    uint32_t parent, frame, depth, first_child, next_sibling;
    tt_weight w;
} tt_tree_node;
/* Builds the tree for the callsite weights cw into out (tt_tree_node elements, cleared). */
int tt_profile_tree(tt_vec *out, const tt_profile *p, const tt_weight *cw, int inverted);
/* The same tree over callsites ids[0..n) only (ascending, every caller included: as
 * tt_touched_callsites gives them), for weights that are zero elsewhere; ids NULL: all.
 * TT_EINVAL when a caller is missing. */
int tt_profile_tree_of(tt_vec *out, const tt_profile *p, const tt_weight *cw, int inverted,
                       const uint32_t *ids, size_t n);

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
                              * 2: an ART method trace call (category art or art_sampled) */
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
/* The longest slices of one thread: the real (not synthetic) ones with the largest dur,
 * longest first; equal durations earlier ts first, then in the order tt_slice_build hands them
 * to a sink. s has room for cap slices (the caller's); parent is TT_NONE in them. */
typedef struct tt_slice_top {
    tt_slice *s;
    size_t n, cap;
    uint64_t total; /* every slice rebuilt, synthetic ones included */
} tt_slice_top;
/* Fills top (n and total start from zero) and info for one thread, as tt_slice_build with a
 * sink keeping the longest would; o->sink is ignored. work: a tt_slice vector kept between
 * calls (its pages stay mapped). nthreads > 1: a thread with many samples is rebuilt in two
 * halves at once, with the same result. */
int tt_slice_longest(tt_slice_top *top, tt_slice_info *info, tt_vec *work, tt_profile *p,
                     uint32_t utid, const tt_slice_opts *o, int nthreads, tt_error *err);
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
/* What a text that no kind claims is instead when it is perf's (samples.md 2.2): perf
 * report's tables or perf script's header comments of a recording without samples, with
 * what to run instead; NULL otherwise. */
const char *tt_samples_text_what(const unsigned char *p, size_t n);

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
/* The name of the sampling-mapping file that belongs to the btrace sampling file path
 * (samples.md 2.1): "-mapping" inserted before a final ".bin" ("sampling.bin" ->
 * "sampling-mapping.bin", "sampling" -> "sampling-mapping"). 0, or TT_ELIMIT when the name
 * does not fit in cap bytes. */
int tt_btrace_mapping_name(char *dst, size_t cap, const char *path);
/* Roles of the inputs given to tt_btrace_pair. */
enum { TT_BTRACE_OTHER = 0, TT_BTRACE_SAMPLING, TT_BTRACE_MAPPING };
/* Pairs the btrace sampling files among n inputs with the sampling-mapping files given among
 * the same inputs (samples.md 2.1; the rule export(1) and analyze(1) document). role[i] is a
 * TT_BTRACE_* value, paths[i] the input's name. pair[i] receives, for a sampling file, the
 * index of its mapping, else -1 (also for a sampling file that gets none: the caller may
 * look for the file beside it). The rule:
 * 1. one mapping among the inputs: every sampling file takes it;
 * 2. several: a mapping named after a sampling file (tt_btrace_mapping_name, same directory)
 *    belongs to it; the sampling files and mappings left pair in input order (the first
 *    left with the first left, and so on).
 * For a mapping, pair[i] is -1 when a sampling file takes it and TT_BTRACE_UNUSED when none
 * does (it matches nothing: the caller reports it). Linear in n. 0 or TT_ENOMEM. */
#define TT_BTRACE_UNUSED (-2L)
int tt_btrace_pair(long *pair, const int *role, const char *const *paths, size_t n);
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
    int deleted;            /* perf's " (deleted)" followed the path (not in path_len) */
} tt_perf_mmap;
/* Parses a PERF_RECORD_MMAP/MMAP2 line of `perf script --show-mmap-events`: 0, or
 * TT_ENOTFOUND when the line is not one. A file deleted while mapped keeps its path (the
 * frames' dso is read the same way, samples.md 2.2). */
int tt_perf_mmap_parse(tt_perf_mmap *out, const char *line, size_t n);
/* The TT_FRAME_* kind of a perf script frame by its dso (n bytes, without " (deleted)"):
 * TT_FRAME_KERNEL for [kernel.kallsyms] and kernel modules ("[i915]"), TT_FRAME_JAVA for
 * ART and JIT code, else TT_FRAME_NATIVE ([vdso] and other user pseudo-maps included). */
int tt_perf_dso_kind(const char *dso, size_t n);

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

/* perf's event e counts time, its period in ns (cpu-clock, task-clock, with any modifiers:
 * "cpu-clock:u"); 0 for other events and NULL. */
int tt_perf_event_is_clock(const char *e);

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
    /* the inputs of a profile read from several, indexed by thread source ordinal (NULL:
     * one input): a check that holds per input (--weight cpu needs each input's CPU clock)
     * names the one that fails it */
    const struct tt_export_input *inputs;
    size_t n_inputs;
    tt_stats *stats;        /* folded: paths cut at TT_MAX_STACK_DEPTH (may be NULL) */
} tt_export_opts;
/* One input of a profile: its name for messages (a file name), its source_format (NULL
 * when unknown, such as a btrace sampling-mapping file) and its own clock (NULL: unknown). */
typedef struct tt_export_input {
    const char *name;
    const char *format;
    const char *clock;
} tt_export_input;
/* The weight TT_WEIGHT_DEFAULT stands for when p is exported: samples, or wall time for an
 * instrumented method-beat call tree (TT_WEIGHT_*). */
int tt_export_default_weight(const tt_profile *p);
void tt_export_opts_init(tt_export_opts *o);
/* --weight cpu needs the thread CPU clock: each input with samples needs one sample with a
 * CPU time, and under o->threads each selected thread with samples (else it would weigh 0
 * everywhere and vanish). 0 when it holds; TT_EUNSUPPORTED names the first that fails (its
 * input in err->file when o->inputs names it, and the thread) and what to use instead. */
int tt_export_cpu_check(tt_profile *p, const tt_export_opts *o, tt_error *err);
/* Writers stream through fn (a failing fn aborts with TT_EIO). The profile must be finished. */
int tt_export_chrome(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err);
int tt_export_folded(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err);
/* The frame-name mapping of folded stacks, which have no escaping (samples.md 7.2): in the n
 * bytes at s, ';' becomes ':', line breaks and tabs blanks. */
void tt_folded_name_fix(char *s, size_t n);
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
    const char *file;        /* the file it was read from (messages), or NULL: the inputs' */
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
    int bound_only;       /* no build id to check: only a module bound to this name by the
                           * user (-e, --dsym NAME=PATH) may serve, never a file found by
                           * name (spec/ios.md 4.1) */
    int want_start;       /* 1: when no name covers addr but the module knows the function
                           * start (Mach-O LC_FUNCTION_STARTS, spec/ios.md 6.5), answer one
                           * frame with function and file NULL and has_start set */
    const char *arch;     /* the image's architecture (spec/ios.md 4.4 name), NULL when
                           * unknown: picks the slice of a universal file bound by name */
} tt_native_loc;

typedef struct tt_native_frame {
    const char *function; /* display name; NULL when unknown */
    const char *file;     /* NULL when unknown */
    uint32_t line, column;
    int inlined;          /* 1 for every frame but the last (out-of-line) one */
    int has_start;        /* start is known */
    uint64_t start;       /* the out-of-line function's start in loc->addr's address space
                           * (a module offset for TT_NADDR_OFFSET): Apple's "name + N" */
    int approximate;      /* the name came from the symbol table only, no debug information
                           * (symbolication.md 8.2 Approximate) */
    const char *start_file; /* DW_AT_decl_file of the function, NULL when unknown */
    uint32_t start_line;    /* DW_AT_decl_line, 0 when unknown */
    uint32_t discriminator; /* of the address's line row, 0 when none */
    const char *symbol;     /* the symbol containing the address (symbolication.md 8.2
                             * SymbolName), on the out-of-line frame only; else NULL */
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
