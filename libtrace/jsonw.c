/* Streaming JSON writer into a tt_buf; optional Android org.json escaping (spec 7.6). */
#include "tt.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                      "25262728293031323334353637383940414243444546474849"
                                      "50515253545556575859606162636465666768697071727374"
                                      "75767778798081828384858687888990919293949596979899";

char *tt__fmt_u64(char *p, uint64_t v)
{
    /* digits written in place from the end (a copy out of a scratch array right after its
     * byte stores waits for them to retire) */
    static const uint64_t pow10[20] = {
        1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
        100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
        10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
        100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};
    /* digits without a loop: 1233 / 4096 is just over log10(2), so t is the digit count
     * of 2^bits - 1 or one less */
    size_t t = (size_t)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;
    size_t n = t + (v >= pow10[t]);
    n += n == 0;
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

/* Appends n bytes: the common case (room left) is one compare and a copy, the rest goes
 * through tt_buf_put (growth, NUL termination as always). */
static inline void put(tt_buf *b, const char *p, size_t n)
{
    if (b->cap - b->len > n) {
        memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = 0;
        return;
    }
    tt_buf_put(b, p, n);
}

static inline void put_c(tt_buf *b, char c)
{
    if (b->cap - b->len > 1) {
        b->data[b->len++] = c;
        b->data[b->len] = 0;
        return;
    }
    tt_buf_put(b, &c, 1);
}

/* The separator state needs no per-level memory, so any depth works: only the innermost
 * open container can receive the next element, and a container that was just closed is
 * an element of its parent, so the parent needs a comma before its next element. */
static void sep(tt_jsonw *w)
{
    if (w->depth > 0 && w->has_elem)
        put_c(&w->buf, ',');
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
    put_c(&w->buf, c);
    w->depth++;
    w->has_elem = 0;
}

static void close_(tt_jsonw *w, char c)
{
    w->depth--;
    w->has_elem = 1;
    put_c(&w->buf, c);
}

void tt_jsonw_obj_begin(tt_jsonw *w) { open_(w, '{'); }
void tt_jsonw_obj_end(tt_jsonw *w) { close_(w, '}'); }
void tt_jsonw_arr_begin(tt_jsonw *w) { open_(w, '['); }
void tt_jsonw_arr_end(tt_jsonw *w) { close_(w, ']'); }

/* Copies a short run (keys, names, paths) with fixed-size moves the compiler inlines: JSON
 * output is mostly runs of a few to a few dozen bytes, and a call to memcpy for each cost a
 * tenth of symbolicate's time. Returns the end of the copy. */
static inline char *copy_run(char *d, const char *s, size_t n)
{
    if (n > 64) {
        memcpy(d, s, n);
        return d + n;
    }
    for (; n >= 8; n -= 8, d += 8, s += 8)
        memcpy(d, s, 8);
    if (n >= 4) {
        memcpy(d, s, 4);
        d += 4, s += 4, n -= 4;
    }
    if (n >= 2) {
        memcpy(d, s, 2);
        d += 2, s += 2, n -= 2;
    }
    if (n)
        *d++ = *s;
    return d;
}

/* bytes that need an escape: 1 always, 2 only with Android escaping ('/'); 4: bytes of a
 * multi-byte UTF-8 sequence, checked (JSON text is UTF-8, RFC 8259 section 8.1: an invalid
 * byte, e.g. of a Latin-1 file name, is written as U+FFFD) */
#define HI4 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4
static const unsigned char esc_class[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* control characters */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ['"'] = 1, ['\\'] = 1, ['/'] = 2, [0x7f] = 1,
    [0x80] = HI4, HI4, HI4, HI4, HI4, HI4, HI4, HI4};
#undef HI4

static char *put_esc(char *p, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    *p++ = '\\';
    switch (c) {
    case '"': *p++ = '"'; break;
    case '\\': *p++ = '\\'; break;
    case '/': *p++ = '/'; break;
    case '\n': *p++ = 'n'; break;
    case '\r': *p++ = 'r'; break;
    case '\t': *p++ = 't'; break;
    case '\b': *p++ = 'b'; break;
    case '\f': *p++ = 'f'; break;
    default:
        memcpy(p, "u00", 3);
        p[3] = hex[c >> 4];
        p[4] = hex[c & 15];
        p += 5;
    }
    return p;
}

#ifdef __SSE2__
/* Does none of the 16 bytes at s need an escape? */
static inline int clean16(const char *s, unsigned char mask)
{
    const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i e = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x); /* x <= 0x1f */
    e = _mm_or_si128(e, _mm_cmpeq_epi8(x, _mm_set1_epi8('"')));
    e = _mm_or_si128(e, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    e = _mm_or_si128(e, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
    e = _mm_or_si128(e, _mm_cmpeq_epi8(x, _mm_set1_epi8(mask & 2 ? '/' : '"')));
    return !_mm_movemask_epi8(_mm_or_si128(e, x)); /* and no byte >= 0x80 */
}
#endif

/* Does none of the 8 bytes at s need an escape? (a zero byte of x ^ c*ones is a byte equal
 * to c; these tests are exact as yes/no answers) */
static inline int clean8(const char *s, unsigned char mask)
{
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t x, q, b, d, sl, l;
    memcpy(&x, s, 8);
    q = x ^ ('"' * ones);
    b = x ^ ('\\' * ones);
    d = x ^ (0x7f * ones);
    sl = x ^ ((mask & 2 ? '/' : '"') * ones);
    l = (x - 0x20 * ones) & ~x; /* a byte below 0x20 */
    l |= (q - ones) & ~q;
    l |= (b - ones) & ~b;
    l |= (d - ones) & ~d;
    l |= (sl - ones) & ~sl;
    l |= x; /* a byte >= 0x80 */
    return !(l & 0x8080808080808080ULL);
}

/* The quoted string at p, which has room for the worst case (every byte escaped: 6 * n +
 * 2); returns its end. Blocks of 16 (SSE2) or 8 bytes without an escape are copied whole;
 * the last, partial block is checked and copied as the block ending with the string (its
 * first bytes were copied already, unchanged). */
static char *put_quoted(char *p, const char *s, size_t n, unsigned char mask)
{
    *p++ = '"';
    size_t i = 0;
#ifdef __SSE2__
    for (; i + 16 <= n && clean16(s + i, mask); i += 16, p += 16)
        memcpy(p, s + i, 16);
    if (n >= 16 && i < n && i + 16 > n && clean16(s + n - 16, mask)) {
        memcpy(p - (i - (n - 16)), s + n - 16, 16);
        p += n - i;
        i = n;
    }
#endif
    for (; i + 8 <= n && clean8(s + i, mask); i += 8, p += 8)
        memcpy(p, s + i, 8);
    if (n >= 8 && i < n && i + 8 > n && clean8(s + n - 8, mask)) {
        memcpy(p - (i - (n - 8)), s + n - 8, 8);
        p += n - i;
        i = n;
    }
    mask |= 4;
    while (i < n) {
        size_t run = i;
        while (run < n && !(esc_class[(unsigned char)s[run]] & mask))
            run++;
        p = copy_run(p, s + i, run - i);
        if (run == n)
            break;
        size_t u = (unsigned char)s[run] >= 0x80
                       ? tt__utf8_len((const unsigned char *)s + run, n - run)
                       : 0;
        if (u == 2 && (unsigned char)s[run] == 0xc2 && (unsigned char)s[run + 1] <= 0x9f) {
            p = put_esc(p, (unsigned char)s[run + 1]); /* a C1 control: \u0080..\u009f, as
                                                         * text output writes it (cli_out.c) */
            i = run + 2;
        } else if (u) { /* at most 4 bytes: the room for 6 per byte holds them */
            memcpy(p, s + run, u);
            p += u;
            i = run + u;
        } else if ((unsigned char)s[run] >= 0x80) {
            memcpy(p, "\xef\xbf\xbd", 3); /* U+FFFD, in the room of the byte's 6 */
            p += 3;
            i = run + 1;
        } else {
            p = put_esc(p, (unsigned char)s[run]);
            i = run + 1;
        }
    }
    *p++ = '"';
    return p;
}

char *tt_jsonw_quote(const tt_jsonw *w, char *p, const char *s, size_t n)
{
    return put_quoted(p, s, n, w->android ? 3 : 1);
}

char *tt_json_uint(char *p, uint64_t v) { return tt__fmt_u64(p, v); }

char *tt_jsonw_value_room(tt_jsonw *w, size_t n)
{
    value_prefix(w);
    return n < SIZE_MAX / 2 ? tt__buf_room(&w->buf, n) : NULL;
}

void tt_jsonw_value_end(tt_jsonw *w, char *end)
{
    *end = 0;
    w->buf.len = (size_t)(end - w->buf.data);
}

static void put_str(tt_jsonw *w, const char *s, size_t n)
{
    tt_buf *b = &w->buf;
    char *p = n <= (SIZE_MAX - 3) / 6 ? tt__buf_room(b, n * 6 + 2) : NULL;
    if (!p)
        return;
    p = put_quoted(p, s, n, w->android ? 3 : 1);
    *p = 0;
    b->len = (size_t)(p - b->data);
}

void tt_jsonw_key(tt_jsonw *w, const char *k)
{
    sep(w);
    put_str(w, k, strlen(k));
    put_c(&w->buf, ':');
    w->after_key = 1;
}

void tt_jsonw_key_plain(tt_jsonw *w, const char *k, size_t n)
{
    sep(w);
    char *p = n <= SIZE_MAX - 4 ? tt__buf_room(&w->buf, n + 3) : NULL;
    if (p) {
        *p++ = '"';
        p = copy_run(p, k, n);
        memcpy(p, "\":", 3); /* and the NUL */
        w->buf.len += n + 3;
    }
    w->after_key = 1;
}

void tt_jsonw_fields(tt_jsonw *w, const tt_jsonw_field *f, size_t n)
{
    size_t len[TT_JSONW_FIELDS_MAX], room = 0;
    assert(n <= TT_JSONW_FIELDS_MAX);
    for (size_t i = 0; i < n; i++) {
        len[i] = f[i].type == TT_JSONW_STR && f[i].s ? strlen(f[i].s) : 0;
        if (len[i] > SIZE_MAX / 128 || f[i].key_len > SIZE_MAX / 128)
            return; /* bounds the sum below: at most 16 fields */
        room += f[i].key_len + 4 + (f[i].type == TT_JSONW_STR ? len[i] * 6 + 2 : 20);
    }
    char *p = room < SIZE_MAX / 2 ? tt__buf_room(&w->buf, room) : NULL;
    if (!p)
        return;
    unsigned char mask = w->android ? 3 : 1;
    /* the writer's state and the fields are read into locals: a byte stored through p may
     * alias them, so the compiler would load them again after every store */
    int comma = w->has_elem;
    for (size_t i = 0; i < n; i++) {
        const tt_jsonw_field fi = f[i];
        if (comma)
            *p++ = ',';
        comma = 1;
        *p++ = '"';
        p = copy_run(p, fi.key, fi.key_len);
        *p++ = '"';
        *p++ = ':';
        if (fi.type == TT_JSONW_STR)
            p = put_quoted(p, fi.s ? fi.s : "", len[i], mask);
        else if (fi.type == TT_JSONW_UINT)
            p = tt__fmt_u64(p, fi.u);
        else if (fi.u) {
            memcpy(p, "true", 4);
            p += 4;
        } else {
            memcpy(p, "false", 5);
            p += 5;
        }
    }
    *p = 0;
    w->buf.len = (size_t)(p - w->buf.data);
    w->has_elem = comma;
    w->after_key = 0;
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
    put(&w->buf, tmp, (size_t)(tt__fmt_i64(tmp, v) - tmp));
}

void tt_jsonw_uint(tt_jsonw *w, uint64_t v)
{
    char tmp[24];
    value_prefix(w);
    put(&w->buf, tmp, (size_t)(tt__fmt_u64(tmp, v) - tmp));
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

void tt_jsonw_real(tt_jsonw *w, double v)
{
    char tmp[64];
    value_prefix(w);
    int n = tt_json_format_double(tmp, sizeof tmp - 2, v); /* "null" when not finite */
    if (isfinite(v) && n > 0 && !strpbrk(tmp, ".eE"))
        memcpy(tmp + n, ".0", 3); /* 100.0, -0.0: not 1e+02, -0 */
    tt_buf_puts(&w->buf, tmp);
}

void tt_jsonw_bool(tt_jsonw *w, int v)
{
    value_prefix(w);
    if (v)
        put(&w->buf, "true", 4);
    else
        put(&w->buf, "false", 5);
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
