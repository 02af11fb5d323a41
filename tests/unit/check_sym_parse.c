/* libsym line parsers (spec/symbolication.md 7.1-7.4: the worked tombstone examples of
 * 7.3, module+offset tokens, perf script frames and MMAP events) and the tt_resolver hook. */
#include "unit.h"

#include "../../libsym/tsym.h"

static int eq(const char *p, size_t n, const char *s)
{
    return p && n == strlen(s) && !memcmp(p, s, n);
}

static tsym_tomb_frame tomb(const char *line)
{
    tsym_tomb_frame f;
    ck_assert_int_eq(tsym_tombstone_parse(&f, line, strlen(line)), 0);
    return f;
}

START_TEST(tombstone_spec_lines)
{
    tsym_tomb_frame f = tomb("      #00 pc 000000000004f2a4  /apex/com.android.runtime/lib64/bionic/"
                             "libc.so (abort+164) (BuildId: 3ab5c0ffee)");
    ck_assert_uint_eq(f.frame, 0);
    ck_assert_uint_eq(f.pc, 0x4f2a4);
    ck_assert(eq(f.map, f.map_len, "/apex/com.android.runtime/lib64/bionic/libc.so"));
    ck_assert(eq(f.function, f.function_len, "abort"));
    ck_assert_uint_eq(f.function_off, 164);
    ck_assert_str_eq(f.build_id, "3ab5c0ffee");
    ck_assert(f.symbolicatable);
    ck_assert_uint_eq(f.prefix_len, 6);

    f = tomb("      #01 pc 00000000000a1b2c  /data/app/~~Xy==/com.example-Ab==/base.apk!libfoo.so "
             "(offset 0x2a8000) (Foo::bar(int)+40) (BuildId: 8A1C)");
    ck_assert_uint_eq(f.frame, 1);
    ck_assert_uint_eq(f.pc, 0xa1b2c);
    ck_assert(eq(f.lib, f.lib_len, "libfoo.so"));
    ck_assert(f.has_offset);
    ck_assert_uint_eq(f.apk_offset, 0x2a8000);
    ck_assert(eq(f.function, f.function_len, "Foo::bar(int)"));
    ck_assert_uint_eq(f.function_off, 40);
    ck_assert_str_eq(f.build_id, "8a1c");

    f = tomb("      #02 pc 0000000000012345  /data/app/~~Xy==/com.example-Ab==/lib/arm64/"
             "libfoo.so (BuildId: 8a1c)");
    ck_assert_ptr_null(f.function);
    ck_assert(eq(f.map, f.map_len, "/data/app/~~Xy==/com.example-Ab==/lib/arm64/libfoo.so"));

    f = tomb("      #03 pc 00000000002d4f8c  /apex/com.android.art/lib64/libart.so "
             "(art_quick_invoke_stub+556)");
    ck_assert_str_eq(f.build_id, "");
    ck_assert_uint_eq(f.function_off, 556);
}
END_TEST

START_TEST(tombstone_variants)
{
    tsym_tomb_frame f = tomb("12-01 10:20:30.123  4411  4411 F DEBUG   :       #05 pc 00001000  "
                             "/system/lib/libc.so (operator+(int)+12)");
    ck_assert_uint_eq(f.frame, 5);
    ck_assert_uint_eq(f.pc, 0x1000);
    ck_assert(eq(f.function, f.function_len, "operator+(int)"));
    ck_assert_uint_eq(f.function_off, 12);
    ck_assert_uint_eq(f.prefix_len, 49);

    f = tomb("  native: #00 pc 000000000004f2a4  /system/lib64/libc.so (syscall+28)");
    ck_assert_uint_eq(f.pc, 0x4f2a4);

    f = tomb("    #04 pc 0000000000001000  [anon:dalvik-main space (region space)]");
    ck_assert(eq(f.map, f.map_len, "[anon:dalvik-main space (region space)]"));
    ck_assert(!f.symbolicatable);

    f = tomb("    #07 pc 0000000000201a3c  /data/app/x/oat/arm64/base.odex (deleted)");
    ck_assert(f.deleted);
    ck_assert(!f.symbolicatable);

    f = tomb("    #08 pc 0000000000001000  /memfd:jit-cache (deleted) (Foo.bar+12)");
    ck_assert(!f.symbolicatable);

    tsym_tomb_frame g;
    const char *no[] = {"backtrace:", "#1 pc", "  #xx pc 1234  /a.so", "  #01 pc zz  /a.so",
                        "abc#01 pc 0000 /a.so", ""};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        ck_assert_int_eq(tsym_tombstone_parse(&g, no[i], strlen(no[i])), TT_ENOTFOUND);
}
END_TEST

START_TEST(addresses)
{
    uint64_t v;
    ck_assert_int_eq(tsym_addr_parse(&v, "4f2a4", 5), 0);
    ck_assert_uint_eq(v, 0x4f2a4);
    ck_assert_int_eq(tsym_addr_parse(&v, "0x4F2A4", 7), 0);
    ck_assert_uint_eq(v, 0x4f2a4);
    ck_assert_int_eq(tsym_addr_parse(&v, "ffffffffffffffff", 16), 0);
    ck_assert_uint_eq(v, UINT64_MAX);
    ck_assert_int_eq(tsym_addr_parse(&v, "1ffffffffffffffff", 17), TT_EFORMAT);
    ck_assert_int_eq(tsym_addr_parse(&v, "0x", 2), TT_EFORMAT);
    ck_assert_int_eq(tsym_addr_parse(&v, "12g", 3), TT_EFORMAT);
    ck_assert_int_eq(tsym_addr_parse(&v, "", 0), TT_EFORMAT);
}
END_TEST

START_TEST(module_offsets)
{
    const char *l = "at libfoo.so+0x1234 and (/path/libbar.so!0xabc), not abort+164 or x+0x";
    size_t pos = 0, n = strlen(l);
    tsym_modoff m;
    ck_assert_int_eq(tsym_modoff_next(&m, l, n, &pos), 0);
    ck_assert(eq(m.module, m.module_len, "libfoo.so"));
    ck_assert_uint_eq(m.offset, 0x1234);
    ck_assert_int_eq(tsym_modoff_next(&m, l, n, &pos), 0);
    ck_assert(eq(m.module, m.module_len, "/path/libbar.so"));
    ck_assert_uint_eq(m.offset, 0xabc);
    ck_assert_int_eq(tsym_modoff_next(&m, l, n, &pos), TT_ENOTFOUND);
}
END_TEST

START_TEST(perf_lines)
{
    tsym_perf_frame f;
    const char *l = "\t    7f12ab3c __libc_start_main+0x80 (/usr/lib/x86_64-linux-gnu/libc.so.6)";
    ck_assert_int_eq(tsym_perf_frame_parse(&f, l, strlen(l)), 0);
    ck_assert_uint_eq(f.addr, 0x7f12ab3c);
    ck_assert(eq(f.symbol, f.symbol_len, "__libc_start_main+0x80"));
    ck_assert(eq(f.dso, f.dso_len, "/usr/lib/x86_64-linux-gnu/libc.so.6"));
    l = "\t    401000 [unknown] ([unknown])";
    ck_assert_int_eq(tsym_perf_frame_parse(&f, l, strlen(l)), 0);
    ck_assert(eq(f.dso, f.dso_len, "[unknown]"));
    ck_assert(!f.deleted);
    /* a file deleted while perf recorded: the module is the path without the suffix */
    l = "\t    1162 foo(int, char) (/tmp/busy (deleted))";
    ck_assert_int_eq(tsym_perf_frame_parse(&f, l, strlen(l)), 0);
    ck_assert(eq(f.symbol, f.symbol_len, "foo(int, char)"));
    ck_assert(eq(f.dso, f.dso_len, "/tmp/busy"));
    ck_assert(f.deleted);
    l = "prog  4411 [000]     1.000100:     250000 cpu-clock:";
    ck_assert_int_eq(tsym_perf_frame_parse(&f, l, strlen(l)), TT_ENOTFOUND);
    /* one-line samples (perf record without -g): perf's fields left of the frame */
    static const char *const hdr[] = {
        "    busy  1519 22500.746955:     250000 cpu-clock:u:      5584f4374144 work+0x1b (/b)",
        "    busy  1519 cpu-clock:u:      5584f4374144 work (/b)",
        "    busy  1519 22500.746955:      5584f4374144 work (/b)",
        "    busy  6192/6192  [000] U     22535.519573:  250000 cpu-clock:u:  5584f4374144 w (/b)",
    };
    for (size_t i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
        ck_assert_int_eq(tsym_perf_frame_parse(&f, hdr[i], strlen(hdr[i])), 0);
        ck_assert(f.header);
        ck_assert_uint_eq(f.addr, 0x5584f4374144);
        ck_assert(eq(f.dso, f.dso_len, "/b"));
    }
    /* logcat lines with ": <hex> ... (...)" are no samples */
    static const char *const logcat[] = {
        ("11-28 09:58:04.200  4500  4500 F DEBUG   : tagged_addr_ctrl: 0000000000000001 "
         "(PR_TAGGED_ADDR_ENABLE)"),
        "11-28 09:58:04.150  4411  4411 F libc    : Check failed: fd >= 0 (fd=-1)",
    };
    for (size_t i = 0; i < sizeof logcat / sizeof logcat[0]; i++)
        ck_assert_int_eq(tsym_perf_frame_parse(&f, logcat[i], strlen(logcat[i])), TT_ENOTFOUND);

    tt_perf_mmap m;
    l = "prog 4411 [000] 1.0: PERF_RECORD_MMAP2 4411/4411: [0x7f0000001000(0x2000) @ 0x1000 "
        "08:01 1234 0]: r-xp /lib/libfx.so";
    ck_assert_int_eq(tt_perf_mmap_parse(&m, l, strlen(l)), 0);
    ck_assert_uint_eq(m.pid, 4411);
    ck_assert_uint_eq(m.start, 0x7f0000001000);
    ck_assert_uint_eq(m.len, 0x2000);
    ck_assert_uint_eq(m.pgoff, 0x1000);
    ck_assert(m.executable);
    ck_assert(eq(m.path, m.path_len, "/lib/libfx.so"));
    l = "prog 1 [000] 1.0: PERF_RECORD_MMAP 1/1: [0x400000(0x1000) @ 0]: x /bin/prog";
    ck_assert_int_eq(tt_perf_mmap_parse(&m, l, strlen(l)), 0);
    ck_assert_uint_eq(m.pgoff, 0);
    ck_assert(eq(m.path, m.path_len, "/bin/prog"));
    ck_assert(!m.deleted);
    l = "busy 0 0.0: PERF_RECORD_MMAP2 1/1: [0x559f73fd2000(0x1000) @ 0x1000 fe:00 11 0]: "
        "r-xp /tmp/busy (deleted)";
    ck_assert_int_eq(tt_perf_mmap_parse(&m, l, strlen(l)), 0);
    ck_assert(eq(m.path, m.path_len, "/tmp/busy"));
    ck_assert(m.deleted);
    l = "PERF_RECORD_MMAP2 4411/4411: [0x7f(";
    ck_assert_int_eq(tt_perf_mmap_parse(&m, l, strlen(l)), TT_ENOTFOUND);
}
END_TEST

/* the libtrace hook with a fake resolver (STYLE.md section 2) */
static int fake(void *ctx, tt_native_frame *frames, size_t cap, const tt_native_loc *loc,
                tt_error *err)
{
    (void)err;
    int *calls = ctx;
    (*calls)++;
    if (cap < 2 || loc->addr_kind != TT_NADDR_OFFSET)
        return TT_EINVAL;
    frames[0] = (tt_native_frame){.function = "leaf", .file = "b.c", .line = 3, .inlined = 1};
    frames[1] = (tt_native_frame){.function = "top", .file = "b.c", .line = 9};
    return 2;
}

START_TEST(resolver_hook)
{
    tt_native_frame fr[4];
    tt_native_loc loc = {"libfoo.so", NULL, 0x1154, TT_NADDR_OFFSET, 0, 0, 0, NULL};
    ck_assert_int_eq(tt_resolve(NULL, fr, 4, &loc, NULL), 0);
    tt_resolver none = {0};
    ck_assert_int_eq(tt_resolve(&none, fr, 4, &loc, NULL), 0);
    int calls = 0;
    tt_resolver r = {fake, &calls};
    ck_assert_int_eq(tt_resolve(&r, fr, 4, &loc, NULL), 2);
    ck_assert_str_eq(fr[0].function, "leaf");
    ck_assert(fr[0].inlined && !fr[1].inlined);
    ck_assert_int_eq(tt_resolve(&r, fr, 0, &loc, NULL), 0);
    ck_assert_int_eq(calls, 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sym_parse");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, tombstone_spec_lines);
    tcase_add_test(tc, tombstone_variants);
    tcase_add_test(tc, addresses);
    tcase_add_test(tc, module_offsets);
    tcase_add_test(tc, perf_lines);
    tcase_add_test(tc, resolver_hook);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
