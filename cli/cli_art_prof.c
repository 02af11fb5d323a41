/* tracetool art --profile: the per-method table of spec/art-trace.md 5.2, sorted by self time. */
#include "cli_art.h"
#include "cli_csv.h"

#include <stdlib.h>
#include <string.h>

static const tt_art_prof *sort_prof;
static int sort_cpu;
static const tt_art *sort_art;

static int cmp_prof(const void *x, const void *y)
{
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    const tt_art_prof *a = &sort_prof[i], *b = &sort_prof[j];
    int64_t sa = sort_cpu ? a->cpu_self_us : a->self_us, sb = sort_cpu ? b->cpu_self_us : b->self_us;
    if (sa != sb)
        return sa > sb ? -1 : 1;
    int64_t ta = sort_cpu ? a->cpu_total_us : a->total_us, tb = sort_cpu ? b->cpu_total_us : b->total_us;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    int c = strcmp(sort_art->methods[i].key, sort_art->methods[j].key);
    return c ? c : (i < j ? -1 : i > j);
}

/* Indices of the methods with calls, sorted by self time of the chosen clock. */
uint32_t *cli_art_prof_order(const art_run *r, const tt_art_prof *prof, size_t *n)
{
    uint32_t *ix = malloc((r->a->nmethods + 1) * sizeof *ix);
    if (!ix)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < r->a->nmethods; i++)
        if (prof[i].calls || prof[i].recursive_calls)
            ix[k++] = (uint32_t)i;
    sort_prof = prof;
    sort_cpu = r->use_cpu;
    sort_art = r->a;
    qsort(ix, k, sizeof *ix, cmp_prof);
    *n = k;
    return ix;
}

void cli_art_prof_row(const art_run *r, tt_jsonw *w, const tt_art_method *m,
                      const tt_art_prof *p)
{
    int hw = tt_art_has_wall(r->a), hc = tt_art_has_cpu(r->a);
    if (r->format == F_TEXT) {
        char calls[48];
        snprintf(calls, sizeof calls, "%llu+%llu", (unsigned long long)p->calls,
                 (unsigned long long)p->recursive_calls);
        cli_out_printf("%9s ", calls);
        int64_t v[4] = {p->self_us, p->total_us, p->cpu_self_us, p->cpu_total_us};
        for (int i = 0; i < 4; i++) {
            char b[48];
            int have = i < 2 ? hw : hc;
            if (!have)
                snprintf(b, sizeof b, "-");
            else if (r->us)
                snprintf(b, sizeof b, "%lld", (long long)v[i]);
            else
                snprintf(b, sizeof b, "%lld.%03lld", (long long)(v[i] / 1000),
                         (long long)(v[i] % 1000));
            cli_out_printf("%11s ", b);
        }
        cli_out_printf(" %s\n", m->key);
    } else if (r->format == F_CSV) {
        cli_csv_out(m->key, 1);
        cli_out_printf(",%llu,%llu,", (unsigned long long)p->calls,
                       (unsigned long long)p->recursive_calls);
        if (hw)
            cli_out_printf("%lld,%lld,", (long long)p->self_us, (long long)p->total_us);
        else
            cli_out_puts(",,");
        if (hc)
            cli_out_printf("%lld,%lld\n", (long long)p->cpu_self_us, (long long)p->cpu_total_us);
        else
            cli_out_puts(",\n");
    } else {
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "method");
        tt_jsonw_str(w, m->key);
        tt_jsonw_key(w, "raw_name");
        tt_jsonw_str(w, m->raw);
        tt_jsonw_key(w, "calls");
        tt_jsonw_uint(w, p->calls);
        tt_jsonw_key(w, "recursive_calls");
        tt_jsonw_uint(w, p->recursive_calls);
        cli_art_json_time(w, "self_us", p->self_us, hw);
        cli_art_json_time(w, "total_us", p->total_us, hw);
        cli_art_json_time(w, "cpu_self_us", p->cpu_self_us, hc);
        cli_art_json_time(w, "cpu_total_us", p->cpu_total_us, hc);
        tt_jsonw_obj_end(w);
        if (r->format == F_JSONL) {
            tt_buf_puts(&w->buf, "\n");
            cli_art_json_flush(w);
        }
    }
}

void cli_art_prof_header(void)
{
    cli_out_printf("%9s %11s %11s %11s %11s  %s\n", "calls", "self", "total", "cpu self",
                   "cpu total", "method");
}

int cli_art_profile(art_run *r)
{
    tt_art *a = r->a;
    int64_t span = r->sspan, cspan = r->scspan;
    tt_art_prof *prof = r->sprof; /* streamed while reading */
    r->sprof = NULL;
    if (!prof && !(prof = calloc(a->nmethods + 1, sizeof *prof))) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    tt_error err = {0};
    if (!r->ps &&
        tt_art_profile(prof, &span, &cspan, a, r->use, &r->ro, r->ctx->stats, r->file, &err)) {
        free(prof);
        return cli_err(&err);
    }
    size_t n;
    uint32_t *ix = cli_art_prof_order(r, prof, &n);
    if (!ix) {
        free(prof);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    int hw = tt_art_has_wall(a), hc = tt_art_has_cpu(a);
    if (r->format == F_TEXT) {
        cli_out_printf("# per-method profile, %s; thread spans: wall ", r->us ? "us" : "ms");
        cli_art_put_time(span, hw, r->us);
        cli_out_puts(", cpu ");
        cli_art_put_time(cspan, hc, r->us);
        cli_out_puts("\n");
        cli_art_prof_header();
    } else if (r->format == F_CSV) {
        cli_out_puts("method,calls,recursive_calls,self_us,total_us,cpu_self_us,cpu_total_us\n");
    } else if (r->format == F_JSON) {
        tt_jsonw_obj_begin(&w);
        cli_art_json_time(&w, "span_us", span, hw);
        cli_art_json_time(&w, "cpu_span_us", cspan, hc);
        tt_jsonw_key(&w, "methods");
        tt_jsonw_arr_begin(&w);
    }
    for (size_t i = 0; i < n; i++)
        cli_art_prof_row(r, &w, &a->methods[ix[i]], &prof[ix[i]]);
    cli_art_json_end(r, &w);
    free(ix);
    free(prof);
    return 0;
}


