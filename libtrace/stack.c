/* Report stack strings to items and call trees (method-beat.md 5.10 and 7.7). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

static int parse_i32(const char *s, size_t n, int32_t *out)
{
    tt__trim(&s, &n);
    int64_t v;
    if (tt__parse_i64(s, n, &v) || v < INT32_MIN || v > INT32_MAX)
        return -1;
    *out = (int32_t)v;
    return 0;
}

/* "d,id,count,dur" or the print form "..id count dur" */
static int parse_line(const char *s, size_t n, tt_mitem *it)
{
    int32_t f[4];
    if (memchr(s, ',', n)) {
        size_t k = 0, start = 0;
        for (size_t i = 0; i <= n; i++) {
            if (i == n || s[i] == ',') {
                if (k >= 4 || parse_i32(s + start, i - start, &f[k]))
                    return -1;
                k++;
                start = i + 1;
            }
        }
        if (k != 4)
            return -1;
    } else {
        size_t dots = 0;
        while (dots < n && s[dots] == '.')
            dots++;
        if (dots > INT32_MAX)
            return -1;
        f[0] = (int32_t)dots;
        size_t k = 1, i = dots;
        while (i < n) {
            while (i < n && s[i] == ' ')
                i++;
            if (i == n)
                break;
            size_t st = i;
            while (i < n && s[i] != ' ')
                i++;
            if (k >= 4 || parse_i32(s + st, i - st, &f[k]))
                return -1;
            k++;
        }
        if (k != 4)
            return -1;
    }
    it->depth = f[0];
    it->id = f[1];
    it->count = f[2];
    it->dur = f[3];
    return 0;
}

int tt_stack_parse(tt_mitem **items, size_t *n, const char *s, size_t len, const char *file,
                   uint64_t base_line, tt_error *err)
{
    tt_vec v;
    tt_vec_init(&v, sizeof(tt_mitem));
    size_t start = 0, line = 0, tail = len; /* tail: the end of the last non-blank byte */
    while (tail && (s[tail - 1] == ' ' || s[tail - 1] == '\t' || s[tail - 1] == '\r' ||
                    s[tail - 1] == '\n'))
        tail--;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\n')
            continue;
        const char *p = s + start;
        size_t l = i - start;
        start = i + 1;
        line++;
        tt__trim(&p, &l);
        /* logcat block decoration: "|*\t\t" prefix, header lines */
        if (l >= 2 && p[0] == '|' && p[1] == '*') {
            p += 2;
            l -= 2;
            tt__trim(&p, &l);
            if (l == 0 || p[0] == '[' || !memcmp(p, "TraceStack:", l < 11 ? l : 11))
                continue;
        }
        /* only the empty piece after the final newline (and blanks around the string) is
         * not a line (method-beat.md 7.7 step 1): a blank line between items is an error */
        if (l == 0 && i >= tail)
            continue;
        tt_mitem it;
        if (l == 0 || parse_line(p, l, &it)) {
            char snip[200];
            tt__snippet(snip, sizeof snip, p, l);
            tt_vec_free(&v);
            return tt_error_set(err, TT_EFORMAT, file, base_line ? TT_LOC_LINE : 0, base_line,
                                "stack line %zu: expected depth,methodId,count,totalMs "
                                "(four 32-bit integers), got \"%s\"",
                                line, snip);
        }
        if (!tt_vec_push(&v, &it)) {
            tt_vec_free(&v);
            return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
        }
    }
    *items = v.data;
    *n = v.len;
    return 0;
}

int tt_stree_build(tt_stree_node **nodes, const tt_mitem *items, size_t n, size_t *clamps)
{
    tt_stree_node *nd = calloc(n ? n : 1, sizeof *nd);
    int32_t *st = malloc((n ? n : 1) * sizeof *st);
    int64_t *childsum = calloc(n ? n : 1, sizeof *childsum);
    if (!nd || !st || !childsum) {
        free(nd);
        free(st);
        free(childsum);
        return TT_ENOMEM;
    }
    size_t sp = 0, cl = 0;
    for (size_t i = 0; i < n; i++) {
        while (sp && items[st[sp - 1]].depth >= items[i].depth)
            sp--;
        nd[i].parent = sp ? st[sp - 1] : -1;
        /* a root's parent would be at depth -1: a root at depth N > 0 misses N frames */
        int64_t gap = (int64_t)items[i].depth - (sp ? items[st[sp - 1]].depth : -1);
        nd[i].gap = gap < 0 ? 0 : gap;
        if (sp)
            childsum[st[sp - 1]] += items[i].dur;
        st[sp++] = (int32_t)i;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t self = (int64_t)items[i].dur - childsum[i];
        if (self < 0) {
            self = 0;
            nd[i].clamped = 1;
            cl++;
        }
        nd[i].self_ms = self;
    }
    free(st);
    free(childsum);
    *nodes = nd;
    if (clamps)
        *clamps = cl;
    return 0;
}
