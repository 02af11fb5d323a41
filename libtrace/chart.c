/* Static inline SVG charts of the HTML report, spec/visual.md 10.3: horizontal bars and 100%
 * stacked drop-level bars with a {1, 2, 5} x 10^k axis; every mark has a <title>. */
#include "tt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CW 720 /* viewBox width */
#define LW 220 /* label column */
#define BW 440 /* bar area */
#define RH 18  /* row height */

/* Okabe-Ito categories (visual.md 10.3) */
static const char *const okabe_ito[7] = {"#E69F00", "#56B4E9", "#009E73", "#F0E442",
                                         "#0072B2", "#D55E00", "#CC79A7"};

int64_t tt_chart_step_milli(double max)
{
    if (!(max > 0))
        return 1000;
    static const int m[3] = {1, 2, 5};
    for (int64_t p = 1;; p *= 10)
        for (int i = 0; i < 3; i++)
            if (max * 1000.0 / (double)(p * m[i]) <= 6.0 || p > (int64_t)1e15)
                return p * m[i];
}

/* A value with up to 3 decimals, trailing zeros dropped. */
static void num(tt_buf *b, double v)
{
    char t[64];
    snprintf(t, sizeof t, "%.3f", v);
    char *e = t + strlen(t);
    while (e > t && e[-1] == '0')
        *--e = 0;
    if (e > t && e[-1] == '.')
        *--e = 0;
    tt_buf_puts(b, strcmp(t, "-0") ? t : "0");
}

static void esc(tt_buf *b, const char *s)
{
    tt_svg_escape(b, s ? s : "", s ? strlen(s) : 0, 1);
}

static void head(tt_buf *b, const char *title, int h, const char *desc)
{
    tt_buf_printf(b, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
                     "viewBox=\"0 0 %d %d\"><title>", CW, h);
    esc(b, title);
    tt_buf_puts(b, "</title><desc>");
    tt_buf_puts(b, desc);
    tt_buf_puts(b, "</desc>\n");
}

/* A row label at x, fitted to cells (visual.md 6.1; left: ".." first, for names told apart
 * by their ends), the full text in its <title>. */
static void label_at(tt_buf *b, const char *s, int x, int y, size_t cells, int left)
{
    tt_buf_printf(b, "<text class=\"lbl\" x=\"%d\" y=\"%d\"><title>", x, y + 13);
    esc(b, s);
    tt_buf_puts(b, "</title>");
    if (s && *s)
        tt_svg_fit(b, s, strlen(s), cells, left);
    else
        tt_buf_puts(b, "(none)");
    tt_buf_puts(b, "</text>");
}

static void label(tt_buf *b, const char *s, int y)
{
    label_at(b, s, 4, y, 29, 0); /* 216 px at about 7.3 px a cell */
}

/* The axis end: the step multiple at or above max (thousandths). */
static int64_t axis_end(double max, int64_t *step)
{
    int64_t st = tt_chart_step_milli(max), end = st;
    while ((double)end < max * 1000.0)
        end += st;
    *step = st;
    return end;
}

static void grid(tt_buf *b, int64_t step, int64_t end, int rows)
{
    for (int64_t t = 0; t <= end; t += step) {
        double x = LW + (double)BW * (double)t / (double)end;
        tt_buf_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\"/>"
                         "<text class=\"tick\" x=\"%.1f\" y=\"%d\">",
                      x, x, rows * RH + 4, x, rows * RH + 18);
        num(b, (double)t / 1000.0);
        tt_buf_puts(b, "</text>");
    }
}

/* A dashed vertical line at value v (thousandths of the axis end) with its name. */
static void ref_line(tt_buf *b, double v, int64_t end, int rows, const char *name)
{
    double x = LW + (double)BW * v * 1000.0 / (double)end;
    tt_buf_printf(b, "<line class=\"ref\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" "
                     "stroke=\"#333\" stroke-dasharray=\"4 3\"><title>",
                  x, x, rows * RH + 2);
    esc(b, name);
    tt_buf_puts(b, "</title></line>\n");
}

int tt_chart_bars_ex(tt_buf *b, const char *title, const char *const *labels,
                     const double *values, size_t n, const char *unit,
                     const char *const *colors, size_t ncolors, double ref, const char *ref_name)
{
    double max = ref > 0 ? ref : 0;
    size_t worst = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(values[i]) && values[i] > max)
            max = values[i], worst = i;
    int64_t step, end = axis_end(max, &step);
    int h = (int)n * RH + 30;
    tt_buf d = {0};
    if (n) {
        tt_buf_puts(&d, "largest ");
        esc(&d, labels[worst]);
        tt_buf_puts(&d, ", ");
        num(&d, values[worst]);
        tt_buf_puts(&d, " ");
        esc(&d, unit ? unit : "");
    } else {
        tt_buf_puts(&d, "no data");
    }
    head(b, title, h, d.data);
    tt_buf_free(&d);
    grid(b, step, end, (int)n);
    for (size_t i = 0; i < n; i++) {
        int y = (int)i * RH;
        double v = isnan(values[i]) ? 0 : values[i];
        double w = v > 0 ? (double)BW * v * 1000.0 / (double)end : 0;
        label(b, labels[i], y);
        tt_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s>"
                         "<title>",
                      LW, y + 2, w, RH - 4, colors[ncolors > 1 ? i % ncolors : 0],
                      ncolors > 1 ? " stroke=\"#555\" stroke-width=\"0.5\"" : "");
        esc(b, labels[i]);
        tt_buf_puts(b, ": ");
        num(b, v);
        tt_buf_puts(b, " ");
        esc(b, unit ? unit : "");
        tt_buf_printf(b, "</title></rect><text class=\"val\" x=\"%.1f\" y=\"%d\">", LW + w + 4,
                      y + 13);
        num(b, v);
        tt_buf_puts(b, "</text>\n");
    }
    if (ref > 0)
        ref_line(b, ref, end, (int)n, ref_name ? ref_name : "");
    tt_buf_puts(b, "</svg>\n");
    return 0;
}

int tt_chart_bars(tt_buf *b, const char *title, const char *const *labels,
                  const double *values, size_t n, const char *unit, const char *color)
{
    return tt_chart_bars_ex(b, title, labels, values, n, unit, &color, 1, 0, NULL);
}

int tt_chart_waterfall(tt_buf *b, const char *title, const char *const *labels,
                       const double *start_ms, const double *dur_ms, size_t n, const char *kind)
{
    /* Vitals TTID limits and Matrix's thresholds (startup.md 5.3) */
    double vitals = !strcmp(kind, "cold") ? 5000 : !strcmp(kind, "warm") ? 2000
                  : !strcmp(kind, "hot")  ? 1500 : 0;
    double matrix = !strcmp(kind, "cold") ? 10000 : !strcmp(kind, "warm") ? 4000 : 0;
    double max = 0;
    size_t longest = 0;
    for (size_t i = 0; i < n; i++) {
        double e = (isnan(start_ms[i]) ? 0 : start_ms[i]) + (isnan(dur_ms[i]) ? 0 : dur_ms[i]);
        if (e > max)
            max = e;
        if (dur_ms[i] > dur_ms[longest])
            longest = i;
    }
    int64_t step, end = axis_end(max, &step);
    int show_v = vitals > 0 && vitals * 1000.0 <= 1.25 * (double)end;
    int show_m = matrix > 0 && matrix * 1000.0 <= 1.25 * (double)end;
    double top = show_m ? matrix : show_v ? vitals : 0;
    if (top > max)
        end = axis_end(top, &step);
    tt_buf d = {0};
    if (n) {
        tt_buf_puts(&d, "longest segment ");
        esc(&d, labels[longest]);
        tt_buf_puts(&d, ", ");
        num(&d, dur_ms[longest]);
        tt_buf_puts(&d, " ms; ends at ");
        num(&d, max);
        tt_buf_puts(&d, " ms");
        if (vitals > 0 && !show_v)
            tt_buf_printf(&d, "; Vitals limit %.0f ms beyond the axis", vitals);
        if (matrix > 0 && !show_m)
            tt_buf_printf(&d, "; Matrix threshold %.0f ms beyond the axis", matrix);
    } else {
        tt_buf_puts(&d, "no data");
    }
    int beyond = (vitals > 0 && !show_v) || (matrix > 0 && !show_m);
    head(b, title, (int)n * RH + 30 + (beyond && n ? 16 : 0), d.data);
    grid(b, step, end, (int)n);
    if (beyond && n) { /* the limits the axis does not reach, named under it */
        tt_buf_printf(b, "<text class=\"tick\" x=\"%d\" y=\"%d\">beyond the axis:", LW,
                      (int)n * RH + 36);
        if (vitals > 0 && !show_v)
            tt_buf_printf(b, " Android vitals %s TTID limit %.0f ms", kind, vitals);
        if (matrix > 0 && !show_m)
            tt_buf_printf(b, "%s Matrix %s threshold %.0f ms", vitals > 0 && !show_v ? ";" : "",
                          kind, matrix);
        tt_buf_puts(b, "</text>\n");
    }
    for (size_t i = 0; i < n; i++) {
        int y = (int)i * RH;
        double s0 = isnan(start_ms[i]) ? 0 : start_ms[i], v = isnan(dur_ms[i]) ? 0 : dur_ms[i];
        double x = LW + (double)BW * s0 * 1000.0 / (double)end;
        double w = v > 0 ? (double)BW * v * 1000.0 / (double)end : 0;
        label(b, labels[i], y);
        tt_buf_printf(b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                         "fill=\"%s\" stroke=\"#555\" stroke-width=\"0.5\"><title>",
                      x, y + 2, w, RH - 4, okabe_ito[i % 7]);
        esc(b, labels[i]);
        tt_buf_puts(b, ": from ");
        num(b, s0);
        tt_buf_puts(b, " ms for ");
        num(b, v);
        tt_buf_printf(b, " ms</title></rect><text class=\"val\" x=\"%.1f\" y=\"%d\">",
                      x + w + 4, y + 13);
        num(b, v);
        tt_buf_puts(b, " ms</text>\n");
    }
    char nm[64];
    if (show_v) {
        snprintf(nm, sizeof nm, "Android vitals %s TTID limit %.0f ms", kind, vitals);
        ref_line(b, vitals, end, (int)n, nm);
    }
    if (show_m) {
        snprintf(nm, sizeof nm, "Matrix %s threshold %.0f ms", kind, matrix);
        ref_line(b, matrix, end, (int)n, nm);
    }
    tt_buf_free(&d);
    tt_buf_puts(b, "</svg>\n");
    return 0;
}

static const char *const level_names[5] = {"best", "normal", "middle", "high", "frozen"};
static const char *const level_colors[5] = {"#ffffb2", "#fecc5c", "#fd8d3c", "#f03b20",
                                            "#bd0026"};

int tt_chart_levels(tt_buf *b, const char *title, const char *const *labels,
                    const double *counts, size_t n)
{
    int h = (int)n * RH + 30;
    double worst = -1;
    size_t wi = 0;
    for (size_t i = 0; i < n; i++) {
        double bad = counts[i * 5 + 3] + counts[i * 5 + 4], all = 0;
        for (int k = 0; k < 5; k++)
            all += counts[i * 5 + k];
        if (all > 0 && bad / all > worst)
            worst = bad / all, wi = i;
    }
    tt_buf d = {0};
    if (n && worst >= 0) {
        tt_buf_puts(&d, "most high and frozen frames: ");
        esc(&d, labels[wi]);
        tt_buf_printf(&d, ", %.1f%%", 100 * worst);
    } else {
        tt_buf_puts(&d, "no data");
    }
    head(b, title, h, d.data);
    tt_buf_free(&d);
    for (size_t i = 0; i < n; i++) {
        int y = (int)i * RH;
        double all = 0, x = LW;
        for (int k = 0; k < 5; k++)
            all += counts[i * 5 + k];
        label(b, labels[i], y);
        for (int k = 0; k < 5 && all > 0; k++) {
            double w = (double)BW * counts[i * 5 + k] / all;
            if (w <= 0)
                continue;
            tt_buf_printf(b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                             "fill=\"%s\"><title>",
                          x, y + 2, w, RH - 4, level_colors[k]);
            esc(b, labels[i]);
            tt_buf_printf(b, ": %s ", level_names[k]);
            num(b, counts[i * 5 + k]);
            tt_buf_puts(b, " frames</title></rect>");
            x += w;
        }
        tt_buf_puts(b, "\n");
    }
    for (int k = 0, x = LW; k < 5; k++, x += 88) /* legend */
        tt_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" "
                         "stroke=\"#555\"/><text class=\"tick\" x=\"%d\" y=\"%d\">%s</text>",
                      x, (int)n * RH + 8, level_colors[k], x + 16, (int)n * RH + 18,
                      level_names[k]);
    tt_buf_puts(b, "</svg>\n");
    return 0;
}

/* A strip row's label "source state: component": the part before ": " whole, the component
 * fitted to the cells left (visual.md 6.1; its class name, else cut with ".." first, as
 * components differ at their ends); the full text in the <title>. */
static void strip_label(tt_buf *b, const char *s, int y)
{
    const char *c = s ? strstr(s, ": ") : NULL;
    size_t pc = c ? tt_svg_cells(s, (size_t)(c - s)) + 2 : 0;
    if (!c || !c[2] || pc + 3 > 29) {
        label_at(b, s, 4, y, 29, 1);
        return;
    }
    tt_buf_printf(b, "<text class=\"lbl\" x=\"4\" y=\"%d\"><title>", y + 13);
    esc(b, s);
    tt_buf_puts(b, "</title>");
    tt_svg_escape(b, s, (size_t)(c - s) + 2, 0);
    tt_svg_fit(b, c + 2, strlen(c + 2), 29 - pc, 1);
    tt_buf_puts(b, "</text>");
}

/* A strip chart of launch times (visual.md 10.2 item 3): a row per group (labels[i] names the
 * group of values[i], a group's values consecutive; NAN values are left out), a dot per
 * value, the median (solid) and p90 (dashed) of the row marked, as startup.md 5.5 computes
 * them. */
int tt_chart_strip(tt_buf *b, const char *title, const char *const *labels,
                   const double *values, size_t n, const char *unit)
{
    int64_t *v = malloc((n ? n : 1) * sizeof *v);
    size_t *g0 = malloc((n + 1) * sizeof *g0); /* first value of each group with values */
    if (!v || !g0) {
        free(v);
        free(g0);
        return TT_ENOMEM;
    }
    size_t ng = 0, worst = 0;
    double max = 0;
    int64_t worst_med = -1;
    for (size_t i = 0, j; i < n; i = j) {
        size_t nv = 0;
        for (j = i; j < n && (j == i || !strcmp(labels[j] ? labels[j] : "",
                                                 labels[i] ? labels[i] : "")); j++)
            if (!isnan(values[j])) {
                v[nv++] = (int64_t)llround(values[j]);
                if (values[j] > max)
                    max = values[j];
            }
        if (!nv)
            continue;
        tt_su_dist d;
        tt_su_dist_compute(&d, v, nv);
        if (d.median > worst_med)
            worst_med = d.median, worst = i;
        g0[ng++] = i;
    }
    g0[ng] = n;
    int64_t step, end = axis_end(max, &step);
    int rows = (int)ng;
    tt_buf d = {0};
    if (ng) {
        tt_buf_puts(&d, "slowest median ");
        esc(&d, labels[worst]);
        tt_buf_printf(&d, ", %lld ", (long long)worst_med);
        esc(&d, unit ? unit : "");
    } else {
        tt_buf_puts(&d, "no launch is counted in the statistics");
    }
    head(b, title, rows * RH + 50, d.data);
    tt_buf_free(&d);
    grid(b, step, end, rows);
    for (int k = 0; k < rows; k++) {
        size_t i0 = g0[k], i1 = g0[k] + 1;
        while (i1 < n && !strcmp(labels[i1] ? labels[i1] : "", labels[i0] ? labels[i0] : ""))
            i1++;
        int y = k * RH;
        strip_label(b, labels[i0], y);
        size_t nv = 0;
        for (size_t i = i0; i < i1; i++) {
            if (isnan(values[i]))
                continue;
            v[nv++] = (int64_t)llround(values[i]);
            double x = LW + (double)BW * values[i] * 1000.0 / (double)end;
            tt_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\" "
                             "fill-opacity=\"0.6\" stroke=\"#333\" stroke-width=\"0.5\"><title>",
                          x, y + RH / 2, okabe_ito[k % 7]);
            esc(b, labels[i0]);
            tt_buf_puts(b, ": ");
            num(b, values[i]);
            tt_buf_puts(b, " ");
            esc(b, unit ? unit : "");
            tt_buf_puts(b, "</title></circle>");
        }
        tt_su_dist st;
        tt_su_dist_compute(&st, v, nv);
        const int64_t mark[2] = {st.median, st.p90};
        for (int m = 0; m < 2; m++) {
            double x = LW + (double)BW * (double)mark[m] * 1000.0 / (double)end;
            tt_buf_printf(b, "<line class=\"mark\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                             "stroke=\"#000\" stroke-width=\"2\"%s><title>",
                          x, y + 1, x, y + RH - 1, m ? " stroke-dasharray=\"3 2\"" : "");
            esc(b, labels[i0]);
            tt_buf_printf(b, ": %s %lld ", m ? "p90" : "median", (long long)mark[m]);
            esc(b, unit ? unit : "");
            tt_buf_printf(b, " (%zu launch%s)</title></line>", nv, nv == 1 ? "" : "es");
        }
        tt_buf_puts(b, "\n");
    }
    /* legend: the marks differ by dash, not by colour alone */
    int ly = rows * RH + 34;
    tt_buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\" "
                     "stroke-width=\"2\"/><text class=\"tick\" x=\"%d\" y=\"%d\">median</text>"
                     "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\" "
                     "stroke-width=\"2\" stroke-dasharray=\"3 2\"/><text class=\"tick\" x=\"%d\" "
                     "y=\"%d\">p90 (nearest rank)</text><circle cx=\"%d\" cy=\"%d\" r=\"4\" "
                     "fill=\"#999\" stroke=\"#333\" stroke-width=\"0.5\"/><text class=\"tick\" "
                     "x=\"%d\" y=\"%d\">one launch</text>\n",
                  LW, ly - 10, LW, ly + 2, LW + 6, ly, LW + 80, ly - 10, LW + 80, ly + 2, LW + 86,
                  ly, LW + 230, ly - 4, LW + 238, ly);
    tt_buf_puts(b, "</svg>\n");
    free(v);
    free(g0);
    return 0;
}

/* fps over time (visual.md 10.3, frames.md 6.3 windows): a polyline per series (labels[i]
 * names the series of window i, a series' windows consecutive and in time order), broken at
 * windows without frames and where a series' windows do not follow each other; a lone window
 * is a dot. The time axis covers the stored windows only: where none is stored (a compacted
 * gap of frames(1), time between dumps or traces) it is cut to a narrow shaded break named in
 * its tooltip, so hours without frames neither squeeze the data nor get bridged. Time in s
 * from the first window; fps on y (ticks on the right); the label column is the legend, the
 * series told apart by colour and dash. */
#define PT 8   /* plot top */
#define PH 160 /* plot height */
typedef struct span {
    double a, b; /* ms */
} span;

static int span_cmp(const void *x, const void *y)
{
    const span *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a ? 1 : p->b < q->b ? -1 : p->b > q->b;
}

typedef struct taxis {
    const span *seg;
    size_t n;
    double scale, brk; /* px per ms inside a segment; px per break */
} taxis;

static double tx(const taxis *a, double t)
{
    double x = LW;
    for (size_t i = 0; i < a->n; i++) {
        if (t <= a->seg[i].b || i + 1 == a->n)
            return x + (t > a->seg[i].a ? t - a->seg[i].a : 0) * a->scale;
        x += (a->seg[i].b - a->seg[i].a) * a->scale + a->brk;
    }
    return x;
}

/* Ticks at multiples of step (ms) inside each segment and at the start of each segment after
 * a break; labels 48 px apart at least, a segment start preferred to a multiple. */
static void time_ticks(tt_buf *b, const taxis *a, int64_t step, int ph)
{
    size_t cap = 64, nt = 0;
    double *tk = malloc(cap * 2 * sizeof *tk); /* (t, priority) pairs */
    for (size_t i = 0; i < a->n && tk; i++) {
        double t0 = ceil(a->seg[i].a / (double)step) * (double)step;
        for (double t = i ? a->seg[i].a : t0; t <= a->seg[i].b && tk;) {
            if (nt == cap) {
                double *g = realloc(tk, cap * 4 * sizeof *tk);
                if (!g) {
                    free(tk);
                    tk = NULL;
                    break;
                }
                tk = g;
                cap *= 2;
            }
            int first = i && t == a->seg[i].a;
            tk[2 * nt] = t;
            tk[2 * nt++ + 1] = first;
            t = first ? t0 : t + (double)step;
            if (first && t0 == a->seg[i].a)
                t += (double)step;
        }
    }
    /* greedy in x order: a tick too near the kept one replaces it when it is a segment start */
    size_t kept = 0;
    for (size_t i = 0; tk && i < nt; i++) {
        if (kept && tx(a, tk[2 * i]) - tx(a, tk[2 * (kept - 1)]) < 48) {
            if (tk[2 * i + 1] > tk[2 * (kept - 1) + 1]) {
                tk[2 * (kept - 1)] = tk[2 * i];
                tk[2 * (kept - 1) + 1] = tk[2 * i + 1];
            }
            continue;
        }
        tk[2 * kept] = tk[2 * i];
        tk[2 * kept++ + 1] = tk[2 * i + 1];
    }
    for (size_t i = 0; tk && i < kept; i++) {
        double x = tx(a, tk[2 * i]);
        tt_buf_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                         "<text class=\"tick\" x=\"%.1f\" y=\"%d\">",
                      x, PT, x, PT + ph, x, PT + ph + 14);
        num(b, tk[2 * i] / 1000.0);
        tt_buf_puts(b, "</text>");
    }
    free(tk);
}

int tt_chart_series(tt_buf *b, const char *title, const char *const *labels,
                    const double *start_ms, const double *dur_ms, const double *frames,
                    const double *fps, const double *windows, size_t n)
{
    static const char *const dash[4] = {"", " stroke-dasharray=\"6 3\"",
                                        " stroke-dasharray=\"2 2\"",
                                        " stroke-dasharray=\"8 3 2 3\""};
    span *seg = malloc((n ? n : 1) * sizeof *seg);
    if (!seg)
        return TT_ENOMEM;
    double ymax = 0, low = -1, low_t = 0;
    size_t nser = 0, low_i = 0, ns = 0;
    for (size_t i = 0; i < n; i++) {
        if (!i || strcmp(labels[i] ? labels[i] : "", labels[i - 1] ? labels[i - 1] : ""))
            nser++;
        if (!isnan(start_ms[i]))
            seg[ns++] = (span){start_ms[i], start_ms[i] + (isnan(dur_ms[i]) ? 0 : dur_ms[i])};
        if (!isnan(fps[i]) && frames[i] > 0) {
            if (fps[i] > ymax)
                ymax = fps[i];
            if (low < 0 || fps[i] < low)
                low = fps[i], low_i = i, low_t = start_ms[i];
        }
    }
    /* the covered time: the union of the windows */
    qsort(seg, ns, sizeof *seg, span_cmp);
    size_t m = 0;
    for (size_t i = 0; i < ns; i++) {
        if (m && seg[i].a <= seg[m - 1].b) {
            if (seg[i].b > seg[m - 1].b)
                seg[m - 1].b = seg[i].b;
        } else {
            seg[m++] = seg[i];
        }
    }
    if (!m)
        seg[m++] = (span){0, 1000};
    double covered = 0;
    for (size_t i = 0; i < m; i++)
        covered += seg[i].b - seg[i].a;
    taxis ax = {seg, m, 0, 12};
    if ((double)(m - 1) * ax.brk > BW / 3.0)
        ax.brk = BW / 3.0 / (double)(m - 1);
    ax.scale = covered > 0 ? (BW - (double)(m - 1) * ax.brk) / covered : 0;
    int64_t xstep, ystep, yend = axis_end(ymax, &ystep);
    xstep = tt_chart_step_milli(covered / 1000.0);
    int ph = PH;
    if ((int)nser * RH > ph)
        ph = (int)nser * RH;
    tt_buf d = {0};
    if (low >= 0) {
        tt_buf_puts(&d, "lowest window ");
        esc(&d, labels[low_i]);
        tt_buf_puts(&d, ", ");
        num(&d, low);
        tt_buf_puts(&d, " fps at ");
        num(&d, low_t / 1000.0);
        tt_buf_puts(&d, " s");
    } else {
        tt_buf_puts(&d, "no window with frames");
    }
    if (m > 1)
        tt_buf_printf(&d, "; %zu stretch%s without windows cut from the time axis", m - 1,
                      m == 2 ? "" : "es");
    head(b, title, PT + ph + 36, d.data);
    tt_buf_free(&d);
    /* breaks of the time axis, shaded */
    for (size_t i = 0; i + 1 < m; i++) {
        double x0 = tx(&ax, seg[i].b);
        tt_buf_printf(b, "<rect class=\"gap\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                         "fill=\"#d9d9d9\"><title>no window from ",
                      x0, PT, ax.brk, ph);
        num(b, seg[i].b / 1000.0);
        tt_buf_puts(b, " s to ");
        num(b, seg[i + 1].a / 1000.0);
        tt_buf_puts(b, " s (a compacted gap or time between dumps): ");
        num(b, (seg[i + 1].a - seg[i].b) / 1000.0);
        tt_buf_puts(b, " s cut from the axis</title></rect>\n");
    }
    time_ticks(b, &ax, xstep, ph);
    for (int64_t t = 0; t <= yend; t += ystep) {
        double y = PT + ph - (double)ph * (double)t / (double)yend;
        tt_buf_printf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                         "<text class=\"tick\" x=\"%d\" y=\"%.1f\">",
                      LW, y, LW + BW, y, LW + BW + 4, y + 4);
        num(b, (double)t / 1000.0);
        tt_buf_puts(b, "</text>");
    }
    tt_buf_printf(b, "<text class=\"tick\" x=\"%d\" y=\"%d\">time (s)%s</text><text "
                     "class=\"tick\" x=\"%d\" y=\"%d\">fps</text>\n",
                  LW, PT + ph + 30, m > 1 ? "; shaded: time without windows, cut" : "",
                  LW + BW + 4, PT + ph + 30);
#define YS(f) (PT + ph - (double)ph * (f) * 1000.0 / (double)yend)
    size_t k = 0;
    for (size_t i0 = 0, i1; i0 < n; i0 = i1, k++) {
        for (i1 = i0 + 1; i1 < n && !strcmp(labels[i1] ? labels[i1] : "",
                                             labels[i0] ? labels[i0] : ""); i1++)
            ;
        const char *col = okabe_ito[k % 7], *da = dash[(k / 7 + k) % 4];
        int ly = (int)k * RH; /* legend row */
        tt_buf_printf(b, "<line x1=\"4\" y1=\"%d\" x2=\"20\" y2=\"%d\" stroke=\"%s\" "
                         "stroke-width=\"2\"%s/>",
                      ly + 9, ly + 9, col, da);
        label_at(b, labels[i0], 24, ly, 26, 1); /* scenes differ at their ends */
        tt_buf_puts(b, "\n");
        /* runs of windows with frames that follow each other */
        for (size_t j0 = i0, j1; j0 < i1; j0 = j1) {
            if (!(frames[j0] > 0) || isnan(fps[j0]) || isnan(start_ms[j0])) {
                j1 = j0 + 1;
                continue;
            }
            double lo = fps[j0], hi = fps[j0];
            for (j1 = j0 + 1; j1 < i1 && frames[j1] > 0 && !isnan(fps[j1]) &&
                              start_ms[j1] == start_ms[j1 - 1] + dur_ms[j1 - 1]; j1++) {
                if (fps[j1] < lo)
                    lo = fps[j1];
                if (fps[j1] > hi)
                    hi = fps[j1];
            }
            if (j1 - j0 == 1)
                tt_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\">",
                              tx(&ax, start_ms[j0] + dur_ms[j0] / 2), YS(fps[j0]), col);
            else {
                tt_buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s "
                                 "points=\"", col, da);
                for (size_t j = j0; j < j1; j++)
                    tt_buf_printf(b, "%s%.1f,%.1f", j > j0 ? " " : "",
                                  tx(&ax, start_ms[j] + dur_ms[j] / 2), YS(fps[j]));
                tt_buf_puts(b, "\">");
            }
            tt_buf_puts(b, "<title>");
            esc(b, labels[i0]);
            tt_buf_puts(b, ": ");
            num(b, start_ms[j0] / 1000.0);
            tt_buf_puts(b, "\xe2\x80\x93");
            num(b, (start_ms[j1 - 1] + dur_ms[j1 - 1]) / 1000.0);
            tt_buf_puts(b, " s, ");
            num(b, lo);
            if (hi > lo) {
                tt_buf_puts(b, "\xe2\x80\x93");
                num(b, hi);
            }
            double nw = 0;
            for (size_t j = j0; j < j1; j++)
                nw += windows && windows[j] >= 1 ? windows[j] : 1;
            tt_buf_printf(b, " fps (%.0f window%s)</title></%s>\n", nw, nw == 1 ? "" : "s",
                          j1 - j0 == 1 ? "circle" : "polyline");
        }
    }
#undef YS
    tt_buf_puts(b, "</svg>\n");
    free(seg);
    return 0;
}
