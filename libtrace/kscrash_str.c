/* Strings of a KSCrash report copied into the report's arena (spec/ios.md 2.3): the fast
 * path's spans with their simple escapes decoded, and UUIDs normalised. */
#include "kscrash_build_int.h"

/* A fast-path string into the arena, simple escapes decoded; NULL when absent. */
const char *tt_ks__span_str(bctx *c, const tt_ks_span *s, int *oom)
{
    if (!s->set)
        return NULL;
    const char *p = c->r->fast_text + s->off;
    if (!s->esc) {
        const char *t = tt_arena_strndup(c->r->arena, p, s->len);
        *oom |= !t;
        return t;
    }
    char *t = tt_arena_alloc(c->r->arena, (size_t)s->len + 1);
    if (!t) {
        *oom = 1;
        return NULL;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < s->len; i++) {
        char ch = p[i];
        if (ch == '\\') {
            ch = p[++i];
            ch = ch == 'b' ? '\b' : ch == 'f' ? '\f' : ch == 'n' ? '\n' : ch == 'r' ? '\r'
                 : ch == 't' ? '\t' : ch;
        }
        t[n++] = ch;
    }
    t[n] = 0;
    return t;
}

/* UUID digits: lowercase hex for hex digits, 1 for '-', 0 for anything else. */
static const char uuid_map[256] = {
    ['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4', ['5'] = '5', ['6'] = '6',
    ['7'] = '7', ['8'] = '8', ['9'] = '9', ['a'] = 'a', ['b'] = 'b', ['c'] = 'c', ['d'] = 'd',
    ['e'] = 'e', ['f'] = 'f', ['A'] = 'a', ['B'] = 'b', ['C'] = 'c', ['D'] = 'd', ['E'] = 'e',
    ['F'] = 'f', ['-'] = 1,
};

/* UUID normalisation (2.3): 32 lowercase hex digits, dashes dropped; "" when not a UUID. */
const char *tt_ks__norm_uuid_n(bctx *c, const char *u, size_t len)
{
    if (!u)
        return "";
    char tmp[32];
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = uuid_map[(unsigned char)u[i]];
        if (ch == 1)
            continue;
        if (!ch || n == sizeof tmp)
            return "";
        tmp[n++] = ch;
    }
    if (n != 32)
        return "";
    return tt_arena_strndup(c->r->arena, tmp, n);
}

const char *tt_ks__norm_uuid(bctx *c, const char *u)
{
    return tt_ks__norm_uuid_n(c, u, u ? strlen(u) : 0);
}
