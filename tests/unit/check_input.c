/* tt_input: lines, CRLF, gzip (single and multi-member), corrupt gzip, peek. */
#include "unit.h"

#include <stdio.h>
#include <unistd.h>

#include <zlib.h>

static size_t gz(const char *s, size_t n, unsigned char *out, size_t cap)
{
    z_stream z = {0};
    ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)s;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t r = cap - z.avail_out;
    deflateEnd(&z);
    return r;
}

START_TEST(lines)
{
    const char *s = "a\r\n\nlast";
    tt_input *in = unit_mem("x", s, strlen(s));
    const char *l;
    size_t n;
    uint64_t ln;
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(ln, 1);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 4);
    ck_assert(!memcmp(l, "last", 4));
    ck_assert_uint_eq(ln, 3);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), TT_DONE);
    tt_input_close(in);
}
END_TEST

START_TEST(long_line)
{
    size_t big = 3 * 1024 * 1024;
    char *s = malloc(big + 2);
    memset(s, 'x', big);
    s[big] = '\n';
    s[big + 1] = 'y';
    tt_input *in = unit_mem("x", s, big + 2);
    const char *l;
    size_t n;
    uint64_t ln;
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, big);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 1);
    tt_input_close(in);
    free(s);
}
END_TEST

/* Issue 12 item 10: a line beyond the cap stops with its line number, memory bounded. */
START_TEST(line_cap)
{
    static const char s[] = "short\n0123456789\n0123456789abc\nlast";
    tt_input *in = unit_mem("cap.txt", s, sizeof s - 1);
    ck_assert_uint_eq(tt_input_line_max(in), TT_LINE_MAX);
    tt_input_set_line_max(in, 10);
    const char *l;
    size_t n;
    uint64_t ln;
    tt_error err;
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, &err), 0);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, &err), 0); /* exactly 10: accepted */
    ck_assert_uint_eq(n, 10);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, &err), TT_ELIMIT);
    ck_assert_uint_eq(err.loc, 3);
    ck_assert_int_eq(err.loc_kind, TT_LOC_LINE);
    ck_assert_str_eq(err.msg, "line longer than 10 bytes");
    tt_input_close(in);
    char t[32];
    tt_input_line_max_text(t, sizeof t, TT_LINE_MAX);
    ck_assert_str_eq(t, "64 MiB");
}
END_TEST

/* Issue 12 item 12: the detection window holds the whole first line, however long. */
START_TEST(peek_text_long_first_line)
{
    size_t big = 200 * 1024;
    char *s = malloc(big + 16);
    memcpy(s, "# comment\n", 10);
    memset(s + 10, 'x', big);
    memcpy(s + 10 + big, " 5\nb 1\n", 6);
    tt_input *in = unit_mem("long.folded", s, big + 16);
    const unsigned char *p;
    size_t n;
    ck_assert_int_eq(tt_input_peek_text(in, &p, &n, 65536, NULL), 0);
    ck_assert_uint_ge(n, big + 13);
    ck_assert(memchr(p + 10, '\n', n - 10) != NULL);
    /* binary input: detection needs no line */
    tt_input_close(in);
    memset(s, 0, big + 16);
    in = unit_mem("zeros.bin", s, big + 16);
    ck_assert_int_eq(tt_input_peek_text(in, &p, &n, 4096, NULL), 0);
    ck_assert_uint_ge(n, 4096);
    tt_input_close(in);
    free(s);
}
END_TEST

START_TEST(gzip_multi_member)
{
    unsigned char buf[4096];
    size_t a = gz("one\ntwo\n", 8, buf, sizeof buf);
    size_t b = gz("three\n", 6, buf + a, sizeof buf - a);
    tt_input *in = unit_mem("g", (const char *)buf, a + b);
    char *all;
    size_t n;
    ck_assert_int_eq(tt_input_slurp(in, &all, &n, NULL), 0);
    ck_assert_uint_eq(n, 14);
    ck_assert(!memcmp(all, "one\ntwo\nthree\n", 14));
    ck_assert(tt_input_is_gzip(in));
    free(all);
    tt_input_close(in);
}
END_TEST

START_TEST(gzip_corrupt)
{
    unsigned char buf[4096];
    size_t a = gz("hello world hello world\n", 24, buf, sizeof buf);
    buf[a / 2] ^= 0xff;
    tt_input *in = unit_mem("bad.gz", (const char *)buf, a);
    char *all = NULL;
    size_t n;
    tt_error err;
    int rc = tt_input_slurp(in, &all, &n, &err);
    ck_assert_int_eq(rc, TT_EFORMAT);
    ck_assert_str_eq(err.file, "bad.gz");
    ck_assert_ptr_ne(strstr(err.msg, "gzip"), NULL);
    free(all);
    tt_input_close(in);
    /* truncated stream */
    a = gz("hello\n", 6, buf, sizeof buf);
    in = unit_mem("short.gz", (const char *)buf, a - 4);
    rc = tt_input_slurp(in, &all, &n, &err);
    ck_assert_int_ne(rc, 0);
    tt_input_close(in);
}
END_TEST

START_TEST(peek_then_read)
{
    tt_input *in = unit_mem("p", "abcdef", 6);
    const unsigned char *p;
    size_t n;
    ck_assert_int_eq(tt_input_peek(in, &p, &n, 3, NULL), 0);
    ck_assert_uint_eq(n, 3);
    char b[8];
    size_t got;
    ck_assert_int_eq(tt_input_read(in, b, 8, &got, NULL), 0);
    ck_assert_uint_eq(got, 6);
    ck_assert_uint_eq(tt_input_offset(in), 6);
    tt_input_close(in);
}
END_TEST

/* Bulk reads bypass the staging buffers once the window is empty (binary buffers); the
 * bytes and the offsets must be the same as through the window, for memory and files. */
static void check_bulk(tt_input *in, const unsigned char *data, size_t n)
{
    const unsigned char *p;
    size_t pn;
    ck_assert_int_eq(tt_input_peek(in, &p, &pn, 4096, NULL), 0);
    ck_assert_uint_eq(pn, 4096);
    unsigned char *got = malloc(n + 1);
    size_t total = 0, step = 1000;
    for (;;) {
        size_t k;
        ck_assert_int_eq(tt_input_read(in, got + total, step, &k, NULL), 0);
        if (k == 0)
            break;
        total += k;
        ck_assert_uint_eq(tt_input_offset(in), total);
        step = step == 1000 ? 300001 : 1000; /* alternate small and bulk reads */
        if (total + step > n + 1)
            step = n + 1 - total;
    }
    ck_assert_uint_eq(total, n);
    ck_assert(memcmp(got, data, n) == 0);
    free(got);
}

START_TEST(bulk_read)
{
    size_t n = 3 * 1024 * 1024 + 5;
    unsigned char *data = malloc(n);
    for (size_t i = 0; i < n; i++)
        data[i] = (unsigned char)(i * 7 + (i >> 12));
    data[0] = 0x1e; /* not gzip */
    tt_input *in = unit_mem("big", (const char *)data, n);
    check_bulk(in, data, n);
    tt_input_close(in);
    char path[] = "/tmp/check_input_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    fclose(f);
    tt_error err;
    ck_assert_int_eq(tt_input_open(&in, path, &err), 0);
    check_bulk(in, data, n);
    tt_input_close(in);
    unlink(path);
    free(data);
}
END_TEST

/* Memory inputs are read in place; an empty one may have no buffer at all. */
START_TEST(empty_memory_input)
{
    tt_input *in = NULL;
    ck_assert_int_eq(tt_input_open_mem(&in, "e", NULL, 0, NULL), 0);
    const unsigned char *p;
    size_t n;
    ck_assert_int_eq(tt_input_peek(in, &p, &n, 4096, NULL), 0);
    ck_assert_uint_eq(n, 0);
    char b[16];
    size_t got;
    ck_assert_int_eq(tt_input_read(in, b, sizeof b, &got, NULL), 0);
    ck_assert_uint_eq(got, 0);
    const char *line;
    uint64_t ln;
    ck_assert_int_eq(tt_input_line(in, &line, &n, &ln, NULL), TT_DONE);
    tt_input_close(in);
}
END_TEST

START_TEST(missing_file)
{
    tt_input *in = NULL;
    tt_error err;
    ck_assert_int_eq(tt_input_open(&in, "/nonexistent/x", &err), TT_EIO);
    ck_assert_str_eq(err.file, "/nonexistent/x");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("input");
    TCase *tc = tcase_create("input");
    tcase_add_test(tc, lines);
    tcase_add_test(tc, long_line);
    tcase_add_test(tc, line_cap);
    tcase_add_test(tc, peek_text_long_first_line);
    tcase_add_test(tc, gzip_multi_member);
    tcase_add_test(tc, gzip_corrupt);
    tcase_add_test(tc, peek_then_read);
    tcase_add_test(tc, missing_file);
    tcase_add_test(tc, bulk_read);
    tcase_add_test(tc, empty_memory_input);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
