/* The self-contained HTML report, spec/visual.md section 10: one file, a Content Security
 * Policy that refuses every fetch, markup-only data, static charts, accessible tables. */
#include "tt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt_assets.h"

int tt_hreport_new(tt_hreport **out)
{
    tt_hreport *r = calloc(1, sizeof *r);
    if (!r || !(r->arena = tt_arena_new())) {
        free(r);
        return TT_ENOMEM;
    }
    *out = r;
    return 0;
}

void tt_hreport_free(tt_hreport *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ntables; i++) {
        tt_vec_free(&r->tables[i].cells);
        tt_vec_free(&r->tables[i].nums);
    }
    for (size_t i = 0; i < r->ntrees; i++)
        tt_vec_free(&r->trees[i].nodes);
    tt_arena_free(r->arena);
    free(r);
}

static const char *dup(tt_hreport *r, const char *s)
{
    return s ? tt_arena_strndup(r->arena, s, strlen(s)) : NULL;
}

int tt_hreport_table_add(tt_hreport *r, tt_hreport_table **out, const char *section,
                        const char *caption, size_t ncol, const char *const *cols)
{
    if (r->ntables >= TT_HREPORT_TABLES)
        return TT_ELIMIT;
    tt_hreport_table *t = &r->tables[r->ntables];
    memset(t, 0, sizeof *t);
    t->section = dup(r, section);
    t->caption = dup(r, caption);
    t->ncol = ncol;
    t->cols = tt_arena_alloc(r->arena, (ncol ? ncol : 1) * sizeof *t->cols);
    if (!t->section || !t->caption || !t->cols)
        return TT_ENOMEM;
    for (size_t i = 0; i < ncol; i++)
        if (!(t->cols[i] = dup(r, cols[i])))
            return TT_ENOMEM;
    tt_vec_init(&t->cells, sizeof(const char *));
    tt_vec_init(&t->nums, sizeof(double));
    r->ntables++;
    *out = t;
    return 0;
}

int tt_hreport_tree_add(tt_hreport *r, tt_hreport_tree **out, int64_t issue_id,
                        const char *title)
{
    if (r->ntrees >= TT_HREPORT_TREES)
        return TT_ELIMIT;
    tt_hreport_tree *t = &r->trees[r->ntrees];
    memset(t, 0, sizeof *t);
    if (!(t->title = dup(r, title)))
        return TT_ENOMEM;
    t->issue_id = issue_id;
    tt_vec_init(&t->nodes, sizeof(tt_hreport_node));
    r->ntrees++;
    *out = t;
    return 0;
}

int tt_hreport_node_add(tt_hreport *r, tt_hreport_tree *t, uint32_t depth, const char *name,
                        int64_t count, int64_t total_dur, int64_t self_dur)
{
    if (t->nodes.len >= TT_HREPORT_TREE_NODES) {
        t->omitted++;
        return 0;
    }
    tt_hreport_node n = {depth, dup(r, name ? name : "?"), count, total_dur, self_dur};
    if (!n.name || !tt_vec_push(&t->nodes, &n))
        return TT_ENOMEM;
    return 0;
}

int tt_hreport_row_add(tt_hreport *r, tt_hreport_table *t, const char *const *cells,
                      const double *nums)
{
    for (size_t i = 0; i < t->ncol; i++) {
        const char *s = cells[i] ? dup(r, cells[i]) : NULL;
        if ((cells[i] && !s) || !tt_vec_push(&t->cells, &s) || !tt_vec_push(&t->nums, &nums[i]))
            return TT_ENOMEM;
    }
    t->nrow++;
    return 0;
}

static void esc(tt_buf *b, const char *s)
{
    tt_svg_escape(b, s ? s : "", s ? strlen(s) : 0, 1);
}

static const char *cell(const tt_hreport_table *t, size_t r, size_t c)
{
    return TT_VEC_AT(&t->cells, const char *, r * t->ncol + c);
}

static double val(const tt_hreport_table *t, size_t r, size_t c)
{
    return TT_VEC_AT(&t->nums, double, r * t->ncol + c);
}

static void table(tt_buf *b, const tt_hreport_table *t)
{
    tt_buf_puts(b, "<table class=\"sortable\"><caption>");
    esc(b, t->caption);
    tt_buf_puts(b, "</caption>\n<thead><tr>");
    for (size_t c = 0; c < t->ncol; c++) {
        tt_buf_puts(b, "<th scope=\"col\">");
        esc(b, t->cols[c]);
        tt_buf_puts(b, "</th>");
    }
    tt_buf_puts(b, "</tr></thead>\n<tbody>\n");
    for (size_t r = 0; r < t->nrow; r++) {
        tt_buf_puts(b, "<tr>");
        for (size_t c = 0; c < t->ncol; c++) {
            double v = val(t, r, c);
            const char *s = cell(t, r, c);
            if (isnan(v)) {
                tt_buf_puts(b, "<td>");
            } else {
                char vs[64];
                snprintf(vs, sizeof vs, "%.17g", v);
                tt_buf_printf(b, "<td class=\"num\" data-v=\"%s\">", vs);
            }
            esc(b, s);
            tt_buf_puts(b, "</td>");
        }
        tt_buf_puts(b, "</tr>\n");
    }
    tt_buf_puts(b, "</tbody></table>\n");
}

static void bars(tt_buf *b, const tt_hreport_table *t, const char **labels, const double *v)
{
    const char *color = t->color ? t->color : "#0072B2";
    double ref = 0;
    for (size_t r = 0; t->ref_col > 0 && r < t->nrow; r++) {
        double x = val(t, r, (size_t)t->ref_col - 1);
        if (!isnan(x) && x > ref)
            ref = x;
    }
    char name[64];
    snprintf(name, sizeof name, "refresh rate %.1f %s", ref, t->unit ? t->unit : "");
    tt_chart_bars_ex(b, t->caption, labels, v, t->nrow, t->unit ? t->unit : "", &color, 1, ref,
                     name);
}

/* Frame-time histogram: each bar coloured by its drop level (YlOrRd, visual.md 10.3). */
static void histogram(tt_buf *b, const tt_hreport_table *t, const char **labels,
                      const double *v)
{
    static const char *const lv[5] = {"best", "normal", "middle", "high", "frozen"};
    static const char *const col[5] = {"#ffffb2", "#fecc5c", "#fd8d3c", "#f03b20", "#bd0026"};
    const char **c = malloc((t->nrow ? t->nrow : 1) * sizeof *c);
    if (!c)
        return;
    for (size_t r = 0; r < t->nrow; r++) {
        const char *l = cell(t, r, (size_t)t->value_col + 1);
        c[r] = "#0072B2";
        for (int k = 0; k < 5; k++)
            if (l && !strcmp(l, lv[k]))
                c[r] = col[k];
    }
    tt_chart_bars_ex(b, t->caption, labels, v, t->nrow, t->unit ? t->unit : "", c, t->nrow,
                     0, NULL);
    free(c);
}

/* One waterfall per startup (column 0), rows consecutive. */
static void waterfalls(tt_buf *b, const tt_hreport_table *t, const char **labels)
{
    size_t n = t->nrow;
    double *st = malloc((n ? n : 1) * 2 * sizeof *st);
    if (!st)
        return;
    for (size_t r = 0; r < n; r++) {
        st[r] = val(t, r, (size_t)t->value_col);
        st[n + r] = val(t, r, (size_t)t->value_col + 1);
    }
    for (size_t r0 = 0, r1; r0 < n; r0 = r1) {
        const char *g = cell(t, r0, 0), *kind = cell(t, r0, 1);
        for (r1 = r0 + 1; r1 < n; r1++) {
            const char *h = cell(t, r1, 0);
            if (!g || !h || strcmp(g, h))
                break;
        }
        tt_buf title = {0};
        tt_buf_puts(&title, "Startup waterfall: ");
        tt_buf_puts(&title, g ? g : "?");
        tt_chart_waterfall(b, title.data, labels + r0, st + r0, st + n + r0, r1 - r0,
                           kind ? kind : "");
        tt_buf_free(&title);
    }
    free(st);
}

/* fps over time: the series ranked 0 (all scenes), then those ranked after (the top scenes)
 * folded into <details>; rows ordered by rank. */
static void series(tt_buf *b, const tt_hreport_table *t, const char **labels)
{
    size_t n = t->nrow, vc = (size_t)t->value_col, split = 0;
    /* value_col: start ms, length ms, frames, fps, then the windows of a bucket if given */
    size_t nv = t->ncol > vc + 4 ? 5 : 4;
    double *v = malloc((n ? n : 1) * 5 * sizeof *v);
    if (!v)
        return;
    for (size_t r = 0; r < n; r++)
        for (size_t k = 0; k < nv; k++)
            v[k * n + r] = val(t, r, vc + k);
    const double *w = nv == 5 ? v + 4 * n : NULL;
    while (split < n && val(t, split, (size_t)t->label_col + 1) == 0)
        split++;
    if (split)
        tt_chart_series(b, t->caption, labels, v, v + n, v + 2 * n, v + 3 * n, w, split);
    if (split < n) {
        /* rows ordered by rank (a scene's) and series (its line per trace) */
        size_t ns = 0, nl = 0;
        for (size_t r = split; r < n; r++) {
            ns += r == split || val(t, r, (size_t)t->label_col + 1) !=
                                    val(t, r - 1, (size_t)t->label_col + 1);
            nl += r == split || strcmp(labels[r] ? labels[r] : "",
                                       labels[r - 1] ? labels[r - 1] : "");
        }
        tt_buf_printf(b, "<details><summary>fps over time of the top %zu scene%s by frames", ns,
                      ns == 1 ? "" : "s");
        if (nl != ns)
            tt_buf_printf(b, " (%zu lines: one per trace and model)", nl);
        tt_buf_puts(b, "</summary>\n");
        tt_buf title = {0};
        tt_buf_puts(&title, t->caption);
        tt_buf_puts(&title, ": top scenes by frames");
        tt_chart_series(b, title.data, labels + split, v + split, v + n + split,
                        v + 2 * n + split, v + 3 * n + split, w ? w + split : NULL, n - split);
        tt_buf_free(&title);
        tt_buf_puts(b, "</details>\n");
    }
    free(v);
}

static void chart(tt_buf *b, const tt_hreport_table *t)
{
    size_t n = t->nrow;
    const char **labels = malloc((n ? n : 1) * sizeof *labels);
    double *v = malloc((n ? n : 1) * 5 * sizeof *v);
    if (!labels || !v) {
        free(labels);
        free(v);
        return;
    }
    for (size_t r = 0; r < n; r++) {
        labels[r] = cell(t, r, (size_t)t->label_col);
        if (t->chart == TT_RCHART_LEVELS)
            for (int k = 0; k < 5; k++) {
                double x = val(t, r, (size_t)t->value_col + (size_t)k);
                v[r * 5 + (size_t)k] = isnan(x) ? 0 : x;
            }
        else
            v[r] = val(t, r, (size_t)t->value_col);
        if (t->chart == TT_RCHART_STRIP) { /* the next column: why the row is left out */
            const char *why = cell(t, r, (size_t)t->value_col + 1);
            if (why && *why)
                v[r] = NAN;
        }
    }
    if (t->chart == TT_RCHART_LEVELS)
        tt_chart_levels(b, t->caption, labels, v, n);
    else if (t->chart == TT_RCHART_WATERFALL)
        waterfalls(b, t, labels);
    else if (t->chart == TT_RCHART_HIST)
        histogram(b, t, labels, v);
    else if (t->chart == TT_RCHART_SERIES)
        series(b, t, labels);
    else if (t->chart == TT_RCHART_STRIP)
        tt_chart_strip(b, t->caption, labels, v, n, t->unit ? t->unit : "");
    else
        bars(b, t, labels, v);
    free(labels);
    free(v);
}

static const struct {
    const char *id, *title;
} sections[] = {{"summary", "Summary"}, {"inputs", "Inputs"},   {"startup", "Startup"},
                {"frames", "Frames"},   {"issues", "Issues"},   {"methods", "Methods"},
                {"flame", "Flame graphs"}, {"diff", "Diff"}, {"about", "About"}};
#define NSECTIONS (sizeof sections / sizeof sections[0])

static void section_tables(tt_buf *b, const tt_hreport *r, const char *id)
{
    for (size_t i = 0; i < r->ntables; i++) {
        const tt_hreport_table *t = &r->tables[i];
        if (strcmp(t->section, id))
            continue;
        if (!t->nrow) {
            tt_buf_puts(b, "<p class=\"nodata\">");
            esc(b, t->caption);
            tt_buf_puts(b, ": no data</p>\n");
            continue;
        }
        if (t->chart)
            chart(b, t);
        if (t->details || t->chart) {
            tt_buf_printf(b, "<details%s><summary>", t->chart ? "" : " open");
            esc(b, t->caption);
            tt_buf_printf(b, " (%zu rows%s)</summary>\n", t->nrow,
                          t->chart ? ", the chart's data" : "");
        }
        table(b, t);
        if (t->details || t->chart)
            tt_buf_puts(b, "</details>\n");
    }
}

static void ms(tt_buf *b, int64_t ns)
{
    if (ns < 0) {
        tt_buf_puts(b, "?");
        return;
    }
    int64_t us = (ns + 500) / 1000;
    tt_buf_printf(b, "%lld.%03d ms", (long long)(us / 1000), (int)(us % 1000));
}

static void tree_line(tt_buf *b, const tt_hreport_node *n, int64_t root)
{
    int64_t p = root > 0 && n->total_dur > 0 ? tt_muldiv(n->total_dur, 1000, root) : 0;
    if (p > 1000)
        p = 1000;
    tt_buf_printf(b, "<span class=\"bar\" aria-hidden=\"true\"><span style=\"width:%lld.%d%%\">"
                     "</span></span> <span class=\"nm\">",
                  (long long)(p / 10), (int)(p % 10));
    esc(b, n->name);
    tt_buf_puts(b, "</span> ");
    ms(b, n->total_dur);
    tt_buf_puts(b, " (self ");
    ms(b, n->self_dur);
    if (n->count > 1)
        tt_buf_printf(b, ", %lld calls", (long long)n->count);
    tt_buf_printf(b, ", %lld.%d%%)", (long long)(p / 10), (int)(p % 10));
}

/* An issue's call tree as nested <details> (keyboard reachable: every summary is a
 * control), bars of total / root. */
static void tree(tt_buf *b, const tt_hreport_tree *t)
{
    const tt_hreport_node *n = t->nodes.data;
    size_t nn = t->nodes.len, open = 0;
    int64_t root = 0;
    for (size_t i = 0; i < nn; i++)
        if (!n[i].depth && n[i].total_dur > root)
            root = n[i].total_dur;
    tt_buf_puts(b, "<details class=\"issue\"><summary>");
    esc(b, t->title);
    tt_buf_printf(b, " (%zu call%s)</summary>\n<div class=\"tree\">\n", nn + t->omitted,
                  nn + t->omitted == 1 ? "" : "s");
    uint32_t *stack = malloc((nn ? nn : 1) * sizeof *stack);
    for (size_t i = 0; i < nn && stack; i++) {
        while (open && stack[open - 1] >= n[i].depth) {
            tt_buf_puts(b, "</details>\n");
            open--;
        }
        if (i + 1 < nn && n[i + 1].depth > n[i].depth) {
            tt_buf_printf(b, "<details%s><summary>", n[i].depth < 2 ? " open" : "");
            tree_line(b, &n[i], root);
            tt_buf_puts(b, "</summary>\n");
            stack[open++] = n[i].depth;
        } else {
            tt_buf_puts(b, "<div class=\"leaf\">");
            tree_line(b, &n[i], root);
            tt_buf_puts(b, "</div>\n");
        }
    }
    while (open--)
        tt_buf_puts(b, "</details>\n");
    free(stack);
    if (t->omitted)
        tt_buf_printf(b, "<p class=\"nodata\">%zu more calls not shown</p>\n", t->omitted);
    tt_buf_puts(b, "</div>\n");
    if (t->svg) {
        tt_buf_puts(b, "<figure class=\"flame\"><figcaption>Icicle of this call tree"
                       "</figcaption>\n");
        tt_buf_puts(b, t->svg);
        tt_buf_puts(b, "</figure>\n");
    }
    tt_buf_puts(b, "</details>\n");
}

/* Swatches of the flame graph colours (visual.md 4.1) and the drop levels. */
static void colour_legend(tt_buf *b)
{
    static const char *const what[TT_FCAT_COUNT] = {
        "synthetic (all, threads, unknown)", "elided (too narrow to draw)", "kernel",
        "JavaScript", "Java platform (android., java., kotlin., ...)", "Java app code",
        "C++ (names with ::)", "other native code"};
    tt_buf_printf(b, "<svg class=\"chart legend\" xmlns=\"http://www.w3.org/2000/svg\" "
                     "role=\"img\" viewBox=\"0 0 720 %d\"><title>Flame graph colours</title>"
                     "<desc>one colour family per kind of code; the shade is a hash of the "
                     "name</desc>\n", 18 * (TT_FCAT_COUNT + 1) + 4);
    for (int k = 0; k < TT_FCAT_COUNT; k++) {
        int y = 18 * k + 2;
        for (int e = 0; e < 2; e++) { /* two shades of the family (two names hashed) */
            uint32_t c = k == TT_FCAT_ELIDED ? 0xd9d9d9
                                             : tt_flame_color(TT_COLORS_LANG, k, e ? "zz" : "",
                                                              e ? 2 : 0, NULL);
            tt_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"14\" "
                             "fill=\"rgb(%u,%u,%u)\" stroke=\"#555\" stroke-width=\"0.5\"/>",
                          4 + 18 * e, y, c >> 16, c >> 8 & 255, c & 255);
        }
        tt_buf_printf(b, "<text x=\"44\" y=\"%d\">%s: %s</text>\n", y + 11,
                      tt_flame_cat_name(k), what[k]);
    }
    tt_buf_printf(b, "<text x=\"4\" y=\"%d\">--colors module|package: 12 ColorBrewer Set3 "
                     "colours by a hash of the module or package; the graph's legend names the "
                     "heaviest</text>\n</svg>\n", 18 * TT_FCAT_COUNT + 13);
}

int tt_html_write(tt_buf *b, const tt_hreport *r, const tt_html_opts *o)
{
    const char *title = o->title ? o->title : "tracetool report";
    tt_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                   "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
                   "<title>");
    esc(b, title);
    tt_buf_puts(b, "</title>\n<style>\n");
    tt_buf_puts(b, tt_asset_report_css);
    tt_buf_puts(b, tt_asset_flame_css);
    tt_buf_puts(b, "</style>\n</head>\n<body>\n<header><h1>");
    esc(b, title);
    tt_buf_puts(b, "</h1>");
    if (o->inputs) {
        tt_buf_puts(b, "<p class=\"meta\">");
        esc(b, o->inputs);
        tt_buf_puts(b, "</p>");
    }
    tt_buf_puts(b, "</header>\n<nav aria-label=\"Sections\"><ul>");
    for (size_t i = 0; i < NSECTIONS; i++)
        if (o->diff || strcmp(sections[i].id, "diff"))
            tt_buf_printf(b, "<li><a href=\"#%s\">%s</a></li>", sections[i].id,
                          sections[i].title);
    tt_buf_puts(b, "</ul></nav>\n<main>\n");
    for (size_t i = 0; i < NSECTIONS; i++) {
        const char *id = sections[i].id;
        if (!o->diff && !strcmp(id, "diff"))
            continue;
        tt_buf_printf(b, "<section id=\"%s\" aria-labelledby=\"h-%s\">\n<h2 id=\"h-%s\">%s</h2>\n",
                      id, id, id, sections[i].title);
        if (!strcmp(id, "flame") || !strcmp(id, "diff")) {
            int d = !strcmp(id, "diff"), any = 0;
            if (d)
                section_tables(b, r, id);
            for (size_t g = 0; g < o->ngraphs; g++)
                any += o->graphs[g].diff == d;
            if (!any)
                tt_buf_printf(b, "<p class=\"nodata\">%s: no data</p>\n",
                              d ? "Differential flame graph" : "Flame graphs");
            for (size_t g = 0; g < o->ngraphs; g++) {
                if (o->graphs[g].diff != d)
                    continue;
                tt_buf_puts(b, "<figure class=\"flame\"><figcaption>");
                esc(b, o->graphs[g].title);
                tt_buf_puts(b, "</figcaption>\n");
                if (o->script)
                    tt_buf_printf(b, "<label>Search (regular expression) <input type=\"search\" "
                                     "class=\"tt-search\"></label>\n");
                tt_buf_puts(b, o->graphs[g].svg);
                tt_buf_puts(b, "</figure>\n");
            }
        } else if (!strcmp(id, "about")) {
            tt_buf_puts(b, "<p>Written by tracetool " TT_VERSION_STRING
                           ". Flame graph colours: green Java app code, aqua Java platform, "
                           "yellow C++, red other native code, orange kernel, purple "
                           "JavaScript, grey synthetic frames; the shade is a hash of the name, "
                           "so one function has one colour in every graph. Grey boxes "
                           "<code>[K elided]</code> stand for frames too narrow to draw. "
                           "Charts name every value in their tooltip and data table; drop "
                           "levels run from best (light) to frozen (dark red).</p>\n");
            colour_legend(b);
            if (o->about) {
                tt_buf_puts(b, "<p class=\"meta\">");
                esc(b, o->about);
                tt_buf_puts(b, "</p>\n");
            }
        } else {
            section_tables(b, r, id);
            if (!strcmp(id, "issues")) {
                tt_buf_puts(b, "<h3>Call trees of the costliest issues</h3>\n");
                if (!r->ntrees)
                    tt_buf_puts(b, "<p class=\"nodata\">Issue call trees: no data</p>\n");
                for (size_t t = 0; t < r->ntrees; t++)
                    tree(b, &r->trees[t]);
            }
        }
        tt_buf_puts(b, "</section>\n");
    }
    tt_buf_puts(b, "</main>\n");
    if (o->script) {
        tt_buf_puts(b, "<script>\n");
        tt_buf_puts(b, tt_asset_flame_js);
        tt_buf_puts(b, tt_asset_report_js);
        tt_buf_puts(b, "</script>\n");
    }
    tt_buf_puts(b, "</body>\n</html>\n");
    return 0;
}
