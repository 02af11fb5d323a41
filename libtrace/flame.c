/* Flame graph trees and layout, spec/visual.md sections 2 and 3: merging by display name,
 * reverse/focus/fold-recursion, totals, apportionment, pruning with a frame budget. */
#include "tt.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct fname {
    size_t off, moff; /* into text; moff SIZE_MAX = no module */
    uint32_t len;
    uint8_t cat;
} fname;

struct tt_flame {
    tt_vec nodes; /* tt_flame_node */
    tt_vec names; /* fname */
    tt_buf text;
    uint32_t *nh; /* name hash: name id + 1, 0 = empty */
    size_t nhcap;
    uint64_t *ck; /* child hash keys (parent << 32 | name) + 1, 0 = empty */
    uint32_t *cv;
    size_t chcap, chlen;
};

/* floor((a * b + add) / c) exactly (c > 0; the quotient fits 64 bits). */
static uint64_t muldiv_add(uint64_t a, uint64_t b, uint64_t c, uint64_t add)
{
#ifdef __SIZEOF_INT128__
    return (uint64_t)(((unsigned __int128)a * b + add) / c);
#else
    /* two-word product, then long division bit by bit */
    uint64_t lo = (a & 0xffffffffu) * (b & 0xffffffffu);
    uint64_t m1 = (a >> 32) * (b & 0xffffffffu), m2 = (a & 0xffffffffu) * (b >> 32);
    uint64_t hi = (a >> 32) * (b >> 32);
    uint64_t mid = (lo >> 32) + (m1 & 0xffffffffu) + (m2 & 0xffffffffu);
    lo = (lo & 0xffffffffu) | (mid << 32);
    hi += (m1 >> 32) + (m2 >> 32) + (mid >> 32);
    lo += add;
    hi += lo < add;
    uint64_t q = 0, r = 0;
    for (int i = 127; i >= 0; i--) {
        uint64_t top = r >> 63;
        r = (r << 1) | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
        if (top || r >= c) {
            r -= c;
            if (i < 64)
                q |= (uint64_t)1 << i;
        }
    }
    return q;
#endif
}

int64_t tt_muldiv(int64_t a, int64_t b, int64_t c)
{
    return (int64_t)muldiv_add((uint64_t)a, (uint64_t)b, (uint64_t)c, (uint64_t)c / 2);
}

static int64_t ceil_muldiv(int64_t a, int64_t b, int64_t c)
{
    return (int64_t)muldiv_add((uint64_t)a, (uint64_t)b, (uint64_t)c, (uint64_t)c - 1);
}

int tt_flame_new(tt_flame **out)
{
    tt_flame *f = calloc(1, sizeof *f);
    if (!f)
        return TT_ENOMEM;
    tt_vec_init(&f->nodes, sizeof(tt_flame_node));
    tt_vec_init(&f->names, sizeof(fname));
    uint32_t all;
    tt_flame_node *root;
    if (tt_flame_intern(f, &all, "all", TT_FCAT_SYNTHETIC, NULL) ||
        !(root = tt_vec_push(&f->nodes, NULL))) {
        tt_flame_free(f);
        return TT_ENOMEM;
    }
    *root = (tt_flame_node){all, TT_NONE, TT_NONE, TT_NONE, 0, 0, 0, 0, 0, -1, -1, -1};
    *out = f;
    return 0;
}

void tt_flame_free(tt_flame *f)
{
    if (!f)
        return;
    tt_vec_free(&f->nodes);
    tt_vec_free(&f->names);
    tt_buf_free(&f->text);
    free(f->nh);
    free(f->ck);
    free(f->cv);
    free(f);
}

size_t tt_flame_nnodes(const tt_flame *f)
{
    return f->nodes.len;
}

tt_flame_node *tt_flame_node_at(tt_flame *f, uint32_t id)
{
    return &TT_VEC_AT(&f->nodes, tt_flame_node, id);
}

const char *tt_flame_name(const tt_flame *f, uint32_t id, size_t *len)
{
    const fname *n = &TT_VEC_AT(&f->names, fname, id);
    if (len)
        *len = n->len;
    return f->text.data + n->off;
}

int tt_flame_name_cat(const tt_flame *f, uint32_t id)
{
    return TT_VEC_AT(&f->names, fname, id).cat;
}

const char *tt_flame_name_module(const tt_flame *f, uint32_t id)
{
    const fname *n = &TT_VEC_AT(&f->names, fname, id);
    return n->moff == SIZE_MAX ? NULL : f->text.data + n->moff;
}

static int grow_names(tt_flame *f)
{
    size_t cap = f->nhcap ? f->nhcap * 2 : 1024;
    uint32_t *nh = calloc(cap, sizeof *nh);
    if (!nh)
        return TT_ENOMEM;
    for (size_t i = 0; i < f->names.len; i++) {
        size_t len;
        const char *s = tt_flame_name(f, (uint32_t)i, &len);
        size_t h = (size_t)tt_fnv1a64(s, len) & (cap - 1);
        while (nh[h])
            h = (h + 1) & (cap - 1);
        nh[h] = (uint32_t)i + 1;
    }
    free(f->nh);
    f->nh = nh;
    f->nhcap = cap;
    return 0;
}

int tt_flame_intern(tt_flame *f, uint32_t *id, const char *name, int cat, const char *module)
{
    size_t len = strlen(name);
    if ((f->names.len + 1) * 2 > f->nhcap && grow_names(f))
        return TT_ENOMEM;
    size_t h = (size_t)tt_fnv1a64(name, len) & (f->nhcap - 1);
    for (; f->nh[h]; h = (h + 1) & (f->nhcap - 1)) {
        size_t l;
        const char *s = tt_flame_name(f, f->nh[h] - 1, &l);
        /* a thread root and a function of the same name stay apart */
        if (l == len && !memcmp(s, name, len) &&
            (tt_flame_name_cat(f, f->nh[h] - 1) == TT_FCAT_SYNTHETIC) ==
                (cat == TT_FCAT_SYNTHETIC)) {
            *id = f->nh[h] - 1;
            return 0;
        }
    }
    if (len > UINT32_MAX || f->names.len >= TT_NONE - 1)
        return TT_ELIMIT;
    fname n = {f->text.len, SIZE_MAX, (uint32_t)len, (uint8_t)cat};
    if (tt_buf_put(&f->text, name, len + 1))
        return TT_ENOMEM;
    if (module) {
        n.moff = f->text.len;
        if (tt_buf_put(&f->text, module, strlen(module) + 1))
            return TT_ENOMEM;
    }
    if (!tt_vec_push(&f->names, &n))
        return TT_ENOMEM;
    *id = (uint32_t)f->names.len - 1;
    f->nh[h] = *id + 1;
    return 0;
}

static size_t child_slot(const tt_flame *f, uint64_t key)
{
    /* every bit of parent and name reaches the slot: a multiply keeps the parent (the high
     * half) out of the low bits, so one name's children (a recursion) shared a cluster */
    size_t h = (size_t)tt__mix64(key) & (f->chcap - 1);
    while (f->ck[h] && f->ck[h] != key + 1)
        h = (h + 1) & (f->chcap - 1);
    return h;
}

static int grow_children(tt_flame *f)
{
    size_t cap = f->chcap ? f->chcap * 2 : 4096;
    uint64_t *ok = f->ck;
    uint32_t *ov = f->cv;
    size_t ocap = f->chcap;
    f->ck = calloc(cap, sizeof *f->ck);
    f->cv = malloc(cap * sizeof *f->cv);
    if (!f->ck || !f->cv) {
        free(f->ck);
        free(f->cv);
        f->ck = ok, f->cv = ov;
        return TT_ENOMEM;
    }
    f->chcap = cap;
    for (size_t i = 0; i < ocap; i++)
        if (ok[i]) {
            size_t h = child_slot(f, ok[i] - 1);
            f->ck[h] = ok[i];
            f->cv[h] = ov[i];
        }
    free(ok);
    free(ov);
    return 0;
}

int tt_flame_child(tt_flame *f, uint32_t *out, uint32_t parent, uint32_t name)
{
    if ((f->chlen + 1) * 2 > f->chcap && grow_children(f))
        return TT_ENOMEM;
    uint64_t key = (uint64_t)parent << 32 | name;
    size_t h = child_slot(f, key);
    if (f->ck[h]) {
        *out = f->cv[h];
        return 0;
    }
    if (f->nodes.len >= TT_NONE - 1)
        return TT_ELIMIT;
    tt_flame_node *p = tt_flame_node_at(f, parent);
    tt_flame_node n = {name, parent, TT_NONE, p->child, p->depth + 1, 0, 0, 0, 0, -1, -1, -1};
    uint32_t id = (uint32_t)f->nodes.len;
    if (!tt_vec_push(&f->nodes, &n))
        return TT_ENOMEM;
    tt_flame_node_at(f, parent)->child = id;
    f->ck[h] = key + 1;
    f->cv[h] = id;
    f->chlen++;
    *out = id;
    return 0;
}

int tt_flame_chart_node(tt_flame *f, uint32_t *out, uint32_t parent, uint32_t name,
                        int64_t x0, int64_t total, int64_t self)
{
    if (f->nodes.len >= TT_NONE - 1)
        return TT_ELIMIT;
    tt_flame_node *p = tt_flame_node_at(f, parent);
    tt_flame_node n = {name, parent, TT_NONE, p->child, p->depth + 1, 0, self, 0, 0, total,
                       -1, x0};
    uint32_t id = (uint32_t)f->nodes.len;
    if (!tt_vec_push(&f->nodes, &n))
        return TT_ENOMEM;
    tt_flame_node_at(f, parent)->child = id;
    *out = id;
    return 0;
}

int tt_flame_add_stack(tt_flame *f, uint32_t *names, size_t n, int64_t w, int side,
                       const tt_flame_xform *x)
{
    if (x && x->reverse) { /* keep the roots (thread) first, reverse the frames */
        size_t k = x->keep_roots < n ? x->keep_roots : n;
        for (size_t i = k, j = n; i + 1 < j; i++, j--) {
            uint32_t t = names[i];
            names[i] = names[j - 1];
            names[j - 1] = t;
        }
    }
    if (x && x->focus) { /* cut above the outermost match */
        size_t k = x->keep_roots < n ? x->keep_roots : n, i;
        for (i = k; i < n; i++)
            if (!regexec((const regex_t *)x->focus, tt_flame_name(f, names[i], NULL), 0, NULL, 0))
                break;
        if (i == n)
            return 0;
        memmove(names + k, names + i, (n - i) * sizeof *names);
        n -= i - k;
    }
    if (x && x->fold_recursion) { /* never across the synthetic roots */
        size_t k = x->keep_roots < n ? x->keep_roots : n, m = k;
        for (size_t i = k; i < n; i++)
            if (m == k || names[i] != names[m - 1])
                names[m++] = names[i];
        n = m;
    }
    uint32_t node = 0;
    for (size_t i = 0; i < n; i++) {
        int rc = tt_flame_child(f, &node, node, names[i]);
        if (rc)
            return rc;
    }
    tt_flame_node *nd = tt_flame_node_at(f, node);
    if (side)
        nd->self_b = tt__sat_add(nd->self_b, w);
    else
        nd->self = tt__sat_add(nd->self, w);
    return 0;
}

size_t tt_flame_finish(tt_flame *f)
{
    size_t n = f->nodes.len, exceeded = 0;
    tt_flame_node *a = f->nodes.data;
    for (size_t i = 0; i < n; i++)
        a[i].total = a[i].total_b = 0;
    for (size_t i = n; i-- > 0;) {
        int64_t t = tt__sat_add(a[i].total, a[i].self);
        if (a[i].reported >= 0 && a[i].reported < t)
            exceeded++;
        if (a[i].reported > t)
            t = a[i].reported;
        a[i].total = t;
        a[i].total_b = tt__sat_add(a[i].total_b, a[i].self_b);
        if (a[i].parent != TT_NONE) {
            a[a[i].parent].total = tt__sat_add(a[a[i].parent].total, a[i].total);
            a[a[i].parent].total_b = tt__sat_add(a[a[i].parent].total_b, a[i].total_b);
        }
    }
    return exceeded;
}

typedef struct rem {
    uint32_t id;
    uint64_t r;
} rem;

static int rem_cmp(const void *x, const void *y)
{
    const rem *a = x, *b = y;
    if (a->r != b->r)
        return a->r > b->r ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

int tt_flame_normalize(tt_flame *f)
{
    tt_flame_finish(f);
    tt_flame_node *a = f->nodes.data;
    int64_t tn = a[0].total, tb = a[0].total_b, sum = 0;
    size_t n = f->nodes.len, k = 0;
    if (tb <= 0)
        return 0;
    rem *r = malloc(n * sizeof *r);
    if (!r)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (!a[i].self_b)
            continue;
        int64_t fl = (int64_t)muldiv_add((uint64_t)a[i].self_b, (uint64_t)tn, (uint64_t)tb, 0);
        /* the remainder is below tb, so 64-bit wrapping arithmetic gives it exactly */
        uint64_t rm = (uint64_t)a[i].self_b * (uint64_t)tn - (uint64_t)fl * (uint64_t)tb;
        r[k++] = (rem){(uint32_t)i, rm};
        a[i].self_b = fl;
        sum += fl;
    }
    qsort(r, k, sizeof *r, rem_cmp);
    for (size_t i = 0; i < k && sum < tn; i++, sum++)
        a[r[i].id].self_b++;
    free(r);
    return 0;
}

/* ---- layout ---- */

int64_t tt_flame_width_of(const tt_flame_node *n, int mode)
{
    return mode == TT_FLAME_WIDTH_BASE  ? n->total_b
           : mode == TT_FLAME_WIDTH_SUM ? tt__sat_add(n->total, n->total_b)
                                        : n->total;
}

typedef struct lctx {
    tt_flame *f;
    const tt_flame_layout_opts *o;
    tt_vec frames; /* tt_flame_frame */
    tt_vec kids;   /* uint32_t scratch */
    int64_t t;
} lctx;

static lctx *sort_ctx; /* qsort has no context argument; layout is not re-entrant across
                        * threads, which libtrace never uses */

static int kid_cmp(const void *x, const void *y)
{
    tt_flame *f = sort_ctx->f;
    const tt_flame_node *a = tt_flame_node_at(f, *(const uint32_t *)x);
    const tt_flame_node *b = tt_flame_node_at(f, *(const uint32_t *)y);
    if (a->x0 >= 0 && b->x0 >= 0 && a->x0 != b->x0) /* flame chart: time order */
        return a->x0 < b->x0 ? -1 : 1;
    if (sort_ctx->o->sort_weight) {
        int64_t wa = tt_flame_width_of(a, sort_ctx->o->widths);
        int64_t wb = tt_flame_width_of(b, sort_ctx->o->widths);
        if (wa != wb)
            return wa > wb ? -1 : 1;
    }
    size_t la, lb;
    const char *sa = tt_flame_name(f, a->name, &la), *sb = tt_flame_name(f, b->name, &lb);
    int c = memcmp(sa, sb, la < lb ? la : lb);
    return c ? c : la < lb ? -1 : la > lb;
}

static int i64_desc(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a > b ? -1 : a < b;
}

/* The pruning threshold: minwidth, raised until the frame budget holds (3.2). */
static int threshold(int64_t *out, tt_flame *f, const tt_flame_layout_opts *o, int64_t total)
{
    int64_t t;
    if (o->minwidth_pct)
        t = ceil_muldiv(o->minwidth_milli, total, 100000);
    else
        t = ceil_muldiv(o->minwidth_milli, total,
                        (int64_t)(o->width > 21 ? o->width - 20 : 1) * 1000);
    if (t < 1)
        t = 1;
    if (o->max_frames) {
        size_t n = f->nodes.len, k = 0;
        int64_t *v = malloc(n * sizeof *v);
        if (!v)
            return TT_ENOMEM;
        for (size_t i = 0; i < n; i++) {
            int64_t w = tt_flame_width_of(tt_flame_node_at(f, (uint32_t)i), o->widths);
            if (w >= t)
                v[k++] = w;
        }
        if (k > o->max_frames) {
            qsort(v, k, sizeof *v, i64_desc);
            t = v[o->max_frames] + 1;
        }
        free(v);
    }
    *out = t;
    return 0;
}

static int push_frame(lctx *c, const tt_flame_frame *fr)
{
    return tt_vec_push(&c->frames, fr) ? 0 : TT_ENOMEM;
}

/* Pre-order from frame index fi (node drawn): kept children in order, then the elided
 * aggregate. Iterative over an explicit stack to survive deep trees. */
static int lay_out(lctx *c)
{
    tt_vec stack; /* frame indices whose children are still to be laid out */
    tt_vec_init(&stack, sizeof(uint32_t));
    uint32_t zero = 0;
    int rc = tt_vec_push(&stack, &zero) ? 0 : TT_ENOMEM;
    while (!rc && stack.len) {
        uint32_t fi = TT_VEC_AT(&stack, uint32_t, --stack.len);
        tt_flame_frame parent = TT_VEC_AT(&c->frames, tt_flame_frame, fi);
        if (parent.node == TT_NONE)
            continue;
        c->kids.len = 0;
        const tt_flame_node *pn = tt_flame_node_at(c->f, parent.node);
        int64_t ew = 0, en = 0;
        uint32_t top[3] = {TT_NONE, TT_NONE, TT_NONE};
        for (uint32_t k = pn->child; k != TT_NONE; k = tt_flame_node_at(c->f, k)->next) {
            int64_t w = tt_flame_width_of(tt_flame_node_at(c->f, k), c->o->widths);
            if (!w)
                continue;
            if (w >= c->t) {
                if (!tt_vec_push(&c->kids, &k))
                    rc = TT_ENOMEM;
                continue;
            }
            ew = tt__sat_add(ew, w);
            en++;
            for (int j = 0; j < 3; j++) { /* the three largest, ties by node id */
                uint32_t o = top[j];
                if (o == TT_NONE ||
                    w > tt_flame_width_of(tt_flame_node_at(c->f, o), c->o->widths)) {
                    memmove(top + j + 1, top + j, (size_t)(2 - j) * sizeof *top);
                    top[j] = k;
                    break;
                }
            }
        }
        if (rc)
            break;
        sort_ctx = c;
        if (c->kids.len > 1)
            qsort(c->kids.data, c->kids.len, sizeof(uint32_t), kid_cmp);
        TT_VEC_AT(&c->frames, tt_flame_frame, fi).elided_n = en;
        TT_VEC_AT(&c->frames, tt_flame_frame, fi).elided_w = ew;
        /* children are written in x order; push their indices in reverse for pre-order */
        size_t first = c->frames.len;
        int64_t x = parent.x;
        for (size_t i = 0; i < c->kids.len && !rc; i++) {
            uint32_t k = TT_VEC_AT(&c->kids, uint32_t, i);
            int64_t w = tt_flame_width_of(tt_flame_node_at(c->f, k), c->o->widths);
            const tt_flame_node *kn = tt_flame_node_at(c->f, k);
            if (kn->x0 >= 0) /* flame chart: at its time, gaps stay empty */
                x = kn->x0;
            tt_flame_frame fr = {k, parent.depth + 1, fi, x, w, 0, 0, {TT_NONE, TT_NONE, TT_NONE}};
            rc = push_frame(c, &fr);
            x = tt__sat_add(x, w);
        }
        /* a flame chart moves nothing: pruned slices only count in the tooltip */
        if (!rc && en && ew >= c->t && pn->x0 < 0 &&
            (pn->child == TT_NONE || tt_flame_node_at(c->f, pn->child)->x0 < 0)) {
            tt_flame_frame fr = {TT_NONE, parent.depth + 1, fi, x, ew, en, ew,
                                 {top[0], top[1], top[2]}};
            rc = push_frame(c, &fr);
        }
        for (size_t i = c->frames.len; i-- > first && !rc;) {
            uint32_t v = (uint32_t)i;
            if (!tt_vec_push(&stack, &v))
                rc = TT_ENOMEM;
        }
    }
    tt_vec_free(&stack);
    return rc;
}

/* The breadth-first frame array reordered into pre-order (parents first, children in x
 * order), with parent_frame indices renumbered. */
static int preorder(tt_flame_layout *l, tt_vec *frames)
{
    size_t n = frames->len;
    tt_flame_frame *in = frames->data;
    uint32_t *first = malloc((n + 1) * sizeof *first), *cnt = calloc(n + 1, sizeof *cnt);
    uint32_t *map = malloc((n + 1) * sizeof *map), *stack = malloc((n + 1) * sizeof *stack);
    tt_flame_frame *out = malloc((n ? n : 1) * sizeof *out);
    if (!first || !cnt || !map || !stack || !out) {
        free(first), free(cnt), free(map), free(stack), free(out);
        return TT_ENOMEM;
    }
    /* children of a frame were pushed contiguously; remember the first and the count */
    for (size_t i = 0; i < n; i++)
        first[i] = TT_NONE;
    for (size_t i = 1; i < n; i++) {
        uint32_t p = in[i].parent_frame;
        if (first[p] == TT_NONE)
            first[p] = (uint32_t)i;
        cnt[p]++;
    }
    size_t sp = 0, k = 0;
    if (n)
        stack[sp++] = 0;
    while (sp) {
        uint32_t i = stack[--sp];
        map[i] = (uint32_t)k;
        out[k] = in[i];
        out[k].parent_frame = i ? map[in[i].parent_frame] : TT_NONE;
        k++;
        for (uint32_t j = cnt[i]; j-- > 0;)
            stack[sp++] = first[i] + j;
    }
    free(first), free(cnt), free(map), free(stack);
    l->frames = out;
    l->n = n;
    return 0;
}

int tt_flame_layout_build(tt_flame_layout *out, tt_flame *f, const tt_flame_layout_opts *o)
{
    memset(out, 0, sizeof *out);
    lctx c = {f, o, {0}, {0}, 0};
    tt_vec_init(&c.frames, sizeof(tt_flame_frame));
    tt_vec_init(&c.kids, sizeof(uint32_t));
    int64_t total = tt_flame_width_of(tt_flame_node_at(f, 0), o->widths);
    int rc = threshold(&c.t, f, o, total);
    tt_flame_frame root = {0, 0, TT_NONE, 0, total, 0, 0, {TT_NONE, TT_NONE, TT_NONE}};
    if (!rc)
        rc = push_frame(&c, &root);
    if (!rc)
        rc = lay_out(&c);
    if (!rc)
        rc = preorder(out, &c.frames);
    tt_vec_free(&c.frames);
    tt_vec_free(&c.kids);
    if (rc)
        return rc;
    out->total = total;
    out->threshold = c.t;
    for (size_t i = 0; i < f->nodes.len; i++)
        out->nodes += tt_flame_width_of(tt_flame_node_at(f, (uint32_t)i), o->widths) > 0;
    for (size_t i = 0; i < out->n; i++)
        if (out->frames[i].depth > out->max_depth)
            out->max_depth = out->frames[i].depth;
    return 0;
}

void tt_flame_layout_free(tt_flame_layout *l)
{
    if (l) {
        free(l->frames);
        l->frames = NULL;
        l->n = 0;
    }
}

int tt_flame_chart_pack(tt_flame *f)
{
    size_t n = f->nodes.len;
    tt_vec kids;
    tt_vec_init(&kids, sizeof(uint32_t));
    tt_flame_node_at(f, 0)->x0 = 0;
    /* parents have smaller ids; a child list runs newest first, so place it backwards */
    for (size_t i = 0; i < n; i++) {
        const tt_flame_node *p = tt_flame_node_at(f, (uint32_t)i);
        int64_t x = p->x0 < 0 ? 0 : p->x0;
        kids.len = 0;
        for (uint32_t k = p->child; k != TT_NONE; k = tt_flame_node_at(f, k)->next)
            if (!tt_vec_push(&kids, &k)) {
                tt_vec_free(&kids);
                return TT_ENOMEM;
            }
        for (size_t j = kids.len; j-- > 0;) {
            tt_flame_node *k = tt_flame_node_at(f, TT_VEC_AT(&kids, uint32_t, j));
            k->x0 = x;
            x = tt__sat_add(x, k->total); /* saturated totals: children may add up to more */
        }
    }
    tt_vec_free(&kids);
    return 0;
}
