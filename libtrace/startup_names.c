/* Interned class names, start-type names and the splash-activity set of a startup analysis
 * (startup.md 1.4, 4): shared by the context (startup.c) and the native segments
 * (startup_native.c), so neither calls back into the other. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

static const char *const type_names[] = {"cold", "warm", "hot", "unknown"};

const char *tt_su_type_name(int type)
{
    return type >= 0 && type <= TT_SU_UNKNOWN ? type_names[type] : "unknown";
}

/* ---- interning ---- */
static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

static int rehash(tt_startup *s, size_t cap)
{
    uint32_t *h = malloc(cap * sizeof *h);
    if (!h)
        return TT_ENOMEM;
    memset(h, 0xFF, cap * sizeof *h);
    for (uint32_t id = 0; id < s->strs.len; id++) {
        const char *str = TT_VEC_AT(&s->strs, const char *, id);
        size_t j = hash_bytes(str, strlen(str)) & (cap - 1);
        while (h[j] != TT__SU_NONE)
            j = (j + 1) & (cap - 1);
        h[j] = id;
    }
    free(s->hash);
    s->hash = h;
    s->hash_cap = cap;
    return 0;
}

uint32_t tt_startup__intern(tt_startup *s, const char *p, size_t n)
{
    if ((s->strs.len + 1) * 2 > s->hash_cap && rehash(s, s->hash_cap ? s->hash_cap * 2 : 64))
        return TT__SU_NONE;
    size_t j = hash_bytes(p, n) & (s->hash_cap - 1);
    while (s->hash[j] != TT__SU_NONE) {
        const char *str = TT_VEC_AT(&s->strs, const char *, s->hash[j]);
        if (!strncmp(str, p, n) && str[n] == 0)
            return s->hash[j];
        j = (j + 1) & (s->hash_cap - 1);
    }
    char *c = tt_arena_strndup(s->arena, p, n);
    if (!c || s->strs.len >= TT__SU_NONE - 1 || !tt_vec_push(&s->strs, &c))
        return TT__SU_NONE;
    s->hash[j] = (uint32_t)(s->strs.len - 1);
    return s->hash[j];
}

const char *tt_startup__str(const tt_startup *s, uint32_t id)
{
    return id < s->strs.len ? TT_VEC_AT(&s->strs, const char *, id) : NULL;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int tt_startup__parse_splash(tt_startup *s)
{
    const char *p = s->o.splash;
    if (!p || !*p)
        return 0;
    size_t cap = strlen(p) / 2 + 1, n = 0;
    s->splash = tt_arena_alloc(s->arena, cap * sizeof *s->splash);
    if (!s->splash)
        return TT_ENOMEM;
    while (*p) {
        const char *e = strchr(p, ';');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *q = p;
        size_t qn = len;
        tt__trim(&q, &qn);
        while (qn && *q == ' ')
            q++, qn--;
        if (qn) {
            uint32_t id = tt_startup__intern(s, q, qn);
            if (id == TT__SU_NONE)
                return TT_ENOMEM;
            s->splash[n++] = id;
        }
        p += len + (e ? 1 : 0);
    }
    qsort(s->splash, n, sizeof *s->splash, cmp_u32);
    s->n_splash = n;
    return 0;
}

int tt_startup__is_splash(const tt_startup *s, uint32_t cls)
{
    return s->n_splash && bsearch(&cls, s->splash, s->n_splash, sizeof cls, cmp_u32) != NULL;
}
