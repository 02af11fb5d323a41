/* A fast path for one-line JSON records: scans a flat object (one nested object allowed)
 * without building a tree, for readers that would otherwise call json_loadb per line.
 * It accepts a strict subset of JSON and declines (returns 0) everything else, so that the
 * caller's jansson path decides, with jansson's own messages, about any line the scanner
 * does not fully understand: escapes, non-ASCII or control bytes in strings, arrays, deeper
 * nesting, integers of more than 18 digits, leading zeros, trailing bytes. */
#include "tt_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* A string without escapes of printable ASCII; p is after the opening quote. */
static const char *str(const char *p, const char *e, const char **s, size_t *n)
{
    const char *q = memchr(p, '"', (size_t)(e - p));
    if (!q)
        return NULL;
    for (const char *c = p; c < q; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f || *c == '\\')
            return NULL;
    *s = p;
    *n = (size_t)(q - p);
    return q + 1;
}

static const char *num(const char *p, const char *e, tt_jval *v)
{
    const char *s = p;
    int neg = p < e && *p == '-';
    if (neg)
        p++;
    const char *d = p;
    while (p < e && *p >= '0' && *p <= '9')
        p++;
    size_t nd = (size_t)(p - d);
    if (nd == 0 || nd > 18 || (nd > 1 && *d == '0'))
        return NULL;
    int real = 0;
    if (p < e && *p == '.') {
        const char *f = ++p;
        while (p < e && *p >= '0' && *p <= '9')
            p++;
        if (p == f)
            return NULL;
        real = 1;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        const char *x = p;
        while (p < e && *p >= '0' && *p <= '9')
            p++;
        if (p == x)
            return NULL;
        real = 1;
    }
    if (p < e && ((*p >= '0' && *p <= '9') || *p == '.' || *p == '+' || *p == '-'))
        return NULL;
    if (real) {
        char buf[64];
        size_t n = (size_t)(p - s);
        if (n >= sizeof buf)
            return NULL;
        memcpy(buf, s, n);
        buf[n] = 0;
        double x = strtod(buf, NULL);
        if (!isfinite(x))
            return NULL;
        v->type = TT_JV_REAL;
        v->d = x;
        return p;
    }
    int64_t x = 0;
    for (const char *c = d; c < p; c++)
        x = x * 10 + (*c - '0');
    v->type = TT_JV_INT;
    v->i = neg ? -x : x;
    v->d = (double)v->i;
    return p;
}

static int key_index(const char *const *keys, const uint8_t *lens, size_t nk, const char *s,
                     size_t n)
{
    if (lens) {
        for (size_t i = 0; i < nk; i++)
            if (lens[i] == n && keys[i][0] == s[0] && !memcmp(keys[i], s, n))
                return (int)i;
        return -1;
    }
    for (size_t i = 0; i < nk; i++)
        if (keys[i][0] == s[0] && !strncmp(keys[i], s, n) && keys[i][n] == 0)
            return (int)i;
    return -1;
}

/* One object; p is after '{'. sub != NULL only at the top level. */
static const char *object(const tt_jscan_spec *sp, const char *p, const char *e, int top,
                          tt_jval *vals, tt_jval *sub)
{
    const char *const *keys = top ? sp->keys : sp->sub_keys;
    size_t nk = top ? sp->n_keys : sp->n_sub;
    const uint8_t *lens = top ? sp->key_lens : sp->sub_lens;
    p = ws(p, e);
    if (p < e && *p == '}')
        return p + 1;
    for (;;) {
        if (p >= e || *p != '"')
            return NULL;
        const char *k;
        size_t kn;
        if (!(p = str(p + 1, e, &k, &kn)))
            return NULL;
        p = ws(p, e);
        if (p >= e || *p != ':')
            return NULL;
        p = ws(p + 1, e);
        if (p >= e)
            return NULL;
        int ki = kn ? key_index(keys, lens, nk, k, kn) : -1;
        tt_jval tmp, *v = ki >= 0 ? &vals[ki] : &tmp;
        memset(v, 0, sizeof *v);
        switch (*p) {
        case '"':
            v->type = TT_JV_STR;
            p = str(p + 1, e, &v->s, &v->n);
            break;
        case '{':
            /* the nested object: known keys go to sub (last occurrence wins, as in
             * jansson, so it is cleared each time) */
            if (!top || ki < 0 || ki != sp->nested || !sub)
                return NULL;
            v->type = TT_JV_OBJ;
            memset(sub, 0, sp->n_sub * sizeof *sub);
            p = object(sp, p + 1, e, 0, sub, NULL);
            break;
        case 't':
            v->type = TT_JV_TRUE;
            p = (e - p >= 4 && !memcmp(p, "true", 4)) ? p + 4 : NULL;
            break;
        case 'f':
            v->type = TT_JV_FALSE;
            p = (e - p >= 5 && !memcmp(p, "false", 5)) ? p + 5 : NULL;
            break;
        case 'n':
            v->type = TT_JV_NULL;
            p = (e - p >= 4 && !memcmp(p, "null", 4)) ? p + 4 : NULL;
            break;
        default:
            p = num(p, e, v);
        }
        if (!p)
            return NULL;
        p = ws(p, e);
        if (p < e && *p == '}')
            return p + 1;
        if (p >= e || *p != ',')
            return NULL;
        p = ws(p + 1, e);
    }
}

int tt_jscan(const tt_jscan_spec *sp, const char *p, size_t n, tt_jval *vals, tt_jval *sub)
{
    const char *e = p + n;
    memset(vals, 0, sp->n_keys * sizeof *vals);
    if (sub)
        memset(sub, 0, sp->n_sub * sizeof *sub);
    p = ws(p, e);
    if (p >= e || *p != '{')
        return 0;
    p = object(sp, p + 1, e, 1, vals, sub);
    return p && ws(p, e) == e;
}
