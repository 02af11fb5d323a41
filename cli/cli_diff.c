/* tracetool diff: filters, hot set and CI gates over the rows of sqlite/diff.c, and the choice
 * of output (tracetool-diff(1); cross-build matching by name, storage.md 8). The outputs live in
 * cli_diff_text.c and cli_diff_html.c. */
#include "cli_diff_int.h"
#include "cli_flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_diff_default_gates(cli_diff_opts *o)
{
    static const char *const pct[] = {"method.self", "startup.cold",     "startup.warm",
                                      "startup.hot", "startup.relaunch", "startup.unknown",
                                      "scene.fps"};
    o->ngates = 0;
    for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++)
        o->gates[o->ngates++] = (tt_gate){pct[i], tt_diff_metric_dir(pct[i]), 1,
                                          o->threshold_pct};
    o->gates[o->ngates++] = (tt_gate){"issue.new", 1, 0, 0};
}

void cli_diff_opts_init(cli_diff_opts *o)
{
    memset(o, 0, sizeof *o);
    o->threshold_pct = 10;
    o->min_ms = 5;
    o->min_count = 1;
    o->top = 10;
    cli_diff_default_gates(o);
}

static int is_sig(const cli_diff_opts *o, int unit, double b, double n)
{
    double d = n - b;
    if (isnan(d) || d == 0)
        return 0;
    if (unit == U_MS && fabs(d) < o->min_ms)
        return 0;
    return b == 0 || fabs(d) * 100.0 / fabs(b) >= o->threshold_pct;
}

static int on_row(void *ctx, const tdb_diff_row *r)
{
    dctx *c = ctx;
    const smeta *m = &cli_diff_meta[c->section];
    if (m->named) {
        int cls = tt_name_classify(r->key);
        if (cls != TT_NAME_OK) {
            for (int s = 0; s < 2; s++)
                c->unmatched[s][cls] += (uint64_t)r->have[s];
            return 0;
        }
    }
    item it = {.section = c->section, .have = {r->have[0], r->have[1]}};
    memcpy(it.v, r->v, sizeof it.v);
    it.key = tt_arena_strndup(c->arena, r->key, strlen(r->key));
    it.sub = r->sub ? tt_arena_strndup(c->arena, r->sub, strlen(r->sub)) : NULL;
    it.from = r->from ? tt_arena_strndup(c->arena, r->from, strlen(r->from)) : NULL;
    it.to = r->to ? tt_arena_strndup(c->arena, r->to, strlen(r->to)) : NULL;
    if (!it.key || (r->sub && !it.sub) || (r->from && !it.from) || (r->to && !it.to)) {
        c->oom = 1;
        return 1;
    }
    it.count_ok = 1;
    if (m->count[0] >= 0) {
        double cnt[2] = {0, 0};
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < 2; k++)
                if (m->count[k] >= 0 && !isnan(it.v[s][m->count[k]]))
                    cnt[s] += it.v[s][m->count[k]];
        it.count_ok = fmax(cnt[0], cnt[1]) >= (double)c->o->min_count;
    }
    for (int j = 0; j < m->nval; j++) {
        if (!is_sig(c->o, m->unit[j], it.v[0][j], it.v[1][j]))
            continue;
        it.sig |= 1u << j;
        if (!m->drives[j] || !it.count_ok)
            continue;
        it.reported = 1;
        int worse = m->dir[j] * (it.v[1][j] - it.v[0][j]) > 0;
        if (worse)
            it.mark = 1;
        else if (!it.mark)
            it.mark = -1;
    }
    /* a key of one side only is no measurement of 0 on the other (a scene one run did not
     * visit is not 0 fps, a renamed method did not drop to 0 ms): neither a regression nor an
     * improvement, and no value gate trips on it (eval_gates). Issues differ: no issue of a
     * key is a count of 0, so a new one is a regression (gated by issue.new only). */
    if (it.have[0] != it.have[1] && c->section != TDB_DIFF_ISSUES)
        it.mark = 0;
    else if (it.have[0] && !it.have[1] && it.mark > 0)
        it.mark = 0;
    if (!tt_vec_push(&c->items, &it)) {
        c->oom = 1;
        return 1;
    }
    return 0;
}

/* A startup or segment measured between other events on each side (startup.md 5.2: a ttid
 * from first_method under-counts one from process_start) is two rows, removed and added,
 * never compared: said once per pair, as the text lists them apart. */
static void warn_endpoints(const dctx *c)
{
    const item *items = c->items.data;
    for (size_t i = 0; i < c->items.len; i++) {
        const item *x = &items[i];
        if (x->section != TDB_DIFF_STARTUP || !x->have[0] || x->have[1])
            continue;
        for (size_t k = 0; k < c->items.len; k++) {
            const item *y = &items[k];
            if (y->section != TDB_DIFF_STARTUP || y->have[0] || !y->have[1] ||
                strcmp(x->key, y->key) || strcmp(x->sub ? x->sub : "", y->sub ? y->sub : ""))
                continue;
            tt_buf b[3] = {{0}};
            cli_diff__name(&b[0], x->sub ? x->sub : "");
            tt_buf_puts(&b[0], " ");
            cli_diff__name(&b[0], x->key);
            cli_diff__endpoints(&b[1], x);
            cli_diff__endpoints(&b[2], y);
            cli_warnf("diff: startup %s: measured between different events in base%s and in "
                      "new%s: not compared", b[0].data ? b[0].data : "",
                      b[1].data ? b[1].data : " (none recorded)",
                      b[2].data ? b[2].data : " (none recorded)");
            for (int j = 0; j < 3; j++)
                tt_buf_free(&b[j]);
        }
    }
}

/* ---- hot set: the top N methods by self time of each side ---- */
static const item *sort_base;
static int sort_side;
static int cmp_hot(const void *a, const void *b)
{
    const item *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];
    double p = x->v[sort_side][0], q = y->v[sort_side][0];
    if (p != q)
        return p < q ? 1 : -1;
    return strcmp(x->key, y->key);
}

static int mark_hot(dctx *c)
{
    size_t n = c->items.len, *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!idx)
        return -1;
    item *items = c->items.data;
    for (int s = 0; s < 2; s++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (items[i].section == TDB_DIFF_METHODS && items[i].have[s] && items[i].v[s][0] > 0)
                idx[k++] = i;
        sort_base = items;
        sort_side = s;
        qsort(idx, k, sizeof *idx, cmp_hot);
        for (size_t i = 0; i < k && i < (size_t)c->o->top; i++)
            items[idx[i]].hot[s] = 1;
    }
    free(idx);
    return 0;
}

/* ---- gates ---- */
static int gate_applies(size_t g, const item *it)
{
    if (it->section != cli_diff_gates[g].section || !it->count_ok)
        return 0;
    if (cli_diff_gates[g].sub && (!it->sub || strcmp(it->sub, cli_diff_gates[g].sub)))
        return 0;
    if (cli_diff_gates[g].total >= 0) {
        int total = !strcmp(it->key, "total") || !strncmp(it->key, "launch:", 7);
        if (total != cli_diff_gates[g].total)
            return 0;
    }
    return 1;
}

static int push_trip(dctx *c, const tt_gate *g, const item *it, double b, double n, double amt)
{
    trip t = {.it = it, .base = b, .new_value = n, .amount = amt, .is_pct = g->is_pct};
    tt_gate_format(t.gate, sizeof t.gate, g);
    return tt_vec_push(&c->trips, &t) ? 0 : -1;
}

static int eval_gates(dctx *c)
{
    const cli_diff_opts *o = c->o;
    const item *items = c->items.data;
    for (size_t gi = 0; gi < o->ngates; gi++) {
        const tt_gate *g = &o->gates[gi];
        if (!strcmp(g->metric, "issue.new")) {
            double nnew = 0;
            for (size_t i = 0; i < c->items.len; i++)
                nnew += items[i].section == TDB_DIFF_ISSUES && !items[i].have[0] &&
                        items[i].count_ok;
            double amt;
            if (tt_gate_trips(g, 0, nnew, &amt) && push_trip(c, g, NULL, 0, nnew, amt))
                return -1;
            continue;
        }
        size_t m = 0;
        while (m < cli_diff_ngates && strcmp(cli_diff_gates[m].metric, g->metric))
            m++;
        if (m == cli_diff_ngates)
            continue;
        int j = cli_diff_gates[m].val, unit = cli_diff_meta[cli_diff_gates[m].section].unit[j];
        for (size_t i = 0; i < c->items.len; i++) {
            const item *it = &items[i];
            double b = it->v[0][j], n = it->v[1][j], amt;
            if (!gate_applies(m, it) || (unit == U_MS && fabs(n - b) < o->min_ms) ||
                !it->have[0] || !it->have[1])
                continue; /* removed or added: listed as such, never gated against 0 */
            if (tt_gate_trips(g, b, n, &amt) && push_trip(c, g, it, b, n, amt))
                return -1;
        }
    }
    return 0;
}

/* ---- ordering: sections in table order, rows by impact, then name ---- */
/* The change of value j that counts for the order: a driving value changed beyond the
 * noise filters, else 0. */
static double impact(const item *it, int j)
{
    return it->sig & (1u << j) && cli_diff_meta[it->section].drives[j]
               ? fabs(it->v[1][j] - it->v[0][j])
               : 0;
}

/* Impact: the change of the section's first value, then of the other values in order
 * (tracetool-diff(1)): new issues of one count each are ordered by their cost. */
static int cmp_items(const void *a, const void *b)
{
    const item *x = *(item *const *)a, *y = *(item *const *)b;
    if (x->section != y->section)
        return x->section - y->section;
    for (int j = 0; j < cli_diff_meta[x->section].nval; j++) {
        double p = impact(x, j), q = impact(y, j);
        if (p != q)
            return p < q ? 1 : -1;
    }
    int r = strcmp(x->sub ? x->sub : "", y->sub ? y->sub : "");
    return r ? r : cli_diff__cmp_key(x, y);
}

/* Tripped rows of a gate: the largest change in the regression's direction first (the
 * metric's unit, as the sections sort by impact), then the largest relative one, then by
 * name; the text output's cap per gate then never hides the biggest offenders. */
static int cmp_trips(const void *a, const void *b)
{
    const trip *x = a, *y = b;
    int r = strcmp(x->gate, y->gate);
    if (r)
        return r;
    if (x->amount != y->amount)
        return x->amount < y->amount ? 1 : -1;
    double p = x->base ? x->amount / fabs(x->base) : INFINITY;
    double q = y->base ? y->amount / fabs(y->base) : INFINITY;
    if (p != q)
        return p < q ? 1 : -1;
    const char *xs = x->it && x->it->sub ? x->it->sub : "";
    const char *ys = y->it && y->it->sub ? y->it->sub : "";
    if ((r = strcmp(xs, ys)))
        return r;
    if (!x->it || !y->it)
        return !x->it - !y->it;
    return cli_diff__cmp_key(x->it, y->it);
}

typedef struct fsink {
    tt_buf *b;
    int stream;  /* to standard output as it grows; else (-o FILE) kept for the file */
    int some[2]; /* a line weighs more than 0 on the side */
} fsink;

static int folded_line(void *ctx, const char *path, int64_t base, int64_t new_)
{
    fsink *f = ctx;
    f->some[0] |= base != 0;
    f->some[1] |= new_ != 0;
    tt_buf_printf(f->b, "%s %lld %lld\n", path, (long long)base, (long long)new_);
    if (f->stream && f->b->len > 1 << 16)
        cli_out_buf(f->b);
    return 0;
}

/* A side without weighted call paths gives a column of zeros, two give no line at all:
 * said, never silent; and columns in two units (ms and samples) are not comparable. */
static void folded_notes(const cli_diff_opts *o, const fsink *fs, const unsigned units[2])
{
    static const char what[] = "folded-diff reads slices, Matrix issue call trees and "
                               "sampled stacks";
    if (!fs->some[0] && !fs->some[1])
        cli_warnf("diff: %s and %s: no call path weighs a whole millisecond or a sample (%s): "
                  "the folded diff is empty", o->path[0], o->path[1], what);
    for (int s = 0; s < 2 && (fs->some[0] || fs->some[1]); s++)
        if (!fs->some[s])
            cli_warnf("diff: %s: no call path weighs a whole millisecond or a sample (%s): "
                      "its column is all 0", o->path[s], what);
    if ((units[0] | units[1]) == (TDB_FOLDED_MS | TDB_FOLDED_SAMPLES))
        cli_warnf("diff: the folded weights mix whole milliseconds (slices, call trees, timed "
                  "samples) and sample counts (folded input): they are not comparable");
}

/* The outputs computed from the items; DIFF_FOLDED streams the database rows instead, and
 * DIFF_SVG is drawn by the caller. */
static const struct {
    int format;
    int (*out)(const dctx *c, tt_buf *b, int rc);
} outputs[] = {
    {DIFF_TEXT, cli_diff__text_out},
    {DIFF_JSON, cli_diff__json_out},
    {DIFF_HTML, cli_diff__html_tables},
};

int cli_diff_run(tdb_diff *d, const cli_diff_opts *o)
{
    dctx c = {.o = o, .arena = tt_arena_new()};
    tt_vec_init(&c.items, sizeof(item));
    tt_vec_init(&c.trips, sizeof(trip));
    tt_error err = {0};
    int rc = c.arena ? 0 : TT_ENOMEM;
    for (int s = 0; s < 2 && !rc; s++)
        rc = tdb_diff_traces(d, s, &c.traces[s], &err);
    for (c.section = 0; c.section < TDB_DIFF__COUNT && !rc && !c.oom; c.section++)
        rc = tdb_diff_section(d, c.section, on_row, &c, &err);
    if (!rc && !c.oom && mark_hot(&c))
        c.oom = 1;
    if (!rc && !c.oom && !o->quiet)
        warn_endpoints(&c);
    for (int s = 0; s < 2; s++)
        if (c.unmatched[s][TT_NAME_UNRESOLVED] || c.unmatched[s][TT_NAME_OBFUSCATED])
            cli_warnf("%s: %llu unresolved and %llu obfuscated names not paired (a missing or "
                      "wrong mapping?)", o->path[s],
                      (unsigned long long)c.unmatched[s][TT_NAME_UNRESOLVED],
                      (unsigned long long)c.unmatched[s][TT_NAME_OBFUSCATED]);
    if (rc || c.oom) {
        if (c.oom || rc == TT_ENOMEM)
            cli_errorf("out of memory");
        else
            cli_err(&err);
        rc = CLI_BAD;
        goto out;
    }
    c.sorted = malloc((c.items.len ? c.items.len : 1) * sizeof *c.sorted);
    if (!c.sorted || eval_gates(&c)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
        goto out;
    }
    for (size_t i = 0; i < c.items.len; i++)
        c.sorted[i] = &TT_VEC_AT(&c.items, item, i);
    if (c.items.len)
        qsort(c.sorted, c.items.len, sizeof *c.sorted, cmp_items);
    if (c.trips.len)
        qsort(c.trips.data, c.trips.len, sizeof(trip), cmp_trips);
    rc = c.trips.len ? CLI_CHECK_FAILED : CLI_OK;
    /* a reader that closes the pipe early (svg, html, a long text) does not turn the
     * verdict into success */
    cli_out_epipe_status(rc);
    tt_buf b = {0};
    int (*emit)(const dctx *, tt_buf *, int) = NULL;
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++)
        if (outputs[i].format == o->format)
            emit = outputs[i].out;
    if (emit && emit(&c, &b, rc)) {
        tt_buf_free(&b);
        cli_errorf("out of memory");
        rc = CLI_BAD;
        goto out;
    } else if (o->format == DIFF_FOLDED) {
        fsink fs = {&b, !o->output, {0, 0}};
        unsigned units[2];
        int frc = tdb_diff_folded(units, d, folded_line, &fs, &err);
        if (frc) {
            tt_buf_free(&b);
            rc = cli_err(&err);
            goto out;
        }
        if (!o->quiet)
            folded_notes(o, &fs, units);
    }
    /* -o FILE: written aside and renamed over FILE (a failed diff leaves it as it was) */
    int wrc = cli_flame_write_file(o->output, &b);
    tt_buf_free(&b);
    if (wrc) {
        rc = wrc;
        goto out;
    }
    if ((o->format != DIFF_TEXT || o->output) && !o->quiet) {
        tt_buf e = {0};
        cli_diff__trips_text(&e, &c, "tracetool: diff: ");
        cli_stderr_text(e.data ? e.data : "", e.len);
        tt_buf_free(&e);
    }
out:
    free(c.sorted);
    tt_arena_free(c.arena);
    tt_vec_free(&c.items);
    tt_vec_free(&c.trips);
    return rc;
}
