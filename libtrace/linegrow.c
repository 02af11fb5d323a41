/* The growth helpers linechunk.c and linerun.c share: an open-addressing table of ids rebuilt
 * at twice the size, and an array doubled in place. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

int tt__lslots_grow(uint32_t **slots, size_t *nslots, const void *ents, size_t n, size_t size,
                    size_t first)
{
    size_t ns = *nslots ? *nslots * 2 : first;
    uint32_t *s = calloc(ns, sizeof *s);
    if (!s)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        uint64_t h;
        memcpy(&h, (const char *)ents + i * size, sizeof h);
        size_t j = (size_t)h & (ns - 1);
        while (s[j])
            j = (j + 1) & (ns - 1);
        s[j] = (uint32_t)i + 1;
    }
    free(*slots);
    *slots = s;
    *nslots = ns;
    return 0;
}

void *tt__lgrow(void *p, size_t *cap, size_t elem, size_t first)
{
    size_t n = *cap ? *cap * 2 : first;
    void *d = realloc(p, n * elem);
    if (d)
        *cap = n;
    return d;
}
