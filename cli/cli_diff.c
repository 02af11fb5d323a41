/* tracetool diff: filters, hot set, CI gates and the text/JSON/folded-diff outputs
 * (tracetool-diff(1); cross-build matching by name, storage.md 8). */
#include "cli_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { U_MS, U_COUNT, U_FPS, U_PCT };

/* Per section: JSON names, units, regression direction, which values can make a row
 * "changed" (drives), the primary value (sorting, +/- marker) and the count values. */
typedef struct smeta {
    const char *json, *title, *subname, *keyname, *added, *removed;
    int nval;
    const char *vname[TDB_DIFF_NVAL];
    int unit[TDB_DIFF_NVAL], dir[TDB_DIFF_NVAL], drives[TDB_DIFF_NVAL];
    int count[2]; /* value indexes summed for --min-count; -1 unused */
    int named;    /* keys are method/function names: unresolved/obfuscated checks */
} smeta;

static const smeta meta[TDB_DIFF__COUNT] = {
    [TDB_DIFF_METHODS] = {"methods", "methods (self / total ms, calls)", NULL, "name", "added",
                          "removed", 3, {"self_ms", "total_ms", "calls"},
                          {U_MS, U_MS, U_COUNT}, {1, 1, 1}, {1, 1, 0}, {2, -1}, 1},
    [TDB_DIFF_ISSUES] = {"issues", "issues (count, cost ms) by stack key", "kind", "stack_key",
                         "new", "resolved", 3, {"count", "max_cost_ms", "avg_cost_ms"},
                         {U_COUNT, U_MS, U_MS}, {1, 1, 1}, {1, 1, 1}, {0, -1}, 1},
    [TDB_DIFF_STARTUP] = {"startup", "startup (average ms)", "kind", "name", "added", "removed",
                          2, {"avg_ms", "count"}, {U_MS, U_COUNT}, {1, 1}, {1, 0}, {1, -1}, 0},
    [TDB_DIFF_SCENES] = {"scenes", "scenes (frame statistics)", "model", "scene", "added",
                         "removed", 10,
                         {"fps", "jank_pct", "p50_ms", "p90_ms", "p95_ms", "p99_ms",
                          "frozen_pct", "high_pct", "middle_pct", "frames"},
                         {U_FPS, U_PCT, U_MS, U_MS, U_MS, U_MS, U_PCT, U_PCT, U_PCT, U_COUNT},
                         {-1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                         {1, 1, 1, 1, 1, 1, 1, 1, 1, 0}, {9, -1}, 0},
    [TDB_DIFF_SAMPLED] = {"sampled", "sampled functions (self / total ms, leaf samples)", NULL,
                          "name", "added", "removed", 4,
                          {"self_ms", "total_ms", "samples", "calls"},
                          {U_MS, U_MS, U_COUNT, U_COUNT}, {1, 1, 1, 1}, {1, 1, 1, 0}, {2, 3},
                          1},
};

/* --fail-on metric -> section, value and row filter */
static const struct {
    const char *metric;
    int section, val;
    const char *sub; /* startup kind; NULL = any */
    int total;       /* startup: 1 only 'total' and 'launch:' rows, 0 only segments */
} gate_map[] = {
    {"method.self", TDB_DIFF_METHODS, 0, NULL, -1},
    {"method.total", TDB_DIFF_METHODS, 1, NULL, -1},
    {"method.calls", TDB_DIFF_METHODS, 2, NULL, -1},
    {"issue.count", TDB_DIFF_ISSUES, 0, NULL, -1},
    {"issue.cost", TDB_DIFF_ISSUES, 1, NULL, -1},
    {"startup.cold", TDB_DIFF_STARTUP, 0, "cold", 1},
    {"startup.warm", TDB_DIFF_STARTUP, 0, "warm", 1},
    {"startup.hot", TDB_DIFF_STARTUP, 0, "hot", 1},
    {"startup.segment", TDB_DIFF_STARTUP, 0, NULL, 0},
    {"scene.fps", TDB_DIFF_SCENES, 0, NULL, -1},
    {"scene.jank", TDB_DIFF_SCENES, 1, NULL, -1},
    {"scene.p50", TDB_DIFF_SCENES, 2, NULL, -1},
    {"scene.p90", TDB_DIFF_SCENES, 3, NULL, -1},
    {"scene.p95", TDB_DIFF_SCENES, 4, NULL, -1},
    {"scene.p99", TDB_DIFF_SCENES, 5, NULL, -1},
    {"scene.frozen", TDB_DIFF_SCENES, 6, NULL, -1},
    {"scene.high", TDB_DIFF_SCENES, 7, NULL, -1},
    {"sampled.self", TDB_DIFF_SAMPLED, 0, NULL, -1},
    {"sampled.total", TDB_DIFF_SAMPLED, 1, NULL, -1},
    {"sampled.samples", TDB_DIFF_SAMPLED, 2, NULL, -1},
};

typedef struct item {
    int section;
    const char *sub, *key;
    int have[2];
    double v[2][TDB_DIFF_NVAL];
    int count_ok, reported, mark; /* mark: +1 regression, -1 improvement, 0 neutral */
    unsigned sig;                 /* bit j: value j changed beyond the noise filters */
    int hot[2];
} item;

typedef struct trip {
    char gate[64];
    const item *it; /* NULL for issue.new */
    double base, new_value, amount;
    int is_pct;
} trip;

typedef struct dctx {
    const cli_diff_opts *o;
    tt_arena *arena;
    tt_vec items; /* item */
    tt_vec trips; /* trip */
    uint64_t unmatched[2][3]; /* side x TT_NAME_* */
    int64_t traces[2];
    item **sorted; /* items in output order */
    int section;
    int oom;
} dctx;

void cli_diff_default_gates(cli_diff_opts *o)
{
    static const char *const pct[] = {"method.self", "startup.cold", "startup.warm",
                                      "startup.hot", "scene.fps"};
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
    const smeta *m = &meta[c->section];
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
    if (!it.key || (r->sub && !it.sub)) {
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
    if (!tt_vec_push(&c->items, &it)) {
        c->oom = 1;
        return 1;
    }
    return 0;
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
    if (it->section != gate_map[g].section || !it->count_ok)
        return 0;
    if (gate_map[g].sub && (!it->sub || strcmp(it->sub, gate_map[g].sub)))
        return 0;
    if (gate_map[g].total >= 0) {
        int total = !strcmp(it->key, "total") || !strncmp(it->key, "launch:", 7);
        if (total != gate_map[g].total)
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
        while (m < sizeof gate_map / sizeof gate_map[0] && strcmp(gate_map[m].metric, g->metric))
            m++;
        if (m == sizeof gate_map / sizeof gate_map[0])
            continue;
        int j = gate_map[m].val, unit = meta[gate_map[m].section].unit[j];
        for (size_t i = 0; i < c->items.len; i++) {
            const item *it = &items[i];
            double b = it->v[0][j], n = it->v[1][j], amt;
            if (!gate_applies(m, it) || (unit == U_MS && fabs(n - b) < o->min_ms))
                continue;
            if (tt_gate_trips(g, b, n, &amt) && push_trip(c, g, it, b, n, amt))
                return -1;
        }
    }
    return 0;
}

/* ---- ordering: sections in table order, rows by impact (primary delta), then name ---- */
static double impact(const item *it)
{
    for (int j = 0; j < meta[it->section].nval; j++)
        if (it->sig & (1u << j) && meta[it->section].drives[j])
            return fabs(it->v[1][j] - it->v[0][j]) * (j == 0 ? 1e6 : 1);
    return 0;
}

static int cmp_items(const void *a, const void *b)
{
    const item *x = *(item *const *)a, *y = *(item *const *)b;
    if (x->section != y->section)
        return x->section - y->section;
    double p = impact(x), q = impact(y);
    if (p != q)
        return p < q ? 1 : -1;
    int r = strcmp(x->sub ? x->sub : "", y->sub ? y->sub : "");
    return r ? r : strcmp(x->key, y->key);
}

static int cmp_trips(const void *a, const void *b)
{
    const trip *x = a, *y = b;
    int r = strcmp(x->gate, y->gate);
    if (r)
        return r;
    double p = x->is_pct && x->base ? x->amount / fabs(x->base) : x->amount;
    double q = y->is_pct && y->base ? y->amount / fabs(y->base) : y->amount;
    if (p != q)
        return p < q ? 1 : -1;
    return strcmp(x->it ? x->it->key : "", y->it ? y->it->key : "");
}

/* ---- text ---- */
static void num(tt_buf *b, double v)
{
    if (isnan(v)) {
        tt_buf_puts(b, "-");
        return;
    }
    char s[64];
    if (fabs(v - round(v)) < 1e-9)
        snprintf(s, sizeof s, "%.0f", v);
    else {
        snprintf(s, sizeof s, "%.2f", v);
        char *e = s + strlen(s);
        while (e[-1] == '0')
            *--e = 0;
        if (e[-1] == '.') /* 153.999 prints 154.00: no bare point */
            *--e = 0;
    }
    tt_buf_puts(b, s);
}

static void delta_text(tt_buf *b, double base, double n)
{
    double d = n - base;
    tt_buf_puts(b, d >= 0 ? "+" : "");
    num(b, d);
    if (base != 0 && !isnan(d)) {
        tt_buf_printf(b, ", %+.1f%%", d * 100.0 / fabs(base));
    }
}

static void value_text(tt_buf *b, const smeta *m, int j, const item *it)
{
    tt_buf_printf(b, "  %s ", m->vname[j]);
    num(b, it->v[0][j]);
    tt_buf_puts(b, " -> ");
    num(b, it->v[1][j]);
    if (it->v[1][j] != it->v[0][j]) {
        tt_buf_puts(b, " (");
        delta_text(b, it->v[0][j], it->v[1][j]);
        tt_buf_puts(b, ")");
    }
}

static const char *status_of(const item *it)
{
    const smeta *m = &meta[it->section];
    return !it->have[0] ? m->added : !it->have[1] ? m->removed : "changed";
}

static void text_items(tt_buf *b, const dctx *c, int section)
{
    const smeta *m = &meta[section];
    const item *const *items = (const item *const *)c->sorted;
    int any = 0;
    for (size_t i = 0; i < c->items.len; i++) {
        const item *it = items[i];
        if (it->section != section || !it->reported)
            continue;
        if (!any++)
            tt_buf_printf(b, "\n%s:\n", m->title);
        tt_buf_printf(b, "%c %-8s ", it->mark > 0 ? '+' : it->mark < 0 ? '-' : ' ',
                      status_of(it));
        if (it->sub)
            tt_buf_printf(b, "%s ", it->sub);
        tt_buf_puts(b, it->key);
        tt_buf_puts(b, "\n   ");
        for (int j = 0; j < m->nval; j++)
            if (j == 0 || (it->sig & (1u << j)) || section == TDB_DIFF_METHODS)
                value_text(b, m, j, it);
        tt_buf_puts(b, "\n");
    }
}

static void text_hot(tt_buf *b, const dctx *c)
{
    const item *const *items = (const item *const *)c->sorted;
    static const char *const what[2] = {"entering", "leaving"};
    int header = 0;
    for (int w = 0; w < 2; w++)
        for (size_t i = 0; i < c->items.len; i++) {
            const item *it = items[i];
            if (it->section != TDB_DIFF_METHODS || it->hot[1 - w] == 0 || it->hot[w] == 1)
                continue;
            if (!header++)
                tt_buf_printf(b, "\nhot set (top %d methods by self time):\n", c->o->top);
            tt_buf_printf(b, "  %-8s %s (self ", what[w], it->key);
            num(b, it->v[0][0]);
            tt_buf_puts(b, " -> ");
            num(b, it->v[1][0]);
            tt_buf_puts(b, " ms)\n");
        }
}

static void trip_text(tt_buf *b, const trip *t)
{
    tt_buf_printf(b, "gate %s tripped: ", t->gate);
    if (!t->it) {
        tt_buf_printf(b, "%.0f new issue stack key%s\n", t->new_value,
                      t->new_value == 1 ? "" : "s");
        return;
    }
    if (t->it->sub)
        tt_buf_printf(b, "%s ", t->it->sub);
    tt_buf_printf(b, "%s ", t->it->key);
    num(b, t->base);
    tt_buf_puts(b, " -> ");
    num(b, t->new_value);
    tt_buf_puts(b, " (");
    delta_text(b, t->base, t->new_value);
    tt_buf_puts(b, ")\n");
}

/* The tripped gates, at most TRIPS_SHOWN rows per gate (JSON lists them all). */
#define TRIPS_SHOWN 10
static void trips_text(tt_buf *b, const dctx *c, const char *prefix)
{
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < c->trips.len; i++) {
        const trip *t = &TT_VEC_AT(&c->trips, trip, i);
        if (i && strcmp(t->gate, TT_VEC_AT(&c->trips, trip, i - 1).gate))
            shown = 0;
        if (shown++ < TRIPS_SHOWN) {
            tt_buf_puts(b, prefix);
            trip_text(b, t);
        } else {
            more++;
        }
        if (more && (i + 1 == c->trips.len ||
                     strcmp(t->gate, TT_VEC_AT(&c->trips, trip, i + 1).gate))) {
            tt_buf_printf(b, "%sgate %s tripped on %zu more rows\n", prefix, t->gate, more);
            more = 0;
        }
    }
}

static void counts(const dctx *c, int *reg, int *imp)
{
    *reg = *imp = 0;
    const item *items = c->items.data;
    for (size_t i = 0; i < c->items.len; i++)
        if (items[i].reported) {
            *reg += items[i].mark > 0;
            *imp += items[i].mark < 0;
        }
}

static void text_out(tt_buf *b, const dctx *c, int rc)
{
    static const char *const side[2] = {"base", "new "};
    for (int s = 0; s < 2; s++)
        tt_buf_printf(b, "%s: %s (%s, %lld trace%s)\n", side[s], c->o->path[s],
                      c->o->is_db[s] ? "database" : "analysed inputs", (long long)c->traces[s],
                      c->traces[s] == 1 ? "" : "s");
    for (int sec = 0; sec < TDB_DIFF__COUNT; sec++) {
        text_items(b, c, sec);
        if (sec == TDB_DIFF_METHODS)
            text_hot(b, c);
    }
    for (int s = 0, any = 0; s < 2; s++)
        if (c->unmatched[s][1] || c->unmatched[s][2])
            tt_buf_printf(b, "%snot paired (%s): %llu unresolved, %llu obfuscated names\n",
                          any++ ? "" : "\n", s ? "new" : "base",
                          (unsigned long long)c->unmatched[s][1],
                          (unsigned long long)c->unmatched[s][2]);
    tt_buf_puts(b, "\n");
    trips_text(b, c, "");
    int reg, imp;
    counts(c, &reg, &imp);
    tt_buf_printf(b, "result: %d regression%s, %d improvement%s, %zu gate%s tripped (exit %d)\n",
                  reg, reg == 1 ? "" : "s", imp, imp == 1 ? "" : "s", c->trips.len,
                  c->trips.len == 1 ? "" : "s", rc);
}

/* ---- JSON (keys listed in tracetool-diff(1)) ---- */
static void jnum(tt_jsonw *w, double v)
{
    if (isnan(v))
        tt_jsonw_null(w);
    else
        tt_jsonw_double(w, v);
}

static void json_pair(tt_jsonw *w, double b, double n)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "base");
    jnum(w, b);
    tt_jsonw_key(w, "new");
    jnum(w, n);
    tt_jsonw_key(w, "delta");
    jnum(w, n - b);
    tt_jsonw_key(w, "delta_pct");
    jnum(w, b != 0 ? (n - b) * 100.0 / fabs(b) : NAN);
    tt_jsonw_obj_end(w);
}

static void json_items(tt_jsonw *w, const dctx *c, int section)
{
    const smeta *m = &meta[section];
    const item *const *items = (const item *const *)c->sorted;
    tt_jsonw_key(w, m->json);
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; i < c->items.len; i++) {
        const item *it = items[i];
        if (it->section != section || !it->reported)
            continue;
        tt_jsonw_obj_begin(w);
        if (m->subname) {
            tt_jsonw_key(w, m->subname);
            tt_jsonw_str(w, it->sub ? it->sub : "");
        }
        tt_jsonw_key(w, m->keyname);
        tt_jsonw_str(w, it->key);
        tt_jsonw_key(w, "status");
        tt_jsonw_str(w, status_of(it));
        tt_jsonw_key(w, "regression");
        tt_jsonw_bool(w, it->mark > 0);
        for (int j = 0; j < m->nval; j++) {
            tt_jsonw_key(w, m->vname[j]);
            json_pair(w, it->v[0][j], it->v[1][j]);
        }
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_arr_end(w);
}

static void json_hot(tt_jsonw *w, const dctx *c)
{
    const item *const *items = (const item *const *)c->sorted;
    tt_jsonw_key(w, "hot_set");
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "top");
    tt_jsonw_int(w, c->o->top);
    static const char *const what[2] = {"entering", "leaving"};
    for (int s = 0; s < 2; s++) {
        tt_jsonw_key(w, what[s]);
        tt_jsonw_arr_begin(w);
        for (size_t i = 0; i < c->items.len; i++)
            if (items[i]->section == TDB_DIFF_METHODS && items[i]->hot[1 - s] && !items[i]->hot[s])
                tt_jsonw_str(w, items[i]->key);
        tt_jsonw_arr_end(w);
    }
    tt_jsonw_obj_end(w);
}

static void json_trips(tt_jsonw *w, const dctx *c)
{
    tt_jsonw_key(w, "tripped");
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; i < c->trips.len; i++) {
        const trip *t = &TT_VEC_AT(&c->trips, trip, i);
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "gate");
        tt_jsonw_str(w, t->gate);
        tt_jsonw_key(w, "section");
        tt_jsonw_str(w, t->it ? meta[t->it->section].json : "issues");
        tt_jsonw_key(w, "sub");
        if (t->it && t->it->sub)
            tt_jsonw_str(w, t->it->sub);
        else
            tt_jsonw_null(w);
        tt_jsonw_key(w, "key");
        if (t->it)
            tt_jsonw_str(w, t->it->key);
        else
            tt_jsonw_null(w);
        tt_jsonw_key(w, "value");
        json_pair(w, t->base, t->new_value);
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_arr_end(w);
}

static void json_out(tt_jsonw *w, const dctx *c, int rc)
{
    const cli_diff_opts *o = c->o;
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "version");
    tt_jsonw_int(w, 1);
    static const char *const side[2] = {"base", "new"};
    for (int s = 0; s < 2; s++) {
        tt_jsonw_key(w, side[s]);
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "path");
        tt_jsonw_str(w, o->path[s]);
        tt_jsonw_key(w, "source");
        tt_jsonw_str(w, o->is_db[s] ? "database" : "inputs");
        tt_jsonw_key(w, "traces");
        tt_jsonw_int(w, c->traces[s]);
        tt_jsonw_key(w, "unresolved");
        tt_jsonw_uint(w, c->unmatched[s][1]);
        tt_jsonw_key(w, "obfuscated");
        tt_jsonw_uint(w, c->unmatched[s][2]);
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_key(w, "options");
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "threshold_pct");
    tt_jsonw_double(w, o->threshold_pct);
    tt_jsonw_key(w, "min_ms");
    tt_jsonw_double(w, o->min_ms);
    tt_jsonw_key(w, "min_count");
    tt_jsonw_int(w, o->min_count);
    tt_jsonw_key(w, "top");
    tt_jsonw_int(w, o->top);
    tt_jsonw_key(w, "gates");
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; i < o->ngates; i++) {
        char g[64];
        tt_gate_format(g, sizeof g, &o->gates[i]);
        tt_jsonw_str(w, g);
    }
    tt_jsonw_arr_end(w);
    tt_jsonw_obj_end(w);
    for (int sec = 0; sec < TDB_DIFF__COUNT; sec++) {
        json_items(w, c, sec);
        if (sec == TDB_DIFF_METHODS)
            json_hot(w, c);
    }
    json_trips(w, c);
    int reg, imp;
    counts(c, &reg, &imp);
    tt_jsonw_key(w, "regressions");
    tt_jsonw_int(w, reg);
    tt_jsonw_key(w, "improvements");
    tt_jsonw_int(w, imp);
    tt_jsonw_key(w, "exit");
    tt_jsonw_int(w, rc);
    tt_jsonw_obj_end(w);
    tt_buf_puts(&w->buf, "\n");
}

static int folded_line(void *ctx, const char *path, int64_t base_ns, int64_t new_ns)
{
    tt_buf *b = ctx;
    long long x = llround((double)base_ns / 1e6), y = llround((double)new_ns / 1e6);
    if (x || y)
        tt_buf_printf(b, "%s %lld %lld\n", path, x, y);
    if (b->len > 1 << 16)
        cli_out_buf(b);
    return 0;
}

/* ---- the HTML report's diff tables (visual.md 10.2 item 8): the same items and numbers ---- */
typedef struct hrow {
    const item *it;
    int j, worse;
    double pct; /* |delta %|; INFINITY when the base is 0 or missing */
} hrow;

static int cmp_hrows(const void *a, const void *b)
{
    const hrow *x = a, *y = b;
    if (x->worse != y->worse)
        return y->worse - x->worse;
    if (x->pct != y->pct)
        return x->pct < y->pct ? 1 : -1;
    int r = x->it->section - y->it->section;
    if (!r)
        r = strcmp(x->it->sub ? x->it->sub : "", y->it->sub ? y->it->sub : "");
    if (!r)
        r = strcmp(x->it->key, y->it->key);
    return r ? r : x->j - y->j;
}

/* The gate that tripped on value j of it, if any. */
static const trip *trip_of(const dctx *c, const item *it, int j)
{
    for (size_t i = 0; i < c->trips.len; i++) {
        const trip *t = &TT_VEC_AT(&c->trips, trip, i);
        if (t->it != it)
            continue;
        for (size_t m = 0; m < sizeof gate_map / sizeof gate_map[0]; m++)
            if (gate_map[m].section == it->section && gate_map[m].val == j &&
                !strncmp(t->gate, gate_map[m].metric, strlen(gate_map[m].metric)))
                return t;
    }
    return NULL;
}

static char *bufdup(tt_buf *b)
{
    return b->data ? b->data : (char *)"";
}

static int hr_regressions(const dctx *c, tt_hreport *r)
{
    static const char *const cols[] = {"area", "key", "metric", "base", "new", "delta",
                                       "delta %", "threshold", "verdict"};
    tt_hreport_table *t;
    char cap[160];
    snprintf(cap, sizeof cap, "Regressions and improvements (as tracetool diff reports them: "
             "changes of at least %g %%, and %g ms for times)", c->o->threshold_pct,
             c->o->min_ms);
    if (tt_hreport_table_add(r, &t, "diff", cap, 9, cols))
        return -1;
    size_t n = 0;
    hrow *rows = malloc((c->items.len * TDB_DIFF_NVAL + 1) * sizeof *rows);
    if (!rows)
        return -1;
    for (size_t i = 0; i < c->items.len; i++) {
        const item *it = c->sorted[i];
        const smeta *m = &meta[it->section];
        for (int j = 0; it->reported && j < m->nval; j++) {
            if (!(it->sig & (1u << j)) || !m->drives[j])
                continue;
            double b = it->v[0][j], d = it->v[1][j] - b;
            rows[n++] = (hrow){it, j, m->dir[j] * d > 0,
                               b == 0 || isnan(b) ? INFINITY : fabs(d * 100.0 / b)};
        }
    }
    if (n)
        qsort(rows, n, sizeof *rows, cmp_hrows);
    int rc = 0;
    tt_buf f[9] = {{0}};
    for (size_t i = 0; i < n && !rc; i++) {
        const item *it = rows[i].it;
        const smeta *m = &meta[it->section];
        int j = rows[i].j;
        double b = it->v[0][j], v = it->v[1][j], d = v - b;
        for (int k = 0; k < 9; k++)
            f[k].len = 0, tt_buf_puts(&f[k], "");
        tt_buf_printf(&f[0], "%s%s%s", m->json, it->sub ? " " : "", it->sub ? it->sub : "");
        tt_buf_puts(&f[1], it->key);
        tt_buf_puts(&f[2], m->vname[j]);
        num(&f[3], b);
        num(&f[4], v);
        tt_buf_puts(&f[5], d >= 0 ? "+" : "");
        num(&f[5], d);
        if (b != 0 && !isnan(d))
            tt_buf_printf(&f[6], "%+.1f%%", d * 100.0 / fabs(b));
        else
            tt_buf_puts(&f[6], status_of(it));
        tt_buf_printf(&f[7], "%g %%", c->o->threshold_pct);
        if (m->unit[j] == U_MS)
            tt_buf_printf(&f[7], ", %g ms", c->o->min_ms);
        const trip *tr = trip_of(c, it, j);
        tt_buf_puts(&f[8], rows[i].worse ? "regression" : "improvement");
        if (strcmp(status_of(it), "changed"))
            tt_buf_printf(&f[8], " (%s)", status_of(it));
        if (tr)
            tt_buf_printf(&f[8], ", gate %s tripped", tr->gate);
        const char *cells[9];
        for (int k = 0; k < 9; k++)
            cells[k] = bufdup(&f[k]);
        double nums[9] = {NAN, NAN, NAN, b, v, d, rows[i].pct == INFINITY ? NAN
                                                                          : d * 100.0 / fabs(b),
                          NAN, NAN};
        rc = tt_hreport_row_add(r, t, cells, nums);
    }
    for (int k = 0; k < 9; k++)
        tt_buf_free(&f[k]);
    free(rows);
    return rc ? -1 : 0;
}

static int hr_verdict(const dctx *c, tt_hreport *r, int rc)
{
    static const char *const cols[] = {"gate", "subject", "base", "new", "delta"};
    tt_hreport_table *t;
    if (tt_hreport_table_add(r, &t, "diff", "Tripped gates", 5, cols))
        return -1;
    tt_buf f[5] = {{0}};
    int bad = 0;
    for (size_t i = 0; i < c->trips.len && !bad; i++) {
        const trip *tr = &TT_VEC_AT(&c->trips, trip, i);
        for (int k = 0; k < 5; k++)
            f[k].len = 0, tt_buf_puts(&f[k], "");
        tt_buf_puts(&f[0], tr->gate);
        if (tr->it)
            tt_buf_printf(&f[1], "%s%s%s", tr->it->sub ? tr->it->sub : "",
                          tr->it->sub ? " " : "", tr->it->key);
        else
            tt_buf_puts(&f[1], "new issue stack keys");
        num(&f[2], tr->base);
        num(&f[3], tr->new_value);
        tt_buf_puts(&f[4], tr->new_value - tr->base >= 0 ? "+" : "");
        num(&f[4], tr->new_value - tr->base);
        const char *cells[5] = {bufdup(&f[0]), bufdup(&f[1]), bufdup(&f[2]), bufdup(&f[3]),
                                bufdup(&f[4])};
        double nums[5] = {NAN, NAN, tr->base, tr->new_value, tr->new_value - tr->base};
        bad = tt_hreport_row_add(r, t, cells, nums) != 0;
    }
    for (int k = 0; k < 5; k++)
        tt_buf_free(&f[k]);
    static const char *const vcols[] = {"item", "value"};
    if (bad || tt_hreport_table_add(r, &t, "diff", "Verdict", 2, vcols))
        return -1;
    int reg, imp;
    counts(c, &reg, &imp);
    char v[4][32];
    snprintf(v[0], sizeof v[0], "%d", reg);
    snprintf(v[1], sizeof v[1], "%d", imp);
    snprintf(v[2], sizeof v[2], "%zu", c->trips.len);
    snprintf(v[3], sizeof v[3], "%d", rc);
    static const char *const what[4] = {"regressions", "improvements", "gates tripped",
                                        "exit status of tracetool diff"};
    for (int k = 0; k < 4; k++) {
        const char *cells[2] = {what[k], v[k]};
        double nums[2] = {NAN, NAN};
        if (tt_hreport_row_add(r, t, cells, nums))
            return -1;
    }
    return 0;
}

static int cmp_self_delta(const void *a, const void *b)
{
    const item *x = *(item *const *)a, *y = *(item *const *)b;
    double p = fabs((isnan(x->v[1][0]) ? 0 : x->v[1][0]) - (isnan(x->v[0][0]) ? 0 : x->v[0][0]));
    double q = fabs((isnan(y->v[1][0]) ? 0 : y->v[1][0]) - (isnan(y->v[0][0]) ? 0 : y->v[0][0]));
    if (p != q)
        return p < q ? 1 : -1;
    int r = x->section - y->section;
    return r ? r : strcmp(x->key, y->key);
}

/* The 20 largest self-time increases (up) or decreases of methods and sampled functions. */
static int hr_methods(const dctx *c, tt_hreport *r, int up)
{
    static const char *const cols[] = {"area", "name", "base self ms", "new self ms",
                                       "delta ms", "delta %"};
    tt_hreport_table *t;
    if (tt_hreport_table_add(r, &t, "diff", up ? "Largest self-time increases (ms more)"
                                               : "Largest self-time decreases (ms less)",
                             6, cols))
        return -1;
    t->chart = TT_RCHART_BARS;
    t->label_col = 1;
    t->value_col = 4;
    t->unit = up ? "ms more" : "ms";
    t->color = up ? "#D55E00" : "#009E73";
    const item **v = malloc((c->items.len + 1) * sizeof *v);
    if (!v)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < c->items.len; i++) {
        const item *it = &TT_VEC_AT(&c->items, item, i);
        if (it->section != TDB_DIFF_METHODS && it->section != TDB_DIFF_SAMPLED)
            continue;
        double d = (isnan(it->v[1][0]) ? 0 : it->v[1][0]) - (isnan(it->v[0][0]) ? 0 : it->v[0][0]);
        if (up ? d > 0 : d < 0)
            v[n++] = it;
    }
    if (n)
        qsort(v, n, sizeof *v, cmp_self_delta);
    int rc = 0;
    tt_buf f[6] = {{0}};
    for (size_t i = 0; i < n && i < 20 && !rc; i++) {
        const item *it = v[i];
        double b = isnan(it->v[0][0]) ? 0 : it->v[0][0], nw = isnan(it->v[1][0]) ? 0 : it->v[1][0];
        double d = nw - b;
        for (int k = 0; k < 6; k++)
            f[k].len = 0, tt_buf_puts(&f[k], "");
        tt_buf_puts(&f[0], meta[it->section].json);
        tt_buf_puts(&f[1], it->key);
        num(&f[2], it->v[0][0]);
        num(&f[3], it->v[1][0]);
        tt_buf_puts(&f[4], d >= 0 ? "+" : "");
        num(&f[4], d);
        if (b != 0)
            tt_buf_printf(&f[5], "%+.1f%%", d * 100.0 / fabs(b));
        else
            tt_buf_puts(&f[5], status_of(it));
        const char *cells[6];
        for (int k = 0; k < 6; k++)
            cells[k] = bufdup(&f[k]);
        /* the chart draws the size of the change: a decrease as a positive bar, its table
         * cell keeps the sign */
        double nums[6] = {NAN, NAN, b, nw, fabs(d), b != 0 ? d * 100.0 / fabs(b) : NAN};
        rc = tt_hreport_row_add(r, t, cells, nums);
    }
    for (int k = 0; k < 6; k++)
        tt_buf_free(&f[k]);
    free(v);
    return rc ? -1 : 0;
}

static int hr_tables(const dctx *c, tt_hreport *r, int rc)
{
    return hr_regressions(c, r) || hr_verdict(c, r, rc) || hr_methods(c, r, 1) ||
           hr_methods(c, r, 0);
}

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
    tt_buf b = {0};
    if (o->format == DIFF_TEXT) {
        text_out(&b, &c, rc);
    } else if (o->format == DIFF_JSON) {
        tt_jsonw w;
        tt_jsonw_init(&w, 0);
        json_out(&w, &c, rc);
        cli_out_buf(&w.buf);
        tt_jsonw_free(&w);
    } else if (o->format == DIFF_HTML && o->report && hr_tables(&c, o->report, rc)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
        goto out;
    } else if (o->format == DIFF_FOLDED) {
        int frc = tdb_diff_folded(d, folded_line, &b, &err);
        if (frc) {
            tt_buf_free(&b);
            rc = cli_err(&err);
            goto out;
        }
    }
    cli_out_buf(&b);
    tt_buf_free(&b);
    if (o->format != DIFF_TEXT && !o->quiet) {
        tt_buf e = {0};
        trips_text(&e, &c, "tracetool: diff: ");
        fputs(e.data ? e.data : "", stderr);
        tt_buf_free(&e);
    }
out:
    free(c.sorted);
    tt_arena_free(c.arena);
    tt_vec_free(&c.items);
    tt_vec_free(&c.trips);
    return rc;
}
