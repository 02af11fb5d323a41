/* tracetool startup: startup segments, Matrix's startup replay and threshold verdicts
 * (spec/startup.md). Output writers are in cli_startup_out.c. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli_load.h"
#include "cli_startup.h"

static const char usage[] =
    "usage: tracetool startup [--format text|json|jsonl|csv] [--table startups|launches]\n"
    "                         [--matrix-compat] [--splash LIST] [--cold-ms MS] [--warm-ms MS]\n"
    "                         [--no-ui-process] [--beat BUFFER] [-m MAPPING]... [--base-ms MS]\n"
    "                         [--force-stack] [--buffer-format auto|bin|text]\n"
    "                         [--kind auto|events|launches|report] [--fail-on-flag]\n"
    "                         [--max-median-ms MS] [--max-p90-ms MS] FILE...\n"
    "\n"
    "      --format FMT        text (default), json (startup.md 5.5), jsonl, csv\n"
    "      --table T           csv table: startups (default) or launches\n"
    "      --matrix-compat     print the reports Matrix's state machine emits (jsonl or json)\n"
    "      --splash LIST       Matrix splash activities, ';'-separated class names\n"
    "      --cold-ms MS        Matrix cold threshold (default 10000); --cold-threshold-ms\n"
    "      --warm-ms MS        Matrix warm threshold (default 4000); --warm-threshold-ms\n"
    "      --no-ui-process     the process has no activities (Matrix hasActivity = false)\n"
    "      --beat BUFFER       method-beat buffer covering the startup (stacks)\n"
    "  -m, --mapping FILE      methodMapping.txt for method names (repeatable)\n"
    "      --base-ms MS        buffer time base (default: time_base event, else first_method)\n"
    "      --force-stack       compute the Matrix stack of every cold start\n"
    "      --buffer-format F   auto (by content, default), bin, text\n"
    "      --kind KIND         input kind: auto (by content, default), events, launches, report\n"
    "      --fail-on-flag      exit 1 when a startup is over a Matrix or Play vitals threshold\n"
    "      --max-median-ms MS  exit 1 when the median TotalTime of launches exceeds MS\n"
    "      --max-p90-ms MS     exit 1 when the p90 TotalTime of launches exceeds MS\n"
    "  -h, --help              show this help\n";

enum { O_FORMAT = 256, O_TABLE, O_MATRIX, O_SPLASH, O_COLD, O_WARM, O_NOUI, O_BEAT, O_BASE,
       O_FORCE, O_BUFFMT, O_KIND, O_FAILFLAG, O_MAXMED, O_MAXP90 };

static const struct option longopts[] = {
    {"format", required_argument, NULL, O_FORMAT},
    {"table", required_argument, NULL, O_TABLE},
    {"matrix-compat", no_argument, NULL, O_MATRIX},
    {"splash", required_argument, NULL, O_SPLASH},
    {"cold-ms", required_argument, NULL, O_COLD},
    {"cold-threshold-ms", required_argument, NULL, O_COLD},
    {"warm-ms", required_argument, NULL, O_WARM},
    {"warm-threshold-ms", required_argument, NULL, O_WARM},
    {"no-ui-process", no_argument, NULL, O_NOUI},
    {"beat", required_argument, NULL, O_BEAT},
    {"mapping", required_argument, NULL, 'm'},
    {"base-ms", required_argument, NULL, O_BASE},
    {"force-stack", no_argument, NULL, O_FORCE},
    {"buffer-format", required_argument, NULL, O_BUFFMT},
    {"kind", required_argument, NULL, O_KIND},
    {"fail-on-flag", no_argument, NULL, O_FAILFLAG},
    {"max-median-ms", required_argument, NULL, O_MAXMED},
    {"max-p90-ms", required_argument, NULL, O_MAXP90},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *const formats[] = {"text", "json", "jsonl", "csv", NULL};
static const char *const tables[] = {"startups", "launches", NULL};
static const char *const buffmts[] = {"auto", "bin", "text", NULL};
static const char *const kinds[] = {"auto", "events", "launches", "report", NULL};

typedef struct opts {
    tt_su_opts su;
    int format, table, matrix, buffmt, kind, fail_flag;
    int64_t max_median, max_p90;
    int have_median, have_p90;
    const char *beat;
    char *maps[64];
    size_t nmaps;
} opts;

static int parse_opts(opts *o, int argc, char **argv, int *done)
{
    int c;
    *done = 0;
    while ((c = getopt_long(argc, argv, "m:h", longopts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case O_FORMAT: bad = (o->format = cli_opt_enum("--format", optarg, formats)) < 0; break;
        case O_TABLE: bad = (o->table = cli_opt_enum("--table", optarg, tables)) < 0; break;
        case O_MATRIX: o->matrix = 1; break;
        case O_SPLASH: o->su.splash = optarg; break;
        case O_COLD:
            bad = cli_opt_ms_nonneg("--cold-ms", optarg, &o->su.cold_ms) != 0;
            o->su.has_cold_ms = 1;
            break;
        case O_WARM:
            bad = cli_opt_ms_nonneg("--warm-ms", optarg, &o->su.warm_ms) != 0;
            o->su.has_warm_ms = 1;
            break;
        case O_NOUI: o->su.no_ui = 1; break;
        case O_BEAT: o->beat = cli_opt_input(optarg); break;
        case 'm':
            if (o->nmaps == 64) {
                cli_errorf("too many -m options (at most 64)");
                return CLI_BAD;
            }
            o->maps[o->nmaps++] = cli_opt_input(optarg);
            break;
        case O_BASE:
            bad = cli_opt_ms("--base-ms", optarg, &o->su.base_ms) != 0;
            o->su.have_base = 1;
            break;
        case O_FORCE: o->su.force_stack = 1; break;
        case O_BUFFMT: bad = (o->buffmt = cli_opt_enum("--buffer-format", optarg, buffmts)) < 0;
            break;
        case O_KIND: bad = (o->kind = cli_opt_enum("--kind", optarg, kinds)) < 0; break;
        case O_FAILFLAG: o->fail_flag = 1; break;
        case O_MAXMED:
            bad = cli_opt_ms_nonneg("--max-median-ms", optarg, &o->max_median) != 0;
            o->have_median = 1;
            break;
        case O_MAXP90:
            bad = cli_opt_ms_nonneg("--max-p90-ms", optarg, &o->max_p90) != 0;
            o->have_p90 = 1;
            break;
        case 'h': *done = 1; return cli_usage(usage, 0);
        default: return cli_usage(usage, 1);
        }
        if (bad)
            return CLI_BAD;
    }
    if (optind >= argc) {
        cli_errorf("startup: missing FILE");
        return cli_usage(usage, 1);
    }
    if (o->matrix && o->format == 3) {
        cli_errorf("--matrix-compat prints report objects: use --format jsonl or json");
        return CLI_BAD;
    }
    return 0;
}

/* Reads the whole buffer: the Matrix slice and native windows index into it. At most
 * TT_LINE_MAX bytes (8 Matrix rings), so an endless stream cannot take all memory. */
static int load_beat(tt_vec *v, tt_input *in, int fmt)
{
    tt_error err = {0};
    tt_beat_reader *r;
    if (tt_beat_reader_new(&r, in, fmt, &err))
        return cli_err(&err);
    int rc = 0;
    for (;;) {
        if (v->len * sizeof(uint64_t) >= TT_LINE_MAX) {
            cli_errorf("%s: method-beat buffer longer than %zu records (64 MiB)",
                       tt_input_name(in), TT_LINE_MAX / sizeof(uint64_t));
            rc = CLI_BAD;
            break;
        }
        if (tt_vec_reserve(v, v->len + 4096)) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
            break;
        }
        size_t n;
        int r2 = tt_beat_reader_next(r, (uint64_t *)v->data + v->len, 4096, &n, &err);
        if (r2 == TT_DONE)
            break;
        if (r2) {
            rc = cli_err(&err);
            break;
        }
        v->len += n;
    }
    tt_beat_reader_free(r);
    return rc;
}

typedef struct src {
    const char *path;
    tt_input *in;   /* open, nothing consumed yet */
    int kind, text;
} src;

#define NOT_STARTUP "not a startup event stream, logcat, am start -W output, Matrix report, " \
                    "method-beat buffer or mapping (use --kind)"

/* A FIFO or device that outgrows memory and is of no startup kind: open_input's refusal. */
static int check_stream(tt_input *head, const char *path, void *ud, tt_error *err)
{
    const unsigned char *p;
    size_t n;
    (void)ud;
    int rc = tt_input_peek(head, &p, &n, 4096, err);
    if (rc || tt_su_detect((const char *)p, n) != TT_SU_IN_UNKNOWN)
        return rc;
    return tt_error_set(err, TT_EFORMAT, strcmp(path, "-") ? path : "<stdin>", 0, 0,
                        NOT_STARTUP);
}

static int open_input(src *x, const char *path, int kind)
{
    tt_error err = {0};
    x->path = path;
    x->kind = kind;
    /* standard input, a FIFO or a device is kept in a copy (cli_input.c), so that a text log
     * can be read a second time like a file (read_one); an unknown kind is refused from the
     * head of a stream that outgrows memory */
    if (cli_input_is_stream(path)
            ? cli_input_open_checked(&x->in, path, kind == TT_SU_IN_UNKNOWN ? check_stream : NULL,
                                     NULL, &err)
            : cli_input_open(&x->in, path, 0, &err))
        return cli_err(&err);
    const unsigned char *p;
    size_t n;
    if (tt_input_peek(x->in, &p, &n, 4096, &err)) {
        tt_input_close(x->in);
        x->in = NULL;
        return cli_err(&err);
    }
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    x->text = !(i < n && (p[i] == '{' || p[i] == '['));
    if (x->kind == TT_SU_IN_UNKNOWN)
        x->kind = tt_su_detect((const char *)p, n);
    if (x->kind == TT_SU_IN_UNKNOWN) {
        cli_errorf("%s: " NOT_STARTUP, tt_input_name(x->in));
        tt_input_close(x->in);
        x->in = NULL;
        return CLI_BAD;
    }
    return 0;
}

static int read_kind(tt_startup *s, tt_input *in, int kind, tt_stats *stats, tt_error *err)
{
    if (kind == TT_SU_IN_EVENTS)
        return tt_startup_read_events(s, in, err);
    if (kind == TT_SU_IN_LAUNCHES)
        return tt_startup_read_launches(s, in, err);
    return cli_startup_read_reports(s, in, stats, err);
}

/* One input. A text log (logcat) may hold Displayed lines and Matrix report lines
 * together: it is then read twice, once for each (standard input and FIFOs from their
 * copy). */
static int read_one(tt_startup *s, src *x, tt_stats *stats)
{
    tt_error err = {0};
    int rc = read_kind(s, x->in, x->kind, stats, &err);
    tt_input_close(x->in);
    x->in = NULL;
    if (x->text && x->kind != TT_SU_IN_EVENTS && (rc == 0 || rc == TT_ENOTFOUND)) {
        int first = rc;
        src y;
        if ((rc = open_input(&y, x->path, x->kind)))
            return rc;
        tt_error err2 = {0};
        rc = read_kind(s, y.in, x->kind == TT_SU_IN_LAUNCHES ? TT_SU_IN_REPORT
                                                               : TT_SU_IN_LAUNCHES,
                       stats, &err2);
        tt_input_close(y.in);
        if (rc == TT_ENOTFOUND && first == TT_ENOTFOUND) /* a logcat capture of neither */
            tt_error_set(&err, TT_ENOTFOUND, x->path, TT_LOC_NONE, 0,
                         "no Displayed, Fully drawn, am start -W, Trace_StartUp or STARTUP "
                         "lines found");
        if (rc == TT_ENOTFOUND)
            rc = first; /* the first pass decides, with its own message */
        else if (rc)
            err = err2;
    }
    return rc ? cli_err(&err) : 0;
}

/* Opens every FILE; buffers and mappings among them are loaded at once (the analysis of
 * the other inputs needs them), the rest stay open for read_one. */
static int open_all(src *srcs, int n, char **paths, opts *o, tt_vec *beat, tt_vec *maps)
{
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        src *x = &srcs[i];
        if ((rc = open_input(x, paths[i], o->kind)))
            break;
        if (x->kind != TT_SU_IN_BEAT && x->kind != TT_SU_IN_MAPPING)
            continue;
        if (x->kind == TT_SU_IN_BEAT && o->beat) {
            cli_errorf("%s: a second method-beat buffer (only one buffer per run)", x->path);
            rc = CLI_BAD;
        } else if (x->kind == TT_SU_IN_BEAT) {
            o->beat = x->path;
            rc = load_beat(beat, x->in, o->buffmt);
        } else if (!strcmp(x->path, "-")) {
            cli_errorf("standard input holds a mapping: pass it with -m");
            rc = CLI_BAD;
        } else if (!tt_vec_push(maps, &x->path)) {
            rc = CLI_BAD;
        }
        tt_input_close(x->in);
        x->in = NULL;
    }
    return rc;
}

/* The CI gate of startup.md 5.3. */
static int gate(const opts *o, const tt_startup *s)
{
    int failed = 0;
    if (o->fail_flag) {
        size_t n;
        const tt_su_row *r = tt_startup_rows(s, &n);
        for (size_t i = 0; i < n; i++)
            if (r[i].vitals_excessive || r[i].matrix_over_threshold) {
                cli_stderrf("tracetool: check failed: startup %zu (%s) is over a %s "
                        "threshold\n", i + 1, tt_su_type_name(r[i].type),
                        r[i].matrix_over_threshold ? "Matrix" : "Play vitals");
                failed = 1;
            }
    }
    const tt_su_dist *d[2] = {tt_startup_am_stats(s), tt_startup_logcat_stats(s)};
    const char *what[2] = {"am start -W TotalTime", "logcat Displayed"};
    for (int i = 0; i < 2; i++) {
        if (!d[i]->count)
            continue;
        if (o->have_median && d[i]->median > o->max_median) {
            cli_stderrf("tracetool: check failed: median %s %lld ms > %lld ms\n", what[i],
                    (long long)d[i]->median, (long long)o->max_median);
            failed = 1;
        }
        if (o->have_p90 && d[i]->p90 > o->max_p90) {
            cli_stderrf("tracetool: check failed: p90 %s %lld ms > %lld ms\n", what[i],
                    (long long)d[i]->p90, (long long)o->max_p90);
            failed = 1;
        }
    }
    return failed ? CLI_CHECK_FAILED : CLI_OK;
}

int cmd_startup(int argc, char **argv, cli_ctx *ctx)
{
    opts o = {0};
    int done, rc = parse_opts(&o, argc, argv, &done);
    if (rc || done)
        return rc;
    if (cli_trace_paths_check(argv + optind, argc - optind, o.kind > 0 ? CLI_TRACE_FORCED : 0,
                              check_stream) ||
        (o.beat && cli_input_path(o.beat)))
        return CLI_BAD;
    int nsrc = argc - optind;
    src *srcs = calloc((size_t)nsrc, sizeof *srcs);
    tt_vec beat, maps;
    tt_vec_init(&beat, sizeof(uint64_t));
    tt_vec_init(&maps, sizeof(char *));
    tt_mapping *m = NULL;
    tt_startup *s = NULL;
    tt_error err = {0};
    if (!srcs) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
        goto out;
    }
    if (o.beat) {
        src b;
        if ((rc = open_input(&b, o.beat, TT_SU_IN_BEAT)))
            goto out;
        rc = load_beat(&beat, b.in, o.buffmt);
        tt_input_close(b.in);
        if (rc)
            goto out;
    }
    if ((rc = open_all(srcs, nsrc, argv + optind, &o, &beat, &maps)))
        goto out;
    for (size_t i = 0; i < o.nmaps; i++)
        if (!tt_vec_push(&maps, &o.maps[i])) {
            rc = CLI_BAD;
            goto out;
        }
    if ((rc = cli_load_mappings(&m, maps.data, maps.len, NULL, ctx->stats)))
        goto out;
    o.su.beat = beat.data;
    o.su.n_beat = beat.len;
    o.su.mapping = m;
    if (tt_startup_new(&s, &o.su, ctx->stats, &err)) {
        rc = cli_err(&err);
        goto out;
    }
    int inputs = 0;
    for (int i = 0; i < nsrc && !rc; i++)
        if (srcs[i].in) {
            inputs++;
            rc = read_one(s, &srcs[i], ctx->stats);
        }
    if (!rc && !inputs) {
        cli_errorf("startup: no event stream, launch capture or Matrix report among the inputs");
        rc = CLI_BAD;
    }
    if (!rc && tt_startup_finish(s, &err))
        rc = cli_err(&err);
    if (!rc) {
        if (o.matrix)
            cli_startup_matrix(s, o.format == 1);
        else if (o.format == 1)
            cli_startup_json(s);
        else if (o.format == 2)
            cli_startup_jsonl(s);
        else if (o.format == 3)
            cli_startup_csv(s, o.table == 1);
        else
            cli_startup_text(s);
        cli_stats_report(ctx->stats);
        rc = gate(&o, s);
    }
out:
    for (int i = 0; srcs && i < nsrc; i++)
        tt_input_close(srcs[i].in);
    free(srcs);
    tt_startup_free(s);
    tt_mapping_free(m);
    tt_vec_free(&beat);
    tt_vec_free(&maps);
    return rc;
}
