/* methodMapping.txt, ignoreMethodMapping.txt, display names (method-beat.md 4.1-4.3),
 * ProGuard/R8 retrace (4.6). */
#include "unit.h"

static tt_mapping *load(const char *s, tt_stats *st, int *rc, tt_error *err)
{
    tt_mapping *m = tt_mapping_new();
    tt_input *in = unit_mem("methodMapping.txt", s, strlen(s));
    *rc = tt_mapping_load(m, in, st, err);
    tt_input_close(in);
    return m;
}

static const char *name(const tt_mapping *m, uint32_t id, int style)
{
    static tt_buf b;
    tt_buf_free(&b);
    tt_mapping_format_id(&b, m, id, style);
    return b.data;
}

START_TEST(variants)
{
    const char *s = "1,4,sample.Act onCreate (Landroid.os.Bundle;)V\r\n"
                    "\n"
                    "# comment\n"
                    "2,1,androidx.fragment.app.BackStackRecord toString ()Ljava.lang.String;\n"
                    "3,257,com.x.Native nativeInit\n"
                    "4,131073,com.x.Old run (I[JLjava.lang.String;)Z\n"
                    "5,1,com.x.Weird method with spaces (I)V\n"
                    "6,1,com.x.Bad desc (Q)V\n"
                    "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";
    int rc;
    tt_error err;
    tt_mapping *m = load(s, NULL, &rc, &err);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(tt_mapping_count(m), 7);
    ck_assert_uint_eq(tt_mapping_max_id(m), 6);
    ck_assert_str_eq(name(m, 1, TT_NAME_JAVA), "sample.Act.onCreate(android.os.Bundle)");
    ck_assert_str_eq(name(m, 2, TT_NAME_FULL),
                     "java.lang.String androidx.fragment.app.BackStackRecord.toString()");
    ck_assert_str_eq(name(m, 3, TT_NAME_JAVA), "com.x.Native.nativeInit");
    ck_assert_ptr_eq(tt_mapping_get(m, 3)->desc, NULL);
    ck_assert_uint_eq(tt_mapping_get(m, 4)->flags, 131073);
    ck_assert_str_eq(name(m, 4, TT_NAME_JAVA), "com.x.Old.run(int,long[],java.lang.String)");
    ck_assert_str_eq(tt_mapping_get(m, 5)->name, "method with spaces");
    ck_assert(tt_mapping_get(m, 6)->bad_desc);
    ck_assert_str_eq(name(m, 6, TT_NAME_JAVA), "com.x.Bad.desc(Q)V");
    ck_assert_str_eq(name(m, 4, TT_NAME_RAW), "com.x.Old run (I[JLjava.lang.String;)Z");
    ck_assert_str_eq(name(m, 1048574, TT_NAME_JAVA),
                     "android.os.Handler.dispatchMessage(android.os.Message)");
    ck_assert_str_eq(name(m, 77, TT_NAME_JAVA), "<unknown id 77>");
    tt_mapping_free(m);
}
END_TEST

START_TEST(dispatch_fallback)
{
    int rc;
    tt_mapping *m = load("1,1,a.B c ()V\n", NULL, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_ne(tt_mapping_get(m, TT_BEAT_DISPATCH), NULL);
    ck_assert_str_eq(name(m, TT_BEAT_DISPATCH, TT_NAME_JAVA),
                     "android.os.Handler.dispatchMessage(android.os.Message)");
    tt_mapping_free(m);
}
END_TEST

START_TEST(duplicates_warn)
{
    tt_stats *st = tt_stats_new();
    int rc;
    tt_mapping *m = load("1,1,a.B c ()V\n1,1,a.B d ()V\n", st, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(tt_mapping_get(m, 1)->name, "c");
    ck_assert_uint_eq(tt_stats_count(st), 1);
    ck_assert_ptr_ne(strstr(tt_stats_get(st, 0)->example, "first on line 1"), NULL);
    tt_mapping_free(m);
    tt_stats_free(st);
}
END_TEST

/* The dispatch id is stored apart from the id index (which would span 4 MB for it);
 * duplicates of it and class names shared between consecutive lines behave as before. */
START_TEST(dispatch_line_and_shared_classes)
{
    tt_stats *st = tt_stats_new();
    int rc;
    tt_mapping *m = load("1,1,a.B c ()V\n2,2,a.B d (I)V\n3,1,a.C c ()V\n"
                         "1048574,1,my.Handler dispatchMessage (Landroid.os.Message;)V\n"
                         "1048574,1,other.Handler dispatchMessage (Landroid.os.Message;)V\n",
                         st, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(tt_mapping_count(m), 4);
    ck_assert_uint_eq(tt_mapping_max_id(m), 3);
    ck_assert_str_eq(tt_mapping_get(m, TT_BEAT_DISPATCH)->cls, "my.Handler");
    ck_assert_uint_eq(tt_mapping_get(m, TT_BEAT_DISPATCH)->line, 4);
    ck_assert_ptr_null(tt_mapping_get(m, 1048573));
    ck_assert_str_eq(tt_mapping_get(m, 2)->cls, "a.B");
    ck_assert_str_eq(tt_mapping_get(m, 3)->cls, "a.C");
    ck_assert_str_eq(name(m, 2, TT_NAME_JAVA), "a.B.d(int)");
    ck_assert_uint_eq(tt_stats_count(st), 1);
    ck_assert_ptr_ne(strstr(tt_stats_get(st, 0)->example, "first on line 4"), NULL);
    tt_mapping_free(m);
    tt_stats_free(st);
}
END_TEST

START_TEST(errors)
{
    static const char *bad[] = {"1,1\n", "x,1,a.B c ()V\n", "0,1,a.B c ()V\n",
                                "1048575,1,a.B c ()V\n", "1,-1,a.B c ()V\n", "1,1,nospace\n",
                                "1,1,a.B (I)V\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char s[128];
        snprintf(s, sizeof s, "5,1,ok.C m ()V\n%s", bad[i]);
        int rc;
        tt_error err;
        tt_mapping *m = load(s, NULL, &rc, &err);
        ck_assert_int_eq(rc, TT_EFORMAT);
        ck_assert_uint_eq(err.loc, 2);
        ck_assert_str_eq(err.file, "methodMapping.txt");
        tt_mapping_free(m);
    }
}
END_TEST

START_TEST(ignore_list)
{
    tt_mapping *m = tt_mapping_new();
    const char *s = "ignore methods:\ncom.a.B getX ()I\ncom.a.B <init> ()V\ncom.a.B getX ()I\n"
                    "com.a.C nat\n";
    ck_assert(tt_mapping_looks_ignore(s, strlen(s)));
    ck_assert(!tt_mapping_looks_like(s, strlen(s)));
    ck_assert(tt_mapping_looks_like("1,1,a.B c ()V\n", 14));
    tt_input *in = unit_mem("ignoreMethodMapping.txt", s, strlen(s));
    ck_assert_int_eq(tt_mapping_load_ignore(m, in, NULL), 0);
    tt_input_close(in);
    ck_assert_uint_eq(tt_mapping_ignored_count(m), 3);
    /* every line kept as the file gives it, duplicates included (the store keeps one) */
    ck_assert_uint_eq(tt_mapping_ignored_lines(m), 4);
    const tt_method *x = tt_mapping_ignored_at(m, 1);
    ck_assert_str_eq(x->cls, "com.a.B");
    ck_assert_str_eq(x->name, "<init>");
    ck_assert_str_eq(x->desc, "()V");
    ck_assert_uint_eq(x->line, 3);
    ck_assert_ptr_null(tt_mapping_ignored_at(m, 3)->desc);
    ck_assert(tt_mapping_is_ignored(m, "com.a.B", "getX"));
    ck_assert(!tt_mapping_is_ignored(m, "com.a.B", "getY"));
    tt_mapping_free(m);
}
END_TEST

static const char pg_text[] =
    "# compiler: R8\n"
    "com.example.Original -> a.b.c:\n"
    "# {\"id\":\"sourceFile\",\"fileName\":\"Original.kt\"}\n"
    "    int counter -> a\n"
    "    1:3:void run(int):10:12 -> a\n"
    "    4:4:void com.other.Util.helper():55 -> a\n"
    "    4:4:void outer():20 -> a\n"
    "    void other(java.lang.String) -> b\n"
    "    java.lang.String other(com.example.Model) -> b\n"
    "com.example.Model -> a.b.d:\n";

START_TEST(proguard_frames)
{
    tt_proguard *p;
    tt_input *in = unit_mem("mapping.txt", pg_text, strlen(pg_text));
    ck_assert_int_eq(tt_proguard_load(&p, in, NULL), 0);
    tt_input_close(in);
    ck_assert_str_eq(tt_proguard_class(p, "a.b.c"), "com.example.Original");
    tt_buf b = {0};
    tt_proguard_retrace_frame(&b, p, "a.b.c.a(SourceFile:2)", 21);
    ck_assert_str_eq(b.data, "com.example.Original.run(Original.kt:11)");
    b.len = 0;
    tt_proguard_retrace_frame(&b, p, "at a.b.c.a(SourceFile:4)", 24);
    ck_assert_str_eq(b.data, "at com.other.Util.helper(Original.kt:55)\n"
                             "at com.example.Original.outer(Original.kt:20)");
    b.len = 0;
    tt_proguard_retrace_frame(&b, p, "a.b.c.b(Unknown Source)", 23);
    ck_assert_str_eq(b.data, "com.example.Original.other(Original.kt)");
    b.len = 0;
    tt_proguard_retrace_frame(&b, p, "z.z.z.q(X:1)", 12);
    ck_assert_str_eq(b.data, "z.z.z.q(X:1)");
    tt_buf_free(&b);
    tt_proguard_free(p);
}
END_TEST

START_TEST(proguard_methods)
{
    tt_proguard *p;
    tt_input *in = unit_mem("mapping.txt", pg_text, strlen(pg_text));
    ck_assert_int_eq(tt_proguard_load(&p, in, NULL), 0);
    tt_input_close(in);
    int rc;
    tt_mapping *m = load("1,1,a.b.c b (La.b.d;)Ljava.lang.String;\n2,1,a.b.c a (I)V\n"
                         "3,1,a.b.c zz ()V\n",
                         NULL, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    size_t amb = 9;
    ck_assert_int_eq(tt_mapping_retrace(m, p, &amb), 0);
    ck_assert_uint_eq(amb, 0);
    ck_assert_str_eq(name(m, 1, TT_NAME_JAVA), "com.example.Original.other(com.example.Model)");
    ck_assert_str_eq(name(m, 2, TT_NAME_JAVA), "com.example.Original.run(int)");
    ck_assert_str_eq(name(m, 3, TT_NAME_JAVA), "com.example.Original.zz()");
    tt_mapping_free(m);
    tt_proguard_free(p);
}
END_TEST

/* Retraced names must be owned by the mapping: the CLI frees the ProGuard mapping right
 * after retracing (found by running the sample through --proguard under ASan). */
START_TEST(proguard_names_outlive_mapping)
{
    tt_proguard *p;
    tt_input *in = unit_mem("mapping.txt", pg_text, strlen(pg_text));
    ck_assert_int_eq(tt_proguard_load(&p, in, NULL), 0);
    tt_input_close(in);
    int rc;
    tt_mapping *m = load("1,1,a.b.c b (La.b.d;)Ljava.lang.String;\n2,257,a.b.c b\n", NULL, &rc,
                         NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(tt_mapping_retrace(m, p, NULL), 0);
    tt_proguard_free(p);
    /* reuse the freed memory with different text */
    const char *other = "x.Y -> q.r.s:\n    void zzzzzzzz(int) -> b\n";
    in = unit_mem("other.txt", other, strlen(other));
    ck_assert_int_eq(tt_proguard_load(&p, in, NULL), 0);
    tt_input_close(in);
    ck_assert_str_eq(name(m, 1, TT_NAME_JAVA), "com.example.Original.other(com.example.Model)");
    ck_assert_str_eq(name(m, 2, TT_NAME_JAVA), "com.example.Original.other");
    tt_proguard_free(p);
    tt_mapping_free(m);
}
END_TEST

/* A mapping.txt whose classes have no member lines (found by fuzz_proguard: pointer
 * arithmetic on the empty method vector under UBSan). */
START_TEST(proguard_class_without_members)
{
    const char *s = "com.example.Empty -> a.a:\n";
    tt_proguard *p;
    tt_input *in = unit_mem("mapping.txt", s, strlen(s));
    ck_assert_int_eq(tt_proguard_load(&p, in, NULL), 0);
    tt_input_close(in);
    tt_buf b = {0};
    tt_proguard_retrace_frame(&b, p, "a.a.b(SourceFile:3)", 19);
    ck_assert_str_eq(b.data, "com.example.Empty.b(Unknown Source)");
    int rc;
    tt_mapping *m = load("1,1,a.a b (I)V\n2,257,a.a c\n", NULL, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(tt_mapping_retrace(m, p, NULL), 0);
    ck_assert_str_eq(name(m, 1, TT_NAME_JAVA), "com.example.Empty.b(int)");
    ck_assert_str_eq(name(m, 2, TT_NAME_JAVA), "com.example.Empty.c");
    tt_buf_free(&b);
    tt_mapping_free(m);
    tt_proguard_free(p);
}
END_TEST

/* 4.6 step 3: two ranges holding the line are two groups, so the frame is ambiguous: every
 * candidate (the innermost line of each group) is shown, line unknown, and the call says so;
 * one group is not ambiguous. Without sourceFile metadata the frame's own file name is kept
 * (unless it is the renamed "SourceFile"). */
START_TEST(proguard_overlapping_ranges)
{
    const char *s = "com.ex.Foo -> a.a:\n"
                    "    1:5:void get(int):28:32 -> a\n"
                    "    1:6:void post(int):35:40 -> a\n"
                    "    7:7:void com.o.In.x():9 -> a\n"
                    "    7:7:void put():50 -> a\n";
    tt_proguard *p;
    tt_input *in = unit_mem("mapping.txt", s, strlen(s));
    ck_assert_int_eq(tt_proguard_load(&p, in, NULL), 0);
    tt_input_close(in);
    tt_buf b = {0};
    ck_assert_int_eq(tt_proguard_retrace_frame(&b, p, "a.a.a(Foo.kt:3)", 15), 1);
    ck_assert_str_eq(b.data, "com.ex.Foo.get | post(Foo.kt)");
    b.len = 0;
    ck_assert_int_eq(tt_proguard_retrace_frame(&b, p, "a.a.a(Foo.kt:6)", 15), 0);
    ck_assert_str_eq(b.data, "com.ex.Foo.post(Foo.kt:40)");
    b.len = 0;
    ck_assert_int_eq(tt_proguard_retrace_frame(&b, p, "at a.a.a(SourceFile:7)", 22), 0);
    ck_assert_str_eq(b.data, "at com.o.In.x(Unknown Source:9)\nat com.ex.Foo.put(Unknown Source:50)");
    tt_buf_free(&b);
    tt_proguard_free(p);
}
END_TEST

/* Lookups go through a per-class index sorted by (obfuscated name, signature); results must
 * keep the file-order semantics of 4.6 (first unqualified line wins, distinct names listed
 * in file order, inlined lines from other classes skipped for methods). */
START_TEST(proguard_reused_names_file_order)
{
    const char *s = "a.B -> x:\n"
                    "    void z(int) -> a\n"
                    "    void y(int) -> a\n"
                    "    void w() -> a\n"
                    "    int v(int) -> a\n"
                    "    void z(int) -> a\n"
                    "    1:2:void q():5:6 -> b\n"
                    "    3:4:void com.o.P.r():9 -> b\n"
                    "    3:4:void q():7 -> b\n";
    tt_proguard *p;
    tt_input *in = unit_mem("mapping.txt", s, strlen(s));
    ck_assert_int_eq(tt_proguard_load(&p, in, NULL), 0);
    tt_input_close(in);
    tt_buf b = {0};
    tt_proguard_retrace_frame(&b, p, "x.a(SourceFile)", 15);
    ck_assert_str_eq(b.data, "a.B.z | y | w | v(Unknown Source)");
    b.len = 0;
    tt_proguard_retrace_frame(&b, p, "x.b(SourceFile:3)", 17);
    ck_assert_str_eq(b.data, "com.o.P.r(Unknown Source:9)\na.B.q(Unknown Source:7)");
    int rc;
    tt_mapping *m = load("1,1,x a (I)V\n2,1,x a ()V\n3,1,x a (I)I\n4,1,x b ()V\n5,257,x a\n"
                         "6,1,x a (J)V\n",
                         NULL, &rc, NULL);
    ck_assert_int_eq(rc, 0);
    size_t amb = 0;
    ck_assert_int_eq(tt_mapping_retrace(m, p, &amb), 0);
    ck_assert_uint_eq(amb, 1);
    ck_assert_str_eq(name(m, 1, TT_NAME_JAVA), "a.B.z(int)");
    ck_assert_str_eq(name(m, 2, TT_NAME_JAVA), "a.B.w()");
    ck_assert_str_eq(name(m, 3, TT_NAME_JAVA), "a.B.v(int)");
    ck_assert_str_eq(name(m, 4, TT_NAME_JAVA), "a.B.q()");
    ck_assert_str_eq(name(m, 5, TT_NAME_JAVA), "a.B.z");
    ck_assert_str_eq(name(m, 6, TT_NAME_JAVA), "a.B.a(long)");
    tt_buf_free(&b);
    tt_mapping_free(m);
    tt_proguard_free(p);
}
END_TEST

START_TEST(proguard_errors)
{
    tt_proguard *p = NULL;
    tt_error err;
    const char *s = "a.B -> c:\nnot a class line\n";
    tt_input *in = unit_mem("mapping.txt", s, strlen(s));
    ck_assert_int_eq(tt_proguard_load(&p, in, &err), TT_EFORMAT);
    ck_assert_uint_eq(err.loc, 2);
    tt_input_close(in);
    s = "    void x() -> a\n";
    in = unit_mem("mapping.txt", s, strlen(s));
    ck_assert_int_eq(tt_proguard_load(&p, in, &err), TT_EFORMAT);
    tt_input_close(in);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mapping");
    TCase *tc = tcase_create("mapping");
    tcase_add_test(tc, variants);
    tcase_add_test(tc, dispatch_fallback);
    tcase_add_test(tc, duplicates_warn);
    tcase_add_test(tc, dispatch_line_and_shared_classes);
    tcase_add_test(tc, errors);
    tcase_add_test(tc, ignore_list);
    tcase_add_test(tc, proguard_frames);
    tcase_add_test(tc, proguard_methods);
    tcase_add_test(tc, proguard_errors);
    tcase_add_test(tc, proguard_names_outlive_mapping);
    tcase_add_test(tc, proguard_class_without_members);
    tcase_add_test(tc, proguard_reused_names_file_order);
    tcase_add_test(tc, proguard_overlapping_ranges);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
