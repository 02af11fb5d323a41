/* Static inline SVG charts of the HTML report, spec/visual.md 10.3: horizontal bars and 100%
 * stacked drop-level bars with a {1, 2, 5} x 10^k axis; every mark has a <title>. */
#include "tt.h"

#include <math.h>
#include <stdio.h>
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

static void label(tt_buf *b, const char *s, int y)
{
    tt_buf_printf(b, "<text class=\"lbl\" x=\"4\" y=\"%d\"><title>", y + 13);
    esc(b, s);
    tt_buf_puts(b, "</title>");
    /* 216 px at about 7.3 px a cell */
    if (s && *s)
        tt_svg_fit(b, s, strlen(s), 29, 0);
    else
        tt_buf_puts(b, "(none)");
    tt_buf_puts(b, "</text>");
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
