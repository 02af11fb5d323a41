/* tracetool diff without the CLI: the threshold and --fail-on parsers, gate evaluation, name
 * classification, interning, and cross-build matching by name in sqlite/diff.c
 * (storage.md 8). */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "../../sqlite/tdb.h"

START_TEST(pct_forms)
{
    double v;
    tt_error err;
    ck_assert_int_eq(tt_diff_parse_pct(&v, "25%", &err), 0);
    ck_assert(v == 25);
    ck_assert_int_eq(tt_diff_parse_pct(&v, "25", &err), 0);
    ck_assert(v == 25);
    ck_assert_int_eq(tt_diff_parse_pct(&v, "2.5", &err), 0);
    ck_assert(v == 2.5);
    ck_assert_int_eq(tt_diff_parse_pct(&v, ".5%", &err), 0);
    ck_assert(v == 0.5);
    static const char *const bad[] = {"", "%", "-5", "+5", "1e3", "5%%", "abc", "1.2.3",
                                      "nan", "2000000", " 5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(tt_diff_parse_pct(&v, bad[i], &err) == TT_EINVAL, "%s", bad[i]);
    ck_assert_ptr_nonnull(strstr(err.msg, "percentage"));
}
END_TEST

START_TEST(gates_issue_example)
{
    tt_gate g[TT_GATES_MAX];
    size_t n;
    tt_error err;
    ck_assert_int_eq(
        tt_diff_parse_gates(g, TT_GATES_MAX, &n, "startup.cold=+5%,fps=-2,method.self=+20%", &err),
        0);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(g[0].metric, "startup.cold");
    ck_assert_int_eq(g[0].dir, 1);
    ck_assert_int_eq(g[0].is_pct, 1);
    ck_assert(g[0].value == 5);
    ck_assert_str_eq(g[1].metric, "scene.fps"); /* alias */
    ck_assert_int_eq(g[1].dir, -1);
    ck_assert_int_eq(g[1].is_pct, 0);
    ck_assert(g[1].value == 2);
    ck_assert_str_eq(g[2].metric, "method.self");
    char s[64];
    tt_gate_format(s, sizeof s, &g[1]);
    ck_assert_str_eq(s, "scene.fps=-2");
    tt_gate_format(s, sizeof s, &g[0]);
    ck_assert_str_eq(s, "startup.cold=+5%");
}
END_TEST

START_TEST(gates_defaults_and_units)
{
    tt_gate g[4];
    size_t n;
    tt_error err;
    /* no sign: the natural direction; "ms" names the unit of an absolute value; blanks */
    ck_assert_int_eq(tt_diff_parse_gates(g, 4, &n, " fps = 3 , startup.warm=150ms,jank=1.5", &err),
                     0);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(g[0].dir, -1);
    ck_assert_int_eq(g[1].dir, 1);
    ck_assert_int_eq(g[1].is_pct, 0);
    ck_assert(g[1].value == 150);
    ck_assert_str_eq(g[2].metric, "scene.jank");
    /* an explicit sign overrides the direction */
    ck_assert_int_eq(tt_diff_parse_gates(g, 4, &n, "method.calls=-50%", &err), 0);
    ck_assert_int_eq(g[0].dir, -1);
    ck_assert_int_eq(tt_diff_metric_dir("scene.fps"), -1);
    ck_assert_int_eq(tt_diff_metric_dir("issue.new"), 1);
    ck_assert_int_eq(tt_diff_metric_dir("nope"), 0);
    const char *const *names = tt_diff_metric_names();
    size_t k = 0;
    while (names[k])
        ck_assert_int_ne(tt_diff_metric_dir(names[k++]), 0);
    ck_assert_uint_eq(k, 23);
}
END_TEST

/* Issue 12 item 6: what diff prints for a gate must be accepted by --fail-on again. */
static void round_trip(const char *item)
{
    tt_gate g[1], g2[1];
    size_t n;
    tt_error err;
    if (tt_diff_parse_gates(g, 1, &n, item, &err))
        return;
    char s[64];
    tt_gate_format(s, sizeof s, &g[0]);
    ck_assert_msg(tt_diff_parse_gates(g2, 1, &n, s, &err) == 0, "%s -> %s: %s", item, s, err.msg);
    ck_assert_msg(g2[0].value == g[0].value && g2[0].dir == g[0].dir &&
                      g2[0].is_pct == g[0].is_pct,
                  "%s -> %s", item, s);
}

START_TEST(gate_format_round_trip)
{
    tt_gate g[1];
    size_t n;
    tt_error err;
    char s[64];
    ck_assert_int_eq(tt_diff_parse_gates(g, 1, &n, "fps=100000000001.4", &err), 0);
    tt_gate_format(s, sizeof s, &g[0]);
    ck_assert_str_eq(s, "scene.fps=-100000000001.4");
    ck_assert_int_eq(tt_diff_parse_gates(g, 1, &n, "jank=.12345678901234%", &err), 0);
    tt_gate_format(s, sizeof s, &g[0]);
    ck_assert_str_eq(s, "scene.jank=+.12345678901234%");
    ck_assert_int_eq(tt_diff_parse_gates(g, 1, &n, "jank=0.5", &err), 0);
    tt_gate_format(s, sizeof s, &g[0]);
    ck_assert_str_eq(s, "scene.jank=+0.5");
    /* random numbers of up to 15 digits and dots */
    unsigned x = 12345;
    for (int i = 0; i < 20000; i++) {
        char item[32] = "fps=";
        size_t len = 1 + (x = x * 1103515245u + 12345u) % 15, k = 4;
        for (size_t j = 0; j < len; j++) {
            x = x * 1103515245u + 12345u;
            item[k++] = (x >> 16) % 11 == 10 ? '.' : (char)('0' + (x >> 16) % 10);
        }
        item[k] = 0;
        round_trip(item);
    }
}
END_TEST

START_TEST(gates_errors)
{
    tt_gate g[2];
    size_t n;
    tt_error err;
    static const char *const bad[] = {"", "method.self", "method.self=", "frames=+1",
                                      "method.self=+x", "method.self=++5", "method.self=5%%",
                                      "fps=-2,", ",fps=1", "fps=1e9", "fps=-2ms%"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(tt_diff_parse_gates(g, 2, &n, bad[i], &err) < 0, "%s", bad[i]);
    ck_assert_int_eq(tt_diff_parse_gates(g, 2, &n, "frames=+1", &err), TT_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.msg, "item 1 \"frames=+1\": unknown metric"));
    ck_assert_int_eq(tt_diff_parse_gates(g, 2, &n, "fps=1,jank=2,method.self=3", &err),
                     TT_ELIMIT);
}
END_TEST

/* A gate given twice (in one list, or alias and canonical name) is one gate; tt_gate_add
 * appends the gates of another --fail-on the same way. */
START_TEST(gate_duplicates)
{
    tt_gate g[2];
    size_t n = 7;
    tt_error err = {0};
    ck_assert_int_eq(tt_diff_parse_gates(g, 2, &n, "fps=1,scene.fps=-1,jank=2,scene.jank=+2", &err),
                     0);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(g[0].metric, "scene.fps");
    ck_assert_str_eq(g[1].metric, "scene.jank");
    tt_gate more[2];
    size_t m;
    ck_assert_int_eq(tt_diff_parse_gates(more, 2, &m, "jank=2,fps=+1", &err), 0);
    n = 1;
    ck_assert_int_eq(tt_gate_add(g, 2, &n, &more[0]), 0); /* jank=2: new here */
    ck_assert_int_eq(tt_gate_add(g, 2, &n, &more[0]), 0); /* again: kept once */
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(tt_gate_add(g, 2, &n, &more[1]), TT_ELIMIT); /* fps=+1: another dir */
    ck_assert_uint_eq(n, 2);
    /* ms names the unit of a metric measured in ms only */
    ck_assert_int_eq(tt_diff_parse_gates(g, 2, &n, "fps=1ms", &err), TT_EINVAL);
    ck_assert_int_eq(tt_diff_parse_gates(g, 2, &n, "scene.p90=+3ms,fps=1", &err), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(g[1].metric, "scene.fps");
}
END_TEST

START_TEST(gate_trips)
{
    tt_gate up_pct = {"method.self", 1, 1, 20}, down_abs = {"scene.fps", -1, 0, 2};
    double amt;
    ck_assert_int_eq(tt_gate_trips(&up_pct, 100, 120, &amt), 0); /* exactly 20%: not beyond */
    ck_assert_int_eq(tt_gate_trips(&up_pct, 100, 121, &amt), 1);
    ck_assert(amt == 21);
    ck_assert_int_eq(tt_gate_trips(&up_pct, 100, 50, NULL), 0);  /* an improvement */
    ck_assert_int_eq(tt_gate_trips(&up_pct, 0, 500, NULL), 0);   /* relative from nothing */
    ck_assert_int_eq(tt_gate_trips(&up_pct, 100, NAN, NULL), 0);
    ck_assert_int_eq(tt_gate_trips(&down_abs, 60, 58, NULL), 0);
    ck_assert_int_eq(tt_gate_trips(&down_abs, 60, 57.5, &amt), 1);
    ck_assert(amt == 2.5);
    ck_assert_int_eq(tt_gate_trips(&down_abs, 50, 60, NULL), 0);
    tt_gate new_issue = {"issue.new", 1, 0, 0};
    ck_assert_int_eq(tt_gate_trips(&new_issue, 0, 1, NULL), 1);
    ck_assert_int_eq(tt_gate_trips(&new_issue, 0, 0, NULL), 0);
}
END_TEST

START_TEST(name_classes)
{
    ck_assert_int_eq(tt_name_classify("com.example.Util.parse(java.lang.String)"), TT_NAME_OK);
    ck_assert_int_eq(tt_name_classify("com.x.Foo.a()"), TT_NAME_OK);
    ck_assert_int_eq(tt_name_classify("com.x.ab.onCreate(android.os.Bundle)"), TT_NAME_OK);
    ck_assert_int_eq(tt_name_classify("libfoo.so!render"), TT_NAME_OK);
    ck_assert_int_eq(tt_name_classify("(no stack key)"), TT_NAME_OK);
    ck_assert_int_eq(tt_name_classify("a.b.c(int)"), TT_NAME_OBFUSCATED);
    ck_assert_int_eq(tt_name_classify("com.bench.C1.m0(int)"), TT_NAME_OK);
    ck_assert_int_eq(tt_name_classify("com.x.a.bc(java.lang.String)"), TT_NAME_OBFUSCATED);
    ck_assert_int_eq(tt_name_classify("<unknown id 42>"), TT_NAME_UNRESOLVED);
    ck_assert_int_eq(tt_name_classify("unresolved:243|"), TT_NAME_UNRESOLVED);
    ck_assert_int_eq(tt_name_classify("0x7f001234"), TT_NAME_UNRESOLVED);
    ck_assert_int_eq(tt_name_classify("??"), TT_NAME_UNRESOLVED);
    ck_assert_int_eq(tt_name_classify(""), TT_NAME_UNRESOLVED);
}
END_TEST

START_TEST(intern_ids)
{
    tt_intern *t = tt_intern_new();
    uint32_t a, b, c;
    ck_assert_int_eq(tt_intern_get(t, "alpha", 5, &a), 0);
    ck_assert_int_eq(tt_intern_get(t, "beta", 4, &b), 0);
    ck_assert_int_eq(tt_intern_get(t, "alpha", 5, &c), 0);
    ck_assert_uint_eq(a, 0);
    ck_assert_uint_eq(b, 1);
    ck_assert_uint_eq(c, a);
    ck_assert_int_eq(tt_intern_get(t, "a\0b", 3, &c), 0); /* embedded NUL */
    ck_assert_uint_eq(c, 2);
    for (int i = 0; i < 5000; i++) { /* growth keeps ids */
        char s[16];
        snprintf(s, sizeof s, "k%d", i);
        ck_assert_int_eq(tt_intern_get(t, s, strlen(s), &c), 0);
        ck_assert_uint_eq(c, (uint32_t)i + 3);
    }
    size_t n;
    ck_assert_str_eq(tt_intern_str(t, b, &n), "beta");
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(tt_intern_count(t), 5003);
    tt_intern_free(t);
    tt_intern_free(NULL);
}
END_TEST

/* ---- matching by name across two databases ---- */
static char dir[64], pbase[128], pnew[128];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tt-diff-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(pbase, sizeof pbase, "%s/base.db", dir);
    snprintf(pnew, sizeof pnew, "%s/new.db", dir);
}

static void teardown(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* One trace with slices (name, Matrix-method row id, self ms) and an issue. */
static void make_db(const char *path, const char *const *names, const int64_t *method_ids,
                    const int64_t *self_ms, size_t n, const char *issue_key, int64_t cold_ms)
{
    tdb_db *db;
    tt_error err;
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    tdb_trace t = {.import_key = path, .content_sha256 = "c", .source_format = "matrix_beat",
                   .options = "{}", .clock = "relative"};
    int64_t tid, upid, utid, sid;
    ck_assert_int_eq(tdb_trace_add(db, &t, &tid, &err), 0);
    ck_assert_int_eq(tdb_process_add(db, tid, NULL, NULL, &upid, &err), 0);
    ck_assert_int_eq(tdb_thread_add(db, tid, upid, NULL, "main", 1, &utid, &err), 0);
    ck_assert_int_eq(tdb_next_id(db, "slice", &sid, &err), 0);
    for (size_t i = 0; i < n; i++) {
        tdb_slice s = {.id = sid + (int64_t)i, .trace_id = tid, .utid = utid,
                       .ts = (int64_t)i * 1000000000, .dur = self_ms[i] * 1000000,
                       .name = names[i], .category = "beat", .method_id = method_ids[i],
                       .end_kind = "exact", .self_dur = self_ms[i] * 1000000};
        ck_assert_int_eq(tdb_slice_add(db, &s, &err), 0);
    }
    if (issue_key) {
        tdb_issue is = {.trace_id = tid, .tag = "Trace_EvilMethod", .kind = "evil_method",
                        .have_cost = 1, .cost_ms = 750, .stack_key_raw = "7|",
                        .stack_key = issue_key, .raw_json = "{}"};
        int64_t iid;
        ck_assert_int_eq(tdb_issue_add(db, &is, &iid, &err), 0);
    }
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    /* until the startup importer exists, a cold start row is inserted directly */
    int newer;
    ck_assert_int_eq(tdb_open_read(&db, path, 1, &newer, &err), 0);
    char sql[256];
    snprintf(sql, sizeof sql,
             "INSERT INTO startup (trace_id, kind, source, dur) VALUES (1, 'cold', 'events', "
             "%lld)", (long long)cold_ms * 1000000);
    ck_assert_int_eq(tdb_exec_user(db, sql, NULL, NULL, &err), 0);
    tdb_close(db);
}

typedef struct got {
    int n;
    tdb_diff_row rows[16];
    char keys[16][96], subs[16][32];
} got;

static int collect(void *ctx, const tdb_diff_row *r)
{
    got *g = ctx;
    ck_assert_int_lt(g->n, 16);
    g->rows[g->n] = *r;
    snprintf(g->keys[g->n], sizeof g->keys[0], "%s", r->key);
    snprintf(g->subs[g->n], sizeof g->subs[0], "%s", r->sub ? r->sub : "");
    g->n++;
    return 0;
}

static int find(const got *g, const char *key)
{
    for (int i = 0; i < g->n; i++)
        if (!strcmp(g->keys[i], key))
            return i;
    return -1;
}

START_TEST(match_by_name_not_id)
{
    static const char *const bn[] = {"com.x.Util.parse(java.lang.String)", "com.x.Feed.bind(int)",
                                     "com.x.Util.parse(java.lang.String)", "<unknown id 9>"};
    static const int64_t bm[] = {2, 3, 2, 0}, bs[] = {100, 50, 100, 5};
    static const char *const nn[] = {"com.x.Feed.bind(int)", "com.x.Util.parse(java.lang.String)",
                                     "com.x.Feed.load()"};
    static const int64_t nm[] = {11, 12, 10}, ns[] = {50, 600, 750};
    make_db(pbase, bn, bm, bs, 4, NULL, 1000);
    make_db(pnew, nn, nm, ns, 3, "com.x.Feed.load()", 1300);
    tdb_diff *d;
    int newer[2];
    tt_error err;
    ck_assert_int_eq(tdb_diff_open(&d, pbase, 0, pnew, 0, newer, &err), 0);
    got g = {0};
    ck_assert_int_eq(tdb_diff_section(d, TDB_DIFF_METHODS, collect, &g, &err), 0);
    ck_assert_int_eq(g.n, 4);
    int p = find(&g, "com.x.Util.parse(java.lang.String)");
    ck_assert_int_ge(p, 0);
    ck_assert(g.rows[p].have[0] && g.rows[p].have[1]);
    ck_assert(g.rows[p].v[0][0] == 200 && g.rows[p].v[1][0] == 600); /* self ms, 3x */
    ck_assert(g.rows[p].v[0][2] == 2 && g.rows[p].v[1][2] == 1);     /* calls */
    int l = find(&g, "com.x.Feed.load()");
    ck_assert(!g.rows[l].have[0] && g.rows[l].have[1] && g.rows[l].v[0][0] == 0);
    int u = find(&g, "<unknown id 9>"); /* paired by the CLI's classification, not here */
    ck_assert(g.rows[u].have[0] && !g.rows[u].have[1]);
    got gi = {0};
    ck_assert_int_eq(tdb_diff_section(d, TDB_DIFF_ISSUES, collect, &gi, &err), 0);
    ck_assert_int_eq(gi.n, 1);
    ck_assert_str_eq(gi.subs[0], "evil_method");
    ck_assert_str_eq(gi.keys[0], "com.x.Feed.load()");
    ck_assert(gi.rows[0].v[1][1] == 750);
    got gs = {0};
    ck_assert_int_eq(tdb_diff_section(d, TDB_DIFF_STARTUP, collect, &gs, &err), 0);
    ck_assert_int_eq(gs.n, 1);
    ck_assert_str_eq(gs.subs[0], "cold");
    ck_assert_str_eq(gs.keys[0], "total");
    ck_assert(gs.rows[0].v[0][0] == 1000 && gs.rows[0].v[1][0] == 1300);
    got gf = {0};
    ck_assert_int_eq(tdb_diff_section(d, TDB_DIFF_SCENES, collect, &gf, &err), 0);
    ck_assert_int_eq(gf.n, 0);
    tdb_diff_close(d);
}
END_TEST

START_TEST(open_errors)
{
    static const char *const n1[] = {"com.x.A.f()"};
    static const int64_t m1[] = {1}, s1[] = {5};
    make_db(pbase, n1, m1, s1, 1, NULL, 10);
    tdb_diff *d;
    int newer[2];
    tt_error err;
    ck_assert_int_eq(tdb_diff_open(&d, pbase, 2, pbase, 0, newer, &err), TT_ENOTFOUND);
    ck_assert_ptr_null(d);
    ck_assert_ptr_nonnull(strstr(err.msg, "no trace 2"));
    ck_assert_int_lt(tdb_diff_open(&d, pbase, 0, "/nonexistent/x.db", 0, newer, &err), 0);
    ck_assert_int_eq(tdb_diff_open(&d, pbase, 1, pbase, 1, newer, &err), 0);
    ck_assert_int_eq(tdb_diff_section(d, 99, collect, NULL, &err), TT_EINVAL);
    tdb_diff_close(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("diff");
    TCase *c = tcase_create("parse");
    tcase_add_test(c, pct_forms);
    tcase_add_test(c, gates_issue_example);
    tcase_add_test(c, gates_defaults_and_units);
    tcase_add_test(c, gates_errors);
    tcase_add_test(c, gate_format_round_trip);
    tcase_add_test(c, gate_duplicates);
    tcase_add_test(c, gate_trips);
    tcase_add_test(c, name_classes);
    tcase_add_test(c, intern_ids);
    suite_add_tcase(s, c);
    c = tcase_create("match");
    tcase_add_checked_fixture(c, setup, teardown);
    tcase_add_test(c, match_by_name_not_id);
    tcase_add_test(c, open_errors);
    suite_add_tcase(s, c);
    return s;
}

UNIT_MAIN(suite)
