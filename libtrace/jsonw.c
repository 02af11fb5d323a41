/* Streaming JSON writer into a tt_buf; optional Android org.json escaping (spec 7.6). */
#include "tt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                      "25262728293031323334353637383940414243444546474849"
                                      "50515253545556575859606162636465666768697071727374"
                                      "75767778798081828384858687888990919293949596979899";

char *tt__fmt_u64(char *p, uint64_t v)
{
    /* digits written in place from the end (a copy out of a scratch array right after its
     * byte stores waits for them to retire) */
    static const uint64_t pow10[19] = {
        10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
        1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
        100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
        100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};
    size_t n = 1;
    while (n < 20 && v >= pow10[n - 1])
        n++;
    char *q = p + n;
    while (v >= 100) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10)
        memcpy(q - 2, digit_pairs + 2 * v, 2);
    else
        q[-1] = (char)('0' + v);
    return p + n;
}

/* '-' for a negative v; *a = |v| */
static char *put_sign(char *p, int64_t v, uint64_t *a)
{
    *a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0)
        *p++ = '-';
    return p;
}

char *tt__fmt_i64(char *p, int64_t v)
{
    uint64_t a;
    p = put_sign(p, v, &a);
    return tt__fmt_u64(p, a);
}

/* v / div with `digits` fraction digits (div = 10^digits), exactly */
static inline char *fmt_frac(char *p, int64_t v, uint64_t div, int digits)
{
    uint64_t a;
    p = put_sign(p, v, &a);
    p = tt__fmt_u64(p, a / div);
    uint64_t r = a % div;
    *p = '.';
    for (int i = digits; i > 0; i--) {
        p[i] = (char)('0' + r % 10);
        r /= 10;
    }
    return p + digits + 1;
}

char *tt__fmt_dec3(char *p, int64_t v) { return fmt_frac(p, v, 1000, 3); }
char *tt__fmt_dec6(char *p, int64_t v) { return fmt_frac(p, v, 1000000, 6); }

void tt_jsonw_init(tt_jsonw *w, int android_escaping)
{
    memset(w, 0, sizeof *w);
    w->android = android_escaping;
}

void tt_jsonw_free(tt_jsonw *w) { tt_buf_free(&w->buf); }

/* The separator state needs no per-level memory, so any depth works: only the innermost
 * open container can receive the next element, and a container that was just closed is
 * an element of its parent, so the parent needs a comma before its next element. */
static void sep(tt_jsonw *w)
{
    if (w->depth > 0 && w->has_elem)
        tt_buf_put(&w->buf, ",", 1);
    w->has_elem = 1;
}

/* a value right after a key takes no separator */
static void value_prefix(tt_jsonw *w)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    sep(w);
}

static void open_(tt_jsonw *w, char c)
{
    value_prefix(w);
    tt_buf_put(&w->buf, &c, 1);
    w->depth++;
    w->has_elem = 0;
}

static void close_(tt_jsonw *w, char c)
{
    w->depth--;
    w->has_elem = 1;
    tt_buf_put(&w->buf, &c, 1);
}

void tt_jsonw_obj_begin(tt_jsonw *w) { open_(w, '{'); }
void tt_jsonw_obj_end(tt_jsonw *w) { close_(w, '}'); }
void tt_jsonw_arr_begin(tt_jsonw *w) { open_(w, '['); }
void tt_jsonw_arr_end(tt_jsonw *w) { close_(w, ']'); }

static void put_str(tt_jsonw *w, const char *s, size_t n)
{
    tt_buf *b = &w->buf;
    tt_buf_put(b, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        char tmp[8];
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '/':
            if (w->android)
                esc = "\\/";
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                snprintf(tmp, sizeof tmp, "\\u%04x", c);
                esc = tmp;
            }
        }
        if (esc) {
            tt_buf_put(b, s + i - run, run);
            run = 0;
            tt_buf_puts(b, esc);
        } else {
            run++;
        }
    }
    tt_buf_put(b, s + n - run, run);
    tt_buf_put(b, "\"", 1);
}

void tt_jsonw_key(tt_jsonw *w, const char *k)
{
    sep(w);
    put_str(w, k, strlen(k));
    tt_buf_put(&w->buf, ":", 1);
    w->after_key = 1;
}

void tt_jsonw_strn(tt_jsonw *w, const char *s, size_t n)
{
    value_prefix(w);
    put_str(w, s, n);
}

void tt_jsonw_str(tt_jsonw *w, const char *s)
{
    if (!s) {
        tt_jsonw_null(w);
        return;
    }
    tt_jsonw_strn(w, s, strlen(s));
}

void tt_jsonw_int(tt_jsonw *w, int64_t v)
{
    char tmp[24];
    value_prefix(w);
    tt_buf_put(&w->buf, tmp, (size_t)(tt__fmt_i64(tmp, v) - tmp));
}

void tt_jsonw_uint(tt_jsonw *w, uint64_t v)
{
    char tmp[24];
    value_prefix(w);
    tt_buf_put(&w->buf, tmp, (size_t)(tt__fmt_u64(tmp, v) - tmp));
}

int tt_json_format_double(char *dst, size_t cap, double v)
{
    if (!isfinite(v))
        return snprintf(dst, cap, "null");
    if (v == floor(v) && fabs(v) < 1e15)
        return snprintf(dst, cap, "%.0f", v);
    for (int p = 1; p <= 17; p++) {
        int n = snprintf(dst, cap, "%.*g", p, v);
        if (strtod(dst, NULL) == v)
            return n;
    }
    return snprintf(dst, cap, "%.17g", v);
}

void tt_jsonw_double(tt_jsonw *w, double v)
{
    char tmp[64];
    value_prefix(w);
    tt_json_format_double(tmp, sizeof tmp, v);
    tt_buf_puts(&w->buf, tmp);
}

void tt_jsonw_bool(tt_jsonw *w, int v)
{
    value_prefix(w);
    tt_buf_puts(&w->buf, v ? "true" : "false");
}

void tt_jsonw_null(tt_jsonw *w)
{
    value_prefix(w);
    tt_buf_puts(&w->buf, "null");
}

void tt_jsonw_raw(tt_jsonw *w, const char *s, size_t n)
{
    value_prefix(w);
    tt_buf_put(&w->buf, s, n);
}
