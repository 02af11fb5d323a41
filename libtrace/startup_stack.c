/* The stack of a slow startup (startup.md 5.4): Matrix-compatible lenient slice through
 * mstack.c, and native pairing with repairs, blame and top self time (method-beat.md 8.2). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define MATRIX_TRIM 30
#define TOP_SELF 10

int tt_startup__matrix_stack(tt_startup *s, int64_t base_ms, int64_t end_ms, int64_t cost,
                             const char **stack, const char **key, int64_t *stack_cost)
{
    /* the slice ends at the last record whose absolute time is <= end_ms */
    size_t last = 0;
    for (size_t i = 0; i < s->o.n_beat; i++)
        if (s->o.beat[i] && tt_beat_time(s->o.beat[i]) + base_ms <= end_ms)
            last = i + 1;
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

/* ---- native pairing ---- */
typedef struct call {
    int32_t id;
    int32_t parent;   /* call index, -1 root */
    int32_t depth;
    int64_t begin, end, child;
} call;

typedef struct agg {
    int32_t id;
    int64_t self;
    uint64_t calls;
} agg;

typedef struct pairing {
    tt_vec calls;     /* call, in entry order */
    tt_vec open;      /* int32_t call indexes */
    uint32_t *idcount;
    tt_su_native *nt;
} pairing;

static void close_call(pairing *p, int32_t ci, int64_t end)
{
    call *c = &TT_VEC_AT(&p->calls, call, ci);
    c->end = end;
    if (c->parent >= 0)
        TT_VEC_AT(&p->calls, call, c->parent).child += end - c->begin;
}

static int32_t pop_open(pairing *p)
{
    int32_t ci = TT_VEC_AT(&p->open, int32_t, --p->open.len);
    p->idcount[TT_VEC_AT(&p->calls, call, ci).id]--;
    return ci;
}

static int feed(pairing *p, uint64_t w, int64_t t)
{
    uint32_t id = tt_beat_id(w);
    if (tt_beat_is_entry(w)) {
        int32_t parent = p->open.len ? TT_VEC_AT(&p->open, int32_t, p->open.len - 1) : -1;
        call c = {(int32_t)id, parent, (int32_t)p->open.len, t, -1, 0};
        if (p->calls.len >= INT32_MAX || !tt_vec_push(&p->calls, &c))
            return TT_ENOMEM;
        int32_t ci = (int32_t)(p->calls.len - 1);
        if (!tt_vec_push(&p->open, &ci))
            return TT_ENOMEM;
        p->idcount[id]++;
        return 0;
    }
    if (!p->idcount[id]) {
        p->nt->stray_exits++;
        return 0;
    }
    int32_t ci;
    while (TT_VEC_AT(&p->calls, call, (ci = pop_open(p))).id != (int32_t)id) {
        close_call(p, ci, t); /* exited by unwinding: closed at the ancestor's exit */
        p->nt->unterminated++;
    }
    if (t < TT_VEC_AT(&p->calls, call, ci).begin) {
        TT_VEC_AT(&p->calls, call, ci).end = -2; /* dropped pair */
        p->nt->negative++;
        return 0;
    }
    close_call(p, ci, t);
    return 0;
}

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

static const char *name_of(tt_startup *s, int32_t id)
{
    tt_buf b = {0};
    tt_mapping_format_id(&b, s->o.mapping, (uint32_t)id, TT_NAME_JAVA);
    const char *r = b.data ? tt_arena_strndup(s->arena, b.data, b.len) : NULL;
    tt_buf_free(&b);
    return r;
}

static int top_self(tt_startup *s, pairing *p)
{
    size_t n = 0;
    agg *a = malloc((p->calls.len + 1) * sizeof *a);
    if (!a)
        return TT_ENOMEM;
    for (size_t i = 0; i < p->calls.len; i++) {
        const call *c = &TT_VEC_AT(&p->calls, call, i);
        if (c->end < 0)
            continue;
        int64_t self = c->end - c->begin - c->child;
        a[n++] = (agg){c->id, self > 0 ? self : 0, 1};
    }
    qsort(a, n, sizeof *a, cmp_agg_id);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && a[m - 1].id == a[i].id) {
            a[m - 1].self += a[i].self;
            a[m - 1].calls++;
        } else {
            a[m++] = a[i];
        }
    }
    qsort(a, m, sizeof *a, cmp_agg_self);
    size_t k = m < TOP_SELF ? m : TOP_SELF;
    tt_su_self *t = tt_arena_alloc(s->arena, (k + 1) * sizeof *t);
    int rc = t ? 0 : TT_ENOMEM;
    for (size_t i = 0; i < k && !rc; i++) {
        t[i] = (tt_su_self){a[i].id, name_of(s, a[i].id), a[i].self, a[i].calls};
        if (!t[i].name)
            rc = TT_ENOMEM;
    }
    p->nt->top_self = t;
    p->nt->n_top_self = rc ? 0 : k;
    free(a);
    return rc;
}

/* Blame: Matrix's key rule (method-beat.md 5.9) over native calls, by name with its path. */
static int blame(tt_startup *s, pairing *p, int64_t window)
{
    int64_t limit = window * 3 / 10;
    int32_t best = -1, alt = -1;
    int64_t kb = 0, ka = 0;
    for (size_t i = 0; i < p->calls.len; i++) {
        const call *c = &TT_VEC_AT(&p->calls, call, i);
        int64_t d = c->end - c->begin;
        if (c->end < 0 || d < limit)
            continue;
        int64_t k = (int64_t)(c->depth + 1) * d;
        if ((uint32_t)c->id == TT_BEAT_DISPATCH) {
            if (alt < 0 || k > ka)
                alt = (int32_t)i, ka = k;
        } else if (best < 0 || k > kb) {
            best = (int32_t)i, kb = k;
        }
    }
    if (best < 0)
        best = alt;
    tt_su_native *nt = p->nt;
    nt->blame_id = -1;
    if (best < 0)
        return 0;
    const call *c = &TT_VEC_AT(&p->calls, call, best);
    nt->blame_id = c->id;
    nt->blame_ms = c->end - c->begin;
    nt->blame_name = name_of(s, c->id);
    tt_vec chain;
    tt_vec_init(&chain, sizeof(int32_t));
    for (int32_t i = best; i >= 0; i = TT_VEC_AT(&p->calls, call, i).parent)
        if (!tt_vec_push(&chain, &TT_VEC_AT(&p->calls, call, i).id))
            break;
    tt_buf b = {0};
    for (size_t i = chain.len; i-- > 0;) {
        if (i + 1 < chain.len)
            tt_buf_puts(&b, " > ");
        tt_mapping_format_id(&b, s->o.mapping, (uint32_t)TT_VEC_AT(&chain, int32_t, i),
                             TT_NAME_JAVA);
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
    if (!s->idcount && !(s->idcount = calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof(uint32_t))))
        return TT_ENOMEM;
    pairing p = {.idcount = s->idcount, .nt = nt};
    tt_vec_init(&p.calls, sizeof(call));
    tt_vec_init(&p.open, sizeof(int32_t));
    int rc = 0;
    for (size_t i = 0; i < s->o.n_beat && !rc; i++) {
        uint64_t w = s->o.beat[i];
        int64_t t = tt_beat_time(w) + base_ms;
        if (w && t >= from_ms && t <= to_ms)
            rc = feed(&p, w, t);
    }
    while (!rc && p.open.len) {
        close_call(&p, pop_open(&p), to_ms); /* still open at the window end */
        nt->truncated++;
    }
    while (p.open.len)
        pop_open(&p); /* keeps idcount zeroed for the next window */
    nt->calls = p.calls.len;
    if (!rc)
        rc = top_self(s, &p);
    if (!rc)
        rc = blame(s, &p, to_ms - from_ms);
    tt_vec_free(&p.calls);
    tt_vec_free(&p.open);
    *out = nt;
    return rc;
}
