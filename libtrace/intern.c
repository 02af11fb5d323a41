/* String interning: byte strings to dense uint32 ids (open addressing, FNV-1a), so names
 * from different sources and builds compare as integers (storage.md 8). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct ientry {
    const char *s;
    size_t n;
    uint64_t h;
} ientry;

struct tt_intern {
    tt_arena *arena;
    tt_vec entries; /* ientry by id */
    uint32_t *slots; /* id + 1, 0 = empty */
    size_t nslots;
};

/* Eight bytes per step (rotate, xor, multiply; FxHash's scheme), then a final mix so the low
 * bits that index the table depend on every byte. */
static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (((h << 5) | (h >> 59)) ^ w) * 0x517cc1b727220a95ULL;
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, s + i, n - i);
        h = (((h << 5) | (h >> 59)) ^ w) * 0x517cc1b727220a95ULL;
    }
    h ^= h >> 32;
    h *= 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

tt_intern *tt_intern_new(void)
{
    tt_intern *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->arena = tt_arena_new();
    tt_vec_init(&t->entries, sizeof(ientry));
    if (!t->arena) {
        free(t);
        return NULL;
    }
    return t;
}

void tt_intern_free(tt_intern *t)
{
    if (!t)
        return;
    tt_arena_free(t->arena);
    tt_vec_free(&t->entries);
    free(t->slots);
    free(t);
}

static int grow(tt_intern *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 256;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return TT_ENOMEM;
    for (size_t i = 0; i < t->entries.len; i++) {
        size_t j = (size_t)TT_VEC_AT(&t->entries, ientry, i).h & (n - 1);
        while (s[j])
            j = (j + 1) & (n - 1);
        s[j] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = s;
    t->nslots = n;
    return 0;
}

/* The slot of s: its id + 1, or 0 for the empty slot where it would go (*slot). */
static uint32_t probe(const tt_intern *t, const char *s, size_t n, uint64_t h, size_t *slot)
{
    size_t j = (size_t)h & (t->nslots - 1);
    while (t->slots[j]) {
        const ientry *e = &TT_VEC_AT(&t->entries, ientry, t->slots[j] - 1);
        if (e->h == h && e->n == n && !memcmp(e->s, s, n))
            break;
        j = (j + 1) & (t->nslots - 1);
    }
    *slot = j;
    return t->slots[j];
}

int tt_intern_find(const tt_intern *t, const char *s, size_t n, uint32_t *id)
{
    size_t j;
    uint32_t v = t->nslots ? probe(t, s, n, hash_bytes(s, n), &j) : 0;
    if (!v)
        return TT_ENOTFOUND;
    *id = v - 1;
    return 0;
}

int tt_intern_get(tt_intern *t, const char *s, size_t n, uint32_t *id)
{
    if ((t->entries.len + 1) * 2 > t->nslots && grow(t))
        return TT_ENOMEM;
    uint64_t h = hash_bytes(s, n);
    size_t j;
    uint32_t v = probe(t, s, n, h, &j);
    if (v) {
        *id = v - 1;
        return 0;
    }
    if (t->entries.len >= UINT32_MAX - 1)
        return TT_ENOMEM;
    ientry e = {tt_arena_strndup(t->arena, s, n), n, h};
    if (!e.s || !tt_vec_push(&t->entries, &e))
        return TT_ENOMEM;
    *id = (uint32_t)(t->entries.len - 1);
    t->slots[j] = *id + 1;
    return 0;
}

const char *tt_intern_str(const tt_intern *t, uint32_t id, size_t *n)
{
    const ientry *e = &TT_VEC_AT(&t->entries, ientry, id);
    if (n)
        *n = e->n;
    return e->s;
}

size_t tt_intern_count(const tt_intern *t) { return t->entries.len; }
