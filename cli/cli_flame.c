/* Flame graph options, loading from a database and writing, shared by flamegraph, diff
 * --format svg and html (spec/visual.md sections 1, 2 and 7). */
#include "cli_flame.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sqlite/tdb.h"
#include "cli_samples.h"

void cli_flame_opts_init(cli_flame_opts *o)
{
    memset(o, 0, sizeof *o);
    o->root = TT_ROOT_THREAD;
    o->weight = TT_WEIGHT_SAMPLES;
    o->minwidth_milli = 100; /* 0.1 px */
    o->max_frames = 20000;
    tt_svg_opts_init(&o->svg);
}

int64_t cli_flame_milli(const char *s)
{
    int64_t v = 0;
    int digits = 0, dec = -1;
    for (; *s; s++) {
        if (*s == '.' && dec < 0) {
            dec = 0;
            continue;
        }
        if (!isdigit((unsigned char)*s) || dec >= 3 || v > INT64_MAX / 100)
            return -1;
        v = v * 10 + (*s - '0');
        digits++;
        if (dec >= 0)
            dec++;
    }
    if (!digits)
        return -1;
    for (int k = dec < 0 ? 0 : dec; k < 3; k++)
        v *= 10;
    return v;
}

static int num(const char *opt, const char *arg, int min, int max, int *out)
{
    return cli_opt_int(opt, arg, min, max, out) ? -1 : 1;
}

static int pick(const char *opt, const char *arg, const char *const *list, int *out)
{
    int v = cli_opt_enum(opt, arg, list);
    if (v < 0)
        return -1;
    *out = v;
    return 1;
}

/* The ID of --source tree:ID, issue:ID and startup:ID: a plain decimal integer >= 1
 * (tracetool(1) OPTIONS: no sign, no blanks), within int64. 0, or -1 when id is not one. */
static int source_id(const char *id, int64_t *out)
{
    char *end;
    if (id[0] == '-' || !cli_num_span(id, 0) || id[cli_num_span(id, 0)])
        return -1;
    errno = 0;
    *out = strtoll(id, &end, 10);
    return errno || *end || *out <= 0 ? -1 : 0;
}

int cli_flame_opt(cli_flame_opts *o, int c, const char *arg)
{
    static const char *const sources[] = {"samples", "slices", NULL};
    static const char *const roots[] = {"thread", "process", "none", NULL};
    static const char *const weights[] = {"samples", "wall", "cpu", "period", NULL};
    static const char *const sorts[] = {"name", "weight", NULL};
    static const char *const colors[] = {"lang", "module", "package", "hot", "mono", NULL};
    static const char *const truncs[] = {"right", "left", NULL};
    static const char *const scripts[] = {"embed", "none", NULL};
    static const char *const widths[] = {"new", "base", "sum", NULL};
    static const char *const dcolors[] = {"self", "total", NULL};
    int v;
    switch (c) {
    case CF_SOURCE:
        if (!strncmp(arg, "tree:", 5) || !strncmp(arg, "issue:", 6)) {
            const char *id = strchr(arg, ':') + 1;
            o->source = arg[0] == 't' ? CF_SRC_TREE : CF_SRC_ISSUE;
            if (source_id(id, &o->source_id)) {
                cli_errorf("option --source: expected %.*s:ID with ID >= 1, got '%s'",
                           (int)(id - arg - 1), arg, arg);
                return -1;
            }
            return 1;
        }
        if (!strcmp(arg, "startup") || !strncmp(arg, "startup:", 8)) {
            o->source = CF_SRC_STARTUP;
            o->source_id = 0;
            if (arg[7] && source_id(arg + 8, &o->source_id)) {
                cli_errorf("option --source: expected startup or startup:ID with ID >= 1, "
                           "got '%s'", arg);
                return -1;
            }
            return 1;
        }
        return pick("--source", arg, sources, &o->source);
    case CF_THREAD:
        if (o->nthreads >= CLI_FLAME_MAX_LIST) {
            cli_errorf("option --thread: at most %d", CLI_FLAME_MAX_LIST);
            return -1;
        }
        o->threads[o->nthreads++] = arg;
        return 1;
    case CF_ROOT: return pick("--root", arg, roots, &o->root);
    case CF_WEIGHT:
        o->weight_given = 1;
        return pick("--weight", arg, weights, &o->weight);
    case CF_CHART: o->chart = o->svg.chart = 1; return 1;
    case CF_ICICLE: o->svg.icicle = 1; return 1;
    case CF_REVERSE: o->reverse = 1; return 1;
    case CF_SORT: return pick("--sort", arg, sorts, &o->sort_weight);
    case CF_FOLD: o->fold_recursion = 1; return 1;
    case CF_FOCUS: o->focus = arg; return 1;
    case CF_WIDTH: return num("--width", arg, 100, 100000, &o->svg.width);
    case CF_HEIGHT: return num("--height", arg, 4, 200, &o->svg.row_height);
    case CF_FONTSIZE: return num("--fontsize", arg, 4, 100, &o->svg.font_size);
    case CF_MINWIDTH: {
        size_t n = strlen(arg);
        char tmp[64];
        o->minwidth_pct = n && arg[n - 1] == '%';
        snprintf(tmp, sizeof tmp, "%.*s", (int)(n - (size_t)o->minwidth_pct), arg);
        if ((o->minwidth_milli = cli_flame_milli(tmp)) < 0 || n >= sizeof tmp ||
            (o->minwidth_pct && o->minwidth_milli > 100000)) {
            cli_errorf("option --minwidth: expected PX or PCT%% (up to 3 decimals), got '%s'",
                       arg);
            return -1;
        }
        return 1;
    }
    case CF_MAXFRAMES:
        if (cli_opt_i64("--max-frames", arg, &o->max_frames))
            return -1;
        if (o->max_frames < 0) {
            cli_errorf("option --max-frames: expected N >= 0, got %s", arg);
            return -1;
        }
        return 1;
    case CF_COLORS: return pick("--colors", arg, colors, &o->svg.colors);
    case CF_APP:
        if (o->napp >= CLI_FLAME_MAX_LIST) {
            cli_errorf("option --app-package: at most %d", CLI_FLAME_MAX_LIST);
            return -1;
        }
        o->app[o->napp++] = arg;
        return 1;
    case CF_TITLE: o->svg.title = arg; return 1;
    case CF_SUBTITLE: o->svg.subtitle = arg; return 1;
    case CF_COUNTNAME:
        o->countname_given = 1;
        o->svg.countname = arg;
        return 1;
    case CF_NAMETYPE: o->svg.nametype = arg; return 1;
    case CF_TRUNCATE: return pick("--truncate", arg, truncs, &o->svg.truncate_left);
    case CF_SCRIPT:
        if (pick("--script", arg, scripts, &v) < 0)
            return -1;
        o->svg.script = !v;
        return 1;
    case CF_DWIDTHS: return pick("--diff-widths", arg, widths, &o->widths);
    case CF_DCOLOR: return pick("--diff-color", arg, dcolors, &o->diff_total);
    case CF_NORMALIZE: o->normalize = 1; return 1;
    case CF_DMIN:
        if ((o->diff_min_milli = cli_flame_milli(arg)) < 0 || o->diff_min_milli > 100000) {
            cli_errorf("option --diff-min: expected a percentage 0..100 (up to 3 decimals), "
                       "got '%s'", arg);
            return -1;
        }
        return 1;
    default: return 0;
    }
}

/* --thread SPEC: "main", a tid, or a name in which digit runs may be written '#'. */
static int select_threads(uint32_t **out, size_t *n, tt_profile *p, const cli_flame_opts *o)
{
    int rc = cli_threads_pick(out, n, p, o->threads, o->nthreads, 1);
    if (rc || !o->nthreads || *n)
        return rc;
    if (o->threads_optional)
        return CLI_FLAME_NONE;
    cli_errorf("no thread matches --thread %s", o->threads[0]);
    return CLI_BAD;
}
static int pick_trace(int64_t *id, tdb_db *db, const char *label, int64_t want, int optional)
{
    tt_error err = {0};
    tdb_trace_info *t;
    size_t nt;
    if (tdb_trace_list(&t, &nt, db, &err))
        return cli_err(&err);
    *id = 0;
    for (size_t i = 0; i < nt; i++) {
        if (want ? t[i].id == want : (t[i].has_samples || t[i].has_slices))
            *id = t[i].id;
    }
    free(t);
    if (!*id) {
        if (optional)
            return CLI_FLAME_NONE;
        if (want)
            cli_errorf("%s: no trace %lld", label, (long long)want);
        else
            cli_errorf("%s: no trace with sampled stacks or slices (call trees such as iOS "
                       "profiles and point stacks: --source tree:ID or issue:ID)", label);
        return CLI_BAD;
    }
    return 0;
}

/* The thread a flame chart draws without --thread: the only main thread, else the only
 * thread. Several processes (a main thread each) or several threads and no main one are
 * ambiguous: an error listing them, as for a --thread matching several. */
static uint32_t chart_thread(tt_profile *p, const char *label)
{
    size_t nt = tt_profile_nthreads(p), nmain = 0;
    uint32_t pick = TT_NONE;
    for (size_t t = 0; t < nt; t++)
        if (tt_profile_thread(p, (uint32_t)t)->is_main && !nmain++)
            pick = (uint32_t)t;
    if (nmain == 1)
        return pick;
    if (nt == 1)
        return 0;
    tt_buf l = {0};
    size_t listed = 0, cand = nmain ? nmain : nt;
    for (size_t t = 0; t < nt && listed < 8; t++) {
        const tt_thread *th = tt_profile_thread(p, (uint32_t)t);
        if (nmain && !th->is_main)
            continue;
        int shared = 0; /* the tid selects several (the idle tasks "swapper/N"): the name */
        for (size_t u = 0; u < nt && !shared; u++)
            shared = u != t && tt_profile_thread(p, (uint32_t)u)->tid == th->tid;
        tt_buf_printf(&l, "%s", listed++ ? ", " : "");
        if (shared && th->name)
            tt_buf_printf(&l, "%s (tid %lld", th->name, (long long)th->tid);
        else if (th->name)
            tt_buf_printf(&l, "%lld (%s", (long long)th->tid, th->name);
        else
            tt_buf_printf(&l, "%lld (Thread-%lld", (long long)th->tid, (long long)th->tid);
        if (th->pid >= 0)
            tt_buf_printf(&l, ", pid %lld", (long long)th->pid);
        tt_buf_printf(&l, ")");
    }
    if (cand > listed)
        tt_buf_printf(&l, " and %zu more", cand - listed);
    if (nmain)
        cli_errorf("%s: --chart draws one thread and the input has %zu main threads (one per "
                   "process): select one with --thread: %s", label, nmain,
                   l.data ? l.data : "");
    else
        cli_errorf("%s: --chart draws one thread and the input has %zu threads, none of them "
                   "known as the main thread: select one with --thread: %s", label, nt,
                   l.data ? l.data : "");
    tt_buf_free(&l);
    return TT_NONE;
}

/* A flame chart of one thread: the --thread selection, else the main or only thread. */
static int build_chart(tt_flame *f, tt_profile *p, const char *label, cli_flame_opts *o,
                       const uint32_t *sel, size_t nsel, const tt_flame_xform *win)
{
    if (o->reverse || o->fold_recursion || o->focus) {
        cli_errorf("--chart keeps time order: --reverse, --fold-recursion and --focus do not "
                   "apply");
        return CLI_BAD;
    }
    if (tt_profile_meta_get(p)->timeless) {
        cli_errorf("%s: the input has no timestamps: a flame chart needs times", label);
        return CLI_BAD;
    }
    uint32_t utid = nsel == 1 ? sel[0] : TT_NONE;
    if (nsel > 1) {
        cli_errorf("--chart draws one thread: select it with one --thread (%zu match)", nsel);
        return CLI_BAD;
    }
    if (!nsel && (utid = chart_thread(p, label)) == TT_NONE)
        return CLI_BAD;
    tt_slice_opts so;
    tt_slice_opts_init(&so);
    tt_error err = {0};
    if (tt_flame_add_chart(f, p, utid, &so, o->root == TT_ROOT_THREAD, win, o->app, o->napp,
                           &err)) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", label);
        return cli_err(&err);
    }
    return 0;
}

static int build(tt_flame *f, tt_profile *p, const char *label, cli_flame_opts *o, int side,
                 const tt_flame_xform *win, const tt_export_input *inputs, size_t ninputs)
{
    tt_export_opts eo;
    tt_export_opts_init(&eo);
    eo.inputs = inputs; /* several raw inputs: each one's processes, as export names them */
    eo.n_inputs = ninputs;
    /* the default weight is export's (samples.md 7.2), so both print the same numbers */
    if (o->weight_given)
        eo.weight = o->weight;
    else if (o->source == CF_SRC_SLICES)
        eo.weight = TT_WEIGHT_WALL;
    else
        eo.weight = tt_export_default_weight(p);
    eo.folded_root = o->root;
    uint32_t *sel = NULL;
    size_t nsel = 0;
    int rc = select_threads(&sel, &nsel, p, o);
    if (rc)
        return rc;
    eo.threads = sel;
    eo.n_threads = nsel;
    if (o->chart) {
        rc = build_chart(f, p, label, o, sel, nsel, win);
        free(sel);
        o->svg.weight_ns = 1;
        if (!o->countname_given)
            o->svg.countname = "ms";
        return rc;
    }
    tt_error cerr = {0}; /* weights of a clock the samples lack would all be 0 */
    if (eo.weight == TT_WEIGHT_CPU && o->source == CF_SRC_SAMPLES &&
        tt_export_cpu_check(p, &eo, &cerr)) {
        if (!cerr.file[0])
            snprintf(cerr.file, sizeof cerr.file, "%s", label);
        free(sel);
        return cli_err(&cerr);
    }
    regex_t re;
    tt_flame_xform x = {o->reverse, o->fold_recursion, NULL, 0, o->norm_roots, 0, 0, 0};
    if (win)
        x.windowed = 1, x.win_from = win->win_from, x.win_to = win->win_to;
    if (o->focus) {
        int e = regcomp(&re, o->focus, REG_EXTENDED | REG_NOSUB);
        if (e) {
            char msg[128];
            regerror(e, &re, msg, sizeof msg);
            cli_errorf("option --focus: %s: '%s'", msg, o->focus);
            free(sel);
            return CLI_BAD;
        }
        x.focus = &re;
    }
    tt_error err = {0};
    if (tt_flame_add_profile(f, p, &eo, &x, o->app, o->napp, side, &err)) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", label);
        rc = cli_err(&err);
    }
    if (o->focus)
        regfree(&re);
    free(sel);
    const tt_profile_meta *m = tt_profile_meta_get(p);
    int ns = eo.weight == TT_WEIGHT_WALL || eo.weight == TT_WEIGHT_CPU ||
             !tt_profile_nsamples(p);
    o->svg.weight_ns = ns;
    if (o->countname_given)
        return rc;
    o->svg.countname = ns ? "ms" : eo.weight == TT_WEIGHT_PERIOD ? (m->event ? m->event : "period")
                                                                  : "samples";
    return rc;
}

/* ---- a Matrix call tree (call_node rows): self = self_dur, total = total_dur; a tree
 * without times (iOS profiles, ios.md 10) is counted: self = self_count, total = count ---- */
typedef struct tctx {
    tt_flame *f;
    tt_vec map; /* tmap, in call_node id order */
    int rc;
    int chart;   /* no merging: one box per row, in Matrix line order */
    int counted; /* -1 until the first row says: 1 when it has a count but no total_dur */
} tctx;
typedef struct tmap {
    int64_t id, depth;
    uint32_t node;
} tmap;

static int tmap_cmp(const void *k, const void *e)
{
    int64_t a = *(const int64_t *)k, b = ((const tmap *)e)->id;
    return a < b ? -1 : a > b;
}

static int tree_row(void *ctx, int event, int ncol, const char *const *names,
                    const tdb_value *v)
{
    (void)names;
    tctx *c = ctx;
    if (event != TDB_EV_ROW || ncol < 8)
        return 0;
    if (c->counted < 0)
        c->counted = v[5].type != TDB_INT && v[4].type == TDB_INT;
    uint32_t parent = 0, name, node;
    int64_t pdepth = -1;
    if (v[1].type == TDB_INT) { /* rows follow parent_id, not Matrix depth */
        const tmap *m = bsearch(&v[1].i, c->map.data, c->map.len, sizeof(tmap), tmap_cmp);
        if (m) {
            parent = m->node;
            pdepth = m->depth;
        }
    }
    const char *nm = v[3].type == TDB_TEXT ? v[3].s : "?";
    int ti = c->counted ? 4 : 5, si = c->counted ? 7 : 6;
    int64_t total = v[ti].type == TDB_INT ? v[ti].i : 0;
    int64_t self = v[si].type == TDB_INT ? v[si].i : 0;
    if ((c->rc = tt_flame_intern(c->f, &name, nm,
                                 tt_flame_category(c->counted ? TT_FRAME_NATIVE : TT_FRAME_JAVA,
                                                   nm, NULL, NULL, 0), NULL)) ||
        (c->rc = c->chart ? tt_flame_chart_node(c->f, &node, parent, name, 0, 0, 0)
                          : tt_flame_child(c->f, &node, parent, name)))
        return 1;
    tt_flame_node *n = tt_flame_node_at(c->f, node);
    n->reported = (n->reported < 0 ? 0 : n->reported) + total; /* merged siblings add up */
    n->self += self > 0 ? self : 0;
    if (v[1].type == TDB_INT && pdepth >= 0 && v[2].i != pdepth + 1)
        n->matrix_depth = v[2].i;
    tmap m = {v[0].i, v[2].i, node};
    if (!tt_vec_push(&c->map, &m))
        return c->rc = TT_ENOMEM, 1;
    return 0;
}

static int load_tree(tt_flame *f, tdb_db *db, const char *label, cli_flame_opts *o)
{
    if (o->reverse || o->focus || o->fold_recursion) {
        cli_errorf("--source %s: --reverse, --focus and --fold-recursion apply to samples and "
                   "slices", o->source == CF_SRC_ISSUE ? "issue:ID" : "tree:ID");
        return CLI_BAD;
    }
    tctx c = {f, {0}, 0, o->chart, -1};
    tt_vec_init(&c.map, sizeof(tmap));
    tt_error err = {0};
    int rc = tdb_call_tree_rows(db, o->source_id, o->source == CF_SRC_ISSUE, tree_row, &c, &err);
    size_t n = c.map.len;
    tt_vec_free(&c.map);
    if (rc && !c.rc)
        return cli_err(&err);
    if (c.rc) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (!n) {
        cli_errorf("%s: no call tree %s%lld", label,
                   o->source == CF_SRC_ISSUE ? "for issue " : "", (long long)o->source_id);
        return CLI_BAD;
    }
    o->svg.weight_ns = !c.counted;
    if (!o->countname_given)
        o->svg.countname = c.counted ? "samples" : "ms";
    if (o->chart) { /* Matrix trees have no times: children packed in line order */
        tt_flame_finish(f);
        if (tt_flame_chart_pack(f)) {
            cli_errorf("out of memory");
            return CLI_BAD;
        }
        if (!o->svg.subtitle) {
            snprintf(o->note, sizeof o->note, "Matrix line order, not times: calls packed "
                     "from their caller's left edge%s", c.counted ? "; widths are sample "
                     "counts" : "");
            o->svg.subtitle = o->note;
        }
    } else if (c.counted && !o->svg.subtitle) {
        snprintf(o->note, sizeof o->note, "sample counts, not times (a counted profile tree)");
        o->svg.subtitle = o->note;
    }
    return 0;
}

static void put_ms(char *out, size_t cap, int64_t ns)
{
    int64_t us = (ns < 0 ? -ns : ns) / 1000;
    snprintf(out, cap, "%s%lld.%03d", ns < 0 ? "-" : "", (long long)(us / 1000), (int)(us % 1000));
}

/* --source=startup[:ID]: the window of that startup (or the first with times, one of the
 * drawn trace first). */
static int startup_window(tt_flame_xform *x, tdb_db *db, const char *label, int64_t trace,
                          cli_flame_opts *o)
{
    tdb_startup_win w;
    tt_error err = {0};
    int rc = tdb_startup_window(&w, db, o->source_id, trace, &err);
    if (rc == TT_ENOTFOUND) {
        if (o->source_id)
            cli_errorf("%s: no startup %lld with a start time and a duration", label,
                       (long long)o->source_id);
        else
            cli_errorf("%s: no startup with a start time and a duration (Matrix startup "
                       "reports carry durations only)", label);
        return CLI_BAD;
    }
    if (rc)
        return cli_err(&err);
    x->windowed = 1;
    x->win_from = w.ts;
    x->win_to = w.ts + w.dur;
    char a[32], d[32];
    put_ms(a, sizeof a, w.ts);
    put_ms(d, sizeof d, w.dur);
    if (!o->svg.subtitle) {
        snprintf(o->note, sizeof o->note, "%s startup %lld: %s ms from %s ms", w.kind,
                 (long long)w.id, d, a);
        o->svg.subtitle = o->note;
    }
    snprintf(o->win_clock, sizeof o->win_clock, "%s", w.clock);
    return 0;
}

/* Prints the warnings of st not yet in seen (one database loaded for several graphs warns
 * once) and keeps them there. */
static void report_once(tt_stats *seen, const tt_stats *st)
{
    tt_stats *fresh = tt_stats_new();
    for (size_t i = 0; fresh && i < tt_stats_count(st); i++) {
        const tt_stat *x = tt_stats_get(st, i);
        int known = 0;
        for (size_t j = 0; !known && j < tt_stats_count(seen); j++) {
            const tt_stat *y = tt_stats_get(seen, j);
            known = !strcmp(x->name, y->name) && !strcmp(x->file, y->file);
        }
        if (!known) {
            tt_stats_add_stat(seen, x);
            tt_stats_add_stat(fresh, x);
        }
    }
    cli_stats_report(fresh);
    tt_stats_free(fresh);
}

int cli_flame_load_db(tt_flame *f, const char *dbpath, const char *label, int64_t trace,
                      cli_flame_opts *o, int side, cli_ctx *ctx)
{
    tt_error err = {0};
    tdb_db *db;
    int newer;
    if (!label)
        label = dbpath;
    if (tdb_open_read(&db, dbpath, 0, &newer, &err)) {
        if (!strcmp(err.file, dbpath))
            snprintf(err.file, sizeof err.file, "%s", label);
        return cli_err(&err);
    }
    if (o->source == CF_SRC_TREE || o->source == CF_SRC_ISSUE) {
        int rc = load_tree(f, db, label, o);
        tdb_close(db);
        return rc;
    }
    int64_t id = 0;
    int rc = pick_trace(&id, db, label, trace, o->data_optional && !trace);
    tt_flame_xform win = {0};
    if (!rc && o->source == CF_SRC_STARTUP)
        rc = startup_window(&win, db, label, id, o);
    tt_profile *p = NULL;
    tt_stats *st = NULL;
    if (!rc && !(st = tt_stats_new())) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    if (!rc && tdb_profile_load(&p, db, id, label, st, &err)) {
        if (!strcmp(err.file, dbpath)) /* flamegraph's temporary database: the user's input */
            snprintf(err.file, sizeof err.file, "%s", label);
        rc = cli_err(&err);
    }
    if (!rc)
        report_once(ctx->stats, st);
    tt_stats_free(st);
    if (!rc && win.windowed) {
        const char *ck = tt_profile_meta_get(p)->clock;
        if (ck && strcmp(ck, o->win_clock))
            cli_warnf("%s: trace %lld has clock '%s', the startup's trace '%s': the window may "
                      "not line up with its times", label, (long long)id, ck,
                      o->win_clock);
    }
    if (!rc)
        rc = build(f, p, label, o, side, win.windowed ? &win : NULL, NULL, 0);
    tt_profile_free(p);
    tdb_close(db);
    return rc;
}

int cli_flame_load_raw(tt_flame *f, char **files, size_t n, const char *label,
                       const char *event, cli_flame_opts *o, cli_ctx *ctx)
{
    cli_samples_opts so;
    cli_samples_opts_init(&so);
    so.event = event;
    tt_profile *p = NULL;
    int rc = cli_samples_load(&p, files, n, &so, ctx);
    if (rc)
        return rc;
    cli_stats_report(ctx->stats);
    tt_export_input inputs[CLI_SAMPLES_MAX_INPUTS];
    for (size_t i = 0; i < n; i++)
        inputs[i] = (tt_export_input){files[i], so.formats[i], so.clocks[i]};
    rc = build(f, p, label, o, 0, NULL, inputs, n);
    tt_profile_free(p);
    return rc;
}

int cli_flame_write_file(const char *path, const tt_buf *b)
{
    if (!path) {
        cli_out_write(b->data ? b->data : "", b->len);
        return 0;
    }
    /* as export's -o: a temporary file renamed over FILE, a symbolic link's target
     * replaced, /dev/null or a FIFO written as it is */
    cli_out_clean_stale(path);
    cli_out_file *o = cli_out_file_open(path);
    if (!o)
        return CLI_BAD;
    if (b->len) /* a failure is reported by the commit (which keeps the old FILE) */
        (void)!cli_out_file_write(o, b->data, b->len);
    return cli_out_file_commit(o);
}

static int lay_out(tt_flame_layout *l, tt_flame *f, cli_flame_opts *o)
{
    tt_flame_layout_opts lo = {o->sort_weight, o->svg.width, o->minwidth_milli,
                               o->minwidth_pct, (size_t)o->max_frames, o->widths};
    o->svg.widths = o->widths;
    o->svg.diff_total = o->diff_total;
    o->svg.diff_min_milli = o->diff_min_milli;
    if (tt_flame_layout_build(l, f, &lo)) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    return 0;
}

int cli_flame_render_buf(tt_buf *b, tt_flame *f, cli_flame_opts *o)
{
    tt_flame_layout l;
    int rc = lay_out(&l, f, o);
    if (!rc && tt_svg_write(b, f, &l, &o->svg)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    tt_flame_layout_free(&l);
    return rc;
}

int cli_flame_render(tt_flame *f, cli_flame_opts *o)
{
    tt_flame_layout l;
    int rc = lay_out(&l, f, o);
    if (rc)
        return rc;
    tt_buf b = {0};
    if (o->format ? tt_flame_write_tsv(&b, f, &l) : tt_svg_write(&b, f, &l, &o->svg)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    if (!rc)
        rc = cli_flame_write_file(o->output, &b);
    tt_buf_free(&b);
    tt_flame_layout_free(&l);
    return rc;
}
