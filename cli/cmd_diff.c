/* tracetool diff: compare two builds' traces or databases by canonical name and gate CI
 * (cli.md exit codes, storage.md 8). Raw inputs are analysed into temporary databases. */
#include "cli_an.h"
#include "cli_diff.h"
#include "cli_flame.h"
#include "cli_tmpdir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: tracetool diff [--format text|json|folded-diff|svg|html] [--threshold PCT]\n"
    "                      [--min-ms MS]\n"
    "                      [--min-count N] [--top N] [--fail-on GATES]...\n"
    "                      [--base-trace ID] [--new-trace ID]\n"
    "                      [--base-mapping FILE]... [--new-mapping FILE]...\n"
    "                      [--base-proguard FILE] [--new-proguard FILE]\n"
    "                      [-o FILE] [--diff-widths new|base|sum] [--diff-color self|total]\n"
    "                      [--normalize] [--diff-min PCT] [--thread SPEC]... [FLAMEGRAPH OPTIONS]\n"
    "                      BASE NEW\n"
    "\n"
    "      --format FMT          text (default), json, folded-diff (flamegraph.pl difffolded),\n"
    "                            svg (differential flame graph) or html (the report of NEW\n"
    "                            with it; see tracetool html -h); the verdict goes to stderr\n"
    "      --threshold PCT       relative change to report and default gate (10%; 25% or 25)\n"
    "      --min-ms MS           ignore time changes smaller than MS ms (default 5)\n"
    "      --min-count N         ignore rows with fewer than N calls/issues/frames (default 1)\n"
    "      --top N               size of the hot set, methods by self time (default 10)\n"
    "      --fail-on GATES       gates replacing the defaults: METRIC=[+|-]N[%],...\n"
    "                            (repeatable: the gates add up)\n"
    "      --base-trace ID       use only this trace of the base database (default all)\n"
    "      --new-trace ID        use only this trace of the new database (default all)\n"
    "      --base-mapping FILE   methodMapping.txt for raw base inputs (repeatable)\n"
    "      --new-mapping FILE    methodMapping.txt for raw new inputs (repeatable)\n"
    "      --base-proguard FILE  ProGuard/R8 mapping.txt for raw base inputs\n"
    "      --new-proguard FILE   ProGuard/R8 mapping.txt for raw new inputs\n"
    "  -o, --output FILE         write to FILE (replaced when complete), not standard output\n"
    "      --diff-widths W       svg: widths from new (default), base, or sum of both\n"
    "      --diff-color C        svg: colour by self (default) or total difference\n"
    "      --normalize           svg: scale base to the new total first\n"
    "      --diff-min PCT        svg: differences below PCT % of the total stay neutral\n"
    "      --thread SPEC         svg: only these threads (main, tid, name with '#' digits)\n"
    "  FLAMEGRAPH OPTIONS        svg: --source --root --weight --icicle --inverted --reverse\n"
    "                            --sort --fold-recursion --focus --width --height --fontsize\n"
    "                            --minwidth --max-frames --colors --app-package --title\n"
    "                            --subtitle --countname --nametype --truncate --script,\n"
    "                            as in tracetool flamegraph -h\n"
    "  -h, --help                show this help\n"
    "BASE and NEW are databases written by analyze, or raw inputs (a file or a directory).\n"
    "Exit status: 0 no gate tripped, 1 a gate tripped, 2 error.\n";

enum { O_FORMAT = 256, O_THRESHOLD, O_MINMS, O_MINCOUNT, O_TOP, O_FAILON, O_BTRACE, O_NTRACE,
       O_BMAP, O_NMAP, O_BPG, O_NPG };
static const struct option longopts[] = {
    {"format", required_argument, NULL, O_FORMAT},
    {"threshold", required_argument, NULL, O_THRESHOLD},
    {"min-ms", required_argument, NULL, O_MINMS},
    {"min-count", required_argument, NULL, O_MINCOUNT},
    {"top", required_argument, NULL, O_TOP},
    {"fail-on", required_argument, NULL, O_FAILON},
    {"base-trace", required_argument, NULL, O_BTRACE},
    {"new-trace", required_argument, NULL, O_NTRACE},
    {"base-mapping", required_argument, NULL, O_BMAP},
    {"new-mapping", required_argument, NULL, O_NMAP},
    {"base-proguard", required_argument, NULL, O_BPG},
    {"new-proguard", required_argument, NULL, O_NPG},
    {"output", required_argument, NULL, 'o'},
    {"thread", required_argument, NULL, CF_THREAD},
    CLI_FLAME_LONGOPTS,
    CLI_FLAME_DIFF_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const char *const formats[] = {"text", "json", "folded-diff", "svg", "html", NULL};

typedef struct side {
    char **maps;
    size_t nmaps;
    const char *proguard;
    int64_t trace;
} side;

/* Makes the private directory (cli_tmpdir.h) on first use; db = side s's database in it. */
static int tmp_prepare(int s, char *db, size_t cap)
{
    static const char *const dbs[] = {"base.db", "new.db", NULL};
    if (cli_tmpdir_create("tracetool-diff", dbs))
        return CLI_BAD;
    if (cli_tmpdir_path(db, cap, dbs[s])) {
        cli_errorf("%s: temporary file name too long", db);
        return CLI_BAD;
    }
    return 0;
}

/* A side on a pipe that outgrows memory: a database (SQLite says what it is) or what analyze
 * would import; anything else is refused before it is spooled. */
static int check_side(tt_input *head, const char *path, void *ud, tt_error *err)
{
    tt_detection d;
    const unsigned char *p;
    size_t n;
    (void)ud;
    int rc = tt_input_peek(head, &p, &n, TT_DETECT_PEEK, err);
    if (!rc)
        tt_detect_full(&d, p, n);
    return rc || d.sqlite ? rc : cli_an_check_stream(head, path, NULL, err);
}

/* A side is a database when its first bytes say SQLite (but not btrace iOS); anything else is
 * analysed. */
static int is_database(const char *path, int *is_db)
{
    struct stat sb;
    int is_stdin = !strcmp(path, "-");
    if (!is_stdin && stat(path, &sb)) {
        cli_errorf("%s: %s", path, strerror(errno));
        return CLI_BAD;
    }
    *is_db = 0;
    if (!is_stdin && S_ISDIR(sb.st_mode))
        return 0;
    tt_error err = {0};
    tt_input *in;
    const unsigned char *p;
    size_t n;
    /* a pipe is read once, here, and analysed from memory */
    if (cli_input_open_checked(&in, path, check_side, NULL, &err) ||
        tt_input_peek(in, &p, &n, TT_DETECT_PEEK, &err)) {
        tt_input_close(in);
        return cli_err(&err);
    }
    tt_detection d;
    tt_detect_full(&d, p, n);
    /* a foreign or corrupt one fails with the store's message; a btrace iOS database is a
     * raw input (samples.md 2.1.6), plain or compressed */
    *is_db = d.sqlite && d.kind != TT_KIND_SAMPLES;
    tt_input_close(in);
    return 0;
}

/* One --fail-on: its gates join those of the earlier ones (an identical gate is one gate). */
static int add_gates(cli_diff_opts *o, const char *arg)
{
    tt_gate g[TT_GATES_MAX];
    size_t n;
    tt_error err = {0};
    if (tt_diff_parse_gates(g, TT_GATES_MAX, &n, arg, &err)) {
        cli_errorf("%s", err.msg);
        return CLI_BAD;
    }
    if (!o->custom_gates)
        o->ngates = 0; /* the first --fail-on replaces the defaults */
    o->custom_gates = 1;
    for (size_t i = 0; i < n; i++)
        if (tt_gate_add(o->gates, TT_GATES_MAX, &o->ngates, &g[i])) {
            cli_errorf("--fail-on: more than %d gates in all", TT_GATES_MAX);
            return CLI_BAD;
        }
    return 0;
}

static int parse_opts(int argc, char **argv, cli_diff_opts *o, side *sides,
                      cli_flame_opts *fo)
{
    int c;
    tt_error err = {0};
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        int fr = cli_flame_opt(fo, c, optarg);
        if (fr < 0)
            return CLI_BAD;
        if (fr)
            continue;
        if (c == 'o') {
            fo->output = optarg;
            continue;
        }
        side *sd = &sides[c == O_NTRACE || c == O_NMAP || c == O_NPG];
        switch (c) {
        case O_FORMAT:
            if ((o->format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_THRESHOLD:
            if (tt_diff_parse_pct(&o->threshold_pct, optarg, &err)) {
                cli_errorf("option --threshold: %s", err.msg);
                return CLI_BAD;
            }
            break;
        case O_MINMS: { /* fractional ms too (0.5): the values compared are ms with ns */
            double v;
            if (cli_opt_real(optarg, &v, NULL) || !(v >= 0 && v <= 1e12)) {
                cli_errorf("option --min-ms: expected a number of ms in 0..1e12, got \"%s\"",
                           optarg);
                return CLI_BAD;
            }
            o->min_ms = v;
            break;
        }
        case O_MINCOUNT:
            if (cli_opt_i64("--min-count", optarg, &o->min_count))
                return CLI_BAD;
            if (o->min_count < 0) {
                cli_errorf("option --min-count: expected a non-negative integer, got %s",
                           optarg);
                return CLI_BAD;
            }
            break;
        case O_TOP:
            if (cli_opt_int("--top", optarg, 0, 1000000, &o->top))
                return CLI_BAD;
            break;
        case O_FAILON:
            if (add_gates(o, optarg))
                return CLI_BAD;
            break;
        case O_BTRACE:
        case O_NTRACE:
            if (cli_opt_i64(c == O_BTRACE ? "--base-trace" : "--new-trace", optarg, &sd->trace))
                return CLI_BAD;
            if (sd->trace <= 0) {
                cli_errorf("option %s: expected a trace id >= 1, got %s",
                           c == O_BTRACE ? "--base-trace" : "--new-trace", optarg);
                return CLI_BAD;
            }
            break;
        case O_BMAP:
        case O_NMAP: sd->maps[sd->nmaps++] = cli_opt_input(optarg); break;
        case O_BPG:
        case O_NPG: sd->proguard = cli_opt_input(optarg); break;
        case 'h': return cli_usage(usage, 0) - 100;
        default: return cli_usage(usage, 1);
        }
    }
    return 0;
}

/* Analyses a raw side into the temporary database db. */
static int analyse_side(int s, const char *path, const side *sd, char *db, size_t cap,
                        cli_ctx *ctx)
{
    int rc = tmp_prepare(s, db, cap);
    if (rc)
        return rc;
    cli_ctx sctx = *ctx;
    sctx.stats = tt_stats_new();
    if (!sctx.stats) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    char *inputs[1] = {(char *)path};
    rc = cli_analyze_paths(db, sd->maps, sd->nmaps, sd->proguard, NULL, inputs, 1, &sctx);
    tt_stats_free(sctx.stats);
    return rc;
}

/* The differential flame graph of both sides (visual.md 5). */
static int draw_diff(char dbs[2][1100], const cli_diff_opts *o, const side *sides,
                     cli_flame_opts *fo, cli_ctx *ctx)
{
    if (fo->chart) {
        cli_errorf("diff: --chart does not apply to a differential flame graph");
        return CLI_BAD;
    }
    tt_flame *f;
    if (tt_flame_new(&f)) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    fo->norm_roots = 1;
    int rc = cli_flame_load_db(f, dbs[0], o->path[0], sides[0].trace, fo, 1, ctx);
    if (!rc)
        rc = cli_flame_load_db(f, dbs[1], o->path[1], sides[1].trace, fo, 0, ctx);
    if (!rc && fo->normalize && tt_flame_normalize(f)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    if (!rc) {
        tt_flame_finish(f);
        if (!tt_flame_width_of(tt_flame_node_at(f, 0), fo->widths)) {
            cli_errorf("%s: no weighted stacks to draw",
                       o->path[fo->widths == TT_FLAME_WIDTH_BASE ? 0 : 1]);
            rc = CLI_BAD;
        }
    }
    if (!rc) {
        fo->svg.diff = 1;
        rc = cli_flame_render(f, fo);
    }
    tt_flame_free(f);
    return rc;
}

int cmd_diff(int argc, char **argv, cli_ctx *ctx)
{
    char *maps[2][argc > 0 ? argc : 1];
    side sides[2] = {{.maps = maps[0]}, {.maps = maps[1]}};
    cli_diff_opts o;
    cli_diff_opts_init(&o);
    cli_flame_opts fo;
    cli_flame_opts_init(&fo);
    int rc = parse_opts(argc, argv, &o, sides, &fo);
    if (rc)
        return rc == -100 ? CLI_OK : rc;
    if (argc - optind != 2) {
        cli_errorf("diff: expected BASE and NEW, got %d argument%s", argc - optind,
                   argc - optind == 1 ? "" : "s");
        return cli_usage(usage, 1);
    }
    if (!o.custom_gates)
        cli_diff_default_gates(&o); /* at the --threshold given */
    if (cli_stdin_once(argv + optind, 2)) /* both sides, or a side and a mapping */
        return CLI_BAD;
    char dbs[2][1100];
    for (int s = 0; s < 2 && !rc; s++) {
        const char *path = argv[optind + s];
        o.path[s] = path;
        cli_out_note_input(path); /* never replaced by -o */
        if ((rc = is_database(path, &o.is_db[s])))
            break;
        if (o.is_db[s]) {
            if (sides[s].nmaps || sides[s].proguard) {
                cli_errorf("%s: is a database; --%s-mapping and --%s-proguard apply to raw "
                           "inputs", path, s ? "new" : "base", s ? "new" : "base");
                rc = CLI_BAD;
            }
            snprintf(dbs[s], sizeof dbs[s], "%s", path);
            continue;
        }
        rc = analyse_side(s, path, &sides[s], dbs[s], sizeof dbs[s], ctx);
    }
    tdb_diff *d = NULL;
    if (!rc) {
        tt_error err = {0};
        int newer[2];
        if (tdb_diff_open(&d, dbs[0], sides[0].trace, dbs[1], sides[1].trace, newer, &err)) {
            /* name the side as the user gave it, not the temporary file */
            for (int s = 0; s < 2; s++)
                if (!o.is_db[s] && !strcmp(err.file, dbs[s]))
                    snprintf(err.file, sizeof err.file, "%s", o.path[s]);
            rc = cli_err(&err);
        } else {
            for (int s = 0; s < 2; s++)
                if (newer[s])
                    cli_warnf("%s: written by a newer tracetool (schema > %d); some columns "
                              "may be missing", o.path[s], TDB_SCHEMA_VERSION);
        }
    }
    if (!rc && o.format == DIFF_HTML && tt_hreport_new(&o.report)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    if (o.format != DIFF_SVG && o.format != DIFF_HTML)
        o.output = fo.output; /* svg and html write it themselves */
    if (!rc)
        rc = cli_diff_run(d, &o);
    tdb_diff_close(d);
    if ((rc == CLI_OK || rc == CLI_CHECK_FAILED) && o.format == DIFF_HTML) {
        /* the HTML report in diff mode, with the verdict's exit code */
        char *av[8];
        int n = 0;
        av[n++] = "html";
        if (fo.output) {
            av[n++] = "-o";
            av[n++] = (char *)fo.output;
        }
        if (!fo.svg.script)
            av[n++] = "--script=none";
        av[n++] = dbs[0];
        av[n++] = dbs[1];
        av[n] = NULL;
        int hrc = cli_html_run(n, av, ctx, o.report);
        if (hrc)
            rc = hrc;
    }
    if ((rc == CLI_OK || rc == CLI_CHECK_FAILED) && o.format == DIFF_SVG) {
        /* the picture, with the verdict's exit code (visual.md 1.2) */
        int src = draw_diff(dbs, &o, sides, &fo, ctx);
        if (src)
            rc = src;
    }
    tt_hreport_free(o.report);
    cli_tmpdir_remove();
    return rc;
}
