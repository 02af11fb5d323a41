/* The SQLite store (storage.md 5 and 6): atomic build-aside writes, append, idempotence keys,
 * header checks, read-only queries, detection of input kinds and content hashes. */
#include "unit.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../sqlite/tdb.h"

static char dir[64];
static char path[128];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tt-store-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.db", dir);
}

static void teardown(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static int64_t add_trace(tdb_db *db, const char *key)
{
    tdb_trace t = {.import_key = key, .content_sha256 = "c", .source_format = "matrix_beat",
                   .clock = "relative"};
    int64_t id;
    tt_error err;
    ck_assert_int_eq(tdb_trace_add(db, &t, &id, &err), 0);
    return id;
}

typedef struct rows {
    int n;
    char first[256];
} rows;

static int count_rows(void *ctx, int ev, int ncol, const char *const *names, const tdb_value *v)
{
    (void)names;
    rows *r = ctx;
    if (ev == TDB_EV_ROW) {
        if (!r->n && ncol && v[0].type == TDB_TEXT)
            snprintf(r->first, sizeof r->first, "%s", v[0].s);
        else if (!r->n && ncol && v[0].type == TDB_INT)
            snprintf(r->first, sizeof r->first, "%lld", (long long)v[0].i);
        r->n++;
    }
    return 0;
}

static rows query(const char *sql)
{
    tdb_db *db;
    int newer;
    tt_error err = {0};
    ck_assert_msg(tdb_open_read(&db, path, 0, &newer, &err) == 0, "%s", err.msg);
    rows r = {0};
    ck_assert_msg(tdb_exec_user(db, sql, count_rows, &r, &err) == 0, "%s", err.msg);
    tdb_close(db);
    return r;
}

START_TEST(build_aside_and_rename)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    ck_assert_ptr_nonnull(tdb_tmp_path(db));
    struct stat sb;
    ck_assert_int_ne(stat(path, &sb), 0); /* nothing at the target before the commit */
    ck_assert_int_eq(stat(tdb_tmp_path(db), &sb), 0);
    add_trace(db, "k1");
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_str_eq(query("PRAGMA application_id").first, "1414808642");
    ck_assert_str_eq(query("PRAGMA user_version").first, "3");
    ck_assert_str_eq(query("PRAGMA journal_mode").first, "wal");
    ck_assert_int_eq(query("select * from trace").n, 1);
}
END_TEST

START_TEST(close_without_commit_leaves_nothing)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", tdb_tmp_path(db));
    add_trace(db, "k1");
    tdb_close(db);
    struct stat sb;
    ck_assert_int_ne(stat(path, &sb), 0);
    ck_assert_int_ne(stat(tmp, &sb), 0);
}
END_TEST

START_TEST(append_and_find)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0); /* missing: created */
    int64_t id1 = add_trace(db, "k1");
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    ck_assert_ptr_null(tdb_tmp_path(db));
    int64_t found = 0;
    ck_assert_int_eq(tdb_trace_find(db, "k1", &found, &err), 1);
    ck_assert_int_eq(found, id1);
    ck_assert_int_eq(tdb_trace_find(db, "k2", &found, &err), 0);
    add_trace(db, "k2");
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(query("select * from trace").n, 2);
    /* an uncommitted append changes nothing */
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    add_trace(db, "k3");
    tdb_close(db);
    ck_assert_int_eq(query("select * from trace").n, 2);
    /* a duplicate import key is refused by the schema */
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    tdb_trace t = {.import_key = "k1", .content_sha256 = "c", .source_format = "x"};
    int64_t id;
    ck_assert_int_ne(tdb_trace_add(db, &t, &id, &err), 0);
    tdb_close(db);
}
END_TEST

START_TEST(delete_cascades)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    int64_t t = add_trace(db, "k1");
    ck_assert_int_eq(tdb_stat_add(db, t, "x", NULL, "info", "trace", 3, "d", &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), 0);
    ck_assert_int_eq(tdb_trace_delete(db, t, &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(query("select * from stats").n, 0);
}
END_TEST

START_TEST(refuses_foreign_and_newer)
{
    FILE *f = fopen(path, "w");
    fputs("not a database at all, just text that is long enough to be a header......", f);
    fclose(f);
    tdb_db *db;
    tt_error err = {0};
    int newer;
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), TT_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a tracetool database"));
    ck_assert_int_ne(tdb_open_read(&db, path, 0, &newer, &err), 0);
    /* a tracetool database from the future */
    unlink(path);
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_read(&db, path, 1, &newer, &err), 0);
    ck_assert_int_eq(tdb_exec_user(db, "PRAGMA user_version = 7", count_rows, &(rows){0}, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_write(&db, path, 1, &err), TT_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "newer"));
    ck_assert_int_eq(tdb_open_read(&db, path, 0, &newer, &err), 0);
    ck_assert_int_eq(newer, 1);
    tdb_close(db);
}
END_TEST

/* A database holding one trace, opened read-only. */
static tdb_db *one_trace_read_only(void)
{
    tdb_db *db;
    tt_error err = {0};
    int newer;
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    add_trace(db, "k1");
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    ck_assert_int_eq(tdb_open_read(&db, path, 0, &newer, &err), 0);
    return db;
}

START_TEST(read_only_and_statement_errors)
{
    tt_error err = {0};
    tdb_db *db = one_trace_read_only();
    rows r = {0};
    ck_assert_int_ne(tdb_exec_user(db, "delete from trace", count_rows, &r, &err), 0);
    ck_assert_int_ne(tdb_exec_user(db, "create temp table x(a)", count_rows, &r, &err), 0);
    ck_assert_int_ne(tdb_exec_user(db, "select 1; select nope from trace", count_rows, &r, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(err.msg, "statement 2"));
    ck_assert_int_eq(r.n, 1);
    r.n = 0;
    ck_assert_int_eq(tdb_exec_user(db, "-- comment only\n select 1; ; select 2;", count_rows, &r,
                                   &err),
                     0);
    ck_assert_int_eq(r.n, 2);
    tdb_close(db);
    ck_assert_int_eq(query("select count(*) from trace").n, 1);
}
END_TEST

/* Read-only means no file is created: statements that would write are refused before they
 * run (VACUUM INTO creates its file first), query_only cannot be switched off, ATTACH cannot
 * create a database, and a pipe is refused before SQLite opens it. */
START_TEST(read_only_creates_nothing)
{
    tt_error err = {0};
    int newer;
    tdb_db *db = one_trace_read_only();
    char out[192], sql[256];
    struct stat sb;
    rows r = {0};
    snprintf(out, sizeof out, "%s/vacuumed.db", dir);
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", out);
    ck_assert_int_ne(tdb_exec_user(db, sql, count_rows, &r, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.msg, "read-only"));
    ck_assert_int_ne(stat(out, &sb), 0);
    snprintf(sql, sizeof sql, "ATTACH '%s' AS x", out);
    ck_assert_int_ne(tdb_exec_user(db, sql, count_rows, &r, &err), 0);
    snprintf(sql, sizeof sql, "ATTACH 'file:%s?mode=rwc' AS x", out);
    ck_assert_int_ne(tdb_exec_user(db, sql, count_rows, &r, &err), 0);
    ck_assert_int_ne(stat(out, &sb), 0);
    ck_assert_int_ne(tdb_exec_user(db, "PRAGMA query_only = 0", count_rows, &r, &err), 0);
    ck_assert_int_ne(tdb_exec_user(db, "PRAGMA user_version = 9", count_rows, &r, &err), 0);
    /* reading pragmas and pragma functions still work */
    ck_assert_int_eq(tdb_exec_user(db, "PRAGMA user_version; PRAGMA table_info(trace); "
                                       "PRAGMA journal_mode",
                                   count_rows, &r, &err),
                     0);
    tdb_close(db);
    ck_assert_str_eq(query("PRAGMA user_version").first, "3");
    char fifo[192];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(tdb_open_read(&db, fifo, 0, &newer, &err), TT_EUNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "pipe"));
}
END_TEST

START_TEST(views_parse)
{
    tdb_db *db;
    tt_error err = {0};
    ck_assert_int_eq(tdb_open_write(&db, path, 0, &err), 0);
    ck_assert_int_eq(tdb_commit(db, &err), 0);
    tdb_close(db);
    static const char *const views[] = {"top_self_methods", "issues_by_stack_key",
                                        "worst_scenes", "thread_sample_summary", "slice_ms",
                                        "top_stack_methods", "evil_methods", "slow_startups"};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "select * from %s", views[i]);
        ck_assert_int_eq(query(sql).n, 0);
    }
    ck_assert_int_eq(query("PRAGMA foreign_key_check").n, 0);
}
END_TEST

START_TEST(content_hash)
{
    char hex[65];
    ck_assert_int_eq(tt_sha256_buf(hex, "abc", 3), 0);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /* hashing an input covers what was peeked, read and left unread */
    tt_input *in = unit_mem("m", "abc", 3);
    const unsigned char *p;
    size_t n;
    tt_error err;
    ck_assert_int_eq(tt_input_peek(in, &p, &n, 2, &err), 0);
    ck_assert_int_eq(tt_input_hash_begin(in, &err), 0);
    char c;
    size_t got;
    ck_assert_int_eq(tt_input_read(in, &c, 1, &got, &err), 0);
    uint64_t bytes;
    ck_assert_int_eq(tt_input_hash_end(in, hex, &bytes, &err), 0);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    ck_assert_uint_eq(bytes, 3);
    tt_input_close(in);
    /* too late once something was consumed */
    in = unit_mem("m", "abc", 3);
    ck_assert_int_eq(tt_input_read(in, &c, 1, &got, &err), 0);
    ck_assert_int_ne(tt_input_hash_begin(in, &err), 0);
    tt_input_close(in);
}
END_TEST

START_TEST(detection)
{
    static const struct {
        const char *text;
        size_t n;
        tt_kind kind;
    } cases[] = {
        {"1,1,com.a.B c ()V\n", 0, TT_KIND_MAPPING},
        {"ignore methods:\ncom.a.B c\n", 0, TT_KIND_IGNORE},
        {"# comment\n-9223363240761752600\n0x7ffff000000009ec\n0x00003800000009ec\n", 0,
         TT_KIND_BEAT},
        {"1\n2\n3\n", 0, TT_KIND_UNKNOWN}, /* small numbers: method id 0 */
        /* launches and startup events need their shape, not just the words */
        {"Traces. Displayed (with total, for user), Fully drawn and TotalTime: lines\n", 0,
         TT_KIND_UNKNOWN},
        {"11-23 09:14:03.402  1402  1460 I ActivityTaskManager: Displayed com.ex/.Main: +612ms\n",
         0, TT_KIND_LAUNCHES},
        {"Status: ok\nTotalTime: 612\n", 0, TT_KIND_LAUNCHES},
        {"{\"kind\":\"Deployment\",\"spec\":{}}\n", 0, TT_KIND_UNKNOWN},
        {"{\"kind\": \"process_start\", \"ts_ms\": 1}\n", 0, TT_KIND_STARTUP},
        {"com.example.Foo -> a.a:\n    void bar() -> a\n", 0, TT_KIND_PROGUARD},
        {"{\"machine\":\"HIGH\",\"tag\":\"Trace_EvilMethod\"}\n", 0, TT_KIND_REPORT},
        {"[ {\"tag\": \"Trace_FPS\"} ]", 0, TT_KIND_REPORT},
        {"01-01 00:00:00.000 I/Matrix: tag[Trace_EvilMethod]type[0];key[null];content[{}]\n", 0,
         TT_KIND_REPORT},
        {"{\"some\":\"json\"}\n", 0, TT_KIND_UNKNOWN},
        {"hello world\n", 0, TT_KIND_UNKNOWN},
        {"", 0, TT_KIND_UNKNOWN},
        {"SQLite format 3\0xxxx", 20, TT_KIND_UNKNOWN}, /* no tracetool application_id */
        {"\xe8\x03\0\0\0\xf0\xff\xff", 8, TT_KIND_BEAT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = cases[i].n ? cases[i].n : strlen(cases[i].text);
        ck_assert_msg(tt_detect((const unsigned char *)cases[i].text, n) == cases[i].kind,
                      "case %zu", i);
    }
    unsigned char db[100] = "SQLite format 3";
    memcpy(db + 68, "TTDB", 4); /* tracetool's application_id */
    ck_assert_int_eq(tt_detect(db, sizeof db), TT_KIND_DATABASE);
    ck_assert_str_eq(tt_kind_name(TT_KIND_BEAT), "beat");
    ck_assert_int_eq(tt_kind_parse("report"), TT_KIND_REPORT);
    ck_assert_int_eq(tt_kind_parse("nope"), -1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("store");
    TCase *tc = tcase_create("store");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, build_aside_and_rename);
    tcase_add_test(tc, close_without_commit_leaves_nothing);
    tcase_add_test(tc, append_and_find);
    tcase_add_test(tc, delete_cascades);
    tcase_add_test(tc, refuses_foreign_and_newer);
    tcase_add_test(tc, read_only_and_statement_errors);
    tcase_add_test(tc, read_only_creates_nothing);
    tcase_add_test(tc, views_parse);
    tcase_add_test(tc, content_hash);
    tcase_add_test(tc, detection);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
