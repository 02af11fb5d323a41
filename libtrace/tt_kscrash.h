/* KSCrash and Matrix iOS reports (spec/ios.md sections 2-4, 9.2): reader, address model,
 * point stack and profile tree. Public header of import_kscrash.c and kscrash_json.c. */
#ifndef TT_KSCRASH_H
#define TT_KSCRASH_H

#include "tt.h"

/* Report shapes (2.1). */
enum { TT_KS_STANDARD = 0, TT_KS_CUSTOM = 1, TT_KS_PROFILE = 2 };
/* Symbol chain capacity per frame. */
#define TT_KS_MAX_CHAIN 16

typedef struct tt_ks_image {
    uint64_t addr, vmaddr, size; /* image_addr, image_vmaddr, image_size */
    const char *path;            /* device path ("" when absent) */
    const char *name;            /* basename of path */
    const char *uuid;            /* 32 lowercase hex digits, "" when none */
    const char *arch;            /* 4.4 name, NULL when unknown */
    int64_t cpu_type, cpu_subtype;
    int is_app;                  /* 9.4 default rule (the CLI may override) */
    const char *crash_info[4];   /* crash_info_message, _message2, _backtrace, _signature */
    uint32_t n_frames;           /* frames of this report in this image */
    uint32_t n_unresolved;       /* of those, frames without a symbol chain */
    const char *debug_file;      /* the file symbols came from, set by the caller for
                                  * tt_ks_json_write's tt_module.debug_file; NULL: "" */
} tt_ks_image;

typedef struct tt_ks_frame {
    uint64_t pc;                 /* as written */
    uint64_t offset;             /* pc - image_addr (after PAC masking), image >= 0 only */
    uint64_t lookup;             /* offset given to the resolver (4.3 adjustment applied) */
    int32_t image;               /* index into images, -1: in no image */
    int pac;                     /* matched only after masking PAC bits (4.1) */
    int is_return;               /* a return address (4.3) */
    uint32_t pos;                /* its index in backtrace.contents (a skipped frame leaves a
                                  * gap; 0 is the PC); 0 for profile nodes */
    int has_repeat;
    int64_t repeat;              /* repeat_count (point stack) */
    const char *device_name;     /* on-device symbol_name, or NULL */
    int has_device_addr;
    uint64_t device_addr;        /* symbol_addr */
    const char *object_name;     /* KSCrash object_name (image basename), or NULL */
    uint32_t sym, n_sym;         /* symbol chain in syms[sym..sym+n_sym), innermost first */
    int has_fstart;              /* n_sym 0, but the function start is known (6.5) */
    uint64_t fstart;             /* that start as an offset (image_addr + fstart at run time) */
    int resolve_err;             /* negative TT_E* when the resolver refused the module */
    const void *json;            /* the frame's json_t (borrowed), or NULL as rep->json */
} tt_ks_frame;

typedef struct tt_ks_thread {
    int has_index;
    int64_t index;
    const char *name, *queue;    /* NULL when absent */
    int crashed, current, handled; /* handled: Matrix's HandledThread (point stack) */
    int has_cpu;
    double cpu;
    uint32_t frame, n_frames;    /* frames[frame..frame+n_frames), innermost first */
} tt_ks_thread;

typedef struct tt_ks_node {     /* profile tree, depth-first pre-order (3.2) */
    int32_t parent;              /* -1 for roots */
    uint32_t depth;
    int64_t sample, sample_bg, self;
    uint32_t frame;              /* the node's address, resolved as a frame */
    uint32_t n_children;
} tt_ks_node;

typedef struct tt_ks_report {
    const char *file;
    uint64_t line;               /* 1-based line where the report starts */
    uint64_t index;              /* 0-based among the reports of the input */
    int shape;                   /* TT_KS_* */
    const char *id, *process_name, *type, *version; /* NULL when absent */
    int has_time;
    int64_t unix_ms;             /* report.timestamp normalised (2.3) */
    int has_dump_type;
    int64_t dump_type;
    const char *dump_name;       /* "MainThreadBlock", ..., "dump_type_<n>" */
    int is_lag;                  /* issue kind 'lag' (2.4) */
    const char *error_type;      /* crash.error.type */
    const char *crash_text;      /* e.g. "EXC_BAD_ACCESS (SIGSEGV)" or the exception name */
    const char *reason;          /* crash.error.reason */
    int has_suspend, suspend_all, has_snapshot;
    int64_t snapshot_status;
    /* system (2.3); NULL when absent */
    const char *system_name, *system_version, *os_version, *machine, *cpu_arch;
    const char *bundle_name, *bundle_exec, *bundle_id, *short_version, *bundle_version;
    const char *app_uuid;        /* normalised, "" when absent */
    int has_pid;
    int64_t pid;
    const char *arch;            /* report architecture (4.4 name or system.cpu_arch) */
    tt_ks_image *images;
    size_t n_images;
    tt_ks_thread *threads;
    size_t n_threads;
    tt_ks_frame *frames;
    size_t n_frames;
    tt_native_frame *syms;
    size_t n_syms;
    tt_ks_node *nodes;
    size_t n_nodes;
    int main_thread;             /* index into threads per 2.6, -1: none */
    int point_thread;            /* HandledThread, -1: none */
    int crashed_thread;          /* -1: none */
    const void *json;            /* the report's json_t (borrowed), NULL when read without
                                  * jansson (opts.no_image_json) */
    int recrash;                 /* KSCrash recrash: 1 this is the original report kept as
                                  * "recrash_report" (returned first), 2 this is the minimal
                                  * report of the handler's own crash around it; 0 neither */
    const char *recrash_id;      /* the other report's report.id, or NULL */
} tt_ks_report;

typedef struct tt_ks_opts {
    const tt_resolver *resolver; /* NULL: no symbolication */
    int no_adjust;               /* --no-adjust: look up return addresses unchanged */
    int no_image_json;           /* the report may be read without jansson (then rep->json
                                  * and the frames' json are NULL), or binary_images alone
                                  * (then left out of rep->json): for callers that never
                                  * write the report as JSON (tt_ks_json_write/raw) */
} tt_ks_opts;

typedef struct tt_ks_reader tt_ks_reader;
/* 1 when the first bytes look like a KSCrash or Matrix iOS report (2.1), else 0. */
int tt_ks_detect(const unsigned char *p, size_t n);
/* Reads the whole input. Counted: kscrash_big_uint_rewritten, kscrash_number_overflow,
 * kscrash_no_image, kscrash_pac_stripped, kscrash_unknown_dump_type, kscrash_bad_report
 * (a report skipped), kscrash_bad_frame, kscrash_unresolved, ios_profile_negative_self.
 * Owned by the caller, free with tt_ks_reader_free. */
int tt_ks_reader_new(tt_ks_reader **out, tt_input *in, const tt_ks_opts *o, tt_stats *stats,
                     tt_error *err);
void tt_ks_reader_free(tt_ks_reader *r);
/* Next report: 0 and *rep (borrowed until the next call), TT_DONE at the end, or TT_EFORMAT
 * with file and line for text that is not JSON (reports before it were returned). A report
 * of the wrong shape is skipped, counted and named in *warn (may be NULL; borrowed). */
int tt_ks_reader_next(tt_ks_reader *r, const tt_ks_report **rep, tt_error *err);
/* The message of the last skipped report, or "" (borrowed until the next call). */
const char *tt_ks_reader_warning(const tt_ks_reader *r);

/* 2.2: rewrites unsigned integers >= 2^63 outside strings as their two's-complement
 * negative value, tokens >= 2^64 as 0. *out owned by the caller (free()). */
int tt_ks_rewrite_big(char **out, size_t *out_n, const char *p, size_t n, uint64_t *rewritten,
                      uint64_t *overflow);
/* 3.1 point-stack rule over a ring of n stacks (oldest first, innermost first; lens[i] = 0
 * for an unfilled slot): *chosen = slot index, repeat[j] for each frame of that stack. */
int tt_ks_point_select(size_t *chosen, int64_t *repeat, const uint64_t *const *stacks,
                       const size_t *lens, size_t n);
/* 2.4 dump type name, NULL when unknown; issue kind "lag" or "other". */
const char *tt_ks_dump_type_name(int64_t t);
int tt_ks_dump_type_is_lag(int64_t t);
/* 4.4 architecture name, NULL when unknown. */
const char *tt_ks_arch_name(int64_t cpu_type, int64_t cpu_subtype);
/* An RFC 3339 time ("2024-03-02T10:20:31.123456Z", "...+08:00"; KSCrashReportFixer's
 * report.timestamp) as Unix milliseconds, fraction truncated; 1 when s is one, else 0. */
int tt_ks_rfc3339_ms(const char *s, int64_t *out);

/* 9.2: the report unchanged (key order kept; unsigned values >= 2^63 restored) with
 * "tt_module" and "tt_symbols" added to every frame and profile node, and a top-level "tt"
 * object holding the caller's members (raw JSON text "\"k\":v,...", may be NULL); appended
 * to out. Not recursion-limited beyond jansson's own parse depth limit. */
void tt_ks_json_write(tt_buf *out, const tt_ks_reader *r, const tt_ks_report *rep,
                      const char *tt_members);
/* The report as read (key order kept, unsigned values >= 2^63 restored), nothing added. */
void tt_ks_json_raw(tt_buf *out, const tt_ks_reader *r, const tt_ks_report *rep);

/* One key/value of the report's "user" section (2.3, 10): key "user.<k>", nested objects
 * flattened to "user.<k>.<k2>"; type 'i' (integers, true/false as 1/0), 'r' (reals) or
 * 's' (strings; arrays as compact JSON text). Borrowed for the callback's duration. */
typedef struct tt_ks_arg {
    const char *key;
    int type;
    int64_t i;
    double d;
    const char *s;
} tt_ks_arg;
/* Calls fn for every value of the user section in document order; null values and a key
 * already given (a flattened "a.b" beside {"a":{"b":…}}) are left out. Nothing without
 * rep->json (read with opts.no_image_json). Stops at fn's first non-zero return (returned);
 * TT_ENOMEM when out of memory. */
int tt_ks_user_each(const tt_ks_report *rep,
                    int (*fn)(void *ctx, const tt_ks_arg *a), void *ctx);

#endif
