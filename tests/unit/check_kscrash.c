/* KSCrash / Matrix iOS reports (ios.md 2-4, 9.2): detection, the 2.2 big-integer rewrite,
 * the 3.1 point-stack rule, images, PAC, 4.3 adjustment, threads, profile trees, JSON. */
#include "unit.h"

#include <jansson.h>

#include "../../libtrace/tt_kscrash.h"
#include "../../libtrace/kscrash_int.h"

/* ---- fake resolver: records every lookup, names frames of build id "aa..." ---- */
typedef struct fake {
    tt_native_loc locs[64];
    char mods[64][80];
    size_t n;
} fake;

static int fake_fn(void *ctx, tt_native_frame *frames, size_t cap, const tt_native_loc *loc,
                   tt_error *err)
{
    fake *f = ctx;
    if (f->n < 64) {
        f->locs[f->n] = *loc;
        snprintf(f->mods[f->n], sizeof f->mods[0], "%s", loc->module ? loc->module : "");
        f->n++;
    }
    if (!loc->build_id || strcmp(loc->build_id, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
        return tt_error_set(err, TT_ENOTFOUND, loc->module, 0, 0, "no dSYM");
    ck_assert_uint_ge(cap, 2);
    frames[0] = (tt_native_frame){.function = "leaf", .file = "/src/m.c", .line = 2, .column = 3,
                                  .inlined = 1};
    frames[1] = (tt_native_frame){.function = "mid", .file = "/src/m.c", .line = 7, .column = 1};
    return 2;
}

#define IMG_APP                                                                              \
    "{\"image_addr\":4341366784,\"image_vmaddr\":4294967296,\"image_size\":65536,"            \
    "\"name\":\"/var/X/MyApp.app/MyApp\",\"uuid\":\"AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA\","  \
    "\"cpu_type\":16777228,\"cpu_subtype\":0}"
#define IMG_SYS                                                                              \
    "{\"image_addr\":6762921984,\"image_vmaddr\":6762921984,\"image_size\":1048576,"          \
    "\"name\":\"/System/UIKitCore\",\"uuid\":null,\"cpu_type\":16777228,"                     \
    "\"cpu_subtype\":-2147483646}"

/* HandledThread + main thread + monitor; pcs: app+0x4016 (frame 0), app+0x4056 | PAC,
 * a system frame, a pc in no image. Registers hold 2^64-1 and 2^63. */
static const char LAG[] =
    "{\"report\":{\"id\":\"R1\",\"timestamp\":1709374831,\"type\":\"standard\"},"
    "\"binary_images\":[" IMG_SYS "," IMG_APP "],"
    "\"system\":{\"system_name\":\"iOS\",\"cpu_arch\":\"arm64\",\"CFBundleExecutable\":\"MyApp\"},"
    "\"crash\":{\"error\":{\"type\":\"user\",\"user_reported\":{\"dump_type\":2001}},"
    "\"threads\":["
    "{\"name\":\"HandledThread\",\"index\":0,\"backtrace\":{\"contents\":["
    "{\"instruction_addr\":4341383190,\"repeat_count\":17},"
    "{\"instruction_addr\":9952392230876758102,\"repeat_count\":20}]}},"
    "{\"index\":0,\"dispatch_queue\":\"com.apple.main-thread\",\"backtrace\":{\"contents\":["
    "{\"instruction_addr\":6762922000},{\"instruction_addr\":\"0x10\"}]},"
    "\"registers\":{\"basic\":{\"x0\":18446744073709551615,\"x1\":9223372036854775808}}},"
    "{\"index\":3,\"crashed\":true,\"backtrace\":{\"contents\":[{\"instruction_addr\":\"zz\"}]}}],"
    "\"threads_profile\":[{\"profile\":{\"stack_string\":["
    "{\"instruction_address\":4341383252,\"sample\":3,\"child\":["
    "{\"instruction_address\":4341383300,\"sample\":1},"
    "{\"instruction_address\":4341383200,\"sample\":1},"
    "{\"instruction_address\":4341383190,\"sample\":2}]}]},\"index\":0}]}}";

typedef struct rd {
    tt_input *in;
    tt_ks_reader *r;
    tt_stats *st;
    tt_error err;
    fake fk;
    tt_resolver res;
} rd;

static void rd_open_fast(rd *g, const char *s, size_t n, int no_adjust, int fast)
{
    memset(g, 0, sizeof *g);
    g->in = unit_mem("ios.json", s, n);
    g->st = tt_stats_new();
    g->res = (tt_resolver){fake_fn, &g->fk};
    tt_ks_opts o = {.resolver = &g->res, .no_adjust = no_adjust, .no_image_json = fast};
    ck_assert_int_eq(tt_ks_reader_new(&g->r, g->in, &o, g->st, &g->err), 0);
}

static void rd_open(rd *g, const char *s, size_t n, int no_adjust)
{
    rd_open_fast(g, s, n, no_adjust, 0);
}

static void rd_close(rd *g)
{
    tt_ks_reader_free(g->r);
    tt_input_close(g->in);
    tt_stats_free(g->st);
}

static int64_t stat_of(const tt_stats *st, const char *name)
{
    for (size_t i = 0; i < tt_stats_count(st); i++)
        if (!strcmp(tt_stats_get(st, i)->name, name))
            return tt_stats_get(st, i)->count;
    return 0;
}

START_TEST(point_stack_ring_example)
{
    /* ios.md 3.1: A B M / C B M / C B M / C D M / E M / E M -> [C D M], 3 1 6 */
    enum { A = 1, B, C, D, E, M };
    const uint64_t s0[] = {A, B, M}, s1[] = {C, B, M}, s2[] = {C, B, M}, s3[] = {C, D, M},
                   s4[] = {E, M}, s5[] = {E, M};
    const uint64_t *st[] = {s0, s1, s2, s3, s4, s5};
    size_t lens[] = {3, 3, 3, 3, 2, 2}, chosen;
    int64_t rep[3];
    ck_assert_int_eq(tt_ks_point_select(&chosen, rep, st, lens, 6), 0);
    ck_assert_uint_eq(chosen, 3);
    ck_assert_int_eq(rep[0], 3);
    ck_assert_int_eq(rep[1], 1);
    ck_assert_int_eq(rep[2], 6);
    /* no repeats at all: the newest sample; ties go to the newest */
    const uint64_t *st2[] = {s0, s3, s4};
    size_t l2[] = {3, 3, 2};
    ck_assert_int_eq(tt_ks_point_select(&chosen, rep, st2, l2, 3), 0);
    ck_assert_uint_eq(chosen, 2);
    const uint64_t *st3[] = {s1, s2, s4, s5};
    size_t l3[] = {3, 3, 2, 2};
    ck_assert_int_eq(tt_ks_point_select(&chosen, rep, st3, l3, 4), 0);
    ck_assert_uint_eq(chosen, 3);
}
END_TEST

START_TEST(rewrite_big_numbers)
{
    const char in[] = "{\"a\":18446744073709551615,\"b\":9223372036854775808,"
                      "\"c\":9223372036854775807,\"d\":18446744073709551616,"
                      "\"e\":-9223372036854775808,\"f\":1.8446744073709551615e19,"
                      "\"s\":\"18446744073709551615 \\\" 9223372036854775808\"}";
    char *out;
    size_t n;
    uint64_t rw, ov;
    ck_assert_int_eq(tt_ks_rewrite_big(&out, &n, in, strlen(in), &rw, &ov), 0);
    ck_assert_str_eq(out, "{\"a\":-1,\"b\":-9223372036854775808,\"c\":9223372036854775807,"
                          "\"d\":0,\"e\":-9223372036854775808,\"f\":1.8446744073709551615e19,"
                          "\"s\":\"18446744073709551615 \\\" 9223372036854775808\"}");
    ck_assert_uint_eq(rw, 2);
    ck_assert_uint_eq(ov, 1);
    ck_assert_uint_eq(n, strlen(out));
    free(out);
}
END_TEST

START_TEST(detect_and_names)
{
    const char *yes[] = {"{\"report\":{},\"crash\":{}}", " [{\"report\":{},\"binary_images\":[]}]",
                         "{\"stack_string\":[]}"};
    const char *no[] = {"{\"tag\":\"Trace_EvilMethod\"}", "report crash", "{\"report\":1}"};
    for (size_t i = 0; i < 3; i++) {
        ck_assert_int_eq(tt_ks_detect((const unsigned char *)yes[i], strlen(yes[i])), 1);
        ck_assert_int_eq(tt_ks_detect((const unsigned char *)no[i], strlen(no[i])), 0);
    }
    ck_assert_int_eq(tt_detect((const unsigned char *)yes[0], strlen(yes[0])), TT_KIND_KSCRASH);
    ck_assert_str_eq(tt_kind_name(TT_KIND_KSCRASH), "kscrash");
    ck_assert_str_eq(tt_ks_arch_name(0x0100000C, -2147483646), "arm64e");
    ck_assert_str_eq(tt_ks_arch_name(0x0100000C, 0), "arm64");
    ck_assert_str_eq(tt_ks_arch_name(12, 11), "armv7s");
    ck_assert_str_eq(tt_ks_arch_name(0x01000007, 8), "x86_64h");
    ck_assert_ptr_null(tt_ks_arch_name(99, 0));
    ck_assert_str_eq(tt_ks_dump_type_name(2002), "BackgroundMainThreadBlock");
    ck_assert_int_eq(tt_ks_dump_type_is_lag(2010), 1);
    ck_assert_int_eq(tt_ks_dump_type_is_lag(2003), 0);
}
END_TEST

/* an .ips: a one-line header whose TOP-LEVEL keys hold bug_type and os_version, then the
 * report; "bug_type" anywhere else (a one-line KSCrash report's user data) is no .ips */
START_TEST(apple_ips_header)
{
    const char *yes[] = {
        "{\"bug_type\":\"309\",\"os_version\":\"iPhone OS 16.3\"}\n{\n \"uptime\" : 1\n}\n",
        "\xEF\xBB\xBF {\"a\":{\"x\":[1,\"}\"]},\"os_version\":\"16\",\"bug_type\":\"109\"}\r\n"
        "Incident Identifier: X\n",
    };
    const char *no[] = {
        /* a one-line KSCrash report with system.os_version and a nested bug_type, alone and
         * followed by a second one (JSON lines) */
        "{\"report\":{},\"system\":{\"os_version\":\"20D47\"},\"user\":{\"bug_type\":1},"
        "\"crash\":{}}\n",
        "{\"report\":{},\"system\":{\"os_version\":\"20D47\"},\"user\":{\"bug_type\":1},"
        "\"crash\":{}}\n{\"report\":{},\"crash\":{}}\n",
        /* as a value, or in a string */
        "{\"os_version\":\"1\",\"k\":\"bug_type\",\"m\":\"\\\"bug_type\\\":1\"}\n{}\n",
        /* the header alone, a header not closed on its line, a cut one */
        "{\"bug_type\":\"309\",\"os_version\":\"16\"}\n",
        "{\"bug_type\":\"309\",\n\"os_version\":\"16\"}\n{}\n",
        "{\"bug_type\":\"309\",\"os_version\":\"16",
        /* top-level report and crash: a KSCrash report whatever else it holds */
        "{\"bug_type\":1,\"os_version\":1,\"report\":{},\"crash\":{}}\n{}\n",
    };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        ck_assert_str_eq(tt_detect_apple_crash((const unsigned char *)yes[i], strlen(yes[i])),
                         "an Apple crash report (.ips)");
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        ck_assert_msg(!tt_detect_apple_crash((const unsigned char *)no[i], strlen(no[i])),
                      "case %zu", i);
}
END_TEST

START_TEST(lag_dump_model)
{
    rd g;
    rd_open(&g, LAG, sizeof LAG - 1, 0);
    const tt_ks_report *r;
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_str_eq(r->id, "R1");
    ck_assert_int_eq(r->unix_ms, INT64_C(1709374831000));
    ck_assert_str_eq(r->dump_name, "MainThreadBlock");
    ck_assert_int_eq(r->is_lag, 1);
    /* images sorted by load address; UUID normalised; null UUID -> "" */
    ck_assert_uint_eq(r->n_images, 2);
    ck_assert_str_eq(r->images[0].name, "MyApp");
    ck_assert_str_eq(r->images[0].uuid, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    ck_assert_int_eq(r->images[0].is_app, 1);
    ck_assert_str_eq(r->images[1].uuid, "");
    ck_assert_str_eq(r->images[1].arch, "arm64e");
    /* threads: point (HandledThread), main by dispatch queue, crashed */
    ck_assert_int_eq(r->point_thread, 0);
    ck_assert_int_eq(r->main_thread, 1);
    ck_assert_int_eq(r->crashed_thread, 2);
    ck_assert_uint_eq(r->threads[2].n_frames, 0); /* its one frame was unusable */
    ck_assert_int_eq(stat_of(g.st, "kscrash_bad_frame"), 1);
    /* frame 0: the pc itself; frame 1: PAC bits stripped, a return address */
    const tt_ks_frame *f0 = &r->frames[0], *f1 = &r->frames[1];
    ck_assert_int_eq(f0->repeat, 17);
    ck_assert_uint_eq(f0->offset, 0x4016);
    ck_assert_uint_eq(f0->lookup, 0x4016);
    ck_assert_int_eq(f1->pac, 1);
    ck_assert_uint_eq(f1->offset, 0x4056);
    ck_assert_uint_eq(f1->lookup, 0x4053); /* (pc & ~3) - 1 */
    ck_assert_int_eq(stat_of(g.st, "kscrash_pac_stripped"), 1);
    ck_assert_uint_eq(g.fk.locs[0].addr, 0x4016);
    ck_assert_int_eq(g.fk.locs[0].return_address, 0);
    ck_assert_int_eq(g.fk.locs[0].addr_kind, TT_NADDR_OFFSET);
    ck_assert_str_eq(g.fk.locs[0].build_id, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    ck_assert_str_eq(g.fk.mods[0], "/var/X/MyApp.app/MyApp");
    ck_assert_uint_eq(g.fk.locs[1].addr, 0x4054);
    ck_assert_int_eq(g.fk.locs[1].return_address, 1);
    /* symbol chains: innermost first */
    ck_assert_uint_eq(f0->n_sym, 2);
    ck_assert_str_eq(r->syms[f0->sym].function, "leaf");
    ck_assert_int_eq(r->syms[f0->sym].inlined, 1);
    /* system image without UUID: the resolver refused it; a pc in no image */
    const tt_ks_frame *s = &r->frames[2];
    ck_assert_int_eq(s->image, 1);
    ck_assert_int_lt(s->resolve_err, 0);
    ck_assert_uint_eq(s->n_sym, 0);
    ck_assert_int_eq(r->frames[3].image, -1);
    ck_assert_int_eq(stat_of(g.st, "kscrash_no_image"), 1);
    /* the registers and the PAC pc needed the 2.2 rewrite */
    ck_assert_int_eq(stat_of(g.st, "kscrash_big_uint_rewritten"), 3); /* + the PAC pc */
    /* profile: children sorted by sample desc, then address; self = sample - children */
    ck_assert_uint_eq(r->n_nodes, 4);
    ck_assert_int_eq(r->nodes[0].self, 0);
    ck_assert_int_eq(r->nodes[1].sample, 2);
    ck_assert_uint_eq(r->frames[r->nodes[2].frame].offset, 0x4020);
    ck_assert_uint_eq(r->frames[r->nodes[3].frame].offset, 0x4084);
    ck_assert_int_eq(r->nodes[3].parent, 0);
    ck_assert_int_eq(stat_of(g.st, "ios_profile_negative_self"), 1); /* 2+1+1 > 3 */
    ck_assert_int_eq(r->frames[r->nodes[0].frame].is_return, 1);
    ck_assert_int_eq(r->frames[r->nodes[1].frame].is_return, 0);
    /* symbolicated JSON: valid, exact unsigned registers, frames annotated */
    tt_buf b = {0};
    tt_ks_json_write(&b, g.r, r, "\"group_key\":\"k\"");
    tt_buf_put(&b, "", 1);
    json_error_t je;
    json_t *j = json_loads(b.data, JSON_DECODE_INT_AS_REAL, &je);
    ck_assert_ptr_nonnull(j);
    json_decref(j);
    ck_assert_ptr_nonnull(strstr(b.data, "\"x0\":18446744073709551615,"));
    ck_assert_ptr_nonnull(strstr(b.data, "\"x1\":9223372036854775808}"));
    ck_assert_ptr_nonnull(strstr(b.data, "\"repeat_count\":17,\"tt_module\":{\"name\":\"MyApp\""));
    ck_assert_ptr_nonnull(strstr(b.data, "\"FunctionName\":\"leaf\""));
    ck_assert_ptr_nonnull(strstr(b.data, "\"tt\":{\"group_key\":\"k\"}}"));
    tt_buf_free(&b);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), TT_DONE);
    rd_close(&g);
}
END_TEST

START_TEST(no_adjust)
{
    rd g;
    rd_open(&g, LAG, sizeof LAG - 1, 1);
    const tt_ks_report *r;
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_uint_eq(g.fk.locs[1].addr, 0x4056);
    ck_assert_int_eq(g.fk.locs[1].return_address, 0);
    rd_close(&g);
}
END_TEST

START_TEST(batches_and_errors)
{
    /* JSON lines: a good report, a bad one (skipped, counted), an array of two */
    const char s[] = "{\"report\":{\"id\":\"a\",\"timestamp\":1709374831123456},\"crash\":{}}\n"
                     "{\"nothing\":1}\n"
                     "[{\"stack_string\":[]},{\"report\":{\"id\":\"c\",\"timestamp\":1709374831123},"
                     "\"binary_images\":[]}]\n";
    rd g;
    rd_open(&g, s, sizeof s - 1, 0);
    const tt_ks_report *r;
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_str_eq(r->id, "a");
    ck_assert_int_eq(r->unix_ms, INT64_C(1709374831123)); /* microseconds */
    ck_assert_int_eq(r->main_thread, -1);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_int_eq(r->shape, TT_KS_PROFILE);
    ck_assert_int_eq(stat_of(g.st, "kscrash_bad_report"), 1);
    ck_assert_ptr_nonnull(strstr(tt_ks_reader_warning(g.r), ":2: report 2 skipped"));
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_str_eq(r->id, "c");
    ck_assert_int_eq(r->unix_ms, INT64_C(1709374831123)); /* milliseconds */
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), TT_DONE);
    rd_close(&g);
    /* invalid JSON after a good report (I8): skipped with its line, counted */
    const char t[] = "{\"stack_string\":[]}\n\n{\"report\":{\"id\":1,\n\"crash\":[}\n";
    rd_open(&g, t, sizeof t - 1, 0);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), TT_DONE);
    ck_assert_int_eq(stat_of(g.st, "kscrash_bad_report"), 1);
    ck_assert_ptr_nonnull(strstr(tt_ks_reader_warning(g.r), ":3: report 2 skipped: invalid JSON"));
    rd_close(&g);
    /* a cut-off line in JSON lines: reading goes on at the next line starting with '{' */
    const char t2[] = "{\"report\":{\"id\":\"x\n{\"report\":{\"id\":\"b\"},\"crash\":{}}\n";
    rd_open(&g, t2, sizeof t2 - 1, 0);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_str_eq(r->id, "b");
    ck_assert_uint_eq(r->line, 2);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), TT_DONE);
    rd_close(&g);
    /* ... but invalid JSON inside an array, or as the only report, is an error */
    const char t3[] = "[{\"stack_string\":[]},\n{\"report\":[}]\n";
    rd_open(&g, t3, sizeof t3 - 1, 0);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), TT_EFORMAT);
    ck_assert_uint_eq(g.err.loc, 2);
    rd_close(&g);
    const char t4[] = "{\"report\":{\"id\":1,\n\"crash\":[}\n";
    rd_open(&g, t4, sizeof t4 - 1, 0);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), TT_EFORMAT);
    ck_assert_uint_eq(g.err.loc, 2);
    rd_close(&g);
    /* a bare value running into a quote (`92"`): the image scanner must not end the report
     * at the brace inside the string that follows, so both readers give jansson the same
     * text and the same error (found by fuzz_kscrash) */
    const char u[] = "{\"binary_images\":[],\n\"crash\":92\"}],\n\"x\":1}\n";
    char msg[2][TT_ERRMSG_MAX];
    for (int fast = 0; fast < 2; fast++) {
        rd_open_fast(&g, u, sizeof u - 1, 0, fast);
        ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), TT_EFORMAT);
        ck_assert_uint_eq(g.err.loc, 2);
        snprintf(msg[fast], sizeof msg[fast], "%s", g.err.msg);
        rd_close(&g);
    }
    ck_assert_str_eq(msg[0], msg[1]);
}
END_TEST

START_TEST(main_thread_rules)
{
    /* no dispatch queue: the first index 0 that is not HandledThread; CPU dumps: none */
    const char s[] = "{\"report\":{},\"crash\":{\"threads\":[{\"name\":\"HandledThread\",\"index\":0},"
                     "{\"index\":2},{\"index\":0}]}}\n"
                     "{\"report\":{},\"crash\":{\"error\":{\"user_reported\":{\"dump_type\":2003}},"
                     "\"threads\":[{\"index\":0,\"cpu_usage\":80.5}]}}\n"
                     "{\"report\":{},\"crash\":{\"error\":{\"user_reported\":{\"dump_type\":4242}},"
                     "\"threads\":[{\"index\":0,\"dispatch_queue\":\"com.apple.main-thread\"},"
                     "{\"index\":0,\"dispatch_queue\":\"com.apple.main-thread\"}]}}\n";
    rd g;
    rd_open(&g, s, sizeof s - 1, 0);
    const tt_ks_report *r;
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_int_eq(r->main_thread, 2);
    ck_assert_int_eq(r->point_thread, 0);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_int_eq(r->main_thread, -1);
    ck_assert_int_eq(r->threads[0].has_cpu, 1);
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_int_eq(r->main_thread, 0); /* two queues named main: rule 2 */
    ck_assert_str_eq(r->dump_name, "dump_type_4242");
    ck_assert_int_eq(stat_of(g.st, "kscrash_unknown_dump_type"), 1);
    rd_close(&g);
}
END_TEST

/* ---- the whole-report fast path (kscrash_scan.c, I10) ---- */

static int scan(const char *s, uint64_t *big, tt_vec *nodes)
{
    tt_vec imgs;
    size_t end = 0;
    tt_vec_init(&imgs, sizeof(tt_ks_fimg));
    tt_vec_init(nodes, sizeof(tt_ks_jn));
    int rc = tt_ks__scan_report(nodes, &imgs, big, &end, s, strlen(s));
    if (rc == 1) {
        const char *t = s + end; /* the object ends where the text's last '}' is */
        ck_assert_int_eq(*t, 0);
    }
    tt_vec_free(&imgs);
    return rc;
}

START_TEST(scan_report_subset)
{
    tt_vec nodes;
    uint64_t big = 0;
    /* whitespace of every kind, nested unknown keys, escapes, numbers of every width */
    const char ok[] = " {\t\"a\" :\r\n{ \"b\" : [ 1 , \"x\\n\\\"\\/\" , { } , [ ] , null ,true,false ] } ,"
                      "\"n\":[0,-0,-5,123456789012345678,9223372036854775807,"
                      "9223372036854775808,18446744073709551615,1.5,-2e3,1E+2,0.25e-1],"
                      "\"binary_images\":[{\"image_addr\":18446744073709551615,\"image_size\":1}],"
                      "\"c\":{\"d\":{\"e\":{\"f\":[[[{}]]]}}}}";
    ck_assert_int_eq(scan(ok, &big, &nodes), 1);
    ck_assert_uint_eq(big, 3); /* two in "n", one in binary_images, as 2.2 counts them */
    const tt_ks_jn *n = nodes.data;
    ck_assert_int_eq(n[0].type, JSON_OBJECT);
    ck_assert_uint_eq(n[0].n, 4);
    const tt_ks_jn *a = &n[n[0].first], *b = &n[a->first], *x = &n[n[b->first].next];
    ck_assert_int_eq(b->type, JSON_ARRAY);
    ck_assert_uint_eq(b->n, 7);
    ck_assert_int_eq(x->type, JSON_STRING);
    ck_assert_int_eq(x->esc, 1);
    ck_assert_uint_eq(x->len, 7);
    const tt_ks_jn *nums = &n[a->next], *v = &n[nums->first];
    static const int64_t want[] = {0, 0, -5, INT64_C(123456789012345678), INT64_MAX, INT64_MIN, -1};
    for (size_t i = 0; i < 7; i++, v = &n[v->next]) {
        ck_assert_int_eq(v->type, JSON_INTEGER);
        ck_assert_int_eq(v->v.i, want[i]);
    }
    static const double reals[] = {1.5, -2000, 100, 0.025};
    for (size_t i = 0; i < 4; i++, v = &n[v->next]) {
        ck_assert_int_eq(v->type, JSON_REAL);
        ck_assert(v->v.d == reals[i]);
    }
    const tt_ks_jn *bi = &n[nums->next];
    ck_assert_int_eq(bi->type, JSON_ARRAY);
    ck_assert_uint_eq(bi->n, 0); /* read into the images, not the tree */
    tt_vec_free(&nodes);
    /* declined: jansson decides (its messages, its rules) */
    const char *no[] = {
        "{\"a\":\"\\u0041\"}", "{\"a\":\"\xc3\xa9\"}", "{\"a\":\"\x01\"}", "{\"\\n\":1}",
        "{\"a\":18446744073709551616}", "{\"a\":-9223372036854775808}", "{\"a\":01}",
        "{\"a\":1e400}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":[1,]}", "{\"a\" 1}",
        "{\"a\":1,}", "{\"binary_images\":[],\"binary_images\":[]}", "{\"binary_images\":{}}",
        "{\"a\":tru}", "{\"a\":[1}", "{\"a\":1", "[{}]", "{\"a\":nul}", "{\"a\":1.5x}",
        "{\"binary_images\":[{\"name\":[1]}]}", "{\"a\":\"\\x\"}"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        ck_assert_msg(scan(no[i], &big, &nodes) == 0, "accepted %s", no[i]);
        tt_vec_free(&nodes);
    }
    /* the depth limit: deep nesting goes to jansson */
    char deep[2 * 600 + 16] = "{\"a\":";
    size_t k = strlen(deep);
    for (int i = 0; i < 600; i++)
        deep[k++] = '[';
    for (int i = 0; i < 600; i++)
        deep[k++] = ']';
    deep[k++] = '}';
    deep[k] = 0;
    ck_assert_int_eq(scan(deep, &big, &nodes), 0);
    tt_vec_free(&nodes);
}
END_TEST

/* Reports of unusual shapes: the tree (no_image_json) gives what jansson gives. */
static const char SHAPES[] =
    "{\"report\":{\"id\":\"S\\\"1\",\"timestamp\":1709374831.75,\"type\":\"standard\","
    "\"id\":\"S2\"},\r\n\t\"binary_images\":[" IMG_APP "],"
    "\"system\":{\"cpu_arch\":\"arm64\",\"x\":{\"y\":[{\"z\":[]}],\"w\":null},"
    "\"process_id\":18446744073709551615},"
    "\"crash\":{\"error\":{\"user_reported\":{\"dump_type\":2001,\"suspend_all_threads\":false,"
    "\"snapshot_status\":-3}},\"threads\":[1,"
    "{\"name\":\"a\\tb\",\"name\":\"HandledThread\",\"index\":0,\"backtrace\":{\"contents\":["
    "{\"instruction_addr\":\"0x102c44016\",\"repeat_count\":2.9},"
    "{\"instruction_addr\":9952392230876758102,\"symbol_name\":\"s\\\\n\",\"symbol_addr\":\"7\"},"
    "{\"instruction_addr\":null},\"x\"]}},"
    "{\"index\":0,\"dispatch_queue\":\"com.apple.main-thread\",\"cpu_usage\":12.5,"
    "\"crashed\":true,\"backtrace\":{\"contents\":[{\"instruction_addr\":4341383200,"
    "\"object_name\":\"MyApp\",\"object_addr\":4341366784}]}},"
    "{\"index\":5,\"backtrace\":{}}]}}\n"
    "{\"report\":{\"id\":\"U\\u0031\"},\"crash\":{}}\n";

START_TEST(tree_matches_jansson)
{
    rd g[2];
    const tt_ks_report *r[2];
    for (int k = 0; k < 2; k++)
        rd_open_fast(&g[k], SHAPES, sizeof SHAPES - 1, 0, k);
    for (int rep = 0; rep < 2; rep++) {
        for (int k = 0; k < 2; k++)
            ck_assert_int_eq(tt_ks_reader_next(g[k].r, &r[k], &g[k].err), 0);
        /* the first report is read as a tree, the second (\u escape) by jansson */
        ck_assert_int_eq(g[1].r->tree, rep == 0);
        ck_assert_int_eq(g[0].r->tree, 0);
        const tt_ks_report *a = r[0], *b = r[1];
        ck_assert_str_eq(a->id, b->id);
        ck_assert_uint_eq(a->line, b->line);
        ck_assert_int_eq(a->unix_ms, b->unix_ms);
        ck_assert_int_eq(a->has_pid, b->has_pid);
        ck_assert_int_eq(a->pid, b->pid);
        ck_assert_int_eq(a->has_suspend, b->has_suspend);
        ck_assert_int_eq(a->snapshot_status, b->snapshot_status);
        ck_assert_uint_eq(a->n_threads, b->n_threads);
        ck_assert_uint_eq(a->n_frames, b->n_frames);
        ck_assert_int_eq(a->main_thread, b->main_thread);
        ck_assert_int_eq(a->point_thread, b->point_thread);
        for (size_t i = 0; i < a->n_threads; i++) {
            ck_assert_pstr_eq(a->threads[i].name, b->threads[i].name);
            ck_assert_int_eq(a->threads[i].has_cpu, b->threads[i].has_cpu);
            ck_assert(a->threads[i].cpu == b->threads[i].cpu);
            ck_assert_int_eq(a->threads[i].crashed, b->threads[i].crashed);
        }
        for (size_t i = 0; i < a->n_frames; i++) {
            const tt_ks_frame *x = &a->frames[i], *y = &b->frames[i];
            ck_assert_uint_eq(x->pc, y->pc);
            ck_assert_uint_eq(x->lookup, y->lookup);
            ck_assert_int_eq(x->pac, y->pac);
            ck_assert_int_eq(x->repeat, y->repeat);
            ck_assert_pstr_eq(x->device_name, y->device_name);
            ck_assert_int_eq(x->has_device_addr, y->has_device_addr);
            ck_assert_uint_eq(x->device_addr, y->device_addr);
            ck_assert_pstr_eq(x->object_name, y->object_name);
        }
    }
    /* what the first report holds, read either way */
    ck_assert_int_eq(stat_of(g[1].st, "kscrash_big_uint_rewritten"), 2);
    ck_assert_int_eq(stat_of(g[0].st, "kscrash_big_uint_rewritten"), 2);
    ck_assert_int_eq(stat_of(g[1].st, "kscrash_bad_frame"), 2);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(tt_ks_reader_next(g[k].r, &r[k], &g[k].err), TT_DONE);
        rd_close(&g[k]);
    }
}
END_TEST

START_TEST(tree_report_fields)
{
    rd g;
    rd_open_fast(&g, SHAPES, sizeof SHAPES - 1, 0, 1);
    const tt_ks_report *r;
    ck_assert_int_eq(tt_ks_reader_next(g.r, &r, &g.err), 0);
    ck_assert_str_eq(r->id, "S2");                 /* a repeated key: the last one */
    ck_assert_int_eq(r->unix_ms, INT64_C(1709374831000)); /* a real, truncated */
    ck_assert_int_eq(r->pid, -1);                  /* 2^64 - 1, as its bit pattern */
    ck_assert_ptr_null(r->json);                   /* no jansson value on this path */
    ck_assert_uint_eq(r->n_threads, 3);            /* the element 1 is not a thread */
    ck_assert_str_eq(r->threads[0].name, "HandledThread");
    ck_assert_int_eq(r->point_thread, 0);
    ck_assert_int_eq(r->main_thread, 1);
    ck_assert_int_eq(r->threads[1].has_cpu, 1);
    ck_assert(r->threads[1].cpu == 12.5);
    ck_assert_uint_eq(r->threads[2].n_frames, 0);
    const tt_ks_frame *f = &r->frames[0];
    ck_assert_uint_eq(f->pc, UINT64_C(0x102c44016)); /* an address as text */
    ck_assert_int_eq(f->repeat, 2);
    ck_assert_int_eq(r->frames[1].pac, 1);
    ck_assert_str_eq(r->frames[1].device_name, "s\\n");
    ck_assert_uint_eq(r->frames[1].device_addr, 7);
    ck_assert_str_eq(r->frames[2].object_name, "MyApp");
    ck_assert_int_eq(stat_of(g.st, "kscrash_bad_frame"), 2);
    rd_close(&g);
}
END_TEST

/* report.timestamp as text (KSCrashReportFixer): exact, fraction truncated to ms */
START_TEST(rfc3339_times)
{
    int64_t ms = 0;
    ck_assert_int_eq(tt_ks_rfc3339_ms("2024-03-02T10:20:31.123456Z", &ms), 1);
    ck_assert_int_eq(ms, INT64_C(1709374831123));
    ck_assert_int_eq(tt_ks_rfc3339_ms("2024-03-02T18:20:31.9+08:00", &ms), 1);
    ck_assert_int_eq(ms, INT64_C(1709374831900));
    ck_assert_int_eq(tt_ks_rfc3339_ms("2024-03-01t23:50:31-10:30", &ms), 1);
    ck_assert_int_eq(ms, INT64_C(1709374831000));
    ck_assert_int_eq(tt_ks_rfc3339_ms("1970-01-01T00:00:00Z", &ms), 1);
    ck_assert_int_eq(ms, 0);
    ck_assert_int_eq(tt_ks_rfc3339_ms("2000-02-29T00:00:00.000999999999Z", &ms), 1);
    ck_assert_int_eq(ms, INT64_C(951782400000));
    ms = 7;
    static const char *const bad[] = {"2024-03-02", "2024-03-02T10:20:31", "2023-02-29T00:00:00Z",
                                      "2024-13-01T00:00:00Z", "2024-03-02T10:20:31.Z",
                                      "2024-03-02T10:20:31+0800", "2024-03-02T10:20:31Zx",
                                      "2024-03-02T24:00:00Z", "yesterday, 10:20 in the morning"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!tt_ks_rfc3339_ms(bad[i], &ms), "%s", bad[i]);
    ck_assert_int_eq(ms, 7);
}
END_TEST

static Suite *kscrash_suite(void)
{
    Suite *s = suite_create("kscrash");
    TCase *t = tcase_create("core");
    tcase_add_test(t, point_stack_ring_example);
    tcase_add_test(t, rfc3339_times);
    tcase_add_test(t, rewrite_big_numbers);
    tcase_add_test(t, detect_and_names);
    tcase_add_test(t, apple_ips_header);
    tcase_add_test(t, lag_dump_model);
    tcase_add_test(t, no_adjust);
    tcase_add_test(t, batches_and_errors);
    tcase_add_test(t, main_thread_rules);
    tcase_add_test(t, scan_report_subset);
    tcase_add_test(t, tree_matches_jansson);
    tcase_add_test(t, tree_report_fields);
    suite_add_tcase(s, t);
    return s;
}

UNIT_MAIN(kscrash_suite)
