/* Flame graph SVG and layout TSV writers, spec/visual.md sections 3.3, 3.4, 4 and 7: exact
 * pixel edges from cumulative positions, integer number formatting, tooltips, legend. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_assets.h"

const char *tt_flame_script(void)
{
    return tt_asset_flame_js;
}

const char *tt_flame_style(void)
{
    return tt_asset_flame_css;
}

void tt_svg_opts_init(tt_svg_opts *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1200;
    o->row_height = 16;
    o->font_size = 12;
    o->script = 1;
    o->countname = "samples";
    o->nametype = "Function:";
    o->id_prefix = "tt1";
}

typedef struct wctx {
    tt_buf *b;
    tt_flame *f;
    const tt_flame_layout *l;
    const tt_svg_opts *o;
    int64_t total, m; /* width total; diff colour scale max */
    int height, top, bottom;
} wctx;

/* v tenths as "v/10.v%10" */
static void tenths(tt_buf *b, int64_t v)
{
    tt_buf_printf(b, "%lld.%d", (long long)(v / 10), (int)(v % 10));
}

static int64_t px10(const wctx *c, int64_t u)
{
    return 100 + tt_muldiv(u, (int64_t)(c->o->width - 20) * 10, c->total ? c->total : 1);
}

/* 1234567 -> "1,234,567" (sign kept) */
static void thousands(tt_buf *b, int64_t v)
{
    char d[32];
    uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int n = 0;
    do {
        d[n++] = (char)('0' + a % 10);
        a /= 10;
    } while (a);
    if (v < 0)
        tt_buf_puts(b, "-");
    for (int i = n - 1; i >= 0; i--) {
        char ch = d[i];
        tt_buf_put(b, &ch, 1);
        if (i && i % 3 == 0)
            tt_buf_puts(b, ",");
    }
}

/* A weight: count with separators, or ns as ms with 3 decimals (µs rounded half up). */
static void amount(tt_buf *b, const tt_svg_opts *o, int64_t v)
{
    if (!o->weight_ns) {
        thousands(b, v);
        return;
    }
    int neg = v < 0;
    int64_t us = tt_muldiv(neg ? -v : v, 1, 1000);
    if (neg)
        tt_buf_puts(b, "-");
    thousands(b, us / 1000);
    tt_buf_printf(b, ".%03d", (int)(us % 1000));
}

static void unit(tt_buf *b, const tt_svg_opts *o)
{
    tt_buf_puts(b, " ");
    tt_svg_escape(b, o->countname, strlen(o->countname), 1);
}

/* "12.34" percent of total, 2 decimals through muldiv; signed. */
static void pct(tt_buf *b, int64_t v, int64_t total)
{
    int neg = v < 0;
    int64_t p = tt_muldiv(neg ? -v : v, 10000, total > 0 ? total : 1);
    tt_buf_printf(b, "%s%lld.%02d", neg ? "-" : "", (long long)(p / 100), (int)(p % 100));
}

static void signed_amount(tt_buf *b, const tt_svg_opts *o, int64_t v)
{
    if (v >= 0)
        tt_buf_puts(b, "+");
    amount(b, o, v);
}

static int64_t delta_of(const wctx *c, const tt_flame_node *n)
{
    return c->o->diff_total ? n->total - n->total_b : n->self - n->self_b;
}

static void tooltip(wctx *c, const tt_flame_frame *fr, const tt_flame_node *n)
{
    tt_buf *b = c->b;
    const tt_svg_opts *o = c->o;
    if (fr->node == TT_NONE) {
        tt_buf_printf(b, "[%lld elided]&#10;", (long long)fr->elided_n);
        amount(b, o, fr->w);
        unit(b, o);
        tt_buf_puts(b, " (");
        pct(b, fr->w, c->total);
        tt_buf_puts(b, "%); largest: ");
        for (int i = 0; i < 3 && fr->top[i] != TT_NONE; i++) {
            size_t len;
            const char *s = tt_flame_name(c->f, tt_flame_node_at(c->f, fr->top[i])->name, &len);
            if (i)
                tt_buf_puts(b, ", ");
            tt_svg_escape(b, s, len, 0);
        }
        return;
    }
    size_t len;
    const char *s = tt_flame_name(c->f, n->name, &len);
    tt_svg_escape(b, s, len, 0);
    if (o->diff && !n->total_b && n->total)
        tt_buf_puts(b, " (new)");
    else if (o->diff && n->total_b && !n->total)
        tt_buf_puts(b, " (gone)");
    if (n->matrix_depth >= 0)
        tt_buf_printf(b, " (Matrix depth %lld)", (long long)n->matrix_depth);
    tt_buf_puts(b, "&#10;");
    if (o->diff) {
        const tt_flame_node *r = tt_flame_node_at(c->f, 0);
        tt_buf_puts(b, "new ");
        amount(b, o, n->total);
        unit(b, o);
        tt_buf_puts(b, " (");
        pct(b, n->total, r->total);
        tt_buf_puts(b, "%); base ");
        amount(b, o, n->total_b);
        tt_buf_puts(b, " (");
        pct(b, n->total_b, r->total_b);
        tt_buf_puts(b, "%); self \xce\x94 ");
        signed_amount(b, o, n->self - n->self_b);
        tt_buf_puts(b, " (");
        if (n->self - n->self_b >= 0)
            tt_buf_puts(b, "+");
        pct(b, n->self - n->self_b, c->total);
        tt_buf_puts(b, "%); total \xce\x94 ");
        signed_amount(b, o, n->total - n->total_b);
        tt_buf_puts(b, " (");
        if (n->total - n->total_b >= 0)
            tt_buf_puts(b, "+");
        pct(b, n->total - n->total_b, c->total);
        tt_buf_puts(b, "%)");
    } else {
        amount(b, o, fr->w);
        unit(b, o);
        tt_buf_puts(b, " (");
        pct(b, fr->w, c->total);
        tt_buf_puts(b, "%)");
        if (n->self > 0) {
            tt_buf_puts(b, ", self ");
            amount(b, o, n->self);
        }
        if (n->reported >= 0 && n->reported != n->total) {
            tt_buf_puts(b, ", reported ");
            amount(b, o, n->reported);
        }
    }
    if (fr->elided_n > 0) {
        tt_buf_printf(b, ", elided %lld frames, ", (long long)fr->elided_n);
        amount(b, o, fr->elided_w);
        unit(b, o);
    }
}

static uint32_t fill_of(const wctx *c, const tt_flame_frame *fr, const tt_flame_node *n,
                        int *cat)
{
    if (fr->node == TT_NONE) {
        *cat = TT_FCAT_ELIDED;
        return 0xd9d9d9;
    }
    *cat = tt_flame_name_cat(c->f, n->name);
    if (c->o->diff) {
        int64_t d = delta_of(c, n), a = d < 0 ? -d : d;
        /* |d| below diff-min thousandths of a percent of T: neutral */
        int dead = c->o->diff_min_milli &&
                   tt_muldiv(a, 100000, 1) < tt_muldiv(c->o->diff_min_milli, c->total, 1);
        return tt_flame_diff_color(d, c->m, dead);
    }
    size_t len;
    const char *s = tt_flame_name(c->f, n->name, &len);
    return tt_flame_color(c->o->colors, *cat, s, len, tt_flame_name_module(c->f, n->name));
}

static int row_y(const wctx *c, uint32_t depth)
{
    int fh = c->o->row_height;
    return c->o->icicle ? c->top + fh * (int)depth : c->height - c->bottom - fh * ((int)depth + 1);
}

static void frame(wctx *c, const tt_flame_frame *fr)
{
    tt_buf *b = c->b;
    const tt_svg_opts *o = c->o;
    const tt_flame_node *n = fr->node == TT_NONE ? NULL : tt_flame_node_at(c->f, fr->node);
    int cat;
    uint32_t rgb = fill_of(c, fr, n, &cat);
    /* saturated weights (tracetool-flamegraph(1)): a frame past 2^63-1 is drawn at the end */
    int64_t x0 = px10(c, fr->x), x1 = px10(c, tt_sat_add_i64(fr->x, fr->w)), bw = x1 - x0;
    int y = row_y(c, fr->depth);
    tt_buf_printf(b, "<g class=\"f c-%s\"><title>", tt_flame_cat_name(cat));
    tooltip(c, fr, n);
    tt_buf_puts(b, "</title><rect x=\"");
    tenths(b, x0);
    tt_buf_printf(b, "\" y=\"%d\" width=\"", y);
    tenths(b, bw >= 20 ? bw - 5 : bw);
    tt_buf_printf(b, "\" height=\"%d\" fill=\"rgb(%u,%u,%u)\" data-x=\"%lld\" data-w=\"%lld\"",
                  o->row_height - 1, rgb >> 16, rgb >> 8 & 255, rgb & 255, (long long)fr->x,
                  (long long)fr->w);
    if (o->diff && n)
        tt_buf_printf(b, " data-b=\"%lld\" data-dd=\"%lld\"",
                      (long long)tt_flame_width_of(n, TT_FLAME_WIDTH_BASE),
                      (long long)delta_of(c, n));
    tt_buf_puts(b, "/>");
    int64_t cw10 = (o->font_size * 605 + 99) / 100;
    if (bw > 60) {
        size_t cells = (size_t)((bw - 60) / cw10);
        size_t mark = b->len;
        tt_buf_puts(b, "<text x=\"");
        tenths(b, x0 + 30);
        tt_buf_puts(b, "\" y=\"");
        tenths(b, (int64_t)y * 10 + (o->row_height - 1) * 5 + 30);
        tt_buf_puts(b, "\">");
        size_t len;
        char ebuf[32];
        const char *s;
        if (n)
            s = tt_flame_name(c->f, n->name, &len);
        else {
            snprintf(ebuf, sizeof ebuf, "[%lld elided]", (long long)fr->elided_n);
            s = ebuf, len = strlen(ebuf);
        }
        if (tt_svg_fit(b, s, len, cells, o->truncate_left) == 1)
            tt_buf_puts(b, "</text>");
        else
            b->len = mark;
    }
    tt_buf_puts(b, "</g>\n");
}

static void header(wctx *c, const char *summary)
{
    tt_buf *b = c->b;
    const tt_svg_opts *o = c->o;
    const char *P = o->id_prefix;
    if (!o->inline_html)
        tt_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    tt_buf_printf(b, "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                     "height=\"%d\" viewBox=\"0 0 %d %d\" class=\"tt-flame\" data-total=\"%lld\" "
                     "data-unit=\"",
                  o->width, c->height, o->width, c->height, (long long)c->total);
    tt_svg_escape(b, o->countname, strlen(o->countname), 1);
    tt_buf_printf(b, "\" data-mode=\"%s\" data-orient=\"%s\" data-fh=\"%d\" data-fs=\"%d\" "
                     "data-nametype=\"",
                  o->diff ? "diff" : o->chart ? "chart" : "graph", o->icicle ? "icicle" : "flame",
                  o->row_height, o->font_size);
    tt_svg_escape(b, o->nametype, strlen(o->nametype), 1);
    tt_buf_printf(b, "\" role=\"img\" aria-labelledby=\"%s-t %s-d\"%s>\n", P, P,
                  o->script && !o->inline_html ? " onload=\"tt_init(this)\"" : "");
    const char *title = o->title ? o->title
                        : o->diff ? "Differential Flame Graph"
                        : o->chart ? "Flame Chart"
                        : o->icicle ? "Icicle Graph"
                                    : "Flame Graph";
    tt_buf_printf(b, "<title id=\"%s-t\">", P);
    tt_svg_escape(b, title, strlen(title), 0);
    tt_buf_printf(b, "</title><desc id=\"%s-d\">", P);
    tt_svg_escape(b, summary, strlen(summary), 0);
    tt_buf_puts(b, "</desc>\n");
    if (!o->inline_html) {
        tt_buf_puts(b, "<style>");
        tt_buf_puts(b, tt_flame_style());
        tt_buf_puts(b, "</style>\n");
        if (o->script) {
            tt_buf_puts(b, "<script type=\"text/ecmascript\"><![CDATA[\n");
            tt_buf_puts(b, tt_flame_script());
            tt_buf_puts(b, "]]></script>\n");
        }
    }
    const char *g0 = "eeeeee", *g1 = o->diff ? "e8e8e8" : o->weight_ns ? "e0e0ff" : "eeeeb0";
    if (o->diff)
        g0 = "f8f8f8";
    tt_buf_printf(b, "<defs><linearGradient id=\"%s-bg\" y1=\"0\" x1=\"0\" x2=\"0\" y2=\"1\">"
                     "<stop stop-color=\"#%s\" offset=\"5%%\"/><stop stop-color=\"#%s\" "
                     "offset=\"95%%\"/></linearGradient></defs>\n",
                  P, g0, g1);
    tt_buf_printf(b, "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
                     "fill=\"url(#%s-bg)\"/>\n",
                  o->width, c->height, P);
    int fs = o->font_size;
    tt_buf_printf(b, "<text class=\"title\" x=\"%d\" y=\"%d\">", o->width / 2, fs * 2);
    tt_svg_escape(b, title, strlen(title), 0);
    tt_buf_puts(b, "</text>\n");
    if (o->subtitle) {
        tt_buf_printf(b, "<text class=\"subtitle\" x=\"%d\" y=\"%d\">", o->width / 2, fs * 4);
        tt_svg_escape(b, o->subtitle, strlen(o->subtitle), 0);
        tt_buf_puts(b, "</text>\n");
    }
    if (o->script) {
        tt_buf_printf(b, "<text class=\"unzoom hide\" tabindex=\"0\" role=\"button\" x=\"10\" "
                         "y=\"%d\">Reset Zoom</text>\n", fs * 2);
        tt_buf_printf(b, "<text class=\"search\" tabindex=\"0\" role=\"button\" x=\"%d\" "
                         "y=\"%d\">Search</text>\n", o->width - 120, fs * 2);
        tt_buf_printf(b, "<text class=\"ic\" tabindex=\"0\" role=\"button\" x=\"%d\" "
                         "y=\"%d\">ic</text>\n", o->width - 30, fs * 2);
    }
}

typedef struct lkey {
    const char *k;
    size_t n;
    int64_t w;
    uint32_t rgb;
} lkey;

static int lkey_name(const void *a, const void *b)
{
    const lkey *x = a, *y = b;
    int r = memcmp(x->k, y->k, x->n < y->n ? x->n : y->n);
    return r ? r : x->n < y->n ? -1 : x->n > y->n;
}

static int lkey_weight(const void *a, const void *b)
{
    const lkey *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return lkey_name(a, b);
}

/* Module and package schemes: the 12 heaviest keys (self weight of the drawn frames). */
static void key_legend(wctx *c)
{
    tt_buf *b = c->b;
    const tt_svg_opts *o = c->o;
    int y = c->height - 14;
    lkey *k = malloc((c->l->n ? c->l->n : 1) * sizeof *k);
    size_t n = 0;
    for (size_t i = 0; k && i < c->l->n; i++) {
        const tt_flame_frame *fr = &c->l->frames[i];
        if (fr->node == TT_NONE)
            continue;
        const tt_flame_node *nd = tt_flame_node_at(c->f, fr->node);
        int cat = tt_flame_name_cat(c->f, nd->name);
        if (cat == TT_FCAT_SYNTHETIC || nd->self <= 0)
            continue;
        size_t len;
        const char *nm = tt_flame_name(c->f, nd->name, &len), *mod;
        mod = tt_flame_name_module(c->f, nd->name);
        k[n].k = tt_flame_color_key(o->colors, cat, nm, len, mod, &k[n].n);
        k[n].w = nd->self;
        k[n++].rgb = tt_flame_color(o->colors, cat, nm, len, mod);
    }
    size_t m = 0;
    if (n) {
        qsort(k, n, sizeof *k, lkey_name);
        for (size_t i = 0; i < n; i++) { /* equal keys add up */
            if (m && !lkey_name(&k[m - 1], &k[i]))
                k[m - 1].w = tt_sat_add_i64(k[m - 1].w, k[i].w);
            else
                k[m++] = k[i];
        }
        qsort(k, m, sizeof *k, lkey_weight);
    }
    size_t shown = m < 12 ? m : 12;
    int cellw = shown ? (o->width - 20) / (int)shown : 0, x = 10;
    size_t cells = cellw > 24 ? (size_t)((cellw - 22) * 10 / 73) : 0;
    for (size_t i = 0; i < shown; i++, x += cellw) {
        tt_buf_printf(b, "<g><title>");
        tt_svg_escape(b, k[i].k, k[i].n, 0);
        tt_buf_printf(b, "</title><rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
                         "fill=\"rgb(%u,%u,%u)\"/><text x=\"%d\" y=\"%d\">",
                      x, y, k[i].rgb >> 16, k[i].rgb >> 8 & 255, k[i].rgb & 255, x + 16, y + 10);
        if (!k[i].n)
            tt_buf_puts(b, "(none)");
        else if (!tt_svg_fit(b, k[i].k, k[i].n, cells, 1))
            tt_buf_puts(b, "..");
        tt_buf_puts(b, "</text></g>");
    }
    if (!shown)
        tt_buf_printf(b, "<text x=\"10\" y=\"%d\">colours: %s (12 colours by a hash of its "
                         "name)</text>", y + 10, o->colors == TT_COLORS_MODULE ? "module"
                                                                               : "package");
    free(k);
}

/* The colour legend: categories drawn, or the diff ramp -M .. 0 .. +M. */
static void legend(wctx *c, const unsigned *used)
{
    tt_buf *b = c->b;
    const tt_svg_opts *o = c->o;
    int y = c->height - 14, x = 10;
    tt_buf_puts(b, "<g class=\"legend\">");
    if (o->diff) {
        for (int i = 0; i < 9; i++, x += 92) {
            int64_t d = tt_muldiv(c->m, (uint64_t)(i < 4 ? 4 - i : i - 4), 4);
            if (i < 4)
                d = -d;
            uint32_t rgb = tt_flame_diff_color(d, c->m, 0);
            tt_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"88\" height=\"12\" "
                             "fill=\"rgb(%u,%u,%u)\"/><text x=\"%d\" y=\"%d\">",
                          x, y, rgb >> 16, rgb >> 8 & 255, rgb & 255, x + 3, y + 10);
            signed_amount(b, o, d);
            tt_buf_puts(b, "</text>");
        }
        const tt_flame_node *r = tt_flame_node_at(c->f, 0);
        if (o->widths == TT_FLAME_WIDTH_NEW && r->total_b) {
            /* base weight of paths with nothing in new */
            int64_t gone = 0;
            for (size_t i = 1; i < tt_flame_nnodes(c->f); i++) {
                const tt_flame_node *n = tt_flame_node_at(c->f, (uint32_t)i);
                if (!n->total && n->total_b &&
                    tt_flame_node_at(c->f, n->parent)->total)
                    gone = tt_sat_add_i64(gone, n->total_b);
            }
            tt_buf_printf(b, "<text x=\"%d\" y=\"%d\">absent from new: ", x + 6, y + 10);
            int64_t p = tt_muldiv(gone, 1000, r->total_b);
            tt_buf_printf(b, "%lld.%d%% of base (see --diff-widths=base|sum)</text>",
                          (long long)(p / 10), (int)(p % 10));
        }
    } else if (o->colors == TT_COLORS_MODULE || o->colors == TT_COLORS_PACKAGE) {
        key_legend(c);
    } else if (o->colors != TT_COLORS_LANG) {
        static const char *const scheme[] = {"", "module", "package", "hot", "mono"};
        tt_buf_printf(b, "<text x=\"%d\" y=\"%d\">colours: %s%s</text>", x, y + 10,
                      scheme[o->colors],
                      o->colors <= TT_COLORS_PACKAGE ? " (12 colours by a hash of its name)" : "");
    } else {
        for (int k = 0; k < TT_FCAT_COUNT; k++) {
            if (!used[k])
                continue;
            uint32_t rgb = k == TT_FCAT_ELIDED ? 0xd9d9d9
                                               : tt_flame_color(o->colors, k, "", 0, NULL);
            const char *nm = tt_flame_cat_name(k);
            tt_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
                             "fill=\"rgb(%u,%u,%u)\"/><text x=\"%d\" y=\"%d\">%s</text>",
                          x, y, rgb >> 16, rgb >> 8 & 255, rgb & 255, x + 16, y + 10, nm);
            x += 24 + (int)strlen(nm) * 8;
        }
    }
    tt_buf_puts(b, "</g>\n");
}

int tt_svg_write(tt_buf *b, tt_flame *f, const tt_flame_layout *l, const tt_svg_opts *o)
{
    wctx c = {b, f, l, o, l->total, 1, 0, 0, 0};
    int fs = o->font_size;
    c.top = 3 * fs + (o->subtitle ? 2 * fs : 0);
    c.bottom = 4 * fs + 10;
    c.height = (int)(l->max_depth + 1) * o->row_height + c.top + c.bottom;
    unsigned used[TT_FCAT_COUNT] = {0};
    for (size_t i = 0; i < l->n; i++) {
        const tt_flame_frame *fr = &l->frames[i];
        if (fr->node == TT_NONE) {
            used[TT_FCAT_ELIDED] = 1;
            continue;
        }
        const tt_flame_node *n = tt_flame_node_at(f, fr->node);
        used[tt_flame_name_cat(f, n->name)] = 1;
        int64_t d = delta_of(&c, n);
        if (d < 0)
            d = -d;
        if (d > c.m)
            c.m = d;
    }
    char summary[256];
    snprintf(summary, sizeof summary, "%s of %lld %s, %zu of %zu frames drawn",
             o->diff    ? "differential flame graph"
             : o->chart ? "flame chart"
             : o->icicle ? "icicle graph"
                         : "flame graph",
             (long long)l->total, o->weight_ns ? "ns" : "samples", l->n, l->nodes);
    header(&c, summary);
    tt_buf_puts(b, "<g class=\"frames\">\n");
    for (size_t i = 0; i < l->n; i++)
        frame(&c, &l->frames[i]);
    tt_buf_puts(b, "</g>\n");
    if (o->script) {
        tt_buf_printf(b, "<text class=\"details\" x=\"10\" y=\"%d\"> </text>",
                      c.height - 2 * fs - 12);
        tt_buf_printf(b, "<text class=\"matched\" x=\"%d\" y=\"%d\"> </text>\n", o->width - 10,
                      c.height - 2 * fs - 12);
    }
    legend(&c, used);
    tt_buf_puts(b, "</svg>\n");
    return b->data || !b->len ? 0 : TT_ENOMEM;
}

int tt_flame_write_tsv(tt_buf *b, tt_flame *f, const tt_flame_layout *l)
{
    tt_buf_puts(b, "#depth\tx\tw\tself\tcategory\tname\n");
    for (size_t i = 0; i < l->n; i++) {
        const tt_flame_frame *fr = &l->frames[i];
        tt_buf_printf(b, "%u\t%lld\t%lld\t", fr->depth, (long long)fr->x, (long long)fr->w);
        if (fr->node == TT_NONE) {
            tt_buf_printf(b, "0\telided\t[%lld elided]\n", (long long)fr->elided_n);
            continue;
        }
        const tt_flame_node *n = tt_flame_node_at(f, fr->node);
        size_t len;
        const char *s = tt_flame_name(f, n->name, &len);
        tt_buf_printf(b, "%lld\t%s\t", (long long)n->self,
                      tt_flame_cat_name(tt_flame_name_cat(f, n->name)));
        /* one row per frame: breaks and tabs inside names become blanks */
        size_t st = b->len;
        tt_buf_put(b, s, len);
        for (size_t k = st; k < b->len; k++)
            if (b->data[k] == '\t' || b->data[k] == '\n' || b->data[k] == '\r')
                b->data[k] = ' ';
        tt_buf_puts(b, "\n");
    }
    return 0;
}
