/* ART method traces as a tt_profile of fixed slices (spec/art-trace.md 6.2), so the Chrome,
 * folded and speedscope exporters and the samples views take them unchanged. */
#include "tt_art.h"

#include <stdlib.h>
#include <string.h>

typedef struct conv {
    tt_profile *p;
    const tt_art *a;
    uint32_t *frames; /* per method: frame id, TT_NONE until used */
    tt_vec sl;        /* tt_slice, pre-order */
    tt_vec stack;     /* uint32_t slice index */
    int64_t base_ns;
    int sampled;
} conv;

static int conv_enter(void *ud, uint32_t method, uint32_t depth)
{
    conv *c = ud;
    if (c->frames[method] == TT_NONE) {
        const tt_art_method *m = &c->a->methods[method];
        tt_stack_frame f;
        memset(&f, 0, sizeof f);
        f.name = m->key;
        f.raw_name = m->raw;
        f.file = m->src[0] ? m->src : NULL;
        f.line = m->line;
        f.kind = TT_FRAME_JAVA;
        if (tt_frame_intern(c->p, &c->frames[method], &f))
            return TT_ENOMEM;
    }
    tt_slice s;
    memset(&s, 0, sizeof s);
    s.parent = c->stack.len ? TT_VEC_AT(&c->stack, uint32_t, c->stack.len - 1) : TT_NONE;
    uint32_t pcs = s.parent != TT_NONE ? TT_VEC_AT(&c->sl, tt_slice, s.parent).callsite : TT_NONE;
    if (tt_callsite_child(c->p, &s.callsite, pcs, c->frames[method]))
        return TT_ENOMEM;
    s.frame = c->frames[method];
    s.depth = depth;
    s.wakeup_utid = TT_NONE;
    s.type = TT_ST_CPU;
    s.is_instrumented = 2;
    uint32_t idx = (uint32_t)c->sl.len;
    return tt_vec_push(&c->sl, &s) && tt_vec_push(&c->stack, &idx) ? 0 : TT_ENOMEM;
}

static int64_t ns_or(int64_t us) { return us == TT_ART_NONE ? -1 : us * 1000; }

static int conv_slice(void *ud, const tt_art_slice *a)
{
    conv *c = ud;
    uint32_t idx = TT_VEC_AT(&c->stack, uint32_t, --c->stack.len);
    tt_slice *s = &TT_VEC_AT(&c->sl, tt_slice, idx);
    static const uint8_t kinds[] = {TT_ENDK_EXACT, TT_ENDK_UNTERMINATED, TT_ENDK_TRUNCATED,
                                    TT_ENDK_INFERRED};
    s->ts = c->base_ns + a->ts_us * 1000;
    s->dur = a->dur_us * 1000;
    s->self_dur = a->self_us * 1000;
    s->thread_ts = ns_or(a->cpu_ts_us);
    s->thread_dur = ns_or(a->cpu_dur_us);
    s->self_thread_dur = ns_or(a->cpu_self_us);
    s->block_dur = s->gap_before = s->gap_after = -1;
    s->end_kind = kinds[a->end_kind];
    s->is_recursive = (uint8_t)a->recursive;
    s->is_unwound = (uint8_t)a->unwound;
    s->sample_count = a->sample_count;
    return 0;
}

int tt_art_to_profile(tt_profile *p, const tt_art *a, const tt_art_rebuild_opts *o,
                      tt_stats *stats, const char *file, tt_error *err)
{
    tt_profile_meta *meta = tt_profile_meta_get(p);
    meta->source_format = "art_trace";
    meta->clock = tt_art_has_wall(a) ? "monotonic" : "relative";
    conv c = {p, a, NULL, {0}, {0}, tt_art_has_wall(a) ? (int64_t)a->start_us * 1000 : 0, 0};
    c.frames = malloc((a->nmethods + 1) * sizeof *c.frames);
    if (!c.frames)
        return tt_error_set(err, TT_ENOMEM, file, TT_LOC_NONE, 0, "out of memory");
    for (size_t i = 0; i <= a->nmethods; i++)
        c.frames[i] = TT_NONE;
    tt_vec_init(&c.sl, sizeof(tt_slice));
    tt_vec_init(&c.stack, sizeof(uint32_t));
    tt_art_visit v = {conv_enter, conv_slice, &c};
    int rc = 0;
    for (size_t i = 0; i < a->nthreads && !rc; i++) {
        const tt_art_thread *t = &a->threads[i];
        uint32_t utid;
        if (tt_thread_intern(p, &utid, 0, a->pid, t->tid,
                             t->tid_full ? 32 : a->version == 1 ? 8 : 16)) {
            rc = tt_error_set(err, TT_ENOMEM, file, TT_LOC_NONE, 0, "out of memory");
            break;
        }
        tt_thread_set_name(p, utid, t->name, strlen(t->name), 0);
        if (!strcmp(t->name, "main"))
            tt_thread_set_main(p, utid);
        c.sl.len = c.stack.len = 0;
        rc = tt_art_rebuild(a, i, o, &v, stats, file, err);
        if (rc == TT_ENOMEM || (!rc && tt_profile_set_slices(p, utid, c.sl.data, c.sl.len)))
            rc = tt_error_set(err, TT_ENOMEM, file, TT_LOC_NONE, 0, "out of memory");
    }
    free(c.frames);
    tt_vec_free(&c.sl);
    tt_vec_free(&c.stack);
    return rc;
}
