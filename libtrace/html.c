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
    }
    if (t->chart == TT_RCHART_LEVELS)
        tt_chart_levels(b, t->caption, labels, v, n);
    else
        tt_chart_bars(b, t->caption, labels, v, n, t->unit ? t->unit : "",
                      t->color ? t->color : "#0072B2");
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
            if (o->about) {
                tt_buf_puts(b, "<p class=\"meta\">");
                esc(b, o->about);
                tt_buf_puts(b, "</p>\n");
            }
        } else {
            section_tables(b, r, id);
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
