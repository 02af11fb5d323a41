/* CSV fields (cli_csv.h). */
#include "cli_csv.h"

#include <string.h>

#include "cli.h"

static int needs_quotes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
            return 1;
    return 0;
}

/* Calls PUT on the pieces of the field: the quotes, and the text cut after each quote so that
 * the quote is written twice. */
static void put_field(void (*put)(void *, const char *, size_t), void *ctx, const char *s,
                      size_t n, int quote)
{
    if (!quote && !needs_quotes(s, n)) {
        put(ctx, s, n);
        return;
    }
    put(ctx, "\"", 1);
    for (const char *q; n && (q = memchr(s, '"', n));) {
        size_t k = (size_t)(q - s) + 1;
        put(ctx, s, k);
        put(ctx, "\"", 1);
        s += k;
        n -= k;
    }
    put(ctx, s, n);
    put(ctx, "\"", 1);
}

static void put_buf(void *ctx, const char *p, size_t n) { tt_buf_put(ctx, p, n); }

static void put_out(void *ctx, const char *p, size_t n)
{
    (void)ctx;
    cli_out_write(p, n);
}

void cli_csv_field(tt_buf *b, const char *s, size_t n, int quote)
{
    put_field(put_buf, b, s, n, quote);
}

void cli_csv_str(tt_buf *b, const char *s)
{
    if (s)
        put_field(put_buf, b, s, strlen(s), 0);
}

void cli_csv_int(tt_buf *b, int has, int64_t v)
{
    tt_buf_puts(b, ",");
    if (has)
        tt_buf_printf(b, "%lld", (long long)v);
}

void cli_csv_out(const char *s, int quote)
{
    put_field(put_out, NULL, s, strlen(s), quote);
}
