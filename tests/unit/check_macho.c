/* libsym's Mach-O reader on the committed fixtures of tests/data/macho/ (built by
 * tests/gen/ios-fixtures.sh with clang-14, lld-14, dsymutil-14; spec/ios.md 12): slices,
 * UUIDs, the address model, dSYM lookup by UUID, the symbol-table fallback, DWARF 5 through
 * the object-access interface and hostile containers. */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "../../libsym/tsym_int.h"

#define FX "tests/data/macho/"

static void uuid_of(char *out, const char *file, size_t slice)
{
    tsym_macho_slice sl[4];
    size_t n = 0;
    tt_error err;
    ck_assert_int_eq(tsym_macho_slices(sl, 4, &n, file, &err), 0);
    ck_assert_uint_gt(n, slice);
    snprintf(out, 33, "%s", sl[slice].uuid);
}

START_TEST(slices)
{
    tsym_macho_slice sl[4];
    size_t n = 0;
    tt_error err;
    ck_assert_int_eq(tsym_macho_slices(sl, 4, &n, FX "fat", &err), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(sl[0].arch, "x86_64");
    ck_assert_str_eq(sl[1].arch, "arm64");
    ck_assert_uint_eq(sl[1].offset % 16384, 0);
    char app[33], dsym[33];
    uuid_of(app, FX "app", 0);
    uuid_of(dsym, FX "app.dSYM/Contents/Resources/DWARF/app", 0);
    ck_assert_str_eq(sl[1].uuid, app);
    ck_assert_str_eq(app, dsym);
    ck_assert_uint_eq(strlen(app), 32);
    ck_assert_int_eq(tsym_macho_slices(sl, 4, &n, FX "fat.dSYM/Contents/Resources/DWARF/fat", &err), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(sl[0].filetype, 0xA);
    ck_assert(sl[0].has_dwarf && sl[1].has_dwarf);
    ck_assert_int_eq(tsym_macho_slices(sl, 4, &n, FX "mini-fat64.macho", &err), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(sl[1].arch, "x86_64");
    char f[4096];
    ck_assert_int_eq(tsym_dsym_file(f, sizeof f, FX "Kit.framework.dSYM"), 0);
    ck_assert_str_eq(f, FX "Kit.framework.dSYM/Contents/Resources/DWARF/Kit");
}
END_TEST

/* The magic check: thin little-endian (and big-endian, to be refused clearly) headers, and
 * universal headers with 1 to 44 slices; 0xCAFEBABE followed by a Java class file's version
 * (minor 0, major 45 and up) is not Mach-O, nor a fat header without slices. */
START_TEST(magic)
{
    static const struct {
        unsigned char b[8];
        int want;
    } c[] = {
        {{0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0, 0, 0x01}, 1},  /* MH_MAGIC_64 */
        {{0xce, 0xfa, 0xed, 0xfe, 0x0c, 0, 0, 0}, 1},     /* MH_MAGIC */
        {{0xfe, 0xed, 0xfa, 0xcf, 0, 0, 0, 0}, 1},        /* big-endian */
        {{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2}, 1},        /* fat, 2 slices */
        {{0xca, 0xfe, 0xba, 0xbf, 0, 0, 0, 1}, 1},        /* fat64 */
        {{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 44}, 1},       /* the most slices */
        {{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0}, 0},        /* no slice */
        {{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 45}, 0},       /* Java 1.1 class file */
        {{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52}, 0},       /* Java 8 */
        {{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 64}, 0},       /* Java 20 */
        {{0xca, 0xfe, 0xba, 0xbe, 0, 3, 0, 45}, 0},       /* minor 3 */
        {{0x7f, 'E', 'L', 'F', 2, 1, 1, 0}, 0},           /* ELF */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        ck_assert_msg(tsym__macho_magic(c[i].b, 8) == c[i].want, "case %zu", i);
    /* a thin magic in fewer than 8 bytes is a truncated header, refused naming its size
     * (never passed over as "not Mach-O"); a universal one cannot hold its slice count */
    ck_assert(tsym__macho_magic(c[0].b, 7));
    ck_assert(tsym__macho_magic(c[0].b, 4));
    ck_assert(!tsym__macho_magic(c[0].b, 3));
    ck_assert(tsym__macho_magic(c[3].b, 7));
    ck_assert(!tsym__macho_magic(c[11].b, 7));
    /* the file check and the reader agree: a Java class file is not Mach-O */
    ck_assert(!tsym__macho_file(FX "hostile-java.class"));
    ck_assert(tsym__macho_file(FX "fat"));
    tsym__macho m;
    tt_error err;
    ck_assert_int_eq(tsym__macho_open_mem(&m, c[8].b, 8, "j", &err), TT_EFORMAT);
    ck_assert_msg(strstr(err.msg, "Java class"), "%s", err.msg);
    tsym__macho_close(&m);
}
END_TEST

/* The slice for an image without UUID by architecture (spec/ios.md 4.4): the same name,
 * else the same cpu_type, else none. */
START_TEST(pick_by_arch)
{
    tsym_macho_slice sl[4];
    size_t n = 0;
    tt_error err;
    ck_assert_int_eq(tsym_macho_slices(sl, 4, &n, FX "fat", &err), 0);
    ck_assert_int_eq(tsym_macho_pick(sl, n, "arm64"), 1);
    ck_assert_int_eq(tsym_macho_pick(sl, n, "arm64e"), 1);
    ck_assert_int_eq(tsym_macho_pick(sl, n, "x86_64h"), 0);
    ck_assert_int_eq(tsym_macho_pick(sl, n, "cpu16777228.5"), 1);
    ck_assert_int_eq(tsym_macho_pick(sl, n, "armv7"), -1);
    ck_assert_int_eq(tsym_macho_pick(sl, n, "arm64_32"), -1);
    ck_assert_int_eq(tsym_macho_pick(sl, n, "cpu12"), -1);
    ck_assert_int_eq(tsym_macho_pick(sl, n, ""), -1);
    ck_assert_int_eq(tsym_macho_pick(sl, n, NULL), -1);
}
END_TEST

/* One --dsym argument opened once (tsym_dsym_open): NAME=, :ARCH, the bundle's DWARF file,
 * its slices; a directory of dSYMs; the errors of a missing file and an absent slice. */
START_TEST(dsym_arg)
{
    tsym_dsym *d;
    tt_error err;
    ck_assert_int_eq(tsym_dsym_open(&d, "MyApp=" FX "fat.dSYM:arm64", &err), 0);
    ck_assert_str_eq(d->name, "MyApp");
    ck_assert_str_eq(d->path, FX "fat.dSYM");
    ck_assert_str_eq(d->arch, "arm64");
    ck_assert_str_eq(d->file, FX "fat.dSYM/Contents/Resources/DWARF/fat");
    ck_assert_uint_eq(d->n_slices, 2);
    ck_assert_str_eq(d->slices[1].arch, "arm64");
    ck_assert(!d->dir);
    tsym_dsym_free(d);
    ck_assert_int_eq(tsym_dsym_open(&d, FX "app", &err), 0); /* a thin image, no NAME */
    ck_assert_ptr_null(d->name);
    ck_assert_str_eq(d->arch, "");
    ck_assert_uint_eq(d->n_slices, 1);
    tsym_dsym_free(d);
    ck_assert_int_eq(tsym_dsym_open(&d, "A=" FX, &err), 0); /* a directory of them */
    ck_assert(d->dir);
    ck_assert_ptr_null(d->file);
    ck_assert_uint_eq(d->n_slices, 0);
    tsym_dsym_free(d);
    ck_assert_int_eq(tsym_dsym_open(&d, "MyApp=" FX "app.dSYM:x86_64", &err), TT_ENOTFOUND);
    ck_assert_ptr_null(d);
    ck_assert_str_eq(err.msg, "no slice for architecture x86_64 (slices: arm64 (ios 14.0 sdk "
                              "14.0))");
    ck_assert_int_eq(tsym_dsym_open(&d, FX "app:arm64", &err), TT_ENOTFOUND); /* no NAME= */
    ck_assert_int_eq(tsym_dsym_open(&d, "N=" FX "nosuch:arm64", &err), TT_ENOTFOUND);
    ck_assert_str_eq(err.file, FX "nosuch:arm64");
    ck_assert_int_eq(tsym_dsym_open(&d, FX "hostile-short.macho", &err), TT_EFORMAT);
    ck_assert_ptr_null(d);
    /* a file given that is not Mach-O is refused with its defect, never passed over */
    ck_assert_int_eq(tsym_dsym_open(&d, FX "m5.elf", &err), TT_EFORMAT);
    ck_assert_ptr_null(d);
    ck_assert_str_eq(err.file, FX "m5.elf");
    ck_assert_msg(strstr(err.msg, "not a Mach-O file"), "%s", err.msg);
}
END_TEST

/* FILE:ARCH with FILE an existing file that is not Mach-O is still meant as Mach-O (its
 * open names the defect); an unknown ARCH or a missing FILE is not. */
START_TEST(split_arch)
{
    char f[4096], a[32];
    ck_assert(tsym__macho_split(f, sizeof f, a, sizeof a, FX "app:arm64"));
    ck_assert_str_eq(a, "arm64");
    ck_assert(tsym__macho_split(f, sizeof f, a, sizeof a, FX "m5.elf:arm64"));
    ck_assert_str_eq(f, FX "m5.elf");
    ck_assert(!tsym__macho_split(f, sizeof f, a, sizeof a, FX "m5.elf:bogus"));
    ck_assert(!tsym__macho_split(f, sizeof f, a, sizeof a, FX "nosuch:arm64"));
    ck_assert(!tsym__macho_split(f, sizeof f, a, sizeof a, FX "m5.elf"));
}
END_TEST

/* The contract of the KSCrash importer's frames (tt_resolver): build_id = image UUID,
 * module = device path, addr = pc - image_addr as a module offset (spec/ios.md 4.2). */
START_TEST(resolver_contract)
{
    tsym_init();
    char uuid[33];
    uuid_of(uuid, FX "app", 0);
    const char *dirs[] = {FX};
    tsym_store *s;
    tt_error err = {0};
    ck_assert_int_eq(tsym_store_new(&s, dirs, 1, NULL, &err), 0);
    tsym_module *m;
    int fresh;
    ck_assert_int_eq(tsym_store_get(&m, &fresh, s,
                                    "/private/var/containers/Bundle/Application/X/MyApp.app/app",
                                    uuid, &err),
                     0);
    const tsym_module_info *i = tsym_module_info_get(m);
    ck_assert(i->macho);
    ck_assert_str_eq(i->build_id, uuid);
    ck_assert_str_eq(i->arch, "arm64");
    ck_assert_uint_eq(i->text_vmaddr, 0x100000000);
    ck_assert_ptr_nonnull(i->debug_path);
    ck_assert_ptr_nonnull(strstr(i->debug_path, ".dSYM/"));
    uint64_t v = tsym_module_offset_to_vaddr(m, 0x4050);
    ck_assert_uint_eq(v, 0x100004050);
    tsym_result r;
    tsym_module_lookup(&r, m, v, TSYM_F_DEMANGLE);
    ck_assert_uint_eq(r.n_frames, 2);
    ck_assert_str_eq(r.frames[0].function, "leaf");
    ck_assert_uint_eq(r.frames[0].line, 7);
    ck_assert_str_eq(r.frames[1].function, "mid");
    ck_assert_uint_eq(r.frames[1].line, 14);
    ck_assert_uint_eq(r.start_addr, 0x100004038);
    /* a dylib at __TEXT vmaddr 0: offset = vmaddr */
    uuid_of(uuid, FX "Kit", 0);
    ck_assert_int_eq(tsym_store_get(&m, &fresh, s, "@rpath/Kit.framework/Kit", uuid, &err), 0);
    ck_assert_uint_eq(tsym_module_offset_to_vaddr(m, 0x4030), 0x4030);
    tsym_module_lookup(&r, m, 0x4030, TSYM_F_DEMANGLE);
    ck_assert_str_eq(r.frames[r.n_frames - 1].function, "ns::Acc<long>::total(int) const");
    ck_assert_uint_gt(tsym_module_info_get(m)->n_cus, 0);
    /* an unknown UUID */
    ck_assert_int_eq(tsym_store_get(&m, &fresh, s, "/x/Other", "00112233445566778899aabbccddeeff",
                                    &err),
                     TT_ENOTFOUND);
    tsym_store_free(s);
}
END_TEST

START_TEST(fat_selection)
{
    tsym_init();
    tsym_module *m = NULL;
    tt_error err = {0};
    ck_assert_int_eq(tsym_module_open(&m, FX "fat", NULL, &err), TT_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.msg, "slices: x86_64 (iossimulator 14.0 sdk 14.0), arm64 "
                                          "(ios 14.0 sdk 14.0)"));
    ck_assert_int_eq(tsym_module_open(&m, FX "fat:armv7", NULL, &err), TT_ENOTFOUND);
    ck_assert_int_eq(tsym_module_open(&m, FX "fat:x86_64", NULL, &err), 0);
    ck_assert_str_eq(tsym_module_info_get(m)->arch, "x86_64");
    tsym_module_free(m);
    /* the fat dSYM's slice is chosen by the image's UUID */
    ck_assert_int_eq(tsym_module_open_arch(&m, FX "fat", "arm64", FX "fat.dSYM", &err), 0);
    tsym_result r;
    tsym_module_lookup(&r, m, 0x100004050, 0);
    ck_assert_uint_eq(r.n_frames, 2);
    ck_assert_str_eq(r.frames[0].function, "leaf");
    tsym_module_free(m);
    /* a dSYM with another UUID is refused and both UUIDs are named */
    ck_assert_int_eq(tsym_module_open_arch(&m, FX "app_x", NULL, FX "Kit.framework.dSYM", &err),
                     TT_EFORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "has UUID"));
    ck_assert_ptr_nonnull(strstr(err.msg, "image has"));
}
END_TEST

/* LC_BUILD_VERSION and LC_VERSION_MIN_IPHONEOS (spec/ios.md 5.3), and one that overruns */
START_TEST(platform)
{
    tsym_init();
    tsym_module *m = NULL;
    tt_error err = {0};
    ck_assert_int_eq(tsym_module_open(&m, FX "mini-swift.macho", NULL, &err), 0);
    ck_assert_str_eq(tsym_module_info_get(m)->platform, "ios 14.0 sdk 16.4");
    tsym_module_free(m);
    ck_assert_int_eq(tsym_module_open(&m, FX "mini-vmin.macho", NULL, &err), 0);
    ck_assert_str_eq(tsym_module_info_get(m)->platform, "ios 12.1 sdk 16.4");
    tsym_module_free(m);
    ck_assert_int_eq(tsym_module_open(&m, FX "mini-arm64.macho", NULL, &err), 0);
    ck_assert_str_eq(tsym_module_info_get(m)->platform, "");
    tsym_module_free(m);
    ck_assert_int_eq(tsym_module_open(&m, FX "hostile-buildversion.macho", NULL, &err),
                     TT_EFORMAT);
    ck_assert_uint_eq(err.loc, 0xfc);
}
END_TEST

START_TEST(symtab_fallback)
{
    tsym_init();
    tsym_module *m = NULL;
    tt_error err = {0};
    ck_assert_int_eq(tsym_module_open(&m, FX "app_x", NULL, &err), 0);
    const tsym_module_info *i = tsym_module_info_get(m);
    ck_assert(i->symtab_only);
    tsym_result r;
    tsym_module_lookup(&r, m, 0x100004040, 0); /* llvm-nm: 100004038 T _mid */
    ck_assert(r.found && r.approximate);
    ck_assert_str_eq(r.frames[0].function, "mid");
    ck_assert_uint_eq(r.start_addr, 0x100004038);
    tsym_module_lookup(&r, m, 0x1000040a0, 0); /* -[Foo baz]: local, stripped */
    ck_assert(!r.found);
    ck_assert(r.has_start); /* LC_FUNCTION_STARTS still knows where it begins */
    ck_assert_uint_eq(r.start_addr, 0x10000409c);
    tsym_module_free(m);
    /* the unstripped binary: ObjC methods keep their names, one '_' removed elsewhere */
    ck_assert_int_eq(tsym_module_open_arch(&m, FX "app", NULL, NULL, &err), 0);
    tsym_module_lookup(&r, m, 0x1000040a0, TSYM_F_SYMBOL_NAMES);
    ck_assert_str_eq(r.symbol, "-[Foo baz]");
    tsym_module_lookup(&r, m, 0x100004110, TSYM_F_SYMBOL_NAMES | TSYM_F_DEMANGLE);
    ck_assert_str_eq(r.symbol, "ns::Acc<long>::total(int) const");
    tsym_module_free(m);
}
END_TEST

START_TEST(dwarf5_and_32bit)
{
    tsym_init();
    tsym_module *m = NULL;
    tt_error err = {0};
    ck_assert_int_eq(tsym_module_open(&m, FX "d5.dSYM", NULL, &err), 0);
    tsym_result r;
    tsym_module_lookup(&r, m, 0x1000103e4, 0);
    ck_assert(r.found);
    ck_assert_str_eq(r.frames[r.n_frames - 1].function, "top");
    ck_assert_uint_eq(r.frames[r.n_frames - 1].line, 19);
    ck_assert_str_eq(tsym_module_info_get(m)->build_id, "5a5a5a5a000040008000000000000005");
    tsym_module_free(m);
    ck_assert_int_eq(tsym_module_open(&m, FX "armv7-dsym.macho", NULL, &err), 0);
    ck_assert_int_eq(tsym_module_info_get(m)->elf_class, 32);
    ck_assert_str_eq(tsym_module_info_get(m)->arch, "armv7");
    ck_assert_uint_eq(tsym_module_offset_to_vaddr(m, 0x10), 0x4010);
    tsym_module_free(m);
}
END_TEST

/* A Swift unit (spec/ios.md 7): the function name stays the linkage name (the key), the
 * qualified DW_AT_name is beside it, whichever way the DWARF nests the declaration:
 * a definition by DW_AT_specification before and after its declaration, a definition inside
 * its type, a declaration in an enum, a function of the module, an inlined one. */
START_TEST(swift_qualified)
{
    static const struct {
        uint64_t addr;
        const char *fn, *q;
    } want[] = {
        {0x100004000, "$s5MyApp4ViewC5InnerV2goyyF", "MyApp.View.Inner.go"},
        {0x100004008, "$s5MyApp4ViewC4loadyyF", "MyApp.View.load"},
        {0x100004014, "$s5MyApp5ModelV4saveyyF", "MyApp.Model.save"},
        {0x10000401c, "$s5MyApp4ModeO4nextACyF", "MyApp.Mode.next"},
        {0x100004024, "$s5MyApp3runyyF", "MyApp.run"},
        {0x10000402c, "main", NULL},
    };
    tsym_init();
    tsym_module *m = NULL;
    tt_error err = {0};
    ck_assert_int_eq(tsym_module_open(&m, FX "swiftapp.dSYM", NULL, &err), 0);
    tsym_result r;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        tsym_module_lookup(&r, m, want[i].addr, TSYM_F_DEMANGLE);
        ck_assert_uint_eq(r.n_frames, 1);
        ck_assert_str_eq(r.frames[0].function, want[i].fn);
        if (want[i].q)
            ck_assert_str_eq(r.frames[0].qualified, want[i].q);
        else
            ck_assert_ptr_null(r.frames[0].qualified);
    }
    tsym_module_lookup(&r, m, 0x10000400c, 0); /* Model.helper inlined into View.load */
    ck_assert_uint_eq(r.n_frames, 2);
    ck_assert_str_eq(r.frames[0].function, "$s5MyApp5ModelV6helperyyF");
    ck_assert_str_eq(r.frames[0].qualified, "MyApp.Model.helper");
    ck_assert_str_eq(r.frames[1].qualified, "MyApp.View.load");
    ck_assert_int_eq(tsym_swift_mangled(r.frames[0].function), 1);
    ck_assert_int_eq(tsym_swift_mangled("_$s5MyApp3runyyF"), 1);
    ck_assert_int_eq(tsym_swift_mangled("_ZN2ns3fooEv"), 0);
    tsym_module_free(m);
    /* the binary alone: symbol-table names only, shown mangled */
    ck_assert_int_eq(tsym_module_open(&m, FX "swiftapp", NULL, &err), 0);
    tsym_module_lookup(&r, m, 0x100004008, 0);
    ck_assert_str_eq(r.frames[0].function, "$s5MyApp4ViewC4loadyyF");
    ck_assert_ptr_null(r.frames[0].qualified);
    tsym_module_free(m);
}
END_TEST

/* Every prefix of a valid thin and fat file: an error with a byte offset or a clean parse,
 * never a read outside the buffer (ASan and the fork mode catch that). */
START_TEST(truncations)
{
    FILE *f = fopen(FX "mini-fat64.macho", "rb");
    ck_assert_ptr_nonnull(f);
    static unsigned char buf[16384];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ck_assert_uint_gt(n, 4096);
    for (size_t len = 0; len <= n; len += len < 600 ? 1 : 97) {
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, buf, len);
        tsym__macho m;
        tt_error err = {0};
        int rc = tsym__macho_open_mem(&m, copy, len, "mem", &err);
        if (rc)
            ck_assert_int_eq(err.loc_kind, TT_LOC_OFFSET);
        for (size_t i = 0; !rc && i < m.n_slices; i++) {
            if (tsym__macho_select(&m, i, &err)) {
                ck_assert_int_eq(err.loc_kind, TT_LOC_OFFSET);
                continue;
            }
            tsym__index ix = {0};
            tt_vec_init(&ix.syms, sizeof(tsym__sym));
            tt_vec_init(&ix.loads, sizeof(tsym__load));
            ck_assert_int_eq(tsym__macho_syms(&ix, &m, &err), 0);
            tsym__index_free(&ix);
        }
        tsym__macho_close(&m);
        free(copy);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("macho");
    TCase *tc = tcase_create("fixtures");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, slices);
    tcase_add_test(tc, magic);
    tcase_add_test(tc, pick_by_arch);
    tcase_add_test(tc, dsym_arg);
    tcase_add_test(tc, split_arch);
    tcase_add_test(tc, resolver_contract);
    tcase_add_test(tc, fat_selection);
    tcase_add_test(tc, symtab_fallback);
    tcase_add_test(tc, platform);
    tcase_add_test(tc, dwarf5_and_32bit);
    tcase_add_test(tc, swift_qualified);
    tcase_add_test(tc, truncations);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
