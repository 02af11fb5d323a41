/* Frames (spec/frames.md): every worked example of sections 5, 6.4 and 9, levels,
 * percentiles, series, the JSON-lines and framestats readers, Matrix FPS reports. */
#include "unit.h"
#include "../../libtrace/tt_int.h"

#include <math.h>

#define P60 16666667LL
#define MS 1000000LL

static tt_frame_rec rec(const char *scene, int64_t start, int64_t end)
{
    tt_frame_rec r;
    memset(&r, 0, sizeof r);
    r.vsync = 1;
    r.ui_ns = -1;
    r.scene = scene;
    r.scene_len = strlen(scene);
    r.start_ns = r.iv_ns = start;
    r.end_ns = end;
    return r;
}

static tt_frames *mk(int model)
{
    tt_frames_opts o = {0};
    o.model = model;
    tt_frames *f = NULL;
    ck_assert_int_eq(tt_frames_new(&f, &o, NULL), 0);
    return f;
}

static void add(tt_frames *f, const tt_frame_rec *r)
{
    tt_error err;
    ck_assert_msg(tt_frames_add(f, r, "t", &err) == 0, "%s", err.msg);
}

static tt_frame_rec pause_rec(int64_t ts)
{
    tt_frame_rec r = rec("", 0, 0);
    r.type = TT_FREC_PAUSE;
    r.ts_ns = ts;
    return r;
}

/* ---- section 2 and 5 ---- */

START_TEST(levels)
{
    const int32_t t[4] = {3, 9, 24, 42};
    ck_assert_int_eq(tt_level_of(-5, t), TT_DROP_BEST);
    ck_assert_int_eq(tt_level_of(2, t), TT_DROP_BEST);
    ck_assert_int_eq(tt_level_of(3, t), TT_DROP_NORMAL);
    ck_assert_int_eq(tt_level_of(8, t), TT_DROP_NORMAL);
    ck_assert_int_eq(tt_level_of(9, t), TT_DROP_MIDDLE);
    ck_assert_int_eq(tt_level_of(24, t), TT_DROP_HIGH);
    ck_assert_int_eq(tt_level_of(41, t), TT_DROP_HIGH);
    ck_assert_int_eq(tt_level_of(42, t), TT_DROP_FROZEN);
}
END_TEST

/* 120 Hz: d = 9 -> d60 = 4 NORMAL (scaled) vs MIDDLE; d = 50 -> 24 HIGH vs FROZEN. */
static void scaled_case(int scaled, int64_t slots, int level, int64_t d)
{
    tt_frames_opts o = {0};
    o.scaled = scaled;
    tt_frames *f = NULL;
    ck_assert_int_eq(tt_frames_new(&f, &o, NULL), 0);
    tt_frame_rec r = rec("s", 1000 * MS, 1000 * MS + slots * 8333333);
    r.interval_ns = 8333333;
    add(f, &r);
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    const tt_ui_frame *fr = tt_frames_frame_get(f, 0);
    ck_assert_int_eq(fr->dropped, d);
    ck_assert_int_eq(fr->level, level);
    ck_assert_int_eq(tt_frames_all_stats(f)->level_sum[level], d);
    tt_frames_free(f);
}

START_TEST(scaled_levels)
{
    scaled_case(0, 10, TT_DROP_MIDDLE, 9);
    scaled_case(1, 10, TT_DROP_NORMAL, 4);
    scaled_case(0, 51, TT_DROP_FROZEN, 50);
    scaled_case(1, 51, TT_DROP_HIGH, 24);
}
END_TEST

/* ---- section 9: Matrix replays ---- */

START_TEST(a1_example)
{
    tt_frames *f = mk(TT_FMODEL_A1);
    int64_t t = 5000 * MS;
    for (int i = 0; i < 400; i++, t += 20 * MS) {
        tt_frame_rec r = rec("com.app.Feed", t, t + 20 * MS);
        add(f, &r);
        if (i == 302)
            ck_assert_uint_eq(tt_frames_report_count(f), 0);
    }
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    ck_assert_uint_eq(tt_frames_report_count(f), 1);
    const tt_fps_report *r = tt_frames_report_get(f, 0);
    ck_assert_int_eq(r->frames, 304);
    ck_assert(r->fps == 30.303030014038086);
    ck_assert_int_eq(r->level_count[TT_DROP_BEST], 304);
    ck_assert_int_eq(r->level_sum[TT_DROP_BEST], 304);
    ck_assert_int_eq(r->generation, TT_FGEN_A1);
    /* 96 frames stay in the new item, never reported */
    ck_assert_uint_eq(tt_frames_unflushed_count(f), 1);
    uint32_t sid;
    int64_t n;
    tt_frames_unflushed_get(f, 0, &sid, &n);
    ck_assert_int_eq(n, 96);
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_fps_report_write(&w, r);
    ck_assert_str_eq(w.buf.data,
                     "{\"scene\":\"com.app.Feed\",\"dropLevel\":{\"DROPPED_FROZEN\":0,"
                     "\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,"
                     "\"DROPPED_BEST\":304},\"dropSum\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,"
                     "\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":304},"
                     "\"fps\":30.303030014038086}");
    tt_jsonw_free(&w);
    tt_frames_free(f);
}
END_TEST

START_TEST(a2_example)
{
    tt_frames *f = mk(TT_FMODEL_A2);
    int64_t t = 5000 * MS;
    for (int i = 0; i < 600; i++) {
        int frame = i % 3 == 0;
        int64_t dur = frame ? 20 * MS : 2 * MS;
        tt_frame_rec r = rec("com.app.Feed", t, t + dur);
        r.vsync = frame;
        add(f, &r);
        t += dur;
        if (i == 460)
            ck_assert_uint_eq(tt_frames_report_count(f), 0);
        if (i == 461)
            ck_assert_uint_eq(tt_frames_report_count(f), 1);
    }
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    const tt_fps_report *r = tt_frames_report_get(f, 0);
    ck_assert_int_eq(r->frames, 462);
    ck_assert(r->fps == 46.153846740722656);
    ck_assert_int_eq(r->level_count[TT_DROP_BEST], 462);
    ck_assert_int_eq(r->level_sum[TT_DROP_BEST], 154);
    ck_assert_int_eq(r->drop_task_frame_sum, 0);
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_fps_report_write(&w, r);
    ck_assert_ptr_nonnull(strstr(w.buf.data, "\"fps\":46.153846740722656,\"dropTaskFrameSum\":0}"));
    tt_jsonw_free(&w);
    tt_frames_free(f);
}
END_TEST

static void b_run(int64_t interval, int from_interval)
{
    tt_frames *f = mk(TT_FMODEL_B);
    int64_t t = 1000 * MS;
    int n = 0;
    int64_t drops[700];
    for (int i = 0; i < 400; i++)
        drops[n++] = 0;
    for (int i = 0; i < 10; i++)
        drops[n++] = 5;
    for (int i = 0; i < 5; i++)
        drops[n++] = 30;
    drops[n++] = 50;
    while (n < 700)
        drops[n++] = 0;
    for (int i = 0; i < 700; i++) {
        tt_frame_rec r = rec("com.app.Feed", t, t + drops[i] * interval + 3 * MS);
        if (from_interval)
            r.interval_ns = interval;
        add(f, &r);
        if (i == 414)
            ck_assert_uint_eq(tt_frames_report_count(f), 0);
        if (i == 415)
            ck_assert_uint_eq(tt_frames_report_count(f), 1);
        t += (drops[i] + 1) * interval;
    }
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    const tt_fps_report *r = tt_frames_report_get(f, 0);
    ck_assert_int_eq(r->frames, 416);
    ck_assert(r->fps == 38.41181945800781);
    static const int64_t lc[5] = {400, 10, 0, 5, 1}, ls[5] = {0, 50, 0, 150, 50};
    for (int l = 0; l < 5; l++) {
        ck_assert_int_eq(r->level_count[l], lc[l]);
        ck_assert_int_eq(r->level_sum[l], ls[l]);
    }
    tt_frames_free(f);
}

START_TEST(b_example)
{
    b_run(16666667, 0);
    b_run(16666666, 1);
    b_run(16666667, 1);
}
END_TEST

START_TEST(b_perfect_and_cap)
{
    for (int cap0 = 0; cap0 <= 1; cap0++) {
        tt_frames_opts o = {0};
        o.model = TT_FMODEL_B;
        o.b_cap_zero = cap0;
        tt_frames *f = NULL;
        ck_assert_int_eq(tt_frames_new(&f, &o, NULL), 0);
        int64_t t = 1000 * MS;
        for (int i = 0; i < 625; i++, t += P60) {
            tt_frame_rec r = rec("s", t, t + 5 * MS);
            add(f, &r);
            if (i == 623)
                ck_assert_uint_eq(tt_frames_report_count(f), 0);
        }
        ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
        ck_assert_uint_eq(tt_frames_report_count(f), 1);
        ck_assert(tt_frames_report_get(f, 0)->fps == (cap0 ? 0.0 : 60.0));
        tt_frames_free(f);
    }
}
END_TEST

START_TEST(b_frame_metrics_path)
{
    tt_frames_opts o = {0};
    o.model = TT_FMODEL_B;
    o.b_frame_metrics = 1;
    tt_frames *f = NULL;
    ck_assert_int_eq(tt_frames_new(&f, &o, NULL), 0);
    /* only the start delay counts: 50 ms frames that start on time report the cap */
    int64_t t = 1000 * MS;
    for (int i = 0; i < 1000; i++, t += 50 * MS) {
        tt_frame_rec r = rec("s", t, t + 50 * MS);
        r.vsync_ns = t + 1000;
        r.has_vsync_ns = 1;
        r.refresh_hz = 90;
        add(f, &r);
    }
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    ck_assert_uint_ge(tt_frames_report_count(f), 1);
    ck_assert(tt_frames_report_get(f, 0)->fps == 90.0);
    tt_frames_free(f);
    ck_assert_int_eq(tt_frames_new(&f, &o, NULL), 0);
    tt_frame_rec r = rec("s", t, t + 50 * MS);
    r.line = 7;
    tt_error err;
    ck_assert_int_eq(tt_frames_add(f, &r, "x.jsonl", &err), TT_EFORMAT);
    ck_assert_uint_eq(err.loc, 7);
    tt_frames_free(f);
}
END_TEST

static tt_frames *c_run(double hz, int n1, int64_t d1, int n2, int64_t d2, int do_pause)
{
    tt_frames *f = mk(TT_FMODEL_C);
    int64_t t = 1000 * MS;
    for (int i = 0; i < n1 + n2; i++, t += 8 * MS) {
        int64_t d = i < n1 ? d1 : d2;
        tt_frame_rec r = rec("com.app.Feed", t, t + d);
        r.refresh_hz = hz;
        r.fm[TT_FM_TOTAL] = d;
        r.fm_mask = 1u << TT_FM_TOTAL;
        add(f, &r);
    }
    if (do_pause) {
        tt_frame_rec p = pause_rec(t);
        add(f, &p);
    }
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    return f;
}

START_TEST(c_example_60)
{
    tt_frames *f = c_run(60, 590, 10 * MS, 10, 50 * MS, 1);
    ck_assert_uint_eq(tt_frames_report_count(f), 1);
    const tt_fps_report *r = tt_frames_report_get(f, 0);
    ck_assert(r->fps == 58.06464385986328);
    ck_assert_int_eq(r->level_count[TT_DROP_BEST], 600);
    ck_assert_int_eq(r->level_sum[TT_DROP_BEST], 20);
    ck_assert_int_eq(r->fm_avg[TT_FM_TOTAL], 10666666);
    ck_assert_int_eq(r->drop_count, 0);
    ck_assert_int_eq(r->refresh_rate, 60);
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_fps_report_write(&w, r);
    ck_assert_str_eq(w.buf.data,
                     "{\"scene\":\"com.app.Feed\",\"dropLevel\":{\"DROPPED_BEST\":600,"
                     "\"DROPPED_NORMAL\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_HIGH\":0,"
                     "\"DROPPED_FROZEN\":0},\"dropSum\":{\"DROPPED_BEST\":20,\"DROPPED_NORMAL\":0,"
                     "\"DROPPED_MIDDLE\":0,\"DROPPED_HIGH\":0,\"DROPPED_FROZEN\":0},"
                     "\"fps\":58.06464385986328,\"TOTAL_DURATION\":10666666,\"DROP_COUNT\":0,"
                     "\"REFRESH_RATE\":60}");
    tt_jsonw_free(&w);
    tt_frames_free(f);
}
END_TEST

START_TEST(c_example_120)
{
    tt_frames *f = c_run(120, 1190, 8 * MS, 10, 30 * MS, 1);
    ck_assert_uint_eq(tt_frames_report_count(f), 1);
    const tt_fps_report *r = tt_frames_report_get(f, 0);
    ck_assert(r->fps == 117.45538330078125);
    ck_assert_int_eq(r->level_count[TT_DROP_BEST], 1190);
    ck_assert_int_eq(r->level_sum[TT_DROP_BEST], 0);
    ck_assert_int_eq(r->level_count[TT_DROP_NORMAL], 10);
    ck_assert_int_eq(r->level_sum[TT_DROP_NORMAL], 30);
    ck_assert_int_eq(r->drop_count, 0);
    ck_assert_int_eq(r->refresh_rate, 120);
    tt_frames_free(f);
}
END_TEST

START_TEST(c_count_must_exceed_20)
{
    tt_frames *f = c_run(60, 20, 10 * MS, 0, 0, 1);
    ck_assert_uint_eq(tt_frames_report_count(f), 0);
    ck_assert_uint_eq(tt_frames_unflushed_count(f), 0); /* reset after the pause */
    tt_frames_free(f);
    f = c_run(60, 21, 10 * MS, 0, 0, 1);
    ck_assert_uint_eq(tt_frames_report_count(f), 1);
    tt_frames_free(f);
    /* no pause: the window is left unflushed */
    f = c_run(60, 30, 10 * MS, 0, 0, 0);
    ck_assert_uint_eq(tt_frames_report_count(f), 0);
    ck_assert_uint_eq(tt_frames_unflushed_count(f), 1);
    tt_frames_free(f);
}
END_TEST

START_TEST(c_time_budget)
{
    /* frames 100 ms apart: the 10 s budget flushes at the 101st frame */
    tt_frames *f = mk(TT_FMODEL_C);
    int64_t t = 1000 * MS;
    for (int i = 0; i < 150; i++, t += 100 * MS) {
        tt_frame_rec r = rec("a", t, t + 5 * MS);
        add(f, &r);
        if (i == 99)
            ck_assert_uint_eq(tt_frames_report_count(f), 0);
        if (i == 100)
            ck_assert_uint_eq(tt_frames_report_count(f), 1);
    }
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    ck_assert_int_eq(tt_frames_report_get(f, 0)->frames, 101);
    tt_frames_free(f);
}
END_TEST

/* ---- section 6.4: native model ---- */

static const tt_frame_stats *native_one(tt_frames **fo, int kind)
{
    tt_frames *f = mk(TT_FMODEL_NATIVE);
    int64_t iv = 1000 * MS;
    if (kind == 0) { /* mixed */
        for (int i = 0; i < 600; i++) {
            int lng = i % 60 == 30;
            tt_frame_rec r = rec("com.app.Feed", iv, iv + (lng ? 50 : 10) * MS);
            add(f, &r);
            iv += lng ? 3 * P60 : P60;
        }
    } else if (kind == 1) { /* pipelined */
        for (int i = 0; i < 600; i++, iv += P60) {
            tt_frame_rec r = rec("com.app.Feed", iv, iv + 20 * MS);
            add(f, &r);
        }
    } else { /* idle gap */
        for (int i = 0; i < 200; i++) {
            tt_frame_rec r = rec("com.app.Feed", iv, iv + 5 * MS);
            add(f, &r);
            iv += i == 99 ? 5000 * MS : P60;
        }
    }
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    *fo = f;
    return tt_frames_scene_stats(f, 0);
}

START_TEST(native_mixed)
{
    tt_frames *f;
    const tt_frame_stats *s = native_one(&f, 0);
    ck_assert_int_eq(s->frames, 600);
    ck_assert_int_eq(s->busy_ns, 10333333530LL);
    ck_assert(fabs(s->fps - 58.0645) < 0.0001);
    ck_assert_int_eq(s->level_count[TT_DROP_BEST], 600);
    ck_assert_int_eq(s->level_sum[TT_DROP_BEST], 20);
    ck_assert_int_eq(s->dropped_sum, 20);
    ck_assert_int_eq(s->jank, 10);
    ck_assert_int_eq(s->slow, 10);
    ck_assert_int_eq(s->frozen, 0);
    ck_assert_int_eq(s->p50_ns, 10 * MS);
    ck_assert_int_eq(s->p90_ns, 10 * MS);
    ck_assert_int_eq(s->p95_ns, 10 * MS);
    ck_assert_int_eq(s->p99_ns, 50 * MS);
    ck_assert_int_eq(s->max_ns, 50 * MS);
    ck_assert_int_eq(s->mean_ns, 10666666);
    const tt_frame_stats *a = tt_frames_all_stats(f);
    ck_assert_str_eq(a->scene, "*");
    ck_assert_int_eq(a->busy_ns, s->busy_ns);
    ck_assert(a->fps == s->fps);
    tt_frames_free(f);
}
END_TEST

START_TEST(native_pipelined)
{
    tt_frames *f;
    const tt_frame_stats *s = native_one(&f, 1);
    ck_assert_int_eq(s->busy_ns, 599 * P60 + 20 * MS);
    ck_assert(fabs(s->fps - 59.98) < 0.005);
    ck_assert_int_eq(s->dropped_sum, 0);
    ck_assert_int_eq(s->jank, 0);
    ck_assert_int_eq(s->slow, 600);
    tt_frames_free(f);
}
END_TEST

START_TEST(native_idle_gap)
{
    tt_frames *f;
    const tt_frame_stats *s = native_one(&f, 2);
    ck_assert_int_eq(s->busy_ns, 200 * P60);
    ck_assert(fabs(s->fps - 60.0) < 0.0005);
    tt_frames_free(f);
}
END_TEST

START_TEST(native_c_agrees_on_mixed)
{
    /* 6.4: generation c on the mixed frames gives 58.06464385986328 too */
    tt_frames *f = c_run(60, 590, 10 * MS, 10, 50 * MS, 1);
    ck_assert(tt_frames_report_get(f, 0)->fps == 58.06464385986328);
    tt_frames_free(f);
}
END_TEST

START_TEST(percentiles_nearest_rank)
{
    tt_frames *f = mk(TT_FMODEL_NATIVE);
    /* shuffled input: 10 frames of 1..10 ms, each due far apart */
    static const int ms[10] = {7, 3, 10, 1, 9, 2, 8, 5, 4, 6};
    for (int i = 0; i < 10; i++) {
        int64_t iv = (10 - i) * 1000 * MS; /* reverse order of iv */
        tt_frame_rec r = rec("s", iv, iv + ms[i] * MS);
        add(f, &r);
    }
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    const tt_frame_stats *s = tt_frames_scene_stats(f, 0);
    ck_assert_int_eq(s->p50_ns, 5 * MS);  /* rank (500 + 99) / 100 = 5 */
    ck_assert_int_eq(s->p90_ns, 9 * MS);  /* rank 9 */
    ck_assert_int_eq(s->p95_ns, 10 * MS); /* rank 10 */
    ck_assert_int_eq(s->p99_ns, 10 * MS);
    ck_assert_int_eq(s->mean_ns, 5500000);
    /* frames come back sorted by intended vsync */
    ck_assert_int_lt(tt_frames_frame_get(f, 0)->ts, tt_frames_frame_get(f, 1)->ts);
    tt_frames_free(f);
}
END_TEST

START_TEST(series_windows)
{
    tt_frames_opts o = {0};
    o.window_ms = 100;
    tt_frames *f = NULL;
    ck_assert_int_eq(tt_frames_new(&f, &o, NULL), 0);
    tt_frame_rec r = rec("a", 1000 * MS, 1005 * MS);
    add(f, &r);
    r = rec("b", 1050 * MS, 1055 * MS);
    add(f, &r);
    r = rec("a", 1250 * MS, 1300 * MS); /* window 2; window 1 of "a" is empty */
    add(f, &r);
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    /* "*": windows 0..2; a: 0..2; b: 0 */
    ck_assert_uint_eq(tt_frames_series_count(f), 7);
    const tt_frame_stats *w = tt_frames_series_get(f, 0);
    ck_assert_str_eq(w->scene, "*");
    ck_assert_int_eq(w->start_ns, 1000 * MS);
    ck_assert_int_eq(w->frames, 2);
    w = tt_frames_series_get(f, 1);
    ck_assert_int_eq(w->frames, 0);
    ck_assert_int_eq(w->has_fps, 0);
    w = tt_frames_series_get(f, 4);
    ck_assert_str_eq(w->scene, "a");
    ck_assert_int_eq(w->start_ns, 1100 * MS);
    ck_assert_int_eq(w->frames, 0);
    w = tt_frames_series_get(f, 5);
    ck_assert_int_eq(w->frames, 1);
    ck_assert_int_eq(w->busy_ns, 50 * MS);
    w = tt_frames_series_get(f, 6);
    ck_assert_str_eq(w->scene, "b");
    ck_assert_int_eq(w->start_ns, 1000 * MS);
    tt_frames_free(f);
}
END_TEST

START_TEST(jank_deadline_and_ui)
{
    tt_frames_opts o = {0};
    o.jank_ui = 1;
    tt_frames *f = NULL;
    ck_assert_int_eq(tt_frames_new(&f, &o, NULL), 0);
    /* T 40 ms, UI 10 ms: not janky on the UI basis */
    tt_frame_rec r = rec("s", 1000 * MS, 1040 * MS);
    r.ui_ns = 10 * MS;
    add(f, &r);
    /* deadline 30 ms: UI 50 ms is not > 60 ms */
    r = rec("s", 2000 * MS, 2050 * MS);
    r.ui_ns = 50 * MS;
    r.fm[TT_FM_DEADLINE] = 30 * MS;
    r.fm_mask = 1u << TT_FM_DEADLINE;
    add(f, &r);
    ck_assert_int_eq(tt_frames_jank_fallback(f), 0);
    r = rec("s", 3000 * MS, 3040 * MS); /* no UI duration: falls back to T */
    add(f, &r);
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    ck_assert_int_eq(tt_frames_jank_fallback(f), 1);
    ck_assert_int_eq(tt_frames_scene_stats(f, 0)->jank, 1);
    ck_assert_int_eq(tt_frames_frame_get(f, 1)->expected_dur, 30 * MS);
    tt_frames_free(f);
}
END_TEST

/* ---- readers (7.2, 7.3) ---- */

static int read_all(const char *name, const char *s, tt_frames *f, int *kind, tt_error *err)
{
    tt_input *in = unit_mem(name, s, strlen(s));
    tt_frames_reader *r = NULL;
    int rc = tt_frames_reader_new(&r, in, TT_FIN_UNKNOWN, err);
    if (!rc) {
        *kind = tt_frames_reader_kind(r);
        tt_frame_rec rec_;
        while ((rc = tt_frames_reader_next(r, &rec_, err)) == 0)
            if (f && (rc = tt_frames_add(f, &rec_, name, err)))
                break;
        if (rc == TT_DONE)
            rc = 0;
    }
    tt_frames_reader_free(r);
    tt_input_close(in);
    return rc;
}

static const char fs_example[] =
    "---PROFILEDATA---\n"
    "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,HandleInputStart,"
    "AnimationStart,PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,"
    "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,\n"
    "0,1000000000,1000000000,9223372036854775807,0,1000500000,1000600000,1000700000,"
    "1002000000,1003000000,1003100000,1004000000,1008000000,1010000000,\n"
    "1,1016666667,1016666667,9223372036854775807,0,1017000000,1017100000,1017200000,"
    "1040000000,1041000000,1041100000,1042000000,1050000000,1060000000,\n"
    "---PROFILEDATA---\n";

START_TEST(framestats_example)
{
    tt_input *in = unit_mem("gfx.txt", fs_example, strlen(fs_example));
    tt_frames_reader *r;
    ck_assert_int_eq(tt_frames_reader_new(&r, in, TT_FIN_UNKNOWN, NULL), 0);
    ck_assert_int_eq(tt_frames_reader_kind(r), TT_FIN_FRAMESTATS);
    tt_frame_rec a;
    ck_assert_int_eq(tt_frames_reader_next(r, &a, NULL), 0);
    ck_assert_int_eq(a.skip, TT_FSKIP_NONE);
    ck_assert_int_eq(a.fm[TT_FM_TOTAL], 10 * MS);
    ck_assert_int_eq(a.ui_ns, 3900000);
    ck_assert_int_eq(a.fm[TT_FM_DRAW], 1 * MS);
    ck_assert_int_eq(a.line, 3);
    ck_assert_int_eq(a.has_vsync_id, 0);
    ck_assert(a.scene_len == 7 && !memcmp(a.scene, "unknown", 7));
    ck_assert_int_eq(tt_frames_reader_next(r, &a, NULL), 0);
    ck_assert_int_eq(a.skip, TT_FSKIP_FLAGS);
    ck_assert_int_eq(tt_frames_reader_next(r, &a, NULL), TT_DONE);
    tt_frames_reader_free(r);
    tt_input_close(in);
}
END_TEST

START_TEST(framestats_scenes_dedupe)
{
    const char *s =
        "Applications Graphics Acceleration Info:\n"
        "** Graphics info for pid 1 [com.app] **\n"
        "\tcom.app/com.app.Main/android.view.ViewRootImpl@5a7ef0b (visibility=0)\n"
        "---PROFILEDATA---\n"
        "Flags, IntendedVsync, FrameCompleted, FrameInterval\n"
        "0, 1000, 2000, 8333333\n"
        "0, 3000, 2000, 0\n"
        "0, 0, 2000, 0\n"
        "---PROFILEDATA---\n"
        "Window: com.app/com.app.Other\n"
        "---PROFILEDATA---\n"
        "Flags,FrameCompleted,IntendedVsync,\n"
        "0,2000,1000,\n"
        "---PROFILEDATA---\n"
        "---PROFILEDATA---\n"
        "Flags,FrameCompleted,IntendedVsync,\n"
        "0,2000,1000,\n"
        "0,9000,5000,\n"
        "---PROFILEDATA---\n";
    tt_frames *f = mk(TT_FMODEL_NATIVE);
    int kind;
    tt_error err;
    ck_assert_msg(read_all("d.txt", s, f, &kind, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(kind, TT_FIN_FRAMESTATS);
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    ck_assert_uint_eq(tt_frames_scene_count(f), 2);
    ck_assert_str_eq(tt_frames_scene_name(f, 0), "com.app/com.app.Main");
    ck_assert_str_eq(tt_frames_scene_name(f, 1), "com.app/com.app.Other");
    ck_assert_int_eq(tt_frames_scene_stats(f, 1)->frames, 2);
    ck_assert_int_eq(tt_frames_skipped_get(f)->invalid, 2);
    ck_assert_int_eq(tt_frames_skipped_get(f)->duplicates, 1);
    ck_assert_int_eq(tt_frames_frame_get(f, 0)->interval_dur, 8333333);
    ck_assert_int_eq(tt_frames_frame_get(f, 0)->has_vsync_id, 0);
    tt_frames_free(f);
}
END_TEST

START_TEST(framestats_android12)
{
    /* Android 12 order (FrameStartTime/FrameInterval swapped vs the docs), extra columns */
    const char *s =
        "Window: com.app/com.app.Main\n"
        "---PROFILEDATA---\n"
        "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart,"
        "AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,FrameInterval,"
        "FrameStartTime,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,FrameCompleted,"
        "DequeueBufferDuration,QueueBufferDuration,GpuCompleted,SwapBuffersCompleted,"
        "DisplayPresentTime,WorkloadTarget,\n"
        "0,77,1000000000,1000100000,0,1000500000,1000600000,1000700000,1002000000,1030000000,"
        "11111111,1000100000,1003000000,1003100000,1004000000,1008000000,1040000000,1,2,"
        "1039000000,1009000000,1050000000,0,\n"
        "---PROFILEDATA---\n";
    tt_input *in = unit_mem("a12.txt", s, strlen(s));
    tt_frames_reader *r;
    ck_assert_int_eq(tt_frames_reader_new(&r, in, TT_FIN_UNKNOWN, NULL), 0);
    tt_frame_rec a;
    ck_assert_int_eq(tt_frames_reader_next(r, &a, NULL), 0);
    ck_assert(a.scene_len == 20 && !memcmp(a.scene, "com.app/com.app.Main", 20));
    ck_assert_int_eq(a.interval_ns, 11111111);
    ck_assert_int_eq(a.fm[TT_FM_DEADLINE], 30 * MS);
    ck_assert_int_eq(a.fm[TT_FM_TOTAL], 40 * MS);
    ck_assert_int_eq(a.fm[TT_FM_SWAP_BUFFERS], 1 * MS); /* to SwapBuffersCompleted */
    ck_assert_int_eq(a.vsync_ns, 1000100000);
    ck_assert_int_eq(a.has_vsync_id, 1);
    ck_assert_int_eq(a.vsync_id, 77);
    ck_assert_int_eq(a.ui_ns, 3900000);
    ck_assert_int_eq(tt_frames_reader_next(r, &a, NULL), TT_DONE);
    tt_frames_reader_free(r);
    tt_input_close(in);
}
END_TEST

static void expect_err(const char *s, uint64_t line, const char *msg)
{
    tt_frames *f = mk(TT_FMODEL_NATIVE);
    int kind;
    tt_error err;
    memset(&err, 0, sizeof err);
    ck_assert_int_ne(read_all("bad", s, f, &kind, &err), 0);
    ck_assert_uint_eq(err.loc, line);
    ck_assert_msg(strstr(err.msg, msg) != NULL, "message \"%s\" lacks \"%s\"", err.msg, msg);
    tt_frames_free(f);
}

START_TEST(framestats_errors)
{
    expect_err("x\n---PROFILEDATA---\nFlags,Vsync,FrameCompleted\n", 3,
               "no IntendedVsync column");
    expect_err("---PROFILEDATA---\nIntendedVsync,FrameCompleted\n", 2,
               "header starting with \"Flags,\"");
    expect_err("---PROFILEDATA---\nFlags,IntendedVsync,FrameCompleted,\n0,1,2,3,\n", 3,
               "row has 4 fields, the header has 3");
    expect_err("---PROFILEDATA---\nFlags,IntendedVsync,FrameCompleted,\n0,1x,2,\n", 3,
               "expected a 64-bit integer, found \"1x\"");
    expect_err("Applications Graphics Acceleration Info:\nnothing\n", 0,
               "no framestats data");
}
END_TEST

START_TEST(jsonl_example)
{
    const char *s =
        "{\"scene\":\"com.app.Feed\",\"start_ns\":5000000000,\"end_ns\":5012000000,"
        "\"intended_vsync_ns\":5000000000,\"refresh_hz\":60}\n"
        "{\"scene\":\"com.app.Feed\",\"start_ns\":5016666667,\"end_ns\":5070000000,"
        "\"frame_metrics\":{\"TOTAL_DURATION\":53333333,\"DRAW_DURATION\":41000000}}\n"
        "\n"
        "{\"scene\":\"com.app.Feed\",\"start_ns\":5071000000,\"end_ns\":5073000000,"
        "\"vsync\":false}\n"
        "{\"type\":\"pause\",\"ts_ns\":6000000000}\n"
        "{\"scene\":\"x\",\"start_ns\":1,\"end_ns\":2,\"frame_metrics\":{\"DRAW_DURATION\":-1}}\n";
    tt_frames *f = mk(TT_FMODEL_NATIVE);
    int kind;
    tt_error err;
    ck_assert_msg(read_all("f.jsonl", s, f, &kind, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(kind, TT_FIN_JSONL);
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    const tt_frame_stats *st = tt_frames_scene_stats(f, 0);
    ck_assert_int_eq(st->frames, 2);
    ck_assert_int_eq(st->max_ns, 53333333);
    /* second frame: busy 53.3 ms = 3.2 slots -> d = 2 */
    ck_assert_int_eq(tt_frames_frame_get(f, 1)->dropped, 2);
    ck_assert_int_eq(tt_frames_skipped_get(f)->non_frame_messages, 1);
    ck_assert_int_eq(tt_frames_skipped_get(f)->outliers, 1);
    tt_frames_free(f);
}
END_TEST

START_TEST(jsonl_errors)
{
    expect_err("{\"start_ns\":1,\"end_ns\":2}\n{\"start_ns\":1}\n", 2, "without \"end_ns\"");
    expect_err("{\"start_ns\":-1,\"end_ns\":2}\n", 1, "non-negative time, found -1");
    expect_err("{\"start_ns\":5,\"end_ns\":2}\n", 1, "end_ns 2 is before start_ns 5");
    expect_err("{\"start_ns\":1,\"end_ns\":2}\n{\"start_ns\":1.5,\"end_ns\":2}\n", 2,
               "expected an integer, found a non-integer number");
    expect_err("{\"start_ns\":1,\"end_ns\":2}\n{\"start_ns\":1,", 2, "malformed JSON");
    expect_err("{\"start_ns\":1,\"end_ns\":2,\"scene\":3}\n", 1, "\"scene\": expected a string");
    expect_err("{\"start_ns\":1,\"end_ns\":2,\"type\":\"jank\"}\n", 1, "unknown record type");
    expect_err("{\"start_ns\":1,\"end_ns\":2}\n{\"type\":\"pause\"}\n", 2,
               "pause record without");
    expect_err("{\"start_ns\":1,\"end_ns\":2,\"intended_vsync_ns\":9}\n", 1,
               "before the intended vsync");
    expect_err("{\"start_ns\":1,\"end_ns\":2,\"refresh_hz\":0}\n", 1, "refresh_hz");
}
END_TEST

START_TEST(detect)
{
    ck_assert_int_eq(tt_frames_detect("{\"start_ns\":1}", 14), TT_FIN_JSONL);
    ck_assert_int_eq(tt_frames_detect("\n{\"type\":\"pause\",\"ts_ns\":1}", 27), TT_FIN_JSONL);
    ck_assert_int_eq(tt_frames_detect("{\"machine\":\"BEST\"}", 18), TT_FIN_REPORT);
    ck_assert_int_eq(tt_frames_detect("[{}]", 4), TT_FIN_REPORT);
    ck_assert_int_eq(tt_frames_detect("I/x: tag[Trace_FPS]type[0]", 26), TT_FIN_REPORT);
    ck_assert_int_eq(tt_frames_detect("x\n---PROFILEDATA---\n", 20), TT_FIN_FRAMESTATS);
    ck_assert_int_eq(tt_frames_detect("hello", 5), TT_FIN_UNKNOWN);
}
END_TEST

/* ---- reports (7.1) ---- */

START_TEST(reports_aggregate)
{
    /* a stream of three FPS reports (c, ab, a2 with fps 0) and one evil-method report */
    const char *s =
        "{\"machine\":\"HIGH\",\"scene\":\"A\",\"dropLevel\":{\"DROPPED_BEST\":580,"
        "\"DROPPED_NORMAL\":20,\"DROPPED_MIDDLE\":0,\"DROPPED_HIGH\":0,"
        "\"DROPPED_FROZEN\":0},\"dropSum\":{\"DROPPED_BEST\":10,\"DROPPED_NORMAL\":"
        "80,\"DROPPED_MIDDLE\":0,\"DROPPED_HIGH\":0,\"DROPPED_FROZEN\":0},\"fps\":"
        "50,\"TOTAL_DURATION\":20000000,\"DROP_COUNT\":0,\"REFRESH_RATE\":60,"
        "\"tag\":\"Trace_FPS\",\"process\":\"p\",\"time\":1700000000000}\n"
        "{\"scene\":\"A\",\"dropLevel\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,"
        "\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":300},"
        "\"dropSum\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,"
        "\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":0},\"fps\":25,\"tag\":\"Trace_FPS\","
        "\"time\":1700000001000}\n"
        "{\"detail\":\"NORMAL\",\"cost\":800,\"scene\":\"A\",\"stack\":\"\",\"stackKey\":\"\","
        "\"tag\":\"Trace_EvilMethod\",\"time\":1700000002000}\n"
        "{\"scene\":\"B\",\"dropLevel\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,"
        "\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":100},\"dropSum\":{"
        "\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,"
        "\"DROPPED_BEST\":0},\"fps\":0,\"dropTaskFrameSum\":0,\"tag\":\"Trace_FPS\","
        "\"time\":1700000003000}\n";
    tt_input *in = unit_mem("r.json", s, strlen(s));
    tt_report_reader *rr;
    tt_error err;
    ck_assert_int_eq(tt_report_reader_new(&rr, in, NULL, &err), 0);
    tt_frames *f = mk(TT_FMODEL_NATIVE);
    const tt_report *rep;
    int gens[3], n = 0;
    while (tt_report_reader_next(rr, &rep, &err) == 0) {
        if (rep->kind != TT_RKIND_FPS)
            continue;
        tt_fps_report r;
        tt_fps_report_from_report(&r, rep);
        gens[n++] = r.generation;
        ck_assert_int_eq(tt_frames_add_fps_report(f, &r, NULL), 0);
    }
    tt_report_reader_free(rr);
    tt_input_close(in);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(gens[0], TT_FGEN_C);
    ck_assert_int_eq(gens[1], TT_FGEN_AB);
    ck_assert_int_eq(gens[2], TT_FGEN_A2);
    ck_assert_int_eq(tt_frames_finish(f, NULL), 0);
    ck_assert_int_eq(tt_frames_model(f), TT_FMODEL_REPORTS);
    const tt_frame_stats *st = tt_frames_scene_stats(f, 0);
    ck_assert_int_eq(st->reports, 2);
    ck_assert_int_eq(st->frames, 900);
    ck_assert_int_eq(st->dropped_sum, 90);
    /* 900 frames over 600/50 + 300/25 = 24 s */
    ck_assert(fabs(st->fps - 37.5) < 1e-9);
    ck_assert_int_eq(st->fm_avg[TT_FM_TOTAL], 20000000);
    const tt_frame_stats *all = tt_frames_all_stats(f);
    ck_assert_int_eq(all->fps_zero_reports, 1);
    ck_assert_int_eq(all->frames, 1000);
    ck_assert(fabs(all->fps - 37.5) < 1e-9);
    ck_assert_uint_eq(tt_frames_series_count(f), 3);
    ck_assert_int_eq(tt_frames_series_get(f, 0)->start_ns, 1700000000000LL * MS);
    tt_frame_rec fr = rec("s", 1, 2);
    ck_assert_int_eq(tt_frames_add(f, &fr, "x", NULL), TT_EINVAL);
    tt_frames_free(f);
}
END_TEST

/* The one-line JSON fast path: what it accepts and what it leaves to jansson. */
START_TEST(jscan_subset)
{
    static const char *const keys[] = {"a", "s", "m", "b"};
    static const char *const sub[] = {"X", "Y"};
    static const uint8_t kl[] = {1, 1, 1, 1}, sl[] = {1, 1};
    /* key matching without and with the lengths given */
    static const tt_jscan_spec sps[2] = {{keys, 4, 2, sub, 2, NULL, NULL},
                                         {keys, 4, 2, sub, 2, kl, sl}};
    for (int pass = 0; pass < 2; pass++) {
        const tt_jscan_spec sp = sps[pass];
        tt_jval v[4], w[2];
        const char *ok = " {\"a\": -12, \"s\":\"x/y\",\"zz\":1.5e2, \"m\":{\"X\":7,\"Q\":null},"
                         "\"b\":true,\"a\":3} ";
        ck_assert_int_eq(tt_jscan(&sp, ok, strlen(ok), v, w), 1);
        ck_assert_int_eq(v[0].type, TT_JV_INT);
        ck_assert_int_eq(v[0].i, 3); /* the last occurrence wins, as in jansson */
        ck_assert_int_eq(v[1].type, TT_JV_STR);
        ck_assert_int_eq((int)v[1].n, 3);
        ck_assert(!memcmp(v[1].s, "x/y", 3));
        ck_assert_int_eq(v[2].type, TT_JV_OBJ);
        ck_assert_int_eq(w[0].type, TT_JV_INT);
        ck_assert_int_eq(w[0].i, 7);
        ck_assert_int_eq(w[1].type, TT_JV_ABSENT);
        ck_assert_int_eq(v[3].type, TT_JV_TRUE);
        const char *real = "{\"a\":59.94}";
        ck_assert_int_eq(tt_jscan(&sp, real, strlen(real), v, w), 1);
        ck_assert_int_eq(v[0].type, TT_JV_REAL);
        ck_assert(fabs(v[0].d - 59.94) < 1e-12);
        ck_assert_int_eq(tt_jscan(&sp, "{}", 2, v, w), 1);
        ck_assert_int_eq(v[0].type, TT_JV_ABSENT);
        /* declined: left to jansson, which parses or reports them */
        static const char *const no[] = {
            "{\"s\":\"caf\\u00e9\"}", "{\"s\":\"caf\xc3\xa9\"}", "{\"a\":[1]}", "{\"b\":{\"X\":1}}",
            "{\"m\":{\"X\":{}}}", "{\"a\":01}", "{\"a\":1234567890123456789}", "{\"a\":1.}",
            "{\"a\":1e999}", "{\"a\":1} x", "{\"a\":1,}", "{\"a\" 1}", "[1]", "{\"a\":tru}",
            "{\"a\":-}", "{\"a\":+1}", "{\"a\":1", ""};
        for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
            ck_assert_msg(!tt_jscan(&sp, no[i], strlen(no[i]), v, w), "accepted %s", no[i]);
    }
}
END_TEST

static Suite *frames_suite(void)
{
    Suite *s = suite_create("frames");
    TCase *t = tcase_create("core");
    tcase_add_test(t, levels);
    tcase_add_test(t, jscan_subset);
    tcase_add_test(t, scaled_levels);
    tcase_add_test(t, a1_example);
    tcase_add_test(t, a2_example);
    tcase_add_test(t, b_example);
    tcase_add_test(t, b_perfect_and_cap);
    tcase_add_test(t, b_frame_metrics_path);
    tcase_add_test(t, c_example_60);
    tcase_add_test(t, c_example_120);
    tcase_add_test(t, c_count_must_exceed_20);
    tcase_add_test(t, c_time_budget);
    tcase_add_test(t, native_mixed);
    tcase_add_test(t, native_pipelined);
    tcase_add_test(t, native_idle_gap);
    tcase_add_test(t, native_c_agrees_on_mixed);
    tcase_add_test(t, percentiles_nearest_rank);
    tcase_add_test(t, series_windows);
    tcase_add_test(t, jank_deadline_and_ui);
    tcase_add_test(t, framestats_example);
    tcase_add_test(t, framestats_scenes_dedupe);
    tcase_add_test(t, framestats_android12);
    tcase_add_test(t, framestats_errors);
    tcase_add_test(t, jsonl_example);
    tcase_add_test(t, jsonl_errors);
    tcase_add_test(t, detect);
    tcase_add_test(t, reports_aggregate);
    suite_add_tcase(s, t);
    return s;
}

UNIT_MAIN(frames_suite)
