/* Checked output and diagnostics (STYLE.md section 7, cli.md "Outputs"). */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void out_failed(void)
{
    if (errno == EPIPE)
        exit(CLI_OK);
    fprintf(stderr, "tracetool: write error on standard output: %s\n", strerror(errno));
    exit(CLI_BAD);
}

void cli_out_write(const char *p, size_t n)
{
    cli_progress_clear();
    if (n && fwrite(p, 1, n, stdout) != n)
        out_failed();
}

void cli_out_puts(const char *s) { cli_out_write(s, strlen(s)); }

void cli_out_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfprintf(stdout, fmt, ap);
    va_end(ap);
    if (r < 0)
        out_failed();
}

void cli_out_buf(tt_buf *b)
{
    cli_out_write(b->data ? b->data : "", b->len);
    b->len = 0;
    if (b->data)
        b->data[0] = 0;
}

int cli_out_finish(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (errno == EPIPE)
            return CLI_OK;
        fprintf(stderr, "tracetool: write error on standard output: %s\n", strerror(errno));
        return CLI_BAD;
    }
    return CLI_OK;
}

void cli_err_text(char *dst, size_t cap, const tt_error *err)
{
    if (!err->file[0])
        snprintf(dst, cap, "%s", err->msg[0] ? err->msg : tt_strerror(err->code));
    else if (err->loc_kind == TT_LOC_LINE)
        snprintf(dst, cap, "%s:%llu: %s", err->file, (unsigned long long)err->loc, err->msg);
    else if (err->loc_kind == TT_LOC_OFFSET)
        snprintf(dst, cap, "%s:0x%llx: %s", err->file, (unsigned long long)err->loc, err->msg);
    else
        snprintf(dst, cap, "%s: %s", err->file, err->msg);
}

int cli_err(const tt_error *err)
{
    cli_progress_clear();
    char text[sizeof err->file + sizeof err->msg + 32];
    cli_err_text(text, sizeof text, err);
    fprintf(stderr, "tracetool: %s\n", text);
    return CLI_BAD;
}

void cli_errorf(const char *fmt, ...)
{
    cli_progress_clear();
    va_list ap;
    va_start(ap, fmt);
    fputs("tracetool: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_warnf(const char *fmt, ...)
{
    cli_progress_clear();
    va_list ap;
    va_start(ap, fmt);
    fputs("tracetool: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_stats_report(const tt_stats *s)
{
    cli_progress_clear();
    for (size_t i = 0; i < tt_stats_count(s); i++) {
        const tt_stat *st = tt_stats_get(s, i);
        if (st->severity == TT_SEV_INFO)
            continue;
        if (st->example[0])
            fprintf(stderr, "tracetool: warning: %s: %lld time%s, first: %s\n", st->name,
                    (long long)st->count, st->count == 1 ? "" : "s", st->example);
        else
            fprintf(stderr, "tracetool: warning: %s%s%s: %lld time%s\n", st->file,
                    st->file[0] ? ": " : "", st->name, (long long)st->count,
                    st->count == 1 ? "" : "s");
    }
}
