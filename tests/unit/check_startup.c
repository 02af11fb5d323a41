/* Startup analysis (spec/startup.md): Matrix's state machine and its worked examples (1.7),
 * segments (5.2, 5.5), inputs (4.2-4.4), stacks (5.4), reports (4.1), statistics. */
#include "unit.h"

#include "../../libtrace/tt_int.h"

static tt_startup *run_opts(const char *events, const tt_su_opts *o, tt_stats *st, int *rc,
                            tt_error *err)
{
    tt_startup *s;
    ck_assert_int_eq(tt_startup_new(&s, o, st, err), 0);
    tt_input *in = unit_mem("ev.jsonl", events, strlen(events));
    *rc = tt_startup_read_events(s, in, err);
    tt_input_close(in);
    if (!*rc)
        ck_assert_int_eq(tt_startup_finish(s, err), 0);
    return s;
}

static tt_startup *run(const char *events, const char *splash)
{
    tt_su_opts o = {.splash = splash};
    tt_error err;
    int rc;
    tt_startup *s = run_opts(events, &o, NULL, &rc, &err);
    ck_assert_msg(rc == 0, "%s", err.msg);
    return s;
}

static const tt_su_matrix *mx(const tt_startup *s, size_t i, size_t want_n)
{
    size_t n;
    const tt_su_matrix *const *m = tt_startup_matrix(s, &n);
    ck_assert_uint_eq(n, want_n);
    return i < n ? m[i] : NULL;
}

static void check_matrix(const tt_su_matrix *m, int64_t app, int32_t scene, int64_t first,
                         int64_t dur, int warm)
{
    ck_assert_int_eq(m->application_create, app);
    ck_assert_int_eq(m->scene, scene);
    ck_assert_int_eq(m->first_activity_create, first);
    ck_assert_int_eq(m->startup_duration, dur);
    ck_assert_int_eq(m->is_warm, warm);
}

/* The worked example of 1.7, including the later warm start. */
static const char ex17[] =
    "{\"kind\":\"first_method\",\"ts_ms\":10000}\n"
    "{\"kind\":\"app_create_end\",\"ts_ms\":10415,\"scene\":159}\n"
    "{\"kind\":\"activity_create\",\"ts_ms\":10450,\"activity\":\"com.app.Splash\"}\n"
    "{\"kind\":\"window_focus\",\"ts_ms\":11120,\"activity\":\"com.app.Splash\"}\n"
    "{\"kind\":\"activity_create\",\"ts_ms\":11200,\"activity\":\"com.app.Main\"}\n"
    "{\"kind\":\"activity_destroy\",\"ts_ms\":11300,\"activity\":\"com.app.Splash\"}\n"
    "{\"kind\":\"window_focus\",\"ts_ms\":11870,\"activity\":\"com.app.Main\"}\n"
    "{\"kind\":\"window_focus\",\"ts_ms\":20000,\"activity\":\"com.app.Main\",\"focus\":false}\n"
    "{\"kind\":\"activity_destroy\",\"ts_ms\":20100,\"activity\":\"com.app.Main\"}\n"
    "{\"kind\":\"activity_create\",\"ts_ms\":60000,\"activity\":\"com.app.Main\"}\n"
    "{\"kind\":\"window_focus\",\"ts_ms\":60900,\"activity\":\"com.app.Main\"}\n";

START_TEST(worked_example_17)
{
    tt_startup *s = run(ex17, "com.app.Splash");
    check_matrix(mx(s, 0, 2), 415, 159, 1120, 1870, 0);
    ck_assert(!mx(s, 0, 2)->has_issue);
    check_matrix(mx(s, 1, 2), 0, 159, 0, 900, 1);
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_su_matrix_json(&w, mx(s, 0, 2), 0);
    ck_assert_str_eq(w.buf.data, "{\"application_create\":415,\"application_create_scene\":159,"
                                 "\"first_activity_create\":1120,\"startup_duration\":1870,"
                                 "\"is_warm_start_up\":false,\"tag\":\"Trace_StartUp\"}");
    tt_jsonw_free(&w);
    size_t n;
    const tt_su_row *r = tt_startup_rows(s, &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(r[1].type, TT_SU_WARM);
    ck_assert_int_eq(r[1].start_ms, 60000);
    ck_assert_int_eq(r[1].end_ms, 60900);
    ck_assert_ptr_eq(r[1].matrix, mx(s, 1, 2));
    tt_startup_free(s);
}
END_TEST

/* 1.7 variant: no splash set, creation of Splash not observed. */
START_TEST(worked_example_30s_quirk)
{
    const char small[] = "{\"kind\":\"first_method\",\"ts_ms\":10000}\n"
                         "{\"kind\":\"app_create_end\",\"ts_ms\":10415,\"scene\":159}\n"
                         "{\"kind\":\"window_focus\",\"ts_ms\":11120,\"activity\":\"com.app.Splash\"}\n";
    tt_startup *s = run(small, NULL);
    check_matrix(mx(s, 0, 1), 415, 159, 1120, 1120, 0);
    tt_startup_free(s);
    const char big[] = "{\"kind\":\"first_method\",\"ts_ms\":3600000}\n"
                       "{\"kind\":\"app_create_end\",\"ts_ms\":3600415,\"scene\":159}\n"
                       "{\"kind\":\"window_focus\",\"ts_ms\":3601120,\"activity\":\"com.app.Splash\"}\n";
    s = run(big, NULL);
    mx(s, 0, 0); /* silently discarded */
    size_t n;
    const tt_su_row *r = tt_startup_rows(s, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_null(r[0].matrix);
    ck_assert_int_eq(r[0].duration_ms, 1120); /* the native start keeps it */
    tt_startup_free(s);
}
END_TEST

START_TEST(quirks)
{
    /* a second cold-phase focus of the same instance (the splash regaining focus after a
     * dialog) compares against the overwritten value and discards the report */
    const char regain[] =
        "{\"kind\":\"first_method\",\"ts_ms\":100000}\n"
        "{\"kind\":\"app_create_end\",\"ts_ms\":100400,\"scene\":159}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":100450,\"activity\":\"a.S\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":101000,\"activity\":\"a.S\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":101100,\"activity\":\"a.S\",\"focus\":false}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":101500,\"activity\":\"a.S\"}\n";
    tt_startup *s = run(regain, "a.S");
    mx(s, 0, 0);
    tt_startup_free(s);
    /* unknown scene: focus before app_create_end is ignored */
    const char unknown[] = "{\"kind\":\"first_method\",\"ts_ms\":100}\n"
                           "{\"kind\":\"activity_create\",\"ts_ms\":150,\"activity\":\"a.M\"}\n"
                           "{\"kind\":\"window_focus\",\"ts_ms\":900,\"activity\":\"a.M\"}\n";
    s = run(unknown, NULL);
    mx(s, 0, 0);
    tt_startup_free(s);
    /* service start: firstScreenCost 0, coldCost = A - E */
    const char svc[] = "{\"kind\":\"first_method\",\"ts_ms\":100}\n"
                       "{\"kind\":\"app_create_end\",\"ts_ms\":400,\"scene\":114}\n"
                       "{\"kind\":\"activity_create\",\"ts_ms\":500,\"activity\":\"a.M\"}\n"
                       "{\"kind\":\"window_focus\",\"ts_ms\":900,\"activity\":\"a.M\"}\n";
    s = run(svc, NULL);
    check_matrix(mx(s, 0, 1), 300, 114, 0, 300, 0);
    tt_startup_free(s);
    /* per-class focus dedupe: a second instance of a focused class notifies nothing */
    const char dedupe[] =
        "{\"kind\":\"first_method\",\"ts_ms\":100}\n"
        "{\"kind\":\"app_create_end\",\"ts_ms\":200,\"scene\":100}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":300,\"activity\":\"a.S\",\"instance\":\"a.S@1\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":400,\"activity\":\"a.S\",\"instance\":\"a.S@1\"}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":500,\"activity\":\"a.S\",\"instance\":\"a.S@2\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":600,\"activity\":\"a.S\",\"instance\":\"a.S@2\"}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":700,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":800,\"activity\":\"a.M\"}\n";
    s = run(dedupe, "a.S");
    check_matrix(mx(s, 0, 1), 100, 100, 300, 700, 0);
    tt_startup_free(s);
}
END_TEST

START_TEST(no_ui_process_and_thresholds)
{
    const char ev[] = "{\"kind\":\"first_method\",\"ts_ms\":1000}\n"
                      "{\"kind\":\"app_create_end\",\"ts_ms\":13000,\"scene\":113}\n";
    tt_su_opts o = {.no_ui = 1};
    tt_error err;
    int rc;
    tt_startup *s = run_opts(ev, &o, NULL, &rc, &err);
    ck_assert_int_eq(rc, 0);
    const tt_su_matrix *m = mx(s, 0, 1);
    check_matrix(m, 12000, 113, 0, 12000, 0);
    ck_assert(m->has_issue);
    ck_assert(m->stack_collected);
    ck_assert_int_eq(m->sub_type, 1);
    ck_assert_str_eq(m->stack, "");
    tt_startup_free(s);
    /* exactly at the threshold: data copied (>=) but no issue (>) */
    const char eq[] = "{\"kind\":\"first_method\",\"ts_ms\":1000}\n"
                      "{\"kind\":\"app_create_end\",\"ts_ms\":11000,\"scene\":113}\n";
    s = run_opts(eq, &o, NULL, &rc, &err);
    ck_assert(mx(s, 0, 1)->stack_collected);
    ck_assert(!mx(s, 0, 1)->has_issue);
    tt_startup_free(s);
}
END_TEST

/* The event stream of 4.2 and the values of 5.5. */
START_TEST(segments_55)
{
    const char ev[] =
        "{\"kind\":\"process_start\",\"ts_ms\":9700}\n"
        "{\"kind\":\"first_method\",\"ts_ms\":10000}\n"
        "{\"kind\":\"app_create_end\",\"ts_ms\":10415,\"scene\":159}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":10450,\"activity\":\"com.app.Splash\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":11120,\"activity\":\"com.app.Splash\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":11190,\"activity\":\"com.app.Splash\",\"focus\":false}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":11200,\"activity\":\"com.app.Main\"}\n"
        "{\"kind\":\"activity_destroy\",\"ts_ms\":11300,\"activity\":\"com.app.Splash\"}\n"
        "{\"kind\":\"first_frame\",\"ts_ms\":11850,\"activity\":\"com.app.Main\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":11870,\"activity\":\"com.app.Main\"}\n"
        "{\"kind\":\"fully_drawn\",\"ts_ms\":12400,\"activity\":\"com.app.Main\"}\n";
    tt_startup *s = run(ev, "com.app.Splash");
    size_t n;
    const tt_su_row *r = tt_startup_rows(s, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(r->type, TT_SU_COLD);
    ck_assert_int_eq(r->start_ms, 9700);
    ck_assert_str_eq(r->start_event, "process_start");
    ck_assert_int_eq(r->end_ms, 11850);
    ck_assert_str_eq(r->end_event, "first_frame");
    ck_assert_int_eq(r->duration_ms, 2150);
    ck_assert_int_eq(r->ttid_ms, 2150);
    ck_assert_int_eq(r->ttfd_ms, 2700);
    const char *names[] = {"process_to_first_method", "application", "first_activity",
                           "first_screen", "ttid", "ttfd", "cold"};
    const int64_t durs[] = {300, 415, 670, 1120, 2150, 2700, 1870};
    ck_assert_uint_eq(r->n_segs, 7);
    for (int i = 0; i < 7; i++) {
        ck_assert_str_eq(r->segs[i].name, names[i]);
        ck_assert_int_eq(r->segs[i].dur_ms, durs[i]);
    }
    check_matrix(r->matrix, 415, 159, 1120, 1870, 0);
    ck_assert(!r->matrix_over_threshold && !r->matrix_stack_collected && !r->vitals_excessive);
    ck_assert_str_eq(r->vitals_basis, "ttid");
    ck_assert_int_eq(r->stack_cost, 1870);
    tt_startup_free(s);
}
END_TEST

START_TEST(hot_and_processes)
{
    const char ev[] =
        "{\"kind\":\"process_start\",\"ts_ms\":100,\"pid\":7}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":200,\"activity\":\"a.M\",\"pid\":7}\n"
        "{\"kind\":\"activity_start\",\"ts_ms\":210,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"first_frame\",\"ts_ms\":500,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"activity_stop\",\"ts_ms\":900,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"activity_start\",\"ts_ms\":5000,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"first_frame\",\"ts_ms\":5300,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"process_start\",\"ts_ns\":9000000500,\"pid\":8}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":9100,\"activity\":\"a.M\",\"pid\":8}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":9800,\"activity\":\"a.M\",\"pid\":8}\n";
    tt_startup *s = run(ev, NULL);
    size_t n;
    const tt_su_row *r = tt_startup_rows(s, &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(r[0].type, TT_SU_COLD);
    ck_assert_int_eq(r[0].duration_ms, 400);
    ck_assert_int_eq(r[1].type, TT_SU_HOT);
    ck_assert_int_eq(r[1].duration_ms, 300);
    ck_assert_int_eq(r[1].pid, 7);
    ck_assert_int_eq(r[2].type, TT_SU_COLD);
    ck_assert_int_eq(r[2].pid, 8);
    ck_assert_int_eq(r[2].process, 1);
    ck_assert_int_eq(r[2].start_ms, 9000); /* ns floored */
    ck_assert_str_eq(r[2].end_event, "window_focus");
    ck_assert_int_eq(r[2].duration_ms, 800);
    tt_startup_free(s);
}
END_TEST

static void expect_error(const char *ev, uint64_t line, const char *msg)
{
    tt_su_opts o = {0};
    tt_error err;
    int rc;
    tt_startup *s = run_opts(ev, &o, NULL, &rc, &err);
    ck_assert_int_eq(rc, TT_EFORMAT);
    ck_assert_uint_eq(err.loc, line);
    ck_assert_msg(strstr(err.msg, msg) != NULL, "%s", err.msg);
    tt_startup_free(s);
}

START_TEST(event_errors)
{
    expect_error("{\"kind\":\"first_method\",\"ts_ms\":1}\n\n{\"kind\":\"boom\",\"ts_ms\":2}\n", 3,
                 "unknown event kind \"boom\"");
    expect_error("{\"kind\":\"window_focus\",\"ts_ms\":2}\n", 1, "missing required field \"activity\"");
    expect_error("{\"kind\":\"app_create_end\",\"ts_ms\":2}\n", 1, "\"scene\"");
    expect_error("{\"kind\":\"first_method\",\"ts_ms\":-2}\n", 1, "negative time");
    expect_error("{\"kind\":\"first_method\"}\n", 1, "missing time");
    expect_error("{\"kind\":\"first_method\",\"ts_ms\":\"5\"}\n", 1, "expected an integer");
    expect_error("{\"kind\":\"first_method\",\"ts_ms\":1,\n", 1, "malformed JSON");
    expect_error("[1]\n", 1, "expected a JSON object");
    expect_error("{\"kind\":\"window_focus\",\"ts_ms\":2,\"activity\":\"a\",\"focus\":1}\n", 1,
                 "true or false");
}
END_TEST

START_TEST(unsorted_warns)
{
    const char ev[] = "{\"kind\":\"first_method\",\"ts_ms\":100}\n"
                      "{\"kind\":\"window_focus\",\"ts_ms\":900,\"activity\":\"a.M\"}\n"
                      "{\"kind\":\"app_create_end\",\"ts_ms\":200,\"scene\":159}\n"
                      "{\"kind\":\"activity_create\",\"ts_ms\":300,\"activity\":\"a.M\"}\n";
    tt_stats *st = tt_stats_new();
    tt_su_opts o = {0};
    tt_error err;
    int rc;
    tt_startup *s = run_opts(ev, &o, st, &rc, &err);
    ck_assert_int_eq(rc, 0);
    check_matrix(mx(s, 0, 1), 100, 159, 800, 800, 0);
    ck_assert_uint_eq(tt_stats_count(st), 1);
    ck_assert_str_eq(tt_stats_get(st, 0)->name, "startup_events_unsorted");
    ck_assert_int_eq(tt_stats_get(st, 0)->count, 2);
    tt_startup_free(s);
    tt_stats_free(st);
}
END_TEST

START_TEST(durations)
{
    int64_t ms;
    size_t used;
    ck_assert_int_eq(tt_su_parse_duration("+850ms", 6, &ms, &used), 0);
    ck_assert_int_eq(ms, 850);
    ck_assert_int_eq(tt_su_parse_duration("+1s234ms", 8, &ms, &used), 0);
    ck_assert_int_eq(ms, 1234);
    ck_assert_int_eq(tt_su_parse_duration("+2m24s378ms (", 13, &ms, &used), 0);
    ck_assert_int_eq(ms, 144378);
    ck_assert_uint_eq(used, 11);
    ck_assert_int_eq(tt_su_parse_duration("0", 1, &ms, &used), 0);
    ck_assert_int_eq(ms, 0);
    ck_assert_int_eq(tt_su_parse_duration("+1d2h", 5, &ms, &used), 0);
    ck_assert_int_eq(ms, 93600000);
    ck_assert_int_eq(tt_su_parse_duration("-5ms", 4, &ms, &used), 0);
    ck_assert_int_eq(ms, -5);
    /* units must come in the order d h m s ms */
    ck_assert_int_eq(tt_su_parse_duration("+5ms3s", 6, &ms, &used), TT_EFORMAT);
    ck_assert_int_eq(tt_su_parse_duration("+ms", 3, &ms, &used), TT_EFORMAT);
    ck_assert_int_eq(tt_su_parse_duration("12", 2, &ms, &used), TT_EFORMAT);
}
END_TEST

START_TEST(stats)
{
    tt_su_dist d;
    int64_t v[] = {1234};
    tt_su_dist_compute(&d, v, 1);
    ck_assert_uint_eq(d.count, 1);
    ck_assert_int_eq(d.min, 1234);
    ck_assert_int_eq(d.median, 1234);
    ck_assert_int_eq(d.p90, 1234);
    ck_assert_int_eq(d.mean, 1234);
    int64_t w[] = {1257, 1092, 1420, 1133, 1184, 187};
    tt_su_dist_compute(&d, w, 6);
    ck_assert_int_eq(d.median, 1158); /* (1133 + 1184) / 2 truncated */
    ck_assert_int_eq(d.p90, 1420);    /* rank ceil(5.4) = 6 */
    ck_assert_int_eq(d.min, 187);
    ck_assert_int_eq(d.mean, 1045); /* 6273 / 6 = 1045.5, truncated */
    int64_t x[10] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    tt_su_dist_compute(&d, x, 10);
    ck_assert_int_eq(d.p90, 9); /* rank 9 */
    ck_assert_int_eq(d.median, 5);
    ck_assert_int_eq(d.mean, 5); /* 5.5 truncated, like the median */
    int64_t y[] = {-7, 2};         /* -2.5: truncated toward zero */
    tt_su_dist_compute(&d, y, 2);
    ck_assert_int_eq(d.mean, -2);
    int64_t z[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX}; /* no overflow */
    tt_su_dist_compute(&d, z, 3);
    ck_assert_int_eq(d.mean, INT64_MAX - 1);
    int64_t m[] = {INT64_MIN, INT64_MIN + 1};
    tt_su_dist_compute(&d, m, 2);
    ck_assert_int_eq(d.mean, INT64_MIN + 1);
    tt_su_dist_compute(&d, NULL, 0);
    ck_assert_uint_eq(d.count, 0);
}
END_TEST

static tt_startup *launches(const char *text, tt_stats *st, int *rc, tt_error *err)
{
    tt_su_opts o = {0};
    tt_startup *s;
    ck_assert_int_eq(tt_startup_new(&s, &o, st, err), 0);
    tt_input *in = unit_mem("l.txt", text, strlen(text));
    *rc = tt_startup_read_launches(s, in, err);
    tt_input_close(in);
    if (!*rc)
        tt_startup_finish(s, err);
    return s;
}

START_TEST(logcat_lines)
{
    const char t[] =
        "11-23 09:14:03.402  1402  1460 I ActivityTaskManager: Displayed com.a/.Main: +612ms "
        "(total +1s91ms)\n"
        "I/ActivityManager(  611): Displayed com.a/com.a.Other for user 10: +2s3ms\n"
        "noise line\n"
        "12-01 10:00:00.000 I ActivityTaskManager: Fully drawn com.a/.Main: +1s844ms\n"
        "x Displayed com.a/.Bad: soon\n";
    tt_stats *st = tt_stats_new();
    tt_error err;
    int rc;
    tt_startup *s = launches(t, st, &rc, &err);
    ck_assert_int_eq(rc, 0);
    size_t n;
    const tt_su_launch *l = tt_startup_launches(s, &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(l[0].component, "com.a/.Main");
    ck_assert_int_eq(l[0].total_ms, 1091);
    ck_assert_int_eq(l[0].this_ms, 612);
    ck_assert_int_eq(l[0].fully_drawn_ms, 1844);
    ck_assert_str_eq(l[0].log_time, "11-23 09:14:03.402");
    ck_assert_str_eq(l[1].component, "com.a/com.a.Other");
    ck_assert_int_eq(l[1].total_ms, 2003);
    ck_assert(l[1].has_this); /* no total: the one duration is also this_ms */
    ck_assert_int_eq(l[1].this_ms, 2003);
    ck_assert_str_eq(l[1].log_time, "");
    const tt_su_dist *d = tt_startup_logcat_stats(s);
    ck_assert_uint_eq(d->count, 2);
    ck_assert_int_eq(d->median, 1547);
    int malformed = 0;
    for (size_t i = 0; i < tt_stats_count(st); i++)
        if (!strcmp(tt_stats_get(st, i)->name, "logcat_malformed"))
            malformed = (int)tt_stats_get(st, i)->count;
    ck_assert_int_eq(malformed, 1);
    tt_startup_free(s);
    tt_stats_free(st);
}
END_TEST

START_TEST(am_blocks)
{
    const char t[] = "Starting: Intent { act=android.intent.action.MAIN cmp=com.a/.Main }\n"
                     "Status: ok\nLaunchState: COLD\nActivity: com.a/.Main\nTotalTime: 1234\n"
                     "WaitTime: 1250\nComplete\n"
                     "Status: ok\nThisTime: 400\nTotalTime: 900\nWaitTime: 950\nComplete\n"
                     "Starting: Intent { cmp=com.a/.Main }\n"
                     "Warning: Activity not started, its current task has been brought to the front\n"
                     "Status: ok\nLaunchState: UNKNOWN (0)\nActivity: com.a/.Main\nTotalTime: 0\n"
                     "WaitTime: 3\nComplete\n"
                     "Starting: Intent { cmp=com.a/.Main }\nStatus: timeout\nTotalTime: 7000\n";
    tt_stats *st = tt_stats_new();
    tt_error err;
    int rc;
    tt_startup *s = launches(t, st, &rc, &err);
    ck_assert_int_eq(rc, 0);
    size_t n;
    const tt_su_launch *l = tt_startup_launches(s, &n);
    ck_assert_uint_eq(n, 4);
    ck_assert_str_eq(l[0].launch_state, "COLD");
    ck_assert_int_eq(l[0].total_ms, 1234);
    ck_assert_int_eq(l[0].wait_ms, 1250);
    ck_assert(!l[0].has_this);
    ck_assert_str_eq(l[1].component, ""); /* a block starting at Status: after Complete */
    ck_assert_int_eq(l[1].this_ms, 400);
    ck_assert(l[2].not_launched);
    ck_assert_str_eq(l[2].launch_state, "UNKNOWN (0)");
    ck_assert(l[3].incomplete);
    ck_assert_str_eq(l[3].status, "timeout");
    ck_assert_str_eq(l[3].component, "com.a/.Main");
    const tt_su_dist *d = tt_startup_am_stats(s);
    ck_assert_uint_eq(d->count, 2); /* not launched and timeout excluded */
    ck_assert_int_eq(d->median, 1067);
    ck_assert_str_eq(tt_stats_get(st, 0)->name, "am_block_incomplete");
    tt_startup_free(s);
    tt_stats_free(st);
    st = tt_stats_new();
    s = launches("Status: ok\nTotalTime: 12x\nComplete\n", st, &rc, &err);
    ck_assert_int_eq(rc, TT_EFORMAT);
    ck_assert_uint_eq(err.loc, 2);
    ck_assert_ptr_ne(strstr(err.msg, "TotalTime: expected an integer, got \"12x\""), NULL);
    tt_startup_free(s);
    s = launches("nothing here\n", st, &rc, &err);
    ck_assert_int_eq(rc, TT_ENOTFOUND);
    tt_startup_free(s);
    tt_stats_free(st);
}
END_TEST

START_TEST(detect)
{
    const char *ev = "\n{\"kind\":\"first_method\",\"ts_ms\":1}";
    ck_assert_int_eq(tt_su_detect(ev, strlen(ev)), TT_SU_IN_EVENTS);
    const char *rep = "[{\"tag\":\"Trace_StartUp\"}]";
    ck_assert_int_eq(tt_su_detect(rep, strlen(rep)), TT_SU_IN_REPORT);
    const char *am = "Starting: Intent { cmp=a/.B }\nStatus: ok\n";
    ck_assert_int_eq(tt_su_detect(am, strlen(am)), TT_SU_IN_LAUNCHES);
    const char *lc = "I/ActivityManager(1): Displayed a/.B: +5ms\n";
    ck_assert_int_eq(tt_su_detect(lc, strlen(lc)), TT_SU_IN_LAUNCHES);
    const char *mt = "D/Matrix: tag[Trace_StartUp]type[0];key[null];content[{}]\n";
    ck_assert_int_eq(tt_su_detect(mt, strlen(mt)), TT_SU_IN_REPORT);
    ck_assert_int_eq(tt_su_detect("hello", 5), TT_SU_IN_UNKNOWN);
    const char *bt = "# slice\n0x80000800000003e8\n-9223363240761753560\n";
    ck_assert_int_eq(tt_su_detect(bt, strlen(bt)), TT_SU_IN_BEAT);
    ck_assert_int_eq(tt_su_detect("\xe8\x03\0\0\0\x08\0\x80", 8), TT_SU_IN_BEAT);
    const char *mp = "1,1,com.a.App onCreate ()V\n";
    ck_assert_int_eq(tt_su_detect(mp, strlen(mp)), TT_SU_IN_MAPPING);
}
END_TEST

/* Launch captures are told from texts that mention the words: some line's first "Displayed "
 * or "Fully drawn " (inside the line, blanks trimmed) must parse */
START_TEST(looks_launches_lines)
{
#define LL(t) tt__looks_launches(t, strlen(t))
    ck_assert_int_eq(LL(""), 0);
    ck_assert_int_eq(LL("The Displayed line shows the time.\nFully drawn is reported too\n"), 0);
    ck_assert_int_eq(LL("x Displayed no\ny\nI/AM( 1): Displayed a/.B: +5ms\n"), 1);
    ck_assert_int_eq(LL("a Fully drawn b\n  Fully drawn a/.B: +1s2ms  \n"), 1);
    /* only a line's first occurrence counts */
    ck_assert_int_eq(LL("Displayed x Displayed a/.B: +5ms\n"), 0);
    ck_assert_int_eq(LL("Fully drawn x Displayed a/.B: +5ms\n"), 1);
    /* a mark whose last blank was trimmed off the line, then one on a later line */
    ck_assert_int_eq(LL("zz Displayed \nDisplayed\n"), 0);
    ck_assert_int_eq(LL("zz Displayed \nq\nDisplayed a/.B: +5ms"), 1);
    ck_assert_int_eq(LL("  TotalTime: 5\n"), 1);
#undef LL
}
END_TEST

#define I(id, t) tt_beat_encode(1, id, t)
#define O(id, t) tt_beat_encode(0, id, t)

/* The stack of a slow cold start (5.4): method-beat.md V7's lenient slice. */
START_TEST(slow_startup_stack)
{
    const uint64_t buf[] = {O(5, 10), I(1, 10), I(2, 12), O(2, 20), O(1, 30), I(3, 30), O(3, 40),
                            I(4, 60), O(4, 90)};
    const char ev[] =
        "{\"kind\":\"first_method\",\"ts_ms\":10000}\n"
        "{\"kind\":\"app_create_end\",\"ts_ms\":10005,\"scene\":159}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":10030,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":10045,\"activity\":\"a.M\"}\n";
    tt_su_opts o = {.cold_ms = 20, .has_cold_ms = 1, .beat = buf, .n_beat = 9};
    tt_error err;
    int rc;
    tt_startup *s = run_opts(ev, &o, NULL, &rc, &err);
    ck_assert_int_eq(rc, 0);
    const tt_su_matrix *m = mx(s, 0, 1);
    ck_assert_str_eq(m->stack, "0,1,1,20\n1,2,1,8\n0,3,1,10\n");
    ck_assert_str_eq(m->stack_key, "1|");
    ck_assert_int_eq(m->startup_duration, 45);
    ck_assert(m->has_issue);
    ck_assert_int_eq(m->cost, 45);
    size_t n;
    const tt_su_row *r = tt_startup_rows(s, &n);
    ck_assert(r[0].matrix_over_threshold && r[0].matrix_stack_collected);
    ck_assert_ptr_nonnull(r[0].native);
    ck_assert_int_eq(r[0].native->blame_id, 1);
    ck_assert_str_eq(r[0].native->blame_name, "<unknown id 1>");
    ck_assert_str_eq(r[0].native->top_self[0].name, "<unknown id 1>"); /* 12 ms self */
    ck_assert_int_eq(r[0].native->top_self[0].self_ms, 12);
    ck_assert_uint_eq(r[0].native->stray_exits, 1);
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_su_matrix_json(&w, m, 1);
    ck_assert_str_eq(w.buf.data, "{\"detail\":\"STARTUP\",\"cost\":45,\"stack\":"
                                 "\"0,1,1,20\\n1,2,1,8\\n0,3,1,10\\n\",\"stackKey\":\"1|\","
                                 "\"subType\":1,\"tag\":\"Trace_EvilMethod\"}");
    tt_jsonw_free(&w);
    tt_startup_free(s);
    /* a focus inside method 3 ends the slice inside it: 3 is dropped (lenient) */
    const char ev2[] =
        "{\"kind\":\"first_method\",\"ts_ms\":10000}\n"
        "{\"kind\":\"app_create_end\",\"ts_ms\":10005,\"scene\":159}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":10030,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":10035,\"activity\":\"a.M\"}\n";
    s = run_opts(ev2, &o, NULL, &rc, &err);
    m = mx(s, 0, 1);
    ck_assert_str_eq(m->stack, "0,1,1,20\n1,2,1,8\n");
    ck_assert_int_eq(m->startup_duration, 35);
    r = tt_startup_rows(s, &n);
    ck_assert_uint_eq(r[0].native->truncated, 1); /* 3 still open at 10035 */
    tt_startup_free(s);
}
END_TEST

/* More records than the ring holds before the end of the cold start: empty stack (1.5). */
START_TEST(ring_overwritten)
{
    size_t n = 1000002;
    uint64_t *buf = malloc(n * sizeof *buf);
    ck_assert_ptr_nonnull(buf);
    for (size_t i = 0; i < n; i++)
        buf[i] = i % 2 ? O(1, 10) : I(1, 0);
    const char ev[] =
        "{\"kind\":\"first_method\",\"ts_ms\":10000}\n"
        "{\"kind\":\"app_create_end\",\"ts_ms\":10005,\"scene\":159}\n"
        "{\"kind\":\"activity_create\",\"ts_ms\":10030,\"activity\":\"a.M\"}\n"
        "{\"kind\":\"window_focus\",\"ts_ms\":10045,\"activity\":\"a.M\"}\n";
    tt_su_opts o = {.cold_ms = 20, .has_cold_ms = 1, .beat = buf, .n_beat = n};
    tt_stats *st = tt_stats_new();
    tt_error err;
    int rc;
    tt_startup *s = run_opts(ev, &o, st, &rc, &err);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(mx(s, 0, 1)->stack, "");
    ck_assert_int_eq(mx(s, 0, 1)->startup_duration, 45);
    ck_assert_str_eq(tt_stats_get(st, 0)->name, "startup_ring_overwritten");
    tt_startup_free(s);
    tt_stats_free(st);
    free(buf);
}
END_TEST

START_TEST(reports_attach)
{
    tt_su_opts o = {0};
    tt_startup *s;
    tt_error err;
    ck_assert_int_eq(tt_startup_new(&s, &o, NULL, &err), 0);
    tt_su_report st = {.file = "r", .process = "com.a", .time_ms = 1000000,
                       .application_create = 500, .first_activity_create = 9000,
                       .startup_duration = 12000, .scene = 159};
    tt_su_report is = {.is_issue = 1, .file = "r", .process = "com.a", .time_ms = 1000040,
                       .cost = 12000, .stack = "0,1,1,12000\n", .stack_key = "1|",
                       .sub_type = 1};
    tt_su_report lone = {.is_issue = 1, .file = "r", .process = "com.b", .time_ms = 5,
                         .cost = 5000, .stack = "", .stack_key = "", .sub_type = 2};
    tt_su_report later = st;
    later.time_ms = 1000100; /* same process and duration, 60 ms after the issue */
    ck_assert_int_eq(tt_startup_add_report(s, &later, &err), 0);
    ck_assert_int_eq(tt_startup_add_report(s, &st, &err), 0);
    ck_assert_int_eq(tt_startup_add_report(s, &is, &err), 0);
    ck_assert_int_eq(tt_startup_add_report(s, &lone, &err), 0);
    ck_assert_int_eq(tt_startup_finish(s, &err), 0);
    size_t n;
    const tt_su_row *r = tt_startup_rows(s, &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(r[0].stack, ""); /* the later report: 60 ms away, not the nearest */
    ck_assert_str_eq(r[1].source, "matrix_report");
    ck_assert_str_eq(r[1].stack, "0,1,1,12000\n");
    ck_assert_str_eq(r[1].stack_key, "1|");
    ck_assert_int_eq(r[1].matrix->issue_time_ms, 1000040);
    ck_assert(r[1].matrix_over_threshold && r[1].matrix_stack_collected);
    ck_assert(r[1].vitals_excessive);
    ck_assert_int_eq(r[2].type, TT_SU_WARM);
    ck_assert(r[2].matrix->issue_only);
    ck_assert(r[2].matrix_over_threshold);
    tt_startup_free(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("startup");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, worked_example_17);
    tcase_add_test(tc, worked_example_30s_quirk);
    tcase_add_test(tc, quirks);
    tcase_add_test(tc, no_ui_process_and_thresholds);
    tcase_add_test(tc, segments_55);
    tcase_add_test(tc, hot_and_processes);
    tcase_add_test(tc, event_errors);
    tcase_add_test(tc, unsorted_warns);
    tcase_add_test(tc, durations);
    tcase_add_test(tc, stats);
    tcase_add_test(tc, logcat_lines);
    tcase_add_test(tc, am_blocks);
    tcase_add_test(tc, detect);
    tcase_add_test(tc, looks_launches_lines);
    tcase_add_test(tc, slow_startup_stack);
    tcase_add_test(tc, ring_overwritten);
    tcase_add_test(tc, reports_attach);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
