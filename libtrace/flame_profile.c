/* Flame trees from sampled stacks and slices, spec/visual.md section 2: the per-callsite
 * weights of folded export (samples.md 6, 7.2) under a thread, process or no root. */
#include "tt.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct pctx {
    tt_flame *f;
    tt_profile *p;
    uint32_t *names; /* flame name id per frame id, TT_NONE = not interned yet */
    uint32_t *path, *fr; /* per stack (--reverse, --focus): max depth + 2 entries */
    uint32_t *node;      /* per callsite: its flame node under the current root, TT_NONE
                          * not walked yet, UNMATCHED (--focus) no match on its path yet */
    unsigned char *match; /* per frame (--focus): 0 not tried, 1 matches, 2 does not */
    tt_vec set, chain;   /* uint32_t: callsites whose node is set; the walk of one stack */
    const char *const *app;
    size_t napp;
    size_t maxd; /* the deepest callsite's depth */
} pctx;

/* Never a node id: tt_flame_child refuses ids from TT_NONE - 1 up. */
#define UNMATCHED (TT_NONE - 1)

static int frame_name(pctx *c, uint32_t frame, uint32_t *out)
{
    if (c->names[frame] == TT_NONE) {
        const tt_stack_frame *sf = tt_profile_frame(c->p, frame);
        int cat = tt_flame_category(sf->kind, sf->name, sf->module, c->app, c->napp);
        int rc = tt_flame_intern(c->f, &c->names[frame], sf->name, cat, sf->module);
        if (rc)
            return rc;
    }
    *out = c->names[frame];
    return 0;
}

/* Whether frame's name matches the --focus regex, tried once per frame. */
static int frame_matches(pctx *c, uint32_t frame, uint32_t name, const void *re)
{
    if (!c->match[frame])
        c->match[frame] = regexec((const regex_t *)re, tt_flame_name(c->f, name, NULL), 0,
                                  NULL, 0) ? 2 : 1;
    return c->match[frame] == 1;
}

/* The flame node of callsite cs below root (TT_NONE: none) after fold_recursion and focus
 * of x (may be NULL; not reverse); UNMATCHED when focus drops the stack. Through c->node,
 * so each callsite of the thread is walked once however many stacks share it (a deep
 * recursion's paths are not rewalked per callsite, with or without --focus): a callsite's
 * focused node is its parent's with its frame below, or its frame below the root when its
 * frame is the outermost match (the cut of tt_flame_add_stack). */
static int callsite_node(pctx *c, uint32_t *out, uint32_t cs, uint32_t root,
                         const tt_flame_xform *x)
{
    int fold = x && x->fold_recursion;
    const void *focus = x ? x->focus : NULL;
    c->chain.len = 0;
    uint32_t k = cs;
    while (k != TT_NONE && c->node[k] == TT_NONE) {
        if (!tt_vec_push(&c->chain, &k))
            return TT_ENOMEM;
        k = tt_profile_callsite(c->p, k)->parent;
    }
    uint32_t node = k != TT_NONE ? c->node[k] : focus ? UNMATCHED : 0;
    int rc = 0;
    if (k == TT_NONE && root != TT_NONE && !focus)
        rc = tt_flame_child(c->f, &node, 0, root);
    for (size_t i = c->chain.len; i-- > 0 && !rc;) {
        uint32_t at = TT_VEC_AT(&c->chain, uint32_t, i), name;
        const tt_callsite *cx = tt_profile_callsite(c->p, at);
        if ((rc = frame_name(c, cx->frame, &name)))
            break;
        /* the first frame kept never folds into the synthetic root (tt_flame_add_stack) */
        int first = focus ? node == UNMATCHED : cx->parent == TT_NONE;
        if (node == UNMATCHED && frame_matches(c, cx->frame, name, focus)) {
            node = 0; /* the outermost match: the path restarts below the root */
            if (root != TT_NONE)
                rc = tt_flame_child(c->f, &node, 0, root);
        }
        if (!rc && node != UNMATCHED &&
            !(fold && !first && tt_flame_node_at(c->f, node)->name == name))
            rc = tt_flame_child(c->f, &node, node, name);
        c->node[at] = node;
        if (!rc && !tt_vec_push(&c->set, &at))
            rc = TT_ENOMEM;
    }
    *out = node;
    return rc;
}

static int add_thread(pctx *c, const int64_t *w, const tt_vec *touched, uint32_t root,
                      const tt_flame_xform *x, int side)
{
    int rc = 0;
    for (size_t i = 0; i < touched->len && !rc; i++) {
        uint32_t cs = TT_VEC_AT(touched, uint32_t, i), node;
        if (!w[cs])
            continue;
        if (!x || !x->reverse) {
            if (!(rc = callsite_node(c, &node, cs, root, x)) && node != UNMATCHED) {
                tt_flame_node *nd = tt_flame_node_at(c->f, node);
                if (side)
                    nd->self_b = tt__sat_add(nd->self_b, w[cs]);
                else
                    nd->self = tt__sat_add(nd->self, w[cs]);
            }
            continue;
        }
        /* --reverse reorders a stack: it takes it whole (its tree may hold every path) */
        size_t n = tt_callsite_frames(c->p, cs, c->fr, c->maxd + 1), k = 0;
        if (root != TT_NONE)
            c->path[k++] = root;
        for (size_t j = 0; j < n && !rc; j++)
            rc = frame_name(c, c->fr[j], &c->path[k++]);
        tt_flame_xform xx = *x;
        xx.keep_roots = root != TT_NONE;
        if (!rc && x->focus) {
            /* reversed, the outermost match is the innermost frame that matches: cut here,
             * so that the regex runs once per frame, not once per frame of every stack */
            size_t r = k - n, j = n;
            while (j > 0 && !frame_matches(c, c->fr[j - 1], c->path[r + j - 1], x->focus))
                j--;
            if (!j)
                continue;
            for (size_t a = r, b = r + j; a + 1 < b; a++, b--) {
                uint32_t t = c->path[a];
                c->path[a] = c->path[b - 1];
                c->path[b - 1] = t;
            }
            k = r + j;
            xx.reverse = 0;
            xx.focus = NULL;
        }
        if (!rc)
            rc = tt_flame_add_stack(c->f, c->path, k, w[cs], side, &xx);
    }
    for (size_t i = 0; i < c->set.len; i++) /* the next thread has another root */
        c->node[TT_VEC_AT(&c->set, uint32_t, i)] = TT_NONE;
    c->set.len = 0;
    return rc;
}

static int64_t overlap(int64_t a, int64_t b, int64_t from, int64_t to)
{
    a = a > from ? a : from;
    b = b < to ? b : to;
    return b > a ? b - a : 0;
}

/* Weights inside the window (visual.md 1.1 startup): instrumented slices by their self time
 * inside it (clipped time minus the clipped time of the children); runs of samples pro rata
 * to the part of their span inside it (a one-sample run counts when its time is inside). */
static int window_weights(int64_t *w, tt_vec *touched, tt_profile *p, uint32_t utid,
                          const tt_export_opts *o, const tt_flame_xform *x, tt_error *err)
{
    size_t ns;
    tt_profile_thread_order(p, utid, &ns);
    if (p->meta.timeless && (ns || (utid < p->nfixed && p->fixed[utid].len)))
        return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                            "the input has no timestamps: a startup window needs times");
    if (!ns && utid < p->nfixed && p->fixed[utid].len) {
        const tt_slice *s = p->fixed[utid].data;
        size_t n = p->fixed[utid].len;
        int64_t *self = malloc(n * sizeof *self);
        if (!self)
            return TT_ENOMEM;
        for (size_t i = 0; i < n; i++)
            self[i] = overlap(s[i].ts, s[i].ts + s[i].dur, x->win_from, x->win_to);
        for (size_t i = 0; i < n; i++)
            if (s[i].parent != TT_NONE && s[i].parent < n)
                self[s[i].parent] -= self[i];
        for (size_t i = 0; i < n; i++) {
            if (self[i] <= 0)
                continue;
            if (!w[s[i].callsite] && !tt_vec_push(touched, &s[i].callsite)) {
                free(self);
                return TT_ENOMEM;
            }
            w[s[i].callsite] = tt__sat_add(w[s[i].callsite], self[i]);
        }
        free(self);
        return 0;
    }
    tt_vec runs;
    tt_vec_init(&runs, sizeof(tt_run));
    int64_t gap = tt_profile_max_gap(p, utid, o->slice.max_gap);
    int64_t *rw = NULL;
    if (tt_profile_runs(&runs, p, utid, gap) ||
        tt__run_weights(&rw, p, utid, runs.len, o->weight, gap, o->slice.end_pad)) {
        tt_vec_free(&runs);
        return TT_ENOMEM;
    }
    for (size_t j = 0; j < runs.len; j++) {
        const tt_run *r = &TT_VEC_AT(&runs, tt_run, j);
        int64_t v = rw[j];
        if (r->end_ts > r->ts)
            v = tt_muldiv(v, overlap(r->ts, r->end_ts, x->win_from, x->win_to),
                          r->end_ts - r->ts);
        else if (r->ts < x->win_from || r->ts > x->win_to)
            v = 0;
        if (!v)
            continue;
        if (!w[r->callsite] && !tt_vec_push(touched, &r->callsite)) {
            tt_vec_free(&runs);
            free(rw);
            return TT_ENOMEM;
        }
        w[r->callsite] = tt__sat_add(w[r->callsite], v);
    }
    tt_vec_free(&runs);
    free(rw);
    return 0;
}

int tt_flame_add_profile(tt_flame *f, tt_profile *p, const tt_export_opts *eo,
                         const tt_flame_xform *x, const char *const *app, size_t napp,
                         int side, tt_error *err)
{
    size_t nc = tt_profile_ncallsites(p), nf = tt_profile_nframes(p), maxd = 0;
    for (size_t i = 0; i < nc; i++) /* no depth limit (instrumented calls) */
        if (tt_profile_callsite(p, (uint32_t)i)->depth > maxd)
            maxd = tt_profile_callsite(p, (uint32_t)i)->depth;
    pctx c = {.f = f, .p = p, .names = malloc((nf ? nf : 1) * sizeof(uint32_t)),
              .path = malloc((maxd + 2) * sizeof(uint32_t)),
              .fr = malloc((maxd + 1) * sizeof(uint32_t)),
              .node = malloc((nc ? nc : 1) * sizeof(uint32_t)),
              .match = calloc(nf ? nf : 1, 1), .app = app, .napp = napp,
              .maxd = maxd};
    tt_vec_init(&c.set, sizeof(uint32_t));
    tt_vec_init(&c.chain, sizeof(uint32_t));
    int64_t *w = calloc(nc ? nc : 1, sizeof *w);
    tt_vec touched;
    tt_vec_init(&touched, sizeof(uint32_t));
    tt_buf label = {0};
    tt_proc_index px = {0};
    int rc = c.names && c.path && c.fr && c.node && c.match && w ? 0 : TT_ENOMEM;
    for (size_t i = 0; i < nc && !rc; i++)
        c.node[i] = TT_NONE;
    if (!rc && eo->folded_root == TT_ROOT_PROCESS)
        rc = tt_proc_index_build(&px, p, eo->inputs && eo->n_inputs > 1);
    for (size_t i = 0; i < nf && !rc; i++)
        c.names[i] = TT_NONE;
    for (size_t t = 0; t < tt_profile_nthreads(p) && !rc; t++) {
        if (!tt__export_wants(eo, (uint32_t)t))
            continue;
        touched.len = 0;
        if ((rc = x && x->windowed ? window_weights(w, &touched, p, (uint32_t)t, eo, x, err)
                                   : tt__folded_weights(w, &touched, p, (uint32_t)t, eo, err)))
            break;
        uint32_t root = TT_NONE;
        label.len = 0;
        /* folded input names no thread or process: no root (export_folded.c alike) */
        int rooted = !tt_profile_thread(p, (uint32_t)t)->no_root;
        if (rooted && eo->folded_root == TT_ROOT_THREAD)
            tt_thread_format(&label, p, (uint32_t)t);
        else if (rooted && eo->folded_root == TT_ROOT_PROCESS)
            tt_thread_process_format(&label, p, &px, (uint32_t)t);
        if (label.len && x && x->norm_roots && eo->folded_root == TT_ROOT_THREAD) {
            /* Thread-123 and Thread-456 of two builds pair as Thread-# */
            size_t k = 0;
            for (size_t i = 0; i < label.len; i++) {
                int d = label.data[i] >= '0' && label.data[i] <= '9';
                if (d && k && label.data[k - 1] == '#')
                    continue;
                label.data[k++] = d ? '#' : label.data[i];
            }
            label.len = k;
            label.data[k] = 0;
        }
        if (label.len)
            rc = tt_flame_intern(f, &root, label.data, TT_FCAT_SYNTHETIC, NULL);
        if (!rc)
            rc = add_thread(&c, w, &touched, root, x, side);
        for (size_t i = 0; i < touched.len; i++)
            w[TT_VEC_AT(&touched, uint32_t, i)] = 0;
    }
    if (rc == TT_ENOMEM || rc == TT_ELIMIT)
        tt_error_set(err, rc, NULL, 0, 0, rc == TT_ENOMEM ? "out of memory"
                                                          : "flame graph too large");
    tt_buf_free(&label);
    tt_proc_index_free(&px);
    tt_vec_free(&touched);
    free(w);
    free(c.names);
    free(c.path);
    free(c.fr);
    free(c.node);
    free(c.match);
    tt_vec_free(&c.set);
    tt_vec_free(&c.chain);
    return rc;
}

int tt_flame_add_chart(tt_flame *f, tt_profile *p, uint32_t utid, const tt_slice_opts *so,
                       int root_thread, const tt_flame_xform *x, const char *const *app,
                       size_t napp, tt_error *err)
{
    tt_vec sl;
    tt_vec_init(&sl, sizeof(tt_slice));
    tt_slice_info info;
    int rc = tt_slice_build(&sl, &info, p, utid, so, err);
    size_t n = sl.len, nf = tt_profile_nframes(p);
    uint32_t *node = malloc((n ? n : 1) * sizeof *node);
    pctx c = {.f = f, .p = p, .names = malloc((nf ? nf : 1) * sizeof(uint32_t)), .app = app,
              .napp = napp};
    if (!rc && (!node || !c.names))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < nf && !rc; i++)
        c.names[i] = TT_NONE;
    const tt_slice *s = sl.data;
    int win = x && x->windowed;
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        if (s[i].ts < t0)
            t0 = s[i].ts;
        if (s[i].ts + s[i].dur > t1)
            t1 = s[i].ts + s[i].dur;
    }
    if (win) { /* the window, not the slices, spans the chart; clipped self below */
        t0 = x->win_from;
        t1 = x->win_to;
    }
    int64_t *cw = win && n ? malloc(n * sizeof *cw) : NULL, *cself = NULL;
    if (win && n && cw && (cself = malloc(n * sizeof *cself))) {
        for (size_t i = 0; i < n; i++)
            cw[i] = cself[i] = overlap(s[i].ts, s[i].ts + s[i].dur, t0, t1);
        for (size_t i = 0; i < n; i++)
            if (s[i].parent != TT_NONE)
                cself[s[i].parent] -= cw[i];
    } else if (win && n && !rc) {
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    uint32_t root = 0;
    if (!rc && n) {
        tt_flame_node *all = tt_flame_node_at(f, 0);
        all->reported = t1 - t0;
        all->x0 = 0;
        if (root_thread) {
            tt_buf label = {0};
            uint32_t name;
            tt_thread_format(&label, p, utid);
            rc = tt_flame_intern(f, &name, label.data ? label.data : "thread",
                                 TT_FCAT_SYNTHETIC, NULL);
            if (!rc)
                rc = tt_flame_chart_node(f, &root, 0, name, 0, t1 - t0, 0);
            tt_buf_free(&label);
        }
    }
    /* pre-order: a slice's parent (an index into the array) comes before it */
    for (size_t i = 0; i < n && !rc; i++) {
        uint32_t name, par = s[i].parent == TT_NONE ? root : node[s[i].parent];
        if (par == TT_NONE || (win && !cw[i])) { /* outside the window, or under such */
            node[i] = TT_NONE;
            continue;
        }
        rc = frame_name(&c, s[i].frame, &name);
        if (rc)
            break;
        if (win)
            rc = tt_flame_chart_node(f, &node[i], par, name, (s[i].ts > t0 ? s[i].ts : t0) - t0,
                                     cw[i], cself[i] > 0 ? cself[i] : 0);
        else
            rc = tt_flame_chart_node(f, &node[i], par, name, s[i].ts - t0, s[i].dur,
                                     s[i].self_dur > 0 ? s[i].self_dur : 0);
    }
    size_t kept = 0;
    for (size_t i = 0; i < n && !rc && win; i++)
        kept += node[i] != TT_NONE;
    if (!rc && win && !kept)
        rc = tt_error_set(err, TT_ENOTFOUND, NULL, 0, 0, "no calls of this thread in the "
                          "startup window");
    free(cw);
    free(cself);
    if (rc == TT_ENOMEM || rc == TT_ELIMIT)
        tt_error_set(err, rc, NULL, 0, 0, "out of memory");
    free(node);
    free(c.names);
    tt_vec_free(&sl);
    return rc;
}
