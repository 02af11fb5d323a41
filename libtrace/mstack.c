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
#define IDPAGE_BITS 10
#define IDPAGE_MASK ((1u << IDPAGE_BITS) - 1)
struct tt_mstack {
    tt_mstack_opts o;
    tt_vec pending;   /* uint64_t entry records; top = last */
    tt_vec done;      /* tt_mitem in completion order ("front" of Matrix's list = last) */
    /* occurrences of each id in pending (20-bit ids), in 4 KB pages allocated on first use:
     * a flat table would be 4 MB per analysis whatever the ids */
    uint32_t *idpage[(TT_BEAT_ID_MAX >> IDPAGE_BITS) + 1];
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
    for (size_t i = 0; i < sizeof m->idpage / sizeof m->idpage[0]; i++)
        free(m->idpage[i]);
    free(m);
}

static inline uint32_t idcount(const tt_mstack *m, uint32_t id)
{
    const uint32_t *pg = m->idpage[id >> IDPAGE_BITS];
    return pg ? pg[id & IDPAGE_MASK] : 0;
}

static inline int idcount_inc(tt_mstack *m, uint32_t id)
{
    uint32_t **pg = &m->idpage[id >> IDPAGE_BITS];
    if (!*pg && !(*pg = calloc(IDPAGE_MASK + 1, sizeof **pg)))
        return TT_ENOMEM;
    (*pg)[id & IDPAGE_MASK]++;
    return 0;
}

/* only for ids in pending, whose page exists */
static inline void idcount_dec(tt_mstack *m, uint32_t id)
{
    m->idpage[id >> IDPAGE_BITS][id & IDPAGE_MASK]--;
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
    /* typed pushes: these run once per record, a generic memcpy call per element costs */
    if (m->done.len == m->done.cap && tt_vec_reserve(&m->done, m->done.len + 1)) {
        m->oom = 1;
        return;
    }
    ((tt_mitem *)m->done.data)[m->done.len++] = it;
}

static inline uint64_t pop(tt_mstack *m)
{
    uint64_t e = TT_VEC_AT(&m->pending, uint64_t, --m->pending.len);
    idcount_dec(m, tt_beat_id(e));
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
        if (m->pending.len == m->pending.cap &&
            tt_vec_reserve(&m->pending, m->pending.len + 1)) {
            m->oom = 1;
            return;
        }
        if (idcount_inc(m, id)) {
            m->oom = 1;
            return;
        }
        ((uint64_t *)m->pending.data)[m->pending.len++] = w;
        return;
    }
    if (m->pending.len == 0) { /* exit with no entry at all: ignored, a stray exit */
        m->res.stray_exits++;
        return;
    }
    uint64_t e;
    if (idcount(m, id) == 0) {
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
        idcount_dec(m, tt_beat_id(e));
        int64_t in_time = add64(tt_beat_time(e), m->o.base_ms);
        tt_mitem it = {tt_java_wrap32((int64_t)m->pending.len), (int32_t)tt_beat_id(e), 1,
                       tt_java_wrap32(sub64(end, in_time))};
        m->res.drained++;
        add_item(m, it);
    }
}

/* ---- trim (5.7) ----
 * Matrix walks the list backwards once per pass, removing lines under pass*5 ms, and stops
 * the moment the list is short enough. A completed pass p has removed every line under
 * 5p ms, so pass p only ever removes lines in [5(p-1), 5p): the result depends only on
 * the histogram of these buckets. The plan keeps every line of a bucket above `pb`, the
 * first `keep_pb` lines of bucket `pb`, nothing below, and at most `target` lines (the
 * fallback). Linear, and it can be applied while the list is being produced. */
#define TRIM_STEP 5
#define TRIM_PASSES 60

static int trim_bucket(int32_t dur)
{
    if (dur < TRIM_STEP)
        return 1;
    int64_t b = (int64_t)dur / TRIM_STEP + 1;
    return b > TRIM_PASSES ? TRIM_PASSES + 1 : (int)b;
}

typedef struct trim_plan {
    int active;     /* 0: keep everything */
    int pb;         /* buckets < pb are removed */
    size_t keep_pb; /* lines of bucket pb kept, from the front */
    size_t target;
    size_t seen_pb, kept;
} trim_plan;

static void trim_plan_make(trim_plan *tp, const size_t *count, size_t n, size_t tgt)
{
    memset(tp, 0, sizeof *tp);
    if (n <= tgt)
        return;
    tp->active = 1;
    tp->target = tgt;
    size_t cur = n;
    int last_pass = 0;
    size_t partial = 0;
    for (int pass = 1; pass <= TRIM_PASSES; pass++) {
        if (cur - count[pass] > tgt) {
            cur -= count[pass];
            last_pass = pass;
            continue;
        }
        partial = cur - tgt; /* the last `partial` lines of this bucket go */
        break;
    }
    tp->pb = last_pass + 1;
    tp->keep_pb = count[tp->pb] - partial;
}

/* Does the next line (in list order) survive the trim? */
static int trim_keep(trim_plan *tp, int32_t dur)
{
    if (!tp->active)
        return 1;
    if (tp->kept >= tp->target)
        return 0;
    int b = trim_bucket(dur);
    if (b < tp->pb || (b == tp->pb && tp->seen_pb++ >= tp->keep_pb))
        return 0;
    tp->kept++;
    return 1;
}

size_t tt_mstack_trim(tt_mitem *items, size_t n, int target)
{
    if (target < 0)
        return 0;
    size_t count[TRIM_PASSES + 2] = {0};
    for (size_t i = 0; i < n; i++)
        count[trim_bucket(items[i].dur)]++;
    trim_plan tp;
    trim_plan_make(&tp, count, n, (size_t)target);
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        if (trim_keep(&tp, items[i].dur))
            items[o++] = items[i];
    return o;
}

/* ---- tree (5.5) and flatten (5.6) ----
 * Node k (k >= 1) holds item n - k of `done` (newest completion first); node 0 is the root.
 * Only nodes reachable from the root through children lists are output: a node is
 * reachable iff it was inserted into the root's list or into the list of a reachable node,
 * which is known when it is inserted. The trim plan needs the histogram of the output, so
 * it is counted here and the pre-order walk emits only the lines that survive trimming. */
typedef struct node {
    int32_t father;      /* node index, -1 none */
    int32_t first, next; /* children list, sibling link; -1 none */
    int32_t reach;       /* reachable from the root */
} node;

static void insert_child(node *nodes, int32_t parent, int32_t nd, size_t *count,
                         const tt_mitem *it, size_t *reached)
{
    nodes[nd].next = nodes[parent].first;
    nodes[parent].first = nd;
    if (nodes[parent].reach) {
        nodes[nd].reach = 1;
        count[trim_bucket(it->dur)]++;
        (*reached)++;
    }
}

static int build_and_flatten(tt_mstack *m)
{
    size_t n = m->done.len;
    const tt_mitem *items = m->done.data;
    node *nodes = malloc((n + 1) * sizeof *nodes);
    int32_t *stack = NULL;
    if (!nodes)
        return TT_ENOMEM;
    size_t count[TRIM_PASSES + 2] = {0}, reached = 0;
    nodes[0] = (node){-1, -1, -1, 1};
    int32_t last = -1;
    int failed = 0;
    for (size_t k = 1; k <= n; k++) { /* front to back = newest first */
        const tt_mitem *it = &items[n - k];
        int32_t nd = (int32_t)k;
        nodes[nd] = (node){last, -1, -1, 0};
        if (last < 0 && it->depth != 0) {
            failed = 1;
            break;
        }
        if (last < 0 || it->depth == 0) {
            insert_child(nodes, 0, nd, count, it, &reached); /* father stays = last (quirk) */
        } else if (items[n - (size_t)last].depth >= it->depth) {
            int32_t l = last;
            while (l >= 0 && items[n - (size_t)l].depth > it->depth)
                l = nodes[l].father;
            if (l >= 0 && nodes[l].father >= 0) {
                int32_t f = nodes[l].father;
                nodes[nd].father = f;
                insert_child(nodes, f, nd, count, it, &reached);
            }
            /* else: the node is silently not attached */
        } else {
            insert_child(nodes, last, nd, count, it, &reached);
        }
        last = nd;
    }
    m->out.len = 0;
    if (failed) {
        m->res.empty_reason = TT_EMPTY_FIRST_DEPTH;
        free(nodes);
        return 0;
    }
    m->res.n_untrimmed = reached;
    trim_plan tp;
    memset(&tp, 0, sizeof tp);
    if (m->o.trim > 0)
        trim_plan_make(&tp, count, reached, (size_t)m->o.trim);
    /* pre-order walk with an explicit stack of "next sibling to visit" (as deep as the
     * tree); children lists form a forest under the root, so each node is reached once */
    stack = malloc((n + 1) * sizeof *stack);
    if (!stack || tt_vec_reserve(&m->out, tp.active ? tp.target : reached)) {
        free(nodes);
        free(stack);
        return TT_ENOMEM;
    }
    tt_mitem *out = m->out.data;
    size_t sp = 0, o = 0;
    int32_t cur = nodes[0].first;
    for (;;) {
        while (cur >= 0) {
            const tt_mitem *it = &items[n - (size_t)cur];
            if (trim_keep(&tp, it->dur))
                out[o++] = *it;
            stack[sp++] = nodes[cur].next;
            cur = nodes[cur].first;
        }
        if (sp == 0 || (tp.active && tp.kept >= tp.target))
            break;
        cur = stack[--sp];
    }
    m->out.len = o;
    free(stack);
    free(nodes);
    return 0;
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
    size_t len = m->out.len; /* already trimmed by build_and_flatten */
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
