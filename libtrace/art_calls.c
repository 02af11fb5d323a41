/* ART method traces: per-thread call stacks (spec/art-trace.md 5.1), sampled-trace detection
 * (5.5) and the per-method profile of the 5.2 table. */
#include "tt_art.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

const char *tt_art_end_kind_name(int k)
{
    static const char *const n[] = {"exact", "unterminated", "truncated", "inferred"};
    return k >= 0 && k <= TT_ART_END_INFERRED ? n[k] : "exact";
}

typedef struct frame {
    uint32_t method;
    uint32_t group;
    int64_t t, c;           /* begin on the layout clock and the CPU clock */
    int64_t child, cchild;  /* sum of direct children's durations */
} frame;

typedef struct rebuild {
    const tt_art *a;
    const tt_art_visit *v;
    frame *st;
    size_t n, cap;
    uint32_t *open;         /* per method: frames of it on the stack */
    uint32_t group;
    int sampled;
} rebuild;

static int64_t layout_t(const tt_art *a, const tt_art_event *e)
{
    return tt_art_has_wall(a) ? e->wall_us : e->cpu_us;
}

/* Pops the top frame, closing it at (t, c). */
static int close_top(rebuild *r, int64_t t, int64_t c, int kind, int unwound, int truncated)
{
    frame *f = &r->st[--r->n];
    tt_art_slice s;
    s.method = f->method;
    s.depth = (uint32_t)r->n;
    s.ts_us = f->t;
    s.dur_us = t - f->t;
    if (s.dur_us < 0)
        s.dur_us = 0;
    s.self_us = s.dur_us - f->child;
    if (f->c != TT_ART_NONE && c != TT_ART_NONE) {
        s.cpu_ts_us = f->c;
        s.cpu_dur_us = c > f->c ? c - f->c : 0;
        s.cpu_self_us = s.cpu_dur_us - f->cchild;
    } else {
        s.cpu_ts_us = s.cpu_dur_us = s.cpu_self_us = TT_ART_NONE;
    }
    s.end_kind = kind;
    s.unwound = unwound;
    r->open[f->method]--;
    s.recursive = r->open[f->method] > 0;
    uint32_t g = r->group - f->group;
    s.sample_count = r->sampled ? (truncated ? g + 1 : (g ? g : 1)) : 0;
    if (r->n) {
        r->st[r->n - 1].child += s.dur_us;
        if (s.cpu_dur_us != TT_ART_NONE)
            r->st[r->n - 1].cchild += s.cpu_dur_us;
    }
    return r->v && r->v->slice ? r->v->slice(r->v->ud, &s) : 0;
}

static int push(rebuild *r, uint32_t m, int64_t t, int64_t c)
{
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 64;
        frame *ns = realloc(r->st, nc * sizeof *ns);
        if (!ns)
            return TT_ENOMEM;
        r->st = ns;
        r->cap = nc;
    }
    frame *f = &r->st[r->n++];
    f->method = m;
    f->group = r->group;
    f->t = t;
    f->c = c;
    f->child = f->cchild = 0;
    r->open[m]++;
    return r->v && r->v->enter ? r->v->enter(r->v->ud, m, (uint32_t)r->n - 1) : 0;
}

static void count(tt_stats *st, const char *name, const char *file, int sev, uint64_t n,
                  const char *ex)
{
    if (n)
        tt_stats_add(st, name, file, sev, (int64_t)n, ex);
}

/* Exit or unroll of method m: section 5.1. */
static int pop_to(rebuild *r, uint32_t m, int64_t t, int64_t c, int action, uint64_t *missing)
{
    int rc;
    while (r->st[r->n - 1].method != m) {
        (*missing)++;
        if ((rc = close_top(r, t, c, TT_ART_END_UNTERMINATED, 0, 0)))
            return rc;
    }
    return close_top(r, t, c, r->sampled ? TT_ART_END_INFERRED : TT_ART_END_EXACT,
                     action == TT_ART_UNROLL, 0);
}

static int run(rebuild *r, const tt_art_thread *th, const tt_art_rebuild_opts *o,
               uint64_t *unmatched, uint64_t *missing, uint64_t *truncated)
{
    const tt_art *a = r->a;
    int64_t last_t = 0, last_c = TT_ART_NONE;
    int rc = 0;
    for (size_t i = 0; i < th->nev && !rc; i++) {
        const tt_art_event *e = &th->ev[i];
        uint32_t m = TT_ART_EV_METHOD(e);
        int64_t t = layout_t(a, e);
        if (i && t != last_t)
            r->group++;
        last_t = t;
        last_c = e->cpu_us;
        if (TT_ART_EV_ACTION(e) == TT_ART_ENTER)
            rc = push(r, m, t, e->cpu_us);
        else if (!r->open[m])
            (*unmatched)++;
        else
            rc = pop_to(r, m, t, e->cpu_us, TT_ART_EV_ACTION(e), missing);
    }
    if (o && o->close_at == TT_ART_CLOSE_TRACE_END && tt_art_has_wall(a) && a->elapsed_us > last_t)
        last_t = a->elapsed_us;
    while (r->n && !rc) {
        (*truncated)++;
        rc = close_top(r, last_t, last_c, TT_ART_END_TRUNCATED, 0, 1);
    }
    return rc;
}

int tt_art_rebuild(const tt_art *a, size_t t, const tt_art_rebuild_opts *o,
                   const tt_art_visit *v, tt_stats *stats, const char *file, tt_error *err)
{
    rebuild r = {0};
    r.a = a;
    r.v = v;
    r.sampled = o && o->sampled;
    r.open = calloc(a->nmethods + 1, sizeof *r.open);
    if (!r.open)
        return tt_error_set(err, TT_ENOMEM, file, TT_LOC_NONE, 0, "out of memory");
    uint64_t unmatched = 0, missing = 0, truncated = 0;
    const tt_art_thread *th = &a->threads[t];
    int rc = run(&r, th, o, &unmatched, &missing, &truncated);
    free(r.st);
    free(r.open);
    if (rc == TT_ENOMEM)
        return tt_error_set(err, TT_ENOMEM, file, TT_LOC_NONE, 0, "out of memory");
    char ex[300];
    snprintf(ex, sizeof ex, "thread %u (%s)", th->id, th->name);
    count(stats, "art_unmatched_exit", file, TT_SEV_WARN, unmatched, ex);
    count(stats, "art_missing_exit", file, TT_SEV_WARN, missing, ex);
    count(stats, "art_truncated_frame", file, TT_SEV_INFO, truncated, ex);
    return rc;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

int tt_art_detect_sampled(const tt_art *a, int64_t *interval_us)
{
    tt_vec gaps;
    tt_vec_init(&gaps, sizeof(int64_t));
    for (size_t i = 0; i < a->nthreads; i++) {
        const tt_art_thread *th = &a->threads[i];
        size_t groups = 0;
        int64_t prev = 0;
        for (size_t k = 0; k < th->nev && groups < 1000; k++) {
            int64_t t = layout_t(a, &th->ev[k]);
            if (k && t == prev)
                continue;
            if (k) {
                int64_t g = t - prev;
                if (!tt_vec_push(&gaps, &g))
                    break;
            }
            groups++;
            prev = t;
        }
    }
    int sampled = 0;
    size_t n = gaps.len;
    if (n >= 20) {
        int64_t *g = gaps.data;
        qsort(g, n, sizeof *g, cmp_i64);
        if (g[n / 4] >= 100) {
            sampled = 1;
            if (interval_us)
                *interval_us = (g[n / 10] + 5) / 10 * 10;
        }
    }
    tt_vec_free(&gaps);
    return sampled;
}

typedef struct prof_ud {
    tt_art_prof *prof;
} prof_ud;

static int prof_slice(void *ud, const tt_art_slice *s)
{
    tt_art_prof *p = &((prof_ud *)ud)->prof[s->method];
    if (s->recursive) {
        p->recursive_calls++;
    } else {
        p->calls++;
        p->total_us += s->dur_us;
        if (s->cpu_dur_us != TT_ART_NONE)
            p->cpu_total_us += s->cpu_dur_us;
    }
    p->self_us += s->self_us;
    if (s->cpu_self_us != TT_ART_NONE)
        p->cpu_self_us += s->cpu_self_us;
    return 0;
}

int tt_art_profile(tt_art_prof *prof, int64_t *span_us, int64_t *cpu_span_us, const tt_art *a,
                   const unsigned char *use, const tt_art_rebuild_opts *o, tt_stats *stats,
                   const char *file, tt_error *err)
{
    memset(prof, 0, a->nmethods * sizeof *prof);
    prof_ud ud = {prof};
    tt_art_visit v = {NULL, prof_slice, &ud};
    *span_us = *cpu_span_us = 0;
    for (size_t i = 0; i < a->nthreads; i++) {
        const tt_art_thread *th = &a->threads[i];
        if ((use && !use[i]) || !th->nev)
            continue;
        const tt_art_event *f = &th->ev[0], *l = &th->ev[th->nev - 1];
        *span_us += layout_t(a, l) - layout_t(a, f);
        if (tt_art_has_cpu(a))
            *cpu_span_us += l->cpu_us - f->cpu_us;
        int rc = tt_art_rebuild(a, i, o, &v, stats, file, err);
        if (rc)
            return rc;
    }
    return 0;
}
