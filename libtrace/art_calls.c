/* ART method traces: per-thread call stacks (spec/art-trace.md 5.1), sampled-trace detection
 * (5.5) and the per-method profile of the 5.2 table. */
#include "tt_art.h"

#include <stdio.h>
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
    uint64_t ev;
    int64_t t, c;           /* begin on the layout clock and the CPU clock */
    int64_t child, cchild;  /* sum of direct children's durations, ns */
    uint64_t desc;          /* calls closed below it */
} frame;

typedef struct rebuild {
    const tt_art *a;
    const tt_art_visit *v;
    frame *st;
    size_t n, cap;
    uint32_t *open;         /* per method: frames of it on the stack */
    uint32_t group;
    uint64_t cur;           /* index of the event being applied */
    int sampled;
    int64_t overhead_ns;    /* per clock read, 0 = keep the measured times */
    size_t nopen;           /* entries of open[] */
    int64_t first_t, first_c, last_t, last_c; /* the thread's first and last event */
    uint64_t unmatched, missing, truncated, nev;
} rebuild;

static int64_t layout_t(const tt_art *a, const tt_art_event *e)
{
    return tt_art_has_wall(a) ? e->wall_us : e->cpu_us;
}

/* A non-negative duration in ns to whole µs, rounded to the nearest (halves up); negative
 * values (children longer than the parent after the overhead came off) give 0. */
static int64_t ns_to_us(int64_t ns)
{
    return ns > 0 ? (ns + 500) / 1000 : 0;
}

/* Pops the top frame, closing it at (t, c). */
static int close_top(rebuild *r, int64_t t, int64_t c, int kind, int unwound, int truncated)
{
    frame *f = &r->st[--r->n];
    tt_art_slice s;
    s.method = f->method;
    s.depth = (uint32_t)r->n;
    s.ts_us = f->t;
    /* --art-subtract-overhead: an enter and an exit per call in the subtree (3.1). Times are
     * µs; the subtraction is done in ns and each duration rounded once, to the nearest µs, so
     * a call's self time loses exactly its own 2 x overhead (its children's sub-µs remainders
     * are not charged to it). Without overhead every value is a whole µs and nothing rounds. */
    int64_t sub = r->overhead_ns ? (int64_t)((f->desc + 1) * 2 * (uint64_t)r->overhead_ns) : 0;
    int64_t dur_ns = (t - f->t) * 1000 - sub, cdur_ns = TT_ART_NONE;
    if (dur_ns < 0)
        dur_ns = 0;
    s.dur_us = ns_to_us(dur_ns);
    s.self_us = ns_to_us(dur_ns - f->child);
    if (f->c != TT_ART_NONE && c != TT_ART_NONE) {
        cdur_ns = (c - f->c) * 1000 - sub > 0 ? (c - f->c) * 1000 - sub : 0;
        s.cpu_ts_us = f->c;
        s.cpu_dur_us = ns_to_us(cdur_ns);
        s.cpu_self_us = ns_to_us(cdur_ns - f->cchild);
    } else {
        s.cpu_ts_us = s.cpu_dur_us = s.cpu_self_us = TT_ART_NONE;
    }
    s.end_kind = kind;
    s.unwound = unwound;
    s.begin_ev = f->ev;
    s.end_ev = r->cur;
    r->open[f->method]--;
    s.recursive = r->open[f->method] > 0;
    uint32_t g = r->group - f->group;
    s.sample_count = r->sampled ? (truncated ? g + 1 : (g ? g : 1)) : 0;
    if (r->n) {
        r->st[r->n - 1].desc += f->desc + 1;
        r->st[r->n - 1].child += dur_ns;
        if (cdur_ns != TT_ART_NONE)
            r->st[r->n - 1].cchild += cdur_ns;
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
    f->ev = r->cur;
    f->t = t;
    f->c = c;
    f->child = f->cchild = 0;
    f->desc = 0;
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

/* Applies the thread's event number i (5.1). */
static int step(rebuild *r, const tt_art_event *e, uint64_t i)
{
    uint32_t m = TT_ART_EV_METHOD(e);
    if (m >= r->nopen) { /* a method the streaming reader named after the stacks were set up */
        size_t nc = (size_t)m * 2 + 16;
        uint32_t *no = realloc(r->open, nc * sizeof *no);
        if (!no)
            return TT_ENOMEM;
        memset(no + r->nopen, 0, (nc - r->nopen) * sizeof *no);
        r->open = no;
        r->nopen = nc;
    }
    r->cur = i;
    int64_t t = layout_t(r->a, e);
    if (i && t != r->last_t)
        r->group++;
    if (!i) {
        r->first_t = t;
        r->first_c = e->cpu_us;
    }
    r->last_t = t;
    r->last_c = e->cpu_us;
    if (TT_ART_EV_ACTION(e) == TT_ART_ENTER)
        return push(r, m, t, e->cpu_us);
    if (!r->open[m]) {
        r->unmatched++;
        return 0;
    }
    return pop_to(r, m, t, e->cpu_us, TT_ART_EV_ACTION(e), &r->missing);
}

/* End of the thread's events: open frames are closed at its last event (or the trace end). */
static int finish(rebuild *r, const tt_art_rebuild_opts *o)
{
    const tt_art *a = r->a;
    int64_t last_t = r->last_t;
    if (o && o->close_at == TT_ART_CLOSE_TRACE_END && tt_art_has_wall(a) && a->elapsed_us > last_t)
        last_t = a->elapsed_us;
    int rc = 0;
    while (r->n && !rc) {
        r->truncated++;
        rc = close_top(r, last_t, r->last_c, TT_ART_END_TRUNCATED, 0, 1);
    }
    return rc;
}

static int init(rebuild *r, const tt_art *a, const tt_art_rebuild_opts *o, const tt_art_visit *v)
{
    memset(r, 0, sizeof *r);
    r->a = a;
    r->v = v;
    r->sampled = o && o->sampled;
    r->overhead_ns = o && o->overhead_ns > 0 ? o->overhead_ns : 0;
    r->last_c = TT_ART_NONE;
    r->nopen = a->nmethods + 1;
    r->open = calloc(r->nopen, sizeof *r->open);
    return r->open ? 0 : TT_ENOMEM;
}

/* Counts the thread's repairs into stats and frees the stacks. */
static void done(rebuild *r, const tt_art_thread *th, tt_stats *stats, const char *file)
{
    char ex[300];
    snprintf(ex, sizeof ex, "thread %u (%s)", th->id, th->name);
    count(stats, "art_unmatched_exit", file, TT_SEV_WARN, r->unmatched, ex);
    count(stats, "art_missing_exit", file, TT_SEV_WARN, r->missing, ex);
    count(stats, "art_truncated_frame", file, TT_SEV_INFO, r->truncated, ex);
    free(r->st);
    free(r->open);
    r->st = NULL;
    r->open = NULL;
}

int tt_art_rebuild(const tt_art *a, size_t t, const tt_art_rebuild_opts *o,
                   const tt_art_visit *v, tt_stats *stats, const char *file, tt_error *err)
{
    if (o && o->samples)
        return tt_art__rebuild_samples(a, t, v, file, err);
    rebuild r;
    if (init(&r, a, o, v)) {
        free(r.open);
        return tt_error_set(err, TT_ENOMEM, file, TT_LOC_NONE, 0, "out of memory");
    }
    const tt_art_thread *th = &a->threads[t];
    int rc = 0;
    for (size_t i = 0; i < th->nev && !rc; i++)
        rc = step(&r, &th->ev[i], i);
    if (!rc)
        rc = finish(&r, o);
    done(&r, th, rc == TT_ENOMEM ? NULL : stats, file);
    if (rc == TT_ENOMEM)
        return tt_error_set(err, TT_ENOMEM, file, TT_LOC_NONE, 0, "out of memory");
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

/* ---- the profile without stored events (section 4, 6.6) ---- */

struct tt_art_pstream {
    const tt_art_rebuild_opts *o; /* borrowed: read at each thread's first record */
    int (*want)(void *ud, const tt_art *a, size_t t);
    void *want_ud;
    tt_art_visit v;
    rebuild *th;          /* per thread, set up at its first event */
    unsigned char *state; /* per thread: 0 no event yet, 1 profiled, 2 not selected */
    size_t nthreads;
    tt_vec prof;          /* tt_art_prof per method index, grown as methods appear */
};

static int ps_slice(void *ud, const tt_art_slice *s)
{
    tt_vec *v = ud;
    tt_art_prof zero;
    memset(&zero, 0, sizeof zero);
    while (v->len <= s->method)
        if (!tt_vec_push(v, &zero))
            return TT_ENOMEM;
    prof_ud pu = {v->data};
    return prof_slice(&pu, s);
}

int tt_art_pstream_new(tt_art_pstream **out, const tt_art_rebuild_opts *o,
                       int (*want)(void *ud, const tt_art *a, size_t t), void *want_ud)
{
    tt_art_pstream *ps = calloc(1, sizeof *ps);
    *out = ps;
    if (!ps)
        return TT_ENOMEM;
    ps->o = o;
    ps->want = want;
    ps->want_ud = want_ud;
    tt_vec_init(&ps->prof, sizeof(tt_art_prof));
    ps->v.slice = ps_slice;
    ps->v.ud = &ps->prof;
    return 0;
}

int tt_art_pstream_event(void *ud, const tt_art *a, size_t t, const tt_art_event *e)
{
    tt_art_pstream *ps = ud;
    if (!ps->th) { /* the first record: pass 1 has found every thread */
        ps->nthreads = a->nthreads;
        ps->th = calloc(a->nthreads + 1, sizeof *ps->th);
        ps->state = calloc(a->nthreads + 1, 1);
        if (!ps->th || !ps->state)
            return TT_ENOMEM;
    }
    if (t >= ps->nthreads)
        return TT_EINVAL;
    if (!ps->state[t]) {
        ps->state[t] = !ps->want || ps->want(ps->want_ud, a, t) ? 1 : 2;
        if (ps->state[t] == 1 && init(&ps->th[t], a, ps->o, &ps->v))
            return TT_ENOMEM;
    }
    if (ps->state[t] != 1)
        return 0;
    rebuild *r = &ps->th[t];
    return step(r, e, r->nev++);
}

int tt_art_pstream_finish(tt_art_prof **prof, int64_t *span_us, int64_t *cpu_span_us,
                          tt_art_pstream *ps, const tt_art *a, tt_stats *stats,
                          const char *file, tt_error *err)
{
    *prof = NULL;
    *span_us = *cpu_span_us = 0;
    int rc = 0;
    for (size_t t = 0; t < ps->nthreads && t < a->nthreads; t++) {
        if (ps->state[t] != 1)
            continue;
        rebuild *r = &ps->th[t];
        if (!rc)
            rc = finish(r, ps->o);
        *span_us += r->last_t - r->first_t;
        if (tt_art_has_cpu(a))
            *cpu_span_us += r->last_c - r->first_c;
        done(r, &a->threads[t], rc ? NULL : stats, file);
        ps->state[t] = 0;
    }
    tt_art_prof zero;
    memset(&zero, 0, sizeof zero);
    while (!rc && ps->prof.len <= a->nmethods)
        if (!tt_vec_push(&ps->prof, &zero))
            rc = TT_ENOMEM;
    if (rc)
        return tt_error_set(err, TT_ENOMEM, file, TT_LOC_NONE, 0, "out of memory");
    *prof = ps->prof.data;
    tt_vec_init(&ps->prof, sizeof(tt_art_prof));
    return 0;
}

void tt_art_pstream_free(tt_art_pstream *ps)
{
    if (!ps)
        return;
    for (size_t t = 0; t < ps->nthreads; t++)
        if (ps->state && ps->state[t] == 1) {
            free(ps->th[t].st);
            free(ps->th[t].open);
        }
    free(ps->th);
    free(ps->state);
    tt_vec_free(&ps->prof);
    free(ps);
}

/* ---- Matrix-style slow messages (6.3) ---- */

typedef struct win_ud {
    const uint32_t *win;
    size_t nwin;
    int64_t threshold_us;
    tt_vec wins; /* tt_art_slice */
} win_ud;

static int win_slice(void *ud, const tt_art_slice *s)
{
    win_ud *w = ud;
    int hit = 0;
    for (size_t i = 0; i < w->nwin && !hit; i++)
        hit = w->win[i] == s->method;
    if (!hit || s->dur_us < w->threshold_us)
        return 0;
    /* closes come innermost first: an enclosing window replaces those inside it */
    while (w->wins.len && TT_VEC_AT(&w->wins, tt_art_slice, w->wins.len - 1).begin_ev > s->begin_ev)
        w->wins.len--;
    return tt_vec_push(&w->wins, s) ? 0 : TT_ENOMEM;
}

#define BEAT_DISPATCH 1048574u

uint32_t tt_art_issue_method(const tt_art_issue *is, int32_t id, uint32_t window_method)
{
    if ((uint32_t)id == BEAT_DISPATCH)
        return window_method;
    return id > 0 && (size_t)id < is->nmethods ? is->methods[id] : TT_NONE;
}

/* Method-beat records of one window (method-beat.md 1.1) and their pipeline. */
static int one_window(tt_art_issue *is, const tt_art *a, const tt_art_thread *th,
                      const tt_art_slice *w)
{
    uint32_t *local = calloc(a->nmethods + 1, sizeof *local); /* method -> local id */
    size_t nw = (size_t)(w->end_ev - w->begin_ev + 1);
    uint64_t *words = malloc(nw * sizeof *words);
    tt_vec ids;
    tt_vec_init(&ids, sizeof(uint32_t));
    uint32_t none = TT_NONE;
    int rc = local && words && tt_vec_push(&ids, &none) ? 0 : TT_ENOMEM;
    uint32_t next = 1;
    int64_t begin = w->ts_us;
    for (size_t k = 0; k < nw && !rc; k++) {
        const tt_art_event *e = &th->ev[w->begin_ev + k];
        uint32_t m = TT_ART_EV_METHOD(e);
        uint64_t id;
        if (m == w->method) {
            id = BEAT_DISPATCH;
        } else {
            if (!local[m]) {
                if (next == BEAT_DISPATCH) { /* the window's own id: a placeholder slot */
                    if (!tt_vec_push(&ids, &none)) {
                        rc = TT_ENOMEM;
                        break;
                    }
                    next++;
                }
                if (next > 0xFFFFFu || !tt_vec_push(&ids, &m)) {
                    rc = next > 0xFFFFFu ? TT_ELIMIT : TT_ENOMEM;
                    break;
                }
                local[m] = next++;
            }
            id = local[m];
        }
        int64_t t = tt_art_has_wall(a) ? e->wall_us : e->cpu_us;
        uint64_t ms = (uint64_t)((t - begin) / 1000) & 0x7FFFFFFFFFFull;
        words[k] = (TT_ART_EV_ACTION(e) == TT_ART_ENTER ? 1ull << 63 : 0) | id << 43 | ms;
    }
    tt_mstack *ms = NULL;
    tt_mstack_opts mo = {.strict = 1, .have_end = 1, .end_ms = w->dur_us / 1000,
                         .have_cost = 1, .cost_ms = w->dur_us / 1000, .trim = 30};
    if (!rc && tt_mstack_new(&ms, &mo))
        rc = TT_ENOMEM;
    if (!rc) {
        tt_mstack_feed(ms, words, nw);
        if (tt_mstack_finish(ms, NULL))
            rc = TT_ENOMEM;
    }
    if (!rc) {
        const tt_mstack_result *res = tt_mstack_result_get(ms);
        is->ts_us = w->ts_us;
        is->dur_us = w->dur_us;
        is->key_index = res->key_index;
        is->n = res->n_items;
        is->items = malloc((res->n_items + 1) * sizeof *is->items);
        if (!is->items)
            rc = TT_ENOMEM;
        else if (res->n_items)
            memcpy(is->items, res->items, res->n_items * sizeof *is->items);
        is->methods = ids.data;
        is->nmethods = ids.len;
        ids.data = NULL;
    }
    tt_mstack_free(ms);
    tt_vec_free(&ids);
    free(words);
    free(local);
    return rc;
}

int tt_art_slow_messages(tt_vec *out, const tt_art *a, size_t t, const uint32_t *win,
                         size_t nwin, int64_t threshold_us, tt_error *err)
{
    tt_vec_init(out, sizeof(tt_art_issue));
    win_ud w = {win, nwin, threshold_us, {0}};
    tt_vec_init(&w.wins, sizeof(tt_art_slice));
    tt_art_visit v = {NULL, win_slice, &w};
    int rc = tt_art_rebuild(a, t, NULL, &v, NULL, NULL, err);
    for (size_t i = 0; i < w.wins.len && !rc; i++) {
        tt_art_issue *is = tt_vec_push(out, NULL);
        rc = is ? one_window(is, a, &a->threads[t], &TT_VEC_AT(&w.wins, tt_art_slice, i))
                : TT_ENOMEM;
    }
    tt_vec_free(&w.wins);
    if (rc)
        tt_art_issues_free(out);
    return rc ? tt_error_set(err, rc, NULL, TT_LOC_NONE, 0,
                             rc == TT_ELIMIT ? "more than 2^20 methods in one slow message"
                                             : "out of memory")
              : 0;
}

void tt_art_issues_free(tt_vec *v)
{
    for (size_t i = 0; i < v->len; i++) {
        free(TT_VEC_AT(v, tt_art_issue, i).items);
        free(TT_VEC_AT(v, tt_art_issue, i).methods);
    }
    tt_vec_free(v);
}

/* The blamed item's name and its root-to-item path (names joined by ';'). */
int tt_art_issue_blame(tt_buf *name, tt_buf *path, const tt_art *a, const tt_art_issue *is,
                        uint32_t window_method)
{
    name->len = path->len = 0;
    if (is->key_index < 0)
        return 0;
    int32_t want = is->items[is->key_index].depth;
    size_t nstack = 0;
    uint32_t stack[64];
    for (ptrdiff_t i = is->key_index; i >= 0 && nstack < 64; i--)
        if (is->items[i].depth == want) {
            stack[nstack++] = (uint32_t)i;
            want--;
        }
    for (size_t k = nstack; k-- > 0;) {
        uint32_t m = tt_art_issue_method(is, is->items[stack[k]].id, window_method);
        const char *nm = m != TT_NONE ? a->methods[m].key : "?";
        tt_buf_printf(path, "%s%s", path->len ? ";" : "", nm);
        if (!k)
            tt_buf_puts(name, nm);
    }
    return name->len || !nstack ? 0 : TT_ENOMEM;
}


/* ---- synthetic-name normalisation (3.2) ---- */

static int ends_with(const char *b, size_t n, const char *suf)
{
    size_t k = strlen(suf);
    return n >= k && !memcmp(b + n - k, suf, k);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

int tt_art_normalize_synthetic(tt_art *a, size_t *collisions)
{
    tt_buf b = {0};
    const char **before = malloc((a->nmethods + 1) * sizeof *before);
    const char **after = malloc((a->nmethods + 1) * sizeof *after);
    int rc = before && after ? 0 : TT_ENOMEM;
    for (size_t i = 0; i < a->nmethods && !rc; i++) {
        tt_art_method *m = &a->methods[i];
        before[i] = m->key;
        b.len = 0;
        for (const char *p = m->key; *p;) {
            if (*p >= '0' && *p <= '9' &&
                ((b.len && b.data[b.len - 1] == '$') || ends_with(b.data, b.len, "Lambda") ||
                 ends_with(b.data, b.len, "$Proxy"))) {
                while (*p >= '0' && *p <= '9')
                    p++;
                rc = tt_buf_put(&b, "#", 1);
            } else {
                rc = tt_buf_put(&b, p++, 1);
            }
            if (rc)
                break;
        }
        if (!rc && !(m->key = tt_arena_strndup(a->arena, b.data ? b.data : "", b.len)))
            rc = TT_ENOMEM;
        after[i] = m->key;
    }
    /* collisions: distinct keys that became one */
    size_t n = 0;
    if (!rc && a->nmethods) {
        char **pairs = malloc(a->nmethods * sizeof *pairs);
        tt_buf t = {0};
        for (size_t i = 0; pairs && i < a->nmethods && !rc; i++) {
            t.len = 0;
            rc = tt_buf_printf(&t, "%s\t%s", after[i], before[i]) ? TT_ENOMEM : 0;
            pairs[i] = rc ? NULL : tt_arena_strndup(a->arena, t.data, t.len);
            if (!pairs[i])
                rc = TT_ENOMEM;
        }
        if (!pairs)
            rc = TT_ENOMEM;
        if (!rc) {
            qsort(pairs, a->nmethods, sizeof *pairs, cmp_str);
            for (size_t i = 1; i < a->nmethods; i++) {
                const char *x = pairs[i - 1], *y = pairs[i];
                size_t kx = (size_t)(strchr(x, '\t') - x), ky = (size_t)(strchr(y, '\t') - y);
                n += kx == ky && !memcmp(x, y, kx) && strcmp(x + kx, y + ky);
            }
        }
        free(pairs);
        tt_buf_free(&t);
    }
    if (collisions)
        *collisions = n;
    free(before);
    free(after);
    tt_buf_free(&b);
    return rc;
}
