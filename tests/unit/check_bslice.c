/* Native-mode method-beat slices (method-beat.md 8.2) and the evil-method analysis of long
 * dispatches (5.11) that analyze stores. */
#include "unit.h"

typedef struct res {
    tt_bslicer *b;
    const tt_bslice *s;
    size_t n;
    const tt_bslicer_stats *st;
} res;

static res run(const char *recs, const tt_bslicer_opts *o)
{
    uint64_t w[256];
    size_t n = unit_recs(recs, w, 256);
    res r = {0};
    ck_assert_int_eq(tt_bslicer_new(&r.b, o), 0);
    tt_bslicer_feed(r.b, w, n);
    ck_assert_int_eq(tt_bslicer_finish(r.b, NULL), 0);
    r.s = tt_bslicer_slices(r.b, &r.n);
    r.st = tt_bslicer_stats_get(r.b);
    return r;
}

static const tt_bslicer_opts no_evil = {.evil_ms = -1};

START_TEST(exact_tree)
{
    res r = run("I(D,0) I(1,0) I(2,5) O(2,15) I(3,15) O(3,20) O(1,30) O(D,30)", &no_evil);
    ck_assert_uint_eq(r.n, 4);
    ck_assert_int_eq(r.s[0].parent, -1);
    ck_assert_int_eq(r.s[1].parent, 0);
    ck_assert_int_eq(r.s[2].parent, 1);
    ck_assert_int_eq(r.s[3].parent, 1);
    ck_assert_int_eq(r.s[2].depth, 2);
    ck_assert_int_eq(r.s[1].dur_ms, 30);
    ck_assert_int_eq(r.s[1].self_ms, 15);
    ck_assert_int_eq(r.s[0].self_ms, 0);
    for (size_t i = 0; i < r.n; i++)
        ck_assert_int_eq(r.s[i].end_kind, TT_SLICE_EXACT);
    tt_bslicer_free(r.b);
}
END_TEST

/* An exception skips the exit of 2: it is closed when 1 exits, flagged unterminated. */
START_TEST(unterminated)
{
    res r = run("I(D,0) I(1,0) I(2,5) I(3,10) O(3,20) O(1,30) O(D,30)", &no_evil);
    ck_assert_uint_eq(r.n, 4);
    ck_assert_int_eq(r.s[2].id, 2);
    ck_assert_int_eq(r.s[2].end_kind, TT_SLICE_UNTERMINATED);
    ck_assert_int_eq(r.s[2].dur_ms, 25);
    ck_assert_int_eq(r.s[3].parent, 2); /* no depth gap, unlike Matrix (V3) */
    ck_assert_int_eq(r.s[3].depth, 3);
    ck_assert_uint_eq(r.st->unterminated, 1);
    tt_bslicer_free(r.b);
}
END_TEST

START_TEST(truncated_and_stray)
{
    tt_bslicer_opts o = {.evil_ms = -1, .have_end = 1, .end_ms = 1100, .base_ms = 1000};
    res r = run("O(9,0) I(D,0) I(1,10) O(77,20) I(2,20)", &o);
    ck_assert_uint_eq(r.st->stray_exits, 2);
    ck_assert_uint_eq(r.st->truncated, 3);
    ck_assert_int_eq(r.s[0].dur_ms, 100); /* closed at end - base */
    ck_assert_int_eq(r.s[2].dur_ms, 80);
    ck_assert_int_eq(r.s[2].end_kind, TT_SLICE_TRUNCATED);
    tt_bslicer_free(r.b);
    /* without an end time the last record's time is used */
    r = run("I(D,0) I(1,10) I(2,20)", &no_evil);
    ck_assert(r.st->end_defaulted);
    ck_assert_int_eq(r.s[0].dur_ms, 20);
    tt_bslicer_free(r.b);
    /* an end time before the records: closed at the latest record time, not before a
     * completed callee's end (8.2) */
    o.end_ms = 500;
    r = run("I(D,100) I(1,100) I(2,150) O(2,160)", &o);
    ck_assert_uint_eq(r.st->end_raised, 2);
    ck_assert_int_eq(r.st->end_ms_used, 160);
    ck_assert_int_eq(r.s[1].dur_ms, 60);
    ck_assert_int_eq(r.s[2].ts_ms + r.s[2].dur_ms, 160);
    tt_bslicer_free(r.b);
}
END_TEST

/* A negative duration drops only its own pair; its children move up to its parent. */
START_TEST(negative_drops_pair)
{
    res r = run("I(D,0) I(1,50) I(2,60) O(2,70) O(1,40) O(D,100)", &no_evil);
    ck_assert_uint_eq(r.st->negative_dropped, 1);
    ck_assert_uint_eq(r.st->slices, 2);
    ck_assert(r.s[1].dropped);
    ck_assert_int_eq(r.s[2].parent, 0);
    ck_assert_int_eq(r.s[2].depth, 1);
    ck_assert_int_eq(r.s[0].self_ms, 90);
    tt_bslicer_free(r.b);
}
END_TEST

/* A nested dispatch is a child slice (Matrix empties the whole stack, V9). */
START_TEST(nested_dispatch_and_recursion)
{
    res r = run("I(D,0) I(1,0) I(D,5) I(1,5) O(1,8) O(D,10) O(1,20) O(D,20)", &no_evil);
    ck_assert_uint_eq(r.n, 4);
    ck_assert_int_eq(r.s[2].parent, 1);
    ck_assert_int_eq(r.s[2].depth, 2);
    ck_assert(!r.s[1].recursive);
    ck_assert(r.s[2].recursive);
    ck_assert(r.s[3].recursive);
    tt_bslicer_free(r.b);
}
END_TEST

START_TEST(zero_and_invalid_ids)
{
    uint64_t w[] = {0, tt_beat_encode(1, 0, 5), tt_beat_encode(1, 0xFFFFF, 5),
                    tt_beat_encode(1, 4, 5), tt_beat_encode(0, 4, 9), 0};
    tt_bslicer *b;
    ck_assert_int_eq(tt_bslicer_new(&b, &no_evil), 0);
    tt_bslicer_feed(b, w, 6);
    ck_assert_int_eq(tt_bslicer_finish(b, NULL), 0);
    const tt_bslicer_stats *st = tt_bslicer_stats_get(b);
    ck_assert_uint_eq(st->zero_records, 2);
    ck_assert_uint_eq(st->invalid_ids, 2);
    ck_assert_uint_eq(st->slices, 1);
    tt_bslicer_free(b);
}
END_TEST

/* Each long outermost dispatch gets Matrix's evil-method result: V1 gives 1540 and "1|". */
START_TEST(evil_dispatch_matches_matrix)
{
    tt_bslicer_opts o = {.evil_ms = 700, .trim = 30};
    res r = run("I(D,0) I(1,0) O(1,10) O(D,10) "                 /* short: not an issue */
                "I(D,100) I(1,100) I(2,150) O(2,1000) O(1,1000) I(3,1000) O(3,1040) O(D,1050)",
                &o);
    size_t ne;
    const tt_bevil *e = tt_bslicer_evil(r.b, &ne);
    ck_assert_uint_eq(ne, 1);
    ck_assert_int_eq(e[0].dur_ms, 950);
    ck_assert_int_eq(e[0].stack_cost, 950);
    ck_assert_int_eq(e[0].key_id, 2);
    tt_buf s = {0};
    tt_mstack_to_string(&s, e[0].items, e[0].n_items);
    ck_assert_str_eq(s.data, "0,1048574,1,950\n1,1,1,900\n2,2,1,850\n1,3,1,40\n");
    tt_buf_free(&s);
    tt_bslicer_free(r.b);
}
END_TEST

/* A buffer that begins inside a method (8.2): the calls before its exit are attached to one
 * synthetic <unknown caller> first in the list; a later dispatch stays a root. An exit with
 * nothing completed before it stays a stray exit. */
START_TEST(unknown_caller)
{
    res r = run("O(7,5) I(2,10) I(3,12) O(3,15) O(2,20) O(1,30) I(4,30) O(4,35) O(8,40) "
                "I(D,40) O(D,50)", &no_evil);
    ck_assert_uint_eq(r.n, 5);
    ck_assert(r.s[0].synthetic);
    ck_assert_int_eq(r.s[0].parent, -1);
    ck_assert_int_eq(r.s[0].ts_ms, 5); /* the first record */
    ck_assert_int_eq(r.s[0].dur_ms, 35); /* to the last caller exit */
    ck_assert_int_eq(r.s[0].self_ms, 20);
    ck_assert_int_eq(r.s[0].end_kind, TT_SLICE_EXACT);
    static const int32_t want[5][3] = { /* id, parent, depth */
        {0, -1, 0}, {2, 0, 1}, {3, 1, 2}, {4, 0, 1}, {(int32_t)TT_BEAT_DISPATCH, -1, 0}};
    for (int i = 0; i < 5; i++)
        ck_assert(r.s[i].id == (uint32_t)want[i][0] && r.s[i].parent == want[i][1] &&
                  r.s[i].depth == want[i][2]);
    ck_assert_uint_eq(r.st->orphans, 2);
    ck_assert_uint_eq(r.st->caller_exits, 2);
    ck_assert_uint_eq(r.st->stray_exits, 1);
    ck_assert_uint_eq(r.st->slices, 4);
    tt_bslicer_free(r.b);
    /* evil-method analysis keeps pointing at its dispatch */
    tt_bslicer_opts o = {.evil_ms = 10, .trim = 30};
    r = run("I(2,0) O(2,5) O(1,6) I(D,10) I(3,10) O(3,30) O(D,30)", &o);
    size_t ne;
    const tt_bevil *e = tt_bslicer_evil(r.b, &ne);
    ck_assert_uint_eq(ne, 1);
    ck_assert_int_eq(r.s[e[0].slice].id, (int)TT_BEAT_DISPATCH);
    ck_assert(r.s[0].synthetic);
    tt_bslicer_free(r.b);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("bslice");
    TCase *tc = tcase_create("native");
    tcase_add_test(tc, exact_tree);
    tcase_add_test(tc, unterminated);
    tcase_add_test(tc, truncated_and_stray);
    tcase_add_test(tc, negative_drops_pair);
    tcase_add_test(tc, nested_dispatch_and_recursion);
    tcase_add_test(tc, zero_and_invalid_ids);
    tcase_add_test(tc, evil_dispatch_matches_matrix);
    tcase_add_test(tc, unknown_caller);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
