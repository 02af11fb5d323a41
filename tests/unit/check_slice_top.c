/* The longest slices of a thread (tt_slice_longest): built in two halves on two threads, the
 * result equals the one-pass build's, slice for slice and in the info, on random profiles
 * covering the rules of spec/samples.md 5 (runs, gaps, message splits, intervals, counters,
 * recursion, the three end policies, gap marks, truncation) with the split anywhere. */
#include "unit.h"

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static uint32_t frame(tt_profile *p, const char *name)
{
    uint32_t f;
    tt_stack_frame fr = {.name = name};
    ck_assert_int_eq(tt_frame_intern(p, &f, &fr), 0);
    return f;
}

/* One thread of n samples: a random walk over stacks of a few frames (recursion included),
 * under a message loop or a plain root (one_root: the loop, all along), with repeats, gaps,
 * equal times, intervals, unknown CPU times (not in the first cpu_known samples) and counters. */
static void walk(tt_profile *p, uint32_t utid, size_t n, int one_root, size_t cpu_known)
{
    static const char *const names[] = {"A", "B", "C", "D", "E", "F", "main",
                                        "android.os.Looper.loop()"};
    uint32_t f[8], st[24];
    for (int i = 0; i < 8; i++)
        f[i] = frame(p, names[i]);
    size_t depth = 1;
    st[0] = f[7];
    int64_t ts = 1000000, cpu = 0;
    uint64_t msg = 1, ctr[TT_CTR_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rnd(100);
        size_t floor = one_root ? 2 : 1; /* one_root: loop > main, never closed */
        if (r < 5 && !one_root) {         /* a new root */
            depth = 1;
            st[0] = rnd(3) ? f[7] : f[6];
        } else if (r < 40 && depth > floor) {
            depth -= 1 + rnd((uint32_t)(depth - floor < 4 ? depth - floor : 4));
        }
        if (depth < floor)
            st[depth++] = f[6];
        if (r >= 30 && r < 75 && depth < 24)
            for (uint32_t k = 1 + rnd(4); k-- > 0 && depth < 24;)
                st[depth++] = f[rnd(6)];
        uint32_t g = rnd(1000);
        ts += g < 10 ? 30000000 + rnd(300) * 1000000 : g < 30 ? 0 : 1000000 + rnd(50000);
        msg = rnd(100) < 5 ? msg + 1 : msg;
        tt_sample x;
        tt_sample_init(&x);
        x.utid = utid;
        x.ts = ts;
        x.msg_id = rnd(10) ? msg : 0;
        cpu += rnd(900000);
        x.cpu = i < cpu_known || rnd(10) ? cpu : -1;
        x.end_cpu = x.cpu;
        ck_assert_int_eq(tt_callsite_intern(p, &x.callsite, st, depth), 0);
        if (rnd(100) < 3) {
            x.is_interval = 1;
            x.end_ts = ts + 1 + rnd(500000);
            x.end_cpu = x.cpu >= 0 ? x.cpu + rnd(1000) : -1;
            x.is_blocking = (uint8_t)rnd(2);
            x.type = TT_ST_WAIT;
            if (rnd(4)) /* else the next samples fall inside it (runs split at its end) */
                ts = x.end_ts;
        }
        tt_counters c = {.known = rnd(4) ? 0x1f : rnd(32)};
        for (int k = 0; k < TT_CTR_COUNT; k++) {
            ctr[k] += rnd(1000);
            if (!rnd(500))
                ctr[k] -= rnd(2000) % (ctr[k] + 1); /* a counter that goes back */
            c.v[k] = ctr[k];
        }
        ck_assert_int_eq(tt_profile_add(p, &x, rnd(3) ? &c : NULL), 0);
    }
}

static void same_slice(const tt_slice *a, const tt_slice *b)
{
    ck_assert_int_eq(a->ts, b->ts);
    ck_assert_int_eq(a->dur, b->dur);
    ck_assert_int_eq(a->thread_dur, b->thread_dur);
    ck_assert_int_eq(a->self_dur, b->self_dur);
    ck_assert_int_eq(a->self_thread_dur, b->self_thread_dur);
    ck_assert_int_eq(a->block_dur, b->block_dur);
    ck_assert_int_eq(a->gap_before, b->gap_before);
    ck_assert_int_eq(a->gap_after, b->gap_after);
    ck_assert_int_eq(a->thread_ts, b->thread_ts);
    ck_assert_int_eq(a->waker_ts, b->waker_ts);
    ck_assert_uint_eq(a->msg_id, b->msg_id);
    for (int k = 0; k < TT_CTR_COUNT; k++)
        ck_assert_uint_eq(a->ctr[k], b->ctr[k]);
    ck_assert_uint_eq(a->ctr_known, b->ctr_known);
    ck_assert_uint_eq(a->utid, b->utid);
    ck_assert_uint_eq(a->depth, b->depth);
    ck_assert_uint_eq(a->parent, b->parent);
    ck_assert_uint_eq(a->frame, b->frame);
    ck_assert_uint_eq(a->callsite, b->callsite);
    ck_assert_uint_eq(a->sample_count, b->sample_count);
    ck_assert_uint_eq(a->wakeup_utid, b->wakeup_utid);
    ck_assert_uint_eq(a->type, b->type);
    ck_assert_uint_eq(a->end_kind, b->end_kind);
    ck_assert_uint_eq(a->is_recursive, b->is_recursive);
    ck_assert_uint_eq(a->is_synthetic, b->is_synthetic);
}

/* The longest cap slices of utid both ways; returns how many slices there are. */
static uint64_t compare(tt_profile *p, uint32_t utid, const tt_slice_opts *o, size_t cap)
{
    tt_slice_top t[2];
    tt_slice_info info[2];
    tt_vec work;
    tt_vec_init(&work, sizeof(tt_slice));
    for (int k = 0; k < 2; k++) {
        t[k] = (tt_slice_top){malloc(cap * sizeof(tt_slice)), 0, cap, 0};
        ck_assert_ptr_nonnull(t[k].s);
        ck_assert_int_eq(tt_slice_longest(&t[k], &info[k], &work, p, utid, o, k + 1, NULL), 0);
    }
    ck_assert_uint_eq(t[0].total, t[1].total);
    ck_assert_uint_eq(t[0].n, t[1].n);
    if (!o->mark_gaps) /* every slice is a real one */
        ck_assert_uint_eq(t[0].n, t[0].total < cap ? t[0].total : cap);
    for (size_t i = 0; i < t[0].n; i++)
        same_slice(&t[0].s[i], &t[1].s[i]);
    ck_assert_uint_eq(info[0].items, info[1].items);
    ck_assert_uint_eq(info[0].gap_splits, info[1].gap_splits);
    ck_assert_uint_eq(info[0].msg_splits, info[1].msg_splits);
    ck_assert_uint_eq(info[0].negative_counter_deltas, info[1].negative_counter_deltas);
    ck_assert_int_eq(info[0].max_gap, info[1].max_gap);
    ck_assert_int_eq(info[0].covered_dur, info[1].covered_dur);
    ck_assert_int_eq(info[0].first_ts, info[1].first_ts);
    ck_assert_int_eq(info[0].last_ts, info[1].last_ts);
    uint64_t total = t[0].total;
    free(t[0].s);
    free(t[1].s);
    tt_vec_free(&work);
    return total;
}

START_TEST(halves_equal_one_pass)
{
    rng = 0x9e3779b97f4a7c15ull + (uint64_t)_i * 7919;
    tt_profile *p;
    ck_assert_int_eq(tt_profile_new(&p, TT_IDENT_NAME), 0);
    uint32_t t, u;
    ck_assert_int_eq(tt_thread_intern(p, &t, 0, 1, 1, 32), 0);
    ck_assert_int_eq(tt_thread_intern(p, &u, 0, 1, 2, 32), 0);
    /* without a max gap, one root all along: slices open from the first sample to the last */
    int open_all = _i % 4 == 3;
    size_t n = 17000 + rnd(20000); /* long enough for two halves */
    /* one case in three: CPU times unknown only after the cut, a slice open across it learns
     * of them from the second half */
    walk(p, t, n, open_all, _i % 3 == 2 ? n * 3 / 5 : 0);
    walk(p, u, 2000, 0, 0); /* built in one pass */
    if (_i % 5 == 4)
        tt_profile_meta_get(p)->truncated = 1;
    ck_assert_int_eq(tt_profile_finish(p, NULL), 0);
    tt_slice_opts o;
    tt_slice_opts_init(&o);
    o.end_policy = _i % 3 == 0 ? TT_END_LAST : _i % 3 == 1 ? TT_END_MID : TT_END_NEXT;
    o.max_gap = _i % 4 == 3 ? TT_GAP_NONE : _i % 4 == 2 ? 20000000 : TT_GAP_AUTO;
    o.mark_gaps = _i % 2;
    o.no_msg_split = _i % 7 == 6;
    for (uint32_t th = 0; th < 2; th++) {
        uint64_t all = compare(p, th, &o, 1);
        ck_assert_uint_gt(all, 100);
        compare(p, th, &o, 7);
        compare(p, th, &o, 600);
    }
    tt_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("slice_top");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, halves_equal_one_pass, 0, 24);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
