/* Bounds-checked little-endian cursor for packed binary inputs (STYLE.md section 5): file
 * bytes are never cast to structs, every read checks what is left. */
#include "tt.h"

#include <string.h>

#include "tt_int.h"

void tt_rd_init(tt_rd *r, const void *p, size_t n)
{
    r->p = p;
    r->n = n;
    r->pos = 0;
}

size_t tt_rd_left(const tt_rd *r) { return r->n - r->pos; }

int tt_rd_bytes(tt_rd *r, const unsigned char **p, size_t n)
{
    if (tt_rd_left(r) < n)
        return TT_EFORMAT;
    *p = r->p + r->pos;
    r->pos += n;
    return 0;
}

int tt_rd_skip(tt_rd *r, size_t n)
{
    const unsigned char *p;
    return tt_rd_bytes(r, &p, n);
}

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

int tt_rd_u8(tt_rd *r, uint8_t *v)
{
    const unsigned char *p;
    if (tt_rd_bytes(r, &p, 1))
        return TT_EFORMAT;
    *v = p[0];
    return 0;
}

int tt_rd_u16le(tt_rd *r, uint16_t *v)
{
    const unsigned char *p;
    if (tt_rd_bytes(r, &p, 2))
        return TT_EFORMAT;
    *v = (uint16_t)le(p, 2);
    return 0;
}

int tt_rd_u32le(tt_rd *r, uint32_t *v)
{
    const unsigned char *p;
    if (tt_rd_bytes(r, &p, 4))
        return TT_EFORMAT;
    *v = (uint32_t)le(p, 4);
    return 0;
}

int tt_rd_i32le(tt_rd *r, int32_t *v)
{
    uint32_t u;
    if (tt_rd_u32le(r, &u))
        return TT_EFORMAT;
    memcpy(v, &u, sizeof u);
    return 0;
}

int tt_rd_u64le(tt_rd *r, uint64_t *v)
{
    const unsigned char *p;
    if (tt_rd_bytes(r, &p, 8))
        return TT_EFORMAT;
    *v = le(p, 8);
    return 0;
}
