/* tracetool art --dump: one line per record in file order (spec/art-trace.md 6.5, the content of
 * dmtracedump -o of 7.2 without its quirks). */
#include "cli_art.h"
#include "cli_csv.h"

#include <stdlib.h>
#include <string.h>

typedef struct dstack {
    uint32_t *m;
    size_t n, cap;
} dstack;

static int dump_depth(dstack *s, uint32_t m, int action, uint32_t *depth)
{
    if (action == TT_ART_ENTER) {
        if (s->n == s->cap) {
            size_t nc = s->cap ? s->cap * 2 : 32;
            uint32_t *nm = realloc(s->m, nc * sizeof *nm);
            if (!nm)
                return TT_ENOMEM;
            s->m = nm;
            s->cap = nc;
        }
        *depth = (uint32_t)s->n;
        s->m[s->n++] = m;
        return 0;
    }
    size_t k = s->n;
    while (k && s->m[k - 1] != m)
        k--;
    if (!k) { /* unmatched exit: shown at the current depth, stack unchanged */
        *depth = (uint32_t)s->n;
        return 0;
    }
    *depth = (uint32_t)(k - 1);
    s->n = k - 1;
    return 0;
}

static int by_tid(const void *x, const void *y)
{
    const tt_art_thread *a = *(const tt_art_thread *const *)x;
    const tt_art_thread *b = *(const tt_art_thread *const *)y;
    return a->tid != b->tid ? (a->tid < b->tid ? -1 : 1) : (a->id > b->id) - (a->id < b->id);
}

/* The thread list as dmtracedump prints it: by the id the list gives (a whole tid wider than
 * the records' ids included), not the records' 16 bits. */
static void print_threads(const tt_art *a)
{
    const tt_art_thread **t = malloc((a->nthreads ? a->nthreads : 1) * sizeof *t);
    for (size_t i = 0; i < a->nthreads; i++) {
        if (t)
            t[i] = &a->threads[i];
        else /* out of memory: in the records' order */
            cli_out_printf("%2u %s\n", a->threads[i].tid, a->threads[i].name);
    }
    if (!t)
        return;
    qsort(t, a->nthreads, sizeof *t, by_tid);
    for (size_t i = 0; i < a->nthreads; i++)
        cli_out_printf("%2u %s\n", t[i]->tid, t[i]->name);
    free(t);
}

static void dump_line(const art_run *r, tt_jsonw *w, const tt_art_thread *t,
                      const tt_art_event *e, uint32_t depth)
{
    const tt_art *a = r->a;
    const tt_art_method *m = &a->methods[TT_ART_EV_METHOD(e)];
    int act = TT_ART_EV_ACTION(e);
    int64_t v = r->use_cpu ? e->cpu_us : e->wall_us;
    if (r->format == F_TEXT) { /* built in w->buf: one write per 64 KiB (2 M-record dumps) */
        static const char dots[] = "................................................................";
        char head[96];
        int k = r->us ? snprintf(head, sizeof head, "%2u %s  %8lld ", t->id,
                                 tt_art_action_name(act), (long long)v)
                      : snprintf(head, sizeof head, "%2u %s  %8lld.%03lld ", t->id,
                                 tt_art_action_name(act), (long long)(v / 1000),
                                 (long long)(v % 1000));
        tt_buf_put(&w->buf, head, (size_t)k);
        for (uint32_t d = depth + 3; d;) {
            uint32_t c = d < 64 ? d : 64;
            tt_buf_put(&w->buf, dots, c);
            d -= c;
        }
        tt_buf_puts(&w->buf, m->raw);
        tt_buf_put(&w->buf, "\n", 1);
    } else if (r->format == F_CSV) {
        cli_out_printf("%u,%u,%s,", e->rec, t->id, tt_art_action_name(act));
        if (e->wall_us != TT_ART_NONE)
            cli_out_printf("%lld", (long long)e->wall_us);
        cli_out_puts(",");
        if (e->cpu_us != TT_ART_NONE)
            cli_out_printf("%lld", (long long)e->cpu_us);
        cli_out_printf(",%u,", depth);
        cli_csv_out(m->raw, 1);
        cli_out_puts("\n");
    } else {
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "record");
        tt_jsonw_uint(w, e->rec);
        tt_jsonw_key(w, "thread");
        tt_jsonw_uint(w, t->id);
        tt_jsonw_key(w, "action");
        tt_jsonw_str(w, tt_art_action_name(act));
        tt_jsonw_key(w, "wall_us");
        if (e->wall_us != TT_ART_NONE)
            tt_jsonw_int(w, e->wall_us);
        else
            tt_jsonw_null(w);
        tt_jsonw_key(w, "cpu_us");
        if (e->cpu_us != TT_ART_NONE)
            tt_jsonw_int(w, e->cpu_us);
        else
            tt_jsonw_null(w);
        tt_jsonw_key(w, "depth");
        tt_jsonw_uint(w, depth);
        tt_jsonw_key(w, "method");
        tt_jsonw_str(w, m->key);
        tt_jsonw_key(w, "raw_name");
        tt_jsonw_str(w, m->raw);
        tt_jsonw_obj_end(w);
        if (r->format == F_JSONL) {
            tt_buf_puts(&w->buf, "\n");
            cli_art_json_flush(w);
        }
    }
}

int cli_art_dump(art_run *r)
{
    tt_art *a = r->a;
    uint32_t maxrec = 0;
    for (size_t i = 0; i < a->nthreads; i++)
        if (a->threads[i].nev && a->threads[i].ev[a->threads[i].nev - 1].rec > maxrec)
            maxrec = a->threads[i].ev[a->threads[i].nev - 1].rec;
    uint32_t *order = malloc(((size_t)maxrec + 1) * sizeof *order);
    size_t *pos = calloc(a->nthreads + 1, sizeof *pos);
    dstack *st = calloc(a->nthreads + 1, sizeof *st);
    if (!order || !pos || !st) {
        free(order);
        free(pos);
        free(st);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    memset(order, 0xff, ((size_t)maxrec + 1) * sizeof *order);
    for (size_t i = 0; i < a->nthreads; i++)
        for (size_t k = 0; k < a->threads[i].nev; k++)
            order[a->threads[i].ev[k].rec] = (uint32_t)i;
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    if (r->format == F_TEXT) {
        cli_out_printf("VERSION: %d\nThreads (%zu):\n", a->version, a->nthreads);
        print_threads(a);
        cli_out_printf("Trace (threadID action %s class.method signature):\n",
                       r->us ? "usecs" : "msecs");
    } else if (r->format == F_CSV) {
        cli_out_puts("record,thread,action,wall_us,cpu_us,depth,method\n");
    } else if (r->format == F_JSON) {
        tt_jsonw_obj_begin(&w);
        tt_jsonw_key(&w, "records");
        tt_jsonw_arr_begin(&w);
    }
    int rc = 0;
    for (uint32_t rec = 0; rec <= maxrec && !rc; rec++) {
        uint32_t ti = order[rec];
        if (ti == UINT32_MAX)
            continue;
        const tt_art_thread *t = &a->threads[ti];
        const tt_art_event *e = &t->ev[pos[ti]++];
        uint32_t depth;
        if (dump_depth(&st[ti], TT_ART_EV_METHOD(e), TT_ART_EV_ACTION(e), &depth)) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
        } else if (r->use[ti]) {
            dump_line(r, &w, t, e, depth);
            if (w.buf.len > 65536)
                cli_art_json_flush(&w);
        }
    }
    cli_art_json_end(r, &w);
    for (size_t i = 0; i < a->nthreads; i++)
        free(st[i].m);
    free(st);
    free(pos);
    free(order);
    return rc;
}

