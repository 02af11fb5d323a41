/* Offline replays of Matrix's FPS generations a1, a2, b and c (frames.md sections 3 and
 * 3.6) with Java int/long/float semantics (method-beat.md 0.3), and the writer of
 * Matrix-style Trace_FPS objects (method-beat.md 7.4, 7.6). */
#include "tt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define FM_LIMIT (INT64_MAX / 2)

/* One scene's aggregation item of generations a and b. */
typedef struct item {
    int active;
    int64_t sum_cost;       /* sumFrameCost, ms */
    int32_t sum_frame;      /* Java int */
    int64_t sum_dropped;
    int64_t lc[TT_DROP_LEVELS], ls[TT_DROP_LEVELS];
} item;

/* The single window of generation c's all-scene reporter. */
typedef struct cwin {
    int32_t count;
    int64_t begin_ms;
    int64_t dur[TT_FM_GPU + 1];
    uint32_t mask;
    float drop, refresh_sum, total;
    int64_t lc[TT_DROP_LEVELS], ls[TT_DROP_LEVELS];
    const char *scene;
    uint32_t scene_id;
} cwin;

struct tt_fps_replay {
    tt_frames_opts o;
    tt_vec items;           /* item, indexed by scene id */
    tt_vec reports;         /* tt_fps_report */
    cwin c;
};

int tt_frames__replay_new(tt_fps_replay **out, const tt_frames_opts *o)
{
    tt_fps_replay *rp = calloc(1, sizeof *rp);
    if (!rp)
        return TT_ENOMEM;
    rp->o = *o;
    tt_vec_init(&rp->items, sizeof(item));
    tt_vec_init(&rp->reports, sizeof(tt_fps_report));
    *out = rp;
    return 0;
}

void tt_frames__replay_free(tt_fps_replay *rp)
{
    if (!rp)
        return;
    tt_vec_free(&rp->items);
    tt_vec_free(&rp->reports);
    free(rp);
}

const tt_fps_report *tt_frames__replay_reports(const tt_fps_replay *rp, size_t *n)
{
    *n = rp->reports.len;
    return rp->reports.data;
}

int tt_frames__replay_unflushed(const tt_fps_replay *rp, tt_vec *out)
{
    for (size_t i = 0; i < rp->items.len; i++) {
        const item *it = &TT_VEC_AT(&rp->items, item, i);
        tt_frames__unflushed u = {(uint32_t)i, it->sum_frame};
        if (it->active && !tt_vec_push(out, &u))
            return TT_ENOMEM;
    }
    if (rp->c.count > 0) {
        tt_frames__unflushed u = {rp->c.scene_id, rp->c.count};
        if (!tt_vec_push(out, &u))
            return TT_ENOMEM;
    }
    return 0;
}

/* ---- per-frame refresh values (3.6) ---- */

/* Choreographer's mFrameIntervalNanos: the interval, else (long)(1e9f / R). */
static int64_t choreo_interval(const tt_frames_opts *o, const tt_frame_rec *r)
{
    if (r->interval_ns > 0)
        return r->interval_ns;
    float hz = r->refresh_hz > 0 ? (float)r->refresh_hz
               : o->refresh_hz > 0 ? (float)o->refresh_hz : 60.0f;
    float v = 1e9f / hz;
    return tt_java_f2l(v);
}

/* The display refresh rate as a float; a known interval gives 1e9 / interval rounded to
 * 0.001 Hz (16,666,667 ns -> 60.0, not 59.99999). */
static float rate_of(const tt_frames_opts *o, const tt_frame_rec *r)
{
    if (r->interval_ns > 0)
        return (float)(round(1e9 / (double)r->interval_ns * 1000.0) / 1000.0);
    if (r->refresh_hz > 0)
        return (float)r->refresh_hz;
    return o->refresh_hz > 0 ? (float)o->refresh_hz : 60.0f;
}

static int32_t f2i(float f)
{
    int64_t v = tt_java_f2l(f);
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

/* ---- generations a and b: per-scene items ---- */

static item *item_of(tt_fps_replay *rp, uint32_t sid)
{
    while (rp->items.len <= sid)
        if (!tt_vec_push(&rp->items, NULL))
            return NULL;
    item *it = &TT_VEC_AT(&rp->items, item, sid);
    if (!it->active) {
        memset(it, 0, sizeof *it);
        it->active = 1;
    }
    return it;
}

static int emit_item(tt_fps_replay *rp, item *it, const char *scene, float fps, int gen,
                     uint64_t line)
{
    tt_fps_report r = {0};
    r.scene = scene;
    r.generation = gen;
    r.fps = (double)fps;
    for (int l = 0; l < TT_DROP_LEVELS; l++) {
        r.level_count[l] = it->lc[l];
        r.level_sum[l] = it->ls[l];
    }
    r.frames = it->sum_frame;
    r.line = line;
    it->active = 0; /* Matrix removes the item; the next frame starts a new one */
    return tt_vec_push(&rp->reports, &r) ? 0 : TT_ENOMEM;
}

/* a1/a2 (3.1, 3.2): Looper-timed cost in whole ms, integer slots of interval_ms. */
static int add_a(tt_fps_replay *rp, const tt_frame_rec *rec, item *it, const char *scene)
{
    int64_t interval_ns = choreo_interval(&rp->o, rec);
    int64_t interval_ms = interval_ns / 1000000 + 1;
    int64_t cost_ms = rec->end_ns / 1000000 - rec->start_ns / 1000000;
    int32_t d = tt_java_wrap32(cost_ms / interval_ms);
    it->sum_cost = wrap_add(it->sum_cost, wrap_mul((int64_t)d + 1, interval_ns) / 1000000);
    it->sum_frame = tt_java_wrap32((int64_t)it->sum_frame + 1);
    tt_frames__level_add(it->lc, it->ls, d, rp->o.levels);
    if (it->sum_cost < rp->o.time_slice_ms)
        return 0;
    float fps = 1000.0f * (float)it->sum_frame;
    fps = fps / (float)it->sum_cost;
    fps = fminf(60.0f, fps);
    return emit_item(rp, it, scene, fps,
                     rp->o.model == TT_FMODEL_A1 ? TT_FGEN_A1 : TT_FGEN_A2, rec->line);
}

/* b (3.3): dropped frames from vsync jitter, float accumulation truncated per frame. */
static int add_b(tt_fps_replay *rp, const tt_frame_rec *rec, item *it, const char *scene,
                 const char *file, tt_error *err)
{
    int64_t interval_ns, jitter;
    float cap;
    if (rp->o.b_frame_metrics) {
        if (!rec->has_vsync_ns)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, rec->line,
                                "the matrix-b FrameMetrics path needs the frame's vsync_ns "
                                "(VSYNC_TIMESTAMP)");
        int32_t r_int = f2i(rate_of(&rp->o, rec));
        interval_ns = 1000000000 / (r_int > 0 ? r_int : 1);
        jitter = rec->vsync_ns - rec->iv_ns;
        cap = (float)r_int;
    } else {
        interval_ns = choreo_interval(&rp->o, rec);
        jitter = rec->end_ns - rec->iv_ns;
        cap = rp->o.b_cap_zero ? 0.0f : 60.0f;
    }
    int32_t d = tt_java_wrap32(jitter / interval_ns);
    float fic = (float)interval_ns / 1000000.0f;
    float add = (float)tt_java_wrap32((int64_t)d + 1) * fic;
    float sum = (float)it->sum_cost + add;
    it->sum_cost = tt_java_f2l(sum);
    it->sum_dropped = wrap_add(it->sum_dropped, d);
    it->sum_frame = tt_java_wrap32((int64_t)it->sum_frame + 1);
    tt_frames__level_add(it->lc, it->ls, d, rp->o.levels);
    if (it->sum_cost < rp->o.time_slice_ms)
        return 0;
    float fps = 1000.0f * (float)it->sum_frame;
    fps = fps / (float)it->sum_cost;
    fps = fminf(cap, fps);
    return emit_item(rp, it, scene, fps, TT_FGEN_B, rec->line);
}

/* ---- generation c (3.4): one all-scene window ---- */

static int flush_c(tt_fps_replay *rp, uint64_t line)
{
    cwin *c = &rp->c;
    int rc = 0;
    if (c->count > 20) {
        tt_fps_report r = {0};
        r.scene = c->scene;
        r.generation = TT_FGEN_C;
        float n = (float)c->count;
        float mean = c->total / n;
        float fps = 1.0e9f / mean;
        r.fps = (double)fps;
        for (int l = 0; l < TT_DROP_LEVELS; l++) {
            r.level_count[l] = c->lc[l];
            r.level_sum[l] = c->ls[l];
            r.frames += c->lc[l];
        }
        for (int i = 0; i <= TT_FM_GPU; i++)
            r.fm_avg[i] = c->dur[i] / c->count;
        r.fm_mask = c->mask;
        r.has_c_fields = 1;
        float dc = c->drop / n, rr = c->refresh_sum / n;
        r.drop_count = tt_java_round(dc);
        r.refresh_rate = f2i(rr);
        r.line = line;
        rc = tt_vec_push(&rp->reports, &r) ? 0 : TT_ENOMEM;
    }
    memset(c, 0, sizeof *c); /* reset whether or not a report was emitted */
    return rc;
}

static int add_c(tt_fps_replay *rp, const tt_frame_rec *rec, uint32_t sid, const char *scene)
{
    cwin *c = &rp->c;
    int64_t fm[TT_FM_GPU + 1] = {0};
    uint32_t mask = rec->fm_mask & ((1u << (TT_FM_GPU + 1)) - 1);
    for (int i = 0; i <= TT_FM_GPU; i++)
        if (mask & (1u << i))
            fm[i] = rec->fm[i];
    if (!(mask & (1u << TT_FM_TOTAL)))
        fm[TT_FM_TOTAL] = rec->end_ns - rec->iv_ns;
    mask |= 1u << TT_FM_TOTAL;
    for (int i = 0; i <= TT_FM_TOTAL; i++)
        if (fm[i] < 0 || fm[i] >= FM_LIMIT)
            return 0; /* vendor outlier: Matrix skips the frame (step 1) */
    float r = rate_of(&rp->o, rec);
    float fi = 1.0e9f / r;
    float total = (float)fm[TT_FM_TOTAL];
    float dropped = (total - fi) / fi;
    dropped = fmaxf(0.0f, dropped);
    int64_t now_ms = rec->end_ns / 1000000;
    if (c->count == 0)
        c->begin_ms = now_ms;
    for (int i = 0; i <= TT_FM_GPU; i++)
        c->dur[i] = wrap_add(c->dur[i], fm[i]);
    c->mask |= mask;
    c->drop = c->drop + dropped;
    tt_frames__level_add(c->lc, c->ls, tt_java_round(dropped), rp->o.levels);
    c->refresh_sum = c->refresh_sum + r;
    c->total = c->total + fmaxf(total, fi);
    c->count = tt_java_wrap32((int64_t)c->count + 1);
    c->scene = scene;
    c->scene_id = sid;
    if (now_ms - c->begin_ms >= rp->o.time_slice_ms)
        return flush_c(rp, rec->line);
    return 0;
}

int tt_frames__replay_add(tt_fps_replay *rp, const tt_frame_rec *rec, uint32_t scene_id,
                          const char *scene, const char *file, tt_error *err)
{
    int rc;
    if (rec->type == TT_FREC_PAUSE) {
        rc = rp->o.model == TT_FMODEL_C ? flush_c(rp, rec->line) : 0;
    } else if (rp->o.model == TT_FMODEL_C) {
        rc = add_c(rp, rec, scene_id, scene);
    } else {
        item *it = item_of(rp, scene_id);
        if (!it)
            rc = TT_ENOMEM;
        else if (rp->o.model == TT_FMODEL_B)
            return add_b(rp, rec, it, scene, file, err);
        else
            rc = add_a(rp, rec, it, scene);
    }
    if (rc)
        return tt_error_set(err, rc, file, 0, 0, "out of memory");
    return 0;
}

/* ---- Matrix-style objects ---- */

static const char *const drop_keys[TT_DROP_LEVELS] = {
    "DROPPED_BEST", "DROPPED_NORMAL", "DROPPED_MIDDLE", "DROPPED_HIGH", "DROPPED_FROZEN"};

static void write_levels(tt_jsonw *w, const char *key, const int64_t *v, int best_first)
{
    tt_jsonw_key(w, key);
    tt_jsonw_obj_begin(w);
    for (int k = 0; k < TT_DROP_LEVELS; k++) {
        int l = best_first ? k : TT_DROP_LEVELS - 1 - k;
        tt_jsonw_key(w, drop_keys[l]);
        tt_jsonw_int(w, v[l]);
    }
    tt_jsonw_obj_end(w);
}

void tt_fps_report_write(tt_jsonw *w, const tt_fps_report *r)
{
    int c = r->generation == TT_FGEN_C;
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "scene");
    tt_jsonw_str(w, r->scene ? r->scene : "");
    write_levels(w, "dropLevel", r->level_count, c);
    write_levels(w, "dropSum", r->level_sum, c);
    tt_jsonw_key(w, "fps");
    tt_jsonw_double(w, r->fps);
    if (r->generation == TT_FGEN_A2) {
        tt_jsonw_key(w, "dropTaskFrameSum");
        tt_jsonw_int(w, r->drop_task_frame_sum);
    }
    if (c) {
        for (int i = 0; i <= TT_FM_GPU; i++) {
            if (!(r->fm_mask & (1u << i)))
                continue;
            tt_jsonw_key(w, tt_fm_name(i));
            tt_jsonw_int(w, r->fm_avg[i]);
        }
        tt_jsonw_key(w, "DROP_COUNT");
        tt_jsonw_int(w, r->drop_count);
        tt_jsonw_key(w, "REFRESH_RATE");
        tt_jsonw_int(w, r->refresh_rate);
    }
    tt_jsonw_obj_end(w);
}
