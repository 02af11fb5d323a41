/* tracetool html: one self-contained HTML report of a database (spec/visual.md 10): tables
 * and static charts from sqlite/report.c, flame graphs, a differential one for two. */
#include "cli.h"
#include "cli_diff.h"
#include "cli_flame.h"

#include <stdlib.h>
#include <string.h>

#include "../sqlite/tdb.h"

static const char usage[] =
    "usage: tracetool html [-o FILE] [--trace ID] [--thread SPEC]... [--max-frames N]\n"
    "                      [--top N] [--script embed|none] [--orientation icicle|flame]\n"
    "                      DB [NEW_DB]\n"
    "\n"
    "  -o, --output FILE       write to FILE (via FILE.tmp-<pid>) instead of standard output\n"
    "      --trace ID          only this trace of DB (default: every trace; the flame graphs\n"
    "                          show the newest with samples or slices)\n"
    "      --thread SPEC       flame graphs of these threads only (main, tid, name with '#')\n"
    "      --max-frames N      frame budget per flame graph (default 10000)\n"
    "      --top N             rows of the ranked tables, traces drawn in fps over time\n"
    "                          (default 20)\n"
    "      --script S          embed (default: zoom, search, sorting) or none\n"
    "      --orientation O     flame graphs as icicle (default, root on top) or flame\n"
    "  -h, --help              show this help\n"
    "With NEW_DB the report shows NEW_DB and adds the differential flame graph DB -> NEW_DB.\n"
    "tracetool report --html runs this command.\n";

enum { O_TOP = 3100, O_ORIENT, O_SCRIPT };
static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"trace", required_argument, NULL, CF_TRACE},
    {"thread", required_argument, NULL, CF_THREAD},
    {"max-frames", required_argument, NULL, CF_MAXFRAMES},
    {"top", required_argument, NULL, O_TOP},
    {"script", required_argument, NULL, O_SCRIPT},
    {"orientation", required_argument, NULL, O_ORIENT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct hctx {
    cli_flame_opts base;      /* the options every graph starts from */
    tt_html_graph graphs[4];
    tt_buf svg[4];
    char titles[4][160];
    size_t n;
    cli_ctx *cli;
    tt_buf trees[TT_HREPORT_TREES]; /* the icicles of the issue call trees */
} hctx;

/* The icicle of each issue call tree in r (visual.md 10.2 item 5), ids tt5, tt6, ... */
static int tree_icicles(hctx *h, tt_hreport *r, const char *db)
{
    for (size_t i = 0; i < r->ntrees; i++) {
        if (!r->trees[i].nodes.len)
            continue;
        cli_flame_opts o = h->base;
        o.source = CF_SRC_ISSUE;
        o.source_id = r->trees[i].issue_id;
        o.nthreads = 0;
        o.svg.icicle = 1;
        if (!o.max_frames || o.max_frames > 1000) /* ten small graphs: keep the page light */
            o.max_frames = 1000;
        char prefix[8];
        snprintf(prefix, sizeof prefix, "tt%zu", 5 + i);
        o.svg.id_prefix = prefix;
        o.svg.inline_html = 1;
        o.svg.title = "Icicle Graph";
        tt_flame *f;
        if (tt_flame_new(&f)) {
            cli_errorf("out of memory");
            return CLI_BAD;
        }
        int rc = cli_flame_load_db(f, db, NULL, 0, &o, 0, h->cli);
        if (!rc) {
            tt_flame_finish(f);
            if (tt_flame_node_at(f, 0)->total) {
                rc = cli_flame_render_buf(&h->trees[i], f, &o);
                r->trees[i].svg = rc ? NULL : h->trees[i].data;
            }
        }
        tt_flame_free(f);
        if (rc)
            return rc;
    }
    return 0;
}

/* One flame graph: threads NULL = all. Returns 0 also when there is nothing to draw. */
static int graph(hctx *h, const char *db, const char *newdb, const char *main_only,
                 const char *title, int diff)
{
    cli_flame_opts o = h->base;
    tt_flame *f;
    if (tt_flame_new(&f)) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (main_only) {
        o.threads[0] = main_only;
        o.nthreads = 1;
        o.threads_optional = 1;
    }
    o.norm_roots = newdb != NULL;
    o.data_optional = 1; /* a database of reports only has no flame graph */
    int rc = cli_flame_load_db(f, db, NULL, h->base.trace, &o, newdb ? 1 : 0, h->cli);
    if (!rc && newdb)
        rc = cli_flame_load_db(f, newdb, NULL, 0, &o, 0, h->cli);
    if (rc == CLI_FLAME_NONE)
        rc = 0;
    else if (!rc) {
        tt_flame_finish(f);
        if (tt_flame_node_at(f, 0)->total) {
            char prefix[8];
            snprintf(prefix, sizeof prefix, "tt%zu", h->n + 1);
            o.svg.id_prefix = prefix;
            o.svg.inline_html = 1;
            o.svg.diff = newdb != NULL;
            rc = cli_flame_render_buf(&h->svg[h->n], f, &o);
            if (!rc) {
                snprintf(h->titles[h->n], sizeof h->titles[h->n], "%s", title);
                h->graphs[h->n] = (tt_html_graph){h->titles[h->n], h->svg[h->n].data, diff};
                h->n++;
            }
        }
    }
    tt_flame_free(f);
    return rc;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The Diff section's tables with diff's defaults (tracetool html BASE_DB NEW_DB). */
static int diff_tables(tt_hreport *r, const char *db, const char *newdb)
{
    cli_diff_opts o;
    cli_diff_opts_init(&o);
    o.format = DIFF_HTML;
    o.report = r;
    o.quiet = 1;
    o.path[0] = db;
    o.path[1] = newdb;
    o.is_db[0] = o.is_db[1] = 1;
    tdb_diff *d;
    tt_error err = {0};
    int newer[2];
    if (tdb_diff_open(&d, db, 0, newdb, 0, newer, &err))
        return cli_err(&err);
    int rc = cli_diff_run(d, &o);
    tdb_diff_close(d);
    return rc == CLI_CHECK_FAILED ? 0 : rc;
}

int cmd_html(int argc, char **argv, cli_ctx *ctx)
{
    return cli_html_run(argc, argv, ctx, NULL);
}

int cli_html_run(int argc, char **argv, cli_ctx *ctx, tt_hreport *diff_report)
{
    static const char *const scripts[] = {"embed", "none", NULL};
    static const char *const orients[] = {"icicle", "flame", NULL};
    hctx h = {.cli = ctx};
    cli_flame_opts_init(&h.base);
    h.base.max_frames = 10000;
    h.base.svg.icicle = 1;
    int top = 20, c, v;
    cli_opt_reset();
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': h.base.output = optarg; break;
        case CF_TRACE:
            if (cli_opt_i64("--trace", optarg, &h.base.trace))
                return CLI_BAD;
            if (h.base.trace <= 0) {
                cli_errorf("option --trace: expected a trace id >= 1, got %s", optarg);
                return CLI_BAD;
            }
            break;
        case CF_THREAD:
        case CF_MAXFRAMES:
            if (cli_flame_opt(&h.base, c, optarg) < 0)
                return CLI_BAD;
            break;
        case O_TOP:
            if (cli_opt_int("--top", optarg, 1, 100000, &top))
                return CLI_BAD;
            break;
        case O_SCRIPT:
            if ((v = cli_opt_enum("--script", optarg, scripts)) < 0)
                return CLI_BAD;
            h.base.svg.script = !v;
            break;
        case O_ORIENT:
            if ((v = cli_opt_enum("--orientation", optarg, orients)) < 0)
                return CLI_BAD;
            h.base.svg.icicle = !v;
            break;
        case 'h': cli_usage(usage, 0); return CLI_OK;
        default: return cli_usage(usage, 1);
        }
    }
    int n = argc - optind;
    if (n < 1 || n > 2) {
        cli_errorf("html: expected DB [NEW_DB], got %d argument%s", n, n == 1 ? "" : "s");
        return cli_usage(usage, 1);
    }
    const char *db = argv[optind], *newdb = n == 2 ? argv[optind + 1] : NULL;
    const char *shown = newdb ? newdb : db;
    for (int i = optind; i < argc; i++)
        cli_out_note_input(argv[i]); /* never replaced by -o */
    tt_error err = {0};
    tdb_db *d, *based = NULL; /* diff mode: the base database for the summary */
    int newer;
    if (tdb_open_read(&d, shown, 0, &newer, &err))
        return cli_err(&err);
    if (newdb && tdb_open_read(&based, db, 0, &newer, &err)) {
        tdb_close(d);
        return cli_err(&err);
    }
    tt_hreport *r = diff_report;
    int rc = 0;
    if (!r && tt_hreport_new(&r)) {
        tdb_close(d);
        tdb_close(based);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    int64_t lo = h.base.trace ? h.base.trace : 1, hi = h.base.trace ? h.base.trace : INT64_MAX;
    if (tdb_report_fill(r, d, based, newdb ? 1 : lo, newdb ? INT64_MAX : hi, top, &err))
        rc = cli_err(&err);
    tdb_close(d);
    tdb_close(based);
    if (!rc && newdb && !diff_report)
        rc = diff_tables(r, db, newdb);
    if (!rc)
        rc = tree_icicles(&h, r, shown);
    /* flame graphs: the main thread, then all threads (or the --thread selection) */
    if (!rc && !h.base.nthreads)
        rc = graph(&h, shown, NULL, "main", "Main thread", 0);
    if (!rc)
        rc = graph(&h, shown, NULL, NULL, h.base.nthreads ? "Selected threads" : "All threads",
                   0);
    if (!rc && newdb)
        rc = graph(&h, db, newdb, NULL, "Differential flame graph: base -> new (red: grew)", 1);
    tt_buf out = {0};
    if (!rc) {
        char title[600], inputs[1200];
        snprintf(title, sizeof title, "tracetool report: %s", base_name(shown));
        if (newdb)
            snprintf(inputs, sizeof inputs, "base %s, new %s", base_name(db), base_name(newdb));
        else
            snprintf(inputs, sizeof inputs, "database %s", base_name(db));
        tt_html_opts ho = {title, inputs, h.graphs, h.n, h.base.svg.script, NULL, newdb != NULL};
        if (tt_html_write(&out, r, &ho)) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
        } else {
            rc = cli_flame_write_file(h.base.output, &out);
        }
        if (!rc && out.len > 20u * 1024 * 1024)
            cli_warnf("the report is %zu MB: lower --max-frames or --top", out.len >> 20);
    }
    tt_buf_free(&out);
    for (size_t i = 0; i < 4; i++)
        tt_buf_free(&h.svg[i]);
    for (size_t i = 0; i < TT_HREPORT_TREES; i++)
        tt_buf_free(&h.trees[i]);
    if (r != diff_report)
        tt_hreport_free(r);
    return rc;
}
