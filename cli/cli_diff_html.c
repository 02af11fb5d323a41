/* tracetool diff: the HTML report's diff tables (visual.md 10.2 item 8), with the same items
 * and numbers as the text output. */
#include "cli_diff_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hrow {
    const item *it;
    int j, worse; /* -1: a row of one side only, neither */
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
        r = cli_diff__cmp_key(x->it, y->it);
    return r ? r : x->j - y->j;
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
        const smeta *m = &cli_diff_meta[it->section];
        for (int j = 0; it->reported && j < m->nval; j++) {
            if (!(it->sig & (1u << j)) || !m->drives[j])
                continue;
            double b = it->v[0][j], d = it->v[1][j] - b;
            /* a row of one side only is neither better nor worse (but an issue: on_row) */
            int one_side = it->have[0] != it->have[1] && it->section != TDB_DIFF_ISSUES;
            rows[n++] = (hrow){it, j, one_side ? -1 : m->dir[j] * d > 0,
                               b == 0 || isnan(b) ? INFINITY : fabs(d * 100.0 / b)};
        }
    }
    if (n)
        qsort(rows, n, sizeof *rows, cmp_hrows);
    int rc = 0;
    tt_buf f[9] = {{0}};
    for (size_t i = 0; i < n && !rc; i++) {
        const item *it = rows[i].it;
        const smeta *m = &cli_diff_meta[it->section];
        int j = rows[i].j;
        double b = it->v[0][j], v = it->v[1][j], d = v - b;
        for (int k = 0; k < 9; k++)
            f[k].len = 0, tt_buf_puts(&f[k], "");
        tt_buf_printf(&f[0], "%s%s%s", m->json, it->sub ? " " : "", it->sub ? it->sub : "");
        tt_buf_puts(&f[1], it->key);
        cli_diff__endpoints(&f[1], it);
        tt_buf_puts(&f[2], m->vname[j]);
        cli_diff__num(&f[3], b);
        cli_diff__num(&f[4], v);
        tt_buf_puts(&f[5], d >= 0 ? "+" : "");
        cli_diff__num(&f[5], d);
        if (b != 0 && !isnan(d))
            tt_buf_printf(&f[6], "%+.1f%%", d * 100.0 / fabs(b));
        else
            tt_buf_puts(&f[6], cli_diff__status_of(it));
        tt_buf_printf(&f[7], "%g %%", c->o->threshold_pct);
        if (m->unit[j] == U_MS)
            tt_buf_printf(&f[7], ", %g ms", c->o->min_ms);
        const trip *tr = cli_diff__trip_of(c, it, j);
        if (rows[i].worse < 0)
            tt_buf_puts(&f[8], cli_diff__status_of(it));
        else
            tt_buf_puts(&f[8], rows[i].worse ? "regression" : "improvement");
        if (rows[i].worse >= 0 && strcmp(cli_diff__status_of(it), "changed"))
            tt_buf_printf(&f[8], " (%s)", cli_diff__status_of(it));
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
        if (tr->it) {
            tt_buf_printf(&f[1], "%s%s%s", tr->it->sub ? tr->it->sub : "",
                          tr->it->sub ? " " : "", tr->it->key);
            cli_diff__endpoints(&f[1], tr->it);
        } else
            tt_buf_puts(&f[1], "new issue stack keys");
        cli_diff__num(&f[2], tr->base);
        cli_diff__num(&f[3], tr->new_value);
        tt_buf_puts(&f[4], tr->new_value - tr->base >= 0 ? "+" : "");
        cli_diff__num(&f[4], tr->new_value - tr->base);
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
    cli_diff__counts(c, &reg, &imp);
    char v[5][32];
    snprintf(v[0], sizeof v[0], "%d", reg);
    snprintf(v[1], sizeof v[1], "%d", imp);
    snprintf(v[2], sizeof v[2], "%zu", cli_diff__gates_tripped(c));
    snprintf(v[3], sizeof v[3], "%zu", c->trips.len);
    snprintf(v[4], sizeof v[4], "%d", rc);
    static const char *const what[5] = {"regressions", "improvements", "gates tripped",
                                        "rows the gates tripped on",
                                        "exit status of tracetool diff"};
    for (int k = 0; k < 5; k++) {
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
        tt_buf_puts(&f[0], cli_diff_meta[it->section].json);
        tt_buf_puts(&f[1], it->key);
        cli_diff__num(&f[2], it->v[0][0]);
        cli_diff__num(&f[3], it->v[1][0]);
        tt_buf_puts(&f[4], d >= 0 ? "+" : "");
        cli_diff__num(&f[4], d);
        if (b != 0)
            tt_buf_printf(&f[5], "%+.1f%%", d * 100.0 / fabs(b));
        else
            tt_buf_puts(&f[5], cli_diff__status_of(it));
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

int cli_diff__html_tables(const dctx *c, tt_buf *b, int rc)
{
    (void)b;
    tt_hreport *r = c->o->report;
    if (!r)
        return 0;
    return hr_regressions(c, r) || hr_verdict(c, r, rc) || hr_methods(c, r, 1) ||
           hr_methods(c, r, 0);
}

