/* Escaped text (tt_base.h "text escaping"): what every text output of the tool writes, so
 * that names from untrusted inputs cannot drive a terminal, read now or later. */
#include "tt.h"

#include <string.h>

/* 0: written as it is (printable ASCII, newline, tab); 1: a C0 control, CR or DEL; 2: a byte
 * of a multi-byte UTF-8 sequence, or of none */
#define HI2 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
static const unsigned char cls[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, /* tab and newline are text */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, [0x7f] = 1,
    [0x80] = HI2, HI2, HI2, HI2, HI2, HI2, HI2, HI2};
#undef HI2

/* Are the 8 bytes at p all printable ASCII (0x20..0x7e)? (exact as a yes/no answer: a zero
 * byte of x ^ c*ones is a byte equal to c) */
static inline int plain8(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t x, d;
    memcpy(&x, p, 8);
    d = x ^ (0x7f * ones);
    return !((x | ((x - 0x20 * ones) & ~x) | ((d - ones) & ~d)) & (0x80 * ones));
}

/* At s[0] >= 0x80, avail bytes there: the length of the well-formed UTF-8 sequence it
 * starts (Unicode table 3-7: the second byte's range depends on the first, which excludes
 * overlong forms, surrogates and code points above U+10FFFF); 0 when it starts none; -1 when
 * the avail bytes are a proper prefix of one (the rest may follow). */
static int seq_len(const unsigned char *s, size_t avail)
{
    unsigned c = s[0], lo = 0x80, hi = 0xbf;
    size_t len;
    if (c < 0xc2 || c > 0xf4)
        return 0;
    if (c <= 0xdf) {
        len = 2;
    } else if (c <= 0xef) {
        len = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80;
        hi = c == 0xed ? 0x9f : 0xbf;
    } else {
        len = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf;
    }
    if (avail < 2)
        return -1;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++) {
        if (i >= avail)
            return -1;
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    }
    return (int)len;
}

/* The code point of the well-formed sequence s[0..l) when it is a bidirectional formatting
 * character (Unicode's Bidi_Control: U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069), which makes a terminal show the text around it reordered; else 0. */
static unsigned bidi_control(const unsigned char *s, int l)
{
    if (l == 2)
        return s[0] == 0xd8 && s[1] == 0x9c ? 0x61c : 0;
    if (l != 3 || s[0] != 0xe2)
        return 0;
    unsigned cp = 0x2000 | (unsigned)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
    return cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
                   (cp >= 0x2066 && cp <= 0x2069)
               ? cp
               : 0;
}

/* Escapes p[0..n) to e; *used: the bytes done, fewer than n when the text ends in the
 * proper prefix of a sequence or in a CR and final is not set (the caller holds them). With
 * e NULL nothing is written and the scan stops at the first byte not written as it is. */
static int run(tt_textesc *e, const unsigned char *p, size_t n, int final, size_t *used)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0, k = 0; /* p[i..k): written as it is, not yet handed to e->write */
    int r;
    while (k < n) {
        if (k + 8 <= n && plain8(p + k)) {
            k += 8;
            continue;
        }
        size_t end = k + 8 < n ? k + 8 : n;
        while (k < end && !cls[p[k]])
            k++;
        if (k == end)
            continue;
        unsigned c = p[k];
        char esc[6] = {'\\', 'x', 0, 0, 0, 0};
        size_t step = 1, elen = 4;
        if (c >= 0x80) {
            int l = seq_len(p + k, n - k);
            unsigned bidi = l > 0 ? bidi_control(p + k, l) : 0;
            if (l > 0 && !bidi && !(c == 0xc2 && p[k + 1] <= 0x9f)) {
                k += (size_t)l;
                continue;
            }
            if (l < 0 && !final)
                break;
            if (l > 0) { /* a C1 control \u00NN, as JSON writes it; a bidi control \uNNNN */
                esc[1] = 'u';
                c = bidi ? bidi : p[k + 1];
                step = (size_t)l;
                elen = 6;
            }
        } else if (c == '\r') {
            if (k + 1 < n && p[k + 1] == '\n') {
                k += 2;
                continue;
            }
            if (k + 1 == n && !final)
                break;
        }
        if (!e)
            break;
        for (size_t d = 2; d < elen; d++)
            esc[d] = hex[(c >> (4 * (elen - 1 - d))) & 15];
        if ((k > i && (r = e->write(e->ctx, (const char *)p + i, k - i))) ||
            (r = e->write(e->ctx, esc, elen)))
            return r;
        k += step;
        i = k;
    }
    *used = k;
    return e && k > i ? e->write(e->ctx, (const char *)p + i, k - i) : 0;
}

void tt_textesc_init(tt_textesc *e, tt_write_fn write, void *ctx)
{
    memset(e, 0, sizeof *e);
    e->write = write;
    e->ctx = ctx;
}

int tt_textesc_put(tt_textesc *e, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t used;
    int r;
    if (e->n_held) {
        /* the held tail completed (or refuted) by the first bytes of p: a sequence is at most
         * 4 bytes, so 3 more decide it */
        unsigned char t[6];
        size_t nh = e->n_held, m = n < 3 ? n : 3;
        memcpy(t, e->held, nh);
        memcpy(t + nh, p, m);
        e->n_held = 0;
        if ((r = run(e, t, nh + m, 0, &used)))
            return r;
        if (used < nh) { /* still undecided: then all of p is in t (nh + m <= 3) */
            e->n_held = (unsigned char)(nh + m - used);
            memcpy(e->held, t + used, e->n_held);
            return 0;
        }
        p += used - nh;
        n -= used - nh;
    }
    if ((r = run(e, p, n, 0, &used)))
        return r;
    if (used < n) {
        e->n_held = (unsigned char)(n - used);
        memcpy(e->held, p + used, n - used);
    }
    return 0;
}

int tt_textesc_flush(tt_textesc *e)
{
    unsigned char t[3];
    size_t nh = e->n_held, used;
    if (!nh)
        return 0;
    memcpy(t, e->held, nh);
    e->n_held = 0;
    return run(e, t, nh, 1, &used);
}

size_t tt_textesc_plain(const char *p, size_t n)
{
    size_t used;
    run(NULL, (const unsigned char *)p, n, 0, &used);
    return used;
}

static int cell_write(void *ctx, const char *p, size_t n) { return tt_buf_put(ctx, p, n); }

int tt_textesc_cell(tt_buf *b, const char *p, size_t n, size_t *width)
{
    size_t start = b->len;
    tt_textesc e;
    tt_textesc_init(&e, cell_write, b);
    int rc = 0;
    for (size_t i = 0; i < n && !rc;) {
        size_t j = i;
        while (j < n && p[j] != '\n' && p[j] != '\t' && p[j] != '\r')
            j++;
        rc = tt_textesc_put(&e, p + i, j - i);
        if (!rc && j < n) { /* the line breaks and tab the stream escaper keeps */
            char x[4] = {'\\', 'x', '0', "0123456789abcdef"[(unsigned char)p[j] & 15]};
            rc = tt_textesc_put(&e, x, sizeof x);
            j++;
        }
        i = j;
    }
    if (!rc)
        rc = tt_textesc_flush(&e);
    if (rc) {
        b->len = start;
        if (b->data)
            b->data[start] = 0;
        return TT_ENOMEM;
    }
    if (width) { /* the text is plain UTF-8: one character per byte that starts one */
        size_t w = 0;
        for (size_t i = start; i < b->len; i++)
            w += ((unsigned char)b->data[i] & 0xC0) != 0x80;
        *width = w;
    }
    return 0;
}
