/* The stack of a slow startup (startup.md 5.4): Matrix-compatible lenient slice through
 * mstack.c, and native pairing with repairs, blame and top self time (method-beat.md 8.2). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define MATRIX_TRIM 30
#define MATRIX_RING 1000000 /* AppMethodBeat's BUFFER_SIZE (method-beat.md 1.2) */
#define TOP_SELF 10

int tt_startup__matrix_stack(tt_startup *s, int64_t base_ms, int64_t end_ms, int64_t cost,
                             const char **stack, const char **key, int64_t *stack_cost)
{
    /* the slice ends at the last record whose absolute time is <= end_ms */
    size_t last = 0;
    for (size_t i = 0; i < s->o.n_beat; i++)
        if (s->o.beat[i] && tt_beat_time(s->o.beat[i]) + base_ms <= end_ms)
            last = i + 1;
    if (last > MATRIX_RING) {
        /* more records than the ring holds: Matrix's first-record mark was overwritten and
         * copyData returns nothing (startup.md 1.5) */
        tt_stats_add(s->stats, "startup_ring_overwritten", NULL, TT_SEV_WARN, 1,
                     "more than 1,000,000 records before the end of the cold start: Matrix's "
                     "stack is empty");
        last = 0;
    }
    tt_mstack_opts o = {.strict = 0, .have_cost = 1, .cost_ms = cost, .trim = MATRIX_TRIM};
    tt_mstack *m;
    if (tt_mstack_new(&m, &o))
        return TT_ENOMEM;
    tt_mstack_feed(m, s->o.beat, last);
    tt_error err;
    int rc = tt_mstack_finish(m, &err);
    tt_buf b = {0};
    if (!rc) {
        const tt_mstack_result *r = tt_mstack_result_get(m);
        rc = tt_mstack_to_string(&b, r->items, r->n_items);
        *stack_cost = r->stack_cost;
        *stack = rc ? NULL : tt_arena_strndup(s->arena, b.data, b.len);
        char k[16] = "";
        if (r->key_id >= 0)
            snprintf(k, sizeof k, "%d|", (int)r->key_id);
        *key = tt_arena_strndup(s->arena, k, strlen(k));
        if (!*stack || !*key)
            rc = TT_ENOMEM;
    }
    tt_buf_free(&b);
    tt_mstack_free(m);
    return rc;
}

/* ---- native analysis over the slices of beat_slice.c ---- */
typedef struct agg {
    int32_t id;
    int64_t self;
    uint64_t calls;
} agg;

static int cmp_agg_id(const void *a, const void *b)
{
    const agg *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_agg_self(const void *a, const void *b)
{
    const agg *x = a, *y = b;
    if (x->self != y->self)
        return x->self > y->self ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static const char *name_of(tt_startup *s, uint32_t id)
{
    tt_buf b = {0};
    tt_mapping_format_id(&b, s->o.mapping, id, TT_NAME_JAVA);
    const char *r = b.data ? tt_arena_strndup(s->arena, b.data, b.len) : NULL;
    tt_buf_free(&b);
    return r;
}

/* Self time summed per method, the TOP_SELF largest. */
static int top_self(tt_startup *s, tt_su_native *nt, const tt_bslice *sl, size_t n)
{
    size_t k = 0;
    agg *a = malloc((n + 1) * sizeof *a);
    if (!a)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (!sl[i].dropped && !sl[i].synthetic) /* <unknown caller> is no method */
            a[k++] = (agg){(int32_t)sl[i].id, sl[i].self_ms, 1};
    qsort(a, k, sizeof *a, cmp_agg_id);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && a[m - 1].id == a[i].id) {
            a[m - 1].self += a[i].self;
            a[m - 1].calls++;
        } else {
            a[m++] = a[i];
        }
    }
    qsort(a, m, sizeof *a, cmp_agg_self);
    size_t top = m < TOP_SELF ? m : TOP_SELF;
    tt_su_self *t = tt_arena_alloc(s->arena, (top + 1) * sizeof *t);
    int rc = t ? 0 : TT_ENOMEM;
    for (size_t i = 0; i < top && !rc; i++) {
        t[i] = (tt_su_self){a[i].id, name_of(s, (uint32_t)a[i].id), a[i].self, a[i].calls};
        if (!t[i].name)
            rc = TT_ENOMEM;
    }
    nt->top_self = t;
    nt->n_top_self = rc ? 0 : top;
    free(a);
    return rc;
}

/* Blame: Matrix's key rule (method-beat.md 5.9) over the native calls, by name with the
 * call path: among calls of at least 30 % of the window, the largest (depth + 1) x duration;
 * the dispatch root only when nothing else qualifies. */
static int blame(tt_startup *s, tt_su_native *nt, const tt_bslice *sl, size_t n,
                 int64_t window)
{
    int64_t limit = window * 3 / 10;
    int64_t best = -1, alt = -1, kb = 0, ka = 0;
    for (size_t i = 0; i < n; i++) {
        if (sl[i].dropped || sl[i].synthetic || sl[i].dur_ms < limit)
            continue;
        int64_t k = (int64_t)(sl[i].depth + 1) * sl[i].dur_ms;
        if (sl[i].id == TT_BEAT_DISPATCH) {
            if (alt < 0 || k > ka)
                alt = (int64_t)i, ka = k;
        } else if (best < 0 || k > kb) {
            best = (int64_t)i, kb = k;
        }
    }
    if (best < 0)
        best = alt;
    nt->blame_id = -1;
    if (best < 0)
        return 0;
    const tt_bslice *c = &sl[best];
    nt->blame_id = (int32_t)c->id;
    nt->blame_ms = c->dur_ms;
    nt->blame_name = name_of(s, c->id);
    tt_vec chain;
    tt_vec_init(&chain, sizeof(uint32_t));
    for (int64_t i = best; i >= 0; i = sl[i].parent) {
        uint32_t id = sl[i].synthetic ? UINT32_MAX : sl[i].id;
        if (!tt_vec_push(&chain, &id))
            break;
    }
    tt_buf b = {0};
    for (size_t i = chain.len; i-- > 0;) {
        if (i + 1 < chain.len)
            tt_buf_puts(&b, " > ");
        uint32_t id = TT_VEC_AT(&chain, uint32_t, i);
        if (id == UINT32_MAX)
            tt_buf_puts(&b, "<unknown caller>");
        else
            tt_mapping_format_id(&b, s->o.mapping, id, TT_NAME_JAVA);
    }
    nt->blame_path = b.data ? tt_arena_strndup(s->arena, b.data, b.len) : NULL;
    tt_buf_free(&b);
    tt_vec_free(&chain);
    return nt->blame_name && nt->blame_path ? 0 : TT_ENOMEM;
}

int tt_startup__native_stack(tt_startup *s, int64_t base_ms, int64_t from_ms, int64_t to_ms,
                             tt_su_native **out)
{
    tt_su_native *nt = tt_arena_alloc(s->arena, sizeof *nt);
    if (!nt)
        return TT_ENOMEM;
    memset(nt, 0, sizeof *nt);
    nt->blame_id = -1;
    *out = nt;
    /* records inside the window; frames still open at its end are closed there */
    tt_bslicer_opts bo = {.base_ms = base_ms, .have_end = 1, .end_ms = to_ms, .evil_ms = -1};
    tt_bslicer *b;
    if (tt_bslicer_new(&b, &bo))
        return TT_ENOMEM;
    size_t i = 0;
    while (i < s->o.n_beat) {
        size_t j = i;
        while (j < s->o.n_beat) {
            int64_t t = tt_beat_time(s->o.beat[j]) + base_ms;
            if (!s->o.beat[j] || t < from_ms || t > to_ms)
                break;
            j++;
        }
        tt_bslicer_feed(b, s->o.beat + i, j - i); /* a run of records inside the window */
        i = j > i ? j : j + 1;
    }
    tt_error err;
    int rc = tt_bslicer_finish(b, &err);
    if (!rc) {
        size_t n;
        const tt_bslice *sl = tt_bslicer_slices(b, &n);
        const tt_bslicer_stats *st = tt_bslicer_stats_get(b);
        nt->calls = st->slices;
        nt->truncated = st->truncated;
        nt->unterminated = st->unterminated;
        nt->stray_exits = st->stray_exits;
        nt->negative = st->negative_dropped;
        rc = top_self(s, nt, sl, n);
        if (!rc)
            rc = blame(s, nt, sl, n, to_ms - from_ms);
    }
    tt_bslicer_free(b);
    return rc;
}
