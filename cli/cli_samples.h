/* Sampled-stack inputs shared by samples and export: detection by content, btrace pairing,
 * method-beat buffers, and the slice options both commands take. */
#ifndef CLI_SAMPLES_H
#define CLI_SAMPLES_H

#include "cli.h"
#include "cli_sym.h"

#define CLI_SAMPLES_MAX_INPUTS 64

typedef struct cli_samples_opts {
    int kind;                 /* TT_SKIND_* override, TT_SKIND_UNKNOWN = detect */
    const char *event;
    int identity;
    int keep_runtime;
    int allow_beat;           /* export: method-beat buffers */
    char *maps[64];           /* -m methodMapping.txt (beat) */
    size_t nmaps;
    tt_slice_opts slice;
    const char *loops[64];
    size_t nloops;
    const char *threads[64];  /* --thread NAME|TID */
    size_t nthreads;
    cli_sym_opts sym;         /* -e / --symbols: name unnamed native frames */
    int weight;               /* --weight: TT_WEIGHT_*, -1 = the default per source */
    int jobs;                 /* --jobs: threads reading a perf text file, 0 = every core */
    /* analyze: called for every frame looked up, with its module (m) and the ELF address
     * of the frame (vaddr; return_address: the lookup is at vaddr - 1); non-zero aborts */
    int (*on_lookup)(void *ctx, const tt_stack_frame *f, tsym_module *m, uint64_t vaddr,
                     int return_address);
    void *on_lookup_ctx;
    /* analyze: an input's read error is stored here instead of printed (NULL: printed) */
    tt_error *fail;
    /* set by cli_samples_load: each input's source_format (NULL for a sampling-mapping
     * file), by input ordinal, the threads' source */
    const char *formats[CLI_SAMPLES_MAX_INPUTS];
    /* and each input's own clock (meta clock; "unknown" when the input sets none) */
    const char *clocks[CLI_SAMPLES_MAX_INPUTS];
} cli_samples_opts;

/* Common long options (values >= 1000) and their handling; returns 1 if c was one of them,
 * 0 if not, -1 after an error message. */
enum { CS_KIND = 1000, CS_EVENT, CS_MAXGAP, CS_SLICE_END, CS_END_PAD, CS_NO_MSG_SPLIT,
       CS_LOOP, CS_IDENT, CS_KEEP_RT, CS_MARK_GAPS, CS_THREAD, CS_WEIGHT, CS_JOBS };
#define CLI_SAMPLES_LONGOPTS                                                                 \
    {"kind", required_argument, NULL, CS_KIND},                                              \
    {"event", required_argument, NULL, CS_EVENT},                                            \
    {"max-gap", required_argument, NULL, CS_MAXGAP},                                         \
    {"slice-end", required_argument, NULL, CS_SLICE_END},                                    \
    {"end-pad", required_argument, NULL, CS_END_PAD},                                        \
    {"no-msg-split", no_argument, NULL, CS_NO_MSG_SPLIT},                                    \
    {"loop-frame", required_argument, NULL, CS_LOOP},                                        \
    {"frame-identity", required_argument, NULL, CS_IDENT},                                   \
    {"keep-runtime-frames", no_argument, NULL, CS_KEEP_RT},                                  \
    {"mark-gaps", no_argument, NULL, CS_MARK_GAPS},                                          \
    {"thread", required_argument, NULL, CS_THREAD},                                          \
    {"weight", required_argument, NULL, CS_WEIGHT},                                          \
    {"jobs", required_argument, NULL, CS_JOBS},                                              \
    {"exe", required_argument, NULL, 'e'},                                                   \
    {"symbols", required_argument, NULL, CLI_SYM_O_SYMBOLS},                                 \
    {"swift-demangler", required_argument, NULL, CLI_SYM_O_SWIFT}
void cli_samples_opts_init(cli_samples_opts *o);
int cli_samples_opt(cli_samples_opts *o, int c, const char *arg);
/* Parses a duration "20ms", "500us", "1s", "250000" (ns). */
int cli_parse_dur(const char *opt, const char *s, int64_t *ns);

/* Names every unnamed native frame of p (module + rel_pc, or a perf runtime address in a
 * non-PIE executable) through cli_sym's resolver: the outermost function of the address's
 * inline chain. Modules that cannot be used are reported once each and counted. */
int cli_samples_symbolicate(tt_profile *p, const cli_samples_opts *o, cli_ctx *ctx);

/* The threads to use: --jobs, or one per core. */
int cli_samples_jobs(const cli_samples_opts *o);
/* Loads every input into one finished profile (*out, free with tt_profile_free), then
 * symbolicates it when o->sym names executables or symbol directories. */
/* The check of a FIFO or device that outgrows memory (cli_trace_paths_check): refuses an
 * input of unknown kind with the loader's message. */
int cli_samples_check_stream(tt_input *head, const char *path, void *ud, tt_error *err);
/* After cli_samples_load of n inputs: the source format and the clock every input has, or
 * "mixed" (sampling-mapping files do not count; export's Chrome otherData alike); the
 * profile's own when no input was recorded. Borrowed strings. */
void cli_samples_source(const char **format, const char **clock, const cli_samples_opts *o,
                        size_t n, const tt_profile_meta *m);
int cli_samples_load(tt_profile **out, char **files, size_t n, cli_samples_opts *o,
                     cli_ctx *ctx);
/* Selected utids for --thread (NULL when all); owned by the caller (free()). No match is an
 * error. */
/* --weight cpu on p read from files[0..n): 0 when its samples have the thread CPU clock
 * (tt_export_cpu_check, of the threads sel[0..nsel), all when sel is NULL); else the error
 * printed, naming the input, and CLI_BAD. */
int cli_samples_cpu_check(tt_profile *p, char **files, size_t n, const cli_samples_opts *so,
                          const uint32_t *sel, size_t nsel);
int cli_samples_threads(uint32_t **out, size_t *n, const tt_profile *p,
                        const cli_samples_opts *o);
/* The same, but no match gives *n = 0 and no error. */
/* The utids whose name (tt_thread_format) or tid equals one of specs; extended also takes
 * "main" and names with '#' for each run of digits. *out (malloc'ed, owned by the caller) is
 * NULL when nothing matches. CLI_BAD after printing an error. */
int cli_threads_pick(uint32_t **out, size_t *n, const tt_profile *p, const char *const *specs,
                     size_t nspecs, int extended);
int cli_samples_threads_any(uint32_t **out, size_t *n, const tt_profile *p,
                            const cli_samples_opts *o);

#endif
