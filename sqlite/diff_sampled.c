/* tracetool diff, the sampled weights of one side (tracetool-diff(1) sampled; samples.md 6):
 * each trace with samples read back as a profile (profile.c) and weighed per sample as
 * tracetool samples weighs it, so that the leaf of a sample gets its self time and not the
 * caller whose rebuilt slice happens to span it. */
#include "tdb.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

/* The default weight of tracetool samples when its unit is time; else the wall weight of a
 * timed trace; -1 without times (ms then come from the sample interval, if known). perf's
 * period is ns for the clock events only (samples.md 2.2), and a period of 1 ns is a sample
 * that had none (analyze stores weight 1 per sample then). */
static int time_weight(tt_profile *p)
{
    const tt_profile_meta *m = tt_profile_meta_get(p);
    int w = tt_weight_default(m);
    if (w == TT_WEIGHT_WALL || w == TT_WEIGHT_CPU)
        return w;
    if (w == TT_WEIGHT_PERIOD && tt_perf_event_is_clock(m->event)) {
        int periods = 1;
        for (size_t i = 0; i < tt_profile_nsamples(p) && periods; i++) {
            const tt_sample *s = tt_profile_sample(p, (uint32_t)i);
            periods = s->weight > (int64_t)s->count;
        }
        if (periods)
            return TT_WEIGHT_PERIOD;
    }
    return m->timeless ? -1 : TT_WEIGHT_WALL;
}

/* The diff key of every frame: its name, or for an unnamed native frame module+0xPC (as
 * diff.c's FRAME_NAME names the frames of sample rows). */
static int frame_keys(const char **key, tt_profile *p)
{
    for (size_t i = 0; i < tt_profile_nframes(p); i++) {
        const tt_stack_frame *f = tt_profile_frame(p, (uint32_t)i);
        const char *nm = f->name ? f->name : "";
        if (*nm && strcmp(nm, "?\?")) {
            key[i] = nm;
            continue;
        }
        if (!f->module || !f->has_rel_pc) {
            key[i] = "?\?";
            continue;
        }
        size_t n = strlen(f->module) + 24;
        char *b = malloc(n);
        if (!b)
            return TT_ENOMEM;
        int len = snprintf(b, n, "%s+0x%" PRIx64, f->module, (uint64_t)f->rel_pc);
        key[i] = tt_profile_str(p, b, (size_t)len);
        free(b);
        if (!key[i])
            return TT_ENOMEM;
    }
    return 0;
}

static int one_trace(tdb_db *db, const char *path, int64_t id, tdb__sw_fn fn, void *ctx,
                     tt_error *err)
{
    tt_profile *p;
    int rc = tdb_profile_load(&p, db, id, path, NULL, err);
    if (rc)
        return rc;
    size_t nc = tt_profile_ncallsites(p), nf = tt_profile_nframes(p);
    tt_weight *cw = malloc((nc ? nc : 1) * sizeof *cw);
    int64_t *ns = calloc(nc ? nc : 1, sizeof *ns);
    const char **key = calloc(nf ? nf : 1, sizeof *key);
    rc = cw && ns && key ? frame_keys(key, p) : TT_ENOMEM;
    tdb__sw w = {.p = p, .key = key, .self_ns = ns, .cw = cw,
                 .timeless = tt_profile_meta_get(p)->timeless};
    if (!rc) {
        int tw = time_weight(p);
        int64_t interval = tt_profile_meta_get(p)->interval_ns;
        rc = tt_profile_callsite_weights(cw, p, TT_NONE, tw < 0 ? TT_WEIGHT_SAMPLES : tw,
                                         TT_GAP_AUTO, 10);
        w.timed = tw >= 0 || interval > 0;
        for (size_t i = 0; i < nc && !rc; i++)
            ns[i] = tw >= 0 ? cw[i].self_weight
                            : (int64_t)cw[i].self_samples * (interval > 0 ? interval : 0);
    }
    if (rc == TT_ENOMEM)
        rc = tt_error_set(err, TT_ENOMEM, path, 0, 0, "out of memory");
    else if (rc)
        rc = tt_error_set(err, rc, path, 0, 0, "trace %lld: cannot weigh its samples",
                          (long long)id);
    if (!rc && fn(ctx, &w))
        rc = 1;
    free(cw);
    free(ns);
    free(key);
    tt_profile_free(p);
    return rc;
}

int tdb__diff_sampled(const char *path, int64_t trace, tdb__sw_fn fn, void *ctx, tt_error *err)
{
    tdb_db *db;
    int newer;
    int rc = tdb_open_read(&db, path, 0, &newer, err);
    if (rc)
        return rc;
    tdb_trace_info *t = NULL;
    size_t n = 0;
    rc = tdb_trace_list(&t, &n, db, err);
    for (size_t i = 0; i < n && !rc; i++)
        if (t[i].has_samples && (!trace || t[i].id == trace))
            rc = one_trace(db, path, t[i].id, fn, ctx, err);
    free(t);
    tdb_close(db);
    return rc;
}
