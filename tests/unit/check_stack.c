/* Stack strings and call trees (method-beat.md 5.10, 7.7); the JSON writer (7.6). */
#include "unit.h"

#include <jansson.h>

START_TEST(parse_both_forms)
{
    tt_mitem *it;
    size_t n;
    const char *s = "0,1048574,1,1006\n1,243,1,1000\n3,9,2,-5\n";
    ck_assert_int_eq(tt_stack_parse(&it, &n, s, strlen(s), "r", 1, NULL), 0);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(it[1].id, 243);
    ck_assert_int_eq(it[2].dur, -5);
    free(it);
    s = "|*\t\tTraceStack:\n|*\t\t[id count cost]\n|*\t\t1048574 1 1006\n|*\t\t..243 1 1000\n";
    ck_assert_int_eq(tt_stack_parse(&it, &n, s, strlen(s), "r", 1, NULL), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(it[1].depth, 2);
    ck_assert_int_eq(it[1].id, 243);
    free(it);
}
END_TEST

START_TEST(parse_errors)
{
    tt_mitem *it;
    size_t n;
    tt_error err;
    const char *s = "0,1,1,10\n1,2,1\n";
    ck_assert_int_eq(tt_stack_parse(&it, &n, s, strlen(s), "rep.json", 7, &err), TT_EFORMAT);
    ck_assert_uint_eq(err.loc, 7);
    ck_assert_ptr_ne(strstr(err.msg, "stack line 2"), NULL);
    s = "0,1,1,99999999999\n";
    ck_assert_int_eq(tt_stack_parse(&it, &n, s, strlen(s), "r", 1, &err), TT_EFORMAT);
}
END_TEST

START_TEST(tree_gaps_and_clamps)
{
    tt_mitem it[] = {{0, 1, 1, 100}, {1, 2, 1, 60}, {3, 3, 1, 70}, {1, 4, 1, 30}, {0, 5, 1, 5}};
    tt_stree_node *nd;
    size_t clamps;
    ck_assert_int_eq(tt_stree_build(&nd, it, 5, &clamps), 0);
    ck_assert_int_eq(nd[0].parent, -1);
    ck_assert_int_eq(nd[1].parent, 0);
    ck_assert_int_eq(nd[2].parent, 1);
    ck_assert_int_eq(nd[2].gap, 2);
    ck_assert_int_eq(nd[3].parent, 0);
    ck_assert_int_eq(nd[4].parent, -1);
    ck_assert_int_eq(nd[0].self_ms, 10);
    ck_assert_int_eq(nd[1].self_ms, 0);
    ck_assert(nd[1].clamped);
    ck_assert_uint_eq(clamps, 1);
    ck_assert_int_eq(nd[0].gap, 1); /* a root at depth 0: nothing missing */
    free(nd);
    /* roots at depth N > 0 miss N callers (7.7 step 3); depth -1 (a nested dispatch) none;
     * extreme depths do not overflow */
    tt_mitem r[] = {{3, 1, 1, 10}, {-1, 2, 1, 10}, {INT32_MAX, 3, 1, 5}, {INT32_MIN, 4, 1, 5},
                    {INT32_MAX, 5, 1, 5}};
    ck_assert_int_eq(tt_stree_build(&nd, r, 5, NULL), 0);
    ck_assert_int_eq(nd[0].gap, 4);
    ck_assert_int_eq(nd[1].gap, 0);
    ck_assert_int_eq(nd[2].parent, 1);
    ck_assert_int_eq(nd[2].gap, (int64_t)INT32_MAX + 1); /* 64-bit: not clamped */
    ck_assert_int_eq(nd[3].parent, -1);
    ck_assert_int_eq(nd[3].gap, 0);
    ck_assert_int_eq(nd[4].gap, (int64_t)INT32_MAX - INT32_MIN);
    free(nd);
}
END_TEST

START_TEST(json_writer)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "s");
    tt_jsonw_str(&w, "a/b\"c\\\n\x01");
    tt_jsonw_key(&w, "a");
    tt_jsonw_arr_begin(&w);
    tt_jsonw_int(&w, -3);
    tt_jsonw_double(&w, 60.0);
    tt_jsonw_double(&w, (double)39.212517f);
    tt_jsonw_arr_end(&w);
    tt_jsonw_obj_end(&w);
    ck_assert_str_eq(w.buf.data,
                     "{\"s\":\"a\\/b\\\"c\\\\\\n\\u0001\",\"a\":[-3,60,39.21251678466797]}");
    tt_jsonw_free(&w);
}
END_TEST

/* tt_jsonw_real: a real reads back as a real (query json/jsonl, analyze --format jsonl) */
START_TEST(json_writer_real)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    tt_jsonw_arr_begin(&w);
    const double v[] = {100.0, -0.0, 0.0, 91.0, 0.1, 2.5e-10, 1e20, 1234567890123456.0,
                        -3.0, 1.0 / 0.0};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        tt_jsonw_real(&w, v[i]);
    tt_jsonw_arr_end(&w);
    ck_assert_str_eq(w.buf.data, "[100.0,-0.0,0.0,91.0,0.1,2.5e-10,1e+20,1234567890123456.0,"
                                 "-3.0,null]");
    tt_jsonw_free(&w);
}
END_TEST

/* tt_jsonw_fields writes what the key/value calls write (symbolicate's bulk results) */
START_TEST(json_writer_fields)
{
    for (int android = 0; android <= 1; android++) {
        tt_jsonw a, b;
        tt_jsonw_init(&a, android);
        tt_jsonw_init(&b, android);
        tt_jsonw_obj_begin(&a);
        tt_jsonw_obj_begin(&b);
        tt_jsonw_key(&a, "N");
        tt_jsonw_uint(&a, 1);
        tt_jsonw_key(&b, "N");
        tt_jsonw_uint(&b, 1);
        tt_jsonw_field f[] = {
            {"S", 1, TT_JSONW_STR, "a/\"\n\x01", 0},
            {"Null", 4, TT_JSONW_STR, NULL, 0},
            {"U", 1, TT_JSONW_UINT, NULL, UINT64_MAX},
            {"T", 1, TT_JSONW_BOOL, NULL, 1},
            {"F", 1, TT_JSONW_BOOL, NULL, 0},
        };
        tt_jsonw_fields(&b, f, 5);
        tt_jsonw_key(&a, "S");
        tt_jsonw_str(&a, "a/\"\n\x01");
        tt_jsonw_key(&a, "Null");
        tt_jsonw_str(&a, "");
        tt_jsonw_key(&a, "U");
        tt_jsonw_uint(&a, UINT64_MAX);
        tt_jsonw_key(&a, "T");
        tt_jsonw_bool(&a, 1);
        tt_jsonw_key(&a, "F");
        tt_jsonw_bool(&a, 0);
        tt_jsonw_obj_end(&a);
        tt_jsonw_obj_end(&b);
        /* first in an object: no comma */
        tt_jsonw_obj_begin(&b);
        tt_jsonw_fields(&b, f + 3, 1);
        tt_jsonw_obj_end(&b);
        tt_jsonw_obj_begin(&a);
        tt_jsonw_key(&a, "T");
        tt_jsonw_bool(&a, 1);
        tt_jsonw_obj_end(&a);
        ck_assert_str_eq(b.buf.data, a.buf.data);
        ck_assert_str_eq(b.buf.data, android ? "{\"N\":1,\"S\":\"a\\/\\\"\\n\\u0001\",\"Null\":\"\","
                                               "\"U\":18446744073709551615,\"T\":true,"
                                               "\"F\":false}{\"T\":true}"
                                             : "{\"N\":1,\"S\":\"a/\\\"\\n\\u0001\",\"Null\":\"\","
                                               "\"U\":18446744073709551615,\"T\":true,"
                                               "\"F\":false}{\"T\":true}");
        tt_jsonw_free(&a);
        tt_jsonw_free(&b);
    }
}
END_TEST

/* Every escape class, with and without Android's '/', and strings longer than the
 * buffer's free room (the writer reserves the worst case and copies plain runs whole). */
START_TEST(json_writer_escapes)
{
    for (int android = 0; android <= 1; android++) {
        tt_jsonw w;
        tt_jsonw_init(&w, android);
        tt_jsonw_str(&w, "\b\f\t\r\n\x1f\x7f\xc3\xa9/\"\\x");
        ck_assert_str_eq(w.buf.data, android
                                         ? "\"\\b\\f\\t\\r\\n\\u001f\\u007f\xc3\xa9\\/\\\"\\\\x\""
                                         : "\"\\b\\f\\t\\r\\n\\u001f\\u007f\xc3\xa9/\\\"\\\\x\"");
        tt_jsonw_free(&w);
    }
    /* a plain key writes what tt_jsonw_key writes */
    tt_jsonw k1, k2;
    tt_jsonw_init(&k1, 0);
    tt_jsonw_init(&k2, 0);
    tt_jsonw_obj_begin(&k1);
    tt_jsonw_obj_begin(&k2);
    for (int i = 0; i < 2; i++) {
        tt_jsonw_key(&k1, "Line");
        tt_jsonw_key_plain(&k2, "Line", 4);
        tt_jsonw_uint(&k1, 7);
        tt_jsonw_uint(&k2, 7);
    }
    tt_jsonw_obj_end(&k1);
    tt_jsonw_obj_end(&k2);
    ck_assert_str_eq(k2.buf.data, "{\"Line\":7,\"Line\":7}");
    ck_assert_str_eq(k1.buf.data, k2.buf.data);
    tt_jsonw_free(&k1);
    tt_jsonw_free(&k2);
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    char big[5000];
    for (size_t i = 0; i < sizeof big - 1; i++)
        big[i] = i % 100 == 99 ? '\n' : (char)('a' + i % 26);
    big[sizeof big - 1] = 0;
    tt_jsonw_arr_begin(&w);
    for (int k = 0; k < 3; k++)
        tt_jsonw_str(&w, big);
    tt_jsonw_arr_end(&w);
    /* 3 x (4999 bytes + 49 escapes one byte longer + 2 quotes) + 2 commas + brackets */
    ck_assert_uint_eq(w.buf.len, 3 * (4999 + 49 + 2) + 2 + 2);
    ck_assert_uint_eq(strlen(w.buf.data), w.buf.len);
    ck_assert(!memcmp(w.buf.data, "[\"abc", 5));
    ck_assert(!memcmp(w.buf.data + 1 + 1 + 99, "\\nw", 3));
    tt_jsonw_free(&w);
}
END_TEST

/* The reference escaping, one byte at a time */
static void ref_quoted(char *out, const char *s, size_t n, int android)
{
    char *o = out;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *e = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n"
                      : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == '\b' ? "\\b"
                      : c == '\f' ? "\\f" : c == '/' && android ? "\\/" : NULL;
        if (e)
            o += sprintf(o, "%s", e);
        else if (c < 0x20 || c == 0x7f)
            o += sprintf(o, "\\u%04x", c);
        else if (c >= 0x80) /* the callers' strings hold lone bytes >= 0x80 only */
            o += sprintf(o, "\xef\xbf\xbd");
        else
            *o++ = (char)c;
    }
    *o++ = '"';
    *o = 0;
}

/* Strings are scanned in blocks of 16 and 8 bytes with an overlapping last block: every
 * length up to 48 with an escaped byte at every position (and one at two positions) is
 * written as the byte-by-byte escaping writes it, by tt_jsonw_str and tt_jsonw_fields. */
START_TEST(json_writer_escapes_blocks)
{
    static const char special[] = {'"', '\\', '/', '\n', 0x01, 0x1f, 0x7f, ' ', (char)0x80,
                                   (char)0xff};
    char s[64], want[512], got[520];
    for (int android = 0; android <= 1; android++)
        for (size_t n = 0; n <= 48; n++)
            for (size_t k = 0; k <= n; k++)
                for (size_t c = 0; c < sizeof special; c++) {
                    for (size_t i = 0; i < n; i++)
                        s[i] = (char)('a' + i % 26);
                    if (k < n)
                        s[k] = special[c];
                    if (k + 9 < n)
                        s[k + 9] = special[(c + 1) % sizeof special];
                    s[n] = 0;
                    ref_quoted(want, s, n, android);
                    tt_jsonw w;
                    tt_jsonw_init(&w, android);
                    tt_jsonw_strn(&w, s, n);
                    ck_assert_msg(!strcmp(w.buf.data, want), "n %zu k %zu c %zu: %s, want %s", n,
                                  k, c, w.buf.data, want);
                    w.buf.len = 0;
                    tt_jsonw_obj_begin(&w);
                    tt_jsonw_field f[] = {{"k", 1, TT_JSONW_STR, s, 0}};
                    tt_jsonw_fields(&w, f, 1);
                    tt_jsonw_obj_end(&w);
                    snprintf(got, sizeof got, "{\"k\":%s}", want);
                    ck_assert_str_eq(w.buf.data, got);
                    tt_jsonw_free(&w);
                }
}
END_TEST

/* JSON text is UTF-8: valid sequences pass whole, at any offset of the 16- and 8-byte
 * blocks; every byte of an invalid one (Latin-1, overlong, surrogate, above U+10FFFF, cut
 * off at the end) is U+FFFD; tt_jsonw_key and tt_jsonw_fields write the same. */
START_TEST(json_writer_utf8)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"caf\xe9", "caf\xef\xbf\xbd"},
        {"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"},
        {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},             /* overlong '/' */
        {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}, /* a surrogate */
        {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
        {"x\xe2\x82", "x\xef\xbf\xbd\xef\xbf\xbd"}, /* cut off */
        {"\xe9\n\xc3\xa9", "\xef\xbf\xbd\\n\xc3\xa9"},
    };
    char in[128], want[256], got[2 * sizeof want + 16];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (size_t pre = 0; pre <= 33; pre++) {
            memset(in, 'a', pre);
            snprintf(in + pre, sizeof in - pre, "%s", cases[c].in);
            memset(want, 'a', pre + 1);
            want[0] = '"';
            snprintf(want + pre + 1, sizeof want - pre - 1, "%s\"", cases[c].out);
            tt_jsonw w;
            tt_jsonw_init(&w, 0);
            tt_jsonw_str(&w, in);
            ck_assert_msg(!strcmp(w.buf.data, want), "case %zu pre %zu: %s", c, pre,
                          w.buf.data);
            w.buf.len = 0;
            tt_jsonw_obj_begin(&w);
            tt_jsonw_key(&w, in);
            tt_jsonw_int(&w, 1);
            tt_jsonw_field f[] = {{"k", 1, TT_JSONW_STR, in, 0}};
            tt_jsonw_fields(&w, f, 1);
            tt_jsonw_obj_end(&w);
            snprintf(got, sizeof got, "{%s:1,\"k\":%s}", want, want);
            ck_assert_str_eq(w.buf.data, got);
            tt_jsonw_free(&w);
        }
}
END_TEST

/* Values written by the caller into reserved room take the separators the writer's own
 * values take, and its escaping */
START_TEST(json_writer_value_room)
{
    for (int android = 0; android <= 1; android++) {
        tt_jsonw w;
        tt_jsonw_init(&w, android);
        tt_jsonw_arr_begin(&w);
        for (int i = 0; i < 3; i++) {
            char *p = tt_jsonw_value_room(&w, 64);
            ck_assert_ptr_nonnull(p);
            *p++ = '{';
            p = tt_jsonw_quote(&w, p, "k/\"", 3);
            *p++ = ':';
            p = tt_json_uint(p, i ? 18446744073709551615ULL : 0);
            *p++ = '}';
            tt_jsonw_value_end(&w, p);
        }
        tt_jsonw_str(&w, "z");
        tt_jsonw_arr_end(&w);
        ck_assert_str_eq(w.buf.data,
                         android ? "[{\"k\\/\\\"\":0},{\"k\\/\\\"\":18446744073709551615},"
                                   "{\"k\\/\\\"\":18446744073709551615},\"z\"]"
                                 : "[{\"k/\\\"\":0},{\"k/\\\"\":18446744073709551615},"
                                   "{\"k/\\\"\":18446744073709551615},\"z\"]");
        ck_assert_uint_eq(strlen(w.buf.data), w.buf.len);
        tt_jsonw_free(&w);
    }
}
END_TEST

/* Any depth: the separator state of a level is not kept in a fixed-size array (10,000
 * levels written and compared with the expected text; 2,000 parsed back with jansson,
 * whose parser stops at JSON_PARSER_MAX_DEPTH = 2048 levels). */
static void deep_doc(tt_jsonw *w, int levels)
{
    for (int i = 0; i < levels; i++) {
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "i");
        tt_jsonw_int(w, i);
        tt_jsonw_key(w, "a");
        tt_jsonw_arr_begin(w);
        tt_jsonw_str(w, "x");
    }
    for (int i = levels; i-- > 0;) {
        tt_jsonw_bool(w, 1);
        tt_jsonw_arr_end(w);
        tt_jsonw_key(w, "z");
        tt_jsonw_null(w);
        tt_jsonw_obj_end(w);
    }
}

START_TEST(json_writer_any_depth)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    deep_doc(&w, 10000);
    tt_buf want = {0};
    for (int i = 0; i < 10000; i++)
        tt_buf_printf(&want, "{\"i\":%d,\"a\":[\"x\",", i);
    for (int i = 0; i < 10000; i++) {
        /* the innermost array holds "x" and true; the others "x", the child and true */
        tt_buf_puts(&want, "true],\"z\":null}");
        if (i + 1 < 10000)
            tt_buf_puts(&want, ",");
    }
    ck_assert_uint_eq(w.buf.len, want.len);
    ck_assert(!memcmp(w.buf.data, want.data, want.len));
    ck_assert_int_eq(w.depth, 0);
    tt_buf_free(&want);
    tt_jsonw_free(&w);

    tt_jsonw_init(&w, 0);
    deep_doc(&w, 1000); /* 2,000 nested containers */
    json_error_t je;
    json_t *root = json_loadb(w.buf.data, w.buf.len, 0, &je);
    ck_assert_msg(root != NULL, "jansson: %s at %d", je.text, je.position);
    json_t *o = root;
    for (int i = 0; i < 1000; i++) {
        ck_assert_int_eq(json_integer_value(json_object_get(o, "i")), i);
        ck_assert(json_is_null(json_object_get(o, "z")));
        json_t *a = json_object_get(o, "a");
        ck_assert_uint_eq(json_array_size(a), i + 1 < 1000 ? 3 : 2);
        ck_assert(json_is_true(json_array_get(a, json_array_size(a) - 1)));
        o = json_array_get(a, 1);
    }
    json_decref(root);
    tt_jsonw_free(&w);
}
END_TEST

/* tt_json_uint at every digit-count boundary */
START_TEST(json_uint_digits)
{
    char got[32], want[32];
    uint64_t p = 1;
    for (int i = 0; i < 20; i++, p *= 10) {
        uint64_t vals[3] = {p - 1, p, p + 1};
        for (int j = 0; j < 3; j++) {
            *tt_json_uint(got, vals[j]) = 0;
            snprintf(want, sizeof want, "%llu", (unsigned long long)vals[j]);
            ck_assert_str_eq(got, want);
        }
        if (i == 19)
            break;
    }
    *tt_json_uint(got, UINT64_MAX) = 0;
    ck_assert_str_eq(got, "18446744073709551615");
    *tt_json_uint(got, (uint64_t)1 << 63) = 0;
    ck_assert_str_eq(got, "9223372036854775808");
}
END_TEST

/* tt_vec_reserve_huge: the elements kept, room for the estimate, later growth as usual */
START_TEST(vec_reserve_huge)
{
    size_t sizes[] = {10, 100000, 40000, 60000}; /* small pages; 2 MiB; half filled; 4 MiB */
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        tt_vec v;
        tt_vec_init(&v, 40);
        for (uint32_t i = 0; i < 1000; i++)
            ck_assert_ptr_nonnull(tt_vec_push(&v, NULL));
        memset(v.data, 7, v.len * v.elem);
        ck_assert_int_eq(tt_vec_reserve_huge(&v, sizes[t]), 0);
        ck_assert_uint_ge(v.cap, sizes[t] > 1000 ? sizes[t] : 1000);
        ck_assert_uint_eq(v.len, 1000);
        unsigned char sevens[40000];
        memset(sevens, 7, sizeof sevens);
        ck_assert(!memcmp(v.data, sevens, sizeof sevens));
        for (size_t want = v.cap + 10; v.len < want;)
            ck_assert_ptr_nonnull(tt_vec_push(&v, NULL));
        ck_assert_int_eq(((unsigned char *)v.data)[999 * 40], 7);
        ck_assert_int_eq(((unsigned char *)v.data)[v.len * 40 - 1], 0); /* pushed zeroed */
        tt_vec_free(&v);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("stack");
    TCase *tc = tcase_create("stack");
    tcase_add_test(tc, parse_both_forms);
    tcase_add_test(tc, parse_errors);
    tcase_add_test(tc, tree_gaps_and_clamps);
    tcase_add_test(tc, json_writer);
    tcase_add_test(tc, json_writer_real);
    tcase_add_test(tc, json_writer_escapes);
    tcase_add_test(tc, json_writer_escapes_blocks);
    tcase_add_test(tc, json_writer_utf8);
    tcase_add_test(tc, json_writer_value_room);
    tcase_add_test(tc, json_writer_fields);
    tcase_add_test(tc, json_writer_any_depth);
    tcase_add_test(tc, vec_reserve_huge);
    tcase_set_timeout(tc, 60); /* vec_reserve_huge fills large vectors: slow under ASan */
    tcase_add_test(tc, json_uint_digits);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
