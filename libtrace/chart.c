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

int tt_chart_bars(tt_buf *b, const char *title, const char *const *labels,
                  const double *values, size_t n, const char *unit, const char *color)
{
    double max = 0;
    size_t worst = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(values[i]) && values[i] > max)
            max = values[i], worst = i;
    int64_t step = tt_chart_step_milli(max), end = step;
    while ((double)end < max * 1000.0)
        end += step;
    int h = (int)n * RH + 30;
    tt_buf d = {0};
    if (n) {
        tt_buf_puts(&d, "largest ");
        esc(&d, labels[worst]);
        tt_buf_puts(&d, ", ");
        num(&d, max);
        tt_buf_printf(&d, " %s", unit ? unit : "");
    } else {
        tt_buf_puts(&d, "no data");
    }
    head(b, title, h, d.data);
    tt_buf_free(&d);
    for (int64_t t = 0; t <= end; t += step) { /* grid and ticks */
        double x = LW + (double)BW * (double)t / (double)end;
        tt_buf_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\"/>"
                         "<text class=\"tick\" x=\"%.1f\" y=\"%d\">",
                      x, x, (int)n * RH + 4, x, (int)n * RH + 18);
        num(b, (double)t / 1000.0);
        tt_buf_puts(b, "</text>");
    }
    for (size_t i = 0; i < n; i++) {
        int y = (int)i * RH;
        double v = isnan(values[i]) ? 0 : values[i];
        double w = v > 0 ? (double)BW * v * 1000.0 / (double)end : 0;
        label(b, labels[i], y);
        tt_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>",
                      LW, y + 2, w, RH - 4, color);
        esc(b, labels[i]);
        tt_buf_puts(b, ": ");
        num(b, v);
        tt_buf_printf(b, " %s</title></rect><text class=\"val\" x=\"%.1f\" y=\"%d\">", unit,
                      LW + w + 4, y + 13);
        num(b, v);
        tt_buf_puts(b, "</text>\n");
    }
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
