/* SVG/HTML text, spec/visual.md section 6: UTF-8 repair, XML-safe escaping, display cells
 * (UAX #11 wide ranges) and the name fitting alternatives. Shared by the HTML writer. */
#include "tt.h"

#include <string.h>

/* Decodes one code point; invalid input gives U+FFFD for its maximal subpart. */
static size_t next_cp(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, v = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3, v = c & 0x0f;
        if (c == 0xe0)
            lo = 0xa0;
        if (c == 0xed)
            hi = 0x9f; /* no surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, v = c & 0x07;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f;
    } else {
        *cp = 0xfffd;
        return 1;
    }
    size_t i = 1;
    for (; i < len; i++) {
        if (i >= n || s[i] < lo || s[i] > hi) {
            *cp = 0xfffd;
            return i;
        }
        v = v << 6 | (s[i] & 0x3f);
        lo = 0x80, hi = 0xbf;
    }
    *cp = v;
    return len;
}

/* The code point as written: forbidden and bidi controls become U+FFFD, breaks blanks. */
static uint32_t clean(uint32_t c)
{
    if (c == '\t' || c == '\n' || c == '\r')
        return ' ';
    if (c < 0x20 || c == 0xfffe || c == 0xffff || (c >= 0xd800 && c <= 0xdfff) ||
        (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
        return 0xfffd;
    return c;
}

static int put_cp(tt_buf *b, uint32_t c)
{
    char u[4];
    size_t n;
    if (c < 0x80)
        u[0] = (char)c, n = 1;
    else if (c < 0x800)
        u[0] = (char)(0xc0 | c >> 6), u[1] = (char)(0x80 | (c & 0x3f)), n = 2;
    else if (c < 0x10000)
        u[0] = (char)(0xe0 | c >> 12), u[1] = (char)(0x80 | (c >> 6 & 0x3f)),
        u[2] = (char)(0x80 | (c & 0x3f)), n = 3;
    else
        u[0] = (char)(0xf0 | c >> 18), u[1] = (char)(0x80 | (c >> 12 & 0x3f)),
        u[2] = (char)(0x80 | (c >> 6 & 0x3f)), u[3] = (char)(0x80 | (c & 0x3f)), n = 4;
    return tt_buf_put(b, u, n);
}

int tt_svg_escape(tt_buf *b, const char *s, size_t n, int attr)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* copy plain ASCII runs at once */
        size_t j = i;
        while (j < n && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '&' && p[j] != '<' &&
               p[j] != '>' && p[j] != '"')
            j++;
        if (j > i && tt_buf_put(b, s + i, j - i))
            return TT_ENOMEM;
        if ((i = j) >= n)
            break;
        uint32_t c;
        i += next_cp(p + i, n - i, &c);
        c = clean(c);
        int rc = c == '&'               ? tt_buf_puts(b, "&amp;")
                 : c == '<'             ? tt_buf_puts(b, "&lt;")
                 : c == '>'             ? tt_buf_puts(b, "&gt;")
                 : c == '"' && attr     ? tt_buf_puts(b, "&quot;")
                                        : put_cp(b, c);
        if (rc)
            return TT_ENOMEM;
    }
    return 0;
}

static int wide(uint32_t c)
{
    return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
           (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
           (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
           (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd);
}

size_t tt_svg_cells(const char *s, size_t n)
{
    size_t cells = 0;
    for (size_t i = 0; i < n;) {
        uint32_t c;
        i += next_cp((const unsigned char *)s + i, n - i, &c);
        cells += 1 + wide(clean(c));
    }
    return cells;
}

/* Byte length of the longest prefix (or, from_end, suffix start) of s within cells. */
static size_t cut(const char *s, size_t n, size_t cells, int from_end, size_t *start)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t used = 0, i = 0;
    if (!from_end) {
        while (i < n) {
            uint32_t c;
            size_t k = next_cp(p + i, n - i, &c);
            size_t w = 1 + (size_t)wide(clean(c));
            if (used + w > cells)
                break;
            used += w;
            i += k;
        }
        *start = 0;
        return i;
    }
    /* from the end: decode forward, keep a window of the last cells */
    size_t total = tt_svg_cells(s, n);
    size_t skip = total > cells ? total - cells : 0, sk = 0;
    while (i < n && sk < skip) {
        uint32_t c;
        size_t k = next_cp(p + i, n - i, &c);
        sk += 1 + (size_t)wide(clean(c));
        i += k;
    }
    *start = i;
    return n - i;
}

typedef struct cand {
    size_t off, len;
} cand;

/* The alternatives of 6.1 step 2, shortest last. */
static size_t candidates(cand *c, const char *s, size_t n)
{
    size_t k = 0;
    c[k++] = (cand){0, n};
    const char *par = memchr(s, '(', n);
    size_t end = par ? (size_t)(par - s) : n;
    int cpp = 0;
    for (size_t i = 0; i + 1 < end; i++)
        if (s[i] == ':' && s[i + 1] == ':')
            cpp = 1;
    if (cpp) {
        if (end < n)
            c[k++] = (cand){0, end};
        for (size_t i = 0; i + 1 < end && k < 15; i++)
            if (s[i] == ':' && s[i + 1] == ':' && i + 2 < end)
                c[k++] = (cand){i + 2, end - i - 2};
        return k;
    }
    if (!par)
        return k;
    size_t dots[2] = {SIZE_MAX, SIZE_MAX}; /* last and second last '.' before '(' */
    for (size_t i = 0; i < end; i++)
        if (s[i] == '.')
            dots[1] = dots[0], dots[0] = i;
    if (dots[0] == SIZE_MAX)
        return k;
    size_t cls = dots[1] == SIZE_MAX ? 0 : dots[1] + 1;
    if (cls)
        c[k++] = (cand){cls, n - cls};
    c[k++] = (cand){cls, end - cls};
    c[k++] = (cand){dots[0] + 1, end - dots[0] - 1};
    return k;
}

int tt_svg_fit(tt_buf *b, const char *name, size_t n, size_t cells, int truncate_left)
{
    if (cells < 3 || !n)
        return 0;
    cand c[16];
    size_t k = candidates(c, name, n);
    for (size_t i = 0; i < k; i++)
        if (c[i].len && tt_svg_cells(name + c[i].off, c[i].len) <= cells)
            return tt_svg_escape(b, name + c[i].off, c[i].len, 0) ? TT_ENOMEM : 1;
    const char *s = name + c[k - 1].off;
    size_t len = c[k - 1].len, start;
    size_t m = cut(s, len, cells - 2, truncate_left, &start);
    int rc = 0;
    if (truncate_left)
        rc = tt_buf_puts(b, "..") || tt_svg_escape(b, s + start, m, 0);
    else
        rc = tt_svg_escape(b, s, m, 0) || tt_buf_puts(b, "..");
    return rc ? TT_ENOMEM : 1;
}
