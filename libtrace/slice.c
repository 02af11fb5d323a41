/* Sample-to-slice reconstruction, spec/samples.md section 5: per-thread items (5.1), the core
 * diff (5.2), split rules (5.3), max gap (5.4), begin/end policies (5.5), attribution (5.6). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "slice_int.h"

enum { IT_FIRST = TT__IT_FIRST, IT_LAST = TT__IT_LAST, IT_BEGIN = TT__IT_BEGIN,
       IT_END = TT__IT_END };
typedef tt__sitem item;
typedef tt__sopen open_slice;
typedef tt__sbuild bctx;

/* What the slices opened at item i share (5.5, 5.6). */
typedef struct at_begin {
    int64_t ts, gap_before, cpu_begin, waker_ts;
    const tt__ctr_packed *ctr;
    uint32_t wakeup_utid;
} at_begin;

/* What the slices closed at item last share. */
typedef struct at_end {
    tt__send x;
    const tt__ctr_packed *memo_cb; /* counters(): begin counters of the remembered deltas */
    uint64_t memo_ctr[TT_CTR_COUNT];
    unsigned memo_known;
    uint64_t memo_neg;
} at_end;

static tt__slice_ws *slice_ws(tt_profile *p)
{
    if (!p->sws && (p->sws = calloc(1, sizeof *p->sws))) {
        tt_vec_init(&p->sws->items, sizeof(item));
        tt_vec_init(&p->sws->open, sizeof(open_slice));
    }
    return p->sws;
}

/* Room for the prefix sums of m items (index i + 1 = through item i). */
static int cum_reserve(tt__slice_ws *w, size_t m)
{
    if (m + 1 <= w->cum_cap)
        return 0;
    size_t cap = m + 1 > 2 * w->cum_cap ? m + 1 : 2 * w->cum_cap;
    int64_t *b = realloc(w->cum_block, cap * sizeof *b);
    if (b)
        w->cum_block = b;
    uint64_t *c = realloc(w->cum_count, cap * sizeof *c);
    if (c)
        w->cum_count = c;
    if (!b || !c)
        return TT_ENOMEM;
    w->cum_cap = cap;
    tt__hint_huge(b, cap * sizeof *b);
    tt__hint_huge(c, cap * sizeof *c);
    return 0;
}

void tt_slice_opts_init(tt_slice_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_gap = TT_GAP_AUTO;
    o->end_policy = TT_END_LAST;
    o->end_pad = 10;
}

const char *tt_end_kind_name(int k)
{
    static const char *const n[] = {"exact", "inferred", "unterminated", "truncated"};
    return k >= 0 && k <= TT_ENDK_TRUNCATED ? n[k] : "inferred";
}

int tt__slice_item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return (int)x->end_flag - (int)y->end_flag;
}

static void item_point(item *it, const tt_sample *s, uint32_t idx, int kind, uint32_t count)
{
    it->t = kind == IT_END ? s->end_ts : s->ts;
    it->block = 0;
    it->run = 0;
    it->cpu = kind == IT_END ? s->end_cpu : s->cpu;
    it->msg_id = s->msg_id;
    it->callsite = s->callsite;
    it->seq = s->seq;
    (void)idx;
    it->count = count;
    it->kind = (uint8_t)kind;
    it->type = s->type;
    it->end_flag = kind == IT_END || kind == IT_LAST;
    it->waker_utid = it->waker_seq = TT_NONE;
    /* counters of an interval sample were read at its end (2.1.3) */
    it->ctr = kind != IT_BEGIN ? s->ctr : TT_NONE;
}

int tt__slice_items(tt_vec *items, const tt_profile *p, const uint32_t *o, size_t n,
                    int64_t max_gap, uint32_t run_base, size_t front, int *sorted)
{
    items->len = 0;
    /* at most two items a sample, and one more for a neighbour: room once, not doubled
     * (copies fault in fresh pages); pages never written cost nothing. Huge pages for the
     * first item a sample only: a huge page half written past that would cost memory. */
    if (n > (SIZE_MAX - front - 3) / 2 || tt__vec_reserve_exact(items, front + 2 * n + 3))
        return TT_ENOMEM;
    tt__hint_huge(items->data, (front + n) * sizeof(item));
    items->len = front;
    size_t pos = 0;
    const tt_sample *s = p->samples.data;
    int ok = 1;
    tt_run r;
    for (uint32_t i = run_base; tt__run_next(&r, p, o, n, &pos, max_gap); i++) {
        item *a = (item *)items->data + items->len, *b = a + 1;
        int two = r.is_interval || r.first != r.last;
        if (r.is_interval) {
            item_point(a, &s[r.first], r.first, IT_BEGIN, r.count);
            item_point(b, &s[r.first], r.first, IT_END, 0);
            b->block = r.is_blocking ? r.end_ts - r.ts : 0;
            a->waker_utid = r.waker_utid;
            a->waker_seq = r.waker_seq;
        } else {
            item_point(a, &s[r.first], r.first, IT_FIRST, r.count);
            if (two)
                item_point(b, &s[r.last], r.last, IT_LAST, 0);
        }
        a->run = i;
        if (two)
            b->run = i;
        if (items->len > front && tt__slice_item_cmp(a - 1, a) > 0)
            ok = 0;
        if (two)
            ok = ok && tt__slice_item_cmp(a, b) <= 0;
        items->len += two ? 2 : 1;
    }
    *sorted = ok;
    return 0;
}

/* Items of one thread (5.1), sorted by (t, seq, begin before end). */
static int build_items(tt_vec *items, const tt_profile *p, uint32_t utid, int64_t max_gap)
{
    size_t n;
    const uint32_t *o = tt_profile_thread_order(p, utid, &n);
    int sorted;
    int rc = tt__slice_items(items, p, o, n, max_gap, 0, 0, &sorted);
    if (!rc && !sorted)
        qsort(items->data, items->len, sizeof(item), tt__slice_item_cmp);
    return rc;
}

static int64_t mid(int64_t a, int64_t b) { return a + (b - a) / 2; }

/* A gap between items i-1 and i (5.4); the two items of one run never have one: the run's
 * samples were each within the max gap of the next. */
static int is_gap(const bctx *c, size_t i)
{
    const item *a = &c->it[i - 1], *b = &c->it[i];
    if (a->run == b->run && ((b->kind == IT_LAST && a->kind == IT_FIRST) ||
                             (b->kind == IT_END && a->kind == IT_BEGIN)))
        return 0; /* an interval sample observed the thread continuously */
    return b->t - a->t > c->max_gap;
}

static int near_prev(const bctx *c, size_t i) { return i > 0 && !is_gap(c, i); }

static int near_next(const bctx *c, size_t i) { return i + 1 < c->m && !is_gap(c, i + 1); }

static int64_t pad_after(const bctx *c, size_t last)
{
    int64_t pad = c->o->end_pad;
    if (last + 1 < c->m && c->it[last + 1].t - c->it[last].t < pad)
        pad = c->it[last + 1].t - c->it[last].t;
    return pad;
}

static int64_t begin_time(const bctx *c, size_t first)
{
    if (c->o->end_policy == TT_END_MID && near_prev(c, first))
        return mid(c->it[first - 1].t, c->it[first].t);
    return c->it[first].t;
}

static int64_t end_time(const bctx *c, size_t last)
{
    if (near_next(c, last)) {
        if (c->o->end_policy == TT_END_MID)
            return mid(c->it[last].t, c->it[last + 1].t);
        if (c->o->end_policy == TT_END_NEXT)
            return c->it[last + 1].t;
    }
    return c->it[last].t + pad_after(c, last);
}


static const tt__ctr_packed *item_counters(const bctx *c, const item *it)
{
    return it->ctr == TT_NONE ? NULL : &TT_VEC_AT(&c->p->counters, tt__ctr_packed, it->ctr);
}

static void begin_at(const bctx *c, size_t i, at_begin *b)
{
    const item *it = c->it;
    int prev = near_prev(c, i);
    b->ts = begin_time(c, i);
    b->gap_before = prev ? it[i].t - it[i - 1].t : -1;
    /* CPU time uses the same policy on the CPU clock */
    int64_t cpu = it[i].cpu;
    if (c->o->end_policy == TT_END_MID && prev && it[i - 1].cpu >= 0 && cpu >= 0)
        cpu = mid(it[i - 1].cpu, cpu);
    b->cpu_begin = cpu >= 0 ? cpu : -1;
    b->ctr = item_counters(c, &it[i]);
    b->wakeup_utid = it[i].kind == IT_BEGIN ? it[i].waker_utid : TT_NONE;
    b->waker_ts = 0;
    if (b->wakeup_utid != TT_NONE && it[i].waker_seq != TT_NONE)
        b->waker_ts = TT_VEC_AT(&c->p->samples, tt_sample, it[i].waker_seq).ts;
}

static void end_at(const bctx *c, size_t last, at_end *e)
{
    const item *it = c->it;
    int next = near_next(c, last);
    e->x.end = end_time(c, last);
    e->x.gap_after = next ? it[last + 1].t - it[last].t : -1;
    int64_t cpu = it[last].cpu;
    if (c->o->end_policy == TT_END_MID) {
        if (next && it[last + 1].cpu >= 0 && cpu >= 0)
            cpu = mid(cpu, it[last + 1].cpu);
    } else if (c->o->end_policy == TT_END_NEXT && next) {
        cpu = it[last + 1].cpu;
    }
    e->x.cpu_end = cpu;
    e->x.cum_block = c->cum_block[last + 1];
    e->x.cum_count = c->cum_count[last + 1];
    e->x.ctr = item_counters(c, &it[last]);
    e->memo_cb = NULL;
}

/* Counter deltas of one slice; the slices closed together and opened together (a chain) share
 * them, so the last pair's result is remembered in the at_end. */
static void counters(const bctx *c, tt_slice *s, const tt__ctr_packed *cb, at_end *e)
{
    const tt__ctr_packed *ce = e->x.ctr;
    if (!cb || !ce)
        return;
    if (e->memo_cb != cb) {
        e->memo_cb = cb;
        e->memo_known = 0;
        e->memo_neg = 0;
        for (int k = 0; k < TT_CTR_COUNT; k++) {
            unsigned bit = 1u << k;
            e->memo_ctr[k] = 0;
            if (!(cb->known & ce->known & bit))
                continue;
            uint64_t vb = tt__ctr_get(cb, k), ve = tt__ctr_get(ce, k);
            if (k >= TT_CTR_MAJ_FLT) { /* u32 rusage counters wrap */
                e->memo_ctr[k] = (uint32_t)(ve - vb);
            } else if (ve < vb) {
                e->memo_neg++;
                continue;
            } else {
                e->memo_ctr[k] = ve - vb;
            }
            e->memo_known |= bit;
        }
    }
    c->info->negative_counter_deltas += e->memo_neg;
    memcpy(s->ctr, e->memo_ctr, sizeof s->ctr); /* zero where unknown, as opened */
    s->ctr_known |= e->memo_known;
}

/* Opens one slice; the caller reserved room in c->out and open. Every field is stored one by
 * one: zeroing the struct first compiles to a string store that costs more than the rest. */
static void open_slice_at(bctx *c, tt_vec *open, size_t i, const at_begin *b, uint32_t callsite,
                          uint32_t depth)
{
    uint32_t frame = TT_VEC_AT(&c->p->callsites, tt_callsite, callsite).frame;
    tt_slice *s = (tt_slice *)c->out->data + c->out->len++;
    s->ts = b->ts;
    s->dur = s->self_dur = 0;
    s->thread_dur = s->self_thread_dur = s->block_dur = s->thread_ts = -1;
    s->gap_before = b->gap_before;
    s->gap_after = -1;
    s->waker_ts = b->waker_ts;
    s->msg_id = c->it[i].msg_id;
    for (int k = 0; k < TT_CTR_COUNT; k++)
        s->ctr[k] = 0;
    s->ctr_known = 0;
    s->utid = 0;
    s->depth = depth;
    s->parent = open->len ? TT_VEC_AT(open, open_slice, open->len - 1).slice : TT_NONE;
    s->frame = frame;
    s->callsite = callsite;
    s->sample_count = 0;
    s->wakeup_utid = b->wakeup_utid;
    s->type = c->it[i].type;
    s->end_kind = TT_ENDK_INFERRED;
    s->is_recursive = c->open_frames[frame] > 0;
    s->is_synthetic = 0;
    s->is_instrumented = 0;
    s->is_unwound = 0;
    c->open_frames[frame]++;
    open_slice *os = (open_slice *)open->data + open->len++;
    os->slice = (uint32_t)(c->out->len - 1);
    os->first = (uint32_t)i;
    os->callsite = callsite;
    os->cpu_begin = b->cpu_begin;
    os->ctr_begin = b->ctr;
    os->child_dur = os->child_tdur = 0;
    os->child_tdur_unknown = 0;
    os->borrowed = 0;
}

/* Completes slice s closed at e (5.5, 5.6): os holds its begin and the sums over its
 * children; block and count: the blocking time and the samples of its items. */
static void finish_slice(const bctx *c, tt_slice *s, const open_slice *os, at_end *e,
                         int64_t block, uint64_t count, int final)
{
    s->dur = e->x.end > s->ts ? e->x.end - s->ts : 0;
    int64_t b = os->cpu_begin;
    s->thread_ts = b;
    s->thread_dur = b < 0 || e->x.cpu_end < 0 || e->x.cpu_end < b ? -1 : e->x.cpu_end - b;
    s->self_dur = s->dur - os->child_dur;
    if (s->self_dur < 0)
        s->self_dur = 0;
    if (s->thread_dur >= 0 && !os->child_tdur_unknown) {
        s->self_thread_dur = s->thread_dur - os->child_tdur;
        if (s->self_thread_dur < 0)
            s->self_thread_dur = 0;
    }
    s->block_dur = block;
    s->sample_count = (uint32_t)count;
    s->gap_after = e->x.gap_after;
    if (final)
        s->end_kind = c->p->meta.truncated ? TT_ENDK_TRUNCATED : TT_ENDK_UNTERMINATED;
    counters(c, s, os->ctr_begin, e);
    if (s->depth == 0)
        c->info->covered_dur += s->dur;
}

void tt__slice_finish(const bctx *c, tt_slice *s, const open_slice *os, const tt__send *at,
                      int64_t block, uint64_t count, int final)
{
    at_end e;
    e.x = *at;
    e.memo_cb = NULL;
    finish_slice(c, s, os, &e, block, count, final);
}

static void close_top(bctx *c, tt_vec *open, at_end *e, int final)
{
    open_slice os = TT_VEC_AT(open, open_slice, open->len - 1);
    open->len--;
    if (os.borrowed) { /* opened by the first half: it completes the slice */
        tt__sinh *r = &c->inh[open->len];
        r->at = e->x;
        r->child_dur = os.child_dur;
        r->child_tdur = os.child_tdur;
        r->child_tdur_unknown = os.child_tdur_unknown;
        r->final = final;
        c->open_frames[TT_VEC_AT(&c->p->callsites, tt_callsite, os.callsite).frame]--;
        return;
    }
    tt_slice *s = &TT_VEC_AT(c->out, tt_slice, os.slice);
    finish_slice(c, s, &os, e, e->x.cum_block - c->cum_block[os.first],
                 e->x.cum_count - c->cum_count[os.first], final);
    c->open_frames[s->frame]--;
    if (open->len) { /* a borrowed parent sums the children of this half */
        open_slice *par = &TT_VEC_AT(open, open_slice, open->len - 1);
        par->child_dur += s->dur;
        if (s->thread_dur < 0)
            par->child_tdur_unknown = 1;
        else
            par->child_tdur += s->thread_dur;
    }
}

/* Closes the open slices above depth k at item last. */
static void close_to(bctx *c, tt_vec *open, size_t k, size_t last, int final)
{
    if (open->len <= k)
        return;
    at_end e;
    end_at(c, last, &e);
    while (open->len > k)
        close_top(c, open, &e, final);
}

/* Deepest loop frame in the common prefix (5.3 rule 1): keep up to and including it. */
static size_t msg_split(const bctx *c, const uint8_t *is_loop, const tt_vec *open, size_t k)
{
    for (size_t d = k; d-- > 0;) {
        uint32_t cs = TT_VEC_AT(open, open_slice, d).callsite;
        if (is_loop[TT_VEC_AT(&c->p->callsites, tt_callsite, cs).frame])
            return d + 1;
    }
    return 0;
}

/* Length of the common prefix of the open stack and the stack of callsite cs (n frames);
 * path[d] is set for the depths d at and above it. The open stack is one root path of the
 * prefix tree, so the prefixes agree exactly up to the deepest depth where the callsites do. */
static size_t common_prefix(const bctx *c, const tt_vec *open, uint32_t cs, size_t n,
                            uint32_t *path)
{
    const tt_callsite *cst = c->p->callsites.data;
    const open_slice *os = open->data;
    size_t d = n;
    while (d > 0 && (d - 1 >= open->len || os[d - 1].callsite != cs)) {
        path[--d] = cs;
        cs = cst[cs].parent;
    }
    return d;
}

static int mark_gap(bctx *c, size_t i, uint32_t gap_cs)
{
    tt_slice s;
    memset(&s, 0, sizeof s);
    s.ts = c->it[i - 1].t + pad_after(c, i - 1);
    s.dur = c->it[i].t - s.ts;
    s.self_dur = s.dur;
    s.thread_dur = s.self_thread_dur = s.block_dur = s.thread_ts = -1;
    s.gap_before = s.gap_after = -1;
    s.parent = s.wakeup_utid = TT_NONE;
    s.callsite = gap_cs;
    s.frame = tt_profile_callsite(c->p, gap_cs)->frame;
    s.is_synthetic = 1;
    s.type = TT_ST_OTHER;
    s.end_kind = TT_ENDK_INFERRED;
    return tt_vec_push(c->out, &s) ? 0 : TT_ENOMEM;
}

/* Hands the finished depth-0 subtree(s) to the sink (5.7 streaming). */
static int flush(bctx *c)
{
    if (!c->o->sink || !c->out->len)
        return 0;
    int rc = c->o->sink(c->o->sink_ctx, c->out->data, c->out->len) ? TT_EIO : 0;
    c->out->len = 0;
    return rc;
}

/* How many open frames item i keeps (5.2, 5.3); path as common_prefix sets it. count: count
 * the splits into c->info (the boundary of a first half is counted by the second). */
static size_t keep_depth(bctx *c, const uint8_t *is_loop, const tt_vec *open, size_t i,
                         uint32_t *path, size_t *shared, int *gap, int count)
{
    const item *cur = &c->it[i];
    size_t n = (size_t)TT_VEC_AT(&c->p->callsites, tt_callsite, cur->callsite).depth + 1;
    size_t k = common_prefix(c, open, cur->callsite, n, path);
    *shared = k;
    *gap = 0;
    if (i > 0) {
        const item *prev = &c->it[i - 1];
        if (!c->o->no_msg_split && prev->msg_id && cur->msg_id && prev->msg_id != cur->msg_id) {
            size_t k2 = msg_split(c, is_loop, open, k);
            if (count && k2 < k && k2 < open->len)
                c->info->msg_splits++;
            k = k2 < k ? k2 : k;
        }
        if (cur->kind == IT_BEGIN && k > n - 1)
            k = n - 1;
        if (prev->kind == IT_END && k > open->len - 1)
            k = open->len - 1;
        if (is_gap(c, i)) {
            k = 0;
            *gap = 1;
            if (count)
                c->info->gap_splits++;
        }
    }
    return k;
}

/* A second half starts with the stack of the item before it, opened by the first half. */
static int borrow_stack(bctx *c, tt_vec *open)
{
    const tt_callsite *cst = c->p->callsites.data;
    uint32_t cs = c->it[c->begin - 1].callsite;
    size_t n = (size_t)cst[cs].depth + 1;
    if (tt_vec_reserve(open, n))
        return TT_ENOMEM;
    open_slice *os = open->data;
    for (size_t d = n; d-- > 0; cs = cst[cs].parent) {
        memset(&os[d], 0, sizeof os[d]);
        os[d].slice = TT_NONE;
        os[d].callsite = cs;
        os[d].borrowed = 1;
        c->open_frames[cst[cs].frame]++;
    }
    open->len = n;
    return 0;
}

int tt__slice_diff(bctx *c, const uint8_t *is_loop, uint32_t gap_cs, uint32_t *path,
                   tt_vec *openv)
{
    tt_vec open = *openv; /* a copy: the pages are handed back below */
    open.len = 0;
    int rc = c->begin > 0 ? borrow_stack(c, &open) : 0;
    for (size_t i = c->begin; i < c->end && !rc; i++) {
        size_t n = (size_t)TT_VEC_AT(&c->p->callsites, tt_callsite, c->it[i].callsite).depth + 1;
        size_t shared;
        int gap;
        size_t k = keep_depth(c, is_loop, &open, i, path, &shared, &gap, 1);
        for (size_t d = k; d < shared; d++) /* reopened although shared */
            path[d] = TT_VEC_AT(&open, open_slice, d).callsite;
        if (i == c->begin && i > 0) { /* the first half closes what this item does not keep */
            for (; open.len > k; open.len--)
                c->open_frames[TT_VEC_AT(&c->p->callsites, tt_callsite,
                                         TT_VEC_AT(&open, open_slice, open.len - 1).callsite)
                                   .frame]--;
        } else if (i > 0) {
            close_to(c, &open, k, i - 1, 0);
        }
        if (!open.len)
            rc = flush(c);
        if (!rc && gap && c->o->mark_gaps && gap_cs != TT_NONE && !(rc = mark_gap(c, i, gap_cs)))
            rc = flush(c);
        if (!rc && open.len < n) {
            at_begin b;
            begin_at(c, i, &b);
            if (c->out->len + (n - open.len) > TT_NONE - 1)
                rc = TT_ELIMIT;
            else if (tt_vec_reserve(c->out, c->out->len + n) || tt_vec_reserve(&open, n))
                rc = TT_ENOMEM;
            for (size_t d = open.len; d < n && !rc; d++)
                open_slice_at(c, &open, i, &b, path[d], (uint32_t)d);
        }
    }
    if (!rc && c->end < c->m) { /* a first half: the item at end decides what stays open */
        size_t shared;
        int gap;
        size_t k = keep_depth(c, is_loop, &open, c->end, path, &shared, &gap, 0);
        close_to(c, &open, k, c->end - 1, 0);
        if (!open.len)
            rc = flush(c);
    } else if (!rc) {
        close_to(c, &open, 0, c->m - 1, 1);
        rc = flush(c);
    }
    *openv = open;
    return rc;
}

void tt__slice_cum(bctx *c)
{
    c->cum_block[0] = 0;
    c->cum_count[0] = 0;
    for (size_t i = 0; i < c->m; i++) {
        c->cum_block[i + 1] = c->cum_block[i] + c->it[i].block;
        c->cum_count[i + 1] = c->cum_count[i] + c->it[i].count;
    }
}

/* a (have entries of size sz) with room for n, the new ones zero; NULL when out of memory
 * (a is kept). */
static void *zgrow(void *a, size_t have, size_t n, size_t sz)
{
    unsigned char *x = realloc(a, n * sz);
    if (x)
        memset(x + have * sz, 0, (n - have) * sz);
    return x;
}

int tt__slice_loop_flags(const uint8_t **out, tt_profile *p, const tt_slice_opts *opt,
                         const uint32_t *o, size_t n, uint32_t gap_cs)
{
    static const char *const def[] = {"android.os.Looper.loop()"};
    const char *const *names = opt->loop_frames ? opt->loop_frames : def;
    size_t nn = opt->loop_frames ? opt->n_loop_frames : 1;
    tt__slice_ws *w = slice_ws(p);
    *out = NULL;
    if (!w)
        return TT_ENOMEM;
    for (size_t i = 0; i < w->nloop_on; i++) /* the previous build's */
        w->loop[w->loop_on[i]] = 0;
    w->nloop_on = 0;
    size_t nf = p->frames.len + 1, nc = p->callsites.len + 1;
    if (nf > w->loop_cap) {
        uint8_t *l = zgrow(w->loop, w->loop_cap, nf, 1);
        if (!l)
            return TT_ENOMEM;
        w->loop = l;
        uint32_t *on = realloc(w->loop_on, nf * sizeof *on);
        if (!on)
            return TT_ENOMEM;
        w->loop_on = on;
        w->loop_cap = nf;
    }
    if (nc > w->seen_cap) {
        uint32_t *x = zgrow(w->seen, w->seen_cap, nc, sizeof *x);
        if (!x)
            return TT_ENOMEM;
        w->seen = x;
        w->seen_cap = nc;
    }
    if (!++w->stamp) { /* wrapped: no earlier stamp may equal the new one */
        memset(w->seen, 0, w->seen_cap * sizeof *w->seen);
        w->stamp = 1;
    }
    const tt_callsite *c = p->callsites.data;
    const tt_sample *s = p->samples.data;
    for (size_t i = 0; i <= n; i++) {
        uint32_t cs = i < n ? s[o[i]].callsite : gap_cs;
        /* up to the first callsite seen: its callers were seen with it */
        for (; cs != TT_NONE && w->seen[cs] != w->stamp; cs = c[cs].parent) {
            w->seen[cs] = w->stamp;
            uint32_t f = c[cs].frame;
            if (w->loop[f])
                continue;
            const char *name = tt_profile_frame(p, f)->name;
            for (size_t j = 0; j < nn; j++)
                if (!strcmp(name, names[j])) {
                    w->loop[f] = 1;
                    w->loop_on[w->nloop_on++] = f;
                    break;
                }
        }
    }
    *out = w->loop;
    return 0;
}

int tt_slice_build(tt_vec *out, tt_slice_info *info, tt_profile *p, uint32_t utid,
                   const tt_slice_opts *o, tt_error *err)
{
    out->len = 0;
    memset(info, 0, sizeof *info);
    if (!p->finished || utid >= p->threads.len)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "slice building needs a finished "
                                                        "profile and a valid thread");
    if (utid < p->nfixed && p->fixed[utid].len) {
        if (tt_vec_reserve(out, p->fixed[utid].len))
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        memcpy(out->data, p->fixed[utid].data, p->fixed[utid].len * sizeof(tt_slice));
        out->len = p->fixed[utid].len;
        const tt_slice *s = out->data;
        for (size_t i = 0; i < out->len; i++)
            if (s[i].depth == 0) {
                info->covered_dur += s[i].dur;
                if (!info->items || s[i].ts < info->first_ts)
                    info->first_ts = s[i].ts;
                if (s[i].ts + s[i].dur > info->last_ts)
                    info->last_ts = s[i].ts + s[i].dur;
                info->items++;
            }
        if (o->sink) {
            int r = o->sink(o->sink_ctx, out->data, out->len);
            out->len = 0;
            if (r)
                return tt_error_set(err, TT_EIO, NULL, 0, 0, "write failed");
        }
        return 0;
    }
    if (p->meta.timeless)
        return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                            "the input has no timestamps (folded stacks, or perf script "
                            "without the time field or with ambiguous times): slices cannot "
                            "be rebuilt");
    uint32_t gap_cs = TT_NONE;
    if (o->mark_gaps) {
        uint32_t f;
        if (tt__frame_simple(p, &f, "[no samples]", 12, TT_FRAME_SYNTHETIC, NULL) ||
            tt_callsite_intern(p, &gap_cs, &f, 1))
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    bctx c = {.p = p, .o = o, .out = out, .info = info};
    c.max_gap = tt_profile_max_gap(p, utid, o->max_gap);
    info->max_gap = c.max_gap;
    tt__slice_ws *w = slice_ws(p);
    if (w && !w->path)
        w->path = malloc((TT_MAX_STACK_DEPTH + 1) * sizeof *w->path);
    const uint8_t *is_loop = NULL;
    int rc = w && w->path ? build_items(&w->items, p, utid, c.max_gap) : TT_ENOMEM;
    size_t ns;
    const uint32_t *ord = tt_profile_thread_order(p, utid, &ns);
    if (!rc)
        rc = tt__slice_loop_flags(&is_loop, p, o, ord, ns, gap_cs);
    c.it = w ? w->items.data : NULL;
    c.m = w ? w->items.len : 0;
    if (!rc && c.m) {
        rc = cum_reserve(w, c.m);
        c.cum_block = w->cum_block;
        c.cum_count = w->cum_count;
        c.open_frames = calloc(tt_profile_nframes(p) + 1, sizeof *c.open_frames);
        if (!c.open_frames)
            rc = TT_ENOMEM;
        if (!rc)
            tt__slice_cum(&c);
        info->items = c.m;
        info->first_ts = c.it[0].t;
        info->last_ts = c.it[c.m - 1].t;
        c.end = c.m;
        if (!rc)
            rc = tt__slice_diff(&c, is_loop, gap_cs, w->path, &w->open);
    }
    free(c.open_frames);
    if (rc)
        return tt_error_set(err, rc, NULL, 0, 0, rc == TT_ELIMIT ? "too many slices"
                                                 : rc == TT_EIO  ? "write failed"
                                                                 : "out of memory");
    return 0;
}
