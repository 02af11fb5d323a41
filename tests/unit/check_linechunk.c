/* Chunked and threaded reading of perf script text and folded stacks (linechunk.c, issue 16):
 * every number of threads and every chunk size gives the profile, the warnings, their counts
 * and examples, and the errors that one thread reading line by line gives. */
#include "unit.h"

#include <stdio.h>
#include <unistd.h>

static int collect(void *ctx, const char *p, size_t n) { return tt_buf_put(ctx, p, n); }

/* Every frame with its identity fields, in id order. */
static void dump_frames(tt_buf *b, const tt_profile *p)
{
    for (uint32_t i = 0; i < tt_profile_nframes(p); i++) {
        const tt_stack_frame *f = tt_profile_frame(p, i);
        tt_buf_printf(b, "frame %u %s|%s|%s|%d|%d|%llx|%d|%llx|%s\n", i, f->name,
                      f->module ? f->module : "-", f->file ? f->file : "-", f->line,
                      f->has_addr, (unsigned long long)f->addr, f->has_file_off,
                      (unsigned long long)f->file_off, f->module_path ? f->module_path : "-");
    }
}

typedef int (*import_fn)(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                         tt_error *err);

/* Everything a run shows: rc and error, stats, frames, folded, Chrome JSON and speedscope. */
static char *run_with(import_fn import, const char *path, int identity, int jobs, size_t chunk,
                      size_t line_max)
{
    tt_buf b = {0};
    tt_input *in = NULL;
    tt_error err = {0};
    ck_assert_int_eq(tt_input_open(&in, path, &err), 0);
    if (line_max)
        tt_input_set_line_max(in, line_max);
    tt_profile *p;
    ck_assert_int_eq(tt_profile_new(&p, identity), 0);
    tt_stats *st = tt_stats_new();
    tt_import_opts o = {.jobs = jobs, .chunk_bytes = chunk};
    int rc = import(p, in, &o, st, &err);
    tt_input_close(in);
    tt_buf_printf(&b, "rc %d %s %d %llu %s\n", rc, err.file, err.loc_kind,
                  (unsigned long long)err.loc, rc ? err.msg : "");
    for (size_t i = 0; i < tt_stats_count(st); i++) {
        const tt_stat *s = tt_stats_get(st, i);
        tt_buf_printf(&b, "stat %s %d %lld ", s->name, s->severity, (long long)s->count);
        tt_buf_puts(&b, s->example);
        tt_buf_puts(&b, "\n");
    }
    dump_frames(&b, p);
    if (!rc && !tt_profile_finish(p, NULL)) {
        tt_export_opts eo;
        tt_export_opts_init(&eo);
        ck_assert_int_eq(tt_export_folded(p, &eo, collect, &b, NULL), 0);
        tt_error e2 = {0};
        if (tt_export_chrome(p, &eo, collect, &b, &e2))
            tt_buf_printf(&b, "chrome: %s\n", e2.msg);
        ck_assert_int_eq(tt_export_speedscope(p, &eo, collect, &b, NULL), 0);
    }
    tt_stats_free(st);
    tt_profile_free(p);
    return b.data;
}

static char *run(const char *path, int identity, int jobs, size_t chunk, size_t line_max)
{
    return run_with(tt_perf_import, path, identity, jobs, chunk, line_max);
}

/* The stream path (jobs 0: read through tt_input in pieces of the chunk size), one to four
 * threads reading chunks of 1 byte up to larger than the file, all against the reference
 * that parses every line on its own. */
static void same_everywhere_with(import_fn import, const char *path, size_t line_max)
{
    static const size_t chunks[] = {1, 2, 3, 5, 7, 13, 31, 64, 100, 257, 4096, 0};
    static const int idents[] = {TT_IDENT_NAME, TT_IDENT_ADDRESS, TT_IDENT_NAME_UNNAMED_ADDRESS};
    for (size_t k = 0; k < 3; k++) {
        char *want = run_with(import, path, idents[k], -1, 0, line_max); /* no line table */
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            for (int jobs = 0; jobs <= 4; jobs++) {
                char *got = run_with(import, path, idents[k], jobs, chunks[c], line_max);
                if (strcmp(want, got)) {
                    size_t i = 0, l = 0;
                    while (want[i] == got[i])
                        if (want[i++] == '\n')
                            l = i;
                    ck_abort_msg("%s: identity %d, %d threads, chunks of %zu bytes: first "
                                 "difference in \"%.120s\" against \"%.120s\"", path,
                                 idents[k], jobs, chunks[c], want + l, got + l);
                }
                free(got);
            }
        }
        free(want);
    }
}

static void same_everywhere(const char *path, size_t line_max)
{
    same_everywhere_with(tt_perf_import, path, line_max);
}

static char *temp_file(const char *text)
{
    char *path = strdup("/tmp/check_linechunk.XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void same_for_text_with(import_fn import, const char *text, size_t line_max)
{
    char *path = temp_file(text);
    same_everywhere_with(import, path, line_max);
    unlink(path);
    free(path);
}

static void same_for_text(const char *text, size_t line_max)
{
    same_for_text_with(tt_perf_import, text, line_max);
}

START_TEST(fixtures)
{
    static const char *const files[] = {
        "tests/data/perf-variants.txt", "tests/data/perf-bad.txt", "tests/data/perf-exec.txt",
        "tests/data/perf-mixed.txt", "tests/data/perf-modifiers.txt",
        "tests/data/perf-notime.txt", "tests/data/perf-oneline.txt",
        "tests/data/perf-weird.txt", "tests/sym/perf.txt",
        "tests/data/perf-tid-filter-pidtid.txt", "tests/data/perf-nog-pid-tid-oneline.txt",
        "tests/data/perf-inline-srcline.txt.gz", "tests/data/perf-srccode.txt",
        "tests/data/perf-simpleperf-syscall-fields.txt", "tests/data/perf-privilege-events.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        same_everywhere(files[i], 0);
}
END_TEST

/* The last sample without its newline; CRLF lines; blank lines at both ends. */
START_TEST(edges)
{
    same_for_text("app 10/10 [000] 1.000000: 1 cycles:\n"
                  "\t1000 main+0x1 (/bin/app)\n"
                  "\n"
                  "app 10/10 [000] 1.000100: 1 cycles:\n"
                  "\t1004 f+0x4 (/bin/app)\n"
                  "\t1000 main+0x1 (/bin/app)",
                  0);
    same_for_text("\n\napp 10/10 [000] 1.000000: 1 cycles:\r\n"
                  "\t1000 main+0x1 (/bin/app)\r\n"
                  "\r\n"
                  "app 10/11 [000] 1.000100: 1 cycles:\r\n"
                  "\t1004 f+0x4 (/bin/app)\r\n"
                  "\t1000 main+0x1 (/bin/app)\r\n\n\n",
                  0);
}
END_TEST

/* Memory maps: an unnamed frame in a file is named by the pid's mapping once maps exist, so
 * the same frame line means different frames before and after a map line and per process. */
START_TEST(maps_and_skips)
{
    same_for_text(
        "p 10/10 [000] 1.000000: 1 cycles:\n"
        "\t5100 [unknown] (/bin/a)\n"
        "\t5200 main+0x2 (/bin/a)\n"
        "\n"
        "p 10/10 [000] 1.0: PERF_RECORD_MMAP2 10/10: [0x5000(0x1000) @ 0x1000 08:01 7 0]: r-xp "
        "/bin/a\n"
        "p 11/11 [000] 1.0: PERF_RECORD_MMAP2 11/11: [0x9000(0x1000) @ 0x1000 08:01 7 0]: r-xp "
        "/bin/a\n"
        "p 10/10 [000] 1.000100: 1 cycles:\n"
        "\t5100 [unknown] (/bin/a)\n"
        "\t5200 main+0x2 (/bin/a)\n"
        "\n"
        "p 11/11 [000] 1.000200: 1 cycles:\n"
        "\t5100 [unknown] (/bin/a)\n"
        "\t9100 [unknown] (/bin/a)\n"
        "\tthis is not a frame\n"
        "\t5200 main+0x2 (/bin/a)\n"
        "\t    a.c:12\n"
        "\n"
        "q 12/12 [000] 1.000300: 1 sched:sched_switch: prev_comm=q\n"
        "\t5100 [unknown] (/bin/a)\n"
        "\n"
        "garbage without a time\n"
        "\t5200 main+0x2 (/bin/a)\n"
        "\n"
        "p 10/10 [000] 1.000400: 1 cycles:\n"
        "\n"
        "p 10/10 [000] 1.000500: 1 cycles:\n"
        "\t5100 [unknown] (/bin/a)\n",
        0);
}
END_TEST

/* Frame lines seen before taken without being looked at (import_perf.c known_frames): stacks
 * repeated in one chunk and across chunks, a repeated stack of a skipped event before and after
 * kept ones, a srcline and a line that is no frame between known frames, a header-line frame
 * before a call chain, and unnamed frames in a file whose meaning changes when a memory map
 * arrives between two copies of the same stack. */
START_TEST(known_frames)
{
    static const char stack[] = "\t1000 f+0x1 (/bin/app)\n"
                                "\t1010 g+0x2 (/bin/app)\n"
                                "\t5100 [unknown] (/bin/a)\n"
                                "\t1020 main+0x3 (/bin/app)\n"
                                "\n";
    tt_buf b = {0};
    for (int i = 0; i < 6; i++) {
        tt_buf_printf(&b, "app 10/10 [000] 1.%06d: 1 %s:\n%s", i, i == 2 ? "other" : "cycles",
                      stack);
        if (i == 3)
            tt_buf_puts(&b, "app 10/10 [000] 1.0: PERF_RECORD_MMAP2 10/10: [0x5000(0x1000) @ "
                            "0x1000 08:01 7 0]: r-xp /bin/a\n");
    }
    tt_buf_puts(&b, "app 10/10 [000] 2.000000: 1 cycles:\n"
                    "\t1000 f+0x1 (/bin/app)\n"
                    "\t    a.c:12\n"
                    "\t1010 g+0x2 (/bin/app)\n"
                    "\tthis is not a frame\n"
                    "\t1020 main+0x3 (/bin/app)\n"
                    "\n"
                    "app 10/10 [000] 2.000100: 1 cycles: 1000 f+0x1 (/bin/app)\n"
                    "\t1000 f+0x1 (/bin/app)\n"
                    "\t1010 g+0x2 (/bin/app)\n"
                    "\n"
                    "app 11/11 [000] 2.000200: 1 cycles:\n");
    tt_buf_puts(&b, stack);
    same_for_text(b.data, 0);
    /* runs of known frames taken whole (linerun.c): a stack repeated in a kept event, in a
     * skipped one, after a header-line frame, with a srcline after it, and its callsite kept
     * per run while the blank line after it may start the next chunk */
    static const char plain[] = "\t1000 f+0x1 (/bin/app)\n"
                                "\t1010 g+0x2 (/bin/app)\n"
                                "\t1020 main+0x3 (/bin/app)\n";
    b.len = 0;
    for (int i = 0; i < 8; i++) {
        tt_buf_printf(&b, "app 10/10 [000] 3.%06d: 1 %s:%s\n%s%s\n", i,
                      i == 3 ? "other" : "cycles", i == 5 ? " 1030 h+0x1 (/bin/app)" : "",
                      plain, i == 6 ? "\t    a.c:12\n" : "");
        if (i == 4)
            tt_buf_printf(&b, "app 10/10 [000] 3.%06d: 1 cycles:\n\t1030 h+0x1 (/bin/app)\n%s\n",
                          i, plain);
    }
    same_for_text(b.data, 0);
    tt_buf_free(&b);
}
END_TEST

/* One-line samples without call graphs (every line a sample, frames on the header line). */
START_TEST(one_line_samples)
{
    same_for_text("app 10 1.000000: 1 cycles: 1000 main+0x1 (/bin/app)\n"
                  "app 10 1.000100: 1 cycles: 1004 f+0x4 (/bin/app)\n"
                  "app 10 1.000200: 1 cycles: 1000 main+0x1 (/bin/app)\n"
                  "app 11 1.000300: 1 cycles: 1000 main+0x1 (/bin/app)\n",
                  0);
    same_for_text("app 10 1000 main (/bin/app)\n"
                  "app 10 1004 f (/bin/app)\n"
                  "app 10 1000 main (/bin/app)\n",
                  0);
}
END_TEST

/* -F +srcline's "(inlined)" on the srcline: the frame line before it is inlined into the
 * next frame when at its pc (two levels of it), not when at another pc (an alias); the frame
 * line's pc is known across chunks. */
START_TEST(inline_srcline)
{
    same_for_text("inl2 29631 21888.830074:    2004008 cpu-clock:ppp: \n"
                  "\t            11f6 sq+0x26\n"
                  "  inl2.c:2 (inlined)\n"
                  "\t            11f6 mid+0x6\n"
                  "  inl2.c:3 (inlined)\n"
                  "\t            11f6 work+0x26 (/d/inl2)\n"
                  "  inl2.c:4\n"
                  "\t           27304 __libc_start_main_impl+0x84\n"
                  "  libc-start.c:360 (inlined)\n"
                  "\t            10c0 _start+0x20 (/d/inl2)\n"
                  "  ??:0\n"
                  "\n"
                  "inl2 29631 21888.832075:    2004008 cpu-clock:ppp: \n"
                  "\t            11ae sq+0x1e (/d/inl2)\n"
                  "  inl2.c:2\n"
                  "\t            10c0 _start+0x20 (/d/inl2)\n"
                  "  ??:0\n",
                  0);
}
END_TEST

/* Lines found by the successors a line had before (linechunk.c): a successor that is a prefix
 * of the line, one that extends it, more successors than are kept (recursion), the last line
 * without its newline equal to a successor, and a successor cut by the chunk's end. */
START_TEST(successors)
{
    same_for_text("app 10/10 [000] 1.000000: 1 cycles:\n"
                  "\t1000 f+0x1 (/bin/app)\n"
                  "\t1000 r+0x1 (/bin/app)\n"
                  "\t1000 main+0x1 (/bin/app)\n"
                  "\n"
                  "app 10/10 [000] 1.000100: 1 cycles:\n"
                  "\t1000 f+0x1 (/bin/app)\n"
                  "\t1000 r+0x1 (/bin/app)x\n"
                  "\t1000 r+0x1 (/bin/app)\n"
                  "\t1000 r+0x2 (/bin/app)\n"
                  "\t1000 r+0x1 (/bin/ap\n"
                  "\t1000 r+0x1 (/bin/app)\n"
                  "\t1000 r+0x3 (/bin/app)\n"
                  "\t1000 r+0x1 (/bin/app)\n"
                  "\t1000 r+0x4 (/bin/app)\n"
                  "\t1000 r+0x1 (/bin/app)\n"
                  "\t1000 r+0x2 (/bin/app)\n"
                  "\t1000 r+0x1 (/bin/app)\n"
                  "\t1000 main+0x1 (/bin/app)\n"
                  "\n"
                  "app 10/10 [000] 1.000200: 1 cycles:\n"
                  "\t1000 f+0x1 (/bin/app)\n"
                  "\t1000 r+0x1 (/bin/app)\n"
                  "\t1000 main+0x1 (/bin/app)",
                  0);
}
END_TEST

/* A line longer than the cap fails at the same line for every split. */
START_TEST(long_line)
{
    char text[2048];
    snprintf(text, sizeof text,
             "app 10/10 [000] 1.000000: 1 cycles:\n"
             "\t1000 main+0x1 (/bin/app)\n"
             "\n"
             "app 10/10 [000] 1.000100: 1 cycles:\n"
             "\t1004 %0200d (/bin/app)\n"
             "\t1000 main+0x1 (/bin/app)\n",
             7);
    same_for_text(text, 100);
    char *r = NULL;
    char *path = temp_file(text);
    r = run(path, TT_IDENT_NAME, 3, 16, 100);
    ck_assert_ptr_ne(strstr(r, "rc -6"), NULL);
    ck_assert_ptr_ne(strstr(r, " 5 line longer than 100 bytes"), NULL);
    free(r);
    unlink(path);
    free(path);
}
END_TEST

/* Folded stacks: the fields before a line's last ';' are numbered by the chunks (blank and
 * repeated frames, successors, comments, a count column or two, lines that are no stack). */
START_TEST(folded_fixtures)
{
    static const char *const files[] = {
        "tests/data/folded-diff.folded", "tests/data/deep.folded",
        "tests/data/flame-spec34.folded", "tests/data/flame-recursive.folded",
        "tests/data/flame-diff-base.folded"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        same_everywhere_with(tt_folded_import, files[i], 0);
}
END_TEST

START_TEST(folded_edges)
{
    same_for_text_with(tt_folded_import,
                       "# a comment;with;fields 1\n"
                       "main;run;f 3\n"
                       "  main ; run ;  ;f;g 2\r\n"
                       "main;run;f;f;f;f 1\n"
                       "main;run;f;f;f;g 1\n"
                       "main;run;f;f;f;h;x 1\n"
                       "\n"
                       "main;run;no count\n"
                       ";;; 4\n"
                       "main;a b c;d 1.5\n"
                       "main;run;f 7",
                       0);
    /* tokens before the count that look like counts in part (a differential file decides
     * on the first line) */
    same_for_text_with(tt_folded_import,
                       "main;f1 2\n"
                       "main;f 1.2.3 4\n"
                       "main;f 12 3\n"
                       "main;f\t3 4\n"
                       "7 5\n",
                       0);
    same_for_text_with(tt_folded_import,
                       "main;f 1.5 3\n"
                       "main;f 1.2.3 4\n"
                       "main;f x3 4\n"
                       "3 4\n",
                       0);
    same_for_text_with(tt_folded_import,
                       "main;run;f 3 4\n"
                       "main;run;g 0 2\n"
                       "main;run 5\n"
                       "main;run;f;f;f 1 1\n",
                       0);
    /* a stack of 4100 frames: the outermost are kept under a marker leaf */
    size_t n = 4100 * 4 + 64;
    char *deep = malloc(n), *q = deep;
    for (int i = 0; i < 4100; i++)
        q += sprintf(q, "f%d;", i % 7);
    sprintf(q, "leaf 1\nmain;f0 2\n");
    same_for_text_with(tt_folded_import, deep, 0);
    /* exactly at the limit, the leaf last or in a field before an empty last one */
    q = deep;
    for (int i = 0; i < TT_MAX_STACK_DEPTH - 1; i++)
        q += sprintf(q, "g%d;", i % 5);
    sprintf(q, "leaf 1\n");
    same_for_text_with(tt_folded_import, deep, 0);
    sprintf(q, "leaf;  1\n");
    same_for_text_with(tt_folded_import, deep, 0);
    free(deep);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("linechunk");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fixtures);
    tcase_add_test(tc, edges);
    tcase_add_test(tc, maps_and_skips);
    tcase_add_test(tc, one_line_samples);
    tcase_add_test(tc, inline_srcline);
    tcase_add_test(tc, known_frames);
    tcase_add_test(tc, long_line);
    tcase_add_test(tc, successors);
    tcase_add_test(tc, folded_fixtures);
    tcase_add_test(tc, folded_edges);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
