/* Android tombstone, logcat and ANR backtrace lines: "#NN pc HEX  MAP (...)" with the
 * parenthesised groups peeled from the end (spec/symbolication.md 7.3). */
#include "tsym_int.h"

#include <string.h>

static int is_blank(char c) { return c == ' ' || c == '\t'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }


static int starts(const char *p, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    return n >= l && !memcmp(p, lit, l);
}

static int ends(const char *p, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    return n >= l && !memcmp(p + n - l, lit, l);
}

/* "#NN pc HEX" at p; returns the length consumed or 0 */
static size_t frame_head(tsym_tomb_frame *f, const char *p, size_t n)
{
    size_t i = 1, d = 0;
    uint64_t num = 0;
    while (i < n && is_digit(p[i]) && d < 9) {
        num = num * 10 + (uint64_t)(p[i++] - '0');
        d++;
    }
    if (d == 0 || i >= n || !is_blank(p[i]))
        return 0;
    while (i < n && is_blank(p[i]))
        i++;
    if (!starts(p + i, n - i, "pc") || i + 2 >= n || !is_blank(p[i + 2]))
        return 0;
    i += 2;
    while (i < n && is_blank(p[i]))
        i++;
    if (starts(p + i, n - i, "0x"))
        i += 2;
    size_t h = 0;
    uint64_t pc = 0;
    while (i < n && tt_hex_digit(p[i]) >= 0 && h < 16) {
        pc = pc << 4 | (uint64_t)tt_hex_digit(p[i++]);
        h++;
    }
    if (h == 0 || (i < n && !is_blank(p[i])))
        return 0;
    f->frame = (uint32_t)num;
    f->pc = pc;
    return i;
}

static void classify_group(tsym_tomb_frame *f, const char *g, size_t n)
{
    if (starts(g, n, "BuildId: ")) {
        size_t k = 0;
        for (size_t i = 9; i < n && k + 1 < sizeof f->build_id; i++) {
            int v = tt_hex_digit(g[i]);
            if (v < 0)
                break;
            f->build_id[k++] = "0123456789abcdef"[v];
        }
        f->build_id[k] = 0;
    } else if (starts(g, n, "offset 0x")) {
        uint64_t v = 0;
        for (size_t i = 9; i < n && tt_hex_digit(g[i]) >= 0; i++)
            v = v << 4 | (uint64_t)tt_hex_digit(g[i]);
        f->has_offset = 1;
        f->apk_offset = v;
    } else if (n == 7 && !memcmp(g, "deleted", 7)) {
        f->deleted = 1;
    } else if (!f->function) {
        /* "function+decimal": split at the last '+' followed only by digits */
        size_t plus = n;
        for (size_t i = n; i-- > 0;) {
            if (g[i] == '+') {
                plus = i;
                break;
            }
            if (!is_digit(g[i]))
                break;
        }
        f->function = g;
        f->function_len = n;
        if (plus < n && plus + 1 < n && plus > 0) {
            uint64_t v = 0;
            for (size_t i = plus + 1; i < n && v < UINT64_MAX / 10; i++)
                v = v * 10 + (uint64_t)(g[i] - '0');
            f->function_len = plus;
            f->function_off = v;
        }
    }
}

static int symbolicatable(const char *m, size_t n)
{
    if (n == 0 || m[0] == '[' || m[0] == '<' || starts(m, n, "/memfd:") ||
        starts(m, n, "/dev/ashmem"))
        return 0;
    static const char *const skip[] = {".oat", ".odex", ".vdex", ".dex", ".art", ".jar", NULL};
    for (int i = 0; skip[i]; i++)
        if (ends(m, n, skip[i]))
            return 0;
    return 1;
}

int tsym_tombstone_parse(tsym_tomb_frame *out, const char *line, size_t n)
{
    memset(out, 0, sizeof *out);
    for (size_t h = 0; h < n; h++) {
        if (line[h] != '#' || (h > 0 && !is_blank(line[h - 1])))
            continue;
        size_t i = frame_head(out, line + h, n - h);
        if (!i)
            continue;
        i += h;
        out->prefix_len = h;
        while (i < n && is_blank(line[i]))
            i++;
        size_t end = n;
        while (end > i && (is_blank(line[end - 1]) || line[end - 1] == '\r'))
            end--;
        /* peel "(...)" groups from the end; function names nest parentheses */
        while (end > i && line[end - 1] == ')') {
            int depth = 0;
            size_t k = end;
            while (k-- > i) {
                if (line[k] == ')')
                    depth++;
                else if (line[k] == '(' && --depth == 0)
                    break;
            }
            if (depth != 0 || k == i || !is_blank(line[k - 1]))
                break;
            classify_group(out, line + k + 1, end - k - 2);
            end = k;
            while (end > i && is_blank(line[end - 1]))
                end--;
        }
        out->map = line + i;
        out->map_len = end - i;
        const char *bang = memchr(out->map, '!', out->map_len);
        out->lib = bang ? bang + 1 : out->map;
        out->lib_len = bang ? (size_t)(out->map + out->map_len - bang - 1) : out->map_len;
        out->symbolicatable = symbolicatable(out->lib, out->lib_len);
        return 0;
    }
    memset(out, 0, sizeof *out);
    return TT_ENOTFOUND;
}
