/* tracetool flamegraph: flame graphs (SVG) and their layout (TSV) from a database or raw
 * inputs, spec/visual.md section 1.1. Raw sampled inputs drawn from their samples are
 * loaded into memory as export loads them; other raw inputs, and those drawn from their
 * slices, a call tree, a startup window or as a chart, are analysed into a temporary
 * database first. Both draw the same graph (export's numbers where a database's differ). */
#include "cli_an.h"
#include "cli_flame.h"
#include "cli_samples.h"
#include "cli_tmpdir.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: tracetool flamegraph [-o FILE] [--format svg|tsv] [--trace ID]\n"
    "                            [--source samples|slices|tree:ID|issue:ID|startup[:ID]]\n"
    "                            [--thread SPEC]...\n"
    "                            [--root thread|process|none] [--weight samples|wall|cpu|period]\n"
    "                            [--chart] [--icicle] [--reverse] [--sort name|weight]\n"
    "                            [--fold-recursion]\n"
    "                            [--focus REGEX] [--width PX] [--height PX] [--fontsize PX]\n"
    "                            [--minwidth PX|PCT%] [--max-frames N]\n"
    "                            [--colors lang|module|package|hot|mono]\n"
    "                            [--app-package PREFIX]...\n"
    "                            [--title TEXT] [--subtitle TEXT] [--countname TEXT]\n"
    "                            [--nametype TEXT] [--truncate right|left] [--script embed|none]\n"
    "                            [-m MAPPING]... [--event NAME] (DB | INPUT...)\n"
    "\n"
    "  -o, --output FILE       write to FILE (via FILE.tmp-<pid>) instead of standard output\n"
    "      --format FMT        svg (default) or tsv (the layout: depth, x, w, self, category,\n"
    "                          name per frame)\n"
    "      --trace ID          trace of a multi-trace database (default: the newest with data)\n"
    "      --source SRC        samples (default; slices when there are none), slices, one\n"
    "                          Matrix call tree: tree:ID (call_tree.id) or issue:ID, or the\n"
    "                          startup window: startup[:ID] (default: the first startup)\n"
    "      --thread SPEC       only these threads: main, a tid, or a name ('#' = digits)\n"
    "      --root R            synthetic root frames: thread (default), process, none\n"
    "      --weight W          samples (default), wall, cpu (ns, shown as ms), period\n"
    "      --chart             flame chart of one thread: calls in time order, not merged\n"
    "                          (Matrix trees: line order; alias --flamechart)\n"
    "      --icicle            root on top (alias --inverted)\n"
    "      --reverse           merge stacks leaf first (callers of the hot leaves)\n"
    "      --sort ORDER        siblings by name (default) or weight\n"
    "      --fold-recursion    collapse directly recursive frames A;A;A into A\n"
    "      --focus REGEX       only stacks with a matching frame, rooted at the outermost match\n"
    "      --width PX          image width (default 1200)\n"
    "      --height PX         row height (default 16)\n"
    "      --fontsize PX       font size (default 12)\n"
    "      --minwidth W        prune frames narrower than W px or PCT% (default 0.1)\n"
    "      --max-frames N      frame budget (default 20000, 0 = none)\n"
    "      --colors SCHEME     lang (default), module, package, hot, mono\n"
    "      --app-package P     Java package prefix of app code (repeatable)\n"
    "      --title, --subtitle, --countname, --nametype TEXT   labels\n"
    "      --truncate END      which end of a long name '..' replaces: right (default), left\n"
    "      --script S          embed (default: zoom, search) or none\n"
    "  -m, --mapping FILE      methodMapping.txt for raw method-beat inputs (repeatable)\n"
    "      --event NAME        raw perf/simpleperf inputs: the event to keep (default: the\n"
    "                          first one seen)\n"
    "  -h, --help              show this help\n";

enum { O_FORMAT = 3000, O_EVENT };
static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, O_FORMAT},
    {"trace", required_argument, NULL, CF_TRACE},
    {"thread", required_argument, NULL, CF_THREAD},
    {"mapping", required_argument, NULL, 'm'},
    {"event", required_argument, NULL, O_EVENT},
    CLI_FLAME_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* the temporary database of raw inputs: in a private directory (cli_tmpdir.h) */
static char tmp_db[1100];
static const char *const tmp_dbs[] = {"in.db", NULL};

static int analyse_raw(char **inputs, int n, char **maps, size_t nmaps, const char *event,
                       cli_ctx *ctx)
{
    if (cli_tmpdir_create("tracetool-flame", tmp_dbs))
        return CLI_BAD;
    if (cli_tmpdir_path(tmp_db, sizeof tmp_db, tmp_dbs[0])) {
        cli_errorf("%s: temporary file name too long", tmp_db);
        return CLI_BAD;
    }
    return cli_analyze_paths(tmp_db, maps, nmaps, NULL, event, inputs, n, ctx);
}

static int is_db(const char *path)
{
    struct stat sb;
    if (!strcmp(path, "-") || stat(path, &sb) || !S_ISREG(sb.st_mode))
        return 0;
    tt_error err = {0};
    tt_input *in;
    const unsigned char *p;
    size_t n;
    int r = 0;
    if (!tt_input_open(&in, path, &err) && !tt_input_peek(in, &p, &n, 512, &err))
        r = tt_detect(p, n) == TT_KIND_DATABASE;
    tt_input_close(in);
    return r;
}

/* 1 when every input is a raw sampled-stack file (perf script, simpleperf, btrace sampling
 * or its mapping, folded, JSON-lines samples) or standard input holding one, and the graph
 * is of their samples: loaded in memory (cli_flame_load_raw), without a database. Anything
 * else (a directory, a missing file, another kind) takes the analyze path and its
 * messages. */
static int sampled_only(char **inputs, int n, size_t nmaps, const cli_flame_opts *o)
{
    if (nmaps || o->chart || o->source != CF_SRC_SAMPLES || o->trace ||
        n > CLI_SAMPLES_MAX_INPUTS)
        return 0;
    int sampled = 0; /* a sampling-mapping alone: analyze says what is missing */
    for (int i = 0; i < n; i++) {
        struct stat sb;
        if (strcmp(inputs[i], "-") && (stat(inputs[i], &sb) || S_ISDIR(sb.st_mode)))
            return 0;
        tt_error err = {0};
        tt_input *in;
        tt_detection d;
        tt_kind k;
        /* a stream is copied once, and refused from its head as analyze refuses it (that
         * refusal is kept for analyze to print) */
        int ok = !cli_input_open_checked(&in, inputs[i], cli_an_check_stream, &k, &err) &&
                 !tt_input_detect(&d, in, &err) &&
                 (d.kind == TT_KIND_SAMPLES || d.kind == TT_KIND_BTRACE_MAPPING);
        tt_input_close(in);
        if (!ok)
            return 0;
        sampled |= d.kind == TT_KIND_SAMPLES;
    }
    return sampled;
}

/* The traces with data of the temporary database of several raw inputs (one per input), or
 * none when one of them is all there is: *ids owned by the caller. Several are drawn together,
 * as export sums them; refused (CLI_BAD) when they need one trace or weigh differently. */
static int raw_traces(int64_t **ids, size_t *n, const char *path, const cli_flame_opts *o)
{
    tt_error err = {0};
    tdb_db *db;
    int newer;
    *ids = NULL;
    *n = 0;
    if (tdb_open_read(&db, path, 0, &newer, &err))
        return cli_err(&err);
    tdb_trace_info *t;
    size_t nt;
    int rc = tdb_trace_list(&t, &nt, db, &err) ? cli_err(&err) : 0;
    tdb_close(db);
    if (rc)
        return rc;
    int64_t *v = malloc((nt ? nt : 1) * sizeof *v);
    if (!v) {
        free(t);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    size_t nwall = 0, nsamples = 0;
    for (size_t i = 0; i < nt; i++) {
        if (!t[i].has_samples && !t[i].has_slices)
            continue;
        v[(*n)++] = t[i].id;
        /* the default weight (tt_export_default_weight): wall for calls, else samples */
        if (o->source == CF_SRC_SLICES || !t[i].has_samples)
            nwall++;
        else
            nsamples++;
    }
    free(t);
    const char *one = o->chart                        ? "--chart"
                      : o->source == CF_SRC_TREE      ? "--source tree"
                      : o->source == CF_SRC_ISSUE     ? "--source issue"
                      : o->source == CF_SRC_STARTUP   ? "--source startup"
                                                      : NULL;
    if (*n > 1 && one) {
        cli_errorf("flamegraph: %s draws one trace, the inputs make %zu: give one input, or "
                   "analyze them and pick one with --trace ID", one, *n);
        rc = CLI_BAD;
    } else if (*n > 1 && !o->weight_given && nwall && nsamples) {
        cli_errorf("flamegraph: the inputs weigh differently (%zu with sampled stacks, weighed "
                   "in samples; %zu with calls only, weighed in wall time): give --weight",
                   nsamples, nwall);
        rc = CLI_BAD;
    }
    if (rc || *n < 2) {
        free(v);
        *n = 0;
        return rc;
    }
    *ids = v;
    return 0;
}

/* Lays out and writes f (freed) after it was loaded with rc. */
static int finish(tt_flame *f, int rc, const char *label, cli_flame_opts *o)
{
    if (!rc) {
        size_t inflated = tt_flame_finish(f);
        if (inflated)
            cli_warnf("%s: %zu call tree nodes have children summing to more than their "
                      "reported time (ms rounding, merged calls): drawn as wide as their "
                      "children", label, inflated);
        if (!tt_flame_node_at(f, 0)->total) {
            cli_errorf("%s: no weighted stacks to draw%s", label,
                       o->focus                         ? " (nothing matches --focus)"
                       : o->source == CF_SRC_STARTUP ? " (nothing inside the startup window)"
                                                      : "");
            rc = CLI_BAD;
        }
    }
    if (!rc)
        rc = cli_flame_render(f, o);
    tt_flame_free(f);
    return rc;
}

int cmd_flamegraph(int argc, char **argv, cli_ctx *ctx)
{
    static const char *const formats[] = {"svg", "tsv", NULL};
    cli_flame_opts o;
    cli_flame_opts_init(&o);
    char *maps[argc > 0 ? argc : 1];
    size_t nmaps = 0;
    const char *event = NULL;
    int c;
    cli_opt_reset();
    while ((c = getopt_long(argc, argv, "ho:m:", longopts, NULL)) != -1) {
        int r = cli_flame_opt(&o, c, optarg);
        if (r < 0)
            return CLI_BAD;
        if (r)
            continue;
        switch (c) {
        case 'o': o.output = optarg; break;
        case 'm': maps[nmaps++] = cli_opt_input(optarg); break;
        case O_EVENT: event = optarg; break;
        case O_FORMAT:
            if ((o.format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case CF_TRACE:
            if (cli_opt_i64("--trace", optarg, &o.trace))
                return CLI_BAD;
            if (o.trace <= 0) {
                cli_errorf("option --trace: expected a trace id >= 1, got %s", optarg);
                return CLI_BAD;
            }
            break;
        case 'h': cli_usage(usage, 0); return CLI_OK;
        default: return cli_usage(usage, 1);
        }
    }
    int nin = argc - optind;
    if (nin < 1) {
        cli_errorf("flamegraph: missing DB or INPUT");
        return cli_usage(usage, 1);
    }
    if (cli_stdin_once(argv + optind, nin))
        return CLI_BAD;
    for (int i = optind; i < argc; i++)
        cli_out_note_input(argv[i]); /* never replaced by -o */
    int db = nin == 1 && is_db(argv[optind]);
    if (db && (nmaps || event)) {
        cli_errorf("%s: is a database; %s applies to raw inputs (analyze --event chooses the "
                   "event of a database)", argv[optind], nmaps ? "-m" : "--event");
        return CLI_BAD;
    }
    int rc = 0;
    const char *path = argv[optind], *label = path;
    if (!db && sampled_only(argv + optind, nin, nmaps, &o)) {
        tt_flame *f = NULL;
        label = nin == 1 ? argv[optind] : "inputs";
        cli_tmpdir_sweep("tracetool-flame", tmp_dbs); /* no directory, but killed runs' go */
        if (tt_flame_new(&f)) {
            cli_errorf("out of memory");
            return CLI_BAD;
        }
        rc = cli_flame_load_raw(f, argv + optind, (size_t)nin, label, event, &o, ctx);
        return finish(f, rc, label, &o);
    }
    if (!db) {
        cli_ctx sctx = *ctx;
        rc = analyse_raw(argv + optind, nin, maps, nmaps, event, &sctx);
        path = tmp_db;
        label = nin == 1 ? argv[optind] : "inputs";
    }
    tt_flame *f = NULL;
    if (!rc && tt_flame_new(&f)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    int64_t *ids = NULL;
    size_t nids = 0;
    if (!rc && !db && nin > 1 && !o.trace)
        rc = raw_traces(&ids, &nids, path, &o);
    /* every input, as export sums them: --thread needs to match in one of them only */
    size_t matched = 0;
    int want_threads = o.nthreads > 0;
    if (nids)
        o.threads_optional = 1;
    for (size_t i = 0; i < nids && !rc; i++) {
        rc = cli_flame_load_db(f, path, label, ids[i], &o, 0, ctx);
        if (rc == CLI_FLAME_NONE)
            rc = 0;
        else if (!rc)
            matched++;
    }
    if (!rc && nids && !matched && want_threads) {
        cli_errorf("no thread matches --thread %s", o.threads[0]);
        rc = CLI_BAD;
    }
    free(ids);
    if (!rc && !nids)
        rc = cli_flame_load_db(f, path, label, o.trace, &o, 0, ctx);
    rc = finish(f, rc, label, &o);
    cli_tmpdir_remove();
    return rc;
}
