/* The fast path for KSCrash binary_images (spec/ios.md 2.3, I10): a report's top-level
 * "binary_images" array is read without building a jansson tree (hundreds of images per
 * report dominate parsing). Like jscan.c it accepts a strict subset and declines (returns 0)
 * everything else, so that jansson decides, with its own messages, about any report the
 * scanner does not fully understand: \u escapes, non-ASCII or control bytes in strings,
 * nested values inside an image, reals, integers of more than 18 digits, leading zeros,
 * elements that are not objects, a repeated or escaped top-level key. */
#include "kscrash_int.h"

#include <string.h>

/* Byte classes: 1 ends a run inside a string ('"', '\\', control, non-ASCII). */
static int str_stop(unsigned char c) { return c == '"' || c == '\\' || c < 0x20 || c >= 0x7f; }

/* Whether one of the 8 bytes at p is a str_stop byte (the usual SWAR zero-byte tests:
 * exact, no false positives or negatives). */
static int stop8(const char *p)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = UINT64_C(0x8080808080808080);
    uint64_t x;
    memcpy(&x, p, 8);
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\'), d = x ^ (ones * 0x7f);
    uint64_t z = ((q - ones) & ~q) | ((b - ones) & ~b) | ((d - ones) & ~d) | ((x - ones * 0x20) & ~x) | x;
    return (z & high) != 0;
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
        while (i + 8 <= n && !stop8(p + i))
            i += 8;
        while (i < n && !str_stop((unsigned char)p[i]))
            i++;
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

/* A number of the accepted subset (an integer of at most 18 digits, no leading zero). */
static int num(const char *p, size_t i, size_t n, size_t *end, int64_t *v)
{
    int neg = p[i] == '-';
    size_t d = i + neg, k = d;
    uint64_t x = 0;
    while (k < n && p[k] >= '0' && p[k] <= '9')
        x = x * 10 + (uint64_t)(p[k++] - '0');
    if (k == d || k - d > 18 || (k - d > 1 && p[d] == '0'))
        return 0;
    if (k < n && (p[k] == '.' || p[k] == 'e' || p[k] == 'E' || p[k] == '+' || p[k] == '-'))
        return 0;
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

enum { T_NUM, T_STR, T_LIT };
enum { K_ADDR, K_SIZE, K_VMADDR, K_NAME, K_UUID, K_CPU, K_SUB, K_CI0, K_NONE = K_CI0 + 4 };

static int key_id(const char *k, size_t n)
{
    static const char *const keys[] = {"image_addr", "image_size", "image_vmaddr", "name",
                                       "uuid", "cpu_type", "cpu_subtype", "crash_info_message",
                                       "crash_info_message2", "crash_info_backtrace",
                                       "crash_info_signature"};
    static const unsigned char lens[] = {10, 10, 12, 4, 4, 8, 11, 18, 19, 20, 20};
    for (int i = 0; i < K_NONE; i++)
        if (lens[i] == n && !memcmp(keys[i], k, n))
            return i;
    return K_NONE;
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
static int image(const char *p, size_t i, size_t n, size_t *end, tt_ks_fimg *g)
{
    memset(g, 0, sizeof *g);
    i = ws(p, i + 1, n);
    if (i < n && p[i] == '}') {
        *end = i + 1;
        return 1;
    }
    for (;;) {
        tt_ks_span k, s = {0};
        if (i >= n || p[i] != '"' || !str(p, i, n, &i, &k) || k.esc)
            return 0;
        i = ws(p, i, n);
        if (i >= n || p[i] != ':')
            return 0;
        i = ws(p, i + 1, n);
        if (i >= n)
            return 0;
        int type = T_NUM;
        int64_t iv = 0;
        if (p[i] == '"') {
            if (!str(p, i, n, &i, &s))
                return 0;
            type = T_STR;
        } else if (p[i] == '-' || (p[i] >= '0' && p[i] <= '9')) {
            if (!num(p, i, n, &i, &iv))
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
        i = ws(p, i, n);
        if (i < n && p[i] == ',') {
            i = ws(p, i + 1, n);
            continue;
        }
        if (i < n && p[i] == '}') {
            *end = i + 1;
            return 1;
        }
        return 0;
    }
}

/* The array at p[i] == '['. 0: declined. */
static int images(tt_vec *out, const char *p, size_t i, size_t n, size_t *end)
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
        if (i >= n || p[i] != '{' || !image(p, i, n, &i, g))
            return 0;
        i = ws(p, i, n);
        if (i < n && p[i] == ',') {
            i = ws(p, i + 1, n);
            continue;
        }
        if (i < n && p[i] == ']') {
            *end = i + 1;
            return 1;
        }
        return 0;
    }
}

/* Skips any value at p[i] structurally (strings and brackets only; jansson validates it
 * later). 0 when the text ends first. */
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
            while (i < n && !strchr(" \t\r\n,]}", p[i]))
                i++;
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
        if (i >= n || p[i] != '"' || !str(p, i, n, &i, &k) || k.esc)
            return 0;
        i = ws(p, i, n);
        if (i >= n || p[i] != ':')
            return 0;
        i = ws(p, i + 1, n);
        if (i >= n)
            return 0;
        if (k.len == 13 && !memcmp(p + k.off, "binary_images", 13)) {
            if (found++ || p[i] != '[')
                return 0;
            *vs = i;
            int rc = images(imgs, p, i, n, &i);
            if (rc <= 0)
                return rc;
            *ve = i;
        } else if (!skip(p, i, n, &i)) {
            return 0;
        }
        i = ws(p, i, n);
        if (i < n && p[i] == ',') {
            i = ws(p, i + 1, n);
            continue;
        }
        if (i >= n || p[i] != '}' || !found)
            return 0;
        *end = i + 1;
        return 1;
    }
}
