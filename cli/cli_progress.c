/* Progress line on standard error for long reads (cli.md "Outputs"): bytes read of the
 * total, rate and time left, redrawn at most 4 times a second and erased when the input
 * ends or anything else is printed. The libraries only report bytes (tt_input_set_progress). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* the one progress line of the process (standard error is one terminal line) */
static struct {
    int on, forced, shown, started;
    const char *cmd;
    double t0, last;
} P;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_init(int mode, const char *cmd)
{
    const char *ci = getenv("CI");
    P.forced = mode > 0;
    P.on = mode > 0 || (mode < 0 && isatty(STDERR_FILENO) && !(ci && *ci));
    P.cmd = cmd;
}

void cli_progress_clear(void)
{
    if (P.shown)
        fputs("\r\033[K", stderr);
    P.shown = 0;
}

/* bytes: "12.3 MB"; items: "12.3 k" */
static void human(char *out, size_t n, double v, int bytes)
{
    static const char *const unit[] = {"", "k", "M", "G", "T"};
    int u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        u++;
    }
    snprintf(out, n, u ? "%.1f %s%s" : "%.0f %s%s", v, unit[u], bytes ? "B" : "");
    if (!bytes && !u)
        out[strlen(out) - 1] = '\0'; /* no unit: drop the space */
}

static int put_buf(void *ctx, const char *p, size_t n)
{
    return tt_buf_put(ctx, p, n);
}

static void draw_line(const char *name, uint64_t done, uint64_t total, int end, int bytes)
{
    double t = now_s();
    if (end) {
        cli_progress_clear();
        P.started = 0;
        return;
    }
    if (!P.started) {
        P.started = 1;
        P.t0 = t;
        P.last = 0;
    }
    /* short reads never flash a line; at most 4 redraws a second */
    if ((!P.forced && t - P.t0 < 0.5) || (P.shown && t - P.last < 0.25))
        return;
    P.last = t;
    size_t len = strlen(name);
    if (len > 40)
        name += len - 40;
    /* the file name escaped like every text output (tracetool(1) OUTPUT) */
    tt_buf shown = {0};
    tt_textesc x;
    tt_textesc_init(&x, put_buf, &shown);
    if (tt_textesc_put(&x, name, strlen(name)) || tt_textesc_flush(&x) || !shown.data) {
        tt_buf_free(&shown);
        return;
    }
    char d[32], tot[32], rate[32];
    human(d, sizeof d, (double)done, bytes);
    fprintf(stderr, "\r\033[Ktracetool %s: %s  %s", P.cmd, shown.data, d);
    tt_buf_free(&shown);
    if (total) {
        human(tot, sizeof tot, (double)total, bytes);
        fprintf(stderr, " of %s (%d%%)", tot, (int)(100.0 * (double)done / (double)total));
    }
    double el = t - P.t0;
    if (el >= 0.2) {
        double r = (double)done / el;
        human(rate, sizeof rate, r, bytes);
        fprintf(stderr, "  %s/s", rate);
        if (total && r > 0)
            fprintf(stderr, "  %.0f s left", ((double)total - (double)done) / r);
    }
    fflush(stderr);
    P.shown = 1;
}

static void draw(void *ud, const char *name, uint64_t done, uint64_t total, int end)
{
    (void)ud;
    draw_line(name, done, total, end, 1);
}

void cli_progress_items(const char *what, uint64_t done, uint64_t total)
{
    if (P.on && !cli_msg_capturing())
        draw_line(what, done, total, done >= total, 0);
}

void cli_progress_attach(tt_input *in)
{
    if (P.on && in && !cli_msg_capturing())
        tt_input_set_progress(in, draw, NULL);
}
