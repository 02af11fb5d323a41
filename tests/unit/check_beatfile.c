/* Method-beat buffer files (method-beat.md section 3): detection, text forms, errors. */
#include "unit.h"

static int read_all(const char *name, const void *data, size_t n, int fmt, uint64_t *out,
                    size_t cap, size_t *got, tt_error *err)
{
    tt_input *in = unit_mem(name, data, n);
    tt_beat_reader *r;
    int rc = tt_beat_reader_new(&r, in, fmt, err);
    *got = 0;
    if (!rc) {
        for (;;) {
            size_t k;
            rc = tt_beat_reader_next(r, out + *got, cap - *got, &k, err);
            if (rc == TT_DONE) {
                rc = 0;
                break;
            }
            if (rc)
                break;
            *got += k;
        }
        tt_beat_reader_free(r);
    }
    tt_input_close(in);
    return rc;
}

START_TEST(word_forms)
{
    uint64_t w;
    ck_assert_int_eq(tt_beat_parse_word("-4096", 5, &w), 0);
    ck_assert_uint_eq(w, (uint64_t)-4096);
    ck_assert_int_eq(tt_beat_parse_word("18446744073709551615", 20, &w), 0);
    ck_assert_uint_eq(w, UINT64_MAX);
    ck_assert_int_eq(tt_beat_parse_word("0xFFFFF000000003E8", 18, &w), 0);
    ck_assert_uint_eq(w, 0xfffff000000003e8ULL);
    ck_assert_int_eq(tt_beat_parse_word("-9223372036854775808", 20, &w), 0);
    ck_assert_uint_eq(w, 0x8000000000000000ULL);
    ck_assert_int_ne(tt_beat_parse_word("18446744073709551616", 20, &w), 0);
    ck_assert_int_ne(tt_beat_parse_word("-9223372036854775809", 20, &w), 0);
    ck_assert_int_ne(tt_beat_parse_word("12a9", 4, &w), 0);
    ck_assert_int_ne(tt_beat_parse_word("0x", 2, &w), 0);
}
END_TEST

START_TEST(text_file)
{
    const char *s = "\xEF\xBB\xBF# comment\n"
                    "-4398046510104\r\n"
                    "\n"
                    "  0x0000380000000384\t\n"
                    "61572651156457\n";
    uint64_t w[8];
    size_t n;
    ck_assert_int_eq(read_all("t.txt", s, strlen(s), TT_BEAT_FMT_AUTO, w, 8, &n, NULL), 0);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(w[1], 0x0000380000000384ULL);
}
END_TEST

/* A text buffer whose line is no record: the reader's error (fmt TT_BEAT_FMT_*). */
static void text_error(tt_error *err, const char *s, int fmt)
{
    uint64_t w[8];
    size_t n;
    ck_assert_int_eq(read_all("slice.txt", s, strlen(s), fmt, w, 8, &n, err), TT_EFORMAT);
}

START_TEST(text_error_line)
{
    tt_error err;
    text_error(&err, "1\n2\n12a9\n", TT_BEAT_FMT_AUTO);
    ck_assert_uint_eq(err.loc, 3);
    ck_assert_int_eq(err.loc_kind, TT_LOC_LINE);
    ck_assert_str_eq(err.msg, "expected a decimal or 0x-hex 64-bit integer, got \"12a9\"");
}
END_TEST

/* The quoted text stays valid UTF-8: bytes that are no UTF-8 are escaped like control bytes,
 * valid multi-byte characters are kept (a binary file read as text, a Latin-1 file). */
START_TEST(text_error_snippet_utf8)
{
    tt_error err;
    text_error(&err, "12\xe9\x01\xff\xc3\xa9\xe2\x82\n", TT_BEAT_FMT_TEXT);
    ck_assert_str_eq(err.msg, "expected a decimal or 0x-hex 64-bit integer, got "
                              "\"12\\xe9\\x01\\xff\xc3\xa9\\xe2\\x82\"");
    /* 40 characters, not 40 bytes; a character is never cut */
    char l[128] = "x";
    for (int i = 0; i < 45; i++)
        strcat(l, "\xc3\xa9");
    strcat(l, "\n");
    text_error(&err, l, TT_BEAT_FMT_TEXT);
    char want[200] = "expected a decimal or 0x-hex 64-bit integer, got \"x";
    for (int i = 0; i < 39; i++)
        strcat(want, "\xc3\xa9");
    strcat(want, "...\"");
    ck_assert_str_eq(err.msg, want);
}
END_TEST

/* --ring-next (3.4): slots k..end, then 0..k-1, in blocks of any size; the backwards count
 * is taken in that order. */
START_TEST(ring_rotation)
{
    enum { N = 10 };
    unsigned char b[N * 8];
    for (int i = 0; i < N; i++) { /* slot i holds time (i + 4) % 10: next slot 6 */
        uint64_t w = tt_beat_encode(1, 5, (i + 4) % N);
        for (int k = 0; k < 8; k++)
            b[i * 8 + k] = (unsigned char)(w >> (8 * k));
    }
    static const struct {
        uint64_t k;
        size_t cap;
        int first;
        uint64_t backwards;
    } v[] = {{6, 3, 0, 0}, {6, 64, 0, 0}, {0, 4, 4, 1}, {3, 2, 7, 1}, {25, 4, 4, 1}};
    for (size_t c = 0; c < sizeof v / sizeof v[0]; c++) {
        tt_input *in = unit_mem("ring.bin", (const char *)b, sizeof b);
        tt_beat_reader *r;
        ck_assert_int_eq(tt_beat_reader_new(&r, in, TT_BEAT_FMT_BIN, NULL), 0);
        tt_beat_reader_set_ring_next(r, v[c].k);
        uint64_t out[N], blk[64];
        size_t got = 0, n;
        while (tt_beat_reader_next(r, blk, v[c].cap, &n, NULL) == 0) {
            ck_assert_uint_le(got + n, N);
            memcpy(out + got, blk, n * sizeof *blk);
            got += n;
        }
        ck_assert_uint_eq(got, N);
        uint64_t k = v[c].k < N ? v[c].k : 0;
        for (size_t i = 0; i < N; i++)
            ck_assert_int_eq(tt_beat_time(out[i]), ((k + i) % N + 4) % N);
        ck_assert_int_eq(tt_beat_time(out[0]), v[c].first);
        ck_assert_uint_eq(tt_beat_reader_backwards(r), v[c].backwards);
        ck_assert_uint_eq(tt_beat_reader_count(r), N);
        tt_beat_reader_free(r);
        tt_input_close(in);
    }
    /* a buffer without records (a comment only): nothing to hold back (a fuzzer find) */
    tt_input *in = unit_mem("c.txt", "# x\n", 4);
    tt_beat_reader *r;
    ck_assert_int_eq(tt_beat_reader_new(&r, in, TT_BEAT_FMT_AUTO, NULL), 0);
    tt_beat_reader_set_ring_next(r, 15);
    uint64_t blk[4];
    size_t n;
    ck_assert_int_eq(tt_beat_reader_next(r, blk, 4, &n, NULL), TT_DONE);
    ck_assert_uint_eq(n, 0);
    tt_beat_reader_free(r);
    tt_input_close(in);
}
END_TEST

START_TEST(binary_file)
{
    unsigned char b[16] = {0xe8, 0x03, 0, 0, 0, 0xf0, 0xff, 0xff, 0x84, 0x03, 0, 0, 0, 0x38, 0, 0};
    uint64_t w[8];
    size_t n;
    ck_assert_int_eq(read_all("b.bin", b, 16, TT_BEAT_FMT_AUTO, w, 8, &n, NULL), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(w[0], 0xfffff000000003e8ULL);
    ck_assert_uint_eq(w[1], 0x0000380000000384ULL);
}
END_TEST

START_TEST(binary_odd_length)
{
    /* two plausible records (entry of 1 at 1000, exit of 7 at 900), then 4 stray bytes */
    unsigned char b[20] = {0xe8, 0x03, 0, 0, 0, 0x08, 0, 0x80, 0x84, 0x03, 0, 0, 0, 0x38, 0, 0};
    uint64_t w[8];
    size_t n;
    tt_error err;
    ck_assert_int_eq(read_all("buf.bin", b, 20, TT_BEAT_FMT_AUTO, w, 8, &n, &err), TT_EFORMAT);
    ck_assert_int_eq(err.loc_kind, TT_LOC_OFFSET);
    ck_assert_uint_eq(err.loc, 16);
    ck_assert_str_eq(err.msg, "incomplete record: file length 20 is not a multiple of 8");
}
END_TEST

/* Large binary buffers are read straight into the caller's array and decoded in place;
 * an incomplete last word far into the file is still reported at its offset. */
START_TEST(binary_large_and_odd)
{
    size_t nrec = 100000;
    unsigned char *b = malloc(nrec * 8 + 3);
    for (size_t i = 0; i < nrec; i++) {
        uint64_t w = tt_beat_encode((int)(i & 1), (uint32_t)(i % 1000 + 1), (int64_t)i);
        for (int k = 0; k < 8; k++)
            b[i * 8 + (size_t)k] = (unsigned char)(w >> (8 * k));
    }
    uint64_t *w = malloc((nrec + 1) * sizeof *w); /* one spare slot: read_all stops at TT_DONE */
    size_t n;
    ck_assert_int_eq(read_all("big.bin", b, nrec * 8, TT_BEAT_FMT_BIN, w, nrec + 1, &n, NULL), 0);
    ck_assert_uint_eq(n, nrec);
    size_t bad = 0;
    for (size_t i = 0; i < nrec; i++)
        bad += w[i] != tt_beat_encode((int)(i & 1), (uint32_t)(i % 1000 + 1), (int64_t)i);
    ck_assert_uint_eq(bad, 0);
    tt_error err;
    ck_assert_int_eq(read_all("big.bin", b, nrec * 8 + 3, TT_BEAT_FMT_BIN, w, nrec + 1, &n, &err),
                     TT_EFORMAT);
    ck_assert_uint_eq(err.loc, nrec * 8);
    ck_assert_str_eq(err.msg, "incomplete record: file length 800003 is not a multiple of 8");
    free(w);
    free(b);
}
END_TEST

START_TEST(empty_is_binary)
{
    uint64_t w[1];
    size_t n;
    ck_assert_int_eq(read_all("e", "", 0, TT_BEAT_FMT_AUTO, w, 1, &n, NULL), 0);
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(forced_text_on_printable_binary)
{
    /* 8 printable bytes are detected as text; forcing bin reads one record */
    uint64_t w[2];
    size_t n;
    tt_error err;
    ck_assert_int_eq(read_all("p", "ABCDEFGH", 8, TT_BEAT_FMT_AUTO, w, 2, &n, &err), TT_EFORMAT);
    ck_assert_int_eq(read_all("p", "ABCDEFGH", 8, TT_BEAT_FMT_BIN, w, 2, &n, NULL), 0);
    ck_assert_uint_eq(n, 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("beatfile");
    TCase *tc = tcase_create("beatfile");
    tcase_add_test(tc, word_forms);
    tcase_add_test(tc, text_file);
    tcase_add_test(tc, text_error_line);
    tcase_add_test(tc, text_error_snippet_utf8);
    tcase_add_test(tc, ring_rotation);
    tcase_add_test(tc, binary_file);
    tcase_add_test(tc, binary_odd_length);
    tcase_add_test(tc, binary_large_and_odd);
    tcase_add_test(tc, empty_is_binary);
    tcase_add_test(tc, forced_text_on_printable_binary);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
