/* --art-mode samples (spec/art-trace.md 5.5): every group of a thread's events with one
 * timestamp becomes a point sample of the thread's stack after the group, and calls are rebuilt
 * from those samples by samples.md section 5 (slice-end policy) instead of 5.1. The records
 * are change points (3.4): a stack holds until the next group, so there are no gaps without
 * data (no max-gap rule) and each group is preceded by a point of the stack it replaces. */
#include "tt_art.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct sctx {
    const tt_art *a;
    tt_profile *p;
    uint32_t utid;
    uint32_t *frames;   /* per method: frame id, TT_NONE until used */
    tt_vec fmethod;     /* uint32_t per frame id: the first method with that name */
    tt_vec stack;       /* uint32_t method per open frame */
    tt_vec cs;          /* uint32_t callsite per open frame */
    uint32_t *open;     /* per method: frames of it on the stack */
} sctx;

static int frame_of(sctx *c, uint32_t m, uint32_t *f)
{
    if (c->frames[m] == TT_NONE) {
        const tt_art_method *am = &c->a->methods[m];
        tt_stack_frame sf;
        memset(&sf, 0, sizeof sf);
        sf.name = am->key;
        sf.raw_name = am->raw;
        sf.file = am->src[0] ? am->src : NULL;
        sf.kind = TT_FRAME_JAVA;
        if (tt_frame_intern(c->p, &c->frames[m], &sf))
            return TT_ENOMEM;
        uint32_t none = TT_NONE;
        while (c->fmethod.len <= c->frames[m])
            if (!tt_vec_push(&c->fmethod, &none))
                return TT_ENOMEM;
        if (TT_VEC_AT(&c->fmethod, uint32_t, c->frames[m]) == TT_NONE)
            TT_VEC_AT(&c->fmethod, uint32_t, c->frames[m]) = m;
    }
    *f = c->frames[m];
    return 0;
}

/* Applies one event to the stack as 5.1 does (an unmatched exit changes nothing). */
static int apply(sctx *c, const tt_art_event *e)
{
    uint32_t m = TT_ART_EV_METHOD(e);
    if (TT_ART_EV_ACTION(e) != TT_ART_ENTER) {
        while (c->open[m] && c->stack.len) {
            uint32_t top = TT_VEC_AT(&c->stack, uint32_t, --c->stack.len);
            c->cs.len--;
            c->open[top]--;
            if (top == m)
                break;
        }
        return 0;
    }
    uint32_t f, cs, parent = c->cs.len ? TT_VEC_AT(&c->cs, uint32_t, c->cs.len - 1) : TT_NONE;
    if (frame_of(c, m, &f) || tt_callsite_child(c->p, &cs, parent, f) ||
        !tt_vec_push(&c->stack, &m) || !tt_vec_push(&c->cs, &cs))
        return TT_ENOMEM;
    c->open[m]++;
    return 0;
}

static int add_point(sctx *c, int64_t t_us, int64_t cpu_us, uint32_t callsite)
{
    tt_sample s;
    tt_sample_init(&s);
    s.ts = s.end_ts = t_us * 1000;
    s.cpu = s.end_cpu = cpu_us == TT_ART_NONE ? -1 : cpu_us * 1000;
    s.utid = c->utid;
    s.callsite = callsite;
    return tt_profile_add(c->p, &s, NULL);
}

/* One point sample per timestamp group whose stack is not empty. ART writes nothing while
 * a thread's stack does not change (3.4): the records are change points, so a stack holds
 * until the thread's next group, which first gets a point of the stack before it (the
 * calls that end there end at it, not at the last change before). */
static int add_samples(sctx *c, const tt_art_thread *th)
{
    int wall = tt_art_has_wall(c->a);
    uint32_t held = TT_NONE; /* the callsite of the previous group */
    for (size_t i = 0; i < th->nev; i++) {
        const tt_art_event *e = &th->ev[i];
        int64_t t = wall ? e->wall_us : e->cpu_us;
        int rc = 0;
        if (held != TT_NONE && (!i || (wall ? th->ev[i - 1].wall_us : th->ev[i - 1].cpu_us) != t))
            rc = add_point(c, t, e->cpu_us, held); /* the first event of a later group */
        if (rc || (rc = apply(c, e)))
            return rc;
        if (i + 1 < th->nev && (wall ? th->ev[i + 1].wall_us : th->ev[i + 1].cpu_us) == t)
            continue;
        held = c->cs.len ? TT_VEC_AT(&c->cs, uint32_t, c->cs.len - 1) : TT_NONE;
        if (held != TT_NONE && (rc = add_point(c, t, e->cpu_us, held)))
            return rc;
    }
    return 0;
}

static const int end_kinds[] = {
    [TT_ENDK_EXACT] = TT_ART_END_EXACT, [TT_ENDK_INFERRED] = TT_ART_END_INFERRED,
    [TT_ENDK_UNTERMINATED] = TT_ART_END_UNTERMINATED, [TT_ENDK_TRUNCATED] = TT_ART_END_TRUNCATED};

static int64_t us_or_none(int64_t ns) { return ns < 0 ? TT_ART_NONE : ns / 1000; }

/* Hands the rebuilt slices (pre-order) to the visitor: enters in pre-order, closes innermost
 * first, as 5.1's rebuild does. */
static int replay(sctx *c, const tt_slice *s, size_t n, const tt_art_visit *v)
{
    int rc = 0;
    c->stack.len = 0;
    for (size_t i = 0; i <= n && !rc; i++) {
        while (!rc && c->stack.len &&
               (i == n || TT_VEC_AT(&c->stack, uint32_t, c->stack.len - 1) != s[i].parent)) {
            const tt_slice *o = &s[TT_VEC_AT(&c->stack, uint32_t, --c->stack.len)];
            tt_art_slice as;
            memset(&as, 0, sizeof as);
            as.method = TT_VEC_AT(&c->fmethod, uint32_t, o->frame);
            as.depth = o->depth;
            as.ts_us = o->ts / 1000;
            as.dur_us = o->dur / 1000;
            as.self_us = o->self_dur / 1000;
            as.cpu_ts_us = us_or_none(o->thread_ts);
            as.cpu_dur_us = us_or_none(o->thread_dur);
            as.cpu_self_us = o->thread_dur < 0 ? TT_ART_NONE : us_or_none(o->self_thread_dur);
            if (as.cpu_self_us == TT_ART_NONE && as.cpu_dur_us != TT_ART_NONE)
                as.cpu_self_us = 0;
            as.end_kind = end_kinds[o->end_kind & 3];
            as.recursive = o->is_recursive;
            as.sample_count = o->sample_count;
            rc = v && v->slice ? v->slice(v->ud, &as) : 0;
        }
        if (i == n || rc)
            break;
        uint32_t k = (uint32_t)i;
        if (!tt_vec_push(&c->stack, &k))
            return TT_ENOMEM;
        if (v && v->enter)
            rc = v->enter(v->ud, TT_VEC_AT(&c->fmethod, uint32_t, s[i].frame), s[i].depth);
    }
    return rc;
}

int tt_art__rebuild_samples(const tt_art *a, size_t t, const tt_art_visit *v,
                            const char *file, tt_error *err)
{
    sctx c;
    memset(&c, 0, sizeof c);
    c.a = a;
    tt_vec_init(&c.fmethod, sizeof(uint32_t));
    tt_vec_init(&c.stack, sizeof(uint32_t));
    tt_vec_init(&c.cs, sizeof(uint32_t));
    tt_vec sl;
    tt_vec_init(&sl, sizeof(tt_slice));
    const tt_art_thread *th = &a->threads[t];
    c.frames = malloc((a->nmethods + 1) * sizeof *c.frames);
    c.open = calloc(a->nmethods + 1, sizeof *c.open);
    int rc = c.frames && c.open && !tt_profile_new(&c.p, TT_IDENT_NAME) ? 0 : TT_ENOMEM;
    for (size_t i = 0; !rc && i <= a->nmethods; i++)
        c.frames[i] = TT_NONE;
    if (!rc && tt_thread_intern(c.p, &c.utid, 0, a->pid, th->id, a->version == 1 ? 8 : 16))
        rc = TT_ENOMEM;
    if (!rc)
        rc = add_samples(&c, th);
    tt_slice_opts so;
    tt_slice_opts_init(&so);
    so.max_gap = TT_GAP_NONE; /* the sampler saw every thread at every tick */
    tt_slice_info info;
    if (!rc && !(rc = tt_profile_finish(c.p, err)) && tt_profile_nsamples(c.p))
        rc = tt_slice_build(&sl, &info, c.p, c.utid, &so, err);
    if (!rc)
        rc = replay(&c, sl.data, sl.len, v);
    tt_vec_free(&sl);
    tt_vec_free(&c.fmethod);
    tt_vec_free(&c.stack);
    tt_vec_free(&c.cs);
    free(c.frames);
    free(c.open);
    tt_profile_free(c.p);
    if (rc == TT_ENOMEM || rc == TT_ELIMIT)
        return tt_error_set(err, rc, file, TT_LOC_NONE, 0,
                            rc == TT_ENOMEM ? "out of memory" : "times out of range");
    return rc;
}
