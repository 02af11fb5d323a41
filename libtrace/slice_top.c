/* The longest slices of one thread (the samples report, spec/samples.md 5). A long thread is
 * rebuilt in two halves at once: the items of each half of its samples, split where a run
 * starts, then the build of each half. The first half stops at the boundary with the slices
 * the next item keeps still open; the second starts with that stack borrowed and records how
 * it closes each borrowed slice; those slices are completed here. Slices reach the sink in
 * the order they were opened, and the first half's all come first, so the longest of the two
 * halves' longest are the longest of the whole. */
#include "tt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "slice_int.h"

enum { HALF_MIN_SAMPLES = 8192 }; /* below, a second thread costs more than it saves */

static int by_dur(const tt_slice *x, const tt_slice *y)
{
    if (x->dur != y->dur)
        return x->dur > y->dur ? -1 : 1;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Insertion into the sorted top; an equal slice goes after the ones already there. */
static void top_insert(tt_slice_top *t, const tt_slice *s)
{
    if (!t->cap || (t->n == t->cap && by_dur(s, &t->s[t->n - 1]) >= 0))
        return;
    size_t j = t->n < t->cap ? t->n++ : t->n - 1;
    while (j > 0 && by_dur(s, &t->s[j - 1]) < 0) {
        t->s[j] = t->s[j - 1];
        j--;
    }
    t->s[j] = *s;
    t->s[j].parent = TT_NONE;
}

static int keep(void *ctx, const tt_slice *all, size_t n)
{
    tt_slice_top *t = ctx;
    t->total += n;
    for (size_t i = 0; i < n; i++)
        top_insert(t, &all[i]);
    return 0;
}

static int one_pass(tt_slice_top *top, tt_slice_info *info, tt_vec *work, tt_profile *p,
                    uint32_t utid, const tt_slice_opts *o, tt_error *err)
{
    tt_slice_opts so = *o;
    so.sink = keep;
    so.sink_ctx = top;
    return tt_slice_build(work, info, p, utid, &so, err);
}

typedef struct half {
    tt__sbuild c;
    tt_slice_info info;
    tt_slice_top top;
    tt_vec items, open, own_out;
    const uint32_t *o; /* its samples */
    size_t n, front;
    uint32_t run_base;
    const uint8_t *is_loop;
    uint32_t gap_cs, *path;
    int phase, sorted, rc;
} half;

static void half_free(half *h)
{
    tt_vec_free(&h->items);
    tt_vec_free(&h->open);
    tt_vec_free(&h->own_out);
    free(h->c.cum_block);
    free(h->c.cum_count);
    free(h->c.open_frames);
    free(h->c.inh);
    free(h->path);
    free(h->top.s);
}

static int half_items(half *h)
{
    /* tt__slice_items leaves room for the other half's item beside this half's */
    return tt__slice_items(&h->items, h->c.p, h->o, h->n, h->c.max_gap, h->run_base, h->front,
                           &h->sorted);
}

static int half_build(half *h)
{
    tt__sbuild *c = &h->c;
    c->it = h->items.data;
    c->m = h->items.len;
    c->cum_block = malloc((c->m + 1) * sizeof *c->cum_block);
    c->cum_count = malloc((c->m + 1) * sizeof *c->cum_count);
    c->open_frames = calloc(tt_profile_nframes(c->p) + 1, sizeof *c->open_frames);
    h->path = malloc((TT_MAX_STACK_DEPTH + 1) * sizeof *h->path);
    if (c->begin)
        c->inh = malloc((TT_MAX_STACK_DEPTH + 1) * sizeof *c->inh);
    if (!c->cum_block || !c->cum_count || !c->open_frames || !h->path || (c->begin && !c->inh))
        return TT_ENOMEM;
    tt__slice_cum(c);
    return tt__slice_diff(c, h->is_loop, h->gap_cs, h->path, &h->open);
}

static void *half_run(void *arg)
{
    half *h = arg;
    h->rc = h->phase == 1 ? half_items(h) : half_build(h);
    return NULL;
}

/* Runs phase on both halves, b on a thread of its own. */
static int both(half *a, half *b, int phase)
{
    pthread_t t;
    a->phase = b->phase = phase;
    int threaded = !pthread_create(&t, NULL, half_run, b);
    half_run(a);
    if (threaded)
        pthread_join(t, NULL);
    else
        half_run(b);
    return a->rc ? a->rc : b->rc;
}

/* Completes the slices the first half left open (by depth, the deepest first: a parent's
 * children include it), as close_top would have at the second half's close. */
static void complete_borrowed(half *a, const half *b)
{
    const tt__sopen *os = a->open.data;
    size_t na = a->c.end; /* the first half's items; a->c.it[na] is the second's first */
    int64_t cdur = 0, ctdur = 0;
    int child = 0;
    for (size_t d = a->open.len; d-- > 0;) {
        const tt__sinh *r = &b->c.inh[d];
        tt_slice *s = &TT_VEC_AT(a->c.out, tt_slice, os[d].slice);
        tt__sopen sum = os[d]; /* the children of both halves, the borrowed child included */
        sum.child_dur += r->child_dur + (child ? cdur : 0);
        sum.child_tdur += r->child_tdur + (child && ctdur >= 0 ? ctdur : 0);
        sum.child_tdur_unknown |= r->child_tdur_unknown || (child && ctdur < 0);
        tt__slice_finish(&a->c, s, &sum, &r->at,
                         a->c.cum_block[na] - a->c.cum_block[os[d].first] + r->at.cum_block -
                             b->c.cum_block[1],
                         a->c.cum_count[na] - a->c.cum_count[os[d].first] + r->at.cum_count -
                             b->c.cum_count[1],
                         r->final);
        cdur = s->dur;
        ctdur = s->thread_dur;
        child = 1;
    }
}

/* The build in two halves; 1 when the halves' items are not in order (the caller builds the
 * thread in one pass, which sorts them). */
static int two_halves(tt_slice_top *top, tt_slice_info *info, tt_vec *work, tt_profile *p,
                      const uint32_t *o, size_t n, size_t j, int64_t max_gap,
                      const tt_slice_opts *opt, uint32_t gap_cs)
{
    half h[2];
    memset(h, 0, sizeof h);
    const uint8_t *is_loop = NULL;
    int rc = tt__slice_loop_flags(&is_loop, p, opt, o, n, gap_cs);
    for (int i = 0; i < 2; i++) {
        tt_vec_init(&h[i].items, sizeof(tt__sitem));
        tt_vec_init(&h[i].open, sizeof(tt__sopen));
        tt_vec_init(&h[i].own_out, sizeof(tt_slice));
        h[i].c.p = p;
        h[i].c.o = opt;
        h[i].c.max_gap = max_gap;
        h[i].c.info = &h[i].info;
        h[i].is_loop = is_loop;
        h[i].gap_cs = gap_cs;
    }
    half *a = &h[0], *b = &h[1];
    a->o = o;
    a->n = j;
    a->c.out = work;
    a->top = *top;
    b->o = o + j;
    b->n = n - j;
    b->run_base = (uint32_t)j; /* above every run number of the first half */
    b->front = 1;              /* for the first half's last item */
    b->c.out = &b->own_out;
    b->top.cap = top->cap;
    if (!rc && !(b->top.s = malloc((top->cap ? top->cap : 1) * sizeof *b->top.s)))
        rc = TT_ENOMEM;
    if (!rc)
        rc = both(a, b, 1);
    tt__sitem *ia = a->items.data, *ib = b->items.data;
    size_t na = a->items.len;
    int in_order = !rc && na && b->items.len > 1 && a->sorted && b->sorted &&
                   tt__slice_item_cmp(&ia[na - 1], &ib[1]) <= 0;
    if (!rc && in_order) {
        ia[na] = ib[1]; /* each half sees its neighbour's item across the boundary */
        ib[0] = ia[na - 1];
        a->items.len = na + 1;
        a->c.end = na;
        b->c.begin = 1;
        b->c.end = b->items.len;
        tt_slice_opts so[2] = {*opt, *opt};
        so[0].sink = so[1].sink = keep;
        so[0].sink_ctx = &a->top;
        so[1].sink_ctx = &b->top;
        a->c.o = &so[0];
        b->c.o = &so[1];
        work->len = 0;
        rc = both(a, b, 2);
        a->c.o = b->c.o = opt;
        if (!rc) {
            complete_borrowed(a, b);
            keep(&a->top, work->data, work->len); /* the first half's unfinished subtree */
            work->len = 0;
            for (size_t i = 0; i < b->top.n; i++)
                top_insert(&a->top, &b->top.s[i]);
            a->top.total += b->top.total;
            *top = a->top;
            memset(info, 0, sizeof *info);
            info->items = na + b->items.len - 1;
            info->gap_splits = a->info.gap_splits + b->info.gap_splits;
            info->msg_splits = a->info.msg_splits + b->info.msg_splits;
            info->negative_counter_deltas =
                a->info.negative_counter_deltas + b->info.negative_counter_deltas;
            info->max_gap = max_gap;
            info->covered_dur = a->info.covered_dur + b->info.covered_dur;
            info->first_ts = ia[0].t;
            info->last_ts = ib[b->items.len - 1].t;
        }
    }
    a->top.s = NULL; /* the caller's */
    half_free(a);
    half_free(b);
    return rc ? rc : !in_order;
}

int tt_slice_longest(tt_slice_top *top, tt_slice_info *info, tt_vec *work, tt_profile *p,
                     uint32_t utid, const tt_slice_opts *o, int nthreads, tt_error *err)
{
    size_t n = 0;
    const uint32_t *ord = NULL;
    if (p->finished && utid < p->threads.len && !p->meta.timeless &&
        !(utid < p->nfixed && p->fixed[utid].len))
        ord = tt_profile_thread_order(p, utid, &n);
    if (nthreads < 2 || !ord || n < 2 * HALF_MIN_SAMPLES)
        return one_pass(top, info, work, p, utid, o, err);
    int64_t max_gap = tt_profile_max_gap(p, utid, o->max_gap);
    size_t j = n / 2;
    while (j < n - HALF_MIN_SAMPLES && !tt__run_starts(p, ord, j, max_gap))
        j++;
    uint32_t gap_cs = TT_NONE;
    if (o->mark_gaps) { /* interned before the threads read the profile */
        uint32_t f;
        if (tt__frame_simple(p, &f, "[no samples]", 12, TT_FRAME_SYNTHETIC, NULL) ||
            tt_callsite_intern(p, &gap_cs, &f, 1))
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int rc = !tt__run_starts(p, ord, j, max_gap)
                 ? 1
                 : two_halves(top, info, work, p, ord, n, j, max_gap, o, gap_cs);
    if (rc == 1)
        return one_pass(top, info, work, p, utid, o, err);
    if (rc)
        return tt_error_set(err, rc, NULL, 0, 0, rc == TT_ELIMIT ? "too many slices"
                                                 : rc == TT_EIO  ? "write failed"
                                                                 : "out of memory");
    return 0;
}
