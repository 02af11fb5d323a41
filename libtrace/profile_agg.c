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
            out[x->callsite].self_weight += weight == TT_WEIGHT_PERIOD ? x->weight : x->count;
            out[x->callsite].self_samples += x->count;
        }
    } else {
        for (size_t i = 0; i < p->samples.len; i++) {
            if (utid != TT_NONE && s[i].utid != utid)
                continue;
            out[s[i].callsite].self_weight += weight == TT_WEIGHT_PERIOD ? s[i].weight
                                                                         : s[i].count;
            out[s[i].callsite].self_samples += s[i].count;
        }
    }
    for (size_t i = 0; i < nc; i++) {
        out[i].total_weight = out[i].self_weight;
        out[i].total_samples = out[i].self_samples;
    }
    /* children have larger ids than parents: one downward pass accumulates totals */
    const tt_callsite *c = p->callsites.data;
    for (size_t i = nc; i-- > 0;)
        if (c[i].parent != TT_NONE) {
            out[c[i].parent].total_weight =
                tt__sat_add(out[c[i].parent].total_weight, out[i].total_weight);
            out[c[i].parent].total_samples += out[i].total_samples;
        }
    return 0;
}

int tt_profile_frame_weights(tt_weight *out, const tt_profile *p, const tt_weight *cw)
{
    memset(out, 0, p->frames.len * sizeof *out);
    const uint8_t *rec = tt__callsite_recursive((tt_profile *)p);
    if (!rec)
        return TT_ENOMEM;
    const tt_callsite *c = p->callsites.data;
    for (size_t i = 0; i < p->callsites.len; i++) {
        tt_weight *f = &out[c[i].frame];
        f->self_weight = tt__sat_add(f->self_weight, cw[i].self_weight);
        f->self_samples += cw[i].self_samples;
        /* a subtree below an outer occurrence of the same frame is already counted */
        if (!rec[i]) {
            f->total_weight = tt__sat_add(f->total_weight, cw[i].total_weight);
            f->total_samples += cw[i].total_samples;
        }
    }
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

int tt_profile_tree(tt_vec *out, const tt_profile *p, const tt_weight *cw, int inverted)
{
    out->len = 0;
    const tt_callsite *c = p->callsites.data;
    size_t nc = p->callsites.len;
    if (!inverted) {
        if (tt_vec_reserve(out, nc ? nc : 1))
            return TT_ENOMEM;
        for (size_t i = 0; i < nc; i++) {
            tt_tree_node n = {c[i].parent, c[i].frame, c[i].depth, TT_NONE, TT_NONE, cw[i]};
            tt_vec_push(out, &n);
        }
    } else {
        tt__map m = {0};
        for (size_t i = 0; i < nc; i++) {
            if (!cw[i].self_samples && !cw[i].self_weight)
                continue;
            uint32_t parent = TT_NONE, depth = 0;
            for (uint32_t a = (uint32_t)i; a != TT_NONE; a = c[a].parent, depth++) {
                uint64_t key = ((uint64_t)parent << 32) | c[a].frame;
                uint32_t node;
                if (!tt__map_get(&m, key, &node)) {
                    tt_tree_node n = {parent, c[a].frame, depth, TT_NONE, TT_NONE, {0, 0, 0, 0}};
                    if (!tt_vec_push(out, &n) ||
                        tt__map_put(&m, key, (uint32_t)(out->len - 1))) {
                        tt__map_free(&m);
                        return TT_ENOMEM;
                    }
                    node = (uint32_t)(out->len - 1);
                }
                tt_tree_node *n = &TT_VEC_AT(out, tt_tree_node, node);
                n->w.total_weight = tt__sat_add(n->w.total_weight, cw[i].self_weight);
                n->w.total_samples += cw[i].self_samples;
                if (parent == TT_NONE) {
                    n->w.self_weight += cw[i].self_weight;
                    n->w.self_samples += cw[i].self_samples;
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
