/* The aggregates of spec/samples.md section 6 over a finished profile: default weight and
 * units, self and total weights per callsite and per frame, the call tree (inverted too). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

int tt_weight_default(const tt_profile_meta *m)
{
    const char *f = m->source_format ? m->source_format : "";
    if (!strcmp(f, "perf_script") && (!m->timeless || m->ambiguous_ts || m->periods > 0))
        return TT_WEIGHT_PERIOD; /* read without times, periods stay valid */
    if (m->timeless || !strcmp(f, "folded"))
        return TT_WEIGHT_SAMPLES;
    return TT_WEIGHT_WALL; /* btrace, JSON-lines samples, method-beat: not periodic */
}

const char *tt_weight_unit(int weight)
{
    switch (weight) {
    case TT_WEIGHT_SAMPLES: return "samples";
    case TT_WEIGHT_WALL: return "wall_ns";
    case TT_WEIGHT_CPU: return "cpu_ns";
    case TT_WEIGHT_PERIOD: return "period";
    default: return "unknown";
    }
}

/* Self weights of one thread's runs (wall/cpu: each run's share of the time, as exports) */
static int run_weights(tt_weight *out, const tt_profile *p, uint32_t utid, int weight,
                       int64_t max_gap, int64_t end_pad)
{
    tt__wruns it;
    int rc = tt__wruns_init(&it, p, utid, weight, tt_profile_max_gap(p, utid, max_gap), end_pad);
    const tt_run *r;
    int64_t w;
    while (!rc && tt__wruns_next(&it, &r, &w)) {
        out[r->callsite].self_weight = tt__sat_add(out[r->callsite].self_weight, w);
        out[r->callsite].self_samples += r->count;
    }
    tt__wruns_free(&it);
    return rc;
}

/* Totals from self weights over callsites ids[0..n) (all when ids is NULL), ascending and
 * closed under parents: children have larger ids than parents, so one downward pass. */
static void add_totals(tt_weight *out, const tt_callsite *c, const uint32_t *ids, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        tt_weight *w = &out[ids ? ids[j] : j];
        w->total_weight = w->self_weight;
        w->total_samples = w->self_samples;
    }
    for (size_t j = n; j-- > 0;) {
        uint32_t i = ids ? ids[j] : (uint32_t)j;
        if (c[i].parent != TT_NONE) {
            out[c[i].parent].total_weight =
                tt__sat_add(out[c[i].parent].total_weight, out[i].total_weight);
            out[c[i].parent].total_samples += out[i].total_samples;
        }
    }
}

/* Adds callsite weights w to its frame's f; rec: the callsite is below an outer occurrence of
 * the same frame, whose total already counts it. */
static void add_frame(tt_weight *f, const tt_weight *w, int rec)
{
    f->self_weight = tt__sat_add(f->self_weight, w->self_weight);
    f->self_samples += w->self_samples;
    if (!rec) {
        f->total_weight = tt__sat_add(f->total_weight, w->total_weight);
        f->total_samples += w->total_samples;
    }
}

int tt_profile_callsite_weights(tt_weight *out, const tt_profile *p, uint32_t utid, int weight,
                                int64_t max_gap, int64_t end_pad)
{
    size_t nc = p->callsites.len;
    memset(out, 0, nc * sizeof *out);
    const tt_sample *s = p->samples.data;
    if (weight == TT_WEIGHT_WALL || weight == TT_WEIGHT_CPU) {
        if (p->meta.timeless || !p->finished)
            return TT_EUNSUPPORTED;
        for (uint32_t t = 0; t < p->threads.len; t++) {
            if (utid != TT_NONE && t != utid)
                continue;
            int rc = run_weights(out, p, t, weight, max_gap, end_pad);
            if (rc)
                return rc;
        }
    } else if (utid != TT_NONE && p->finished) { /* the thread's own samples, not all */
        size_t n;
        const uint32_t *o = tt_profile_thread_order(p, utid, &n);
        for (size_t i = 0; i < n; i++) {
            const tt_sample *x = &s[o[i]];
            out[x->callsite].self_weight = tt__sat_add(
                out[x->callsite].self_weight, weight == TT_WEIGHT_PERIOD ? x->weight : x->count);
            out[x->callsite].self_samples += x->count;
        }
    } else {
        for (size_t i = 0; i < p->samples.len; i++) {
            if (utid != TT_NONE && s[i].utid != utid)
                continue;
            out[s[i].callsite].self_weight =
                tt__sat_add(out[s[i].callsite].self_weight,
                            weight == TT_WEIGHT_PERIOD ? s[i].weight : s[i].count);
            out[s[i].callsite].self_samples += s[i].count;
        }
    }
    add_totals(out, p->callsites.data, NULL, nc);
    return 0;
}

int tt_profile_frame_weights(tt_weight *out, const tt_profile *p, const tt_weight *cw)
{
    memset(out, 0, p->frames.len * sizeof *out);
    const uint8_t *rec = tt__callsite_recursive((tt_profile *)p);
    if (!rec)
        return TT_ENOMEM;
    const tt_callsite *c = p->callsites.data;
    for (size_t i = 0; i < p->callsites.len; i++)
        add_frame(&out[c[i].frame], &cw[i], rec[i]);
    return 0;
}

/* ---- one thread's weights over the callsites its samples touch ---- */

struct tt_touched {
    size_t nc, nf;          /* room for callsites and frames */
    uint32_t gen;           /* the current call's stamp */
    uint32_t *cmark, *fmark; /* per callsite, per frame: the stamp of the call that touched it */
    uint32_t *cs, *fr;      /* touched ids (capacity nc, nf), ascending after a call */
    size_t ncs, nfr;
    tt_weight *cw, *fw;     /* the arrays the last call wrote */
};

/* Room for n ids in *mark (new stamps zero) and *list, which hold *have. */
static int grow(uint32_t **mark, uint32_t **list, size_t *have, size_t n)
{
    if (n <= *have)
        return 0;
    uint32_t *m = realloc(*mark, n * sizeof *m);
    if (!m)
        return TT_ENOMEM;
    memset(m + *have, 0, (n - *have) * sizeof *m);
    *mark = m;
    uint32_t *l = realloc(*list, n * sizeof *l);
    if (!l)
        return TT_ENOMEM;
    *list = l;
    *have = n;
    return 0;
}

/* Room for the profile's callsites and frames (slices add a [no samples] one). */
static int touched_fit(tt_touched *t, const tt_profile *p)
{
    if (grow(&t->cmark, &t->cs, &t->nc, p->callsites.len))
        return TT_ENOMEM;
    return grow(&t->fmark, &t->fr, &t->nf, p->frames.len);
}

int tt_touched_new(tt_touched **out, const tt_profile *p)
{
    tt_touched *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!t)
        return TT_ENOMEM;
    if (touched_fit(t, p)) {
        tt_touched_free(t);
        return TT_ENOMEM;
    }
    *out = t;
    return 0;
}

void tt_touched_free(tt_touched *t)
{
    if (!t)
        return;
    free(t->cmark);
    free(t->fmark);
    free(t->cs);
    free(t->fr);
    free(t);
}

const uint32_t *tt_touched_callsites(const tt_touched *t, size_t *n)
{
    *n = t->ncs;
    return t->cs;
}

const uint32_t *tt_touched_frames(const tt_touched *t, size_t *n)
{
    *n = t->nfr;
    return t->fr;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Zeroes what the previous call wrote and starts a new stamp. */
static void touched_reset(tt_touched *t)
{
    for (size_t i = 0; t->cw && i < t->ncs; i++)
        memset(&t->cw[t->cs[i]], 0, sizeof *t->cw);
    for (size_t i = 0; t->fw && i < t->nfr; i++)
        memset(&t->fw[t->fr[i]], 0, sizeof *t->fw);
    t->ncs = t->nfr = 0;
    if (!++t->gen) { /* wrapped: no stale stamp may equal the new one */
        if (t->nc)
            memset(t->cmark, 0, t->nc * sizeof *t->cmark);
        if (t->nf)
            memset(t->fmark, 0, t->nf * sizeof *t->fmark);
        t->gen = 1;
    }
}

/* Marks callsite id and its callers up to the first one already marked. */
static void touch(tt_touched *t, const tt_callsite *c, uint32_t id)
{
    for (; id != TT_NONE && t->cmark[id] != t->gen; id = c[id].parent) {
        t->cmark[id] = t->gen;
        t->cs[t->ncs++] = id;
    }
}

int tt_profile_thread_weights(tt_weight *cw, tt_weight *fw, tt_touched *t, const tt_profile *p,
                              uint32_t utid, int weight, int64_t max_gap, int64_t end_pad)
{
    touched_reset(t);
    t->cw = cw;
    t->fw = fw;
    if (utid >= p->threads.len)
        return TT_EINVAL;
    if (touched_fit(t, p))
        return TT_ENOMEM;
    if (!p->finished ||
        ((weight == TT_WEIGHT_WALL || weight == TT_WEIGHT_CPU) && p->meta.timeless))
        return TT_EUNSUPPORTED;
    const uint8_t *rec = tt__callsite_recursive((tt_profile *)p);
    if (!rec)
        return TT_ENOMEM;
    const tt_callsite *c = p->callsites.data;
    const tt_sample *s = p->samples.data;
    size_t n;
    const uint32_t *o = tt_profile_thread_order(p, utid, &n);
    for (size_t i = 0; i < n; i++)
        touch(t, c, s[o[i]].callsite);
    if (weight == TT_WEIGHT_WALL || weight == TT_WEIGHT_CPU) {
        int rc = run_weights(cw, p, utid, weight, max_gap, end_pad); /* runs of o: touched */
        if (rc)
            return rc;
    } else {
        for (size_t i = 0; i < n; i++) {
            const tt_sample *x = &s[o[i]];
            cw[x->callsite].self_weight = tt__sat_add(
                cw[x->callsite].self_weight, weight == TT_WEIGHT_PERIOD ? x->weight : x->count);
            cw[x->callsite].self_samples += x->count;
        }
    }
    /* in id order, as the passes over all callsites: the same sums, saturated alike */
    qsort(t->cs, t->ncs, sizeof *t->cs, cmp_u32);
    add_totals(cw, c, t->cs, t->ncs);
    for (size_t j = 0; j < t->ncs; j++) {
        uint32_t i = t->cs[j], f = c[i].frame;
        if (t->fmark[f] != t->gen) {
            t->fmark[f] = t->gen;
            t->fr[t->nfr++] = f;
        }
        add_frame(&fw[f], &cw[i], rec[i]);
    }
    qsort(t->fr, t->nfr, sizeof *t->fr, cmp_u32);
    return 0;
}

static int link_child(tt_vec *out, uint32_t id)
{
    tt_tree_node *n = &TT_VEC_AT(out, tt_tree_node, id);
    if (n->parent == TT_NONE)
        return 0;
    tt_tree_node *par = &TT_VEC_AT(out, tt_tree_node, n->parent);
    n->next_sibling = par->first_child;
    par->first_child = id;
    return 0;
}

int tt_profile_tree_of(tt_vec *out, const tt_profile *p, const tt_weight *cw, int inverted,
                       const uint32_t *ids, size_t n)
{
    out->len = 0;
    const tt_callsite *c = p->callsites.data;
    if (!ids)
        n = p->callsites.len;
    if (!inverted) {
        if (tt_vec_reserve(out, n ? n : 1))
            return TT_ENOMEM;
        for (size_t j = 0; j < n; j++) {
            uint32_t i = ids ? ids[j] : (uint32_t)j, parent = c[i].parent;
            if (ids && parent != TT_NONE) { /* the parent's node: its place among ids */
                const uint32_t *at = bsearch(&parent, ids, j, sizeof *ids, cmp_u32);
                if (!at) {
                    out->len = 0;
                    return TT_EINVAL;
                }
                parent = (uint32_t)(at - ids);
            }
            tt_tree_node nd = {parent, c[i].frame, c[i].depth, TT_NONE, TT_NONE, cw[i]};
            tt_vec_push(out, &nd);
        }
    } else {
        tt__map m = {0};
        for (size_t j = 0; j < n; j++) {
            uint32_t i = ids ? ids[j] : (uint32_t)j;
            if (!cw[i].self_samples && !cw[i].self_weight)
                continue;
            uint32_t parent = TT_NONE, depth = 0;
            for (uint32_t a = i; a != TT_NONE; a = c[a].parent, depth++) {
                uint64_t key = ((uint64_t)parent << 32) | c[a].frame;
                uint32_t node;
                if (!tt__map_get(&m, key, &node)) {
                    tt_tree_node x = {parent, c[a].frame, depth, TT_NONE, TT_NONE, {0, 0, 0, 0}};
                    if (!tt_vec_push(out, &x) ||
                        tt__map_put(&m, key, (uint32_t)(out->len - 1))) {
                        tt__map_free(&m);
                        return TT_ENOMEM;
                    }
                    node = (uint32_t)(out->len - 1);
                }
                tt_tree_node *x = &TT_VEC_AT(out, tt_tree_node, node);
                x->w.total_weight = tt__sat_add(x->w.total_weight, cw[i].self_weight);
                x->w.total_samples += cw[i].self_samples;
                if (parent == TT_NONE) {
                    x->w.self_weight = tt__sat_add(x->w.self_weight, cw[i].self_weight);
                    x->w.self_samples += cw[i].self_samples;
                }
                parent = node;
            }
        }
        tt__map_free(&m);
    }
    /* link children in reverse so that the lists end up in creation order */
    for (size_t i = out->len; i-- > 0;)
        link_child(out, (uint32_t)i);
    return 0;
}

int tt_profile_tree(tt_vec *out, const tt_profile *p, const tt_weight *cw, int inverted)
{
    return tt_profile_tree_of(out, p, cw, inverted, NULL, 0);
}
