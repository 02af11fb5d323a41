/* Flame graph tree, layout, colours and text (spec/visual.md section 11). */
#include "unit.h"

#include <regex.h>

/* Adds "a;b;c" with weight w on side. */
static void add(tt_flame *f, const char *path, int64_t w, int side, const tt_flame_xform *x)
{
    uint32_t names[64];
    size_t n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = strtok(buf, ";"); s; s = strtok(NULL, ";"))
        ck_assert_int_eq(tt_flame_intern(f, &names[n++], s, TT_FCAT_NATIVE, NULL), 0);
    ck_assert_int_eq(tt_flame_add_stack(f, names, n, w, side, x), 0);
}

static tt_flame *tree(const char *const *paths, const int64_t *w, size_t n,
                      const tt_flame_xform *x)
{
    tt_flame *f;
    ck_assert_int_eq(tt_flame_new(&f), 0);
    for (size_t i = 0; i < n; i++)
        add(f, paths[i], w[i], 0, x);
    tt_flame_finish(f);
    return f;
}

/* "name:depth:x:w" of every frame, '|'-separated */
static void rows(char *out, size_t cap, tt_flame *f, const tt_flame_layout *l)
{
    out[0] = 0;
    for (size_t i = 0; i < l->n; i++) {
        const tt_flame_frame *fr = &l->frames[i];
        const char *nm = fr->node == TT_NONE
                             ? "[elided]"
                             : tt_flame_name(f, tt_flame_node_at(f, fr->node)->name, NULL);
        size_t k = strlen(out);
        snprintf(out + k, cap - k, "%s%s:%u:%lld:%lld", i ? "|" : "", nm, fr->depth,
                 (long long)fr->x, (long long)fr->w);
    }
}

START_TEST(muldiv_exact)
{
    ck_assert_int_eq(tt_muldiv(7, 3, 2), 11); /* 10.5 rounds up */
    ck_assert_int_eq(tt_muldiv(5, 1, 2), 3);
    ck_assert_int_eq(tt_muldiv(INT64_MAX, 11800, INT64_MAX), 11800);
    ck_assert_int_eq(tt_muldiv(INT64_MAX - 1, INT64_MAX, INT64_MAX), INT64_MAX - 1);
    ck_assert_int_eq(tt_muldiv((int64_t)1 << 62, 8, (int64_t)1 << 60), 32);
    ck_assert_int_eq(tt_muldiv(1000000000000000LL, 11800, 1000000000000001LL), 11800);
}
END_TEST

START_TEST(spec_example)
{
    const char *p[] = {"main;a;b", "main;a;c", "main;d", "main;e", "main;f"};
    const int64_t w[] = {50, 30, 14, 3, 3};
    tt_flame *f = tree(p, w, 5, NULL);
    tt_flame_layout_opts o = {0, 1200, 4000, 1, 20000, 0};
    tt_flame_layout l;
    ck_assert_int_eq(tt_flame_layout_build(&l, f, &o), 0);
    char s[1024];
    rows(s, sizeof s, f, &l);
    ck_assert_str_eq(s, "all:0:0:100|main:1:0:100|a:2:0:80|b:3:0:50|c:3:50:30|d:2:80:14|"
                        "[elided]:2:94:6");
    ck_assert_int_eq(l.threshold, 4);
    ck_assert_int_eq(l.frames[1].elided_n, 2);
    ck_assert_int_eq(l.frames[1].elided_w, 6);
    tt_buf b = {0};
    tt_svg_opts so;
    tt_svg_opts_init(&so);
    so.script = 0;
    ck_assert_int_eq(tt_svg_write(&b, f, &l, &so), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "<rect x=\"1119.2\" y=\"52\" width=\"70.3\""));
    ck_assert_ptr_nonnull(strstr(b.data, ">[2 eli..</text>"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "<title>main&#10;100 samples (100.00%), elided 2 frames, 6 samples"));
    ck_assert_ptr_nonnull(strstr(b.data, "height=\"158\""));
    tt_buf_free(&b);
    tt_flame_layout_free(&l);
    tt_flame_free(f);
}
END_TEST

/* Random trees: siblings tile, children inside parents, root edges exact, conservation. */
START_TEST(tiling_random)
{
    unsigned seed = 12345;
    for (int round = 0; round < 20; round++) {
        tt_flame *f;
        ck_assert_int_eq(tt_flame_new(&f), 0);
        for (int i = 0; i < 200; i++) {
            char path[128] = "";
            int depth = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 6;
            for (int d = 0; d < depth; d++) {
                size_t k = strlen(path);
                snprintf(path + k, sizeof path - k, "%sn%u", d ? ";" : "",
                         ((seed = seed * 1103515245u + 12345u) >> 16) % 4);
            }
            int64_t w = 1 + (int64_t)(((seed = seed * 1103515245u + 12345u) >> 8) % 1000000);
            if (round % 2)
                w *= 1000000000; /* ns scale */
            add(f, path, w, 0, NULL);
        }
        tt_flame_finish(f);
        tt_flame_layout_opts o = {round % 3 == 0, 1200, 100 * (round % 5), 0,
                                  (size_t)(round % 4) * 15, 0};
        tt_flame_layout l;
        ck_assert_int_eq(tt_flame_layout_build(&l, f, &o), 0);
        ck_assert_int_eq(l.frames[0].x, 0);
        ck_assert_int_eq(l.frames[0].w, tt_flame_node_at(f, 0)->total);
        int64_t T = l.total;
        ck_assert_int_eq(100 + tt_muldiv(T, 11800, T), 11900);
        size_t kept = 0;
        for (size_t i = 0; i < l.n; i++) {
            const tt_flame_frame *fr = &l.frames[i];
            kept += fr->node != TT_NONE;
            /* children: contiguous from the parent's x, summing with elided and self */
            int64_t x = fr->x, sum = 0;
            for (size_t j = i + 1; j < l.n; j++) {
                if (l.frames[j].parent_frame != i)
                    continue;
                ck_assert_int_eq(l.frames[j].x, x);
                ck_assert_uint_eq(l.frames[j].depth, fr->depth + 1);
                x += l.frames[j].w;
                sum += l.frames[j].w;
                if (l.frames[j].node == TT_NONE)
                    sum -= l.frames[j].w; /* counted through elided_w below */
            }
            if (fr->node != TT_NONE) {
                const tt_flame_node *n = tt_flame_node_at(f, fr->node);
                ck_assert_int_eq(sum + fr->elided_w + n->self, n->total);
            }
            ck_assert_int_le(x, fr->x + fr->w);
        }
        if (o.max_frames)
            ck_assert_uint_le(kept, o.max_frames);
        tt_flame_layout_free(&l);
        tt_flame_free(f);
    }
}
END_TEST

START_TEST(budget_ties_drop_together)
{
    const char *p[] = {"m;a", "m;b", "m;c", "m;d"};
    const int64_t w[] = {10, 5, 5, 5};
    tt_flame *f = tree(p, w, 4, NULL);
    tt_flame_layout_opts o = {0, 1200, 0, 0, 4, 0};
    tt_flame_layout l;
    ck_assert_int_eq(tt_flame_layout_build(&l, f, &o), 0);
    char s[512];
    rows(s, sizeof s, f, &l);
    /* all, m, a fit; b, c, d tie at 5 and would exceed 4: all three go */
    ck_assert_str_eq(s, "all:0:0:25|m:1:0:25|a:2:0:10|[elided]:2:10:15");
    ck_assert_int_eq(l.threshold, 6);
    tt_flame_layout_free(&l);
    tt_flame_free(f);
}
END_TEST

START_TEST(transforms)
{
    const char *p[] = {"t;f;f;f;g", "t;f;g;g", "t;h;f"};
    const int64_t w[] = {5, 3, 2};
    tt_flame_xform x = {.fold_recursion = 1, .keep_roots = 1};
    tt_flame *f = tree(p, w, 3, &x);
    tt_flame_layout_opts o = {0, 1200, 0, 0, 0, 0};
    tt_flame_layout l;
    char s[512];
    ck_assert_int_eq(tt_flame_layout_build(&l, f, &o), 0);
    rows(s, sizeof s, f, &l);
    ck_assert_str_eq(s, "all:0:0:10|t:1:0:10|f:2:0:8|g:3:0:8|h:2:8:2|f:3:8:2");
    tt_flame_layout_free(&l);
    tt_flame_free(f);
    tt_flame_xform r = {.reverse = 1, .keep_roots = 1};
    f = tree(p, w, 3, &r);
    ck_assert_int_eq(tt_flame_layout_build(&l, f, &o), 0);
    rows(s, sizeof s, f, &l);
    ck_assert_str_eq(s, "all:0:0:10|t:1:0:10|f:2:0:2|h:3:0:2|g:2:2:8|f:3:2:5|f:4:2:5|f:5:2:5|"
                        "g:3:7:3|f:4:7:3");
    tt_flame_layout_free(&l);
    tt_flame_free(f);
    regex_t re;
    ck_assert_int_eq(regcomp(&re, "^g$", REG_EXTENDED | REG_NOSUB), 0);
    tt_flame_xform fo = {.focus = &re, .keep_roots = 1};
    f = tree(p, w, 3, &fo);
    ck_assert_int_eq(tt_flame_layout_build(&l, f, &o), 0);
    rows(s, sizeof s, f, &l);
    ck_assert_str_eq(s, "all:0:0:8|t:1:0:8|g:2:0:8|g:3:0:3");
    regfree(&re);
    tt_flame_layout_free(&l);
    tt_flame_free(f);
}
END_TEST

START_TEST(diff_union_and_normalize)
{
    tt_flame *f;
    ck_assert_int_eq(tt_flame_new(&f), 0);
    add(f, "m;a;x", 50, 1, NULL);
    add(f, "m;b", 50, 1, NULL);
    add(f, "m;a;x", 80, 0, NULL);
    add(f, "m;b", 40, 0, NULL);
    tt_flame_finish(f);
    ck_assert_int_eq(tt_flame_node_at(f, 0)->total, 120);
    ck_assert_int_eq(tt_flame_node_at(f, 0)->total_b, 100);
    ck_assert_int_eq(tt_flame_normalize(f), 0);
    tt_flame_finish(f);
    ck_assert_int_eq(tt_flame_node_at(f, 0)->total_b, 120);
    int64_t xb = -1, bb = -1;
    for (uint32_t i = 0; i < tt_flame_nnodes(f); i++) {
        const char *nm = tt_flame_name(f, tt_flame_node_at(f, i)->name, NULL);
        if (!strcmp(nm, "x"))
            xb = tt_flame_node_at(f, i)->self_b;
        if (!strcmp(nm, "b"))
            bb = tt_flame_node_at(f, i)->self_b;
    }
    ck_assert_int_eq(xb, 60);
    ck_assert_int_eq(bb, 60);
    tt_flame_free(f);
    /* apportionment: three equal thirds of 100 -> 34, 33, 33, sum exact */
    ck_assert_int_eq(tt_flame_new(&f), 0);
    add(f, "p", 1, 1, NULL);
    add(f, "q", 1, 1, NULL);
    add(f, "r", 1, 1, NULL);
    add(f, "p", 100, 0, NULL);
    ck_assert_int_eq(tt_flame_normalize(f), 0);
    tt_flame_finish(f);
    ck_assert_int_eq(tt_flame_node_at(f, 0)->total_b, 100);
    tt_flame_free(f);
}
END_TEST

START_TEST(colours)
{
    /* both ends of every family keep 4.5:1 with black text */
    static const uint32_t ends[] = {0xbebebe, 0xdcdcdc, 0xd9d9d9, 0xdc7800, 0xfeb428,
                                    0xcd82d7, 0xf9b3ff, 0x50b9b9, 0x81e7e7, 0x50c850,
                                    0x81f981, 0xbebe3c, 0xeaeb59, 0xe66e64, 0xfea9a1,
                                    0xd2d2d2, 0xe66400, 0xfee536, 0xe600e6, 0xff6464,
                                    0x6464ff, 0xfafafa, 0x8dd3c7, 0xbc80bd};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        ck_assert_int_ge(tt_contrast_black_x100(ends[i]), 450);
    ck_assert_int_eq(tt_flame_diff_color(30, 30, 0), 0xff6464);
    ck_assert_int_eq(tt_flame_diff_color(-10, 30, 0), 0xc8c8ff);
    ck_assert_int_eq(tt_flame_diff_color(20, 30, 0), 0xff9696);
    ck_assert_int_eq(tt_flame_diff_color(0, 30, 0), 0xfafafa);
    ck_assert_int_eq(tt_flame_diff_color(20, 30, 1), 0xfafafa);
    /* hash-stable: equal keys, equal colours; overloads share a shade */
    uint32_t a = tt_flame_color(TT_COLORS_LANG, TT_FCAT_JAVA_APP, "com.a.B.m(int)", 14, NULL);
    uint32_t b = tt_flame_color(TT_COLORS_LANG, TT_FCAT_JAVA_APP, "com.a.B.m(long)", 15, NULL);
    ck_assert_uint_eq(a, b);
    ck_assert_uint_eq(tt_fnv1a64("", 0), 0xcbf29ce484222325ull);
    ck_assert_uint_eq(tt_fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
    ck_assert_int_eq(tt_flame_category(TT_FRAME_JAVA, "android.os.Looper.loop()", NULL, NULL, 0),
                     TT_FCAT_JAVA_PLATFORM);
    ck_assert_int_eq(tt_flame_category(TT_FRAME_JAVA, "com.x.Y.z()", NULL, NULL, 0),
                     TT_FCAT_JAVA_APP);
    const char *app[] = {"com.y."};
    ck_assert_int_eq(tt_flame_category(TT_FRAME_JAVA, "com.x.Y.z()", NULL, app, 1),
                     TT_FCAT_JAVA_PLATFORM);
    ck_assert_int_eq(tt_flame_category(TT_FRAME_NATIVE, "ns::f()", NULL, NULL, 0), TT_FCAT_CPP);
    ck_assert_int_eq(tt_flame_category(TT_FRAME_NATIVE, "do_sys_open_[k]", NULL, NULL, 0),
                     TT_FCAT_KERNEL);
}
END_TEST

static void fit(const char *name, size_t cells, int left, const char *want)
{
    tt_buf b = {0};
    int r = tt_svg_fit(&b, name, strlen(name), cells, left);
    ck_assert_str_eq(r == 1 ? b.data : "", want);
    tt_buf_free(&b);
}

START_TEST(text_fitting)
{
    fit("[2 elided]", 8, 0, "[2 eli..");
    fit("abc", 2, 0, "");
    fit("abc", 3, 0, "abc");
    fit("com.example.Feed.bind(android.view.View)", 40, 0,
        "com.example.Feed.bind(android.view.View)");
    fit("com.example.Feed.bind(android.view.View)", 30, 0, "Feed.bind(android.view.View)");
    fit("com.example.Feed.bind(android.view.View)", 12, 0, "Feed.bind");
    fit("com.example.Feed.bind(android.view.View)", 6, 0, "bind");
    fit("com.example.Feed.bind(android.view.View)", 3, 0, "b..");
    fit("ns::Cls::method(int) const", 20, 0, "ns::Cls::method");
    fit("ns::Cls::method(int) const", 12, 0, "Cls::method");
    fit("ns::Cls::method(int) const", 7, 0, "method");
    fit("ns::Cls::method(int) const", 5, 0, "met..");
    fit("ns::Cls::method(int) const", 5, 1, "..hod");
    fit("abcdefgh", 5, 1, "..fgh");
    /* wide characters take two cells; cuts never split a code point */
    fit("\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97", 7, 0, "\xe6\xbc\xa2\xe5\xad\x97..");
    ck_assert_uint_eq(tt_svg_cells("\xe6\xbc\xa2" "a", 4), 3);
    /* escaping inside a cut: an entity is never split */
    fit("a&b&c&d&e", 7, 0, "a&amp;b&amp;c..");
}
END_TEST

START_TEST(escaping)
{
    char in[64];
    size_t n = 0;
    for (int c = 1; c < 32; c++)
        in[n++] = (char)c;
    in[n++] = 0;
    memcpy(in + n, "\xff\xed\xa0\x80\xe2\x80\xae]]><\"&", 14);
    n += 14;
    tt_buf b = {0};
    ck_assert_int_eq(tt_svg_escape(&b, in, n, 1), 0);
    for (size_t i = 0; i < b.len; i++) {
        unsigned char c = (unsigned char)b.data[i];
        ck_assert(c >= 0x20 || c == 0);
    }
    ck_assert_ptr_null(strstr(b.data, "]]>"));
    ck_assert_ptr_nonnull(strstr(b.data, "]]&gt;&lt;&quot;&amp;"));
    /* tab, LF, CR -> blanks; 28 other C0 + NUL + 0xff + surrogate (3 bytes: 3 subparts at
     * most) + U+202E -> U+FFFD each */
    ck_assert_ptr_null(strstr(b.data, "\xe2\x80\xae"));
    tt_buf_free(&b);
}
END_TEST

/* A Matrix tree as a flame chart: unmerged, in creation (line) order, packed from the
 * parent's left edge; children above their reported parent inflate it (visual.md 2, 3.1). */
START_TEST(chart_pack)
{
    tt_flame *f;
    ck_assert_int_eq(tt_flame_new(&f), 0);
    uint32_t a, b, c, root, n1, n2, n3, n4;
    ck_assert_int_eq(tt_flame_intern(f, &root, "main", TT_FCAT_JAVA_APP, NULL), 0);
    ck_assert_int_eq(tt_flame_intern(f, &a, "a", TT_FCAT_JAVA_APP, NULL), 0);
    ck_assert_int_eq(tt_flame_intern(f, &b, "b", TT_FCAT_JAVA_APP, NULL), 0);
    ck_assert_int_eq(tt_flame_intern(f, &c, "c", TT_FCAT_JAVA_APP, NULL), 0);
    ck_assert_int_eq(tt_flame_chart_node(f, &n1, 0, root, 0, 100, 10), 0);
    ck_assert_int_eq(tt_flame_chart_node(f, &n2, n1, a, 0, 30, 30), 0);
    ck_assert_int_eq(tt_flame_chart_node(f, &n3, n1, b, 0, 20, 20), 0);
    ck_assert_int_eq(tt_flame_chart_node(f, &n4, n1, a, 0, 40, 5), 0);
    ck_assert_int_eq(tt_flame_chart_node(f, &n2, n4, c, 0, 45, 45), 0); /* > its parent */
    ck_assert_int_eq(tt_flame_finish(f), 2); /* a (40 < 5 + 45) and main (100 < 110) */
    ck_assert_int_eq(tt_flame_chart_pack(f), 0);
    tt_flame_layout_opts lo = {0, 1200, 0, 0, 0, 0};
    tt_flame_layout l;
    ck_assert_int_eq(tt_flame_layout_build(&l, f, &lo), 0);
    char got[512];
    rows(got, sizeof got, f, &l);
    ck_assert_str_eq(got, "all:0:0:110|main:1:0:110|a:2:0:30|b:2:30:20|a:2:50:50|c:3:50:45");
    tt_flame_layout_free(&l);
    tt_flame_free(f);
}
END_TEST

/* Report charts (visual.md 10.3): waterfall limits on or beyond the axis, the refresh line,
 * per-bar colours; issue trees nest as balanced <details>, names escaped. */
/* The launch strip chart marks startup.md 5.5's median and p90 and skips left-out rows; the
 * fps-over-time chart never joins windows across a compacted gap or an empty window. */
START_TEST(strip_and_series_charts)
{
    const char *lab[6] = {"am COLD: a", "am COLD: a", "am COLD: a", "am COLD: a",
                          "am WARM: b", "am WARM: b"};
    double v[6] = {1210, 1480, NAN, 1333, 400, 390};
    tt_buf b = {0};
    ck_assert_int_eq(tt_chart_strip(&b, "s", lab, v, 6, "ms"), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "am COLD: a: median 1333 ms (3 launches)"));
    ck_assert_ptr_nonnull(strstr(b.data, "am COLD: a: p90 1480 ms (3 launches)"));
    ck_assert_ptr_nonnull(strstr(b.data, "am WARM: b: median 395 ms (2 launches)"));
    ck_assert_ptr_nonnull(strstr(b.data, "<desc>slowest median am COLD: a, 1333 ms</desc>"));
    size_t dots = 0;
    for (const char *p = b.data; (p = strstr(p, "<circle cx")); p++)
        dots++;
    ck_assert_uint_eq(dots, 5 + 1); /* five counted launches and the legend's dot */
    b.len = 0;
    /* windows 0, 1 (empty), 2, 3, then the last empty window of a compacted gap at 100 and
     * windows 101, 102 */
    const char *sl[7] = {"all", "all", "all", "all", "all", "all", "all"};
    double st[7] = {0, 1000, 2000, 3000, 100000, 101000, 102000};
    double du[7] = {1000, 1000, 1000, 1000, 1000, 1000, 1000};
    double fr[7] = {60, 0, 30, 60, 0, 50, 60};
    double fps[7] = {60, NAN, 30, 60, NAN, 50, 60};
    ck_assert_int_eq(tt_chart_series(&b, "f", sl, st, du, fr, fps, NULL, 7), 0);
#define EN "\xe2\x80\x93" /* en dash */
    ck_assert_ptr_nonnull(strstr(b.data, "all: 0" EN "1 s, 60 fps (1 window)</title></circle>"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "all: 2" EN "4 s, 30" EN "60 fps (2 windows)</title></polyline>"));
    ck_assert_ptr_nonnull(strstr(b.data, "all: 101" EN "103 s, 50" EN "60 fps (2 windows)"));
#undef EN
    ck_assert_ptr_nonnull(strstr(b.data, "no window from 4 s to 100 s (a compacted gap or time "
                                         "between dumps): 96 s cut from the axis</title>"));
    ck_assert_ptr_nonnull(strstr(b.data, "1 stretch without windows cut from the time axis"));
    size_t lines = 0;
    for (const char *p = b.data; (p = strstr(p, "<polyline")); p++)
        lines++;
    ck_assert_uint_eq(lines, 2);
    ck_assert_ptr_nonnull(strstr(b.data, "<desc>lowest window all, 30 fps at 2 s;"));
    /* points standing for buckets of windows (the report's bounded table) count them */
    double nw[7] = {3, 1, 2, 4, 1, 5, 1};
    b.len = 0;
    ck_assert_int_eq(tt_chart_series(&b, "f", sl, st, du, fr, fps, nw, 7), 0);
#define EN "\xe2\x80\x93"
    ck_assert_ptr_nonnull(strstr(b.data, "all: 0" EN "1 s, 60 fps (3 windows)</title></circle>"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "all: 2" EN "4 s, 30" EN "60 fps (6 windows)</title></polyline>"));
#undef EN
    tt_buf_free(&b);
}
END_TEST

START_TEST(report_charts)
{
    const char *labels[2] = {"ttid", "a<b>&\"c"};
    double st[2] = {0, 300}, dur[2] = {4500, 1000};
    tt_buf b = {0};
    ck_assert_int_eq(tt_chart_waterfall(&b, "w", labels, st, dur, 2, "cold"), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "vitals cold TTID limit 5000 ms</title>"));
    ck_assert_ptr_nonnull(strstr(b.data, "beyond the axis: Matrix cold threshold 10000 ms"));
    ck_assert_ptr_nonnull(strstr(b.data, "a&lt;b&gt;&amp;&quot;c: from 300 ms for 1000 ms"));
    ck_assert_ptr_null(strstr(b.data, "<b>"));
    b.len = 0;
    ck_assert_int_eq(tt_chart_waterfall(&b, "w", labels, st, dur, 2, "warm"), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "Matrix warm threshold 4000 ms</title>"));
    ck_assert_ptr_null(strstr(b.data, "beyond"));
    b.len = 0;
    const char *colors[2] = {"#ffffb2", "#bd0026"};
    double v[2] = {58, 30};
    ck_assert_int_eq(tt_chart_bars_ex(&b, "f", labels, v, 2, "fps", colors, 2, 120,
                                      "refresh rate 120 fps"), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "fill=\"#bd0026\""));
    ck_assert_ptr_nonnull(strstr(b.data, "stroke-dasharray=\"4 3\"><title>refresh rate 120"));
    tt_buf_free(&b);

    tt_hreport *r;
    ck_assert_int_eq(tt_hreport_new(&r), 0);
    tt_hreport_tree *t;
    ck_assert_int_eq(tt_hreport_tree_add(r, &t, 1, "evil_method: </script>"), 0);
    static const uint32_t depth[5] = {0, 1, 2, 1, 0};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(tt_hreport_node_add(r, t, depth[i], i == 2 ? "]]><x>" : "m", 1,
                                             100 - 10 * i, 5), 0);
    tt_html_opts o = {"t", NULL, NULL, 0, 0, NULL, 0};
    ck_assert_int_eq(tt_html_write(&b, r, &o), 0);
    size_t open = 0, close = 0;
    for (const char *p = b.data; (p = strstr(p, "<details")); p++)
        open++;
    for (const char *p = b.data; (p = strstr(p, "</details>")); p++)
        close++;
    ck_assert_uint_eq(open, close);
    ck_assert_ptr_nonnull(strstr(b.data, "]]&gt;&lt;x&gt;"));
    ck_assert_ptr_null(strstr(b.data, "</script>\""));
    ck_assert_ptr_nonnull(strstr(b.data, "style=\"width:60.0%\""));
    ck_assert_ptr_null(strstr(b.data, "id=\"diff\""));
    tt_buf_free(&b);
    tt_hreport_free(r);
}
END_TEST

static Suite *flame_suite(void)
{
    Suite *s = suite_create("flame");
    TCase *c = tcase_create("tree");
    tcase_add_test(c, muldiv_exact);
    tcase_add_test(c, spec_example);
    tcase_add_test(c, tiling_random);
    tcase_add_test(c, budget_ties_drop_together);
    tcase_add_test(c, transforms);
    tcase_add_test(c, diff_union_and_normalize);
    tcase_add_test(c, chart_pack);
    suite_add_tcase(s, c);
    c = tcase_create("svg");
    tcase_add_test(c, colours);
    tcase_add_test(c, text_fitting);
    tcase_add_test(c, escaping);
    tcase_add_test(c, report_charts);
    tcase_add_test(c, strip_and_series_charts);
    suite_add_tcase(s, c);
    return s;
}

UNIT_MAIN(flame_suite)
