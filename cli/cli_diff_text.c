/* tracetool diff: the text and JSON outputs (keys listed in tracetool-diff(1)). */
#include "cli_diff_int.h"

#include <math.h>
#include <string.h>



static void value_text(tt_buf *b, const smeta *m, int j, const item *it)
{
    tt_buf_printf(b, "  %s ", m->vname[j]);
    cli_diff__num(b, it->v[0][j]);
    tt_buf_puts(b, " -> ");
    cli_diff__num(b, it->v[1][j]);
    if (it->v[1][j] != it->v[0][j]) {
        tt_buf_puts(b, " (");
        cli_diff__delta_text(b, it->v[0][j], it->v[1][j]);
        tt_buf_puts(b, ")");
    }
}


static void text_items(tt_buf *b, const dctx *c, int section)
{
    const smeta *m = &cli_diff_meta[section];
    const item *const *items = (const item *const *)c->sorted;
    int any = 0;
    for (size_t i = 0; i < c->items.len; i++) {
        const item *it = items[i];
        if (it->section != section || !it->reported)
            continue;
        if (!any++)
            tt_buf_printf(b, "\n%s:\n", m->title);
        tt_buf_printf(b, "%c %-8s ", it->mark > 0 ? '+' : it->mark < 0 ? '-' : ' ',
                      cli_diff__status_of(it));
        cli_diff__subject(b, it);
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
            tt_buf_printf(b, "  %-8s ", what[w]);
            cli_diff__name(b, it->key);
            tt_buf_puts(b, " (self ");
            cli_diff__num(b, it->v[0][0]);
            tt_buf_puts(b, " -> ");
            cli_diff__num(b, it->v[1][0]);
            tt_buf_puts(b, " ms)\n");
        }
}




int cli_diff__text_out(const dctx *c, tt_buf *b, int rc)
{
    static const char *const side[2] = {"base", "new "};
    for (int s = 0; s < 2; s++) {
        tt_buf_printf(b, "%s: ", side[s]);
        cli_diff__name(b, c->o->path[s]);
        tt_buf_printf(b, " (%s, %lld trace%s)\n",
                      c->o->is_db[s] ? "database" : "analysed inputs", (long long)c->traces[s],
                      c->traces[s] == 1 ? "" : "s");
    }
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
    cli_diff__trips_text(b, c, "");
    int reg, imp;
    cli_diff__counts(c, &reg, &imp);
    size_t gates = cli_diff__gates_tripped(c), rows = c->trips.len;
    tt_buf_printf(b, "result: %d regression%s, %d improvement%s, %zu gate%s tripped", reg,
                  reg == 1 ? "" : "s", imp, imp == 1 ? "" : "s", gates, gates == 1 ? "" : "s");
    if (gates)
        tt_buf_printf(b, " on %zu row%s", rows, rows == 1 ? "" : "s");
    tt_buf_printf(b, " (exit %d)\n", rc);
    return 0;
}

/* ---- JSON (keys listed in tracetool-diff(1)) ---- */
/* A value rounded to 6 decimals (1 ns for ms): no binary noise such as 1.0420000000000003 */
static double round6(double v)
{
    return isfinite(v) && fabs(v) < 1e9 ? round(v * 1e6) / 1e6 : v;
}

static void jnum(tt_jsonw *w, double v)
{
    if (isnan(v))
        tt_jsonw_null(w);
    else
        tt_jsonw_double(w, round6(v));
}

/* delta and delta_pct from the full values (each rounded only when written); delta_pct is
 * null where base is written as 0 */
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
    jnum(w, round6(b) != 0 ? (n - b) * 100.0 / fabs(b) : NAN);
    tt_jsonw_obj_end(w);
}

/* "from" and "to" of a startup row: the endpoint events, null where none were recorded */
static void json_endpoints(tt_jsonw *w, const item *it)
{
    const char *ep[2] = {it->from, it->to};
    static const char *const name[2] = {"from", "to"};
    for (int i = 0; i < 2; i++) {
        tt_jsonw_key(w, name[i]);
        if (ep[i])
            tt_jsonw_str(w, ep[i]);
        else
            tt_jsonw_null(w);
    }
}

static void json_items(tt_jsonw *w, const dctx *c, int section)
{
    const smeta *m = &cli_diff_meta[section];
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
        if (section == TDB_DIFF_STARTUP)
            json_endpoints(w, it);
        tt_jsonw_key(w, "status");
        tt_jsonw_str(w, cli_diff__status_of(it));
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
        tt_jsonw_str(w, t->it ? cli_diff_meta[t->it->section].json : "issues");
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
        if (t->it && t->it->section == TDB_DIFF_STARTUP)
            json_endpoints(w, t->it);
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
    cli_diff__counts(c, &reg, &imp);
    tt_jsonw_key(w, "regressions");
    tt_jsonw_int(w, reg);
    tt_jsonw_key(w, "improvements");
    tt_jsonw_int(w, imp);
    tt_jsonw_key(w, "exit");
    tt_jsonw_int(w, rc);
    tt_jsonw_obj_end(w);
    tt_buf_puts(&w->buf, "\n");
}


int cli_diff__json_out(const dctx *c, tt_buf *b, int rc)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    tt_buf_free(&w.buf);
    w.buf = *b;
    json_out(&w, c, rc);
    *b = w.buf;
    return 0;
}
