/* Input loading for samples and export (spec/samples.md section 2, cli.md "Inputs"): each
 * file's kind is detected by content; a btrace sampling file takes the mapping given among
 * the inputs (tt_btrace_pair) or the one next to it (sampling-mapping[.bin]). */
#include "cli_samples.h"

#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <unistd.h>

#include "cli_load.h"
#include "../sqlite/tdb.h"
#include "../libtrace/tt_art.h"

static const char *const kinds[] = {"auto", "btrace", "btrace-mapping", "perf", "folded",
                                    "samples-jsonl", "beat", "database", "btrace-ios", NULL};

void cli_samples_opts_init(cli_samples_opts *o)
{
    memset(o, 0, sizeof *o);
    tt_slice_opts_init(&o->slice);
    o->weight = -1;
}

int cli_parse_dur(const char *opt, const char *s, int64_t *ns)
{
    const char *end;
    double v;
    double mul = 1;
    if (cli_opt_real(s, &v, &end) || !(v >= 0)) {
        cli_errorf("option %s: expected a duration such as 20ms, got \"%s\"", opt, s);
        return -1;
    }
    if (!*end || !strcmp(end, "ns"))
        mul = 1;
    else if (!strcmp(end, "us"))
        mul = 1e3;
    else if (!strcmp(end, "ms"))
        mul = 1e6;
    else if (!strcmp(end, "s"))
        mul = 1e9;
    else {
        cli_errorf("option %s: unknown unit \"%s\" (use ns, us, ms or s)", opt, end);
        return -1;
    }
    if (!(v * mul <= 9e18)) {
        cli_errorf("option %s: duration too large", opt);
        return -1;
    }
    *ns = (int64_t)(v * mul + 0.5);
    return 0;
}

int cli_samples_opt(cli_samples_opts *o, int c, const char *arg)
{
    int r = cli_sym_opt(&o->sym, c, arg);
    if (r)
        return r;
    static const char *const ends[] = {"last", "mid", "next", NULL};
    static const char *const idents[] = {"name", "address", NULL};
    static const char *const weights[] = {"samples", "wall", "cpu", "period", NULL};
    int v;
    switch (c) {
    case CS_WEIGHT: /* TT_WEIGHT_* order */
        if ((v = cli_opt_enum("--weight", arg, weights)) < 0)
            return -1;
        o->weight = v;
        return 1;
    case CS_KIND:
        if ((v = cli_opt_enum("--kind", arg, kinds)) < 0)
            return -1;
        o->kind = v;
        return 1;
    case CS_EVENT: o->event = arg; return 1;
    case CS_JOBS: return cli_opt_int("--jobs", arg, 1, 64, &o->jobs) ? -1 : 1;
    case CS_MAXGAP:
        if (!strcmp(arg, "auto"))
            o->slice.max_gap = TT_GAP_AUTO;
        else if (!strcmp(arg, "none"))
            o->slice.max_gap = TT_GAP_NONE;
        else if (cli_parse_dur("--max-gap", arg, &o->slice.max_gap))
            return -1;
        return 1;
    case CS_SLICE_END:
        if ((v = cli_opt_enum("--slice-end", arg, ends)) < 0)
            return -1;
        o->slice.end_policy = v;
        return 1;
    case CS_END_PAD:
        return cli_parse_dur("--end-pad", arg, &o->slice.end_pad) ? -1 : 1;
    case CS_NO_MSG_SPLIT: o->slice.no_msg_split = 1; return 1;
    case CS_LOOP:
        if (o->nloops == 64) {
            cli_errorf("too many --loop-frame options (at most 64)");
            return -1;
        }
        o->loops[o->nloops++] = arg;
        o->slice.loop_frames = o->loops;
        o->slice.n_loop_frames = o->nloops;
        return 1;
    case CS_IDENT:
        if ((v = cli_opt_enum("--frame-identity", arg, idents)) < 0)
            return -1;
        o->identity = v;
        return 1;
    case CS_KEEP_RT: o->keep_runtime = 1; return 1;
    case CS_MARK_GAPS: o->slice.mark_gaps = 1; return 1;
    case CS_THREAD:
        if (o->nthreads == 64) {
            cli_errorf("too many --thread options (at most 64)");
            return -1;
        }
        o->threads[o->nthreads++] = arg;
        return 1;
    default: return 0;
    }
}

/* An ART method trace: read by tt_art_parse, not a samples reader. */
#define SKIND_ART 100

/* The kind of an input from its first bytes (no --kind). */
static int detect_kind(const unsigned char *p, size_t n)
{
    /* ART first: a version 1 file's records look like a method-beat buffer's bytes */
    int ak = tt_art_detect(p, n, NULL, 0);
    return ak == TT_ART_LEGACY || ak == TT_ART_STREAMING || ak == TT_ART_UNSUPPORTED
               ? SKIND_ART /* the reader names the version */
               : tt_samples_detect(p, n);
}

#define UNKNOWN_KIND "expected btrace sampling data, perf script text, folded stacks or " \
                     "tracetool JSON-lines samples"

int cli_samples_check_stream(tt_input *head, const char *path, void *ud, tt_error *err)
{
    const unsigned char *p;
    size_t n;
    (void)ud;
    int rc = tt_input_peek_text(head, &p, &n, 65536, err);
    if (rc || detect_kind(p, n) != TT_SKIND_UNKNOWN)
        return rc;
    const char *what = tt_samples_text_what(p, n);
    if (what)
        return tt_error_set(err, TT_EFORMAT, path, 0, 0, "%s", what);
    return tt_error_set(err, TT_EFORMAT, path, 0, 0,
                        "unknown input kind: " UNKNOWN_KIND " (force one with --kind)");
}

static int open_kind(tt_input **in, int *kind, const char *path, int forced)
{
    tt_error err = {0};
    *in = NULL;
    if (cli_input_open(in, path, 0, &err))
        return cli_err(&err);
    cli_progress_attach(*in);
    const unsigned char *p;
    size_t n;
    if (tt_input_peek_text(*in, &p, &n, 65536, &err)) {
        tt_input_close(*in);
        *in = NULL;
        return cli_err(&err);
    }
    *kind = forced ? forced : detect_kind(p, n);
    if (*kind == TT_SKIND_UNKNOWN) {
        const char *what = tt_samples_text_what(p, n);
        if (what)
            cli_errorf("%s: %s", path, what);
        tt_input_close(*in);
        *in = NULL;
        if (what)
            return CLI_BAD;
        cli_errorf("%s: %s: " UNKNOWN_KIND "%s", path, n ? "unknown input kind" : "empty input",
                   n ? " (force one with --kind)" : "");
        return CLI_BAD;
    }
    return 0;
}

/* An ART method trace as fixed slices (art-trace.md 6.2). */
static int load_art(tt_profile *p, tt_input *in, const char *path, cli_ctx *ctx)
{
    char *data = NULL;
    size_t n = 0;
    tt_error err = {0};
    tt_art *a = NULL;
    int rc = tt_input_slurp(in, &data, &n, &err) ||
             tt_art_parse(&a, (const unsigned char *)data, n, path, NULL, ctx->stats, &err);
    free(data);
    if (!rc) {
        tt_art_rebuild_opts ro = {.close_at = TT_ART_CLOSE_THREAD_LAST,
                                  .sampled = tt_art_detect_sampled(a, NULL)};
        rc = tt_art_to_profile(p, a, &ro, ctx->stats, path, &err);
    }
    tt_art_free(a);
    return rc ? cli_err(&err) : 0;
}

/* The mapping beside a sampling file (tt_btrace_mapping_name), when it can be read. */
static int sibling_mapping(char *dst, size_t cap, const char *path)
{
    return !tt_btrace_mapping_name(dst, cap, path) && access(dst, R_OK) == 0;
}

/* Says why Matrix's tree of a buffer with records is empty: nothing of it is exported. */
static void empty_tree_warning(const char *path, const tt_mstack_result *res)
{
    char why[128];
    if (res->empty_reason == TT_EMPTY_NEGATIVE && res->negative_record)
        snprintf(why, sizeof why, "the exit at record %llu is older than its entry, and a "
                 "negative duration discards the whole slice (Matrix rule)",
                 (unsigned long long)res->negative_record);
    else
        snprintf(why, sizeof why, "%s", cli_beat_empty_reason(res->empty_reason));
    cli_warnf("%s: Matrix's call tree of the buffer is empty, nothing exported: %s; "
              "tracetool flamegraph and analyze keep every call", path, why);
}

/* in: the buffer, opened and peeked by open_kind (read once: it may be a pipe). */
static int load_beat(tt_profile *p, tt_input *in, const char *path, cli_samples_opts *o,
                     cli_ctx *ctx)
{
    tt_mapping *m = NULL;
    int rc = cli_load_mappings(&m, o->maps, o->nmaps, NULL, ctx->stats);
    if (rc)
        return rc;
    tt_mstack_opts mo = {.strict = 1, .trim = 0};
    tt_mstack *ms = NULL;
    tt_error err = {0};
    tt_beat_reader *r = NULL;
    int fmt = o->kind ? TT_BEAT_FMT_AUTO_ANY : TT_BEAT_FMT_AUTO;
    if (tt_mstack_new(&ms, &mo) || tt_beat_reader_new(&r, in, fmt, &err)) {
        rc = err.msg[0] ? cli_err(&err) : (cli_errorf("out of memory"), CLI_BAD);
        goto out;
    }
    uint64_t blk[4096];
    for (;;) {
        size_t n;
        int x = tt_beat_reader_next(r, blk, 4096, &n, &err);
        if (x == TT_DONE)
            break;
        if (x) {
            rc = cli_err(&err);
            goto out;
        }
        tt_mstack_feed(ms, blk, n);
    }
    if (tt_mstack_finish(ms, &err)) {
        rc = cli_err(&err);
        goto out;
    }
    if (tt_beat_reader_backwards(r))
        tt_stats_add(ctx->stats, "beat_time_backwards", path, TT_SEV_WARN,
                     (int64_t)tt_beat_reader_backwards(r), CLI_BEAT_BACKWARDS);
    const tt_mstack_result *res = tt_mstack_result_get(ms);
    if (!res->n_items && res->records > res->zero_records) /* method-beat.md 9 item 6 */
        empty_tree_warning(path, res);
    cli_check_ids(m, res->items, res->n_items, path, ctx->stats);
    size_t clamped = 0;
    if (tt_profile_from_beat(p, res->items, res->n_items, m, TT_NAME_JAVA, &clamped)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    } else if (clamped) {
        tt_stats_add(ctx->stats, "beat_child_clamped", path, TT_SEV_INFO, (int64_t)clamped,
                     NULL);
    }
out:
    tt_beat_reader_free(r);
    tt_mstack_free(ms);
    tt_mapping_free(m);
    return rc;
}

int cli_samples_jobs(const cli_samples_opts *o)
{
    /* perf and folded text files are read by one thread per core unless --jobs says otherwise */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return o->jobs ? o->jobs : cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
}

/* An input's error: printed, or kept for the caller (o->fail). Returns CLI_BAD. */
static int load_fail(const cli_samples_opts *o, const tt_error *err)
{
    if (!o->fail)
        return cli_err(err);
    *o->fail = *err;
    return CLI_BAD;
}

/* The meta clock while an input is read: an array, never merged with an importer's literal. */
static const char clock_unset[] = "unknown";

/* Input i was read: its source_format and its own clock; the meta clock an input did not set
 * goes back to the earlier input's (clock0). */
static void note_input(cli_samples_opts *o, size_t i, tt_profile_meta *m, const char *clock0)
{
    o->formats[i] = m->source_format;
    o->clocks[i] = m->clock == clock_unset ? "unknown" : m->clock;
    if (m->clock == clock_unset)
        m->clock = clock0;
}

void cli_samples_source(const char **format, const char **clock, const cli_samples_opts *o,
                        size_t n, const tt_profile_meta *m)
{
    const char *f = NULL, *k = NULL;
    for (size_t i = 0; i < n && i < CLI_SAMPLES_MAX_INPUTS; i++) {
        if (!o->formats[i]) /* a mapping, read with its trace */
            continue;
        f = !f || !strcmp(f, o->formats[i]) ? o->formats[i] : "mixed";
        k = !k || !strcmp(k, o->clocks[i]) ? o->clocks[i] : "mixed";
    }
    *format = f ? f : m->source_format;
    *clock = k ? k : m->clock;
}

int cli_samples_load(tt_profile **out, char **files, size_t n, cli_samples_opts *o,
                     cli_ctx *ctx)
{
    *out = NULL;
    if (n > CLI_SAMPLES_MAX_INPUTS) {
        cli_errorf("too many inputs (at most %d)", CLI_SAMPLES_MAX_INPUTS);
        return CLI_BAD;
    }
    tt_profile *p;
    int symbolicate = o->sym.n_exes || o->sym.n_dirs || o->sym.n_dsyms;
    /* perf's "[unknown] <dso>" frames stay one per address until they are named */
    int identity = symbolicate && o->identity == TT_IDENT_NAME ? TT_IDENT_NAME_UNNAMED_ADDRESS
                                                               : o->identity;
    if (tt_profile_new(&p, identity)) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    int kinds_of[CLI_SAMPLES_MAX_INPUTS];
    memset(o->formats, 0, sizeof o->formats);
    tt_input *ins[CLI_SAMPLES_MAX_INPUTS] = {0};
    int roles[CLI_SAMPLES_MAX_INPUTS] = {0};
    long pair[CLI_SAMPLES_MAX_INPUTS];
    int rc = 0;
    /* detect everything first (to find mappings); inputs stay open: "-" is read once */
    for (size_t i = 0; i < n && !rc; i++) {
        if ((rc = open_kind(&ins[i], &kinds_of[i], files[i], o->kind)))
            break;
        roles[i] = kinds_of[i] == TT_SKIND_BTRACE_MAPPING ? TT_BTRACE_MAPPING
                   : kinds_of[i] == TT_SKIND_BTRACE       ? TT_BTRACE_SAMPLING
                                                          : TT_BTRACE_OTHER;
        if (kinds_of[i] == TT_SKIND_DATABASE) {
            if (!strcmp(files[i], "-"))
                cli_errorf("<stdin>: a tracetool database is read from a file: give its path");
            else
                cli_errorf("%s: a tracetool database: use 'tracetool export' (with the database "
                           "as its only input) or 'tracetool query'", files[i]);
            rc = CLI_BAD;
        }
        if (kinds_of[i] == TT_SKIND_BEAT && !o->allow_beat) {
            cli_errorf("%s: a method-beat buffer: use 'tracetool beat' or 'tracetool export'",
                       files[i]);
            rc = CLI_BAD;
        }
        if (kinds_of[i] == SKIND_ART && !o->allow_beat) {
            /* instrumented calls, not samples: this command would print empty tables */
            cli_errorf("%s: an ART method trace (instrumented calls, not samples): use "
                       "'tracetool art --profile' or 'tracetool export'", files[i]);
            rc = CLI_BAD;
        }
    }
    if (!rc && tt_btrace_pair(pair, roles, (const char *const *)files, n)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    for (size_t j = 0; j < n && !rc; j++) /* a mapping no sampling file takes is said */
        if (roles[j] == TT_BTRACE_MAPPING && pair[j] == TT_BTRACE_UNUSED && n > 1)
            cli_warnf("%s: btrace sampling-mapping that matches no btrace sampling file among "
                      "the inputs: not used", files[j]);
    size_t used = 0;
    int jobs = cli_samples_jobs(o);
    for (size_t i = 0; i < n && !rc; i++) {
        int k = kinds_of[i];
        if (k == TT_SKIND_BTRACE_MAPPING)
            continue;
        tt_import_opts io = {.source = (uint32_t)i, .event = o->event,
                             .keep_runtime = o->keep_runtime, .jobs = jobs};
        tt_error err = {0};
        tt_input *in = ins[i], *min = NULL;
        used++;
        /* the input's own clock: the profile's stays the last one an input set */
        tt_profile_meta *m = tt_profile_meta_get(p);
        const char *clock0 = m->clock;
        m->clock = clock_unset;
        if (k == TT_SKIND_BEAT) {
            rc = load_beat(p, in, files[i], o, ctx);
            note_input(o, i, m, clock0);
            continue;
        }
        if (k == SKIND_ART) {
            rc = load_art(p, in, files[i], ctx);
            note_input(o, i, m, clock0);
            continue;
        }
        int x;
        if (k == TT_SKIND_BTRACE) {
            char sib[4096];
            long mi = pair[i];
            if (mi >= 0) {
                min = ins[mi];
                if (tt_input_offset(min) != 0) { /* a second sampling file: reopen */
                    if (tt_input_open(&min, files[mi], &err)) {
                        rc = load_fail(o, &err);
                        break;
                    }
                    tt_input_close(ins[mi]);
                    ins[mi] = min;
                }
            } else if (sibling_mapping(sib, sizeof sib, files[i])) {
                if (tt_input_open(&min, sib, &err)) {
                    rc = load_fail(o, &err);
                    break;
                }
            }
            x = tt_btrace_import(p, in, min, &io, ctx->stats, &err);
            if (mi < 0)
                tt_input_close(min);
        } else if (k == TT_SKIND_BTRACE_IOS) {
            char *data = NULL;
            size_t len = 0;
            /* a log beside the file holds what its image in memory would miss */
            x = strcmp(files[i], "-") ? tdb_btrace_ios_wal_check(files[i], &err) : 0;
            if (!x)
                x = tt_input_slurp(in, &data, &len, &err);
            if (!x)
                x = tdb_btrace_ios_import(p, data, len, files[i], &io, ctx->stats, &err);
            free(data);
        } else if (k == TT_SKIND_PERF) {
            x = tt_perf_import(p, in, &io, ctx->stats, &err);
        } else if (k == TT_SKIND_FOLDED) {
            x = tt_folded_import(p, in, &io, ctx->stats, &err);
        } else {
            x = tt_jsonl_import(p, in, &io, ctx->stats, &err);
        }
        if (x)
            rc = load_fail(o, &err);
        note_input(o, i, m, clock0);
    }
    for (size_t i = 0; i < n; i++)
        tt_input_close(ins[i]);
    if (!rc && !used) {
        cli_errorf("only a sampling-mapping file was given: the sampling file is missing");
        rc = CLI_BAD;
    }
    tt_error err = {0};
    if (!rc && tt_profile_finish(p, &err))
        rc = load_fail(o, &err);
    if (!rc && symbolicate)
        rc = cli_samples_symbolicate(p, o, ctx);
    if (rc) {
        tt_profile_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* The address of an unnamed native frame in its module's ELF address space; 0 when the
 * frame has none we can use. */
static int frame_loc(tt_native_loc *loc, const tt_stack_frame *f, cli_sym *s, cli_ctx *ctx)
{
    if (!f->is_unnamed || f->kind != TT_FRAME_NATIVE || !f->module)
        return 0;
    memset(loc, 0, sizeof *loc);
    loc->module = f->module;
    loc->addr_kind = TT_NADDR_VADDR;
    if (f->addr_is_offset) { /* a Mach-O image offset (btrace iOS): the resolver maps it */
        loc->module = f->module_path ? f->module_path : f->module;
        loc->build_id = f->build_id;
        loc->addr_kind = TT_NADDR_OFFSET;
        loc->addr = f->addr;
        return 1;
    }
    if (f->has_rel_pc) {
        loc->addr = f->rel_pc;
        if (f->rel_pc_is_offset) /* JSON-lines addr - base: the resolver maps it (3.2) */
            loc->addr_kind = TT_NADDR_OFFSET;
        loc->build_id = f->build_id; /* a JSON-lines frame or module line's (spec 4.3) */
        return 1;
    }
    if (!f->has_addr && !f->has_file_off)
        return 0;
    if (f->module_path)
        loc->module = f->module_path;
    tsym_module *m = cli_sym_module(s, loc->module, NULL, 0, NULL);
    if (!m)
        return 1; /* the resolver reports the module */
    if (f->has_file_off) {
        /* perf address in a PERF_RECORD_MMAP mapping: file offset -> vaddr (spec 3.2) */
        if (tsym_module_map_to_vaddr(&loc->addr, m, f->file_off, f->file_off, f->file_off) == 0)
            return 1;
        char ex[512];
        snprintf(ex, sizeof ex, "%s: file offset 0x%llx of a mapped address is in no PT_LOAD "
                 "segment of the module (another build?); kept unnamed", loc->module,
                 (unsigned long long)f->file_off);
        tt_stats_add(ctx->stats, "symbols_mapping_mismatch", loc->module, TT_SEV_WARN, 1, ex);
        return 0;
    }
    /* no mapping line: a runtime address in a non-PIE executable, or the map-relative
     * address recent perf versions print */
    if (tsym_module_guess_vaddr(&loc->addr, m, f->addr)) {
        char ex[512];
        snprintf(ex, sizeof ex, "%s: address 0x%llx is in no segment of the module and no "
                 "mapping line gives its load address (perf script --show-mmap-events); kept "
                 "unnamed", loc->module, (unsigned long long)f->addr);
        tt_stats_add(ctx->stats, "symbols_runtime_address", f->module, TT_SEV_WARN, 1, ex);
        return 0;
    }
    return 1;
}

int cli_samples_symbolicate(tt_profile *p, const cli_samples_opts *o, cli_ctx *ctx)
{
    cli_sym *s;
    int rc = cli_sym_open(&s, &o->sym, ctx);
    if (rc)
        return rc;
    tt_resolver r;
    cli_sym_resolver(&r, s);
    /* a sample's leaf holds a program counter, its callers return addresses: one address
     * in both roles is two frames, each looked up as its role says (symbolication.md 3.3) */
    if (tt_profile_split_return_frames(p)) {
        cli_sym_close(s);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    size_t nf = tt_profile_nframes(p);
    for (size_t id = 0; id < nf && !rc; id++) {
        const tt_stack_frame *f = tt_profile_frame(p, (uint32_t)id);
        tt_native_loc loc;
        if (!frame_loc(&loc, f, s, ctx))
            continue;
        loc.return_address = f->return_address;
        tt_native_frame fr[64];
        tt_error err = {0};
        int n = tt_resolve(&r, fr, sizeof fr / sizeof fr[0], &loc, &err);
        if (n < 0)
            continue; /* cli_sym reported and counted the module */
        if (loc.addr_kind == TT_NADDR_OFFSET) { /* Mach-O: the vmaddr from here on */
            tsym_module *m = cli_sym_module(s, loc.module, loc.build_id, 0, NULL);
            if (!m)
                continue;
            loc.addr = tsym_module_offset_to_vaddr(m, loc.addr);
            loc.addr_kind = TT_NADDR_VADDR;
        }
        if (tt_frame_set_rel_pc(p, (uint32_t)id, loc.addr)) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
            break;
        }
        if (o->on_lookup) {
            tsym_module *m = cli_sym_module(s, loc.module, loc.build_id, 0, NULL);
            if (m && o->on_lookup(o->on_lookup_ctx, f, m, loc.addr, loc.return_address)) {
                rc = CLI_BAD;
                break;
            }
        }
        /* fr[n - 1] is the out-of-line function: the frame's name (inline frames dropped) */
        if (n == 0 || !fr[n - 1].function || !strcmp(fr[n - 1].function, "??")) {
            char ex[512];
            snprintf(ex, sizeof ex, "%s: no function covers address 0x%llx; kept unnamed",
                     loc.module, (unsigned long long)loc.addr);
            tt_stats_add(ctx->stats, "symbols_unresolved", f->module, TT_SEV_WARN, 1, ex);
            continue;
        }
        if (tt_frame_set_name(p, (uint32_t)id, fr[n - 1].function)) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
        }
    }
    if (!rc && tt_profile_merge_frames(p)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    cli_sym_close(s);
    return rc;
}

int cli_samples_threads(uint32_t **out, size_t *n, const tt_profile *p,
                        const cli_samples_opts *o)
{
    int rc = cli_samples_threads_any(out, n, p, o);
    if (!rc && o->nthreads && !*n) {
        cli_errorf("no thread matches --thread %s", o->threads[0]);
        rc = CLI_BAD;
    }
    return rc;
}

/* A thread name in which each run of digits may be written '#' (Thread-# for Thread-123). */
static int digits_match(const char *spec, const char *name)
{
    while (*spec && *name) {
        if (*spec == '#' && *name >= '0' && *name <= '9') {
            while (*name >= '0' && *name <= '9')
                name++;
            spec++;
            continue;
        }
        if (*spec++ != *name++)
            return 0;
    }
    return !*spec && !*name;
}

int cli_threads_pick(uint32_t **out, size_t *n, const tt_profile *p, const char *const *specs,
                     size_t nspecs, int extended)
{
    *out = NULL;
    *n = 0;
    if (!nspecs)
        return 0;
    size_t nt = tt_profile_nthreads(p);
    uint32_t *sel = malloc((nt ? nt : 1) * sizeof *sel);
    if (!sel) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    tt_buf b = {0};
    for (size_t t = 0; t < nt; t++) {
        const tt_thread *th = tt_profile_thread(p, (uint32_t)t);
        b.len = 0;
        tt_thread_format(&b, p, (uint32_t)t);
        char tid[32];
        snprintf(tid, sizeof tid, "%lld", (long long)th->tid);
        const char *name = b.data ? b.data : "";
        for (size_t i = 0; i < nspecs; i++)
            if (!strcmp(specs[i], name) || !strcmp(specs[i], tid) ||
                (extended && ((!strcmp(specs[i], "main") && th->is_main) ||
                              digits_match(specs[i], name)))) {
                sel[(*n)++] = (uint32_t)t;
                break;
            }
    }
    tt_buf_free(&b);
    if (!*n) {
        free(sel);
        return 0;
    }
    *out = sel;
    return 0;
}

int cli_samples_threads_any(uint32_t **out, size_t *n, const tt_profile *p,
                            const cli_samples_opts *o)
{
    return cli_threads_pick(out, n, p, o->threads, o->nthreads, 0);
}

int cli_samples_cpu_check(tt_profile *p, char **files, size_t n, const cli_samples_opts *so,
                          const uint32_t *sel, size_t nsel)
{
    tt_export_opts eo;
    tt_export_opts_init(&eo);
    eo.threads = sel;
    eo.n_threads = nsel;
    tt_export_input inputs[CLI_SAMPLES_MAX_INPUTS];
    for (size_t i = 0; i < n && i < CLI_SAMPLES_MAX_INPUTS; i++)
        inputs[i] = (tt_export_input){files[i], so->formats[i], so->clocks[i]};
    eo.inputs = inputs;
    eo.n_inputs = n < CLI_SAMPLES_MAX_INPUTS ? n : CLI_SAMPLES_MAX_INPUTS;
    tt_error err = {0};
    if (!tt_export_cpu_check(p, &eo, &err))
        return 0;
    if (!err.file[0] && n == 1) /* the refusal names the input */
        snprintf(err.file, sizeof err.file, "%s", files[0]);
    return cli_err(&err);
}
