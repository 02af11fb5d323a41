/* Unit tests of the ART method trace reader and call rebuilding (spec/art-trace.md): the 5.2
 * worked example in every format, detection, errors with byte offsets, clock wrap. */
#include "unit.h"

#include <stdio.h>

#include "../../libtrace/tt_art.h"

static unsigned char buf[8192];
static size_t len;

static void put(const void *p, size_t n) { memcpy(buf + len, p, n); len += n; }
static void u8(unsigned v) { buf[len++] = (unsigned char)v; }
static void u16(unsigned v) { u8(v & 0xff); u8(v >> 8); }
static void u32(uint32_t v) { u16(v & 0xffff); u16(v >> 16); }
static void str(const char *s) { put(s, strlen(s)); }

/* 5.2: thread, method, action, cpu, wall */
static const unsigned ex[][5] = {
    {1234, 0x0, 0, 0, 0},    {1234, 0x4, 0, 10, 12},  {1240, 0xc, 0, 0, 15},
    {1234, 0x8, 0, 20, 25},  {1234, 0x8, 1, 50, 70},  {1240, 0x10, 0, 5, 20},
    {1240, 0x10, 0, 9, 30},  {1240, 0x10, 1, 19, 45}, {1240, 0x10, 2, 25, 60},
    {1234, 0x8, 0, 60, 80},  {1234, 0x8, 2, 65, 90},  {1234, 0x4, 1, 70, 100},
    {1240, 0xc, 1, 40, 110}, {1234, 0x4, 0, 80, 120},
};

/* clock: 0 thread-cpu, 1 wall, 2 dual */
static void legacy(int version, int clock)
{
    static const char *const clocks[] = {"thread-cpu", "wall", "dual"};
    char h[1024];
    len = 0;
    snprintf(h, sizeof h,
             "*version\n%d\ndata-file-overflow=false\nclock=%s\nelapsed-time-usec=120\npid=1234\n"
             "*threads\n1234\tmain\n1240\tworker\n*methods\n0\tcom.example.App\tonCreate\t"
             "(Landroid/os/Bundle;)V\tApp.java\n0x4\tcom.example.Feed\tbind\t(I)V\tFeed.java\n"
             "0x8\tcom.example.Feed\tload\t()Ljava/lang/String;\tFeed.java\n0xc\tjava.lang.Thread"
             "\trun\t()V\tThread.java\n0x10\tcom.example.Feed\tfib\t(I)I\tFeed.java\n*end\n",
             version, clocks[clock]);
    str(h);
    size_t at = len;
    u32(0x574F4C53u);
    u16((unsigned)version);
    u16(32);
    u32(1000000);
    u32(0);
    if (version == 3)
        u16(clock == 2 ? 14 : 10);
    while (len < at + 32)
        u8(0);
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        if (version == 1)
            u8(ex[i][0] & 0xff);
        else
            u16(ex[i][0]);
        u32(ex[i][1] | ex[i][2]);
        if (clock != 1)
            u32(ex[i][3]);
        if (clock != 0)
            u32(ex[i][4]);
    }
}

typedef struct got {
    tt_art_slice s[16];
    size_t n;
} got;

static int on_slice(void *ud, const tt_art_slice *s)
{
    got *g = ud;
    ck_assert_uint_lt(g->n, 16);
    g->s[g->n++] = *s;
    return 0;
}

/* expected slices per thread in close order: depth, begin, dur, self, cpu dur, cpu self,
 * end kind, unwound */
static const int64_t main_exp[][8] = {
    {2, 25, 45, 45, 30, 30, TT_ART_END_EXACT, 0},
    {2, 80, 10, 10, 5, 5, TT_ART_END_EXACT, 1},
    {1, 12, 88, 33, 60, 25, TT_ART_END_EXACT, 0},
    {1, 120, 0, 0, 0, 0, TT_ART_END_TRUNCATED, 0},
    {0, 0, 120, 32, 80, 20, TT_ART_END_TRUNCATED, 0},
};
static const int64_t worker_exp[][8] = {
    {2, 30, 15, 15, 10, 10, TT_ART_END_EXACT, 0},
    {1, 20, 40, 25, 20, 10, TT_ART_END_EXACT, 1},
    {0, 15, 95, 55, 40, 20, TT_ART_END_EXACT, 0},
};

static void check_thread(const tt_art *a, size_t t, const int64_t (*exp)[8], size_t n)
{
    got g = {0};
    tt_art_visit v = {NULL, on_slice, &g};
    ck_assert_int_eq(tt_art_rebuild(a, t, NULL, &v, NULL, "t", NULL), 0);
    ck_assert_uint_eq(g.n, n);
    for (size_t i = 0; i < n; i++) {
        const tt_art_slice *s = &g.s[i];
        ck_assert_int_eq(s->depth, exp[i][0]);
        if (tt_art_has_wall(a)) {
            ck_assert_int_eq(s->ts_us, exp[i][1]);
            ck_assert_int_eq(s->dur_us, exp[i][2]);
            ck_assert_int_eq(s->self_us, exp[i][3]);
        }
        if (tt_art_has_cpu(a)) {
            ck_assert_int_eq(s->cpu_dur_us, exp[i][4]);
            ck_assert_int_eq(s->cpu_self_us, exp[i][5]);
        }
        ck_assert_int_eq(s->end_kind, exp[i][6]);
        ck_assert_int_eq(s->unwound, exp[i][7]);
    }
}

static void worked_example(int version, int clock)
{
    legacy(version, clock);
    tt_art *a = NULL;
    tt_error err = {0};
    ck_assert_int_eq(tt_art_detect(buf, len, NULL, 0), TT_ART_LEGACY);
    ck_assert_msg(!tt_art_parse(&a, buf, len, "t", NULL, NULL, &err), "%s", err.msg);
    ck_assert_uint_eq(a->nthreads, 2);
    size_t m = a->threads[0].id == (version == 1 ? 1234u & 0xff : 1234u) ? 0 : 1;
    ck_assert_str_eq(a->threads[m].name, "main");
    check_thread(a, m, main_exp, 5);
    check_thread(a, 1 - m, worker_exp, 3);
    tt_art_prof prof[5];
    int64_t span, cspan;
    ck_assert_int_eq(tt_art_profile(prof, &span, &cspan, a, NULL, NULL, NULL, "t", NULL), 0);
    if (tt_art_has_wall(a))
        ck_assert_int_eq(span, 215);
    if (tt_art_has_cpu(a))
        ck_assert_int_eq(cspan, 120);
    ck_assert_str_eq(a->methods[4].key, "com.example.Feed.fib(int)");
    ck_assert_uint_eq(prof[4].calls, 1);
    ck_assert_uint_eq(prof[4].recursive_calls, 1);
    tt_art_free(a);
}

START_TEST(ex52_v3_dual) { worked_example(3, 2); }
END_TEST
START_TEST(ex52_v2_wall) { worked_example(2, 1); }
END_TEST
START_TEST(ex52_v3_cpu) { worked_example(3, 0); }
END_TEST
START_TEST(ex52_v1) { worked_example(1, 0); }
END_TEST

/* The streamed profile (4, 6.6) keeps no events and gives tt_art_profile's numbers; the worker
 * thread alone through the thread filter. */
static int only_worker(void *ud, const tt_art *a, size_t t)
{
    (void)ud;
    return !strcmp(a->threads[t].name, "worker");
}

START_TEST(streamed_profile)
{
    legacy(3, 2);
    for (int sel = 0; sel < 2; sel++) {
        tt_art_pstream *ps = NULL;
        tt_art_rebuild_opts ro = {0};
        ck_assert_int_eq(tt_art_pstream_new(&ps, &ro, sel ? only_worker : NULL, NULL), 0);
        tt_art_opts o = {.event = tt_art_pstream_event, .event_ud = ps};
        tt_art *a = NULL;
        ck_assert_int_eq(tt_art_parse(&a, buf, len, "t", &o, NULL, NULL), 0);
        ck_assert_ptr_null(a->threads[0].ev);
        ck_assert_int_eq((int)a->threads[0].nev, 8);
        tt_art_prof *prof = NULL;
        int64_t span, cspan;
        ck_assert_int_eq(tt_art_pstream_finish(&prof, &span, &cspan, ps, a, NULL, "t", NULL), 0);
        tt_art_pstream_free(ps);
        ck_assert_int_eq((int)span, sel ? 95 : 215);
        ck_assert_int_eq((int)cspan, sel ? 40 : 120);
        /* Feed.fib 1+1, 40 wall self/total; App.onCreate 32/120 (main only) */
        ck_assert_int_eq((int)prof[4].calls, 1);
        ck_assert_int_eq((int)prof[4].recursive_calls, 1);
        ck_assert_int_eq((int)prof[4].self_us, 40);
        ck_assert_int_eq((int)prof[0].self_us, sel ? 0 : 32);
        ck_assert_int_eq((int)prof[0].total_us, sel ? 0 : 120);
        ck_assert_int_eq((int)prof[1].cpu_total_us, sel ? 0 : 60);
        free(prof);
        tt_art_free(a);
    }
}
END_TEST

START_TEST(detection)
{
    char what[200];
    ck_assert_int_eq(tt_art_detect((const unsigned char *)"SIMPLEPERF\0\0", 12, what, sizeof what),
                     TT_ART_NOT);
    ck_assert_ptr_nonnull(strstr(what, "simpleperf"));
    const unsigned char v2[8] = {'S', 'L', 'O', 'W', 0xf5, 0, 0, 0};
    ck_assert_int_eq(tt_art_detect(v2, 8, what, sizeof what), TT_ART_V2);
    ck_assert_ptr_nonnull(strstr(what, "version 5"));
    ck_assert_int_eq(tt_detect(v2, 8), TT_KIND_UNKNOWN);
    legacy(3, 2);
    ck_assert_int_eq(tt_detect(buf, len), TT_KIND_ART);
    /* another version line: named as an ART trace of that version (2.1) */
    ck_assert_int_eq(tt_art_detect((const unsigned char *)"*version\n4\n", 11, NULL, 0),
                     TT_ART_UNSUPPORTED);
    ck_assert_int_eq(tt_art_detect((const unsigned char *)"*version\n9\r\n", 12, what,
                                   sizeof what),
                     TT_ART_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(what, "unsupported version 9"));
    ck_assert_int_eq(tt_art_detect((const unsigned char *)"*version\nx\n", 11, NULL, 0),
                     TT_ART_NOT);
}
END_TEST

START_TEST(errors_name_offsets)
{
    legacy(3, 2);
    /* a record size too small for the dual clock */
    size_t at = (size_t)(strstr((char *)buf, "*end\n") - (char *)buf) + 5;
    buf[at + 16] = 10;
    tt_art *a = NULL;
    tt_error err = {0};
    ck_assert_int_eq(tt_art_parse(&a, buf, len, "t", NULL, NULL, &err), TT_EFORMAT);
    ck_assert_int_eq(err.loc_kind, TT_LOC_OFFSET);
    ck_assert_ptr_nonnull(strstr(err.msg, "record size 10"));
    /* bad magic after the text header */
    legacy(3, 2);
    buf[at] = 'X';
    ck_assert_int_eq(tt_art_parse(&a, buf, len, "t", NULL, NULL, &err), TT_EFORMAT);
    ck_assert_uint_eq(err.loc, at);
    ck_assert_ptr_null(a);
}
END_TEST

START_TEST(wrap)
{
    len = 0;
    str("*version\n2\nclock=wall\n*threads\n1\tmain\n*methods\n0x4\ta.B\tf\t()V\tB.java\n*end\n");
    size_t at = len;
    u32(0x574F4C53u);
    u16(2);
    u16(32);
    while (len < at + 32)
        u8(0);
    u16(1), u32(4), u32(4294967000u); /* enter just before the wrap */
    u16(1), u32(5), u32(300);         /* exit after it */
    tt_art *a = NULL;
    tt_stats *st = tt_stats_new();
    ck_assert_int_eq(tt_art_parse(&a, buf, len, "t", NULL, st, NULL), 0);
    got g = {0};
    tt_art_visit v = {NULL, on_slice, &g};
    ck_assert_int_eq(tt_art_rebuild(a, 0, NULL, &v, NULL, "t", NULL), 0);
    ck_assert_uint_eq(g.n, 1);
    ck_assert_int_eq(g.s[0].dur_us, 596);
    ck_assert_int_eq(g.s[0].cpu_dur_us, TT_ART_NONE);
    tt_art_free(a);
    tt_stats_free(st);
}
END_TEST

/* The chunked reader (tt_art_parse_src, section 4) gives what the whole-file parse gives:
 * results, stats in order, errors with their offsets, at any chunk size. */
typedef struct mem_src {
    const unsigned char *p;
    size_t n;
    int opens;
} mem_src;

static int mem_open(void *ud, tt_input **in, tt_error *err)
{
    mem_src *m = ud;
    m->opens++;
    return tt_input_open_mem(in, "t", m->p, m->n, err);
}

static void same_art(const tt_art *x, const tt_art *y)
{
    ck_assert_int_eq(x->kind, y->kind);
    ck_assert_int_eq(x->version, y->version);
    ck_assert_int_eq(x->clock, y->clock);
    ck_assert_uint_eq(x->records, y->records);
    ck_assert_uint_eq(x->nmethods, y->nmethods);
    for (size_t i = 0; i < x->nmethods; i++)
        ck_assert_str_eq(x->methods[i].key, y->methods[i].key);
    ck_assert_uint_eq(x->nkv, y->nkv);
    for (size_t i = 0; i < x->nkv; i++)
        ck_assert_str_eq(x->kv[i].value, y->kv[i].value);
    ck_assert_uint_eq(x->nthreads, y->nthreads);
    for (size_t t = 0; t < x->nthreads; t++) {
        const tt_art_thread *a = &x->threads[t], *b = &y->threads[t];
        ck_assert_uint_eq(a->id, b->id);
        ck_assert_str_eq(a->name, b->name);
        ck_assert_uint_eq(a->nev, b->nev);
        for (size_t i = 0; i < a->nev; i++)
            ck_assert(!memcmp(&a->ev[i], &b->ev[i], sizeof a->ev[i]));
    }
}

static void same_chunked(const unsigned char *p, size_t n)
{
    static const size_t chunks[] = {1, 2, 7, 13, 64, 4096, 0};
    tt_stats *st0 = tt_stats_new();
    tt_error e0 = {0};
    tt_art *a0 = NULL;
    tt_art_opts o0 = {.clock_guess = TT_ART_CLOCK_WALL};
    int rc0 = tt_art_parse(&a0, p, n, "t", &o0, st0, &e0);
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        mem_src m = {p, n, 0};
        tt_art_src src = {mem_open, &m, NULL};
        tt_art_opts o = {.clock_guess = TT_ART_CLOCK_WALL, .chunk_bytes = chunks[c]};
        tt_stats *st = tt_stats_new();
        tt_error e = {0};
        tt_art *a = NULL;
        ck_assert_int_eq(tt_art_parse_src(&a, &src, "t", &o, st, &e), rc0);
        ck_assert_int_eq(e.loc_kind, e0.loc_kind);
        ck_assert_uint_eq(e.loc, e0.loc);
        ck_assert_str_eq(e.msg, e0.msg);
        if (!rc0) {
            same_art(a0, a);
            ck_assert_int_eq(m.opens, 2);
        }
        ck_assert_uint_eq(tt_stats_count(st), tt_stats_count(st0));
        for (size_t i = 0; i < tt_stats_count(st); i++) {
            const tt_stat *x = tt_stats_get(st0, i), *y = tt_stats_get(st, i);
            ck_assert_str_eq(x->name, y->name);
            ck_assert_int_eq(x->count, y->count);
            ck_assert_str_eq(x->example, y->example);
        }
        tt_art_free(a);
        tt_stats_free(st);
    }
    tt_art_free(a0);
    tt_stats_free(st0);
}

START_TEST(chunked)
{
    static const char *const files[] = {
        "ex52-samples", "ex52-stream", "ex52-v1", "ex52-v2wall", "ex52", "names", "obfuscated",
        "overflow", "recsize0", "sampled-samples", "slow", "stream-badpacket",
        "stream-nosummary", "synthetic", "truncated", "vectors", "wrap"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "fuzz/corpus/art/%s.trace", files[i]);
        FILE *f = fopen(path, "rb");
        ck_assert_msg(f != NULL, "%s", path);
        static unsigned char data[1 << 16];
        size_t n = fread(data, 1, sizeof data, f);
        ck_assert(feof(f));
        fclose(f);
        same_chunked(data, n);
        same_chunked(data, n / 2); /* cut anywhere: the same truncation warnings or errors */
        same_chunked(data, n > 40 ? 40 : n);
    }
    for (int v = 1; v <= 3; v++)
        for (int c = 0; c < 3; c++) {
            legacy(v, c);
            same_chunked(buf, len);
        }
}
END_TEST

static Suite *art_suite(void)
{
    Suite *s = suite_create("art");
    TCase *tc = tcase_create("reader");
    tcase_add_test(tc, ex52_v3_dual);
    tcase_add_test(tc, ex52_v2_wall);
    tcase_add_test(tc, ex52_v3_cpu);
    tcase_add_test(tc, ex52_v1);
    tcase_add_test(tc, detection);
    tcase_add_test(tc, errors_name_offsets);
    tcase_add_test(tc, wrap);
    tcase_add_test(tc, streamed_profile);
    tcase_add_test(tc, chunked);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(art_suite)
