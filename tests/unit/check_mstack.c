/* Matrix structured-stack algorithm: every vector of method-beat.md section 6, plus the
 * Java numeric helpers of 0.3 and the record encodings of 1.1. */
#include "unit.h"

#include <stdio.h>

typedef struct run {
    char stack[8192];
    char key[32];
    int64_t cost;
} run;

static void analyse(run *r, const uint64_t *w, size_t n, const tt_mstack_opts *o)
{
    tt_mstack *m;
    ck_assert_int_eq(tt_mstack_new(&m, o), 0);
    tt_mstack_feed(m, w, n);
    ck_assert_int_eq(tt_mstack_finish(m, NULL), 0);
    const tt_mstack_result *res = tt_mstack_result_get(m);
    tt_buf b = {0};
    tt_mstack_to_string(&b, res->items, res->n_items);
    snprintf(r->stack, sizeof r->stack, "%s", b.data);
    tt_buf_free(&b);
    if (res->key_id >= 0)
        snprintf(r->key, sizeof r->key, "%d|", res->key_id);
    else
        r->key[0] = 0;
    r->cost = res->stack_cost;
    tt_mstack_free(m);
}

/* expected stack written with " / " between lines */
static void expect(const run *r, const char *lines, const char *key)
{
    char want[8192] = "";
    size_t o = 0;
    const char *p = lines;
    while (*p) {
        const char *e = strstr(p, " / ");
        size_t l = e ? (size_t)(e - p) : strlen(p);
        ck_assert_uint_lt(o + l + 2, sizeof want);
        memcpy(want + o, p, l);
        o += l;
        want[o++] = '\n';
        want[o] = 0;
        p += l;
        if (e)
            p += 3;
    }
    ck_assert_str_eq(r->stack, want);
    ck_assert_str_eq(r->key, key);
}

static tt_mstack_opts strict_cost(int64_t cost)
{
    tt_mstack_opts o = {.strict = 1, .have_cost = 1, .cost_ms = cost, .trim = 30};
    return o;
}

START_TEST(encodings)
{
    ck_assert_uint_eq(tt_beat_encode(1, 1048574, 1000), 0xfffff000000003e8ULL);
    ck_assert_uint_eq(tt_beat_encode(1, 1, 1000), 0x80000800000003e8ULL);
    ck_assert_uint_eq(tt_beat_encode(0, 7, 900), 0x0000380000000384ULL);
    ck_assert_uint_eq(tt_beat_encode(0, 1048574, 2540), 0x7ffff000000009ecULL);
    uint64_t w = 0xfffff000000003e8ULL;
    ck_assert(tt_beat_is_entry(w));
    ck_assert_uint_eq(tt_beat_id(w), 1048574);
    ck_assert_int_eq(tt_beat_time(w), 1000);
}
END_TEST

START_TEST(java_numbers)
{
    ck_assert_int_eq(tt_java_wrap32(4999999998900LL), 658066356);
    ck_assert_int_eq(tt_java_wrap32(2147483648LL), INT32_MIN);
    ck_assert_int_eq(tt_java_wrap32(-1), -1);
    ck_assert_int_eq(tt_java_f2l((float)123456789LL * 0.3f), 37037040);
    ck_assert_int_eq(tt_java_f2l(1e30f), INT64_MAX);
    ck_assert_int_eq(tt_java_f2l(-1e30f), INT64_MIN);
    ck_assert_int_eq(tt_java_round(2.5f), 3);
    ck_assert_int_eq(tt_java_round(-2.5f), -2);
    ck_assert_int_eq(tt_java_round(1e20f), INT32_MAX);
}
END_TEST

START_TEST(v1_sample_tree)
{
    static const uint64_t w[] = {
        0x0000380000000384, 0xfffff000000003e8, 0x80000800000003e8, 0x80001000000003e8,
        0x80001800000003e8, 0x80002000000003e8, 0x00002000000003fc, 0x80002800000003fc,
        0x0000280000000410, 0x8000300000000410, 0x0000300000000424, 0x0000180000000488,
        0x8000380000000488, 0x000038000000049c, 0x0000100000000564, 0x8000400000000564,
        0x8000480000000578, 0x000048000000058c, 0x800050000000058c, 0x0000500000000591,
        0x8000580000000591, 0x000058000000059b, 0x000040000000059b, 0x800060000000059b,
        0x00006000000006c7, 0x00000800000009e7, 0x7ffff000000009ec};
    run r;
    tt_mstack_opts o = strict_cost(1540);
    analyse(&r, w, sizeof w / sizeof w[0], &o);
    ck_assert_str_eq(r.stack, "0,1048574,1,1540\n1,1,1,1535\n2,2,1,380\n3,3,1,160\n4,4,1,20\n"
                              "4,5,1,20\n4,6,1,20\n3,7,1,20\n2,8,1,55\n3,9,1,20\n3,10,1,5\n"
                              "3,11,1,10\n2,12,1,300\n");
    ck_assert_int_eq(r.cost, 1540);
    ck_assert_str_eq(r.key, "1|");
}
END_TEST

#define VEC(name, recs, opts, lines, key, ecost)                                              \
    START_TEST(name)                                                                         \
    {                                                                                        \
        uint64_t w[256];                                                                     \
        size_t n = unit_recs(recs, w, 256);                                                    \
        tt_mstack_opts o = opts;                                                             \
        run r;                                                                               \
        analyse(&r, w, n, &o);                                                               \
        expect(&r, lines, key);                                                              \
        if ((ecost) >= 0)                                                                    \
            ck_assert_int_eq(r.cost, ecost);                                                 \
    }                                                                                        \
    END_TEST

VEC(v2_merge,
    "I(D,0) I(1,0) I(2,0) O(2,10) I(2,10) O(2,20) I(2,20) O(2,35) I(3,35) I(2,35) O(2,40) "
    "O(3,45) I(3,45) I(2,45) O(2,50) O(3,55) O(1,60) O(D,60)",
    strict_cost(60),
    "0,1048574,1,60 / 1,1,1,60 / 2,2,3,35 / 2,3,1,10 / 3,2,1,5 / 2,3,1,10 / 3,2,1,5", "1|", 60)

VEC(v3_missing_exit, "I(D,0) I(1,0) I(2,5) I(3,10) O(3,20) O(1,30) O(D,30)", strict_cost(30),
    "0,1048574,1,30 / 1,1,1,30 / 3,3,1,10", "1|", 30)

VEC(v4_stray_exit, "I(D,0) I(1,0) O(99,5) I(2,5) O(2,15) O(1,20) O(D,20)", strict_cost(20),
    "0,1048574,1,20 / 1,1,1,20 / 2,2,1,10", "1|", 20)

VEC(v5_anr_drain, "I(D,100) I(1,100) I(2,200) O(2,300) I(3,300)",
    ((tt_mstack_opts){.strict = 1, .have_end = 1, .end_ms = 6000, .have_cost = 1,
                      .cost_ms = 5000, .trim = 30}),
    "0,1048574,1,5900 / 1,1,1,5900 / 2,2,1,100 / 2,3,1,5700", "3|", 5900)

START_TEST(v6_negative)
{
    uint64_t w[16];
    size_t n = unit_recs("I(D,100) I(1,100) O(1,50) O(D,120)", w, 16);
    tt_mstack_opts o = strict_cost(0);
    run r;
    analyse(&r, w, n, &o);
    ck_assert_str_eq(r.stack, "");
    ck_assert_str_eq(r.key, "");
}
END_TEST

START_TEST(v7_lenient)
{
    uint64_t w[16];
    size_t n = unit_recs("O(5,10) I(1,10) O(1,20) I(2,20) I(3,25) O(3,40)", w, 16);
    tt_mstack_opts o = {.strict = 0, .trim = 30};
    run r;
    analyse(&r, w, n, &o);
    ck_assert_str_eq(r.stack, "");
    ck_assert_str_eq(r.key, "");
    n = unit_recs("O(5,10) I(1,10) I(2,12) O(2,20) O(1,30) I(3,30) O(3,40)", w, 16);
    o.have_cost = 1;
    o.cost_ms = 0;
    analyse(&r, w, n, &o);
    expect(&r, "0,1,1,20 / 1,2,1,8 / 0,3,1,10", "1|");
    ck_assert_int_eq(r.cost, 20);
}
END_TEST

START_TEST(v8_trim)
{
    uint64_t w[128];
    size_t n = 0;
    w[n++] = tt_beat_encode(1, TT_BEAT_DISPATCH, 0);
    w[n++] = tt_beat_encode(1, 1, 0);
    int64_t t = 0;
    for (int k = 0; k < 40; k++) {
        w[n++] = tt_beat_encode(1, 100 + (uint32_t)k, t);
        t += k + 1;
        w[n++] = tt_beat_encode(0, 100 + (uint32_t)k, t);
    }
    ck_assert_int_eq(t, 820);
    w[n++] = tt_beat_encode(0, 1, 820);
    w[n++] = tt_beat_encode(0, TT_BEAT_DISPATCH, 820);
    tt_mstack_opts o = strict_cost(820);
    run r;
    analyse(&r, w, n, &o);
    char want[4096] = "0,1048574,1,820\n1,1,1,820\n2,109,1,10\n2,110,1,11\n";
    for (int id = 114; id <= 139; id++) {
        char l[64];
        snprintf(l, sizeof l, "2,%d,1,%d\n", id, id - 99);
        strcat(want, l);
    }
    ck_assert_str_eq(r.stack, want);
    ck_assert_str_eq(r.key, "1|");
}
END_TEST

START_TEST(v9_nested_dispatch)
{
    uint64_t w[16];
    size_t n = unit_recs("I(D,0) I(1,0) I(D,5) I(2,5) O(2,10) O(D,10) O(1,20) O(D,20)", w, 16);
    tt_mstack_opts o = strict_cost(20);
    run r;
    analyse(&r, w, n, &o);
    ck_assert_str_eq(r.stack, "");
    ck_assert_str_eq(r.key, "");
}
END_TEST

VEC(v10_5000_quirk, "I(D,0) I(1,0) I(2,0) O(2,100) I(2,100) O(2,5100) O(1,5100) O(D,5100)",
    strict_cost(5100), "0,1048574,1,5100 / 1,1,1,5100 / 2,2,2,200", "1|", 5100)

VEC(v11_time_base, "I(D,100) I(1,100) I(2,150) O(2,160)",
    ((tt_mstack_opts){.strict = 1, .have_end = 1, .end_ms = 1500, .base_ms = 1000,
                      .have_cost = 1, .cost_ms = 700, .trim = 30}),
    "0,1048574,1,400 / 1,1,1,400 / 2,2,1,10", "1|", 700)

VEC(v12_ns_end, "I(D,100) I(1,100)",
    ((tt_mstack_opts){.strict = 1, .have_end = 1, .end_ms = 5000000000000LL, .base_ms = 1000,
                      .have_cost = 1, .cost_ms = 700, .trim = 30}),
    "0,1048574,1,658066356 / 1,1,1,658066356", "1|", 658066356)

VEC(v13_unrelated_bottom, "I(1,0) I(2,10) O(9,30) O(1,40)",
    ((tt_mstack_opts){.strict = 0, .trim = 30}), "0,9,1,30", "9|", 30)

VEC(v14_dispatch_key, "I(D,0) I(1,0) O(1,10) I(2,10) O(2,20) O(D,1000)", strict_cost(1000),
    "0,1048574,1,1000 / 1,1,1,10 / 1,2,1,10", "1048574|", 1000)

START_TEST(trim_fallback_and_target)
{
    tt_mitem it[40];
    for (int i = 0; i < 40; i++)
        it[i] = (tt_mitem){1, i + 1, 1, 10000};
    ck_assert_uint_eq(tt_mstack_trim(it, 40, 30), 30);
    ck_assert_int_eq(it[29].id, 30);
    ck_assert_uint_eq(tt_mstack_trim(it, 30, -1), 0);
}
END_TEST

START_TEST(tree_key_float_limit)
{
    /* limit = (float)123456789 * 0.3f = 37037040: an item of 37037038 is not a candidate */
    tt_mitem it[2] = {{0, 1, 1, 37037038}, {5, 2, 1, 37037040}};
    ck_assert_int_eq(tt_mstack_tree_key(it, 2, 123456789), 1);
    tt_mitem one[1] = {{0, 1048574, 1, 10}};
    ck_assert_int_eq(tt_mstack_tree_key(one, 1, 1000), 0);
    ck_assert_int_eq(tt_mstack_tree_key(one, 0, 1000), -1);
}
END_TEST

START_TEST(drain_default_end)
{
    uint64_t w[8];
    size_t n = unit_recs("I(D,100) I(1,120) O(1,130) I(2,140) I(3,150)", w, 8);
    tt_mstack_opts o = {.strict = 1, .trim = 30};
    tt_mstack *m;
    ck_assert_int_eq(tt_mstack_new(&m, &o), 0);
    tt_mstack_feed(m, w, n);
    ck_assert_int_eq(tt_mstack_finish(m, NULL), 0);
    const tt_mstack_result *r = tt_mstack_result_get(m);
    ck_assert(r->end_defaulted);
    ck_assert_int_eq(r->end_ms_used, 150);
    ck_assert_uint_eq(r->drained, 3);
    tt_mstack_free(m);
}
END_TEST

START_TEST(deep_stray_exits_linear)
{
    /* 200000 nested entries followed by 200000 stray exits must not take quadratic time */
    size_t n = 400001;
    uint64_t *w = malloc(n * sizeof *w);
    w[0] = tt_beat_encode(1, TT_BEAT_DISPATCH, 0);
    for (size_t i = 1; i <= 200000; i++)
        w[i] = tt_beat_encode(1, 5, (int64_t)i);
    for (size_t i = 200001; i < n; i++)
        w[i] = tt_beat_encode(0, 7, 300000);
    tt_mstack_opts o = {.strict = 1, .have_end = 1, .end_ms = 400000, .trim = 30};
    tt_mstack *m;
    ck_assert_int_eq(tt_mstack_new(&m, &o), 0);
    tt_mstack_feed(m, w, n);
    ck_assert_int_eq(tt_mstack_finish(m, NULL), 0);
    ck_assert_uint_eq(tt_mstack_result_get(m)->stray_exits, 200000);
    ck_assert_uint_eq(tt_mstack_result_get(m)->n_items, 30);
    tt_mstack_free(m);
    free(w);
}
END_TEST

/* An exit when nothing is open is ignored (5.2) and counted as a stray exit, as analyze's
 * beat_stray_exit counts it. */
START_TEST(stray_exit_nothing_open)
{
    uint64_t w[16];
    tt_mstack_opts lenient = {.strict = 0, .trim = 30};
    tt_mstack_opts strict = {.strict = 1, .trim = 30};
    struct {
        const char *recs;
        const tt_mstack_opts *o;
        uint64_t stray;
    } v[] = {
        {"O(5,10) I(1,10) O(1,20)", &lenient, 1},
        {"I(D,0) I(1,0) O(1,5) O(D,10) O(3,12) O(4,13)", &strict, 2},
        {"O(3,0) I(D,0) O(D,10)", &strict, 0}, /* before the dispatch: skipped, not stray */
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t n = unit_recs(v[i].recs, w, 16);
        tt_mstack *m;
        ck_assert_int_eq(tt_mstack_new(&m, v[i].o), 0);
        tt_mstack_feed(m, w, n);
        ck_assert_int_eq(tt_mstack_finish(m, NULL), 0);
        ck_assert_uint_eq(tt_mstack_result_get(m)->stray_exits, v[i].stray);
        tt_mstack_free(m);
    }
}
END_TEST

/* The pseudocode of 5.7, literally (array removal), to check the linear version. */
static size_t literal_trim(tt_mitem *it, size_t n, int target)
{
    int pass = 1;
    size_t cur = n;
    while (cur > (size_t)target) {
        for (size_t i = n; i-- > 0;) {
            if ((int64_t)it[i].dur < pass * 5) {
                memmove(&it[i], &it[i + 1], (n - i - 1) * sizeof *it);
                n--;
                cur--;
                if (cur <= (size_t)target)
                    return n;
            }
        }
        cur = n;
        pass++;
        if (pass > 60)
            break;
    }
    return n > (size_t)target ? (size_t)target : n;
}

START_TEST(trim_matches_literal)
{
    unsigned seed = 12345;
    for (int round = 0; round < 3000; round++) {
        tt_mitem a[200], b[200];
        seed = seed * 1103515245u + 12345u;
        size_t n = (seed >> 8) % 200;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            int32_t d = (int32_t)((seed >> 8) % 400) - 20;
            if ((seed >> 20) % 7 == 0)
                d = 5000;
            a[i] = b[i] = (tt_mitem){(int32_t)i % 5, (int32_t)i, 1, d};
        }
        int target = (int)((seed >> 4) % 40);
        size_t la = tt_mstack_trim(a, n, target);
        size_t lb = literal_trim(b, n, target);
        ck_assert_uint_eq(la, lb);
        for (size_t i = 0; i < la; i++)
            ck_assert_int_eq(a[i].id, b[i].id);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mstack");
    TCase *tc = tcase_create("vectors");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, encodings);
    tcase_add_test(tc, java_numbers);
    tcase_add_test(tc, v1_sample_tree);
    tcase_add_test(tc, v2_merge);
    tcase_add_test(tc, v3_missing_exit);
    tcase_add_test(tc, v4_stray_exit);
    tcase_add_test(tc, v5_anr_drain);
    tcase_add_test(tc, v6_negative);
    tcase_add_test(tc, v7_lenient);
    tcase_add_test(tc, v8_trim);
    tcase_add_test(tc, v9_nested_dispatch);
    tcase_add_test(tc, v10_5000_quirk);
    tcase_add_test(tc, v11_time_base);
    tcase_add_test(tc, v12_ns_end);
    tcase_add_test(tc, v13_unrelated_bottom);
    tcase_add_test(tc, v14_dispatch_key);
    tcase_add_test(tc, trim_fallback_and_target);
    tcase_add_test(tc, trim_matches_literal);
    tcase_add_test(tc, tree_key_float_limit);
    tcase_add_test(tc, drain_default_end);
    tcase_add_test(tc, deep_stray_exits_linear);
    tcase_add_test(tc, stray_exit_nothing_open);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
