/* Matrix's structured-stack algorithm, bit for bit: pairing, drain, merge, tree, flatten,
 * trim, stackToString, getTreeKey (method-beat.md sections 0.3 and 5). */
#include "tt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

/* ---- Java numeric semantics (0.3) ---- */
int32_t tt_java_wrap32(int64_t x)
{
    uint32_t u = (uint32_t)((uint64_t)x & 0xFFFFFFFFu);
    int64_t v = (int64_t)u;
    if (v >= 2147483648LL)
        v -= 4294967296LL;
    return (int32_t)v;
}

int64_t tt_java_f2l(float f)
{
    if (isnan(f))
        return 0;
    if (f >= 9223372036854775807.0f)
        return INT64_MAX;
    if (f <= -9223372036854775808.0f)
        return INT64_MIN;
    return (int64_t)f;
}

int32_t tt_java_round(float f)
{
    if (isnan(f))
        return 0;
    float r = floorf(f);
    float d = f - r;
    if (d >= 0.5f)
        r = r + 1.0f;
    if (r >= 2147483647.0f)
        return INT32_MAX;
    if (r <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)r;
}

static int32_t add32(int32_t a, int32_t b) { return tt_java_wrap32((int64_t)a + b); }
static int64_t sub64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t add64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

/* ---- incremental pairing (5.2) ---- */
struct tt_mstack {
    tt_mstack_opts o;
    tt_vec pending;   /* uint64_t entry records; top = last */
    tt_vec done;      /* tt_mitem in completion order ("front" of Matrix's list = last) */
    uint32_t *idcount;/* occurrences of each id in pending (20-bit ids) */
    int32_t depth;
    int begun;
    int dead;         /* negative duration seen: result empty */
    int oom;
    int finished;
    int64_t last_t;
    int have_last;
    tt_vec out;       /* final items */
    tt_mstack_result res;
};

int tt_mstack_new(tt_mstack **out, const tt_mstack_opts *opts)
{
    tt_mstack *m = calloc(1, sizeof *m);
    if (!m)
        return TT_ENOMEM;
    m->o = *opts;
    tt_vec_init(&m->pending, sizeof(uint64_t));
    tt_vec_init(&m->done, sizeof(tt_mitem));
    tt_vec_init(&m->out, sizeof(tt_mitem));
    m->idcount = calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof(uint32_t));
    if (!m->idcount) {
        free(m);
        return TT_ENOMEM;
    }
    m->begun = !opts->strict;
    m->res.key_id = -1;
    m->res.key_index = -1;
    *out = m;
    return 0;
}

void tt_mstack_free(tt_mstack *m)
{
    if (!m)
        return;
    tt_vec_free(&m->pending);
    tt_vec_free(&m->done);
    tt_vec_free(&m->out);
    free(m->idcount);
    free(m);
}

/* add_item (5.4): merge with the most recent completion when the rule says so. */
static void add_item(tt_mstack *m, tt_mitem it)
{
    if (m->done.len) {
        tt_mitem *last = &TT_VEC_AT(&m->done, tt_mitem, m->done.len - 1);
        if (last->id == it.id && last->depth == it.depth && it.depth != 0) {
            if (it.dur == 5000)
                it.dur = last->dur;
            last->count = add32(last->count, 1);
            last->dur = add32(last->dur, it.dur);
            m->res.merged++;
            return;
        }
    }
    if (!tt_vec_push(&m->done, &it))
        m->oom = 1;
}

static uint64_t pop(tt_mstack *m)
{
    uint64_t e = TT_VEC_AT(&m->pending, uint64_t, --m->pending.len);
    m->idcount[tt_beat_id(e)]--;
    m->depth = tt_java_wrap32((int64_t)m->depth - 1);
    return e;
}

static void feed_one(tt_mstack *m, uint64_t w)
{
    m->res.records++;
    if (w == 0) {
        m->res.zero_records++;
        return;
    }
    m->last_t = tt_beat_time(w);
    m->have_last = 1;
    uint32_t id = tt_beat_id(w);
    int entry = tt_beat_is_entry(w);
    if (!m->begun) {
        if (entry && id == TT_BEAT_DISPATCH) {
            m->begun = 1;
        } else {
            m->res.skipped_before_dispatch++;
            return;
        }
    }
    if (entry) {
        if (id == TT_BEAT_DISPATCH)
            m->depth = 0;
        m->depth = tt_java_wrap32((int64_t)m->depth + 1);
        if (!tt_vec_push(&m->pending, &w)) {
            m->oom = 1;
            return;
        }
        m->idcount[id]++;
        return;
    }
    if (m->pending.len == 0)
        return; /* exit with no entry at all */
    uint64_t e;
    if (m->idcount[id] == 0) {
        /* The search would empty pending without a match: the outcome depends only on
         * the bottom entry, so decide without popping (keeps the loop linear). */
        uint64_t bottom = TT_VEC_AT(&m->pending, uint64_t, 0);
        if (tt_beat_id(bottom) == TT_BEAT_DISPATCH) {
            m->res.stray_exits++;
            return;
        }
        size_t n = m->pending.len;
        while (m->pending.len)
            e = pop(m);
        e = bottom;
        m->res.discarded_entries += n - 1;
        m->res.unrelated_bottom++;
    } else {
        e = pop(m);
        while (tt_beat_id(e) != id) {
            e = pop(m);
            m->res.discarded_entries++;
        }
    }
    int64_t dur = tt_beat_time(w) - tt_beat_time(e);
    if (dur < 0) {
        if (!m->dead)
            m->res.negative_record = m->res.records;
        m->dead = 1;
        return;
    }
    tt_mitem it = {m->depth, (int32_t)id, 1, tt_java_wrap32(dur)};
    add_item(m, it);
}

void tt_mstack_feed(tt_mstack *m, const uint64_t *recs, size_t n)
{
    for (size_t i = 0; i < n && !m->dead && !m->oom; i++)
        feed_one(m, recs[i]);
    if (m->dead)
        m->res.records += 0;
}

/* ---- drain (5.3) ---- */
static void drain(tt_mstack *m)
{
    if (!m->o.strict) {
        return;
    }
    int64_t end = m->o.end_ms;
    if (!m->o.have_end && m->pending.len) {
        end = add64(m->o.base_ms, m->last_t);
        m->res.end_defaulted = 1;
    }
    m->res.end_ms_used = end;
    while (m->pending.len) {
        uint64_t e = TT_VEC_AT(&m->pending, uint64_t, --m->pending.len);
        m->idcount[tt_beat_id(e)]--;
        int64_t in_time = add64(tt_beat_time(e), m->o.base_ms);
        tt_mitem it = {tt_java_wrap32((int64_t)m->pending.len), (int32_t)tt_beat_id(e), 1,
                       tt_java_wrap32(sub64(end, in_time))};
        m->res.drained++;
        add_item(m, it);
    }
}

/* ---- tree (5.5) and flatten (5.6) ---- */
typedef struct node {
    int32_t father;     /* node index, -1 none */
    int32_t first, next;/* children list, sibling link; -1 none */
    int32_t item;
} node;

static int build_and_flatten(tt_mstack *m)
{
    size_t n = m->done.len;
    const tt_mitem *items = m->done.data;
    node *nodes = malloc((n + 1) * sizeof *nodes);
    int32_t *stack = NULL;
    if (!nodes)
        return TT_ENOMEM;
    /* nodes[0] is the root */
    nodes[0] = (node){-1, -1, -1, -1};
    int32_t last = -1;
    int failed = 0;
    size_t k = 1;
    for (size_t j = n; j-- > 0; k++) { /* front to back = newest first */
        const tt_mitem *it = &items[j];
        int32_t nd = (int32_t)k;
        nodes[nd] = (node){last, -1, -1, (int32_t)j};
        if (last < 0 && it->depth != 0) {
            failed = 1;
            break;
        }
        if (last < 0 || it->depth == 0) {
            nodes[nd].next = nodes[0].first;
            nodes[0].first = nd;
        } else if (items[nodes[last].item].depth >= it->depth) {
            int32_t l = last;
            while (l >= 0 && items[nodes[l].item].depth > it->depth)
                l = nodes[l].father;
            if (l >= 0 && nodes[l].father >= 0) {
                int32_t f = nodes[l].father;
                nodes[nd].father = f;
                nodes[nd].next = nodes[f].first;
                nodes[f].first = nd;
            }
        } else {
            nodes[nd].next = nodes[last].first;
            nodes[last].first = nd;
        }
        last = nd;
    }
    m->out.len = 0;
    if (failed) {
        m->res.empty_reason = TT_EMPTY_FIRST_DEPTH;
        free(nodes);
        return 0;
    }
    /* pre-order walk with an explicit stack of "next sibling to visit" */
    stack = malloc((n + 1) * sizeof *stack);
    if (!stack || tt_vec_reserve(&m->out, n)) {
        free(nodes);
        free(stack);
        return TT_ENOMEM;
    }
    size_t sp = 0;
    int32_t cur = nodes[0].first;
    for (;;) {
        while (cur >= 0) {
            /* A node's father pointer may point outside the tree (quirk), but children
             * lists form a forest under the root, so each node is reached once. */
            *(tt_mitem *)tt_vec_push(&m->out, NULL) = items[nodes[cur].item];
            stack[sp++] = nodes[cur].next;
            cur = nodes[cur].first;
        }
        if (sp == 0)
            break;
        cur = stack[--sp];
    }
    free(stack);
    free(nodes);
    return 0;
}

/* ---- trim (5.7) ----
 * Matrix walks the list backwards once per pass, removing lines under pass*5 ms, and stops
 * the moment the list is short enough. A completed pass p has removed every line under
 * 5p ms, so pass p only ever removes lines in [5(p-1), 5p): bucket the lines once and
 * replay the passes by counts, which gives the same result in linear time. */
#define TRIM_STEP 5
#define TRIM_PASSES 60

static int trim_bucket(int32_t dur)
{
    if (dur < TRIM_STEP)
        return 1;
    int64_t b = (int64_t)dur / TRIM_STEP + 1;
    return b > TRIM_PASSES ? TRIM_PASSES + 1 : (int)b;
}

size_t tt_mstack_trim(tt_mitem *items, size_t n, int target)
{
    if (target < 0)
        return 0;
    size_t tgt = (size_t)target;
    if (n <= tgt)
        return n;
    size_t count[TRIM_PASSES + 2] = {0};
    for (size_t i = 0; i < n; i++)
        count[trim_bucket(items[i].dur)]++;
    size_t cur = n;
    int last_pass = 0;    /* buckets <= last_pass are removed entirely */
    size_t partial = 0;   /* lines of bucket last_pass + 1 removed from the end */
    for (int pass = 1; pass <= TRIM_PASSES; pass++) {
        if (cur - count[pass] > tgt) {
            cur -= count[pass];
            last_pass = pass;
            continue;
        }
        partial = cur - tgt;
        cur = tgt;
        break;
    }
    size_t o = 0;
    if (partial) {
        /* mark the last `partial` lines of bucket last_pass + 1 by walking backwards */
        int pb = last_pass + 1;
        size_t left = partial, cut = n;
        for (size_t i = n; i-- > 0 && left;)
            if (trim_bucket(items[i].dur) == pb) {
                left--;
                cut = i;
            }
        for (size_t i = 0; i < n; i++) {
            int b = trim_bucket(items[i].dur);
            if (b <= last_pass || (b == pb && i >= cut))
                continue;
            items[o++] = items[i];
        }
        return o;
    }
    for (size_t i = 0; i < n; i++)
        if (trim_bucket(items[i].dur) > last_pass)
            items[o++] = items[i];
    return o > tgt ? tgt : o; /* fallback: keep the first `target` lines */
}

/* ---- stackToString (5.8) ---- */
int tt_mstack_to_string(tt_buf *b, const tt_mitem *items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tt_buf_printf(b, "%d,%d,%d,%d\n", (int)items[i].depth, (int)items[i].id,
                          (int)items[i].count, (int)items[i].dur))
            return TT_ENOMEM;
    if (!b->data)
        return tt_buf_put(b, "", 0);
    return 0;
}

int64_t tt_mstack_max_dur(const tt_mitem *items, size_t n)
{
    int64_t mx = 0;
    for (size_t i = 0; i < n; i++)
        if (items[i].dur > mx)
            mx = items[i].dur;
    return mx;
}

/* ---- getTreeKey (5.9) ---- */
ptrdiff_t tt_mstack_tree_key(const tt_mitem *items, size_t n, int64_t stack_cost)
{
    if (n == 0)
        return -1;
    float fc = (float)stack_cost;
    float fl = fc * 0.3f;
    int64_t limit = tt_java_f2l(fl);
    /* stable sort descending by k: the first candidate is the earliest with the maximal
     * k; the second is the earliest maximal among the rest. */
    ptrdiff_t best = -1, second = -1;
    int32_t kb = 0, ks = 0;
    for (size_t i = 0; i < n; i++) {
        if ((int64_t)items[i].dur < limit)
            continue;
        int32_t k = tt_java_wrap32((int64_t)add32(items[i].depth, 1) * items[i].dur);
        if (best < 0 || k > kb) {
            second = best;
            ks = kb;
            best = (ptrdiff_t)i;
            kb = k;
        } else if (second < 0 || k > ks) {
            second = (ptrdiff_t)i;
            ks = k;
        }
    }
    if (best < 0)
        return 0;
    if (second >= 0 && (uint32_t)items[best].id == TT_BEAT_DISPATCH)
        return second;
    return best;
}

int tt_mstack_finish(tt_mstack *m, tt_error *err)
{
    if (m->finished)
        return 0;
    if (m->oom)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    m->finished = 1;
    tt_mstack_result *r = &m->res;
    r->end_ms_used = m->o.end_ms;
    if (m->dead) {
        r->empty_reason = TT_EMPTY_NEGATIVE;
    } else {
        drain(m);
        if (m->oom)
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        if (m->done.len == 0) {
            r->empty_reason = TT_EMPTY_NO_RECORDS;
        } else if (build_and_flatten(m)) {
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    r->n_untrimmed = m->out.len;
    size_t len = m->out.len;
    if (m->o.trim > 0)
        len = tt_mstack_trim(m->out.data, m->out.len, m->o.trim);
    m->out.len = len;
    r->items = m->out.data;
    r->n_items = len;
    int64_t mx = tt_mstack_max_dur(r->items, len);
    int64_t cost = m->o.have_cost ? m->o.cost_ms : 0;
    r->stack_cost = cost > mx ? cost : mx;
    ptrdiff_t k = tt_mstack_tree_key(r->items, len, r->stack_cost);
    r->key_index = (int32_t)k;
    r->key_id = k >= 0 ? r->items[k].id : -1;
    return 0;
}

const tt_mstack_result *tt_mstack_result_get(const tt_mstack *m) { return &m->res; }
