/* Frame statistics: drop levels (frames.md section 2), the native frame model (section 6:
 * per frame, per scene, all scenes, time series) and the reports model (7.1). The Matrix
 * replays of section 3 live in frames_matrix.c, report aggregation in frames_report.c. */
#include "tt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define P60_NS 16666667       /* 60 Hz refresh period, rounded (section 1) */
#define SERIES_MAX 250000u    /* windows in one series: bounds memory (~90 MB) */

static const int32_t default_levels[4] = {3, 9, 24, 42};

const char *tt_fmodel_name(int model)
{
    static const char *const n[] = {"native", "matrix-a1", "matrix-a2", "matrix-b", "matrix-c",
                                    "reports"};
    return model >= 0 && model <= TT_FMODEL_REPORTS ? n[model] : "?";
}

/* ---- 128-bit helpers for exact means and the scaled-level product ---- */
typedef struct u128 {
    uint64_t hi, lo;
} u128;

static void u128_add(u128 *a, uint64_t v)
{
    a->lo += v;
    if (a->lo < v)
        a->hi++;
}

static u128 u128_mul(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    u128 r = {hh + (lh >> 32) + (hl >> 32) + (mid >> 32), (mid << 32) | (ll & 0xFFFFFFFFu)};
    return r;
}

/* a / d, saturated to INT64_MAX; d > 0. Bitwise long division (called per aggregate). */
static int64_t u128_div(u128 a, uint64_t d)
{
    if (a.hi >= d)
        return INT64_MAX;
    uint64_t rem = a.hi, q = 0;
    for (int i = 63; i >= 0; i--) {
        int top = (int)(rem >> 63);
        rem = (rem << 1) | ((a.lo >> i) & 1u);
        q <<= 1;
        if (top || rem >= d) {
            rem -= d;
            q |= 1u;
        }
    }
    return q > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)q;
}

/* ---- scene interning ---- */
typedef struct scene {
    const char *name;
    size_t len;
    uint64_t hash;
} scene;

typedef struct dd_slot {
    int64_t iv;
    uint64_t window;
    uint32_t scene_id;
    uint32_t used;
} dd_slot;

/* A set of (scene id, window, IntendedVsync): open addressing. */
typedef struct dd_table {
    dd_slot *d;
    size_t cap, len;
} dd_table;

struct tt_frames_seen {
    tt_intern *scenes;      /* scene names: the ids of the table */
    dd_table t;
};

struct tt_frames {
    tt_frames_opts o;
    tt_arena *arena;
    tt_vec scenes;          /* scene */
    uint32_t *slots;        /* open addressing: scene id + 1, 0 empty */
    uint32_t last_scene;    /* the previous record's scene id (streams repeat it) */
    size_t nslots;
    dd_table dd;            /* framestats (scene, window, IntendedVsync) already seen */
    const tt_frames_seen *seen; /* kept by earlier analyses, or NULL */
    tt_vec frames;          /* tt_ui_frame */
    tt_vec fmv;             /* tt_frame_fm (keep_fm), by tt_ui_frame.fm_id - 1 */
    uint64_t seq;
    tt_frames_skipped sk;
    int jank_fallback;
    int have_frames;
    tt_vec reports;         /* tt_fps_report, reports model */
    tt_vec report_sids;     /* uint32_t scene id of each report */
    tt_fps_replay *rp;
    int finished;
    tt_vec stats;           /* tt_frame_stats per scene */
    tt_vec series;          /* tt_frame_stats */
    tt_vec unflushed;       /* tt_frames__unflushed */
    tt_frame_stats all;
    uint64_t series_need;   /* TT_ELIMIT: the windows the series would need */
};

static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static int scene_grow(tt_frames *f)
{
    size_t ncap = f->nslots ? f->nslots * 2 : 64;
    uint32_t *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return TT_ENOMEM;
    for (size_t i = 0; i < f->scenes.len; i++) {
        size_t k = TT_VEC_AT(&f->scenes, scene, i).hash & (ncap - 1);
        while (ns[k])
            k = (k + 1) & (ncap - 1);
        ns[k] = (uint32_t)i + 1;
    }
    free(f->slots);
    f->slots = ns;
    f->nslots = ncap;
    return 0;
}

static int scene_intern(tt_frames *f, const char *s, size_t n, uint32_t *id)
{
    if (f->last_scene < f->scenes.len) {
        const scene *l = &TT_VEC_AT(&f->scenes, scene, f->last_scene);
        if (l->len == n && !memcmp(l->name, s, n)) {
            *id = f->last_scene;
            return 0;
        }
    }
    uint64_t h = fnv(s, n);
    if (f->nslots) {
        for (size_t k = h & (f->nslots - 1); f->slots[k]; k = (k + 1) & (f->nslots - 1)) {
            const scene *sc = &TT_VEC_AT(&f->scenes, scene, f->slots[k] - 1);
            if (sc->hash == h && sc->len == n && !memcmp(sc->name, s, n)) {
                *id = f->last_scene = f->slots[k] - 1;
                return 0;
            }
        }
    }
    if (f->scenes.len >= UINT32_MAX - 1)
        return TT_ELIMIT;
    if ((f->scenes.len + 1) * 2 > f->nslots && scene_grow(f))
        return TT_ENOMEM;
    scene sc = {tt_arena_strndup(f->arena, s, n), n, h};
    if (!sc.name || !tt_vec_push(&f->scenes, &sc))
        return TT_ENOMEM;
    *id = (uint32_t)(f->scenes.len - 1);
    size_t k = h & (f->nslots - 1);
    while (f->slots[k])
        k = (k + 1) & (f->nslots - 1);
    f->slots[k] = *id + 1;
    f->last_scene = *id;
    return 0;
}

static size_t dd_hash(uint32_t sid, uint64_t window, int64_t iv)
{
    uint64_t k[2] = {(uint64_t)iv, window};
    return (size_t)(fnv((const char *)k, sizeof k) ^ sid);
}

static int dd_find(const dd_table *t, uint32_t sid, uint64_t window, int64_t iv)
{
    if (!t->cap)
        return 0;
    for (size_t k = dd_hash(sid, window, iv) & (t->cap - 1); t->d[k].used;
         k = (k + 1) & (t->cap - 1))
        if (t->d[k].iv == iv && t->d[k].window == window && t->d[k].scene_id == sid)
            return 1;
    return 0;
}

/* Returns 1 if (scene, window, iv) is in t, else adds it (*oom set when it cannot). */
static int dd_seen(dd_table *t, uint32_t sid, uint64_t window, int64_t iv, int *oom)
{
    if (dd_find(t, sid, window, iv))
        return 1;
    if ((t->len + 1) * 2 > t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 1024;
        dd_slot *nd = calloc(ncap, sizeof *nd);
        if (!nd) {
            *oom = 1;
            return 0;
        }
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->d[i].used)
                continue;
            size_t k = dd_hash(t->d[i].scene_id, t->d[i].window, t->d[i].iv) & (ncap - 1);
            while (nd[k].used)
                k = (k + 1) & (ncap - 1);
            nd[k] = t->d[i];
        }
        free(t->d);
        t->d = nd;
        t->cap = ncap;
    }
    size_t k = dd_hash(sid, window, iv) & (t->cap - 1);
    while (t->d[k].used)
        k = (k + 1) & (t->cap - 1);
    t->d[k] = (dd_slot){iv, window, sid, 1};
    t->len++;
    return 0;
}

tt_frames_seen *tt_frames_seen_new(void)
{
    tt_frames_seen *s = calloc(1, sizeof *s);
    if (s && !(s->scenes = tt_intern_new())) {
        free(s);
        return NULL;
    }
    return s;
}

void tt_frames_seen_free(tt_frames_seen *s)
{
    if (!s)
        return;
    tt_intern_free(s->scenes);
    free(s->t.d);
    free(s);
}

int tt_frames_seen_add(tt_frames_seen *s, const tt_frames *f)
{
    for (size_t i = 0; i < f->frames.len; i++) {
        const tt_ui_frame *fr = &TT_VEC_AT(&f->frames, tt_ui_frame, i);
        if (!fr->framestats)
            continue;
        const scene *sc = &TT_VEC_AT(&f->scenes, scene, fr->scene_id);
        uint32_t id;
        int oom = 0;
        if (tt_intern_get(s->scenes, sc->name, sc->len, &id) ||
            (dd_seen(&s->t, id, fr->window_id, fr->ts, &oom), oom))
            return TT_ENOMEM;
    }
    return 0;
}

void tt_frames_use_seen(tt_frames *f, const tt_frames_seen *s) { f->seen = s; }

/* A framestats frame kept by an earlier analysis (f->seen). */
static int seen_before(const tt_frames *f, const tt_frame_rec *r)
{
    uint32_t id;
    return f->seen && !tt_intern_find(f->seen->scenes, r->scene, r->scene_len, &id) &&
           dd_find(&f->seen->t, id, r->window_id, r->iv_ns);
}

/* ---- lifecycle ---- */

int tt_frames_new(tt_frames **out, const tt_frames_opts *opts, tt_error *err)
{
    tt_frames *f = calloc(1, sizeof *f);
    if (!f || !(f->arena = tt_arena_new())) {
        free(f);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    f->o = *opts;
    /* a value given is used as given, 0 included (frames(1)); the flags say which */
    if (!f->o.has_levels)
        memcpy(f->o.levels, default_levels, sizeof default_levels);
    if (!f->o.has_slow)
        f->o.slow_ns = 16000000;
    if (!f->o.has_frozen)
        f->o.frozen_ns = 700000000;
    f->o.has_levels = f->o.has_slow = f->o.has_frozen = 1;
    if (!(f->o.jank_multiplier > 0))
        f->o.jank_multiplier = 2.0;
    if (f->o.window_ms <= 0)
        f->o.window_ms = 1000;
    if (f->o.time_slice_ms <= 0)
        f->o.time_slice_ms = 10000;
    tt_vec_init(&f->scenes, sizeof(scene));
    tt_vec_init(&f->frames, sizeof(tt_ui_frame));
    tt_vec_init(&f->fmv, sizeof(tt_frame_fm));
    tt_vec_init(&f->reports, sizeof(tt_fps_report));
    tt_vec_init(&f->report_sids, sizeof(uint32_t));
    tt_vec_init(&f->stats, sizeof(tt_frame_stats));
    tt_vec_init(&f->series, sizeof(tt_frame_stats));
    tt_vec_init(&f->unflushed, sizeof(tt_frames__unflushed));
    if (f->o.model >= TT_FMODEL_A1 && f->o.model <= TT_FMODEL_C &&
        tt_frames__replay_new(&f->rp, &f->o)) {
        tt_frames_free(f);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    *out = f;
    return 0;
}

void tt_frames_free(tt_frames *f)
{
    if (!f)
        return;
    tt_frames__replay_free(f->rp);
    tt_vec_free(&f->scenes);
    tt_vec_free(&f->frames);
    tt_vec_free(&f->fmv);
    tt_vec_free(&f->reports);
    tt_vec_free(&f->report_sids);
    tt_vec_free(&f->stats);
    tt_vec_free(&f->series);
    tt_vec_free(&f->unflushed);
    free(f->slots);
    free(f->dd.d);
    tt_arena_free(f->arena);
    free(f);
}

/* ---- adding records ---- */

/* The refresh period of a frame (6.1): interval -> rate -> --refresh-hz -> 60 Hz. */
static int64_t period_of(const tt_frames *f, const tt_frame_rec *r)
{
    if (r->interval_ns > 0)
        return r->interval_ns;
    if (r->refresh_hz > 0)
        return (int64_t)llround(1e9 / r->refresh_hz);
    if (f->o.refresh_hz > 0)
        return (int64_t)llround(1e9 / f->o.refresh_hz);
    return P60_NS;
}

static int native_add(tt_frames *f, const tt_frame_rec *r, uint32_t sid)
{
    tt_ui_frame fr = {0};
    fr.scene_id = sid;
    fr.ts = r->iv_ns;
    fr.dur = (r->fm_mask & (1u << TT_FM_TOTAL)) ? r->fm[TT_FM_TOTAL] : r->end_ns - r->iv_ns;
    fr.interval_dur = period_of(f, r);
    if ((r->fm_mask & (1u << TT_FM_DEADLINE)) && r->fm[TT_FM_DEADLINE] > 0)
        fr.expected_dur = r->fm[TT_FM_DEADLINE];
    int64_t expected = fr.expected_dur > 0 ? fr.expected_dur : fr.interval_dur;
    int64_t dj = fr.dur;
    if (f->o.jank_ui) {
        if (r->ui_ns >= 0)
            dj = r->ui_ns;
        else
            f->jank_fallback = 1;
    }
    fr.is_jank = (double)dj > f->o.jank_multiplier * (double)expected;
    fr.is_slow = fr.dur > f->o.slow_ns;
    fr.is_frozen = fr.dur > f->o.frozen_ns;
    fr.has_vsync_id = r->has_vsync_id ? 1 : 0;
    fr.vsync_id = r->vsync_id;
    fr.seq = f->seq++;
    fr.window_id = r->window_id;
    fr.framestats = r->source == TT_FSRC_FRAMESTATS;
    uint32_t mask = r->fm_mask & ((1u << TT_FM_DURATIONS) - 1);
    if (f->o.keep_fm && mask) {
        tt_frame_fm d = {.mask = mask};
        for (int i = 0; i < TT_FM_DURATIONS; i++)
            d.fm[i] = (mask >> i) & 1 ? r->fm[i] : 0;
        if (f->fmv.len >= UINT32_MAX || !tt_vec_push(&f->fmv, &d))
            return TT_ENOMEM;
        fr.fm_id = (uint32_t)f->fmv.len;
    }
    return tt_vec_push(&f->frames, &fr) ? 0 : TT_ENOMEM;
}

int tt_frames_add(tt_frames *f, const tt_frame_rec *rec, const char *file, tt_error *err)
{
    if (f->o.model == TT_FMODEL_REPORTS)
        return tt_error_set(err, TT_EINVAL, file, TT_LOC_LINE, rec->line,
                            "per-frame records cannot be mixed with Matrix FPS reports");
    f->have_frames = 1;
    if (rec->type == TT_FREC_PAUSE) {
        if (f->rp)
            return tt_frames__replay_add(f->rp, rec, 0, "", file, err);
        return 0;
    }
    /* every scene seen is listed, also one whose rows were all skipped */
    uint32_t sid;
    int rc = scene_intern(f, rec->scene, rec->scene_len, &sid);
    if (rc)
        return tt_error_set(err, rc, file, 0, 0, "too many scenes or out of memory");
    switch (rec->skip) {
    case TT_FSKIP_FLAGS: f->sk.flags++; return 0;
    case TT_FSKIP_INVALID: f->sk.invalid++; return 0;
    case TT_FSKIP_OUTLIER: f->sk.outliers++; return 0;
    default: break;
    }
    if (rec->source == TT_FSRC_FRAMESTATS) {
        int oom = 0;
        if (seen_before(f, rec) || dd_seen(&f->dd, sid, rec->window_id, rec->iv_ns, &oom)) {
            f->sk.duplicates++;
            return 0;
        }
        if (oom)
            return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    }
    int m = f->o.model;
    if (!rec->vsync && m != TT_FMODEL_A2) {
        f->sk.non_frame_messages++;
        return 0;
    }
    if (rec->scene_len == 0 && (m == TT_FMODEL_A1 || m == TT_FMODEL_A2 || m == TT_FMODEL_B)) {
        f->sk.empty_scene++; /* Matrix ignores records without a scene (section 3) */
        return 0;
    }
    if (f->rp)
        return tt_frames__replay_add(f->rp, rec, sid, TT_VEC_AT(&f->scenes, scene, sid).name,
                                     file, err);
    if (native_add(f, rec, sid))
        return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    return 0;
}

int tt_frames_add_fps_report(tt_frames *f, const tt_fps_report *r, tt_error *err)
{
    if (f->o.model != TT_FMODEL_NATIVE && f->o.model != TT_FMODEL_REPORTS)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0,
                            "Matrix FPS reports are aggregates and cannot be replayed by "
                            "the %s model",
                            tt_fmodel_name(f->o.model));
    if (f->have_frames)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0,
                            "Matrix FPS reports cannot be mixed with per-frame records");
    f->o.model = TT_FMODEL_REPORTS;
    uint32_t sid;
    const char *s = r->scene ? r->scene : "";
    if (scene_intern(f, s, strlen(s), &sid))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    tt_fps_report *c = tt_vec_push(&f->reports, r);
    if (!c || !tt_vec_push(&f->report_sids, &sid))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    c->scene = TT_VEC_AT(&f->scenes, scene, sid).name;
    c->frames = 0;
    for (int i = 0; i < TT_DROP_LEVELS; i++)
        c->frames = tt__sat_add(c->frames, c->level_count[i]);
    return 0;
}

/* ---- native results (6.1-6.3) ---- */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* by window, then iv and input order: the frames of each window of a scene together */
static int cmp_window_frame(const void *a, const void *b)
{
    const tt_ui_frame *x = a, *y = b;
    if (x->window_id != y->window_id)
        return x->window_id < y->window_id ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static int cmp_frame(const void *a, const void *b)
{
    const tt_ui_frame *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Groups frames by scene (stable counting sort), then orders each scene by iv. */
static int sort_frames(tt_frames *f, size_t **first_out)
{
    size_t ns = f->scenes.len, n = f->frames.len;
    size_t *first = calloc(ns + 1, sizeof *first);
    tt_ui_frame *tmp = malloc(n ? n * sizeof *tmp : 1);
    if (!first || !tmp) {
        free(first);
        free(tmp);
        return TT_ENOMEM;
    }
    tt__hint_huge(tmp, n * sizeof *tmp);
    tt_ui_frame *fr = f->frames.data;
    for (size_t i = 0; i < n; i++)
        first[fr[i].scene_id + 1]++;
    for (size_t s = 0; s < ns; s++)
        first[s + 1] += first[s];
    size_t *pos = calloc(ns ? ns : 1, sizeof *pos);
    if (!pos) {
        free(first);
        free(tmp);
        return TT_ENOMEM;
    }
    memcpy(pos, first, ns * sizeof *pos);
    for (size_t i = 0; i < n; i++)
        tmp[pos[fr[i].scene_id]++] = fr[i];
    free(pos);
    /* the grouped copy becomes the vector (no copy back) */
    free(f->frames.data);
    f->frames.data = fr = tmp;
    f->frames.cap = n;
    for (size_t s = 0; s < ns; s++) {
        for (size_t i = first[s] + 1; i < first[s + 1]; i++) {
            if (fr[i].ts < fr[i - 1].ts) {
                qsort(fr + first[s], first[s + 1] - first[s], sizeof *fr, cmp_frame);
                break;
            }
        }
    }
    *first_out = first;
    return 0;
}

/* busy, d and level of each frame of one window (6.1). */
static void frame_derive_one(tt_frames *f, tt_ui_frame *fr, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t p = fr[i].interval_dur;
        int64_t busy = fr[i].dur > p ? fr[i].dur : p;
        if (i + 1 < n && fr[i + 1].ts - fr[i].ts < busy)
            busy = fr[i + 1].ts - fr[i].ts;
        fr[i].busy_dur = busy;
        /* vsync slots rounded half up, minus one: floor(busy / P + 1/2) - 1 */
        int64_t q = busy / p, r = busy % p;
        int64_t slots = q + (r >= p - r ? 1 : 0);
        int64_t d = slots > 0 ? slots - 1 : 0;
        if (f->o.scaled)
            d = u128_div(u128_mul((uint64_t)d, (uint64_t)p), P60_NS);
        fr[i].dropped = d;
        fr[i].level = (uint8_t)tt_level_of(d, f->o.levels);
    }
}

/* busy, d and level of each frame of one scene sorted by iv. The windows of one activity
 * (framestats of older releases: one scene, several ViewRootImpl) draw on the same vsyncs:
 * each frame's busy time ends at the next frame of its own window. */
static void frame_derive(tt_frames *f, tt_ui_frame *fr, size_t n)
{
    size_t i = 1;
    while (i < n && fr[i].window_id == fr[0].window_id)
        i++;
    if (i == n) {
        frame_derive_one(f, fr, n);
        return;
    }
    qsort(fr, n, sizeof *fr, cmp_window_frame);
    for (size_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && fr[b].window_id == fr[a].window_id; b++)
            ;
        frame_derive_one(f, fr + a, b - a);
    }
    qsort(fr, n, sizeof *fr, cmp_frame);
}

static void stats_add_frame(tt_frame_stats *st, const tt_ui_frame *fr)
{
    st->frames++;
    st->busy_ns = tt__sat_add(st->busy_ns, fr->busy_dur);
    st->dropped_sum = tt__sat_add(st->dropped_sum, fr->dropped);
    st->level_count[fr->level]++;
    st->level_sum[fr->level] = tt__sat_add(st->level_sum[fr->level], fr->dropped);
    st->jank += fr->is_jank;
    st->slow += fr->is_slow;
    st->frozen += fr->is_frozen;
}

static void stats_fps(tt_frame_stats *st)
{
    st->has_busy = st->has_flags = 1;
    st->has_fps = st->frames > 0 && st->busy_ns > 0;
    st->fps = st->has_fps ? (double)st->frames * 1e9 / (double)st->busy_ns : 0;
}

static void swap_i64(int64_t *a, int64_t *b)
{
    int64_t x = *a;
    *a = *b;
    *b = x;
}

/* Moves the k-th smallest of t[0..n) to t[k], with nothing larger before it and nothing
 * smaller after it: quickselect with a median-of-three pivot and a three-way partition
 * (runs of equal durations), falling back to a sort when the ranges stop shrinking, so it
 * stays O(n log n) on any input. */
static void select_k(int64_t *t, size_t n, size_t k)
{
    size_t lo = 0, hi = n;
    for (int budget = 128; hi - lo > 16; budget--) {
        if (budget == 0) {
            qsort(t + lo, hi - lo, sizeof *t, cmp_i64);
            return;
        }
        int64_t a = t[lo], b = t[lo + (hi - lo) / 2], c = t[hi - 1];
        int64_t pv = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            if (t[i] < pv)
                swap_i64(&t[lt++], &t[i++]);
            else if (t[i] > pv)
                swap_i64(&t[i], &t[--gt]);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return;
    }
    for (size_t i = lo + 1; i < hi; i++)
        for (size_t j = i; j > lo && t[j - 1] > t[j]; j--)
            swap_i64(&t[j - 1], &t[j]);
}

/* Nearest-rank percentiles, max and truncated mean of durations (6.2); t is reordered. */
static void stats_times(tt_frame_stats *st, int64_t *t, size_t n)
{
    if (n == 0)
        return;
    static const int pct[4] = {50, 90, 95, 99};
    int64_t *dst[4] = {&st->p50_ns, &st->p90_ns, &st->p95_ns, &st->p99_ns};
    size_t limit = n; /* t[0..limit) holds every duration ranked below the last selected */
    for (int k = 3; k >= 0; k--) {
        u128 r = u128_mul((uint64_t)pct[k], n);
        u128_add(&r, 99);
        int64_t rank = u128_div(r, 100);
        if (rank < 1)
            rank = 1;
        if ((size_t)rank > n)
            rank = (int64_t)n;
        size_t idx = (size_t)rank - 1;
        if (idx < limit) {
            select_k(t, limit, idx);
            limit = idx;
        }
        *dst[k] = t[idx];
    }
    u128 sum = {0, 0};
    int64_t max = t[0];
    for (size_t i = 0; i < n; i++) {
        u128_add(&sum, (uint64_t)t[i]);
        if (t[i] > max)
            max = t[i];
    }
    st->max_ns = max;
    st->mean_ns = u128_div(sum, n);
    st->has_times = 1;
}

static tt_frame_stats *series_push(tt_frames *f, const char *name, int64_t start)
{
    tt_frame_stats *w = tt_vec_push(&f->series, NULL);
    if (w) {
        w->scene = name;
        w->has_start = 1;
        w->start_ns = start;
    }
    return w;
}

/* Scene output order: chronological by first intended vsync, then by name; scenes
 * without frames last. Independent of the input order (shuffled streams). */
typedef struct scene_key {
    int empty;
    int64_t ts;
    const scene *sc;
    uint32_t id;
} scene_key;

static int cmp_scene(const void *a, const void *b)
{
    const scene_key *x = a, *y = b;
    if (x->empty != y->empty)
        return x->empty - y->empty;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    size_t n = x->sc->len < y->sc->len ? x->sc->len : y->sc->len;
    int c = memcmp(x->sc->name, y->sc->name, n);
    return c ? c : (x->sc->len > y->sc->len) - (x->sc->len < y->sc->len);
}

static int scene_order(const tt_frames *f, const size_t *first, uint32_t *order)
{
    size_t ns = f->scenes.len;
    const tt_ui_frame *fr = f->frames.data;
    scene_key *k = malloc(ns ? ns * sizeof *k : 1);
    if (!k)
        return TT_ENOMEM;
    for (size_t s = 0; s < ns; s++) {
        k[s].empty = first[s] == first[s + 1];
        k[s].ts = k[s].empty ? 0 : fr[first[s]].ts;
        k[s].sc = &TT_VEC_AT(&f->scenes, scene, s);
        k[s].id = (uint32_t)s;
    }
    qsort(k, ns, sizeof *k, cmp_scene);
    for (size_t s = 0; s < ns; s++)
        order[s] = k[s].id;
    free(k);
    return 0;
}

/* Series gaps (6.3): up to GAP_MAX empty windows between two windows with frames are
 * emitted; a longer gap (a soak run's idle hours between two dumps) is represented by its
 * first and last empty windows only, so the series stays as long as the data it holds.
 * When the gaps listed in full would take the series over SERIES_MAX (many scenes visited
 * in turn over a long time: every scene's series spans the whole run), the limit is lowered
 * for all series, down to 2, where each gap costs at most two windows. */
#define GAP_MAX 60u

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The windows with frames of one or more series and their gaps: hist[g] counts the gaps of
 * g empty windows (1 <= g <= GAP_MAX), hist[GAP_MAX + 1] the longer ones. */
typedef struct gap_hist {
    uint64_t data;
    uint64_t hist[GAP_MAX + 2];
} gap_hist;

/* Adds the sorted distinct window indices k[0..n) of one series to h. */
static void gaps_add(gap_hist *h, const uint64_t *k, size_t n)
{
    h->data += n;
    for (size_t i = 1; i < n; i++) {
        uint64_t g = k[i] - k[i - 1] - 1;
        if (g)
            h->hist[g <= GAP_MAX ? g : GAP_MAX + 1]++;
    }
}

/* Windows emitted when gaps of up to gap_max empty windows are listed in full. */
static uint64_t windows_emitted(const gap_hist *h, unsigned gap_max)
{
    uint64_t t = h->data;
    for (unsigned g = 1; g <= GAP_MAX + 1; g++)
        t += h->hist[g] * (g <= gap_max ? g : 2);
    return t;
}

/* Pushes the windows of k[0..n) and their gaps for name; at[i] receives the series index
 * of k[i]'s window. */
static void windows_push(tt_frames *f, const char *name, int64_t origin, int64_t w_ns,
                         const uint64_t *k, size_t n, unsigned gap_max, size_t *at)
{
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            uint64_t g = k[i] - k[i - 1] - 1;
            for (uint64_t x = k[i - 1] + 1; x < k[i]; x++) {
                if (g > gap_max && x == k[i - 1] + 2)
                    x = k[i] - 1; /* the gap's first and last windows */
                series_push(f, name, origin + (int64_t)x * w_ns);
            }
        }
        at[i] = f->series.len;
        series_push(f, name, origin + (int64_t)k[i] * w_ns);
    }
}

/* The distinct window indices of frames fr[0..n) sorted by iv, into k; returns their count. */
static size_t scene_windows(const tt_ui_frame *fr, size_t n, int64_t origin, int64_t w_ns,
                            uint64_t *k)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = (uint64_t)(fr[i].ts - origin) / (uint64_t)w_ns;
        if (!m || k[m - 1] != x)
            k[m++] = x;
    }
    return m;
}

/* Windows of W ms aligned at the smallest iv (6.3): "*" first, then each scene. */
static int build_series(tt_frames *f, const size_t *first, const uint32_t *order)
{
    const tt_ui_frame *fr = f->frames.data;
    size_t n = f->frames.len, ns = f->scenes.len;
    if (n == 0 || f->o.no_series)
        return 0;
    int64_t w_ns = f->o.window_ms > INT64_MAX / 1000000 ? INT64_MAX : f->o.window_ms * 1000000;
    int64_t origin = INT64_MAX;
    for (size_t s = 0; s < ns; s++)
        if (first[s] < first[s + 1] && fr[first[s]].ts < origin)
            origin = fr[first[s]].ts;
    /* kall: the windows of all frames (sorted, distinct); ks: one scene's */
    uint64_t *kall = malloc(n * sizeof *kall), *ks = malloc(n * sizeof *ks);
    size_t *at = malloc(n * sizeof *at), *ats = malloc(n * sizeof *ats);
    int rc = 0;
    if (!kall || !ks || !at || !ats) {
        rc = TT_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        kall[i] = (uint64_t)(fr[i].ts - origin) / (uint64_t)w_ns;
    qsort(kall, n, sizeof *kall, cmp_u64);
    size_t nall = 0;
    for (size_t i = 0; i < n; i++)
        if (!nall || kall[nall - 1] != kall[i])
            kall[nall++] = kall[i];
    gap_hist h = {0};
    gaps_add(&h, kall, nall);
    for (size_t s = 0; s < ns; s++)
        gaps_add(&h, ks, scene_windows(fr + first[s], first[s + 1] - first[s], origin, w_ns,
                                       ks));
    unsigned gap_max = GAP_MAX;
    while (gap_max > 2 && windows_emitted(&h, gap_max) > SERIES_MAX)
        gap_max--;
    uint64_t total = windows_emitted(&h, gap_max);
    if (total > SERIES_MAX) {
        f->series_need = total;
        rc = TT_ELIMIT;
        goto out;
    }
    if (tt_vec_reserve(&f->series, (size_t)total)) {
        rc = TT_ENOMEM;
        goto out;
    }
    windows_push(f, "*", origin, w_ns, kall, nall, gap_max, at);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = (uint64_t)(fr[i].ts - origin) / (uint64_t)w_ns;
        const uint64_t *p = bsearch(&x, kall, nall, sizeof *kall, cmp_u64);
        stats_add_frame(&TT_VEC_AT(&f->series, tt_frame_stats, at[p - kall]), &fr[i]);
    }
    for (size_t o = 0; o < ns; o++) {
        size_t s = order[o], a = first[s], cnt = first[s + 1] - first[s];
        if (!cnt)
            continue;
        size_t m = scene_windows(fr + a, cnt, origin, w_ns, ks);
        windows_push(f, TT_VEC_AT(&f->scenes, scene, s).name, origin, w_ns, ks, m, gap_max,
                     ats);
        for (size_t i = a, j = 0; i < a + cnt; i++) {
            uint64_t x = (uint64_t)(fr[i].ts - origin) / (uint64_t)w_ns;
            while (ks[j] != x)
                j++;
            stats_add_frame(&TT_VEC_AT(&f->series, tt_frame_stats, ats[j]), &fr[i]);
        }
    }
    for (size_t i = 0; i < f->series.len; i++)
        stats_fps(&TT_VEC_AT(&f->series, tt_frame_stats, i));
out:
    free(kall);
    free(ks);
    free(at);
    free(ats);
    return rc;
}

static int finish_native(tt_frames *f)
{
    size_t *first = NULL;
    int rc = sort_frames(f, &first);
    if (rc)
        return rc;
    size_t n = f->frames.len, ns = f->scenes.len;
    tt_ui_frame *fr = f->frames.data;
    int64_t *t = malloc(n ? n * sizeof *t : 1);
    uint32_t *order = malloc(ns ? ns * sizeof *order : 1);
    if (!t || !order || tt_vec_reserve(&f->stats, ns)) {
        free(first);
        free(t);
        free(order);
        return TT_ENOMEM;
    }
    for (size_t s = 0; s < ns; s++)
        if (first[s] < first[s + 1])
            frame_derive(f, fr + first[s], first[s + 1] - first[s]);
    if (scene_order(f, first, order)) {
        free(first);
        free(t);
        free(order);
        return TT_ENOMEM;
    }
    f->all.scene = "*";
    for (size_t o = 0; o < ns; o++) {
        size_t s = order[o];
        tt_frame_stats *st = tt_vec_push(&f->stats, NULL);
        st->scene = TT_VEC_AT(&f->scenes, scene, s).name;
        size_t a = first[s], cnt = first[s + 1] - first[s];
        for (size_t i = 0; i < cnt; i++) {
            stats_add_frame(st, &fr[a + i]);
            t[i] = fr[a + i].dur;
        }
        stats_times(st, t, cnt);
        stats_fps(st);
        f->all.frames += st->frames;
        f->all.busy_ns = tt__sat_add(f->all.busy_ns, st->busy_ns);
        f->all.dropped_sum = tt__sat_add(f->all.dropped_sum, st->dropped_sum);
        for (int l = 0; l < TT_DROP_LEVELS; l++) {
            f->all.level_count[l] += st->level_count[l];
            f->all.level_sum[l] = tt__sat_add(f->all.level_sum[l], st->level_sum[l]);
        }
        f->all.jank += st->jank;
        f->all.slow += st->slow;
        f->all.frozen += st->frozen;
    }
    for (size_t i = 0; i < n; i++)
        t[i] = fr[i].dur;
    stats_times(&f->all, t, n);
    stats_fps(&f->all);
    free(t);
    rc = build_series(f, first, order);
    free(first);
    free(order);
    return rc;
}

/* ---- reports model (7.1; aggregation in frames_report.c) ---- */

static int finish_reports(tt_frames *f)
{
    size_t ns = f->scenes.len;
    if (tt_vec_reserve(&f->stats, ns))
        return TT_ENOMEM;
    for (size_t s = 0; s < ns; s++)
        ((tt_frame_stats *)tt_vec_push(&f->stats, NULL))->scene =
            TT_VEC_AT(&f->scenes, scene, s).name;
    f->all.scene = "*";
    return tt_frames__report_stats(f->stats.data, ns, &f->all, &f->series, f->reports.data,
                                   f->report_sids.data, f->reports.len);
}

int tt_frames_finish(tt_frames *f, tt_error *err)
{
    if (f->finished)
        return 0;
    f->finished = 1;
    int rc = 0;
    if (f->o.model == TT_FMODEL_REPORTS)
        rc = finish_reports(f);
    else if (f->rp)
        rc = tt_frames__replay_unflushed(f->rp, &f->unflushed);
    else
        rc = finish_native(f);
    if (rc == TT_ELIMIT)
        return tt_error_set(err, rc, NULL, 0, 0,
                            "the time series would need %llu windows of %lld ms, more than "
                            "%u: windows holding frames (for all scenes and per scene) and "
                            "the first and last windows of the gaps between them; longer "
                            "windows make fewer",
                            (unsigned long long)f->series_need, (long long)f->o.window_ms,
                            SERIES_MAX);
    if (rc)
        return tt_error_set(err, rc, NULL, 0, 0, "out of memory");
    return 0;
}

/* ---- result accessors ---- */

int tt_frames_model(const tt_frames *f) { return f->o.model; }
const tt_frames_opts *tt_frames_options(const tt_frames *f) { return &f->o; }
size_t tt_frames_scene_count(const tt_frames *f) { return f->scenes.len; }

const char *tt_frames_scene_name(const tt_frames *f, uint32_t id)
{
    return id < f->scenes.len ? TT_VEC_AT(&f->scenes, scene, id).name : NULL;
}

const tt_frame_stats *tt_frames_scene_stats(const tt_frames *f, size_t i)
{
    return i < f->stats.len ? &TT_VEC_AT(&f->stats, tt_frame_stats, i) : NULL;
}

const tt_frame_stats *tt_frames_all_stats(const tt_frames *f) { return &f->all; }
size_t tt_frames_series_count(const tt_frames *f) { return f->series.len; }

const tt_frame_stats *tt_frames_series_get(const tt_frames *f, size_t i)
{
    return i < f->series.len ? &TT_VEC_AT(&f->series, tt_frame_stats, i) : NULL;
}

size_t tt_frames_frame_count(const tt_frames *f) { return f->rp ? 0 : f->frames.len; }

const tt_frame_fm *tt_frames_frame_fm(const tt_frames *f, const tt_ui_frame *fr)
{
    return fr->fm_id && fr->fm_id <= f->fmv.len ? &TT_VEC_AT(&f->fmv, tt_frame_fm, fr->fm_id - 1)
                                                : NULL;
}

const tt_ui_frame *tt_frames_frame_get(const tt_frames *f, size_t i)
{
    return i < f->frames.len ? &TT_VEC_AT(&f->frames, tt_ui_frame, i) : NULL;
}

const tt_frames_skipped *tt_frames_skipped_get(const tt_frames *f) { return &f->sk; }
int tt_frames_jank_fallback(const tt_frames *f) { return f->jank_fallback; }

size_t tt_frames_report_count(const tt_frames *f)
{
    size_t n = 0;
    if (f->rp)
        tt_frames__replay_reports(f->rp, &n);
    return n;
}

const tt_fps_report *tt_frames_report_get(const tt_frames *f, size_t i)
{
    size_t n = 0;
    const tt_fps_report *r = f->rp ? tt_frames__replay_reports(f->rp, &n) : NULL;
    return i < n ? &r[i] : NULL;
}

size_t tt_frames_unflushed_count(const tt_frames *f) { return f->unflushed.len; }

void tt_frames_unflushed_get(const tt_frames *f, size_t i, uint32_t *scene_id, int64_t *frames)
{
    const tt_frames__unflushed *u = &TT_VEC_AT(&f->unflushed, tt_frames__unflushed, i);
    *scene_id = u->scene_id;
    *frames = u->frames;
}
