/* Bump allocator: everything of one analysis is freed together (STYLE.md section 5). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct chunk {
    struct chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} chunk;

struct tt_arena {
    chunk *head;
    size_t total;
};

tt_arena *tt_arena_new(void) { return calloc(1, sizeof(tt_arena)); }

void tt_arena_free(tt_arena *a)
{
    if (!a)
        return;
    chunk *c = a->head;
    while (c) {
        chunk *n = c->next;
        free(c);
        c = n;
    }
    free(a);
}

void *tt_arena_alloc(tt_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t sz = 64 * 1024;
        if (n > sz / 4)
            sz = n;
        if (sz > SIZE_MAX - sizeof(chunk))
            return NULL;
        chunk *nc = malloc(sizeof(chunk) + sz);
        if (!nc)
            return NULL;
        nc->size = sz;
        nc->used = 0;
        if (c && n == sz && c->size - c->used >= 1024) {
            /* big block: keep the current chunk as head */
            nc->next = c->next;
            c->next = nc;
            nc->used = n;
            a->total += n;
            return nc->data;
        }
        nc->next = c;
        a->head = nc;
        c = nc;
    }
    void *p = c->data + c->used;
    c->used += n;
    a->total += n;
    return p;
}

char *tt_arena_strndup(tt_arena *a, const char *s, size_t n)
{
    char *p = tt_arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

size_t tt_arena_used(const tt_arena *a) { return a ? a->total : 0; }
