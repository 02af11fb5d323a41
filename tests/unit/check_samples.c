/* Sampled stacks (spec/samples.md): interning (4.2), run merging (4.3), slice rebuilding
 * (5.2-5.5 incl. the worked example), readers' bad input (2.1-2.4), exports (7.1-7.3). */
#include "unit.h"
#include "../../libtrace/tt_int.h"
#include "../../libtrace/perf_text_int.h"

#include <jansson.h>

static tt_profile *prof(void)
{
    tt_profile *p;
    ck_assert_int_eq(tt_profile_new(&p, TT_IDENT_NAME), 0);
    return p;
}

/* Interns a stack of one-letter frames, root first ("mAB" = main > A > B). */
static uint32_t stack(tt_profile *p, const char *s)
{
    uint32_t f[64];
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        char name[8] = {s[i], 0};
        if (s[i] == 'm')
            strcpy(name, "main");
        tt_stack_frame fr = {.name = name};
        ck_assert_int_eq(tt_frame_intern(p, &f[i], &fr), 0);
    }
    uint32_t leaf;
    ck_assert_int_eq(tt_callsite_intern(p, &leaf, f, n), 0);
    return leaf;
}

static void point(tt_profile *p, uint32_t utid, int64_t ts, const char *s, uint64_t msg)
{
    tt_sample x;
    tt_sample_init(&x);
    x.utid = utid;
    x.ts = ts;
    x.callsite = stack(p, s);
    x.msg_id = msg;
    ck_assert_int_eq(tt_profile_add(p, &x, NULL), 0);
}

/* Frames an importer marks as replaced go when no callsite uses them; the others are
 * renumbered, and callsites and interning find them under their new ids. */
START_TEST(drop_unused_frames)
{
    tt_profile *p = prof();
    uint32_t ab = stack(p, "mAB"), x, c;
    tt_stack_frame fx = {.name = "X"}, fc = {.name = "C"};
    ck_assert_int_eq(tt_frame_intern(p, &x, &fx), 0);
    ck_assert_int_eq(tt_frame_intern(p, &c, &fc), 0);
    ck_assert_uint_eq(x, 3);
    uint32_t mc = stack(p, "mC");
    unsigned char drop[4] = {0, 1, 0, 1}; /* A (used: kept) and X */
    ck_assert_int_eq(tt__profile_drop_frames(p, drop, 4), 0);
    ck_assert_uint_eq(tt_profile_nframes(p), 4);
    ck_assert_str_eq(tt_profile_frame(p, 1)->name, "A");
    ck_assert_str_eq(tt_profile_frame(p, 3)->name, "C");
    ck_assert_uint_eq(tt_profile_callsite(p, mc)->frame, 3);
    ck_assert_uint_eq(stack(p, "mC"), mc);
    ck_assert_uint_eq(stack(p, "mAB"), ab);
    ck_assert_uint_eq(tt_profile_ncallsites(p), 4);
    ck_assert_int_eq(tt_frame_intern(p, &c, &fc), 0);
    ck_assert_uint_eq(c, 3);
    ck_assert_int_eq(tt_frame_intern(p, &x, &fx), 0);
    ck_assert_uint_eq(x, 4);
    /* nothing marked, or only used frames: unchanged */
    ck_assert_int_eq(tt__profile_drop_frames(p, drop, 2), 0);
    ck_assert_uint_eq(tt_profile_nframes(p), 5);
    tt_profile_free(p);
}
END_TEST

START_TEST(interning)
{
    tt_profile *p = prof();
    uint32_t a = stack(p, "mAB"), b = stack(p, "mAB"), c = stack(p, "mAC");
    ck_assert_uint_eq(a, b);
    ck_assert_uint_ne(a, c);
    ck_assert_uint_eq(tt_profile_ncallsites(p), 4); /* m, A, B, C: the prefix is shared */
    const tt_callsite *cs = tt_profile_callsite(p, c);
    ck_assert_uint_eq(cs->depth, 2);
    ck_assert_uint_eq(cs->parent, tt_profile_callsite(p, a)->parent);
    ck_assert_uint_lt(cs->parent, c);
    uint32_t fr[8];
    ck_assert_uint_eq(tt_callsite_frames(p, c, fr, 8), 3);
    ck_assert_str_eq(tt_profile_frame(p, fr[0])->name, "main");
    ck_assert_str_eq(tt_profile_frame(p, fr[2])->name, "C");
    /* address identity keeps same-named frames apart */
    tt_profile *q;
    ck_assert_int_eq(tt_profile_new(&q, TT_IDENT_ADDRESS), 0);
    tt_stack_frame x = {.name = "lambda", .has_addr = 1, .addr = 1}, y = x;
    y.addr = 2;
    uint32_t i1, i2, i3;
    tt_frame_intern(q, &i1, &x);
    tt_frame_intern(q, &i2, &y);
    tt_frame_intern(p, &i3, &x);
    ck_assert_uint_ne(i1, i2);
    tt_frame_intern(p, &i1, &y);
    ck_assert_uint_eq(i1, i3);
    tt_profile_free(q);
    tt_profile_free(p);
}
END_TEST

/* Symbolication: unnamed frames stay one per address, renames merge frames and callsites. */
START_TEST(rename_merge)
{
    tt_profile *p;
    ck_assert_int_eq(tt_profile_new(&p, TT_IDENT_NAME_UNNAMED_ADDRESS), 0);
    tt_stack_frame m = {.name = "main", .module = "app", .kind = TT_FRAME_NATIVE};
    tt_stack_frame u1 = {.name = "[unknown] app", .module = "app", .kind = TT_FRAME_NATIVE,
                         .has_addr = 1, .addr = 0x10, .is_unnamed = 1};
    tt_stack_frame u2 = u1, u3 = u1;
    u2.addr = 0x20;
    u3.addr = 0x30;
    uint32_t f[4], leaf[3];
    ck_assert_int_eq(tt_frame_intern(p, &f[0], &m), 0);
    ck_assert_int_eq(tt_frame_intern(p, &f[1], &u1), 0);
    ck_assert_int_eq(tt_frame_intern(p, &f[2], &u2), 0);
    ck_assert_int_eq(tt_frame_intern(p, &f[3], &u3), 0);
    ck_assert_uint_eq(tt_profile_nframes(p), 4); /* one frame per unnamed address */
    uint32_t s1[2] = {f[0], f[1]}, s2[2] = {f[0], f[2]}, s3[2] = {f[0], f[3]};
    tt_callsite_intern(p, &leaf[0], s1, 2);
    tt_callsite_intern(p, &leaf[1], s2, 2);
    tt_callsite_intern(p, &leaf[2], s3, 2);
    uint32_t t;
    ck_assert_int_eq(tt_thread_intern(p, &t, 0, 1, 1, 32), 0);
    for (int i = 0; i < 3; i++) {
        tt_sample x;
        tt_sample_init(&x);
        x.utid = t;
        x.ts = i;
        x.callsite = leaf[i];
        ck_assert_int_eq(tt_profile_add(p, &x, NULL), 0);
    }
    tt_error err = {0};
    ck_assert_int_eq(tt_profile_finish(p, &err), 0);
    /* 0x10 and 0x20 are both in work(); 0x30 stays unnamed */
    ck_assert_int_eq(tt_frame_set_name(p, f[1], "work"), 0);
    ck_assert_int_eq(tt_frame_set_name(p, f[2], "work"), 0);
    ck_assert_int_eq(tt_profile_merge_frames(p), 0);
    ck_assert_uint_eq(tt_profile_nframes(p), 3);
    ck_assert_uint_eq(tt_profile_ncallsites(p), 3);
    const tt_sample *a = tt_profile_sample(p, 0), *b = tt_profile_sample(p, 1),
                    *c = tt_profile_sample(p, 2);
    ck_assert_uint_eq(a->callsite, b->callsite);
    ck_assert_uint_ne(a->callsite, c->callsite);
    ck_assert_str_eq(tt_profile_frame(p, tt_profile_callsite(p, a->callsite)->frame)->name,
                     "work");
    const tt_stack_frame *left = tt_profile_frame(p, tt_profile_callsite(p, c->callsite)->frame);
    ck_assert_str_eq(left->name, "[unknown] app");
    ck_assert_int_eq(left->is_unnamed, 1);
    /* afterwards name identity: another unnamed address of app is the same frame again */
    tt_stack_frame u4 = u1;
    u4.addr = 0x40;
    uint32_t id;
    ck_assert_int_eq(tt_frame_intern(p, &id, &u4), 0);
    ck_assert_uint_eq(id, tt_profile_callsite(p, c->callsite)->frame);
    ck_assert_int_eq(tt_frame_intern(p, &id, &(tt_stack_frame){.name = "work", .module = "app"}),
                     0);
    ck_assert_uint_eq(id, tt_profile_callsite(p, a->callsite)->frame);
    tt_profile_free(p);
}
END_TEST

START_TEST(run_merging)
{
    tt_profile *p = prof();
    uint32_t t;
    tt_thread_intern(p, &t, 0, 1, 1, 32);
    point(p, t, 0, "mA", 1);
    point(p, t, 1000000, "mA", 1);
    point(p, t, 2000000, "mA", 1);
    point(p, t, 3000000, "mA", 2);       /* new message: new run */
    point(p, t, 900000000, "mA", 2);     /* beyond the max gap: new run */
    tt_sample iv;
    tt_sample_init(&iv);
    iv.utid = t;
    iv.ts = 900000001;
    iv.end_ts = 900000100;
    iv.is_interval = 1;
    iv.callsite = stack(p, "mA");
    iv.msg_id = 2;
    tt_profile_add(p, &iv, NULL);        /* intervals are never merged */
    ck_assert_int_eq(tt_profile_finish(p, NULL), 0);
    tt_vec runs;
    tt_vec_init(&runs, sizeof(tt_run));
    ck_assert_int_eq(tt_profile_runs(&runs, p, t, 20000000), 0);
    ck_assert_uint_eq(runs.len, 4);
    tt_run *r = runs.data;
    ck_assert_uint_eq(r[0].count, 3);
    ck_assert_int_eq(r[0].end_ts, 2000000);
    ck_assert_int_eq(r[0].weight, 3);
    ck_assert_uint_eq(r[1].count, 1);
    ck_assert(r[3].is_interval);
    tt_vec_free(&runs);
    tt_profile_free(p);
}
END_TEST

/* The worked example of 5.5: items at 0, 1, 2, 3, 200 ms; max gap 20 ms; pad 10 ns. */
static tt_vec example(int policy, tt_profile **pp)
{
    tt_profile *p = prof();
    uint32_t t;
    tt_thread_intern(p, &t, 0, 1, 1, 32);
    const int64_t ms = 1000000;
    point(p, t, 0, "mAB", 0);
    point(p, t, 1 * ms, "mAB", 0);
    point(p, t, 2 * ms, "mAC", 0);
    point(p, t, 3 * ms, "mD", 0);
    point(p, t, 200 * ms, "mD", 0);
    ck_assert_int_eq(tt_profile_finish(p, NULL), 0);
    tt_slice_opts o;
    tt_slice_opts_init(&o);
    o.max_gap = 20 * ms;
    o.end_policy = policy;
    tt_vec v;
    tt_vec_init(&v, sizeof(tt_slice));
    tt_slice_info info;
    ck_assert_int_eq(tt_slice_build(&v, &info, p, t, &o, NULL), 0);
    ck_assert_uint_eq(info.gap_splits, 1);
    *pp = p;
    return v;
}

static void expect(tt_profile *p, const tt_slice *s, const char *name, int64_t b, int64_t e)
{
    ck_assert_str_eq(tt_profile_frame(p, s->frame)->name, name);
    ck_assert_int_eq(s->ts, b);
    ck_assert_int_eq(s->ts + s->dur, e);
}

START_TEST(policy_example)
{
    const int64_t ms = 1000000;
    struct { int pol; int64_t A[2], B[2], C[2], D[2]; } want[] = {
        {TT_END_LAST, {0, 2 * ms + 10}, {0, 1 * ms + 10}, {2 * ms, 2 * ms + 10},
         {3 * ms, 3 * ms + 10}},
        {TT_END_MID, {0, 2500000}, {0, 1500000}, {1500000, 2500000}, {2500000, 3 * ms + 10}},
        {TT_END_NEXT, {0, 3 * ms}, {0, 2 * ms}, {2 * ms, 3 * ms}, {3 * ms, 3 * ms + 10}},
    };
    for (int k = 0; k < 3; k++) {
        tt_profile *p;
        tt_vec v = example(want[k].pol, &p);
        ck_assert_uint_eq(v.len, 7); /* main A B C D | main D */
        tt_slice *s = v.data;        /* pre-order: main, A, B, C, D, main, D */
        expect(p, &s[0], "main", 0, 3 * ms + 10);
        expect(p, &s[1], "A", want[k].A[0], want[k].A[1]);
        expect(p, &s[2], "B", want[k].B[0], want[k].B[1]);
        expect(p, &s[3], "C", want[k].C[0], want[k].C[1]);
        expect(p, &s[4], "D", want[k].D[0], want[k].D[1]);
        expect(p, &s[5], "main", 200 * ms, 200 * ms + 10);
        expect(p, &s[6], "D", 200 * ms, 200 * ms + 10);
        ck_assert_uint_eq(s[1].parent, 0);
        ck_assert_uint_eq(s[2].depth, 2);
        ck_assert_uint_eq(s[0].sample_count, 4);
        ck_assert_int_eq(s[0].gap_after, -1);
        for (size_t i = 0; i < v.len; i++) /* strict nesting */
            if (s[i].parent != TT_NONE) {
                const tt_slice *q = &s[s[i].parent];
                ck_assert_int_ge(s[i].ts, q->ts);
                ck_assert_int_le(s[i].ts + s[i].dur, q->ts + q->dur);
            }
        tt_vec_free(&v);
        tt_profile_free(p);
    }
}
END_TEST

static size_t count_named(tt_profile *p, const tt_vec *v, const char *name)
{
    size_t n = 0;
    for (size_t i = 0; i < v->len; i++)
        n += !strcmp(tt_profile_frame(p, TT_VEC_AT(v, tt_slice, i).frame)->name, name);
    return n;
}

START_TEST(message_split)
{
    tt_profile *p = prof();
    uint32_t t;
    tt_thread_intern(p, &t, 0, 1, 1, 32);
    /* identical stacks, message 1 then 2: Feed is split below Looper.loop(), loop is kept */
    uint32_t f[4];
    const char *names[] = {"main", "android.os.Looper.loop()", "Handler", "Feed"};
    for (int i = 0; i < 4; i++) {
        tt_stack_frame fr = {.name = names[i]};
        tt_frame_intern(p, &f[i], &fr);
    }
    uint32_t cs;
    tt_callsite_intern(p, &cs, f, 4);
    for (int i = 0; i < 4; i++) {
        tt_sample x;
        tt_sample_init(&x);
        x.utid = t;
        x.ts = i * 1000000;
        x.callsite = cs;
        x.msg_id = i < 2 ? 1 : 2;
        tt_profile_add(p, &x, NULL);
    }
    tt_profile_finish(p, NULL);
    tt_slice_opts o;
    tt_slice_opts_init(&o);
    tt_vec v;
    tt_vec_init(&v, sizeof(tt_slice));
    tt_slice_info info;
    ck_assert_int_eq(tt_slice_build(&v, &info, p, t, &o, NULL), 0);
    ck_assert_uint_eq(count_named(p, &v, "Feed"), 2);
    ck_assert_uint_eq(count_named(p, &v, "android.os.Looper.loop()"), 1);
    ck_assert_uint_eq(info.msg_splits, 1);
    o.no_msg_split = 1;
    ck_assert_int_eq(tt_slice_build(&v, &info, p, t, &o, NULL), 0);
    ck_assert_uint_eq(count_named(p, &v, "Feed"), 1);
    tt_vec_free(&v);
    tt_profile_free(p);
}
END_TEST

START_TEST(max_gap_and_marks)
{
    tt_profile *p = prof();
    uint32_t t;
    tt_thread_intern(p, &t, 0, 1, 1, 32);
    for (int i = 0; i < 10; i++)
        point(p, t, i * 1000000, "mA", 0);
    for (int i = 0; i < 10; i++)
        point(p, t, 500000000 + i * 1000000, "mA", 0);
    tt_profile_finish(p, NULL);
    ck_assert_int_eq(tt_profile_max_gap(p, t, TT_GAP_AUTO), 20000000); /* 20 x 1 ms */
    tt_slice_opts o;
    tt_slice_opts_init(&o);
    o.mark_gaps = 1;
    tt_vec v;
    tt_vec_init(&v, sizeof(tt_slice));
    tt_slice_info info;
    ck_assert_int_eq(tt_slice_build(&v, &info, p, t, &o, NULL), 0);
    ck_assert_uint_eq(info.gap_splits, 1);
    ck_assert_uint_eq(count_named(p, &v, "A"), 2);
    ck_assert_uint_eq(count_named(p, &v, "[no samples]"), 1);
    o.max_gap = TT_GAP_NONE; /* btrace's unlimited behaviour */
    o.mark_gaps = 0;
    ck_assert_int_eq(tt_slice_build(&v, &info, p, t, &o, NULL), 0);
    ck_assert_uint_eq(count_named(p, &v, "A"), 1);
    tt_vec_free(&v);
    tt_profile_free(p);
}
END_TEST

START_TEST(interval_ownership)
{
    tt_profile *p = prof();
    uint32_t t;
    tt_thread_intern(p, &t, 0, 1, 1, 32);
    uint32_t cs = stack(p, "mW");
    for (int i = 0; i < 2; i++) { /* two back-to-back identical Object.wait intervals */
        tt_sample x;
        tt_sample_init(&x);
        x.utid = t;
        x.ts = i * 100;
        x.end_ts = i * 100 + 90;
        x.is_interval = x.is_blocking = 1;
        x.type = TT_ST_WAIT;
        x.callsite = cs;
        tt_profile_add(p, &x, NULL);
    }
    tt_profile_finish(p, NULL);
    tt_slice_opts o;
    tt_slice_opts_init(&o);
    tt_vec v;
    tt_vec_init(&v, sizeof(tt_slice));
    tt_slice_info info;
    ck_assert_int_eq(tt_slice_build(&v, &info, p, t, &o, NULL), 0);
    ck_assert_uint_eq(count_named(p, &v, "W"), 2);
    ck_assert_uint_eq(count_named(p, &v, "main"), 1);
    const tt_slice *s = v.data;
    ck_assert_int_eq(s[0].block_dur, 180);
    ck_assert_int_eq(s[1].block_dur, 90);
    tt_vec_free(&v);
    tt_profile_free(p);
}
END_TEST

static int import_text(int (*fn)(tt_profile *, tt_input *, const tt_import_opts *, tt_stats *,
                                 tt_error *),
                       const char *text, tt_profile **pp, tt_stats *st, tt_error *err)
{
    tt_profile *p = prof();
    tt_input *in = unit_mem("t.txt", text, strlen(text));
    tt_import_opts o = {0};
    int rc = fn(p, in, &o, st, err);
    tt_input_close(in);
    if (!rc)
        tt_profile_finish(p, NULL);
    *pp = p;
    return rc;
}

START_TEST(perf_reader)
{
    const char *t =
        "# header comment\n"
        "Jit thread pool\t1234/1250 [002] 1234.567890: 250000 cpu-clock:\n"
        "\t7f00 operator+ (/system/lib64/libc.so)\n"
        "\t7e00 foo(int, char)+0x1c (/data/app/libfoo.so)\n"
        "\t7d00 [unknown] (/data/app/libbar.so)\n"
        "\n"
        "garbage line without a timestamp\n"
        "\n"
        "main\t1234 [001] 1234.567891:\t\t250000 cpu-clock:\n"
        "    000000000000abcd main (/system/bin/app)\n"
        "\n";
    tt_profile *p;
    tt_stats *st = tt_stats_new();
    tt_error err;
    ck_assert_int_eq(import_text(tt_perf_import, t, &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    ck_assert_uint_eq(tt_profile_nthreads(p), 2);
    const tt_thread *th = tt_profile_thread(p, 0);
    ck_assert_str_eq(th->name, "Jit thread pool");
    ck_assert_int_eq(th->pid, 1234);
    ck_assert_int_eq(th->tid, 1250);
    const tt_sample *s = tt_profile_sample(p, 0);
    ck_assert_int_eq(s->ts, 1234567890000LL);
    ck_assert_int_eq(s->weight, 250000);
    uint32_t fr[8];
    ck_assert_uint_eq(tt_callsite_frames(p, s->callsite, fr, 8), 3);
    ck_assert_str_eq(tt_profile_frame(p, fr[0])->name, "[unknown] libbar.so");
    ck_assert_str_eq(tt_profile_frame(p, fr[1])->name, "foo(int, char)");
    ck_assert_str_eq(tt_profile_frame(p, fr[1])->module, "libfoo.so");
    ck_assert_str_eq(tt_profile_frame(p, fr[2])->name, "operator+");
    ck_assert(tt_profile_thread(p, 1)->is_main == 0);
    ck_assert_uint_eq(tt_stats_count(st), 1);
    ck_assert_str_eq(tt_stats_get(st, 0)->name, "perf_unparsable_line");
    ck_assert_ptr_ne(strstr(tt_stats_get(st, 0)->example, "t.txt:7:"), NULL);
    tt_profile_free(p);
    /* nothing parses: an error with the line */
    ck_assert_int_eq(import_text(tt_perf_import, "\nhello world\n", &p, st, &err), TT_EFORMAT);
    ck_assert_int_eq(err.loc_kind, TT_LOC_LINE);
    ck_assert_uint_eq(err.loc, 2);
    tt_profile_free(p);
    int64_t ns;
    int fd;
    ck_assert_int_eq(tt_perf_parse_ts("12.5678", 7, &ns, &fd), 0);
    ck_assert_int_eq(ns, 12567800000LL);
    ck_assert_int_ne(tt_perf_parse_ts("12.", 3, &ns, &fd), 0);
    tt_stats_free(st);
}
END_TEST

static const tt_stat *stat_named(const tt_stats *st, const char *name)
{
    for (size_t i = 0; i < tt_stats_count(st); i++)
        if (!strcmp(tt_stats_get(st, i)->name, name))
            return tt_stats_get(st, i);
    return NULL;
}

/* A lone "Warning:" line (perf's stderr by 2>&1, its message not there) in a file of tids, between
 * two samples or before the first: the layout scan and the sample reader read it alike
 * (tt__perf_warn_step), a warning and no header; at the top the scan, which has seen no tid
 * yet, reads it again once the file shows one, as the reader does, also when the sample right
 * after it is the file's only one. */
START_TEST(perf_lone_warning)
{
    static const char a[] = "worker 2 24774    5000000 \n"
                            "\t            117a spin\n\t           891f5 start_thread\n\n";
    static const char b[] = "mt 24697    5000000 \n"
                            "\t            117a spin\n\t           2724a __libc_start_call_main\n\n";
    char txt[3][512];
    snprintf(txt[0], sizeof txt[0], "%sWarning:\n%s", a, b);
    snprintf(txt[1], sizeof txt[1], "Warning:\n%s%s", a, b);
    snprintf(txt[2], sizeof txt[2], "Warning:\n%s", a);
    for (int i = 0; i < 3; i++) {
        size_t want = i == 2 ? 1 : 2;
        tt__perf_layout lay;
        int tid_or_time;
        size_t headers;
        tt__perf_layout_scan(&lay, &tid_or_time, &headers, txt[i], strlen(txt[i]));
        ck_assert_int_eq(lay.tail, 2);
        ck_assert_int_eq(lay.notid, 0);
        ck_assert_int_eq(tid_or_time, 1);
        ck_assert_uint_eq(headers, want); /* the headers; "Warning:" is none */
        tt_profile *p;
        tt_stats *st = tt_stats_new();
        tt_error err;
        ck_assert_int_eq(import_text(tt_perf_import, txt[i], &p, st, &err), 0);
        ck_assert_uint_eq(tt_profile_nsamples(p), want);
        const tt_stat *w = stat_named(st, "perf_stderr_warning");
        ck_assert_ptr_ne(w, NULL);
        ck_assert_int_eq(w->count, 1);
        ck_assert_ptr_eq(stat_named(st, "perf_not_a_frame"), NULL);
        tt_profile_free(p);
        tt_stats_free(st);
    }
}
END_TEST

/* perf's " (deleted)" after a dso (ART JIT code, a library replaced while profiled): the dso is
 * the balanced group that ends the line, its path is without the suffix, memfd files are named
 * by the name given to memfd_create; on a call-chain line and on the header line alike. */
START_TEST(perf_deleted_dso)
{
    const char *t =
        "app 4411/4470 [003] 6544038.708352: 250000 cpu-clock:\n"
        "\t    7b1c04f2a4 leaf+0x1d (/data/app/lib/libfoo.so (deleted))\n"
        "\t    70a1b2c3d4 [unknown] (/memfd:jit-cache (deleted))\n"
        "\t    7000001000 f(int, char (*)(int)) (/data/app/lib/libfoo.so)\n"
        "\n"
        "app 4470 6544038.709352: 1 cpu-clock:  7b1c04f2b0 g() (/lib/x (1).so (deleted))\n";
    tt_profile *p;
    tt_stats *st = tt_stats_new();
    tt_error err;
    ck_assert_int_eq(import_text(tt_perf_import, t, &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    uint32_t fr[8];
    ck_assert_uint_eq(tt_callsite_frames(p, tt_profile_sample(p, 0)->callsite, fr, 8), 3);
    const tt_stack_frame *f = tt_profile_frame(p, fr[0]);
    ck_assert_str_eq(f->name, "f(int, char (*)(int))");
    ck_assert_str_eq(f->module, "libfoo.so");
    f = tt_profile_frame(p, fr[1]);
    ck_assert_str_eq(f->name, "[unknown] jit-cache");
    ck_assert_str_eq(f->module, "jit-cache");
    ck_assert_str_eq(f->module_path, "/memfd:jit-cache");
    ck_assert_int_eq(f->kind, TT_FRAME_JAVA);
    f = tt_profile_frame(p, fr[2]);
    ck_assert_str_eq(f->name, "leaf");
    ck_assert_str_eq(f->module, "libfoo.so");
    ck_assert_uint_eq(tt_callsite_frames(p, tt_profile_sample(p, 1)->callsite, fr, 8), 1);
    f = tt_profile_frame(p, fr[0]);
    ck_assert_str_eq(f->name, "g()");
    ck_assert_str_eq(f->module, "x (1).so");
    const tt_stat *d = stat_named(st, "perf_deleted_module");
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(strstr(d->example, "/data/app/lib/libfoo.so (deleted)"));
    tt_profile_free(p);
    tt_stats_free(st);
}
END_TEST

/* A header equal to the one before but for its time is read as that header at the new time;
 * any other difference, or a time of another length or shape, is read anew. */
START_TEST(perf_repeated_headers)
{
    const char *t = "app 10/10 [000] 1.000001: 5 cycles:\n\t7f00 f (/x)\n\n"
                    "app 10/10 [000] 1.000002: 5 cycles:\n\t7f00 f (/x)\n\n"
                    "app 10/11 [000] 1.000003: 5 cycles:\n\t7f00 f (/x)\n\n"
                    "app 10/11 [000] 1.000004: 7 cycles:\n\t7f00 f (/x)\n\n"
                    "app 10/11 [000] 12.000005: 7 cycles:\n\t7f00 f (/x)\n\n"
                    "app 10/11 [000] 12.000006: 7 instrs:\n\t7f00 f (/x)\n\n"
                    "app 10/11 [000] 12.000007: 7 cycles:\n\t7f00 f (/x)\n\n"
                    "app 10/11 [000] 12.0000x8: 7 cycles:\n\t7f00 f (/x)\n\n"
                    "app 10/11 [000] 12.000009: 7 cycles:\t\n\t7f00 f (/x)\n\n";
    static const struct {
        int64_t ts, tid, weight;
    } want[] = {{1000001000, 10, 5}, {1000002000, 10, 5}, {1000003000, 11, 5},
                {1000004000, 11, 7}, {12000005000, 11, 7}, {12000007000, 11, 7},
                {12000009000, 11, 7}}; /* "12.0000x8:" is an event then, not the one kept */
    tt_profile *p;
    tt_stats *st = tt_stats_new();
    tt_error err;
    ck_assert_int_eq(import_text(tt_perf_import, t, &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 7);
    for (uint32_t i = 0; i < 7; i++) {
        const tt_sample *s = tt_profile_sample(p, i);
        ck_assert_int_eq(s->ts, want[i].ts);
        ck_assert_int_eq(tt_profile_thread(p, s->utid)->tid, want[i].tid);
        ck_assert_int_eq(s->weight, want[i].weight);
    }
    ck_assert_ptr_ne(stat_named(st, "perf_other_event"), NULL);
    tt_profile_free(p);
    tt_stats_free(st);
}
END_TEST

static const char *leaf_name(tt_profile *p, uint32_t i)
{
    uint32_t fr[64];
    size_t n = tt_callsite_frames(p, tt_profile_sample(p, i)->callsite, fr, 64);
    return tt_profile_frame(p, fr[n - 1])->name;
}

/* Issue 11 items 1-5: every header layout perf script writes, by shape */
START_TEST(perf_layouts)
{
    tt_profile *p;
    tt_stats *st = tt_stats_new();
    tt_error err;
    /* 1: no time (perf 3.x, -F comm,pid,event,ip,sym,dso): a profile without timestamps */
    ck_assert_int_eq(import_text(tt_perf_import,
                                 "func_ab 15294 cpu-clock:\n"
                                 "      7f1e2215d058 func_b (/tmp/ab)\n"
                                 "      7f1e2215d000 func_a (/tmp/ab)\n\n"
                                 "java  3244 cpu-clock:\n"
                                 "\t7f1e2215d100 Interpreter ([unknown])\n\n",
                                 &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    ck_assert(tt_profile_meta_get(p)->timeless);
    ck_assert_str_eq(tt_profile_meta_get(p)->event, "cpu-clock");
    ck_assert_str_eq(tt_profile_thread(p, 0)->name, "func_ab");
    ck_assert_int_eq(tt_profile_thread(p, 0)->tid, 15294);
    ck_assert_str_eq(tt_profile_thread(p, 1)->name, "java");
    ck_assert_str_eq(leaf_name(p, 0), "func_b");
    ck_assert_ptr_nonnull(stat_named(st, "perf_no_timestamps"));
    tt_profile_free(p);
    /* 2: one-line samples (no -g) with comm padded to 16 columns; a +srcline line after one;
     * a comm that is all hex digits */
    ck_assert_int_eq(import_text(tt_perf_import,
                                 "           false 39654 19115.489719:          1 cycles:      "
                                 "7fa68b1f2d84 _dl_start+0x4 (/usr/lib/ld-2.31.so)\n"
                                 "  rtld.c:512\n"
                                 "              cc 39655 19115.489720:          1 cycles:      "
                                 "7fa68b1f2d90 main+0x10 (/usr/bin/cc)\n",
                                 &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    ck_assert(!tt_profile_meta_get(p)->timeless);
    ck_assert_str_eq(leaf_name(p, 0), "_dl_start");
    uint32_t fr[8];
    tt_callsite_frames(p, tt_profile_sample(p, 0)->callsite, fr, 8);
    ck_assert_str_eq(tt_profile_frame(p, fr[0])->file, "rtld.c");
    ck_assert_str_eq(tt_profile_thread(p, 1)->name, "cc");
    ck_assert_str_eq(leaf_name(p, 1), "main");
    tt_profile_free(p);
    /* 3: exec renames the thread: one thread (samples.md 3), named by its last comm; a fork
     * record of its tid after its samples: the samples after it are a new thread */
    ck_assert_int_eq(import_text(tt_perf_import,
                                 "perf 47119 1.000000: 1 cycles:\n\tffff do_lookup_x (/l)\n\n"
                                 "sleep 47119 1.000100: 1 cycles:\n\tfff0 main (/s)\n\n"
                                 "sleep 47119 1.000200: 1 cycles:\n\tfff0 main (/s)\n\n"
                                 "sh 1 1.000300: PERF_RECORD_FORK(47119:47119):(1:1)\n"
                                 "sh 47119 1.000400: 1 cycles:\n\tfff0 main (/s)\n\n",
                                 &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nthreads(p), 2);
    ck_assert_str_eq(tt_profile_thread(p, 0)->name, "sleep");
    ck_assert_int_eq(tt_profile_thread(p, 0)->tid, 47119);
    ck_assert_uint_eq(tt_profile_sample(p, 0)->utid, 0);
    ck_assert_uint_eq(tt_profile_sample(p, 2)->utid, 0);
    ck_assert_uint_eq(tt_profile_sample(p, 3)->utid, 1);
    ck_assert_str_eq(tt_profile_thread(p, 1)->name, "sh");
    ck_assert_int_eq(tt_profile_thread(p, 1)->tid, 47119);
    tt_profile_free(p);
    /* 4: precision modifiers: one event (a privilege one makes another: cycles:u) */
    ck_assert_int_eq(import_text(tt_perf_import,
                                 "a 1 1.0: 1 cycles:P:\n\tf1 x (/a)\n\n"
                                 "a 1 1.1: 1 cycles:ppp:\n\tf1 x (/a)\n\n"
                                 "a 1 1.2: 1 cycles:\n\tf1 x (/a)\n\n"
                                 "a 1 1.3: 1 instructions:u:\n\tf1 x (/a)\n\n"
                                 "a 1 1.4: 1 cycles:u:\n\tf1 x (/a)\n\n",
                                 &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 3);
    ck_assert_str_eq(tt_profile_meta_get(p)->event, "cycles");
    ck_assert_str_eq(tt_profile_meta_get(p)->event_variants, "cycles:P, cycles:ppp, cycles");
    tt_profile_free(p);
    /* 5: a line inside a stack that is no frame; frames with short addresses, no indentation
     * or an empty symbol; srcline "dso[offset]" lines */
    tt_stats_free(st);
    st = tt_stats_new();
    ck_assert_int_eq(import_text(tt_perf_import,
                                 "a 1/1 [000] 1.0: 1 cpu-clock:\n"
                                 "\t7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)\n"
                                 "  libc-2.15.so[1d058]\n"
                                 "THIS_IS_A_WEIRD_LINE\n"
                                 "  [kernel.kallsyms][ffffffff813a4413]\n"
                                 "4005d0 main (/a)\n"
                                 "\n",
                                 &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 1);
    ck_assert_uint_eq(tt_profile_callsite(p, tt_profile_sample(p, 0)->callsite)->depth, 1);
    ck_assert_str_eq(leaf_name(p, 0), "[unknown] libc-2.15.so");
    const tt_stat *w = stat_named(st, "perf_not_a_frame");
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(w->count, 1);
    ck_assert_ptr_nonnull(strstr(w->example, "t.txt:4:"));
    tt_profile_free(p);
    /* a lone word before the first sample decides no event */
    ck_assert_int_eq(import_text(tt_perf_import, "hello\n\na 1 1.0: 1 cycles:\n\t7f0010 x (/x)\n\n",
                                 &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 1);
    ck_assert_str_eq(tt_profile_meta_get(p)->event, "cycles");
    tt_profile_free(p);
    /* only -F ip,sym with call graphs: an empty header line, then the chain */
    ck_assert_int_eq(import_text(tt_perf_import, "\n\t5011 f\n\t5000 g\n\n\n\t5011 f\n\n", &p,
                                 st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    ck_assert_str_eq(leaf_name(p, 0), "f");
    tt_profile_free(p);
    /* and without call graphs: one sample a line */
    ck_assert_int_eq(import_text(tt_perf_import, "  5011 f\n  5000 g\n", &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    tt_profile_free(p);
    /* -F comm,tid,ip,sym without call graphs */
    ck_assert_int_eq(import_text(tt_perf_import, "  sh 28589  7feb52015588 f\n  sh 28589  5011 g\n",
                                 &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    ck_assert_str_eq(leaf_name(p, 1), "g");
    ck_assert_int_eq(tt_profile_thread(p, 0)->tid, 28589);
    tt_profile_free(p);
    /* -F comm,ip,sym,dso without call graphs: no tid, the comm before the address */
    ck_assert_int_eq(import_text(tt_perf_import,
                                 "              sh      7feb52015588 f (/lib/c.so)\n"
                                 "              sh      55a4a5189022 [unknown] (/bin/dash)\n",
                                 &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    ck_assert_str_eq(tt_profile_thread(p, 0)->name, "sh");
    ck_assert_str_eq(leaf_name(p, 1), "[unknown] dash");
    tt_profile_free(p);
    tt_stats_free(st);
}
END_TEST

START_TEST(folded_reader)
{
    tt_profile *p;
    tt_stats *st = tt_stats_new();
    tt_error err;
    ck_assert_int_eq(import_text(tt_folded_import, "# c\na;b 3\na;b c;d 2.5\n\n", &p, st, &err),
                     0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 2);
    ck_assert_int_eq(tt_profile_sample(p, 1)->weight, 3); /* 2.5 rounds half up */
    ck_assert(tt_profile_meta_get(p)->timeless);
    tt_profile_free(p);
    ck_assert_int_eq(import_text(tt_folded_import, "a;b 1 4\na;c 2 0\n", &p, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nthreads(p), 2); /* before, after */
    ck_assert_str_eq(tt_profile_thread(p, 1)->name, "after");
    ck_assert_uint_eq(tt_profile_nsamples(p), 3);
    tt_profile_free(p);
    ck_assert_int_eq(import_text(tt_folded_import, "no count here\n", &p, st, &err), TT_EFORMAT);
    ck_assert_uint_eq(err.loc, 1);
    tt_profile_free(p);
    tt_stats_free(st);
}
END_TEST

START_TEST(jsonl_reader)
{
    tt_profile *p;
    tt_stats *st = tt_stats_new();
    tt_error err;
    const char *ok = "{\"kind\":\"meta\",\"format\":\"tracetool-samples\",\"version\":1,\"pid\":7}\n"
                     "{\"ts_ns\":9007199254740993,\"tid\":7,\"type\":\"bogus\",\"frames\":[\"a\","
                     "{\"module\":\"libx.so\",\"rel_pc\":\"0x10\"}]}\n";
    ck_assert_int_eq(import_text(tt_jsonl_import, ok, &p, st, &err), 0);
    ck_assert_int_eq(tt_profile_sample(p, 0)->ts, 9007199254740993LL); /* exact, not double */
    ck_assert_str_eq(tt_profile_frame(p, 1)->name, "libx.so+0x10");
    ck_assert(tt_profile_thread(p, 0)->is_main);
    ck_assert_int_eq(tt_profile_sample(p, 0)->type, TT_ST_OTHER);
    tt_profile_free(p);
    ck_assert_int_eq(import_text(tt_jsonl_import, "{\"ts_ns\":1,\"tid\":1,\"frames\":[\"a\"]}\n{oops\n",
                                 &p, st, &err), TT_EFORMAT);
    ck_assert_uint_eq(err.loc, 2);
    tt_profile_free(p);
    ck_assert_int_eq(import_text(tt_jsonl_import, "{\"ts_ns\":1,\"tid\":1,\"frames\":[]}\n", &p, st,
                                 &err), TT_EFORMAT);
    ck_assert_ptr_ne(strstr(err.msg, "frames"), NULL);
    tt_profile_free(p);
    tt_stats_free(st);
}
END_TEST

/* A minimal btrace v5 file: header + one record with the given depths. */
static size_t bt_file(unsigned char *b, uint32_t count, uint32_t saved, uint32_t actual,
                      unsigned type)
{
    size_t n = 0;
#define P32(v) do { uint32_t x_ = (v); for (int k = 0; k < 4; k++) b[n++] = (unsigned char)(x_ >> (8 * k)); } while (0)
#define P64(v) do { uint64_t x_ = (v); for (int k = 0; k < 8; k++) b[n++] = (unsigned char)(x_ >> (8 * k)); } while (0)
    P32(0x01020304);
    P32(0);
    P32(5);
    P64(1);
    P32(count);
    P32(2);
    b[n++] = '{';
    b[n++] = '}';
    b[n++] = (unsigned char)type;
    b[n++] = 0;
    b[n++] = 0x39; /* tid 0x3039 */
    b[n++] = 0x30;
    P32(1);
    P64(1000);
    P64(0);
    P64(5);
    P64(0);
    for (int i = 0; i < 7; i++)
        P32(0); /* alloc (2 x u64) + rusage (3 x u32) */
    P32(saved);
    P32(actual);
    for (uint32_t i = 0; i < saved && i < 4; i++)
        P64(0x100 + i);
    return n;
}

START_TEST(btrace_reader)
{
    unsigned char b[512];
    tt_stats *st = tt_stats_new();
    tt_error err;
    tt_import_opts o = {0};
    size_t n = bt_file(b, 1, 2, 2, 4);
    tt_profile *p = prof();
    tt_input *in = unit_mem("s.bin", (const char *)b, n);
    ck_assert_int_eq(tt_btrace_import(p, in, NULL, &o, st, &err), 0);
    tt_input_close(in);
    ck_assert_uint_eq(tt_profile_nsamples(p), 1);
    ck_assert_int_eq(tt_profile_thread(p, 0)->tid, 0x3039);
    ck_assert_int_eq(tt_profile_thread(p, 0)->tid_bits, 16);
    ck_assert_str_eq(tt_profile_frame(p, 2)->name, "0x101"); /* unmapped: pointer; root first */
    tt_profile_free(p);
    /* count says 2 but only one record: truncated, kept */
    n = bt_file(b, 2, 2, 2, 4);
    p = prof();
    in = unit_mem("s.bin", (const char *)b, n);
    ck_assert_int_eq(tt_btrace_import(p, in, NULL, &o, st, &err), 0);
    ck_assert(tt_profile_meta_get(p)->truncated);
    tt_input_close(in);
    tt_profile_free(p);
    /* depth beyond 128: stop, counted */
    n = bt_file(b, 1, 4096, 4096, 4);
    p = prof();
    in = unit_mem("s.bin", (const char *)b, n);
    ck_assert_int_eq(tt_btrace_import(p, in, NULL, &o, st, &err), 0);
    ck_assert_uint_eq(tt_profile_nsamples(p), 0);
    tt_input_close(in);
    tt_profile_free(p);
    int found = 0;
    for (size_t i = 0; i < tt_stats_count(st); i++)
        found |= !strcmp(tt_stats_get(st, i)->name, "btrace_corrupt_record");
    ck_assert(found);
    /* count 0: an explicit message */
    n = bt_file(b, 0, 1, 1, 4);
    p = prof();
    in = unit_mem("s.bin", (const char *)b, n);
    ck_assert_int_eq(tt_btrace_import(p, in, NULL, &o, st, &err), TT_EFORMAT);
    ck_assert_ptr_ne(strstr(err.msg, "32-bit"), NULL);
    ck_assert_int_eq(err.loc_kind, TT_LOC_OFFSET);
    tt_input_close(in);
    tt_profile_free(p);
    /* bad magic */
    b[0] = 0;
    p = prof();
    in = unit_mem("s.bin", (const char *)b, n);
    ck_assert_int_eq(tt_btrace_import(p, in, NULL, &o, st, &err), TT_EFORMAT);
    tt_input_close(in);
    tt_profile_free(p);
    tt_buf c = {0};
    tt_java_canonical(&c, "void com.a.B.c(int, java.lang.String)", 37);
    ck_assert_str_eq(c.data, "com.a.B.c(int,java.lang.String)");
    tt_buf_free(&c);
    tt_stats_free(st);
}
END_TEST

static int collect(void *ctx, const char *p, size_t n) { return tt_buf_put(ctx, p, n); }

static tt_profile *two_threads(void)
{
    tt_profile *p = prof();
    uint32_t a, b;
    tt_thread_intern(p, &a, 0, 10, 10, 32);
    tt_thread_intern(p, &b, 0, 10, 11, 32);
    tt_thread_set_name(p, a, "main", 4, 0);
    const char *st[] = {"mAB", "mAB", "mAC", "mD", "mAB;x"};
    for (int i = 0; i < 40; i++) {
        point(p, a, i * 1000000, st[i % 4], 0);
        point(p, b, i * 1000000 + 500, st[(i / 3) % 5], 0);
    }
    tt_profile_finish(p, NULL);
    return p;
}

static void check_nesting(json_t *ev)
{
    /* X events per tid in pre-order: each child within the enclosing open event */
    double stack_end[64][2];
    int depth = 0;
    json_int_t tid = -1;
    size_t i;
    json_t *e;
    json_array_foreach(ev, i, e) {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        if (strcmp(ph, "X"))
            continue;
        json_int_t t = json_integer_value(json_object_get(e, "tid"));
        double ts = json_real_value(json_object_get(e, "ts"));
        double end = ts + json_real_value(json_object_get(e, "dur"));
        if (t != tid)
            depth = 0;
        tid = t;
        while (depth > 0 && ts >= stack_end[depth - 1][1] && !(ts == stack_end[depth - 1][0]))
            depth--;
        if (depth > 0) {
            ck_assert(ts >= stack_end[depth - 1][0] - 1e-9);
            ck_assert(end <= stack_end[depth - 1][1] + 1e-9);
        }
        ck_assert_int_lt(depth, 64);
        stack_end[depth][0] = ts;
        stack_end[depth][1] = end;
        depth++;
    }
}

START_TEST(export_chrome)
{
    tt_profile *p = two_threads();
    tt_export_opts o;
    tt_export_opts_init(&o);
    for (int be = 0; be <= 1; be++) {
        o.be_events = be;
        tt_buf b = {0};
        ck_assert_int_eq(tt_export_chrome(p, &o, collect, &b, NULL), 0);
        json_error_t je;
        json_t *j = json_loadb(b.data, b.len, 0, &je);
        ck_assert_msg(j != NULL, "invalid JSON: %s", je.text);
        json_t *ev = json_object_get(j, "traceEvents");
        ck_assert(json_is_array(ev));
        ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "otherData"),
                                                           "clock")), "unknown");
        size_t i;
        json_t *e;
        long bal[2] = {0, 0};
        int names = 0;
        json_array_foreach(ev, i, e) {
            const char *ph = json_string_value(json_object_get(e, "ph"));
            json_int_t tid = json_integer_value(json_object_get(e, "tid"));
            if (!strcmp(ph, "B"))
                bal[tid - 10]++;
            if (!strcmp(ph, "E")) {
                bal[tid - 10]--;
                ck_assert_int_ge(bal[tid - 10], 0);
            }
            if (!strcmp(ph, "M") && !strcmp(json_string_value(json_object_get(e, "name")),
                                            "thread_name"))
                names++;
        }
        ck_assert_int_eq(bal[0], 0);
        ck_assert_int_eq(bal[1], 0);
        ck_assert_int_eq(names, 2);
        if (!be)
            check_nesting(ev);
        json_decref(j);
        tt_buf_free(&b);
    }
    char us[32];
    tt_format_us(us, sizeof us, 925074311680435LL);
    ck_assert_str_eq(us, "925074311680.435");
    tt_profile_free(p);
}
END_TEST

START_TEST(export_speedscope_folded)
{
    tt_profile *p = two_threads();
    tt_export_opts o;
    tt_export_opts_init(&o);
    tt_buf b = {0};
    ck_assert_int_eq(tt_export_speedscope(p, &o, collect, &b, NULL), 0);
    json_t *j = json_loadb(b.data, b.len, 0, NULL);
    ck_assert_ptr_ne(j, NULL);
    json_t *profs = json_object_get(j, "profiles");
    ck_assert_uint_eq(json_array_size(profs), 4);
    size_t nframes = json_array_size(json_object_get(json_object_get(j, "shared"), "frames"));
    size_t i;
    json_t *pr;
    json_array_foreach(profs, i, pr) {
        const char *type = json_string_value(json_object_get(pr, "type"));
        if (!strcmp(type, "sampled")) {
            ck_assert_uint_eq(json_array_size(json_object_get(pr, "samples")),
                              json_array_size(json_object_get(pr, "weights")));
            continue;
        }
        json_t *ev = json_object_get(pr, "events");
        long open = 0;
        json_int_t last = 0;
        size_t k;
        json_t *e;
        json_array_foreach(ev, k, e) {
            json_int_t at = json_integer_value(json_object_get(e, "at"));
            ck_assert_int_ge(at, last);
            last = at;
            ck_assert_uint_lt((size_t)json_integer_value(json_object_get(e, "frame")), nframes);
            open += !strcmp(json_string_value(json_object_get(e, "type")), "O") ? 1 : -1;
            ck_assert_int_ge(open, 0);
        }
        ck_assert_int_eq(open, 0);
    }
    ck_assert_int_eq(json_integer_value(json_object_get(j, "activeProfileIndex")), 0);
    json_decref(j);
    b.len = 0;
    ck_assert_int_eq(tt_export_folded(p, &o, collect, &b, NULL), 0);
    ck_assert_ptr_ne(strstr(b.data, "main;main;A;B 20\n"), NULL);
    ck_assert_ptr_ne(strstr(b.data, "Thread-11;main;A;B;:;x 6\n"), NULL); /* a frame ";" */
    /* lines sorted by path bytes */
    char *prev = NULL;
    for (char *l = strtok(b.data, "\n"); l; l = strtok(NULL, "\n")) {
        *strrchr(l, ' ') = 0;
        if (prev)
            ck_assert_int_lt(strcmp(prev, l), 0);
        prev = l;
    }
    tt_buf_free(&b);
    tt_profile_free(p);
}
END_TEST

START_TEST(aggregates_recursion)
{
    tt_profile *p = prof();
    uint32_t t;
    tt_thread_intern(p, &t, 0, 1, 1, 32);
    point(p, t, 0, "mFFF", 0);
    point(p, t, 1, "mF", 0);
    point(p, t, 2, "mG", 0);
    tt_profile_finish(p, NULL);
    tt_weight cw[16], fw[16];
    tt_profile_callsite_weights(cw, p, TT_NONE, TT_WEIGHT_PERIOD, TT_GAP_AUTO, 10);
    tt_profile_frame_weights(fw, p, cw);
    uint32_t fF = tt_profile_callsite(p, stack(p, "mF"))->frame;
    ck_assert_uint_eq(fw[fF].total_samples, 2); /* not 4: recursion counted once */
    ck_assert_uint_eq(fw[fF].self_samples, 2);
    ck_assert_uint_eq(fw[tt_profile_callsite(p, stack(p, "m"))->frame].total_samples, 3);
    tt_vec tree;
    tt_vec_init(&tree, sizeof(tt_tree_node));
    ck_assert_int_eq(tt_profile_tree(&tree, p, cw, 1), 0);
    size_t roots = 0;
    for (size_t i = 0; i < tree.len; i++)
        roots += TT_VEC_AT(&tree, tt_tree_node, i).parent == TT_NONE;
    ck_assert_uint_eq(roots, 2); /* F and G are the leaf functions */
    tt_vec_free(&tree);
    tt_profile_free(p);
}
END_TEST

START_TEST(unsorted_input)
{
    /* JSON-lines need not be sorted; btrace writes intervals late: sorted per thread */
    tt_profile *p;
    tt_stats *st = tt_stats_new();
    tt_error err;
    const char *t = "{\"ts_ns\":30,\"tid\":1,\"frames\":[\"a\"]}\n"
                    "{\"ts_ns\":10,\"tid\":1,\"frames\":[\"b\"]}\n"
                    "{\"ts_ns\":20,\"tid\":2,\"frames\":[\"c\"]}\n"
                    "{\"ts_ns\":10,\"tid\":1,\"frames\":[\"c\"]}\n";
    ck_assert_int_eq(import_text(tt_jsonl_import, t, &p, st, &err), 0);
    size_t n;
    const uint32_t *o = tt_profile_thread_order(p, 0, &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(o[0], 1); /* ts 10, first in input */
    ck_assert_uint_eq(o[1], 3); /* ts 10, later seq */
    ck_assert_uint_eq(o[2], 0);
    tt_profile_free(p);
    tt_stats_free(st);
}
END_TEST

/* JSON strings: UTF-8 C1 controls (U+0080..U+009F) escaped as text output escapes them,
 * other UTF-8 kept, invalid bytes U+FFFD. */
START_TEST(json_c1_escaped)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    tt_jsonw_str(&w, "a\xc2\x80" "b\xc2\x9f\xc2\xa0" "caf\xc3\xa9 long enough for blocks "
                     "\xc2\x85!\x9b");
    ck_assert_str_eq(w.buf.data, "\"a\\u0080b\\u009f\xc2\xa0" "caf\xc3\xa9 long enough for "
                                 "blocks \\u0085!\xef\xbf\xbd\"");
    tt_jsonw_free(&w);
}
END_TEST

START_TEST(detect)
{
    ck_assert_int_eq(tt_samples_detect((const unsigned char *)"\x04\x03\x02\x01", 4),
                     TT_SKIND_BTRACE);
    const char *perf = "# x\np 1 2.000001: 1 cpu-clock:\n";
    ck_assert_int_eq(tt_samples_detect((const unsigned char *)perf, strlen(perf)), TT_SKIND_PERF);
    ck_assert_int_eq(tt_samples_detect((const unsigned char *)"a;b 3\n", 6), TT_SKIND_FOLDED);
    ck_assert_int_eq(tt_samples_detect((const unsigned char *)"{\"a\":1}\n", 8), TT_SKIND_JSONL);
    ck_assert_int_eq(tt_samples_detect((const unsigned char *)"hello\n", 6), TT_SKIND_UNKNOWN);
    static const char *const perf_shapes[] = {
        "func_ab 15294 cpu-clock:\n", "java  3244 cpu-clock:\n\t7f00 f (/a)\n",
        ("           false 39654 19115.489719:          1 cycles:      7fa68b1f2d84 _dl_start+0x4 "
         "(/usr/lib/ld-2.31.so)\n"),
        "sh 22732\n\t5011 [unknown] (/usr/bin/dash)\n", "\n\t5011 [unknown]\n",
        "  sh 28589  7feb52015588 f\n  sh 28589  7feb5201 g\n",
        "cpu-clock:      7feb52015588 f\ncpu-clock:      7feb5200a14b g\n",
        /* -F comm,tid,period,ip,sym with -g: the period ends the header, no inline frame */
        "t  3181     250000 \n\t            114b f+0x12 (/tmp/t)\n",
        "t  3181/3181      250000 \n\t            114b f+0x12 (/tmp/t)\n",
        /* -F comm,tid,ip with -g: call-chain lines that are a bare address */
        "t  3181 \n\t           1462a\n\t               0\n"};
    for (size_t i = 0; i < sizeof perf_shapes / sizeof perf_shapes[0]; i++)
        ck_assert_int_eq(tt_samples_detect((const unsigned char *)perf_shapes[i],
                                           strlen(perf_shapes[i])), TT_SKIND_PERF);
    ck_assert_int_eq(tt_samples_detect((const unsigned char *)"main;a;b 10 12\nmain;d 0 7\n", 26),
                     TT_SKIND_FOLDED);
    ck_assert_int_eq(tt_samples_detect((const unsigned char *)"main 12\nab 3\n", 13),
                     TT_SKIND_FOLDED);
    /* not perf: a ProGuard class line, dumpsys and am output, method-beat words, a script */
    static const char *const not_perf[] = {
        "com.example.Foo -> a.a:\n    void bar() -> a\n",
        "Applications Graphics Acceleration Info:\nUptime: 30918925 Realtime: 30918925\n",
        "Stopping: com.example.shop\nStarting: Intent { act=x }\n",
        "1275433488225358\n1266637395203150\n",
        /* a shell script: "cd" is hex digits, but an unindented frame needs a real address */
        "set -eu\ncd \"$(dirname \"$0\")\"\ngcc -O2 -o a a.c\n"};
    for (size_t i = 0; i < sizeof not_perf / sizeof not_perf[0]; i++)
        ck_assert_int_ne(tt_samples_detect((const unsigned char *)not_perf[i], strlen(not_perf[i])),
                         TT_SKIND_PERF);
}
END_TEST

/* PERF_RECORD_MMAP2 lines: runtime addresses by process, map-relative addresses, misses */
/* Events as profiles (samples.md 2.2): precision modifiers dropped, privilege ones kept. */
START_TEST(perf_event_keys)
{
    static const char *const c[][2] = {
        {"cycles", "cycles"},           {"cycles:ppp", "cycles"},     {"cycles:P", "cycles"},
        {"cycles:u", "cycles:u"},       {"cycles:uppp", "cycles:u"},  {"cycles:ku", "cycles:uk"},
        {"cpu/cycles/Pu", "cpu/cycles/u"}, {"cpu/cycles/", "cpu/cycles/"},
        {"sched:sched_switch", "sched:sched_switch"}, {"cpu-clock:D", "cpu-clock"},
        {"", ""}};
    tt_buf b = {0};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        ck_assert_int_eq(tt__perf_event_key(&b, c[i][0], strlen(c[i][0])), 0);
        ck_assert_str_eq(b.data, c[i][1]);
    }
    tt_buf_free(&b);
    ck_assert(tt_perf_event_is_clock("cpu-clock:u"));
    ck_assert(tt_perf_event_is_clock("task-clock"));
    ck_assert(!tt_perf_event_is_clock("cycles"));
    ck_assert(!tt_perf_event_is_clock(NULL));
}
END_TEST

START_TEST(perf_maps)
{
    tt_perf_maps *t;
    ck_assert_int_eq(tt_perf_maps_new(&t), 0);
    const char *l[] = {
        "p 10/10 [000] 1.0: PERF_RECORD_MMAP2 10/10: [0x5000(0x1000) @ 0x1000 08:01 7 0]: r-xp /bin/a",
        "p 11/11 [000] 1.0: PERF_RECORD_MMAP2 11/11: [0x9000(0x1000) @ 0x1000 08:01 7 0]: r-xp /bin/a",
        "p 10/10 [000] 1.0: PERF_RECORD_MMAP2 10/10: [0x7000(0x1000) @ 0 08:01 7 0]: r--p /bin/a",
        "p -1/0 [000] 1.0: PERF_RECORD_MMAP -1/0: [0xffff0000(0x100) @ 0xffff0000]: x [kernel]",
    };
    for (size_t i = 0; i < 4; i++) {
        tt_perf_mmap mm;
        ck_assert_int_eq(tt_perf_mmap_parse(&mm, l[i], strlen(l[i])), 0);
        ck_assert_int_eq(tt_perf_maps_add(t, &mm), 0);
    }
    tt_perf_mmap mm;
    ck_assert_int_eq(tt_perf_mmap_parse(&mm, l[3], strlen(l[3])), 0);
    ck_assert_int_eq(mm.pid, -1);
    uint64_t off = 0;
    const tt_perf_map *m = tt_perf_maps_find(t, 10, "/bin/a", 6, 0x5123, &off);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(off, 0x1123);
    ck_assert_int_eq(m->pid, 10);
    m = tt_perf_maps_find(t, 11, "/bin/a", 6, 0x9040, &off);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(off, 0x1040);
    /* process 12 has no mapping of its own: another process's mapping explains it */
    m = tt_perf_maps_find(t, 12, "/bin/a", 6, 0x5010, &off);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(off, 0x1010);
    /* a map-relative address (inside the file range, inside no mapping) */
    m = tt_perf_maps_find(t, 10, "/bin/a", 6, 0x1800, &off);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(off, 0x1800);
    /* the read-only mapping is not executable: 0x7010 is in no mapping, no file range */
    ck_assert_ptr_null(tt_perf_maps_find(t, 10, "/bin/a", 6, 0x7010, &off));
    ck_assert_ptr_null(tt_perf_maps_find(t, 10, "/bin/b", 6, 0x5010, &off));
    ck_assert_ptr_null(tt_perf_maps_find(NULL, 10, "/bin/a", 6, 0x5010, &off));
    tt_perf_maps_free(t);
}
END_TEST

/* One unit a weight column (issue 11 item 8): 17 point samples 1 ms apart and one 27 ms
 * blocking interval. By samples the point samples weigh 17 and the interval 1; by wall time
 * each run gets the time up to the midpoints to its neighbours (17 ms and 27 ms plus half a
 * gap); the source weight (period) is 1 a sample, never the interval's ns. */
START_TEST(weight_units)
{
    tt_profile *p = prof();
    uint32_t t, idle;
    tt_thread_intern(p, &t, 0, 1, 1, 32);
    tt_thread_intern(p, &idle, 0, 1, 2, 32); /* no samples: nothing to walk */
    for (int i = 0; i < 17; i++)
        point(p, t, i * 1000000, "mAB", 0);
    tt_sample x;
    tt_sample_init(&x);
    x.utid = t;
    x.ts = 18000000;
    x.end_ts = 45000000;
    x.is_interval = x.is_blocking = 1;
    x.callsite = stack(p, "mAP");
    ck_assert_int_eq(tt_profile_add(p, &x, NULL), 0);
    tt_profile_finish(p, NULL);
    tt_profile_meta_get(p)->source_format = "btrace";
    ck_assert_int_eq(tt_weight_default(tt_profile_meta_get(p)), TT_WEIGHT_WALL);
    ck_assert_str_eq(tt_weight_unit(TT_WEIGHT_WALL), "wall_ns");
    uint32_t b = stack(p, "mAB"), pk = stack(p, "mAP");
    tt_weight cw[16];
    ck_assert_int_eq(tt_profile_callsite_weights(cw, p, t, TT_WEIGHT_SAMPLES, TT_GAP_AUTO, 10), 0);
    ck_assert_int_eq(cw[b].self_weight, 17);
    ck_assert_int_eq(cw[pk].self_weight, 1);
    ck_assert_int_eq(tt_profile_callsite_weights(cw, p, t, TT_WEIGHT_PERIOD, TT_GAP_AUTO, 10), 0);
    ck_assert_int_eq(cw[pk].self_weight, 1);
    ck_assert_int_eq(tt_profile_callsite_weights(cw, p, TT_NONE, TT_WEIGHT_WALL, TT_GAP_AUTO, 10),
                     0);
    /* 0 .. 16 ms and half the 2 ms gap to the interval; the interval from there to its end
     * plus the 10 ns pad */
    ck_assert_int_eq(cw[b].self_weight, 17000000);
    ck_assert_int_eq(cw[pk].self_weight, 28000010);
    ck_assert_uint_eq(cw[b].self_samples, 17);
    ck_assert_int_eq(cw[stack(p, "m")].total_weight, 45000010);
    tt_profile_free(p);
}
END_TEST
/* The process root's name (tt_thread_process_format with its tt_proc_index): the first named
 * thread whose tid is the pid, "[pid N]" without one, "unknown" without a pid. Its speed
 * (an index, not a scan of every thread per thread) is not timed here. */
/* Asserts the process root tt_thread_process_format writes for thread t. */
static void proc_is(tt_buf *b, const tt_profile *p, const tt_proc_index *x, uint32_t t,
                    const char *want)
{
    b->len = 0;
    ck_assert_int_eq(tt_thread_process_format(b, p, x, t), 0);
    ck_assert_str_eq(b->data, want);
}

START_TEST(process_names)
{
    tt_profile *p;
    ck_assert_int_eq(tt_profile_new(&p, TT_IDENT_NAME), 0);
    enum { N = 2000 };
    uint32_t u;
    for (int i = 0; i < N; i++) { /* process 100000 + i / 2: its main thread and one more */
        int64_t pid = 100000 + i / 2, tid = i % 2 ? 400000 + i : pid;
        ck_assert_int_eq(tt_thread_add(p, &u, 0, pid, tid, 32), 0);
        char name[32];
        int n = snprintf(name, sizeof name, "th%d", i);
        tt_thread_set_name(p, u, name, (size_t)n, 0);
    }
    uint32_t dup0, dup1, dup2, orphan, none;
    ck_assert_int_eq(tt_thread_add(p, &dup0, 0, 7, 7, 32), 0); /* unnamed: passed over */
    ck_assert_int_eq(tt_thread_add(p, &dup1, 0, 7, 7, 32), 0);
    tt_thread_set_name(p, dup1, "first", 5, 0);
    ck_assert_int_eq(tt_thread_add(p, &dup2, 0, 7, 7, 32), 0);
    tt_thread_set_name(p, dup2, "second", 6, 0);
    ck_assert_int_eq(tt_thread_add(p, &orphan, 0, 5, 6, 32), 0);
    ck_assert_int_eq(tt_thread_add(p, &none, 0, -1, 9, 32), 0);
    tt_proc_index x;
    ck_assert_int_eq(tt_proc_index_build(&x, p, 0), 0);
    tt_buf b = {0};
    for (uint32_t t = 0; t < N; t++) {
        b.len = 0;
        ck_assert_int_eq(tt_thread_process_format(&b, p, &x, t), 0);
        char want[32];
        snprintf(want, sizeof want, "th%u", t & ~1u);
        ck_assert_str_eq(b.data, want);
    }
    proc_is(&b, p, &x, dup2, "first");
    proc_is(&b, p, &x, orphan, "[pid 5]");
    proc_is(&b, p, &x, none, "unknown");
    tt_buf_free(&b);
    tt_proc_index_free(&x);
    tt_profile_free(p);
}
END_TEST

/* The profile's pid and process belong to the input that gave them (meta.pid_source): a
 * thread without a pid of another input is in no known process (pid -1, "unknown"), not in
 * that input's; a claim by another input drops the first one's pid and process. */
/* export(1)/analyze(1) pairing of btrace sampling files with mappings given beside them */
/* One thread's weights over the callsites it touches (tt_profile_thread_weights) equal the
 * weights over all callsites, with zero elsewhere, thread after thread and in every unit; the
 * tree over the touched callsites holds the same nodes. */
START_TEST(thread_weights_touched)
{
    tt_profile *p;
    ck_assert_int_eq(tt_profile_new(&p, TT_IDENT_NAME), 0);
    static const char *const st[] = {"mAB", "mABAB", "mC", "mAC", "mABA", "mD"};
    uint32_t t[4];
    for (int i = 0; i < 4; i++)
        tt_thread_intern(p, &t[i], 0, 1, 10 + i, 32);
    for (int i = 0; i < 40; i++) {
        tt_sample x;
        tt_sample_init(&x);
        x.utid = t[(i * 7) % 3 + (i > 30)]; /* the fourth thread: the last samples only */
        x.ts = i * 1000000;
        x.weight = 100 + i;
        x.callsite = stack(p, st[(i * 5) % 6]);
        ck_assert_int_eq(tt_profile_add(p, &x, NULL), 0);
    }
    tt_profile_finish(p, NULL);
    tt_touched *tw;
    ck_assert_int_eq(tt_touched_new(&tw, p), 0);
    stack(p, "mXY"); /* callsites and frames added later (slices' [no samples]): room made */
    size_t nc = tt_profile_ncallsites(p), nf = tt_profile_nframes(p);
    tt_weight cw[64], fw[64], acw[64], afw[64];
    ck_assert_uint_le(nc, 64);
    ck_assert_uint_le(nf, 64);
    memset(cw, 0, sizeof cw);
    memset(fw, 0, sizeof fw);
    static const int units[] = {TT_WEIGHT_SAMPLES, TT_WEIGHT_PERIOD, TT_WEIGHT_WALL};
    for (int u = 0; u < 3; u++)
        for (int k = 0; k < 8; k++) {
            uint32_t utid = t[(k * 3) % 4];
            ck_assert_int_eq(tt_profile_thread_weights(cw, fw, tw, p, utid, units[u],
                                                       TT_GAP_AUTO, 10), 0);
            ck_assert_int_eq(tt_profile_callsite_weights(acw, p, utid, units[u], TT_GAP_AUTO,
                                                         10), 0);
            ck_assert_int_eq(tt_profile_frame_weights(afw, p, acw), 0);
            ck_assert_mem_eq(cw, acw, nc * sizeof *cw);
            ck_assert_mem_eq(fw, afw, nf * sizeof *fw);
            size_t n, m;
            const uint32_t *ids = tt_touched_callsites(tw, &n);
            tt_touched_frames(tw, &m);
            ck_assert_uint_gt(n, 0);
            ck_assert_uint_lt(n, nc); /* no thread has every stack */
            ck_assert_uint_gt(m, 0);
            tt_vec a, b;
            tt_vec_init(&a, sizeof(tt_tree_node));
            tt_vec_init(&b, sizeof(tt_tree_node));
            /* bottom-up: the same nodes in the same order */
            ck_assert_int_eq(tt_profile_tree_of(&a, p, cw, 1, ids, n), 0);
            ck_assert_int_eq(tt_profile_tree(&b, p, acw, 1), 0);
            ck_assert_uint_eq(a.len, b.len);
            for (size_t j = 0; j < a.len; j++) { /* field by field: not the padding */
                const tt_tree_node *x = &TT_VEC_AT(&a, tt_tree_node, j);
                const tt_tree_node *y = &TT_VEC_AT(&b, tt_tree_node, j);
                ck_assert_uint_eq(x->parent, y->parent);
                ck_assert_uint_eq(x->frame, y->frame);
                ck_assert_uint_eq(x->depth, y->depth);
                ck_assert_uint_eq(x->first_child, y->first_child);
                ck_assert_uint_eq(x->next_sibling, y->next_sibling);
                ck_assert_mem_eq(&x->w, &y->w, sizeof x->w);
            }
            /* top-down: the touched callsites, each under its caller's node */
            ck_assert_int_eq(tt_profile_tree_of(&a, p, cw, 0, ids, n), 0);
            ck_assert_uint_eq(a.len, n);
            for (size_t j = 0; j < n; j++) {
                const tt_tree_node *x = &TT_VEC_AT(&a, tt_tree_node, j);
                const tt_callsite *c = tt_profile_callsite(p, ids[j]);
                ck_assert_mem_eq(&x->w, &acw[ids[j]], sizeof x->w);
                ck_assert_uint_eq(x->parent == TT_NONE ? TT_NONE : ids[x->parent], c->parent);
            }
            tt_vec_free(&a);
            tt_vec_free(&b);
        }
    ck_assert_int_eq(tt_profile_thread_weights(cw, fw, tw, p, 99, TT_WEIGHT_SAMPLES,
                                               TT_GAP_AUTO, 10), TT_EINVAL);
    tt_touched_free(tw);
    tt_touched_free(NULL);
    tt_profile_free(p);
}
END_TEST
START_TEST(btrace_pair)
{
    char name[32];
    ck_assert_int_eq(tt_btrace_mapping_name(name, sizeof name, "d/sampling.bin"), 0);
    ck_assert_str_eq(name, "d/sampling-mapping.bin");
    ck_assert_int_eq(tt_btrace_mapping_name(name, sizeof name, "sampling"), 0);
    ck_assert_str_eq(name, "sampling-mapping");
    ck_assert_int_eq(tt_btrace_mapping_name(name, 8, "sampling.bin"), TT_ELIMIT);
    enum { S = TT_BTRACE_SAMPLING, M = TT_BTRACE_MAPPING, O = TT_BTRACE_OTHER };
    /* one mapping, any name: every sampling file takes it */
    const char *p1[] = {"a.bin", "perf.txt", "b.bin", "am.bin"};
    int r1[] = {S, O, S, M};
    long q1[4];
    ck_assert_int_eq(tt_btrace_pair(q1, r1, p1, 4), 0);
    ck_assert(q1[0] == 3 && q1[1] == -1 && q1[2] == 3 && q1[3] == -1);
    /* several: by name first, then in input order; one left over */
    const char *p2[] = {"b.bin", "e.bin", "z.bin", "a.bin", "a-mapping.bin", "c.bin"};
    int r2[] = {S, M, M, S, M, O};
    long q2[6];
    ck_assert_int_eq(tt_btrace_pair(q2, r2, p2, 6), 0);
    ck_assert(q2[0] == 1 && q2[3] == 4 && q2[5] == -1);
    for (int i = 0; i < 6; i++)
        ck_assert(q2[i] != 2); /* z.bin matches nothing */
    ck_assert(q2[1] == -1 && q2[4] == -1 && q2[2] == TT_BTRACE_UNUSED);
    /* one name twice: by name, each sampling file takes the next mapping of that name */
    const char *p4[] = {"d/a.bin", "d/a-mapping.bin", "d/a.bin", "d/a-mapping.bin", "m.bin"};
    int r4[] = {S, M, S, M, M};
    long q4[5];
    ck_assert_int_eq(tt_btrace_pair(q4, r4, p4, 5), 0);
    ck_assert(q4[0] == 1 && q4[2] == 3 && q4[1] == -1 && q4[3] == -1);
    ck_assert(q4[4] == TT_BTRACE_UNUSED);
    /* more sampling files than mappings: the last gets none */
    const char *p3[] = {"x", "y", "z", "m1", "m2"};
    int r3[] = {S, S, S, M, M};
    long q3[5];
    ck_assert_int_eq(tt_btrace_pair(q3, r3, p3, 5), 0);
    ck_assert(q3[0] == 3 && q3[1] == 4 && q3[2] == -1);
    /* none given */
    ck_assert_int_eq(tt_btrace_pair(q3, r3, p3, 3), 0);
    ck_assert(q3[0] == -1 && q3[1] == -1 && q3[2] == -1);
}
END_TEST

/* Several inputs (sources) name one pid by their main threads: each thread's process is its
 * own input's, whatever the order (by_input); an input without a main thread of its own
 * gets [pid N], not another input's; without by_input the first named thread by source. */
START_TEST(process_names_by_input)
{
    tt_profile *p;
    ck_assert_int_eq(tt_profile_new(&p, TT_IDENT_NAME), 0);
    uint32_t w2, m1, w0, m0, w1;
    ck_assert_int_eq(tt_thread_add(p, &w2, 2, 7, 9, 32), 0); /* input 2: a worker only */
    ck_assert_int_eq(tt_thread_add(p, &m1, 1, 7, 7, 32), 0);
    tt_thread_set_name(p, m1, "main-b", 6, 0);
    ck_assert_int_eq(tt_thread_add(p, &w0, 0, 7, 8, 32), 0);
    ck_assert_int_eq(tt_thread_add(p, &m0, 0, 7, 7, 32), 0);
    tt_thread_set_name(p, m0, "main-z", 6, 0);
    ck_assert_int_eq(tt_thread_add(p, &w1, 1, 7, 10, 32), 0);
    tt_proc_index x;
    ck_assert_int_eq(tt_proc_index_build(&x, p, 1), 0);
    tt_buf b = {0};
    const uint32_t th[] = {w2, m1, w0, m0, w1};
    const char *const want[] = {"[pid 7]", "main-b", "main-z", "main-z", "main-b"};
    for (size_t i = 0; i < 5; i++)
        proc_is(&b, p, &x, th[i], want[i]);
    tt_proc_index_free(&x);
    ck_assert_int_eq(tt_proc_index_build(&x, p, 0), 0); /* one input: its first main thread */
    proc_is(&b, p, &x, w2, "main-b");
    tt_buf_free(&b);
    tt_proc_index_free(&x);
    tt_profile_free(p);
}
END_TEST

START_TEST(meta_pid_source)
{
    tt_profile *p;
    ck_assert_int_eq(tt_profile_new(&p, TT_IDENT_NAME), 0);
    tt_profile_meta *m = tt_profile_meta_get(p);
    uint32_t app, app_nopid, perf;
    ck_assert_int_eq(tt_thread_intern(p, &app, 0, 4411, 4412, 16), 0);
    ck_assert_int_eq(tt_thread_intern(p, &app_nopid, 0, -1, 4413, 16), 0);
    ck_assert_int_eq(tt_thread_intern(p, &perf, 2, -1, 13122, 32), 0);
    /* no input claimed them (a database trace): the profile's pid is every thread's */
    m->pid = 4411;
    m->process = "com.example";
    ck_assert_int_eq(tt_thread_pid(p, perf), 4411);
    tt_profile_meta_claim(p, 0);
    ck_assert_int_eq(m->pid, -1); /* TT_NONE was another owner: dropped */
    ck_assert_ptr_null(m->process);
    m->pid = 4411;
    m->process = "com.example";
    tt_profile_meta_claim(p, 0); /* its own again: kept */
    ck_assert_int_eq(m->pid, 4411);
    ck_assert_int_eq(tt_thread_pid(p, app), 4411);
    ck_assert_int_eq(tt_thread_pid(p, app_nopid), 4411);
    ck_assert_int_eq(tt_thread_pid(p, perf), -1);
    tt_proc_index x;
    ck_assert_int_eq(tt_proc_index_build(&x, p, 0), 0);
    tt_buf b = {0};
    tt_thread_process_format(&b, p, &x, app_nopid);
    ck_assert_str_eq(b.data, "com.example");
    b.len = 0;
    tt_thread_process_format(&b, p, &x, perf);
    ck_assert_str_eq(b.data, "unknown");
    tt_profile_meta_claim(p, 2); /* another input's pid and process replace them */
    ck_assert_int_eq(m->pid, -1);
    ck_assert_ptr_null(m->process);
    ck_assert_int_eq(tt_thread_pid(p, app), 4411);
    ck_assert_int_eq(tt_thread_pid(p, app_nopid), -1);
    tt_buf_free(&b);
    tt_proc_index_free(&x);
    tt_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("samples");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, weight_units);
    tcase_add_test(tc, interning);
    tcase_add_test(tc, drop_unused_frames);
    tcase_add_test(tc, rename_merge);
    tcase_add_test(tc, run_merging);
    tcase_add_test(tc, policy_example);
    tcase_add_test(tc, message_split);
    tcase_add_test(tc, max_gap_and_marks);
    tcase_add_test(tc, interval_ownership);
    tcase_add_test(tc, perf_reader);
    tcase_add_test(tc, perf_deleted_dso);
    tcase_add_test(tc, perf_layouts);
    tcase_add_test(tc, perf_lone_warning);
    tcase_add_test(tc, perf_repeated_headers);
    tcase_add_test(tc, folded_reader);
    tcase_add_test(tc, jsonl_reader);
    tcase_add_test(tc, btrace_reader);
    tcase_add_test(tc, export_chrome);
    tcase_add_test(tc, export_speedscope_folded);
    tcase_add_test(tc, aggregates_recursion);
    tcase_add_test(tc, unsorted_input);
    tcase_add_test(tc, detect);
    tcase_add_test(tc, json_c1_escaped);
    tcase_add_test(tc, perf_maps);
    tcase_add_test(tc, perf_event_keys);
    tcase_add_test(tc, process_names);
    tcase_add_test(tc, process_names_by_input);
    tcase_add_test(tc, meta_pid_source);
    tcase_add_test(tc, btrace_pair);
    tcase_add_test(tc, thread_weights_touched);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
