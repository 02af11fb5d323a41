/* tracetool diff: the tables of sections and gate metrics, and the number and gate texts that
 * several outputs print (cli_diff_int.h). */
#include "cli_diff_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const smeta cli_diff_meta[TDB_DIFF__COUNT] = {
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

const gate_metric cli_diff_gates[] = {
    {"method.self", TDB_DIFF_METHODS, 0, NULL, -1},
    {"method.total", TDB_DIFF_METHODS, 1, NULL, -1},
    {"method.calls", TDB_DIFF_METHODS, 2, NULL, -1},
    {"issue.count", TDB_DIFF_ISSUES, 0, NULL, -1},
    {"issue.cost", TDB_DIFF_ISSUES, 1, NULL, -1},
    {"startup.cold", TDB_DIFF_STARTUP, 0, "cold", 1},
    {"startup.warm", TDB_DIFF_STARTUP, 0, "warm", 1},
    {"startup.hot", TDB_DIFF_STARTUP, 0, "hot", 1},
    {"startup.relaunch", TDB_DIFF_STARTUP, 0, "relaunch", 1},
    {"startup.unknown", TDB_DIFF_STARTUP, 0, "unknown", 1},
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

const size_t cli_diff_ngates = sizeof cli_diff_gates / sizeof cli_diff_gates[0];

/* ---- text ---- */
void cli_diff__name(tt_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = 0; /* up to a control character: C0, DEL, UTF-8 C1 (C2 80..C2 9F) */
        while (p[n] && p[n] >= 0x20 && p[n] != 0x7f &&
               !(p[n] == 0xc2 && p[n + 1] >= 0x80 && p[n + 1] <= 0x9f))
            n++;
        tt_buf_put(b, (const char *)p, n);
        p += n;
        if (*p == 0xc2) {
            tt_buf_printf(b, "\\u00%02x", p[1]);
            p += 2;
        } else if (*p) {
            tt_buf_printf(b, "\\x%02x", *p++);
        }
    }
}

void cli_diff__num(tt_buf *b, double v)
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
    tt_buf_puts(b, strcmp(s, "-0") ? s : "0"); /* -0.001 is shown as 0, never as -0 */
}

void cli_diff__endpoints(tt_buf *b, const item *it)
{
    if (!it->from && !it->to)
        return;
    tt_buf_puts(b, " (");
    cli_diff__name(b, it->from ? it->from : "?");
    tt_buf_puts(b, "..");
    cli_diff__name(b, it->to ? it->to : "?");
    tt_buf_puts(b, ")");
}

void cli_diff__subject(tt_buf *b, const item *it)
{
    if (it->sub) {
        cli_diff__name(b, it->sub);
        tt_buf_puts(b, " ");
    }
    cli_diff__name(b, it->key);
    cli_diff__endpoints(b, it);
}

int cli_diff__cmp_key(const item *x, const item *y)
{
    int r = strcmp(x->key, y->key);
    if (!r)
        r = strcmp(x->from ? x->from : "", y->from ? y->from : "");
    return r ? r : strcmp(x->to ? x->to : "", y->to ? y->to : "");
}

void cli_diff__delta_text(tt_buf *b, double base, double n)
{
    double d = n - base;
    tt_buf num = {0};
    cli_diff__num(&num, d);
    if (num.len && num.data[0] != '-') /* the sign of the number as printed */
        tt_buf_puts(b, "+");
    if (num.len)
        tt_buf_put(b, num.data, num.len);
    tt_buf_free(&num);
    /* a percentage of a base shown as 0 (below 0.005) would contradict the numbers shown */
    if (fabs(base) >= 0.005 && !isnan(d))
        tt_buf_printf(b, ", %+.1f%%", d * 100.0 / fabs(base));
}

const char *cli_diff__status_of(const item *it)
{
    const smeta *m = &cli_diff_meta[it->section];
    return !it->have[0] ? m->added : !it->have[1] ? m->removed : "changed";
}

void cli_diff__trip_text(tt_buf *b, const trip *t)
{
    tt_buf_printf(b, "gate %s tripped: ", t->gate);
    if (!t->it) {
        tt_buf_printf(b, "%.0f new issue stack key%s\n", t->new_value,
                      t->new_value == 1 ? "" : "s");
        return;
    }
    cli_diff__subject(b, t->it);
    tt_buf_puts(b, " ");
    cli_diff__num(b, t->base);
    tt_buf_puts(b, " -> ");
    cli_diff__num(b, t->new_value);
    tt_buf_puts(b, " (");
    cli_diff__delta_text(b, t->base, t->new_value);
    tt_buf_puts(b, ")\n");
}

/* The tripped gates, at most TRIPS_SHOWN rows per gate, the largest changes (c->trips is in
 * that order); JSON lists them all. */
#define TRIPS_SHOWN 10
void cli_diff__trips_text(tt_buf *b, const dctx *c, const char *prefix)
{
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < c->trips.len; i++) {
        const trip *t = &TT_VEC_AT(&c->trips, trip, i);
        if (i && strcmp(t->gate, TT_VEC_AT(&c->trips, trip, i - 1).gate))
            shown = 0;
        if (shown++ < TRIPS_SHOWN) {
            tt_buf_puts(b, prefix);
            cli_diff__trip_text(b, t);
        } else {
            more++;
        }
        if (more && (i + 1 == c->trips.len ||
                     strcmp(t->gate, TT_VEC_AT(&c->trips, trip, i + 1).gate))) {
            tt_buf_printf(b, "%sgate %s tripped on %zu more row%s with smaller changes (all in "
                          "--format json)\n", prefix, t->gate, more, more == 1 ? "" : "s");
            more = 0;
        }
    }
}

size_t cli_diff__gates_tripped(const dctx *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->trips.len; i++)
        n += !i || strcmp(TT_VEC_AT(&c->trips, trip, i).gate,
                          TT_VEC_AT(&c->trips, trip, i - 1).gate);
    return n;
}

void cli_diff__counts(const dctx *c, int *reg, int *imp)
{
    *reg = *imp = 0;
    const item *items = c->items.data;
    for (size_t i = 0; i < c->items.len; i++)
        if (items[i].reported) {
            *reg += items[i].mark > 0;
            *imp += items[i].mark < 0;
        }
}

/* The gate that tripped on value j of it, if any. */
const trip *cli_diff__trip_of(const dctx *c, const item *it, int j)
{
    for (size_t i = 0; i < c->trips.len; i++) {
        const trip *t = &TT_VEC_AT(&c->trips, trip, i);
        if (t->it != it)
            continue;
        for (size_t m = 0; m < cli_diff_ngates; m++)
            if (cli_diff_gates[m].section == it->section && cli_diff_gates[m].val == j &&
                !strncmp(t->gate, cli_diff_gates[m].metric, strlen(cli_diff_gates[m].metric)))
                return t;
    }
    return NULL;
}

