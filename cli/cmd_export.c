/* tracetool export: Chrome trace-event JSON, folded stacks or speedscope JSON from sampled
 * stacks or a method-beat call tree (spec/samples.md section 7). */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_kscrash.h"
#include "cli_samples.h"
#include "../sqlite/tdb.h"

static const char usage[] =
    "usage: tracetool export --format chrome|folded|speedscope|art-trace [-o FILE]\n"
    "                        [--chrome-events x|be] [--chrome-samples] [--relative-time]\n"
    "                        [--weight samples|wall|cpu|period|repeat]\n"
    "                        [--folded-root thread|process|none]\n"
    "                        [-m MAPPING]... [--thread NAME|TID]... [--max-gap DUR|auto|none]\n"
    "                        [--slice-end last|mid|next] [--end-pad DUR] [--no-msg-split]\n"
    "                        [--loop-frame NAME]... [--mark-gaps] [--event NAME]\n"
    "                        [--frame-identity name|address] [--keep-runtime-frames]\n"
    "                        [--jobs N] [-e FILE]... [--symbols DIR]...\n"
    "                        [--swift-demangler CMD] [--kind KIND] INPUT...\n"
    "       tracetool export --format chrome|folded|speedscope|art-trace [-o FILE]\n"
    "                        [--trace ID]... [--chrome-events x|be] [--chrome-samples]\n"
    "                        [--relative-time] [--weight W] [--folded-root R]\n"
    "                        [--thread NAME|TID]... DATABASE\n"
    "\n"
    "      --format FMT        chrome (trace-event JSON), folded, speedscope, art-trace\n"
    "                          (a legacy ART .trace for dmtracedump and Android Studio)\n"
    "  -o, --output FILE       write to FILE instead of standard output\n"
    "      --chrome-events E   x (complete events, default) or be (begin/end pairs)\n"
    "      --chrome-samples    chrome: also an instant event per sample\n"
    "      --relative-time     subtract the trace start from timestamps\n"
    "      --weight W          folded/speedscope weight: samples (default), wall, cpu, period;\n"
    "                          repeat (iOS reports: the key stack's top repeat count)\n"
    "      --folded-root R     folded root frame: thread (default), process, none\n"
    "  -m, --mapping FILE      methodMapping.txt for a method-beat buffer (repeatable)\n"
    "      --thread NAME|TID   only these threads (repeatable)\n"
    "      --max-gap DUR       close every slice across a gap longer than DUR (default auto)\n"
    "      --slice-end P       slice end policy: last (default), mid, next\n"
    "      --end-pad DUR       pad after the last sample of a slice (default 10ns)\n"
    "      --no-msg-split      do not split slices when the message id changes\n"
    "      --loop-frame NAME   loop frame for message splits (default android.os.Looper.loop())\n"
    "      --mark-gaps         add [no samples] slices over gaps\n"
    "      --event NAME        perf event to keep (default: the first one seen)\n"
    "      --frame-identity I  name (default) or address\n"
    "      --keep-runtime-frames  keep btrace <runtime ...> frames\n"
    "      --jobs N            threads reading a perf/folded text file (default: 1 per core)\n"
    "  -e, --exe FILE          name unnamed native frames from this ELF file (repeatable)\n"
    "      --symbols DIR       symbol store directory for native frames (repeatable)\n"
    "      --swift-demangler CMD  demangle Swift names with CMD (also TRACETOOL_SWIFT_DEMANGLE)\n"
    "      --kind KIND         force the input kind (btrace, perf, folded, samples-jsonl, beat,\n"
    "                          database, btrace-ios)\n"
    "      --trace ID          DATABASE: only this trace (repeatable; default: every trace\n"
    "                          with sampled stacks)\n"
    "  -h, --help              show this help\n";

enum { O_FORMAT = 256, O_CEV, O_CSAMPLES, O_REL, O_ROOT, O_TRACE };

static const struct option longopts[] = {
    {"format", required_argument, NULL, O_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"chrome-events", required_argument, NULL, O_CEV},
    {"chrome-samples", no_argument, NULL, O_CSAMPLES},
    {"relative-time", no_argument, NULL, O_REL},
    {"folded-root", required_argument, NULL, O_ROOT},
    {"mapping", required_argument, NULL, 'm'},
    {"trace", required_argument, NULL, O_TRACE},
    CLI_SAMPLES_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct sink {
    cli_out_file *o; /* NULL: standard output */
    FILE *f;
} sink;

static int write_out(void *ctx, const char *p, size_t n)
{
    sink *s = ctx;
    if (!s->f) {
        cli_out_write(p, n);
        return 0;
    }
    return cli_out_file_write(s->o, p, n); /* text escaped as on standard output */
}

/* -o FILE is written aside and renamed over FILE only when the export succeeds. */
static int open_out(sink *s, const char *outpath)
{
    s->o = NULL;
    s->f = NULL;
    if (outpath)
        cli_out_clean_stale(outpath);
    if (outpath && !(s->o = cli_out_file_open(outpath)))
        return CLI_BAD;
    if (s->o)
        s->f = cli_out_file_stream(s->o);
    return 0;
}

/* Closes the output; a write error of the document (x) or of the close is reported. A
 * failed export leaves FILE as it was. */
static int close_out(sink *s, const char *outpath, int x, const tt_error *err, int rc)
{
    if (x == TT_EIO && s->o && cli_out_file_pipe_closed(s->o, errno))
        x = 0; /* -o /dev/stdout | head: the reader has what it wanted */
    if (x == TT_EIO)
        cli_errorf("%s: write error: %s", outpath ? outpath : "standard output",
                   strerror(errno));
    if (x && !rc)
        rc = x == TT_EIO ? CLI_BAD : cli_err(err);
    if (s->o && rc)
        cli_out_file_abort(s->o);
    else if (s->o)
        rc = cli_out_file_commit(s->o);
    s->o = NULL;
    s->f = NULL;
    return rc;
}

static int export_raw(char **files, size_t n, int format, tt_export_opts *eo,
                      cli_samples_opts *so, const char *outpath, cli_ctx *ctx)
{
    tt_profile *p = NULL;
    int rc = cli_samples_load(&p, files, n, so, ctx);
    if (rc)
        return rc;
    uint32_t *sel = NULL;
    size_t nsel = 0;
    if ((rc = cli_samples_threads(&sel, &nsel, p, so))) {
        tt_profile_free(p);
        return rc;
    }
    eo->threads = sel;
    eo->n_threads = nsel;
    tt_export_input inputs[CLI_SAMPLES_MAX_INPUTS];
    for (size_t i = 0; i < n; i++)
        inputs[i] = (tt_export_input){files[i], so->formats[i], so->clocks[i]};
    eo->inputs = inputs;
    eo->n_inputs = n;
    sink s;
    tt_error err = {0};
    if (!(rc = open_out(&s, outpath))) {
        int x = format == TT_EXPORT_CHROME   ? tt_export_chrome(p, eo, write_out, &s, &err)
                : format == TT_EXPORT_FOLDED ? tt_export_folded(p, eo, write_out, &s, &err)
                : format == TT_EXPORT_ART    ? tt_export_art(p, eo, write_out, &s, &err)
                                             : tt_export_speedscope(p, eo, write_out, &s, &err);
        if (x && !err.file[0] && n == 1) /* a refusal names the input */
            snprintf(err.file, sizeof err.file, "%s", files[0]);
        rc = close_out(&s, outpath, x, &err, 0);
    }
    if (!rc)
        cli_stats_report(ctx->stats);
    free(sel);
    tt_profile_free(p);
    return rc;
}

/* ---- a database written by analyze ---- */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* An ART method trace's calls are its slices (art-trace.md 6.1): exported like samples. */
static int exportable(const tdb_trace_info *t)
{
    return t->has_samples || (t->has_slices && !strcmp(t->source_format, "art_trace"));
}

/* "1, 3, 4" (the ids of the traces with samples), shortened with "..." to fit, or "none". */
static void list_ids(char *b, size_t size, const tdb_trace_info *t, size_t nt)
{
    size_t len = 0;
    b[0] = 0;
    for (size_t i = 0; i < nt; i++) {
        if (!exportable(&t[i]))
            continue;
        char one[32];
        int k = snprintf(one, sizeof one, "%s%lld", len ? ", " : "", (long long)t[i].id);
        if (len + (size_t)k + 5 > size) {
            snprintf(b + len, size - len, ", ...");
            return;
        }
        memcpy(b + len, one, (size_t)k + 1);
        len += (size_t)k;
    }
    if (!len)
        snprintf(b, size, "none");
}

/* The traces to export, in id order: those asked for with --trace (each must hold sampled
 * stacks), else every trace that does. */
static int select_traces(int64_t **out, size_t *n, tdb_db *db, const char *path,
                         int64_t *want, size_t nwant)
{
    *out = NULL;
    *n = 0;
    tdb_trace_info *t;
    size_t nt;
    tt_error err = {0};
    if (tdb_trace_list(&t, &nt, db, &err))
        return cli_err(&err);
    int64_t *sel = malloc((nt + nwant + 1) * sizeof *sel);
    int rc = sel ? 0 : (cli_errorf("out of memory"), CLI_BAD);
    qsort(want, nwant, sizeof *want, cmp_i64);
    for (size_t i = 0; i < nwant && !rc; i++) {
        if (i && want[i] == want[i - 1])
            continue;
        tdb_trace_info key = {.id = want[i]};
        const tdb_trace_info *f = NULL;
        for (size_t lo = 0, hi = nt; lo < hi && !f;) { /* t is in id order */
            size_t m = lo + (hi - lo) / 2;
            if (t[m].id == key.id)
                f = &t[m];
            else if (t[m].id < key.id)
                lo = m + 1;
            else
                hi = m;
        }
        if (!f) {
            char ids[160];
            list_ids(ids, sizeof ids, t, nt);
            cli_errorf("%s: no trace %lld (traces with sampled stacks: %s)", path,
                       (long long)want[i], ids);
            rc = CLI_BAD;
        } else if (!exportable(f)) {
            cli_errorf("%s: trace %lld (%s) has no sampled stacks to export%s", path,
                       (long long)want[i], f->source_format,
                       f->has_slices ? " (method-beat slices: export the beat buffer itself)"
                                     : "");
            rc = CLI_BAD;
        } else {
            sel[(*n)++] = want[i];
        }
    }
    for (size_t i = 0; i < nt && !nwant && !rc; i++)
        if (exportable(&t[i]))
            sel[(*n)++] = t[i].id;
    if (!rc && !*n) {
        cli_errorf("%s: no trace with sampled stacks (analyze writes them for btrace, perf "
                   "script, folded and JSON-lines samples inputs)", path);
        rc = CLI_BAD;
    }
    free(t);
    if (rc) {
        free(sel);
        *n = 0;
        return rc;
    }
    *out = sel;
    return 0;
}

typedef struct dbx {
    tdb_db *db;
    const char *path;
    int format;
    const tt_export_opts *eo;
    const cli_samples_opts *so;
    tt_export *x;
    size_t nsel, added;
    cli_ctx *ctx;
} dbx;

/* Loads and writes one trace; a trace the format cannot show is skipped (and counted) when
 * there are several. */
static int export_trace(dbx *d, int64_t id)
{
    tt_error err = {0};
    tt_profile *p;
    if (tdb_profile_load(&p, d->db, id, d->path, d->ctx->stats, &err))
        return cli_err(&err);
    const tt_profile_meta *m = tt_profile_meta_get(p);
    int wall = d->eo->weight == TT_WEIGHT_WALL || d->eo->weight == TT_WEIGHT_CPU;
    char label[48], why[160];
    snprintf(label, sizeof label, "trace %lld", (long long)id);
    int timed = d->format == TT_EXPORT_CHROME || d->format == TT_EXPORT_ART;
    if (d->nsel > 1 && m->timeless && (timed || wall)) {
        snprintf(why, sizeof why, "%s (%s) has no timestamps: left out (%s)", label,
                 m->source_format, d->format == TT_EXPORT_CHROME ? "Chrome JSON shows slices"
                                   : d->format == TT_EXPORT_ART  ? "an ART trace holds calls"
                                                                 : "--weight needs times");
        tt_stats_add(d->ctx->stats, "export_trace_skipped", d->path, TT_SEV_WARN, 1, why);
        tt_profile_free(p);
        return 0;
    }
    uint32_t *sel = NULL;
    size_t n = 0;
    int rc = cli_samples_threads_any(&sel, &n, p, d->so);
    if (!rc && (!d->so->nthreads || n)) {
        tt_export_part part = {d->nsel > 1 ? label : NULL, d->path, id, sel, n};
        rc = tt_export_add(d->x, p, &part, &err);
        if (rc && !err.file[0])
            snprintf(err.file, sizeof err.file, "%s", d->path);
        if (rc)
            rc = rc == TT_EIO ? rc : cli_err(&err);
        else
            d->added++;
    }
    free(sel);
    tt_profile_free(p);
    return rc;
}

static int export_db(const char *path, int64_t *want, size_t nwant, int format,
                     const tt_export_opts *eo, const cli_samples_opts *so, const char *outpath,
                     cli_ctx *ctx)
{
    tt_error err = {0};
    dbx d = {.path = path, .format = format, .eo = eo, .so = so, .ctx = ctx};
    int newer;
    if (tdb_open_read(&d.db, path, 0, &newer, &err))
        return cli_err(&err);
    if (newer)
        cli_warnf("%s: written by a newer tracetool (schema > %d): columns may be missing",
                  path, TDB_SCHEMA_VERSION);
    int64_t *ids = NULL;
    int rc = select_traces(&ids, &d.nsel, d.db, path, want, nwant);
    sink s = {NULL, NULL};
    if (!rc)
        rc = open_out(&s, outpath);
    if (rc) {
        free(ids);
        tdb_close(d.db);
        return rc;
    }
    char doc[512];
    snprintf(doc, sizeof doc, "%s (%zu traces)", path, d.nsel);
    int x = tt_export_open(&d.x, format, eo, d.nsel, doc, write_out, &s, &err);
    for (size_t i = 0; i < d.nsel && !x && !rc; i++) {
        rc = export_trace(&d, ids[i]);
        if (rc == TT_EIO)
            x = rc, rc = 0;
    }
    if (!x && !rc && !d.added) {
        if (so->nthreads)
            cli_errorf("no thread matches --thread %s", so->threads[0]);
        else
            cli_errorf("%s: no selected trace has timestamps: use --format folded or "
                       "speedscope (with --weight samples or period)", path);
        rc = CLI_BAD;
    }
    if (!x && !rc)
        x = tt_export_close(d.x, &err);
    rc = close_out(&s, outpath, x, &err, rc);
    if (!rc)
        cli_stats_report(ctx->stats);
    tt_export_free(d.x);
    free(ids);
    tdb_close(d.db);
    return rc;
}

/* 1 when path holds an SQLite database (standard input is never one: it is read once). */
static int is_database(const char *path, int kind)
{
    if (kind == TT_SKIND_DATABASE)
        return 1;
    if (kind != TT_SKIND_UNKNOWN || !strcmp(path, "-"))
        return 0;
    tt_input *in;
    tt_error err = {0};
    const unsigned char *p;
    size_t n;
    if (cli_input_open(&in, path, 1, &err)) /* a pipe is kept for the raw reader */
        return 0; /* the raw reader reports it */
    /* enough of the schema to tell a btrace iOS database (a raw input) from ours */
    int db = !tt_input_peek(in, &p, &n, 65536, &err) &&
             tt_samples_detect(p, n) == TT_SKIND_DATABASE;
    tt_input_close(in);
    return db;
}

/* Options that only apply to raw inputs: the first one given, for the error message. */
static const char *raw_only(int ch)
{
    switch (ch) {
    case 'm': return "-m";
    case 'e': return "-e";
    case CLI_SYM_O_SYMBOLS: return "--symbols";
    case CLI_SYM_O_SWIFT: return "--swift-demangler";
    case CS_EVENT: return "--event";
    case CS_IDENT: return "--frame-identity";
    case CS_KEEP_RT: return "--keep-runtime-frames";
    case CS_MAXGAP: return "--max-gap";
    case CS_SLICE_END: return "--slice-end";
    case CS_END_PAD: return "--end-pad";
    case CS_NO_MSG_SPLIT: return "--no-msg-split";
    case CS_LOOP: return "--loop-frame";
    case CS_MARK_GAPS: return "--mark-gaps";
    default: return NULL;
    }
}

/* ---- KSCrash / Matrix iOS reports (spec/ios.md 9.3): folded stacks only ---- */

/* Options that do not apply to iOS reports: the first one given, for the error message */
static const char *ios_unused(int ch)
{
    switch (ch) {
    case O_FORMAT: case 'o': case 'e': case 'h': case CLI_SYM_O_SYMBOLS: case CLI_SYM_O_SWIFT:
    case CS_WEIGHT:
        return NULL;
    case 'm': return "-m";
    case O_CEV: return "--chrome-events";
    case O_CSAMPLES: return "--chrome-samples";
    case O_REL: return "--relative-time";
    case O_ROOT: return "--folded-root";
    case O_TRACE: return "--trace";
    case CS_KIND: return "--kind";
    case CS_THREAD: return "--thread";
    case CS_JOBS: return "--jobs";
    default: return raw_only(ch) ? raw_only(ch) : "this option";
    }
}

/* 1 when path holds KSCrash or Matrix iOS reports. Standard input is not looked at (it
 * would be kept whole before any check); a FIFO is, once cli_trace_paths_check kept it. */
static int is_ios(const char *path)
{
    return strcmp(path, "-") && cli_ks_file_is_ios(path);
}

static size_t count_ios(char **files, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += (size_t)is_ios(files[i]);
    return k;
}

static int export_ios(char **files, size_t n, int format, const cli_samples_opts *so,
                      int weight_repeat, const char *unused, const char *outpath, cli_ctx *ctx)
{
    for (size_t i = 0; i < n; i++) {
        if (is_ios(files[i]))
            continue;
        if (!strcmp(files[i], "-")) {
            cli_errorf("export: standard input is never taken for a KSCrash or Matrix iOS "
                       "report, and those are exported on their own");
            return CLI_BAD;
        }
        tt_input *in;
        tt_error e = {0};
        if (cli_input_open(&in, files[i], 1, &e))
            return cli_err(&e); /* what is wrong with it comes first */
        tt_input_close(in);
        cli_errorf("export: %s: no KSCrash or Matrix iOS report, and those are exported on "
                   "their own", files[i]);
        return CLI_BAD;
    }
    if (format != TT_EXPORT_FOLDED) {
        cli_errorf("%s: a KSCrash or Matrix iOS report: export writes it as --format folded "
                   "only (tracetool report or analyze read it otherwise)", files[0]);
        return CLI_BAD;
    }
    if (unused || (so->weight >= 0 && so->weight != TT_WEIGHT_SAMPLES)) {
        cli_errorf("export: %s does not apply to KSCrash or Matrix iOS reports (--weight "
                   "samples or repeat)", unused ? unused : "--weight");
        return CLI_BAD;
    }
    cli_ks_opts ko = {.format = CLI_KS_FOLDED, .interval_ms = 50, .sym = so->sym,
                      .weight_repeat = weight_repeat, .aggregate = 1};
    sink s;
    int rc = open_out(&s, outpath);
    if (rc)
        return rc;
    ko.out = s.o;
    rc = cli_ks_run(&ko, files, (int)n, ctx);
    tt_error err = {0};
    rc = close_out(&s, outpath, s.f && (fflush(s.f) || ferror(s.f)) ? TT_EIO : 0, &err, rc);
    if (!rc)
        cli_stats_report(ctx->stats);
    return rc;
}

int cmd_export(int argc, char **argv, cli_ctx *ctx)
{
    static const char *const formats[] = {"chrome", "folded", "speedscope", "art-trace", NULL};
    static const char *const cevs[] = {"x", "be", NULL};
    static const char *const roots[] = {"thread", "process", "none", NULL};
    cli_samples_opts so;
    cli_samples_opts_init(&so);
    so.allow_beat = 1;
    tt_export_opts eo;
    tt_export_opts_init(&eo);
    eo.version = TRACETOOL_VERSION;
    eo.stats = ctx->stats;
    int format = -1, v;
    const char *outpath = NULL, *raw_opt = NULL, *ios_opt = NULL;
    int weight_repeat = 0;
    int64_t want[64];
    size_t nwant = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "o:m:e:h", longopts, NULL)) != -1) {
        if (!raw_opt)
            raw_opt = raw_only(ch);
        if (!ios_opt)
            ios_opt = ios_unused(ch);
        if (ch == CS_WEIGHT) { /* the last --weight counts */
            weight_repeat = !strcmp(optarg, "repeat"); /* iOS point stacks (ios.md 9.3) */
            if (weight_repeat) {
                so.weight = TT_WEIGHT_DEFAULT;
                continue;
            }
        }
        int r = cli_samples_opt(&so, ch, optarg);
        if (r < 0)
            return CLI_BAD;
        if (r)
            continue;
        switch (ch) {
        case O_FORMAT:
            if ((format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case 'o': outpath = optarg; break;
        case O_CEV:
            if ((v = cli_opt_enum("--chrome-events", optarg, cevs)) < 0)
                return CLI_BAD;
            eo.be_events = v;
            break;
        case O_CSAMPLES: eo.chrome_samples = 1; break;
        case O_REL: eo.relative_time = 1; break;
        case O_ROOT:
            if ((v = cli_opt_enum("--folded-root", optarg, roots)) < 0)
                return CLI_BAD;
            eo.folded_root = v;
            break;
        case O_TRACE:
            if (nwant == 64) {
                cli_errorf("too many --trace options (at most 64)");
                return CLI_BAD;
            }
            if (cli_opt_i64("--trace", optarg, &want[nwant]))
                return CLI_BAD;
            nwant++;
            break;
        case 'm':
            if (so.nmaps == 64) {
                cli_errorf("too many -m options (at most 64)");
                return CLI_BAD;
            }
            so.maps[so.nmaps++] = cli_opt_input(optarg);
            break;
        case 'h': return cli_usage(usage, 0);
        default: return cli_usage(usage, 1);
        }
    }
    if (format < 0) {
        cli_errorf("export: --format is required (chrome, folded, speedscope or art-trace)");
        return cli_usage(usage, 1);
    }
    if (argc - optind < 1) {
        cli_errorf("export: missing INPUT");
        return cli_usage(usage, 1);
    }
    /* cli.md "Outputs": binary is never written to a terminal; refused before any input is
     * read */
    if (format == TT_EXPORT_ART && (!outpath || !strcmp(outpath, "-")) &&
        isatty(STDOUT_FILENO)) {
        cli_errorf("export: art-trace is binary: not written to a terminal (use -o FILE or "
                   "redirect standard output)");
        return CLI_BAD;
    }
    if (format == TT_EXPORT_ART)
        cli_out_binary(1); /* written as it is, not as text */
    char **files = argv + optind;
    size_t n = (size_t)(argc - optind), ndb = 0;
    if (cli_trace_paths_check(files, argc - optind,
                              (so.kind ? CLI_TRACE_FORCED : 0) | CLI_TRACE_DB | CLI_TRACE_IOS,
                              cli_samples_check_stream))
        return CLI_BAD;
    if (!so.kind && count_ios(files, n))
        return export_ios(files, n, format, &so, weight_repeat, ios_opt, outpath, ctx);
    if (weight_repeat) {
        cli_errorf("export: --weight repeat applies to KSCrash and Matrix iOS reports "
                   "(samples, wall, cpu or period for other inputs)");
        return CLI_BAD;
    }
    for (size_t i = 0; i < n; i++)
        ndb += (size_t)is_database(files[i], so.kind);
    if (ndb && n > 1) {
        cli_errorf("export: a database is exported on its own: give it as the only INPUT "
                   "(analyze raw inputs into it first)");
        return CLI_BAD;
    }
    if (ndb && raw_opt) {
        cli_errorf("export: %s applies to raw inputs; %s holds what analyze built from them",
                   raw_opt, files[0]);
        return CLI_BAD;
    }
    if (!ndb && nwant) {
        cli_errorf("export: --trace selects traces of a database written by tracetool analyze");
        return CLI_BAD;
    }
    eo.slice = so.slice;
    eo.weight = so.weight;
    if (ndb)
        return export_db(files[0], want, nwant, format, &eo, &so, outpath, ctx);
    return export_raw(files, n, format, &eo, &so, outpath, ctx);
}
