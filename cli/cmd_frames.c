/* tracetool frames: frame drops, FPS and jank per scene (spec/frames.md): the native
 * model (section 6), Matrix replays (section 3) and Matrix FPS reports (7.1). */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_frames.h"

static const char usage[] =
    "usage: tracetool frames [--format text|json|jsonl|csv] [--model MODEL] [--kind KIND]\n"
    "                        [--drop-levels matrix|scaled] [--levels N,N,N,N]\n"
    "                        [--refresh-hz HZ] [--slow-ms MS] [--frozen-ms MS]\n"
    "                        [--jank-multiplier X] [--jank-basis total|ui] [--window-ms MS]\n"
    "                        [--matrix-b-path looper|frame-metrics] [--matrix-version V]\n"
    "                        [--time-slice-ms MS] FILE...\n"
    "\n"
    "      --format FMT        text (default), json, csv; jsonl for Matrix replays\n"
    "      --model MODEL       native (default), matrix-a1, matrix-a2, matrix-b, matrix-c\n"
    "      --kind KIND         auto (default), jsonl, framestats, report\n"
    "      --drop-levels MODE  matrix (unscaled, default) or scaled (60 Hz-equivalent)\n"
    "      --levels N,N,N,N    drop-level thresholds (default 3,9,24,42)\n"
    "      --refresh-hz HZ     refresh rate of frames that do not give one (default 60)\n"
    "      --slow-ms MS        slow frame: total time above MS (default 16)\n"
    "      --frozen-ms MS      frozen frame: total time above MS (default 700)\n"
    "      --jank-multiplier X janky: duration above X times the deadline (default 2.0)\n"
    "      --jank-basis B      total (frame time, default) or ui (UI-thread time)\n"
    "      --window-ms MS      time-series window (default 1000)\n"
    "      --matrix-b-path P   matrix-b: looper (default) or frame-metrics\n"
    "      --matrix-version V  Matrix version replayed by matrix-b (2.0.5+: fps cap 0)\n"
    "      --time-slice-ms MS  Matrix report budget (default 10000)\n"
    "  -h, --help              show this help\n";

enum { O_FORMAT = 256, O_MODEL, O_KIND, O_DROP, O_LEVELS, O_REFRESH, O_SLOW, O_FROZEN, O_JMUL,
       O_JBASIS, O_WINDOW, O_BPATH, O_MVER, O_SLICE };

static const struct option longopts[] = {
    {"format", required_argument, NULL, O_FORMAT},
    {"model", required_argument, NULL, O_MODEL},
    {"kind", required_argument, NULL, O_KIND},
    {"drop-levels", required_argument, NULL, O_DROP},
    {"levels", required_argument, NULL, O_LEVELS},
    {"refresh-hz", required_argument, NULL, O_REFRESH},
    {"slow-ms", required_argument, NULL, O_SLOW},
    {"frozen-ms", required_argument, NULL, O_FROZEN},
    {"jank-multiplier", required_argument, NULL, O_JMUL},
    {"jank-basis", required_argument, NULL, O_JBASIS},
    {"window-ms", required_argument, NULL, O_WINDOW},
    {"matrix-b-path", required_argument, NULL, O_BPATH},
    {"matrix-version", required_argument, NULL, O_MVER},
    {"time-slice-ms", required_argument, NULL, O_SLICE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *const formats[] = {"text", "json", "jsonl", "csv", NULL};
static const char *const models[] = {"native", "matrix-a1", "matrix-a2", "matrix-b",
                                     "matrix-c", NULL};
static const char *const kinds[] = {"auto", "jsonl", "framestats", "report", NULL};
static const char *const dropmodes[] = {"matrix", "scaled", NULL};
static const char *const bases[] = {"total", "ui", NULL};
static const char *const bpaths[] = {"looper", "frame-metrics", NULL};

static int opt_double(const char *opt, const char *val, double min, double max, double *out)
{
    double v;
    if (cli_opt_real(val, &v, NULL) || !(v >= min) || !(v <= max)) {
        cli_errorf("option %s: expected a number from %g to %g, got \"%s\"", opt, min, max, val);
        return CLI_BAD;
    }
    *out = v;
    return 0;
}

static int opt_ms_ns(const char *opt, const char *val, int64_t *out)
{
    double ms;
    if (opt_double(opt, val, 0, 1e9, &ms))
        return CLI_BAD;
    *out = (int64_t)llround(ms * 1e6);
    return 0;
}

static int opt_levels(const char *val, int32_t t[4])
{
    const char *p = val;
    for (int i = 0; i < 4; i++) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || end == p || end != p + cli_num_span(p, 0) || v < 0 || v > 1000000000 || (i && v < t[i - 1]) ||
            (i < 3 ? *end != ',' : *end != 0)) {
            cli_errorf("option --levels: expected four non-decreasing integers such as "
                       "3,9,24,42, got \"%s\"",
                       val);
            return CLI_BAD;
        }
        t[i] = (int32_t)v;
        p = end + 1;
    }
    return 0;
}

/* "2.0.5" -> 20005; 0 on error. */
static int parse_version(const char *s)
{
    int a = 0, b = 0, c = 0;
    char tail;
    if (strspn(s, "0123456789.") != strlen(s)) /* sscanf's blanks and signs too */
        return 0;
    int n = sscanf(s, "%d.%d.%d%c", &a, &b, &c, &tail);
    if (n < 2 || n > 3 || a < 0 || b < 0 || c < 0 || a > 99 || b > 99 || c > 99)
        return 0;
    return a * 10000 + b * 100 + c;
}

/* Reads one per-frame input into f. */
static int read_frames(tt_frames *f, tt_input *in, int kind, cli_ctx *ctx)
{
    tt_error err = {0};
    tt_frames_reader *r;
    if (tt_frames_reader_new(&r, in, kind, &err))
        return cli_err(&err);
    const char *name = tt_input_name(in);
    int rc;
    tt_frame_rec rec;
    while ((rc = tt_frames_reader_next(r, &rec, &err)) == 0) {
        if (rec.skip == TT_FSKIP_INVALID || rec.skip == TT_FSKIP_OUTLIER) {
            char ex[300];
            snprintf(ex, sizeof ex, "%s:%llu", name, (unsigned long long)rec.line);
            tt_stats_add(ctx->stats,
                         rec.skip == TT_FSKIP_INVALID ? "frames_invalid_skipped"
                                                      : "frames_outliers_skipped",
                         name, TT_SEV_WARN, 1, ex);
        }
        if ((rc = tt_frames_add(f, &rec, name, &err)))
            break;
    }
    tt_frames_reader_free(r);
    if (rc != TT_DONE)
        return cli_err(&err);
    return 0;
}

/* A FIFO or device that outgrows memory and is no frames input: the reader's refusal. */
static int check_stream(tt_input *head, const char *path, void *ud, tt_error *err)
{
    const unsigned char *p;
    size_t n;
    tt_frames_reader *r;
    (void)path;
    (void)ud;
    int rc = tt_input_peek(head, &p, &n, 64 * 1024, err);
    if (rc || tt_frames_detect((const char *)p, n) != TT_FIN_UNKNOWN)
        return rc;
    if (!(rc = tt_frames_reader_new(&r, head, TT_FIN_UNKNOWN, err)))
        tt_frames_reader_free(r);
    return rc;
}

/* refused: the level option reports cannot honour (cli_frames_read_reports), or NULL. */
static int read_input(tt_frames *f, const char *path, int kind, const char *refused,
                      cli_ctx *ctx)
{
    tt_error err = {0};
    tt_input *in;
    if (cli_input_open(&in, path, 0, &err))
        return cli_err(&err);
    int k = kind;
    if (k == TT_FIN_UNKNOWN) {
        const unsigned char *p;
        size_t n;
        if (tt_input_peek(in, &p, &n, 64 * 1024, &err)) {
            tt_input_close(in);
            return cli_err(&err);
        }
        k = tt_frames_detect((const char *)p, n);
    }
    int rc = k == TT_FIN_REPORT ? cli_frames_read_reports(f, in, refused, ctx)
                                : read_frames(f, in, k, ctx);
    tt_input_close(in);
    return rc;
}

typedef struct run_opts {
    int format, kind, version;
} run_opts;

static int parse_args(int argc, char **argv, tt_frames_opts *o, run_opts *ro)
{
    int c, v;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case O_FORMAT:
            if ((ro->format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_MODEL:
            if ((o->model = cli_opt_enum("--model", optarg, models)) < 0)
                return CLI_BAD;
            break;
        case O_KIND:
            if ((ro->kind = cli_opt_enum("--kind", optarg, kinds)) < 0)
                return CLI_BAD;
            break;
        case O_DROP:
            if ((o->scaled = cli_opt_enum("--drop-levels", optarg, dropmodes)) < 0)
                return CLI_BAD;
            break;
        case O_LEVELS:
            if (opt_levels(optarg, o->levels))
                return CLI_BAD;
            o->has_levels = 1;
            break;
        case O_REFRESH:
            if (opt_double("--refresh-hz", optarg, TT_REFRESH_HZ_MIN, TT_REFRESH_HZ_MAX,
                           &o->refresh_hz))
                return CLI_BAD;
            break;
        case O_SLOW:
            if (opt_ms_ns("--slow-ms", optarg, &o->slow_ns))
                return CLI_BAD;
            o->has_slow = 1;
            break;
        case O_FROZEN:
            if (opt_ms_ns("--frozen-ms", optarg, &o->frozen_ns))
                return CLI_BAD;
            o->has_frozen = 1;
            break;
        case O_JMUL:
            if (opt_double("--jank-multiplier", optarg, 0.001, 1e6, &o->jank_multiplier))
                return CLI_BAD;
            break;
        case O_JBASIS:
            if ((o->jank_ui = cli_opt_enum("--jank-basis", optarg, bases)) < 0)
                return CLI_BAD;
            break;
        case O_WINDOW:
            if (cli_opt_int("--window-ms", optarg, 1, 2000000000, &v))
                return CLI_BAD;
            o->window_ms = v;
            break;
        case O_BPATH:
            if ((o->b_frame_metrics = cli_opt_enum("--matrix-b-path", optarg, bpaths)) < 0)
                return CLI_BAD;
            break;
        case O_MVER:
            if (!(ro->version = parse_version(optarg))) {
                cli_errorf("option --matrix-version: expected a version such as 2.0.8, got "
                           "\"%s\"",
                           optarg);
                return CLI_BAD;
            }
            break;
        case O_SLICE:
            if (cli_opt_int("--time-slice-ms", optarg, 1, 2000000000, &v))
                return CLI_BAD;
            o->time_slice_ms = v;
            break;
        case 'h': return -1;
        default: return cli_usage(usage, 1);
        }
    }
    return 0;
}

/* Option combinations that have no meaning (decisions written in the man page). */
static int check_combos(const tt_frames_opts *o, const run_opts *ro)
{
    int replay = o->model != TT_FMODEL_NATIVE;
    if (replay && o->scaled) {
        cli_errorf("--drop-levels scaled applies to the native model only (Matrix never "
                   "scales its levels)");
        return CLI_BAD;
    }
    if (!replay && ro->format == 2) {
        cli_errorf("--format jsonl prints Matrix replay reports; give --model matrix-...");
        return CLI_BAD;
    }
    if (replay && ro->kind == TT_FIN_REPORT) {
        cli_errorf("Matrix reports are aggregates and cannot be replayed by --model %s",
                   tt_fmodel_name(o->model));
        return CLI_BAD;
    }
    return 0;
}

int cmd_frames(int argc, char **argv, cli_ctx *ctx)
{
    tt_frames_opts o = {0};
    run_opts ro = {0};
    int rc = parse_args(argc, argv, &o, &ro);
    if (rc < 0)
        return cli_usage(usage, 0);
    if (rc)
        return rc;
    if (optind >= argc) {
        cli_errorf("frames: missing FILE");
        return cli_usage(usage, 1);
    }
    if ((rc = check_combos(&o, &ro)) ||
        (rc = cli_trace_paths_check(argv + optind, argc - optind,
                                    ro.kind ? CLI_TRACE_FORCED : 0, check_stream)))
        return rc;
    /* Matrix v2.0.5-v2.0.8 on API < 26 (Looper path): the fps cap is never set (3.3) */
    o.b_cap_zero = ro.version >= 20005 && !o.b_frame_metrics;
    o.no_series = ro.format != 1; /* only JSON prints the series */
    tt_frames *f;
    tt_error err = {0};
    if (tt_frames_new(&f, &o, &err))
        return cli_err(&err);
    /* reports carry the device's level counts (frames.md 5: the output names the mode) */
    const char *refused = o.scaled ? "--drop-levels scaled" : o.has_levels ? "--levels" : NULL;
    for (int i = optind; i < argc && !rc; i++)
        rc = read_input(f, argv[i], ro.kind, refused, ctx);
    if (!rc && tt_frames_finish(f, &err)) {
        if (!err.file[0]) /* a limit over all inputs: name them */
            snprintf(err.file, sizeof err.file, "%s%s", argv[optind],
                     argc - optind > 1 ? " ..." : "");
        rc = cli_err(&err);
    }
    if (!rc) {
        if (tt_frames_jank_fallback(f))
            tt_stats_add(ctx->stats, "jank_basis_fallback", "", TT_SEV_WARN, 1,
                         "--jank-basis ui: some frames have no UI-thread durations; their "
                         "total time was used");
        cli_frames_print(f, ro.format);
        cli_stats_report(ctx->stats);
    }
    tt_frames_free(f);
    return rc;
}
