/* Open-addressed hash tables used for interning (samples.md 4.2: a callsite key is one u64
 * made of the parent and frame ids) and a small byte hash. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

uint64_t tt__hash(const void *p, size_t n, uint64_t seed)
{
    const unsigned char *s = p;
    uint64_t h = 0xcbf29ce484222325ULL ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    return tt__mix64(h);
}

/* FNV-1a, 64 bits: flame graph colours (visual.md 4) and the flame name table. */
uint64_t tt_fnv1a64(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static int map_grow(tt__map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 1024;
    uint64_t *k = malloc(cap * sizeof *k);
    uint32_t *v = malloc(cap * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return TT_ENOMEM;
    }
    memset(v, 0xff, cap * sizeof *v);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] == TT_NONE)
            continue;
        size_t j = tt__mix64(m->keys[i]) & (cap - 1);
        while (v[j] != TT_NONE)
            j = (j + 1) & (cap - 1);
        k[j] = m->keys[i];
        v[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = k;
    m->vals = v;
    m->cap = cap;
    return 0;
}

int tt__map_get(const tt__map *m, uint64_t key, uint32_t *val)
{
    if (!m->cap)
        return 0;
    size_t j = tt__mix64(key) & (m->cap - 1);
    while (m->vals[j] != TT_NONE) {
        if (m->keys[j] == key) {
            *val = m->vals[j];
            return 1;
        }
        j = (j + 1) & (m->cap - 1);
    }
    return 0;
}

int tt__map_put(tt__map *m, uint64_t key, uint32_t val)
{
    if ((m->len + 1) * 4 > m->cap * 3 && map_grow(m))
        return TT_ENOMEM;
    size_t j = tt__mix64(key) & (m->cap - 1);
    while (m->vals[j] != TT_NONE) {
        if (m->keys[j] == key) {
            m->vals[j] = val;
            return 0;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = key;
    m->vals[j] = val;
    m->len++;
    return 0;
}

void tt__map_free(tt__map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

uint32_t tt__idtab_find(const tt__idtab *t, uint64_t h, tt__eq_fn eq, const void *ctx,
                        const void *key)
{
    if (!t->cap)
        return TT_NONE;
    size_t j = h & (t->cap - 1);
    while (t->ids[j] != TT_NONE) {
        if (t->hashes[j] == h && eq(ctx, t->ids[j], key))
            return t->ids[j];
        j = (j + 1) & (t->cap - 1);
    }
    return TT_NONE;
}

int tt__idtab_add(tt__idtab *t, uint64_t h, uint32_t id)
{
    if ((t->len + 1) * 4 > t->cap * 3) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        uint32_t *ids = malloc(cap * sizeof *ids);
        uint64_t *hs = malloc(cap * sizeof *hs);
        if (!ids || !hs) {
            free(ids);
            free(hs);
            return TT_ENOMEM;
        }
        memset(ids, 0xff, cap * sizeof *ids);
        for (size_t i = 0; i < t->cap; i++) {
            if (t->ids[i] == TT_NONE)
                continue;
            size_t j = t->hashes[i] & (cap - 1);
            while (ids[j] != TT_NONE)
                j = (j + 1) & (cap - 1);
            ids[j] = t->ids[i];
            hs[j] = t->hashes[i];
        }
        free(t->ids);
        free(t->hashes);
        t->ids = ids;
        t->hashes = hs;
        t->cap = cap;
    }
    size_t j = h & (t->cap - 1);
    while (t->ids[j] != TT_NONE)
        j = (j + 1) & (t->cap - 1);
    t->ids[j] = id;
    t->hashes[j] = h;
    t->len++;
    return 0;
}

void tt__idtab_free(tt__idtab *t)
{
    free(t->ids);
    free(t->hashes);
    memset(t, 0, sizeof *t);
}
