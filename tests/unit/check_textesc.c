/* The text escaper of every text output (textesc.c): C0 controls, DEL and bytes of no
 * well-formed UTF-8 sequence as \xNN, C1 controls as \u00NN, bidi controls as \uNNNN, other
 * valid UTF-8 byte-exact; the same output whatever the split of the text into writes. */
#include "unit.h"

#include <stdio.h>

static int collect(void *ctx, const char *p, size_t n) { return tt_buf_put(ctx, p, n); }

/* s[0..n) written in the pieces cut at cuts[0..ncut) (ascending), then flushed; malloc'd. */
static char *esc_split(const char *s, size_t n, const size_t *cuts, size_t ncut)
{
    tt_buf b = {0};
    tt_textesc e;
    tt_textesc_init(&e, collect, &b);
    size_t at = 0;
    for (size_t i = 0; i <= ncut; i++) {
        size_t to = i < ncut ? cuts[i] : n;
        if (tt_textesc_put(&e, s + at, to - at))
            ck_abort_msg("tt_textesc_put failed");
        at = to;
    }
    /* (no ck_assert on the way: each passed one costs Check a write to its pipe) */
    if (tt_textesc_flush(&e) || e.n_held)
        ck_abort_msg("tt_textesc_flush failed or held bytes");
    tt_buf_put(&b, "", 0);
    char *r = strdup(b.data ? b.data : "");
    free(b.data);
    return r;
}

static char *esc(const char *s, size_t n) { return esc_split(s, n, NULL, 0); }

#define CHECK_ESC(in, want)                                                                   \
    do {                                                                                      \
        char *got_ = esc(in, sizeof in - 1);                                                  \
        ck_assert_str_eq(got_, want);                                                         \
        free(got_);                                                                           \
    } while (0)

START_TEST(known)
{
    CHECK_ESC("plain text\n\ttab", "plain text\n\ttab");
    CHECK_ESC("a\r\nb\rc\r", "a\r\nb\\x0dc\\x0d");
    CHECK_ESC("\x1b[2J\x07\x7f\x01", "\\x1b[2J\\x07\\x7f\\x01");
    CHECK_ESC("\xc2\x80 \xc2\x9b \xc2\x9f \xc2\xa0", "\\u0080 \\u009b \\u009f \xc2\xa0");
    /* valid: 2, 3 and 4 bytes, the edges of each range */
    CHECK_ESC("\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80", "\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80");
    CHECK_ESC("\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf",
              "\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf");
    CHECK_ESC("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
    /* a lone CSI byte, bytes that never occur, truncated sequences */
    CHECK_ESC("a\x9b" "31m", "a\\x9b31m");
    CHECK_ESC("\xff\xfe", "\\xff\\xfe");
    CHECK_ESC("\xe2\x82" "A", "\\xe2\\x82A");
    CHECK_ESC("x\xe2\x82", "x\\xe2\\x82");
    CHECK_ESC("\xf0\x9f\x98", "\\xf0\\x9f\\x98");
    CHECK_ESC("\xc3", "\\xc3");
    /* overlong forms, surrogates, above U+10FFFF */
    CHECK_ESC("\xc0\xaf\xc1\xbf", "\\xc0\\xaf\\xc1\\xbf");
    CHECK_ESC("\xe0\x9f\xbf", "\\xe0\\x9f\\xbf");
    CHECK_ESC("\xf0\x8f\xbf\xbf", "\\xf0\\x8f\\xbf\\xbf");
    CHECK_ESC("\xed\xa0\x80\xed\xbf\xbf", "\\xed\\xa0\\x80\\xed\\xbf\\xbf");
    CHECK_ESC("\xf4\x90\x80\x80\xf5\x80\x80\x80", "\\xf4\\x90\\x80\\x80\\xf5\\x80\\x80\\x80");
    /* a valid character right after an invalid byte is kept */
    CHECK_ESC("\xe2\xe2\x82\xac", "\\xe2\xe2\x82\xac");
    CHECK_ESC("\xc2\xc2\x9b", "\\xc2\\u009b");
    /* NUL */
    CHECK_ESC("a\0b", "a\\x00b");
    /* bidi controls: marks, embeddings and overrides, isolates; their neighbours stay */
    CHECK_ESC("com.x.\xe2\x80\xaeytivitcA", "com.x.\\u202eytivitcA");
    CHECK_ESC("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c");
    CHECK_ESC("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
              "\\u202a\\u202b\\u202c\\u202d");
    CHECK_ESC("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
              "\\u2066\\u2067\\u2068\\u2069");
    CHECK_ESC("\xe2\x80\x8d\xe2\x80\x90\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xd8\x9b",
              "\xe2\x80\x8d\xe2\x80\x90\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xd8\x9b");
}
END_TEST

/* Reference: the length of the well-formed sequence at s (n bytes), 0 for none, computed
 * from the code point (not from textesc.c's table of second-byte ranges). */
static size_t ref_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc0 && s[0] < 0xe0 ? 2 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
               : s[0] >= 0xf0 && s[0] < 0xf8 ? 4 : 0;
    if (!len || len > n)
        return 0;
    uint32_t cp = len == 1 ? s[0] : s[0] & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* Unicode's Bidi_Control characters. */
static int ref_bidi(uint32_t cp)
{
    return cp == 0x61c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

/* The code point of the well-formed sequence s[0..l). */
static uint32_t ref_cp(const unsigned char *s, size_t l)
{
    uint32_t cp = l == 1 ? s[0] : s[0] & (0x7fu >> l);
    for (size_t i = 1; i < l; i++)
        cp = cp << 6 | (s[i] & 0x3fu);
    return cp;
}

/* Reference escaper: byte by byte, with ref_len. */
static char *ref_esc(const unsigned char *s, size_t n)
{
    tt_buf b = {0};
    for (size_t i = 0; i < n;) {
        size_t l = ref_len(s + i, n - i);
        if (l == 1 && ((s[i] >= 0x20 && s[i] != 0x7f) || s[i] == '\n' || s[i] == '\t' ||
                       (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n'))) {
            tt_buf_put(&b, (const char *)s + i, 1);
        } else if (l == 2 && s[i] == 0xc2 && s[i + 1] <= 0x9f) {
            tt_buf_printf(&b, "\\u00%02x", s[i + 1]);
        } else if (l > 1 && ref_bidi(ref_cp(s + i, l))) {
            tt_buf_printf(&b, "\\u%04x", (unsigned)ref_cp(s + i, l));
        } else if (l > 1) {
            tt_buf_put(&b, (const char *)s + i, l);
        } else {
            tt_buf_printf(&b, "\\x%02x", s[i]);
            l = 1;
        }
        i += l;
    }
    tt_buf_put(&b, "", 0);
    return b.data;
}

static void check_ref(const unsigned char *s, size_t n)
{
    char *want = ref_esc(s, n), *got = esc((const char *)s, n);
    if (strcmp(got, want)) {
        char hex[64] = "";
        for (size_t i = 0; i < n && i < 8; i++)
            snprintf(hex + 3 * i, 4, "%02x ", s[i]);
        ck_abort_msg("input %s: got \"%s\", expected \"%s\"", hex, got, want);
    }
    free(want);
    free(got);
}

/* Every one- and two-byte text, and every three- and four-byte text made of a lead byte and
 * continuation-range bytes at the edges, against the reference. */
START_TEST(against_reference)
{
    unsigned char s[5];
    for (unsigned a = 0; a < 256; a++) {
        s[0] = (unsigned char)a;
        check_ref(s, 1);
        for (unsigned b = 0; b < 256; b++) {
            s[1] = (unsigned char)b;
            check_ref(s, 2);
        }
    }
    static const unsigned char edge[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0,
                                         0xbf, 0xc0, 0xc2, 0xe0, 0xf0, 0xf4, 0xff};
    for (unsigned a = 0x80; a < 256; a++)
        for (size_t b = 0; b < sizeof edge; b++)
            for (size_t c = 0; c < sizeof edge; c++)
                for (size_t d = 0; d < sizeof edge; d++) {
                    s[0] = (unsigned char)a, s[1] = edge[b], s[2] = edge[c], s[3] = edge[d];
                    s[4] = 'z';
                    check_ref(s, 3);
                    check_ref(s, 4);
                    check_ref(s, 5);
                }
}
END_TEST

/* Every cut into two and three pieces, and byte by byte, gives the unsplit output. */
static void check_splits(const char *s, size_t n)
{
    char *whole = esc(s, n);
    for (size_t i = 0; i <= n; i++) {
        for (size_t j = i; j <= n; j++) {
            size_t cuts[2] = {i, j};
            char *got = esc_split(s, n, cuts, 2);
            if (strcmp(got, whole))
                ck_abort_msg("cut at %zu and %zu of \"%s\": \"%s\"", i, j, whole, got);
            free(got);
        }
    }
    size_t *every = malloc((n + 1) * sizeof *every);
    for (size_t i = 0; i < n; i++)
        every[i] = i + 1;
    char *got = esc_split(s, n, every, n ? n - 1 : 0);
    ck_assert_str_eq(got, whole);
    free(got);
    free(every);
    free(whole);
}

START_TEST(splits)
{
    static const char *const texts[] = {
        "\xc3\xa9t\xc3\xa9",                      /* 2 bytes */
        "\xe4\xb8\xad\xe6\x96\x87",               /* 3 bytes, CJK */
        "a\xf0\x9f\x98\x80\xf0\x9f\x91\x8d" "b",   /* 4 bytes, emoji */
        "line\r\nnext\r\n\r\r\n\r",              /* CR LF, lone CRs */
        "\xc2\x9b" "31m\xc2\xa0\xc2",             /* C1, NBSP, a lone lead at the end */
        "\x9b\xff\xfe\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80", /* invalid */
        "\xe2\x82" "A\xf0\x9f\x98" "\r\xf0\x9f\x98\x80\r\n\x1b\x7f", /* truncated, mixed */
        "\xf0\xf0\x9f\xf0\x9f\x98\xf0\x9f\x98\x80",  /* growing prefixes */
        "0123456789abcdef\xe4\xb8\xad" "0123456789abcdef\r\n", /* past the 8-byte blocks */
        "a\xe2\x80\xae" "b\xe2\x81\xa9\xd8\x9c\xe2\x80",  /* bidi controls, a cut one */
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        check_splits(texts[i], strlen(texts[i]));
}
END_TEST

/* A sequence held across writes is kept whole (the writes of a 4-byte character cut 2 + 2
 * do not show it as two invalid halves), and a CR at the end of one write with the LF at the
 * start of the next stays a line end. */
START_TEST(held_across_writes)
{
    tt_buf b = {0};
    tt_textesc e;
    tt_textesc_init(&e, collect, &b);
    ck_assert_int_eq(tt_textesc_put(&e, "x\xf0\x9f", 3), 0);
    ck_assert_int_eq(e.n_held, 2);
    ck_assert_int_eq(tt_textesc_put(&e, "\x98\x80", 2), 0);
    ck_assert_int_eq(tt_textesc_put(&e, "a\r", 2), 0);
    ck_assert_int_eq(tt_textesc_put(&e, "\nb\r", 3), 0);
    ck_assert_int_eq(tt_textesc_flush(&e), 0);
    tt_buf_put(&b, "", 0);
    ck_assert_str_eq(b.data, "x\xf0\x9f\x98\x80" "a\r\nb\\x0d");
    /* the stream goes on after a flush */
    b.len = 0;
    ck_assert_int_eq(tt_textesc_put(&e, "\xe4", 1), 0);
    ck_assert_int_eq(tt_textesc_put(&e, "", 0), 0);
    ck_assert_int_eq(tt_textesc_put(&e, "\xb8", 1), 0);
    ck_assert_int_eq(tt_textesc_put(&e, "\xad", 1), 0);
    ck_assert_int_eq(tt_textesc_flush(&e), 0);
    tt_buf_put(&b, "", 0);
    ck_assert_str_eq(b.data, "\xe4\xb8\xad");
    free(b.data);
}
END_TEST

static int fail_write(void *ctx, const char *p, size_t n)
{
    (void)p;
    int *calls = ctx;
    ++*calls;
    return n ? -7 : 0;
}

START_TEST(write_errors)
{
    int calls = 0;
    tt_textesc e;
    tt_textesc_init(&e, fail_write, &calls);
    ck_assert_int_eq(tt_textesc_put(&e, "abc", 3), -7);
    ck_assert_int_eq(tt_textesc_put(&e, "\x1b", 1), -7);
    ck_assert_int_eq(tt_textesc_put(&e, "\xf0\x9f", 2), 0); /* held: nothing written */
    ck_assert_int_eq(tt_textesc_flush(&e), -7);
    ck_assert_int_eq(calls, 3);
}
END_TEST

START_TEST(plain_prefix)
{
    ck_assert_uint_eq(tt_textesc_plain("", 0), 0);
    ck_assert_uint_eq(tt_textesc_plain("abc\n\tdef\r\n\xe4\xb8\xad", 13), 13);
    ck_assert_uint_eq(tt_textesc_plain("0123456789\x1b", 11), 10);
    ck_assert_uint_eq(tt_textesc_plain("ab\xc2\x9b", 4), 2);
    ck_assert_uint_eq(tt_textesc_plain("ab\xff", 3), 2);
    ck_assert_uint_eq(tt_textesc_plain("ab\xe2\x80\xae", 5), 2); /* U+202E */
    ck_assert_uint_eq(tt_textesc_plain("ab\r", 3), 2);             /* may be a CR LF */
    ck_assert_uint_eq(tt_textesc_plain("abcdefgh\xf0\x9f\x98", 11), 8); /* may be completed */
}
END_TEST

/* A table cell: one line (newline, tab and CR escaped too), the rest as the stream escaper
 * writes it, and its width in characters; appended after what the buffer holds. */
START_TEST(cell)
{
    tt_buf b = {0};
    size_t w = 99;
    tt_buf_puts(&b, "|");
    ck_assert_int_eq(tt_textesc_cell(&b, "a\nb\tc\r\n\x1b\xc3\xa9\xff", 11, &w), 0);
    ck_assert_str_eq(b.data, "|a\\x0ab\\x09c\\x0d\\x0a\\x1b\xc3\xa9\\xff");
    ck_assert_uint_eq(w, 28); /* é is one character */
    ck_assert_uint_eq(tt_textesc_plain(b.data, b.len), b.len);
    b.len = 0;
    ck_assert_int_eq(tt_textesc_cell(&b, "", 0, &w), 0);
    ck_assert_uint_eq(w, 0);
    ck_assert_int_eq(tt_textesc_cell(&b, "com.app/.Main", 13, NULL), 0);
    ck_assert_str_eq(b.data, "com.app/.Main");
    tt_buf_free(&b);
}
END_TEST

static Suite *textesc_suite(void)
{
    Suite *s = suite_create("textesc");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, known);
    tcase_add_test(tc, against_reference);
    tcase_add_test(tc, splits);
    tcase_add_test(tc, held_across_writes);
    tcase_add_test(tc, write_errors);
    tcase_add_test(tc, plain_prefix);
    tcase_add_test(tc, cell);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(textesc_suite)
