/* Matrix issue report reader (method-beat.md 7.1-7.7): containers, tags, fields, errors. */
#include "unit.h"

#include <zlib.h>

#define EVIL                                                                                  \
    "{\"machine\":\"HIGH\",\"cpu_app\":0,\"mem\":7823671296,\"mem_free\":3120876,"            \
    "\"detail\":\"NORMAL\",\"cost\":765,\"scene\":\"com.x.ui.DetailActivity\","               \
    "\"stack\":\"0,1048574,1,765\\n1,40,1,760\\n2,41,1,755\\n3,43,1,645\\n\","              \
    "\"stackKey\":\"43|\",\"tag\":\"Trace_EvilMethod\",\"process\":\"com.x\","                \
    "\"time\":1795411864021}"
#define STARTUP                                                                               \
    "{\"machine\":\"MIDDLE\",\"application_create\":415,\"application_create_scene\":159,"    \
    "\"first_activity_create\":1120,\"startup_duration\":1870,\"is_warm_start_up\":false,"    \
    "\"tag\":\"Trace_StartUp\",\"process\":\"com.x\",\"time\":5}"

typedef struct got {
    tt_input *in;
    tt_report_reader *r;
    tt_stats *st;
    tt_error err;
} got;

static void open_str(got *g, const char *s, size_t n)
{
    memset(g, 0, sizeof *g);
    g->in = unit_mem("rep.txt", s, n);
    g->st = tt_stats_new();
    ck_assert_int_eq(tt_report_reader_new(&g->r, g->in, g->st, &g->err), 0);
}

static void close_all(got *g)
{
    tt_report_reader_free(g->r);
    tt_input_close(g->in);
    tt_stats_free(g->st);
}

static const tt_report *next_ok(got *g)
{
    const tt_report *rep = NULL;
    int rc = tt_report_reader_next(g->r, &rep, &g->err);
    if (rc)
        ck_abort_msg("next: %d %s line %llu", rc, g->err.msg, (unsigned long long)g->err.loc);
    return rep;
}

static int64_t stat_count(const tt_stats *s, const char *name)
{
    int64_t n = 0;
    for (size_t i = 0; i < tt_stats_count(s); i++)
        if (!strcmp(tt_stats_get(s, i)->name, name))
            n += tt_stats_get(s, i)->count;
    return n;
}

static void check_evil(const tt_report *r)
{
    ck_assert_int_eq(r->kind, TT_RKIND_EVIL);
    ck_assert_str_eq(r->tag, "Trace_EvilMethod");
    ck_assert_str_eq(r->detail, "NORMAL");
    ck_assert_str_eq(r->scene, "com.x.ui.DetailActivity");
    ck_assert_str_eq(r->process, "com.x");
    ck_assert(r->have_cost && r->cost_ms == 765);
    ck_assert(r->have_time && r->time_ms == 1795411864021LL);
    ck_assert_uint_eq(r->n_items, 4);
    ck_assert_int_eq(r->items[3].id, 43);
    ck_assert_int_eq(r->items[3].dur, 645);
    ck_assert_int_eq(r->key_id, 43);
    ck_assert_int_eq(r->key_index, 3);
    ck_assert_ptr_ne(strstr(r->json, "\"stackKey\":\"43|\""), NULL);
}

START_TEST(container_stream)
{
    const char *s = EVIL "\n" STARTUP "\n\n{\n  \"tag\": \"Trace_StartUp\",\n"
                    "  \"application_create\": 1, \"first_activity_create\": 2,\n"
                    "  \"startup_duration\": 3, \"is_warm_start_up\": true\n}\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_int_eq(tt_report_reader_container(g.r), TT_REPORT_STREAM);
    ck_assert_uint_eq(r->line, 1);
    check_evil(r);
    r = next_ok(&g);
    ck_assert_uint_eq(r->line, 2);
    ck_assert_int_eq(r->kind, TT_RKIND_STARTUP);
    r = next_ok(&g);
    ck_assert_uint_eq(r->line, 4);
    ck_assert(r->startup.is_warm_start_up);
    ck_assert(!r->startup.have_application_create_scene);
    ck_assert_int_eq(tt_report_reader_next(g.r, &r, &g.err), TT_DONE);
    ck_assert_int_eq(tt_report_reader_next(g.r, &r, &g.err), TT_DONE);
    ck_assert_uint_eq(tt_report_reader_count(g.r), 3);
    close_all(&g);
}
END_TEST

START_TEST(container_array)
{
    const char *s = "\xef\xbb\xbf[\n  " EVIL ",\n  " STARTUP "\n]\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_int_eq(tt_report_reader_container(g.r), TT_REPORT_ARRAY);
    ck_assert_uint_eq(r->line, 2);
    check_evil(r);
    r = next_ok(&g);
    ck_assert_uint_eq(r->line, 3);
    ck_assert_int_eq(r->startup.application_create_scene, 159);
    ck_assert_int_eq(tt_report_reader_next(g.r, &r, &g.err), TT_DONE);
    close_all(&g);
}
END_TEST

START_TEST(container_log)
{
    const char *s =
        "--------- beginning of main\n"
        "11-23 05:30:00.100  8812  8812 I ActivityTaskManager: Displayed x/.Main: +1s\n"
        "11-23 05:30:00.120  8812  8812 I Matrix.DefaultPluginListener: report issue content: "
        "tag[Trace_EvilMethod]type[0];key[null];content[" EVIL "]\r\n"
        "I/Matrix.DefaultPluginListener( 8812): tag[Trace_StartUp]type[0];key[7];content["
        STARTUP "]\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_int_eq(tt_report_reader_container(g.r), TT_REPORT_LOG);
    ck_assert_uint_eq(r->line, 3);
    check_evil(r);
    ck_assert_str_eq(r->wrap_tag, "Trace_EvilMethod");
    ck_assert_ptr_eq(r->wrap_key, NULL);
    ck_assert(r->have_wrap_type && r->wrap_type == 0);
    r = next_ok(&g);
    ck_assert_uint_eq(r->line, 4);
    ck_assert_str_eq(r->wrap_key, "7");
    ck_assert_int_eq(tt_report_reader_next(g.r, &r, &g.err), TT_DONE);
    ck_assert_int_eq(stat_count(g.st, "report_lines_skipped"), 2);
    close_all(&g);
}
END_TEST

/* A logcat "-v long" header starts with '[' but is not a JSON array. */
START_TEST(container_log_bracket_start)
{
    const char *s = "[ 11-23 05:30:00.120  8812: 8812 I/Matrix ]\n"
                    "tag[Trace_StartUp]type[0];key[null];content[" STARTUP "]\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_int_eq(tt_report_reader_container(g.r), TT_REPORT_LOG);
    ck_assert_uint_eq(r->line, 2);
    close_all(&g);
}
END_TEST

/* The JSON ends at the last ']' of the line even when it contains ']' itself; '\/' escapes. */
START_TEST(log_bracket_and_escapes)
{
    const char *s = "x tag[Trace_EvilMethod]type[0];key[0];content[{\"tag\":\"Trace_EvilMethod\","
                    "\"detail\":\"LAG\",\"scene\":\"home\\/feed]\",\"threadStack\":"
                    "\"at a.b[]:c(1)\\n\",\"list\":[1,[2]]}]\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_str_eq(r->scene, "home/feed]");
    ck_assert_str_eq(r->thread_stack, "at a.b[]:c(1)\n");
    ck_assert_str_eq(r->wrap_key, "0");
    ck_assert(!r->have_stack);
    ck_assert_ptr_ne(strstr(r->json, "\"list\":[1,[2]]"), NULL);
    close_all(&g);
}
END_TEST

START_TEST(tags_and_details)
{
    const char *s =
        "{\"detail\":\"ANR\",\"cost\":5005,\"stackKey\":\"52|\",\"scene\":\"M\","
        "\"stack\":\"0,1048574,1,5005\\n1,50,1,5005\\n2,52,1,4990\\n\",\"threadStack\":\"t\\n\","
        "\"processPriority\":10,\"processNice\":-10,\"isProcessForeground\":true,"
        "\"memory\":{\"dalvik_heap\":1,\"native_heap\":2,\"vm_size\":3},\"tag\":\"Trace_EvilMethod\"}\n"
        "{\"detail\":\"SIGNAL_ANR\",\"threadStack\":\"a\\n\",\"tag\":\"Trace_EvilMethod\"}\n"
        "{\"detail\":\"STARTUP\",\"cost\":11230,\"stack\":\"0,2,1,9030\\n\",\"stackKey\":\"2|\","
        "\"subType\":1,\"tag\":\"Trace_EvilMethod\"}\n"
        "{\"detail\":\"NORMAL\",\"cost\":1045,\"usage\":\"95.65%\",\"stack\":\"\",\"stackKey\":\"\","
        "\"tag\":\"Trace_EvilMethod\"}\n"
        "{\"detail\":\"TIMERSLACK_MODIFIED\",\"threadStack\":\"x\",\"processTimerSlack\":50000,"
        "\"tag\":\"Trace_EvilMethod\"}\n"
        "{\"tag\":\"io\",\"process\":\"p\"}\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_str_eq(r->detail, "ANR");
    ck_assert(r->anr.have_process_priority && r->anr.process_priority == 10);
    ck_assert(r->anr.have_process_nice && r->anr.process_nice == -10);
    ck_assert(r->anr.have_is_foreground && r->anr.is_foreground);
    ck_assert(r->anr.have_memory && r->anr.vm_size_kb == 3 && r->anr.dalvik_heap_kb == 1);
    ck_assert_int_eq(r->key_id, 52);
    ck_assert_int_eq(r->key_index, 2);
    ck_assert_str_eq(r->thread_stack, "t\n");
    r = next_ok(&g);
    ck_assert_str_eq(r->detail, "SIGNAL_ANR");
    ck_assert(!r->have_cost && !r->have_stack);
    r = next_ok(&g);
    ck_assert_str_eq(r->detail, "STARTUP");
    ck_assert(r->have_sub_type && r->sub_type == 1);
    ck_assert_int_eq(r->key_index, 0);
    r = next_ok(&g);
    ck_assert_str_eq(r->usage, "95.65%");
    ck_assert(r->have_stack);
    ck_assert_uint_eq(r->n_items, 0);
    ck_assert_int_eq(r->key_id, -1);
    r = next_ok(&g);
    ck_assert(r->anr.have_timer_slack && r->anr.timer_slack == 50000);
    r = next_ok(&g);
    ck_assert_int_eq(r->kind, TT_RKIND_OTHER);
    ck_assert_str_eq(r->tag, "io");
    ck_assert_int_eq(stat_count(g.st, "report_unknown_tag"), 1);
    close_all(&g);
}
END_TEST

START_TEST(fps_generations)
{
    const char *s =
        "{\"scene\":\"A\",\"dropLevel\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":2,"
        "\"DROPPED_MIDDLE\":5,\"DROPPED_NORMAL\":21,\"DROPPED_BEST\":553},\"dropSum\":{"
        "\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":31,\"DROPPED_MIDDLE\":38,\"DROPPED_NORMAL\":67,"
        "\"DROPPED_BEST\":88},\"fps\":55.51308822631836,\"dropTaskFrameSum\":0,\"tag\":\"Trace_FPS\"}\n"
        "{\"scene\":\"B\",\"dropLevel\":{\"DROPPED_FROZEN\":1,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,"
        "\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":9},\"dropSum\":{\"DROPPED_FROZEN\":44,"
        "\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":0},"
        "\"fps\":60,\"tag\":\"Trace_FPS\"}\n"
        "{\"scene\":\"C\",\"dropLevel\":{\"DROPPED_BEST\":574,\"DROPPED_NORMAL\":17,"
        "\"DROPPED_MIDDLE\":4,\"DROPPED_HIGH\":1,\"DROPPED_FROZEN\":0},\"dropSum\":{"
        "\"DROPPED_BEST\":9,\"DROPPED_NORMAL\":39,\"DROPPED_MIDDLE\":25,\"DROPPED_HIGH\":13,"
        "\"DROPPED_FROZEN\":0},\"fps\":57.07583236694336,\"DRAW_DURATION\":3012998,"
        "\"TOTAL_DURATION\":17520551,\"DROP_COUNT\":0,\"REFRESH_RATE\":60,\"tag\":\"Trace_FPS\"}\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_int_eq(r->kind, TT_RKIND_FPS);
    ck_assert_int_eq(r->fps.gen, TT_FPS_GEN_A);
    ck_assert_int_eq(r->fps.drop_level[TT_DROP_BEST], 553);
    ck_assert_int_eq(r->fps.drop_level[TT_DROP_HIGH], 2);
    ck_assert_int_eq(r->fps.drop_sum[TT_DROP_NORMAL], 67);
    ck_assert(r->fps.fps == 55.51308822631836);
    r = next_ok(&g);
    ck_assert_int_eq(r->fps.gen, TT_FPS_GEN_AB);
    ck_assert(r->fps.fps == 60.0);
    ck_assert_int_eq(r->fps.drop_sum[TT_DROP_FROZEN], 44);
    r = next_ok(&g);
    ck_assert_int_eq(r->fps.gen, TT_FPS_GEN_C);
    ck_assert(r->fps.have_dur[TT_FPS_DUR_DRAW] && r->fps.dur_ns[TT_FPS_DUR_DRAW] == 3012998);
    ck_assert(!r->fps.have_dur[TT_FPS_DUR_GPU]);
    ck_assert(r->fps.have_refresh_rate && r->fps.refresh_rate == 60);
    ck_assert_str_eq(tt_report_fps_gen_name(r->fps.gen), "c");
    ck_assert_str_eq(tt_report_drop_level_name(TT_DROP_FROZEN), "FROZEN");
    ck_assert_str_eq(tt_report_fps_dur_name(TT_FPS_DUR_TOTAL), "TOTAL_DURATION");
    ck_assert_ptr_eq(tt_report_fps_dur_name(TT_FPS_DURS), NULL);
    close_all(&g);
}
END_TEST

/* JSON readers need not keep key order (7.4): fields do not depend on it. */
START_TEST(key_order_independent)
{
    const char *a = "{\"tag\":\"Trace_EvilMethod\",\"time\":1795411864021,\"process\":\"com.x\","
                    "\"stackKey\":\"43|\",\"stack\":\"0,1048574,1,765\\n1,40,1,760\\n2,41,1,755"
                    "\\n3,43,1,645\\n\",\"scene\":\"com.x.ui.DetailActivity\",\"cost\":765,"
                    "\"detail\":\"NORMAL\"}";
    got g;
    open_str(&g, a, strlen(a));
    check_evil(next_ok(&g));
    close_all(&g);
}
END_TEST

START_TEST(missing_fields_skipped)
{
    const char *s = "{\"detail\":\"NORMAL\",\"cost\":5,\"tag\":\"Trace_EvilMethod\"}\n"
                    "{\"detail\":\"LAG\",\"tag\":\"Trace_EvilMethod\"}\n"
                    "{\"application_create\":\"x\",\"tag\":\"Trace_StartUp\"}\n"
                    "{\"time\":1}\n" STARTUP "\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_uint_eq(r->line, 5);
    ck_assert_int_eq(tt_report_reader_next(g.r, &r, &g.err), TT_DONE);
    ck_assert_uint_eq(tt_report_reader_skipped(g.r), 4);
    ck_assert_int_eq(stat_count(g.st, "report_missing_field"), 3);
    ck_assert_int_eq(stat_count(g.st, "report_mistyped_field"), 1);
    close_all(&g);
    /* nothing usable: an error */
    s = "{\"detail\":\"NORMAL\",\"tag\":\"Trace_EvilMethod\"}\n";
    open_str(&g, s, strlen(s));
    ck_assert_int_eq(tt_report_reader_next(g.r, &r, &g.err), TT_EFORMAT);
    ck_assert_ptr_ne(strstr(g.err.msg, "no usable Matrix report"), NULL);
    close_all(&g);
}
END_TEST

START_TEST(tag_inferred)
{
    const char *s = "{\"dropLevel\":{},\"dropSum\":{},\"fps\":1.5}\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_str_eq(r->tag, "Trace_FPS");
    ck_assert(r->tag_inferred);
    ck_assert_int_eq(stat_count(g.st, "report_bad_field"), 10); /* five levels, twice */
    close_all(&g);
}
END_TEST

static void expect_error(const char *s, uint64_t line, const char *msg)
{
    got g;
    const tt_report *r;
    open_str(&g, s, strlen(s));
    int rc;
    while ((rc = tt_report_reader_next(g.r, &r, &g.err)) == 0)
        ;
    ck_assert_int_lt(rc, 0);
    ck_assert_str_eq(g.err.file, "rep.txt");
    if (line) {
        ck_assert_msg(g.err.loc_kind == TT_LOC_LINE, "no line: %s", g.err.msg);
        ck_assert_uint_eq(g.err.loc, line);
    }
    if (!strstr(g.err.msg, msg))
        ck_abort_msg("message \"%s\" lacks \"%s\"", g.err.msg, msg);
    close_all(&g);
}

START_TEST(invalid_json)
{
    expect_error(STARTUP "\n" STARTUP "\n{\n\"tag\": \"x\",\n\"a\": tru\n}\n", 5, "invalid JSON");
    expect_error("[" STARTUP "\n" STARTUP "]", 2, "expected ',' or ']'");
    expect_error("[" STARTUP ",\n]", 2, "after ','");
    expect_error("[" STARTUP ",\n" STARTUP "\n", 3, "is not closed");
    expect_error(STARTUP "\n{\"tag\":\"x\",\n\"b\":\"unterminated", 3, "invalid JSON");
    expect_error(STARTUP "\n42\n", 2, "expected '{' or '['");
    expect_error("[" STARTUP ", 1]", 1, "expected a report object");
    expect_error("[1]", 0, "no line holds"); /* not an array of objects: text */
    /* a log whose only report lines are cut: nothing usable (the lines are counted) */
    expect_error("a\ntag[x]type[0];key[null];content[{\"tag\":}]\n", 0, "1 log line with a cut");
    expect_error("tag[x]type[0];key[null];content[{\"tag\":\"x\"}\n", 0, "cut or invalid");
    expect_error("tag[x]type[0];key[null];content[[1]]\n", 1, "not a JSON object");
}
END_TEST

/* logcat cuts an entry at about 4 KB: the cut report line is counted and skipped, the
 * reports around it are kept */
START_TEST(log_line_cut)
{
    const char *s = "tag[Trace_StartUp]type[0];key[null];content[{\"tag\":\"Trace_St\n"
                    "x tag[Trace_StartUp]type[0];key[null];content[{\"a\":[1,2]\n"
                    "x tag[Trace_StartUp]type[0];key[null];content[" STARTUP "]\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_uint_eq(r->line, 3);
    ck_assert_int_eq(tt_report_reader_next(g.r, &r, &g.err), TT_DONE);
    ck_assert_int_eq(stat_count(g.st, "report_line_malformed"), 2);
    int found = 0;
    for (size_t i = 0; i < tt_stats_count(g.st); i++)
        if (!strcmp(tt_stats_get(g.st, i)->name, "report_line_malformed")) {
            ck_assert_str_eq(tt_stats_get(g.st, i)->example,
                             "rep.txt:1: content[ without a closing ']' (a truncated log "
                             "line?); report skipped");
            found = 1;
        }
    ck_assert(found);
    close_all(&g);
}
END_TEST

START_TEST(bad_stack_line)
{
    expect_error(STARTUP "\n{\"detail\":\"NORMAL\",\"cost\":5,\"stack\":\"0,1,1,5\\n1,2,x,3\\n\","
                         "\"tag\":\"Trace_EvilMethod\"}\n",
                 2, "stack line 2");
}
END_TEST

START_TEST(empty_inputs)
{
    expect_error("", 0, "no Matrix report found");
    expect_error("  \n\n", 0, "no Matrix report found");
    expect_error("[]", 0, "no Matrix report found");
    expect_error("just a log line\nanother\n", 0, "no line holds tag[");
}
END_TEST

START_TEST(gzip_input)
{
    const char *s = EVIL "\n";
    unsigned char gz[2048];
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (unsigned char *)s;
    zs.avail_in = (uInt)strlen(s);
    zs.next_out = gz;
    zs.avail_out = sizeof gz;
    ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t n = sizeof gz - zs.avail_out;
    deflateEnd(&zs);
    got g;
    open_str(&g, (const char *)gz, n);
    check_evil(next_ok(&g));
    ck_assert_int_eq(tt_report_reader_container(g.r), TT_REPORT_STREAM);
    close_all(&g);
}
END_TEST

START_TEST(stack_key_forms)
{
    const char *s = "{\"detail\":\"NORMAL\",\"cost\":5,\"stack\":\"0,101,1,5\\n\",\"stackKey\":"
                    "\"101\\n\",\"subType\":-1,\"tag\":\"Trace_EvilMethod\"}\n"
                    "{\"detail\":\"NORMAL\",\"cost\":5,\"stack\":\"0,101,1,5\\n\",\"stackKey\":"
                    "\"junk\",\"tag\":\"Trace_EvilMethod\"}\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_int_eq(r->key_id, 101); /* v0.4 "101\n" */
    ck_assert_int_eq(r->sub_type, -1);
    r = next_ok(&g);
    ck_assert_int_eq(r->key_id, -1);
    ck_assert_int_eq(stat_count(g.st, "report_bad_stack_key"), 1);
    close_all(&g);
}
END_TEST

static int collect_key(void *ctx, const char *key, int type, const char *text, size_t len)
{
    tt_buf *b = ctx;
    tt_buf_printf(b, "%s=%d:%.*s;", key, type, (int)len, text);
    return !strcmp(key, "stop");
}

START_TEST(helpers)
{
    const char *s = "{\"detail\":\"ANR\",\"cost\":50,\"stack\":\"0,1048574,1,50\\n1,1,1,50\\n"
                    "2,2,1,5\\n2,3,1,45\\n4,4,1,40\\n\",\"stackKey\":\"4|\",\"memory\":{\"vm_size\":3},"
                    "\"fg\":true,\"x\":1.5,\"n\":null,\"a\":[1],\"tag\":\"Trace_EvilMethod\",\"stop\":1,"
                    "\"after\":2}\n"
                    "{\"detail\":\"SIGNAL_ANR_NATIVE_BACKTRACE\",\"threadStack\":\"\",\"tag\":\"Trace_EvilMethod\"}\n"
                    "{\"detail\":\"NEW_KIND\",\"tag\":\"Trace_EvilMethod\"}\n" STARTUP "\n";
    got g;
    open_str(&g, s, strlen(s));
    const tt_report *r = next_ok(&g);
    ck_assert_str_eq(tt_report_issue_kind(r), "anr");
    int32_t path[8];
    ck_assert_uint_eq(tt_report_key_path(r, path, 8), 4);
    ck_assert_int_eq(path[0], 0);
    ck_assert_int_eq(path[1], 1);
    ck_assert_int_eq(path[2], 3); /* the line before a depth gap is the parent */
    ck_assert_int_eq(path[3], 4);
    ck_assert_uint_eq(tt_report_key_path(r, path, 2), 4); /* cap: only the count */
    tt_buf b = {0};
    ck_assert_int_eq(tt_report_reader_keys(g.r, collect_key, &b, &g.err), 1);
    ck_assert_ptr_ne(strstr(b.data, "detail=4:ANR;"), NULL);
    ck_assert_ptr_ne(strstr(b.data, "memory=5:{\"vm_size\":3};"), NULL);
    ck_assert_ptr_ne(strstr(b.data, "fg=1:true;x=3:1.5;n=0:null;a=6:[1];"), NULL);
    ck_assert_ptr_eq(strstr(b.data, "after"), NULL); /* stopped */
    tt_buf_free(&b);
    r = next_ok(&g);
    ck_assert_str_eq(tt_report_issue_kind(r), "signal_anr");
    ck_assert_uint_eq(tt_report_key_path(r, path, 8), 0);
    r = next_ok(&g);
    ck_assert_str_eq(tt_report_issue_kind(r), "other");
    ck_assert_int_eq(stat_count(g.st, "report_unknown_detail"), 1);
    r = next_ok(&g);
    ck_assert_str_eq(tt_report_issue_kind(r), "startup");
    ck_assert_str_eq(tt_report_container_name(tt_report_reader_container(g.r)), "stream");
    ck_assert_ptr_ne(r->json, NULL);
    close_all(&g);
    open_str(&g, s, strlen(s));
    tt_report_reader_set_json(g.r, 0);
    r = next_ok(&g);
    ck_assert_ptr_eq(r->json, NULL);
    ck_assert_str_eq(r->detail, "ANR");
    close_all(&g);
}
END_TEST

/* A count whose example the caller printed as an error (tt_stats_add_told) keeps the example
 * and says so; the flag belongs to the example kept (the first), and tt_stats_add_stat
 * carries it into another sink (analyze's jobs, its readers). */
START_TEST(stats_told)
{
    tt_stats *s = tt_stats_new(), *t = tt_stats_new();
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(t);
    tt_stats_add_told(s, "macho_bad_header", "a.macho", TT_SEV_WARN, 1, "0x0: truncated");
    tt_stats_add(s, "macho_bad_header", "a.macho", TT_SEV_WARN, 1, "0x8: other");
    tt_stats_add(s, "sym_dwarf_error", "b.so", TT_SEV_WARN, 1, NULL);
    tt_stats_add_told(s, "sym_dwarf_error", "b.so", TT_SEV_WARN, 1, "bad unit");
    tt_stats_add(s, "macho_no_slice", "c", TT_SEV_WARN, 1, "universal file");
    const tt_stat *x = tt_stats_get(s, 0);
    ck_assert_int_eq(x->count, 2);
    ck_assert_str_eq(x->example, "0x0: truncated");
    ck_assert_int_eq(x->told, 1);
    ck_assert_str_eq(tt_stats_get(s, 1)->example, "bad unit");
    ck_assert_int_eq(tt_stats_get(s, 1)->told, 1);
    ck_assert_int_eq(tt_stats_get(s, 2)->told, 0);
    for (size_t i = 0; i < tt_stats_count(s); i++)
        tt_stats_add_stat(t, tt_stats_get(s, i));
    ck_assert_uint_eq(tt_stats_count(t), 3);
    ck_assert_int_eq(tt_stats_get(t, 0)->told, 1);
    ck_assert_int_eq(tt_stats_get(t, 0)->count, 2);
    ck_assert_int_eq(tt_stats_get(t, 2)->told, 0);
    ck_assert_str_eq(tt_stats_get(t, 2)->example, "universal file");
    tt_stats_free(s);
    tt_stats_free(t);
}
END_TEST

/* schema(5): stats.description is one sentence, not the name again (the names counted
 * without an example, whose description would otherwise be the name) */
START_TEST(stats_descriptions)
{
    static const char *const names[] = {
        "beat_child_clamped", "btrace_empty_stack", "btrace_invalid_type", "btrace_runtime_frame",
        "frames_other_reports_ignored", "kscrash_big_uint_rewritten", "kscrash_pac_stripped",
        "kscrash_unresolved", "macho_no_dwarf", "perf_mmap_records", "perf_sideband_records",
        "report_lines_skipped", "retrace_ambiguous", "samples_unknown_kind",
        "startup_lines_skipped", "startup_reports_ignored", "sym_build_id_mismatch",
        "sym_module_not_found", "sym_no_debug_info", "sym_split_dwarf"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *d = tt_stats_description(names[i]);
        ck_assert_msg(d != NULL, "%s has no description", names[i]);
        ck_assert_str_ne(d, names[i]);
        ck_assert_ptr_nonnull(strchr(d, ' '));
    }
    ck_assert_ptr_null(tt_stats_description("beat_stray_exit")); /* has its own example */
    ck_assert_ptr_null(tt_stats_description("zzz"));
    ck_assert_ptr_null(tt_stats_description(""));
}
END_TEST

/* schema(5): stats.description is the first occurrence's message when the reader gave one
 * (what the warning printed), the fixed sentence only for names counted without one */
START_TEST(stats_text_example_first)
{
    tt_stats *st = tt_stats_new();
    ck_assert_ptr_nonnull(st);
    /* btrace_empty_stack is counted both ways: the example is kept, whatever came first */
    tt_stats_add(st, "btrace_empty_stack", "a.bin", TT_SEV_WARN, 1, NULL);
    tt_stats_add(st, "btrace_empty_stack", "a.bin", TT_SEV_WARN, 2,
                 "records with depth 0 were skipped");
    tt_stats_add(st, "sym_build_id_mismatch", "libx.so", TT_SEV_WARN, 1,
                 "x.debug has build id 01, expected 02");
    tt_stats_add(st, "btrace_empty_stack", "b.bin", TT_SEV_WARN, 1, NULL);
    tt_stats_add(st, "beat_stray_exit", "c.bin", TT_SEV_WARN, 1, NULL);
    ck_assert_uint_eq(tt_stats_count(st), 4);
    ck_assert_str_eq(tt_stats_text(tt_stats_get(st, 0)), "records with depth 0 were skipped");
    ck_assert_str_eq(tt_stats_text(tt_stats_get(st, 1)), "x.debug has build id 01, expected 02");
    ck_assert_str_eq(tt_stats_text(tt_stats_get(st, 2)),
                     tt_stats_description("btrace_empty_stack"));
    ck_assert_str_eq(tt_stats_text(tt_stats_get(st, 3)), "beat_stray_exit"); /* no sentence */
    tt_stats_free(st);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("report");
    tcase_add_test(tc, container_stream);
    tcase_add_test(tc, container_array);
    tcase_add_test(tc, container_log);
    tcase_add_test(tc, container_log_bracket_start);
    tcase_add_test(tc, log_bracket_and_escapes);
    tcase_add_test(tc, tags_and_details);
    tcase_add_test(tc, fps_generations);
    tcase_add_test(tc, key_order_independent);
    tcase_add_test(tc, missing_fields_skipped);
    tcase_add_test(tc, tag_inferred);
    tcase_add_test(tc, invalid_json);
    tcase_add_test(tc, log_line_cut);
    tcase_add_test(tc, bad_stack_line);
    tcase_add_test(tc, empty_inputs);
    tcase_add_test(tc, gzip_input);
    tcase_add_test(tc, stack_key_forms);
    tcase_add_test(tc, helpers);
    tcase_add_test(tc, stats_descriptions);
    tcase_add_test(tc, stats_told);
    tcase_add_test(tc, stats_text_example_first);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
