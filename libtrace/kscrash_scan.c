/* The fast paths of KSCrash reports (spec/ios.md 2.3, I10), for outputs that never write
 * the report back as JSON. First choice, tt_ks__scan_report: the whole report becomes a
 * small tree of its own (no jansson at all), its top-level "binary_images" array read
 * straight into image records (hundreds of images per report dominate parsing). Else
 * tt_ks__scan_images: the images alone, jansson reading the rest. Like jscan.c both accept
 * a strict subset of JSON and decline (return 0) everything else, so that jansson decides,
 * with its own messages and values, about any report the scanners do not fully understand:
 * \u escapes, non-ASCII or control bytes in strings, escaped keys, leading zeros, integers
 * below -(10^18 - 1) or from 2^64 on, reals out of range, nesting deeper than MAX_TREE_DEPTH,
 * a repeated "binary_images"; inside an image also nested values, reals
 * and (for the images-only path) integers of more than 18 digits. */
#include "kscrash_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Whether the first byte of a word is its lowest (SWAR positions through ctz). */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_LE 1
#else
#define SWAR_LE 0
#endif

/* Byte classes: 1 ends a run inside a string ('"', '\\', control, non-ASCII). */
static int str_stop(unsigned char c) { return c == '"' || c == '\\' || c < 0x20 || c >= 0x7f; }

/* The str_stop bytes among the 8 at p, as the high bit of each (the usual SWAR zero-byte
 * tests: whether any is set is exact; a borrow can only flag bytes after a true one, so
 * the lowest set bit is the first stop byte). */
static uint64_t stop8(const char *p)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = UINT64_C(0x8080808080808080);
    uint64_t x;
    memcpy(&x, p, 8);
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\'), d = x ^ (ones * 0x7f);
    uint64_t z = ((q - ones) & ~q) | ((b - ones) & ~b) | ((d - ones) & ~d) | ((x - ones * 0x20) & ~x) | x;
    return z & high;
}

/* The index of the first str_stop byte at or after p[i], n when none. */
static size_t stop_at(const char *p, size_t i, size_t n)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
                  space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
    for (; i + 16 <= n; i += 16) { /* signed: non-ASCII bytes are below ' ' too */
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bs)),
                                 _mm_or_si128(_mm_cmplt_epi8(x, space), _mm_cmpeq_epi8(x, del)));
        unsigned z = (unsigned)_mm_movemask_epi8(m);
        if (z)
            return i + (size_t)__builtin_ctz(z);
    }
#endif
    for (; i + 8 <= n; i += 8) {
        uint64_t z = stop8(p + i);
#if SWAR_LE
        if (z)
            return i + (size_t)__builtin_ctzll(z) / 8;
#else
        if (z)
            break;
#endif
    }
    while (i < n && !str_stop((unsigned char)p[i]))
        i++;
    return i;
}

static size_t ws(const char *p, size_t i, size_t n)
{
    while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
        i++;
    return i;
}

/* A string at p[i] == '"' of the accepted subset: *end after the closing quote, the
 * contents in *s (offsets from p; esc set when simple escapes occur). 0: declined. */
static int str(const char *p, size_t i, size_t n, size_t *end, tt_ks_span *s)
{
    size_t b = ++i;
    int esc = 0;
    for (;;) {
        i = stop_at(p, i, n);
        if (i >= n)
            return 0;
        if (p[i] == '"')
            break;
        if (p[i] != '\\' || i + 1 >= n || !strchr("\"\\/bfnrt", p[i + 1]) || !p[i + 1])
            return 0;
        esc = 1;
        i += 2;
    }
    if (i - b > UINT32_MAX)
        return 0;
    *s = (tt_ks_span){(uint32_t)b, (uint32_t)(i - b), 1, (uint8_t)esc};
    *end = i + 1;
    return 1;
}

/* A number of the accepted subset (an integer of at most 18 digits, no leading zero); with
 * big, also unsigned integers of 19 or 20 digits below 2^64, *big counting those >= 2^63
 * (stored as their two's complement, as the 2.2 rewrite makes them). */
static int num(const char *p, size_t i, size_t n, size_t *end, int64_t *v, uint64_t *big)
{
    int neg = p[i] == '-';
    size_t d = i + neg, k = d;
    uint64_t x = 0;
    while (k < n && k - d < 18 && p[k] >= '0' && p[k] <= '9')
        x = x * 10 + (uint64_t)(p[k++] - '0');
    if (k == d || (k - d > 1 && p[d] == '0'))
        return 0;
    if (big && !neg) /* up to two more digits: 10^18 * 10 + 9 < 2^64, then checked */
        for (int m = 0; m < 2 && k < n && p[k] >= '0' && p[k] <= '9'; m++, k++) {
            unsigned dg = (unsigned)(p[k] - '0');
            if (x > (UINT64_MAX - dg) / 10)
                return 0;
            x = x * 10 + dg;
        }
    if (k < n && ((p[k] >= '0' && p[k] <= '9') || p[k] == '.' || p[k] == 'e' || p[k] == 'E' ||
                  p[k] == '+' || p[k] == '-'))
        return 0;
    if (x > (uint64_t)INT64_MAX)
        (*big)++;
    *v = neg ? -(int64_t)x : (int64_t)x;
    *end = k;
    return 1;
}

static int lit(const char *p, size_t i, size_t n, const char *w, size_t *end)
{
    size_t l = strlen(w);
    if (n - i < l || memcmp(p + i, w, l))
        return 0;
    *end = i + l;
    return 1;
}

/* An object member's key at p[*ip] (unescaped) and its colon: *ip at the value. 0: declined. */
static int key_colon(const char *p, size_t *ip, size_t n, tt_ks_span *k)
{
    size_t i = *ip;
    if (i >= n || p[i] != '"' || !str(p, i, n, &i, k) || k->esc)
        return 0;
    i = ws(p, i, n);
    if (i >= n || p[i] != ':')
        return 0;
    *ip = ws(p, i + 1, n);
    return 1;
}

/* After a member or element: 1 at ',' (*ip at the next one), 2 at close (*ip after it),
 * 0 for anything else. */
static int after(const char *p, size_t *ip, size_t n, char close)
{
    size_t i = ws(p, *ip, n);
    if (i < n && (p[i] == ',' || p[i] == close)) {
        *ip = p[i] == ',' ? ws(p, i + 1, n) : i + 1;
        return p[i] == ',' ? 1 : 2;
    }
    return 0;
}

enum { T_NUM, T_STR, T_LIT };
enum { K_ADDR, K_SIZE, K_VMADDR, K_NAME, K_UUID, K_CPU, K_SUB, K_CI0, K_NONE = K_CI0 + 4 };

static int key_id(const char *k, size_t n)
{
    static const char *const keys[] = {"image_addr", "image_size", "image_vmaddr", "name",
                                       "uuid", "cpu_type", "cpu_subtype", "crash_info_message",
                                       "crash_info_message2", "crash_info_backtrace",
                                       "crash_info_signature"};
    int i;
    switch (n) { /* the one candidate of each length, then one comparison */
    case 4: i = k[0] == 'n' ? K_NAME : K_UUID; break;
    case 8: i = K_CPU; break;
    case 10: i = k[6] == 'a' ? K_ADDR : K_SIZE; break;
    case 11: i = K_SUB; break;
    case 12: i = K_VMADDR; break;
    case 18: i = K_CI0; break;
    case 19: i = K_CI0 + 1; break;
    case 20: i = k[11] == 'b' ? K_CI0 + 2 : K_CI0 + 3; break;
    default: return K_NONE;
    }
    return memcmp(keys[i], k, n) ? K_NONE : i;
}

/* An unsigned field (tt_ks__u64's rules): integer bit pattern, or "0x..." / decimal text. */
static void set_u64(const char *p, int type, const tt_ks_span *s, int64_t iv, uint8_t *has,
                    uint64_t *out)
{
    *has = 0;
    if (type == T_NUM) {
        *has = 1;
        *out = (uint64_t)iv;
        return;
    }
    if (type != T_STR)
        return;
    char t[64];
    if (s->esc || s->len >= sizeof t)
        return; /* not an address text (the caller declines long ones) */
    memcpy(t, p + s->off, s->len);
    t[s->len] = 0;
    *has = (uint8_t)tt_ks__u64_str(t, out);
}

/* One image object at p[i] == '{'. 0: declined. */
static int image(const char *p, size_t i, size_t n, size_t *end, tt_ks_fimg *g, uint64_t *big)
{
    memset(g, 0, sizeof *g);
    i = ws(p, i + 1, n);
    if (i < n && p[i] == '}') {
        *end = i + 1;
        return 1;
    }
    for (;;) {
        tt_ks_span k, s = {0};
        if (!key_colon(p, &i, n, &k) || i >= n)
            return 0;
        int type = T_NUM;
        int64_t iv = 0;
        if (p[i] == '"') {
            if (!str(p, i, n, &i, &s))
                return 0;
            type = T_STR;
        } else if (p[i] == '-' || (p[i] >= '0' && p[i] <= '9')) {
            if (!num(p, i, n, &i, &iv, big))
                return 0;
        } else if (lit(p, i, n, "null", &i) || lit(p, i, n, "true", &i) ||
                   lit(p, i, n, "false", &i)) {
            type = T_LIT;
        } else {
            return 0;
        }
        int id = key_id(p + k.off, k.len);
        if (type == T_STR && s.len >= 64 && id <= K_VMADDR)
            return 0;
        switch (id) {
        case K_ADDR: set_u64(p, type, &s, iv, &g->has_addr, &g->addr); break;
        case K_SIZE: set_u64(p, type, &s, iv, &g->has_size, &g->size); break;
        case K_VMADDR: set_u64(p, type, &s, iv, &g->has_vmaddr, &g->vmaddr); break;
        case K_NAME: g->path = s; break;
        case K_UUID: g->uuid = s; break;
        case K_CPU: g->has_cpu_type = type == T_NUM; g->cpu_type = iv; break;
        case K_SUB: g->has_cpu_subtype = type == T_NUM; g->cpu_subtype = iv; break;
        case K_NONE: break;
        default: g->ci[id - K_CI0] = s; break;
        }
        int a = after(p, &i, n, '}');
        if (a != 1) {
            *end = i;
            return a / 2;
        }
    }
}

/* The array at p[i] == '['. 0: declined. */
static int images(tt_vec *out, const char *p, size_t i, size_t n, size_t *end, uint64_t *big)
{
    i = ws(p, i + 1, n);
    if (i < n && p[i] == ']') {
        *end = i + 1;
        return 1;
    }
    for (;;) {
        tt_ks_fimg *g = tt_vec_push(out, NULL);
        if (!g)
            return TT_ENOMEM;
        if (i >= n || p[i] != '{' || !image(p, i, n, &i, g, big))
            return 0;
        int a = after(p, &i, n, ']');
        if (a != 1) {
            *end = i;
            return a / 2;
        }
    }
}

/* Skips any value at p[i] structurally (strings and brackets only; jansson validates it
 * later). 0 when the text ends first, or when a bare value (number, literal) runs into a
 * quote, bracket or colon: the bracket scan would start a string or nesting there, and the
 * report must end where it says (found by fuzz_kscrash: `92"}` ended a report early). */
static int skip(const char *p, size_t i, size_t n, size_t *end)
{
    size_t depth = 0;
    while (i < n) {
        char c = p[i++];
        if (c == '"') {
            for (;;) {
                while (i < n && p[i] != '"' && p[i] != '\\')
                    i++;
                if (i >= n)
                    return 0;
                if (p[i] == '"')
                    break;
                i += 2;
            }
            i++;
        } else if (c == '{' || c == '[') {
            depth++;
            continue;
        } else if (c == '}' || c == ']') {
            if (!depth)
                return 0;
            depth--;
        } else if (!depth) {
            while (i < n && p[i] && !strchr(" \t\r\n,]}\"{[:", p[i]))
                i++;
            if (i < n && (!p[i] || strchr("\"{[:", p[i])))
                return 0;
        }
        if (!depth) {
            *end = i;
            return 1;
        }
    }
    return 0;
}

int tt_ks__scan_images(tt_vec *imgs, size_t *vs, size_t *ve, size_t *end, const char *p,
                       size_t n)
{
    imgs->len = 0;
    size_t i = ws(p, 0, n), found = 0;
    if (i >= n || p[i] != '{')
        return 0;
    i = ws(p, i + 1, n);
    if (i < n && p[i] == '}')
        return 0;
    for (;;) {
        tt_ks_span k;
        if (!key_colon(p, &i, n, &k) || i >= n)
            return 0;
        if (k.len == 13 && !memcmp(p + k.off, "binary_images", 13)) {
            if (found++ || p[i] != '[')
                return 0;
            *vs = i;
            int rc = images(imgs, p, i, n, &i, NULL);
            if (rc <= 0)
                return rc;
            *ve = i;
        } else if (!skip(p, i, n, &i)) {
            return 0;
        }
        int a = after(p, &i, n, '}');
        if (a != 1) {
            *end = i;
            return a == 2 && found;
        }
    }
}

/* ---- the whole report (second tier of I10: no jansson at all) ---- */

#define MAX_TREE_DEPTH 512

typedef struct tree {
    const char *p;
    size_t n;
    tt_vec *nodes, *imgs;
    uint64_t big;
    int images;
} tree;

static tt_ks_jn *node_at(const tree *t, uint32_t k) { return (tt_ks_jn *)t->nodes->data + k; }

/* A real of jansson's grammar at p[i] (a fraction or an exponent present): its value
 * through strtod as jansson's; 0 for anything out of range or not a real. */
static int real(const char *p, size_t i, size_t n, size_t *end, double *v)
{
    size_t k = i + (p[i] == '-');
    if (k >= n || p[k] < '0' || p[k] > '9' || (p[k] == '0' && k + 1 < n && p[k + 1] >= '0' &&
                                               p[k + 1] <= '9'))
        return 0;
    while (k < n && p[k] >= '0' && p[k] <= '9')
        k++;
    if (k >= n || (p[k] != '.' && p[k] != 'e' && p[k] != 'E'))
        return 0; /* an integer num() declined */
    if (p[k] == '.') {
        size_t f = ++k;
        while (k < n && p[k] >= '0' && p[k] <= '9')
            k++;
        if (k == f)
            return 0;
    }
    if (k < n && (p[k] == 'e' || p[k] == 'E')) {
        k += k + 1 < n && (p[k + 1] == '+' || p[k + 1] == '-');
        size_t f = ++k;
        while (k < n && p[k] >= '0' && p[k] <= '9')
            k++;
        if (k == f)
            return 0;
    }
    char t[64], *e;
    if (k - i >= sizeof t)
        return 0;
    memcpy(t, p + i, k - i);
    t[k - i] = 0;
    errno = 0;
    *v = strtod(t, &e);
    if (errno || *e || isinf(*v))
        return 0;
    *end = k;
    return 1;
}

static int tvalue(tree *t, size_t *ip, uint32_t me, uint32_t depth);

/* The members or elements of the container at p[*ip] ('{' or '['), as children of me. */
static int container(tree *t, size_t *ip, uint32_t me, uint32_t depth)
{
    const char *p = t->p;
    size_t i = *ip, n = t->n;
    int obj = p[i] == '{';
    char close = obj ? '}' : ']';
    uint32_t prev = 0;
    if (depth >= MAX_TREE_DEPTH)
        return 0;
    i = ws(p, i + 1, n);
    if (i < n && p[i] == close) {
        *ip = i + 1;
        return 1;
    }
    for (;;) {
        tt_ks_span k = {0};
        if (obj && !key_colon(p, &i, n, &k))
            return 0;
        if (t->nodes->len >= UINT32_MAX || !tt_vec_push(t->nodes, NULL))
            return TT_ENOMEM;
        uint32_t kid = (uint32_t)(t->nodes->len - 1);
        tt_ks_jn *c = node_at(t, kid);
        memset(c, 0, sizeof *c);
        c->key_off = k.off;
        c->key_len = k.len;
        if (prev)
            node_at(t, prev)->next = kid;
        else
            node_at(t, me)->first = kid;
        node_at(t, me)->n++;
        prev = kid;
        int rc;
        if (!depth && k.len == 13 && !memcmp(p + k.off, "binary_images", 13)) {
            if (t->images++ || i >= n || p[i] != '[')
                return 0;
            node_at(t, kid)->type = JSON_ARRAY; /* read into imgs, left empty here */
            rc = images(t->imgs, p, i, n, &i, &t->big);
        } else {
            rc = tvalue(t, &i, kid, depth + 1);
        }
        if (rc <= 0)
            return rc;
        int a = after(p, &i, n, close);
        if (a != 1) {
            *ip = i;
            return a / 2;
        }
    }
}

/* The value at p[*ip] into node me (already linked). */
static int tvalue(tree *t, size_t *ip, uint32_t me, uint32_t depth)
{
    const char *p = t->p;
    size_t i = *ip, n = t->n;
    if (i >= n)
        return 0;
    char ch = p[i];
    if (ch == '{' || ch == '[') {
        node_at(t, me)->type = ch == '{' ? JSON_OBJECT : JSON_ARRAY;
        return container(t, ip, me, depth);
    }
    tt_ks_jn *v = node_at(t, me);
    if (ch == '"') {
        tt_ks_span s;
        if (!str(p, i, n, ip, &s))
            return 0;
        v->type = JSON_STRING;
        v->off = s.off;
        v->len = s.len;
        v->esc = s.esc;
        return 1;
    }
    if (ch == '-' || (ch >= '0' && ch <= '9')) {
        if (num(p, i, n, ip, &v->v.i, &t->big)) {
            v->type = JSON_INTEGER;
            return 1;
        }
        v->type = JSON_REAL;
        return real(p, i, n, ip, &v->v.d);
    }
    if (lit(p, i, n, "null", ip))
        v->type = JSON_NULL;
    else if (lit(p, i, n, "true", ip))
        v->type = JSON_TRUE;
    else if (lit(p, i, n, "false", ip))
        v->type = JSON_FALSE;
    else
        return 0;
    return 1;
}

int tt_ks__scan_report(tt_vec *nodes, tt_vec *imgs, uint64_t *big, size_t *end, const char *p,
                       size_t n)
{
    tree t = {.p = p, .n = n, .nodes = nodes, .imgs = imgs};
    nodes->len = imgs->len = 0;
    size_t i = ws(p, 0, n);
    if (i >= n || p[i] != '{' || !tt_vec_push(nodes, NULL))
        return i < n && p[i] == '{' ? TT_ENOMEM : 0;
    memset(node_at(&t, 0), 0, sizeof(tt_ks_jn));
    node_at(&t, 0)->type = JSON_OBJECT;
    int rc = container(&t, &i, 0, 0);
    if (rc <= 0)
        return rc;
    *big = t.big;
    *end = i;
    return 1;
}
