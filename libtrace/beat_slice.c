/* Native-mode method-beat analysis (method-beat.md 8.2): every call becomes a slice with
 * begin, end, depth and parent; repairs are counted instead of discarding data. Each
 * outermost dispatch at least as long as the evil-method threshold is also run through
 * Matrix's own pipeline (section 5.11, evil method), giving the issue Matrix would report. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

struct tt_bslicer {
    tt_bslicer_opts o;
    tt_vec slices;  /* tt_bslice, in entry order (= pre-order) */
    tt_vec open;    /* uint32_t indexes into slices: the open frames, top = last */
    tt_vec window;  /* uint64_t records of the current outermost dispatch */
    tt_vec evil;    /* tt_bevil */
    int in_window;
    int64_t last_t, max_t; /* the last record's time, the latest record time */
    int64_t first_t;       /* the first record's time */
    int have_last;
    uint64_t closed_kept;  /* closed calls not dropped */
    size_t adopt_n;        /* slices before the last exit that came with nothing open */
    int64_t adopt_end_t;   /* that exit's time */
    int oom;
    int finished;
    tt_bslicer_stats st;
};

static int ms_ok(int64_t ms) { return ms >= -TT_MS_MAX && ms <= TT_MS_MAX; }

int tt_bslicer_new(tt_bslicer **out, const tt_bslicer_opts *opts)
{
    /* bounded times keep every sum and difference of ms times below in range */
    if (!ms_ok(opts->base_ms) || (opts->have_end && !ms_ok(opts->end_ms)))
        return TT_EINVAL;
    tt_bslicer *b = calloc(1, sizeof *b);
    if (!b)
        return TT_ENOMEM;
    b->o = *opts;
    tt_vec_init(&b->slices, sizeof(tt_bslice));
    tt_vec_init(&b->open, sizeof(uint32_t));
    tt_vec_init(&b->window, sizeof(uint64_t));
    tt_vec_init(&b->evil, sizeof(tt_bevil));
    *out = b;
    return 0;
}

void tt_bslicer_free(tt_bslicer *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->evil.len; i++)
        free(TT_VEC_AT(&b->evil, tt_bevil, i).items);
    tt_vec_free(&b->slices);
    tt_vec_free(&b->open);
    tt_vec_free(&b->window);
    tt_vec_free(&b->evil);
    free(b);
}

static tt_bslice *slice_at(tt_bslicer *b, uint32_t i) { return &TT_VEC_AT(&b->slices, tt_bslice, i); }

/* Closes slice i at time t with the given end kind; a negative duration drops it. */
static void close_slice(tt_bslicer *b, uint32_t i, int64_t t, int end_kind)
{
    tt_bslice *s = slice_at(b, i);
    s->dur_ms = t - s->ts_ms;
    s->end_kind = (uint8_t)end_kind;
    if (s->dur_ms < 0) {
        if (end_kind == TT_SLICE_TRUNCATED) {
            s->dur_ms = 0; /* open frame whose entry is newer than the end time */
            b->st.clamped_end++;
        } else {
            s->dropped = 1;
            b->st.negative_dropped++;
        }
    }
    if (!s->dropped)
        b->closed_kept++;
    if (end_kind == TT_SLICE_UNTERMINATED)
        b->st.unterminated++;
    else if (end_kind == TT_SLICE_TRUNCATED)
        b->st.truncated++;
}

/* Runs Matrix's evil-method analysis over the buffered dispatch window (5.11). */
static void analyse_window(tt_bslicer *b, uint32_t dispatch, int64_t t_end)
{
    tt_bslice *d = slice_at(b, dispatch);
    int64_t cost = d->dur_ms;
    tt_mstack_opts mo = {.strict = 1, .have_end = 1, .end_ms = b->o.base_ms + t_end,
                         .base_ms = b->o.base_ms, .have_cost = 1, .cost_ms = cost,
                         .trim = b->o.trim};
    tt_mstack *ms;
    if (tt_mstack_new(&ms, &mo)) {
        b->oom = 1;
        return;
    }
    tt_mstack_feed(ms, b->window.data, b->window.len);
    if (tt_mstack_finish(ms, NULL)) {
        tt_mstack_free(ms);
        b->oom = 1;
        return;
    }
    const tt_mstack_result *r = tt_mstack_result_get(ms);
    tt_bevil e = {.slice = dispatch, .ts_ms = d->ts_ms, .dur_ms = cost,
                  .stack_cost = r->stack_cost, .key_id = r->key_id, .key_index = r->key_index,
                  .n_items = r->n_items, .empty_reason = r->empty_reason};
    if (r->n_items) {
        e.items = malloc(r->n_items * sizeof *e.items);
        if (!e.items) {
            tt_mstack_free(ms);
            b->oom = 1;
            return;
        }
        memcpy(e.items, r->items, r->n_items * sizeof *e.items);
    }
    tt_mstack_free(ms);
    if (!tt_vec_push(&b->evil, &e)) {
        free(e.items);
        b->oom = 1;
    }
}

static void beat_entry(tt_bslicer *b, uint32_t id, int64_t t)
{
    tt_bslice s = {.ts_ms = t, .id = id, .parent = -1, .end_kind = TT_SLICE_TRUNCATED};
    if (b->open.len)
        s.parent = (int32_t)TT_VEC_AT(&b->open, uint32_t, b->open.len - 1);
    if (b->slices.len >= INT32_MAX) {
        b->oom = 1;
        return;
    }
    uint32_t idx = (uint32_t)b->slices.len;
    if (!tt_vec_push(&b->slices, &s) || !tt_vec_push(&b->open, &idx))
        b->oom = 1;
}

static void beat_exit(tt_bslicer *b, uint32_t id, int64_t t)
{
    size_t k = b->open.len;
    while (k > 0 && slice_at(b, TT_VEC_AT(&b->open, uint32_t, k - 1))->id != id)
        k--;
    if (k == 0) {
        if (b->open.len == 0 && b->closed_kept) {
            /* the buffer began inside this method: every call so far is its callee (8.2) */
            b->adopt_n = b->slices.len;
            b->adopt_end_t = t;
            b->st.caller_exits++;
        } else {
            b->st.stray_exits++;
        }
        return;
    }
    /* frames above the match never returned normally: an exception unwound them */
    while (b->open.len > k) {
        uint32_t i = TT_VEC_AT(&b->open, uint32_t, --b->open.len);
        close_slice(b, i, t, TT_SLICE_UNTERMINATED);
    }
    uint32_t i = TT_VEC_AT(&b->open, uint32_t, --b->open.len);
    close_slice(b, i, t, TT_SLICE_EXACT);
    if (b->in_window && b->open.len == 0) {
        b->in_window = 0;
        tt_bslice *s = slice_at(b, i);
        if (id == TT_BEAT_DISPATCH && !s->dropped && b->o.evil_ms >= 0 &&
            s->dur_ms >= b->o.evil_ms) {
            b->st.evil_dispatches++;
            analyse_window(b, i, t);
        }
        b->window.len = 0;
    }
}

void tt_bslicer_feed(tt_bslicer *b, const uint64_t *recs, size_t n)
{
    for (size_t r = 0; r < n && !b->oom && !b->finished; r++) {
        uint64_t w = recs[r];
        b->st.records++;
        if (w == 0) {
            b->st.zero_records++;
            continue;
        }
        uint32_t id = tt_beat_id(w);
        int64_t t = tt_beat_time(w);
        if (id == 0 || id == TT_BEAT_ID_MAX) {
            b->st.invalid_ids++;
            continue;
        }
        if (!b->have_last)
            b->first_t = t;
        if (b->have_last && t < b->last_t)
            b->st.backwards++;
        if (!b->have_last || t > b->max_t)
            b->max_t = t;
        b->last_t = t;
        b->have_last = 1;
        int entry = tt_beat_is_entry(w);
        if (entry && id == TT_BEAT_DISPATCH && b->open.len == 0 && b->o.evil_ms >= 0) {
            b->in_window = 1;
            b->window.len = 0;
        }
        if (b->in_window && !tt_vec_push(&b->window, &w)) {
            b->oom = 1;
            break;
        }
        if (entry)
            beat_entry(b, id, t);
        else
            beat_exit(b, id, t);
    }
}

/* Puts the synthetic <unknown caller> first and attaches the top-level slices before the last
 * caller exit to it (8.2). It spans the first record's time to that exit, widened to hold its
 * callees when times went backwards. */
static int adopt_orphans(tt_bslicer *b)
{
    tt_bslice u = {.parent = -1, .end_kind = TT_SLICE_EXACT, .synthetic = 1};
    size_t n = b->slices.len;
    if (!tt_vec_push(&b->slices, &u))
        return TT_ENOMEM;
    tt_bslice *S = b->slices.data;
    memmove(S + 1, S, n * sizeof *S);
    int64_t ts = b->first_t, end = b->adopt_end_t;
    for (size_t i = 1; i <= n; i++) {
        if (S[i].parent >= 0)
            S[i].parent++;
        else if (i <= b->adopt_n)
            S[i].parent = 0;
        if (i <= b->adopt_n && !S[i].dropped) {
            ts = S[i].ts_ms < ts ? S[i].ts_ms : ts;
            end = S[i].ts_ms + S[i].dur_ms > end ? S[i].ts_ms + S[i].dur_ms : end;
        }
    }
    u.ts_ms = ts;
    u.dur_ms = end - ts;
    S[0] = u;
    for (size_t i = 0; i < b->evil.len; i++)
        TT_VEC_AT(&b->evil, tt_bevil, i).slice++;
    return 0;
}

/* Effective parents (skipping dropped slices), depths, self times, recursion flags. */
static int finalize(tt_bslicer *b)
{
    size_t n = b->slices.len;
    tt_bslice *S = b->slices.data;
    uint16_t *onpath = calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof *onpath);
    uint32_t *path = malloc((n ? n : 1) * sizeof *path);
    if (!onpath || !path) {
        free(onpath);
        free(path);
        return TT_ENOMEM;
    }
    size_t sp = 0, kept = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t p = S[i].parent;
        if (p >= 0 && S[p].dropped)
            p = S[p].parent; /* already effective: parents precede children */
        S[i].parent = p;
        S[i].self_ms = S[i].dur_ms;
        if (S[i].dropped)
            continue;
        kept += !S[i].synthetic;
        b->st.orphans += p == 0 && S[0].synthetic;
        while (sp && (int32_t)path[sp - 1] != p) {
            onpath[S[path[sp - 1]].id]--;
            sp--;
        }
        S[i].depth = p < 0 ? 0 : S[p].depth + 1;
        S[i].recursive = onpath[S[i].id] > 0;
        if (onpath[S[i].id] < UINT16_MAX)
            onpath[S[i].id]++;
        else
            S[i].recursive = 1;
        path[sp++] = (uint32_t)i;
        if (p >= 0)
            S[p].self_ms -= S[i].dur_ms;
    }
    for (size_t i = 0; i < n; i++)
        if (!S[i].dropped && S[i].self_ms < 0) {
            S[i].self_ms = 0;
            b->st.clamped_self++;
        }
    b->st.slices = kept;
    free(onpath);
    free(path);
    return 0;
}

int tt_bslicer_finish(tt_bslicer *b, tt_error *err)
{
    if (b->finished)
        return 0;
    if (b->oom)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    b->finished = 1;
    int64_t end = b->last_t;
    if (b->o.have_end)
        end = b->o.end_ms - b->o.base_ms;
    /* 8.2: open frames close at the end time or the last record time, never before a record
     * they hold (their completed callees would end after them) */
    if (b->have_last && end < b->max_t && b->open.len) {
        if (b->o.have_end)
            b->st.end_raised = b->open.len;
        end = b->max_t;
    }
    b->st.end_ms_used = end;
    b->st.end_defaulted = !b->o.have_end && b->open.len > 0;
    while (b->open.len) {
        uint32_t i = TT_VEC_AT(&b->open, uint32_t, --b->open.len);
        close_slice(b, i, end, TT_SLICE_TRUNCATED);
    }
    b->window.len = 0;
    if ((b->adopt_n && adopt_orphans(b)) || finalize(b))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}

const tt_bslice *tt_bslicer_slices(const tt_bslicer *b, size_t *n)
{
    *n = b->slices.len;
    return b->slices.data;
}

const tt_bevil *tt_bslicer_evil(const tt_bslicer *b, size_t *n)
{
    *n = b->evil.len;
    return b->evil.data;
}

const tt_bslicer_stats *tt_bslicer_stats_get(const tt_bslicer *b) { return &b->st; }
