/* analyze's summary (cli.md): the inputs and their status, row counts, top issues, worst
 * scenes, startups and the methods with the most self time, as text or JSON; --format jsonl
 * prints every row written instead. */
#include "cli_an_int.h"

#include <stdlib.h>
#include <string.h>

/* by IN_* */
static const char *const status_names[] = {"pending", "imported", "already_imported", "mapping",
                                           "skipped", "failed", "symbols"};

static int summ_row(void *ctx, int event, int ncol, const char *const *names,
                    const tdb_value *v)
{
    summ *s = ctx;
    if (event != TDB_EV_ROW)
        return 0;
    s->rows++;
    if (!strcmp(s->section, "counts")) {
        if (strcmp(v[0].s, "warnings")) /* text: "notices", the stats table's severity word */
            tt_buf_printf(&s->text, "%s%s %lld", s->rows > 1 ? ", " : "", v[0].s,
                          (long long)v[1].i);
        tt_jsonw_key(&s->json, v[0].s);
        tt_jsonw_int(&s->json, v[1].i);
        return 0;
    }
    tt_jsonw_obj_begin(&s->json);
    for (int c = 0; c < ncol; c++) {
        tt_jsonw_key(&s->json, names[c]);
        switch (v[c].type) {
        case TDB_INT: tt_jsonw_int(&s->json, v[c].i); break;
        case TDB_REAL: tt_jsonw_double(&s->json, v[c].r); break;
        case TDB_TEXT: tt_jsonw_str(&s->json, v[c].s); break;
        default: tt_jsonw_null(&s->json);
        }
    }
    tt_jsonw_obj_end(&s->json);
#define S(k) (v[k].type == TDB_TEXT ? v[k].s : "")
#define I(k) (long long)(v[k].type == TDB_INT ? v[k].i : 0)
    if (!strcmp(s->section, "top_issues"))
        tt_buf_printf(&s->text, "  %8lld ms  %-12s %s%s%s\n", I(1), S(0), S(2),
                      v[3].type == TDB_TEXT ? "  scene " : "", S(3));
    else if (!strcmp(s->section, "startups")) {
        char ms[32] = "-";
        if (v[2].type == TDB_INT || v[5].type == TDB_INT)
            snprintf(ms, sizeof ms, "%lld", v[2].type == TDB_INT ? I(2) : I(5));
        tt_buf_printf(&s->text, "  %-8s %-14s %6s ms", S(0), S(1), ms);
        if (v[3].type == TDB_INT)
            tt_buf_printf(&s->text, "  ttid %lld ms", I(3));
        if (v[4].type == TDB_INT)
            tt_buf_printf(&s->text, "  ttfd %lld ms", I(4));
        tt_buf_puts(&s->text, "\n");
    }
    else if (!strcmp(s->section, "issues_by_stack_key"))
        tt_buf_printf(&s->text, "  %5lld x  %-12s max %lld ms, avg %lld ms  %s\n", I(2), S(0),
                      I(3), I(4), S(1));
    else {
        /* NULL (unknown: reports give no jank, fps 0 reports no fps) is "-", never 0 */
        char fps[32] = "-", jank[32] = "-";
        if (v[3].type == TDB_REAL || v[3].type == TDB_INT)
            snprintf(fps, sizeof fps, "%.2f", v[3].type == TDB_REAL ? v[3].r : (double)I(3));
        if (v[4].type == TDB_INT)
            snprintf(jank, sizeof jank, "%lld", I(4));
        tt_buf_printf(&s->text, "  %6lld frames  %6s fps  %5s jank  %5lld bad  %-8s %s\n", I(2),
                      fps, jank, I(5), S(1), S(0));
    }
#undef S
#undef I
    return 0;
}

static const cli_an_acc *acc_base;
static int cmp_acc(const void *x, const void *y)
{
    const cli_an_acc *p = &acc_base[*(const uint32_t *)x], *q = &acc_base[*(const uint32_t *)y];
    if (p->self_ms != q->self_ms)
        return p->self_ms < q->self_ms ? 1 : -1;
    return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

/* The ten methods with the most self time in this run's slices, aggregated while they were
 * written (a GROUP BY over every slice would cost more than writing them). */
static void top_self(summ *s, cli_an *a)
{
    tt_vec ids;
    tt_vec_init(&ids, sizeof(uint32_t));
    /* the ids with calls (a->acc_ids: not a scan of the million entries) */
    for (size_t i = 0; i < a->acc_ids->len; i++)
        if (!tt_vec_push(&ids, &TT_VEC_AT(a->acc_ids, uint32_t, i)))
            break;
    acc_base = a->acc;
    if (ids.len)
        qsort(ids.data, ids.len, sizeof(uint32_t), cmp_acc);
    tt_jsonw_key(&s->json, "top_self_methods");
    tt_jsonw_arr_begin(&s->json);
    if (ids.len)
        tt_buf_puts(&s->text, "top methods by self time:\n");
    for (size_t i = 0; i < ids.len && i < 10; i++) {
        uint32_t id = TT_VEC_AT(&ids, uint32_t, i);
        const cli_an_acc *c = &a->acc[id];
        const char *name = cli_an_name(a, id);
        tt_jsonw_obj_begin(&s->json);
        tt_jsonw_key(&s->json, "name");
        tt_jsonw_str(&s->json, name ? name : "");
        tt_jsonw_key(&s->json, "calls");
        tt_jsonw_uint(&s->json, c->calls);
        tt_jsonw_key(&s->json, "self_ms");
        tt_jsonw_int(&s->json, c->self_ms);
        tt_jsonw_key(&s->json, "total_ms");
        tt_jsonw_int(&s->json, c->total_ms);
        tt_jsonw_obj_end(&s->json);
        tt_buf_printf(&s->text, "  %8lld ms self %8lld ms total %7llu calls  %s\n",
                      (long long)c->self_ms, (long long)c->total_ms,
                      (unsigned long long)c->calls, name ? name : "");
    }
    tt_jsonw_arr_end(&s->json);
    tt_vec_free(&ids);
}

void cli_an__summarize_inputs(summ *s, tt_vec *inputs)
{
    if (!s->json.buf.data) { /* --dry-run: no database line */
        tt_jsonw_init(&s->json, 0);
        tt_jsonw_obj_begin(&s->json);
    }
    tt_jsonw_key(&s->json, "inputs");
    tt_jsonw_arr_begin(&s->json);
    tt_buf_puts(&s->text, "inputs:\n");
    size_t nskip = 0, nfail = 0;
    for (size_t i = 0; i < inputs->len; i++) {
        ainput *ai = &TT_VEC_AT(inputs, ainput, i);
        tt_jsonw_obj_begin(&s->json);
        tt_jsonw_key(&s->json, "path");
        tt_jsonw_str(&s->json, ai->path);
        tt_jsonw_key(&s->json, "kind");
        tt_jsonw_str(&s->json, tt_kind_name(ai->kind));
        tt_jsonw_key(&s->json, "status");
        tt_jsonw_str(&s->json, status_names[ai->status]);
        tt_jsonw_key(&s->json, "trace_id");
        if (ai->trace_id)
            tt_jsonw_int(&s->json, ai->trace_id);
        else
            tt_jsonw_null(&s->json);
        tt_jsonw_key(&s->json, "sha256");
        tt_jsonw_str(&s->json, ai->sha);
        tt_jsonw_key(&s->json, "bytes");
        tt_jsonw_uint(&s->json, ai->bytes);
        tt_jsonw_obj_end(&s->json);
        tt_buf_printf(&s->text, "  %-40s %-15s %s", ai->path, tt_kind_name(ai->kind),
                      status_names[ai->status]);
        if (ai->trace_id)
            tt_buf_printf(&s->text, " (trace %lld)", (long long)ai->trace_id);
        tt_buf_puts(&s->text, "\n");
        nskip += ai->status == IN_SKIPPED;
        nfail += ai->status == IN_FAILED;
    }
    tt_jsonw_arr_end(&s->json);
    tt_jsonw_key(&s->json, "skipped");
    tt_jsonw_uint(&s->json, nskip);
    tt_jsonw_key(&s->json, "failed");
    tt_jsonw_uint(&s->json, nfail);
    if (nskip || nfail)
        tt_buf_printf(&s->text, "  %zu skipped, %zu failed\n", nskip, nfail);
}

int cli_an__summarize(summ *s, cli_an *a, tdb_db *db, int64_t first, const char *dbpath,
                      tt_vec *inputs, tt_error *err)
{
    tt_jsonw_init(&s->json, 0);
    tt_jsonw_obj_begin(&s->json);
    tt_jsonw_key(&s->json, "database");
    tt_jsonw_str(&s->json, dbpath);
    cli_an__summarize_inputs(s, inputs);
    static const struct {
        const char *key, *title;
        int (*fn)(tdb_db *, int64_t, int, tdb_row_fn, void *, tt_error *);
    } parts[] = {
        {"top_issues", "top evil methods by cost:\n", tdb_summary_top_issues},
        {"issues_by_stack_key", "issues by stack key:\n", tdb_summary_by_key},
        {"worst_scenes", "worst scenes (frozen and high drop-level frames):\n", tdb_summary_scenes},
        {"startups", "startups, slowest first:\n", tdb_summary_startups},
    };
    tt_jsonw_key(&s->json, "counts");
    tt_jsonw_obj_begin(&s->json);
    s->section = "counts";
    s->rows = 0;
    tt_buf_puts(&s->text, "rows: ");
    int rc = tdb_summary_counts(db, first, summ_row, s, err);
    tt_buf_puts(&s->text, "\n");
    tt_jsonw_obj_end(&s->json);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && !rc; i++) {
        s->section = parts[i].key;
        s->rows = 0;
        size_t mark = s->text.len;
        tt_buf_puts(&s->text, parts[i].title);
        tt_jsonw_key(&s->json, parts[i].key);
        tt_jsonw_arr_begin(&s->json);
        rc = parts[i].fn(db, first, 10, summ_row, s, err);
        tt_jsonw_arr_end(&s->json);
        if (!s->rows) {
            s->text.len = mark;
            s->text.data[mark] = 0;
        }
    }
    if (!rc)
        top_self(s, a);
    tt_jsonw_key(&s->json, "unknown_method_ids");
    tt_jsonw_uint(&s->json, a->unknown_ids);
    if (!rc)
        rc = cli_an__check_count(s->checks, db, first, &s->json, err);
    tt_jsonw_obj_end(&s->json);
    tt_buf_puts(&s->json.buf, "\n");
    tt_buf_printf(&s->text, "database: %s\n", dbpath);
    return rc;
}

/* --format jsonl: one JSON object per row written, its table under "table"; written to
 * standard output as cli_out_write writes it, but a write error is returned (werr, its errno),
 * not exited on, so that the caller can keep the old database. */
typedef struct an_dump {
    tt_jsonw w;
    int werr;
} an_dump;


static int dump_row(void *ctx, const char *table, int ncol, const char *const *names,
                    const tdb_value *v)
{
    an_dump *d = ctx;
    tt_jsonw *w = &d->w;
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "table");
    tt_jsonw_str(w, table);
    for (int i = 0; i < ncol; i++) {
        tt_jsonw_key(w, names[i]);
        switch (v[i].type) {
        case TDB_INT: tt_jsonw_int(w, v[i].i); break;
        case TDB_REAL: tt_jsonw_real(w, v[i].r); break;
        case TDB_TEXT: tt_jsonw_strn(w, v[i].s, v[i].n); break;
        default: tt_jsonw_null(w);
        }
    }
    tt_jsonw_obj_end(w);
    tt_buf_puts(&w->buf, "\n");
    if (w->buf.len >= 1 << 16) {
        d->werr = cli_out_try(w->buf.data, w->buf.len);
        w->buf.len = 0;
    }
    return d->werr ? -1 : 0;
}

/* The rows of traces >= first and the shared rows of db (the run's rows, before the database
 * is renamed into place); 0, a write error's errno in *werr, or an error in err. */
int cli_an__dump_jsonl(tdb_db *db, int64_t first, int *werr, tt_error *err)
{
    an_dump d = {.werr = 0};
    tt_jsonw_init(&d.w, 0);
    int rc = tdb_dump_rows(db, first, dump_row, &d, err);
    if (d.werr)
        rc = 0;
    else if (!rc && d.w.buf.len)
        d.werr = cli_out_try(d.w.buf.data, d.w.buf.len);
    tt_jsonw_free(&d.w);
    *werr = d.werr;
    return rc;
}
