/* Growable arrays and byte buffers (STYLE.md section 5). */
#include "tt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tt_int.h"

void tt__hint_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
    /* one fault per 2 MiB instead of 512 for arrays that are filled completely: page faults
     * are a large share of the run time on virtual machines */
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (!p || n < 2 * huge)
        return;
    uintptr_t b = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + n) & ~(huge - 1);
    if (e > b)
        (void)madvise((void *)b, e - b, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

void tt_vec_init(tt_vec *v, size_t elem)
{
    v->data = NULL;
    v->len = v->cap = 0;
    v->elem = elem;
}

void tt_vec_free(tt_vec *v)
{
    free(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
}

int tt__vec_reserve_exact(tt_vec *v, size_t n)
{
    if (n <= v->cap)
        return 0;
    if (n > SIZE_MAX / v->elem)
        return TT_ENOMEM;
    void *p = realloc(v->data, n * v->elem);
    if (!p)
        return TT_ENOMEM;
    v->data = p;
    v->cap = n;
    return 0;
}

int tt_vec_reserve(tt_vec *v, size_t n)
{
    if (n <= v->cap)
        return 0;
    size_t cap = v->cap ? v->cap : 16;
    while (cap < n) {
        if (cap > SIZE_MAX / 2)
            return TT_ENOMEM;
        cap *= 2;
    }
    if (tt__vec_reserve_exact(v, cap))
        return TT_ENOMEM;
    tt__hint_huge(v->data, cap * v->elem);
    return 0;
}

int tt_vec_reserve_huge(tt_vec *v, size_t n)
{
#ifdef MADV_HUGEPAGE
    const size_t huge = (size_t)2 << 20;
    if (n <= v->cap)
        return 0;
    if (n > (SIZE_MAX - 2 * huge) / v->elem)
        return TT_ENOMEM;
    /* a last huge page less than half filled would cost more memory than it saves time:
     * that part gets small pages */
    size_t need = n * v->elem, hbytes = need / huge * huge + (need % huge >= huge / 2 ? huge : 0);
    if (!hbytes)
        return tt_vec_reserve(v, n);
    size_t bytes = hbytes > need ? hbytes : (need + 4095) & ~(size_t)4095;
    void *p;
    if (posix_memalign(&p, huge, bytes)) /* aligned_alloc wants whole alignments */
        return TT_ENOMEM;
    (void)madvise(p, hbytes, MADV_HUGEPAGE);
    if (v->len)
        memcpy(p, v->data, v->len * v->elem);
    free(v->data);
    v->data = p;
    v->cap = bytes / v->elem;
    return 0;
#else
    return tt_vec_reserve(v, n);
#endif
}

void *tt_vec_push(tt_vec *v, const void *p)
{
    if (v->len == v->cap && tt_vec_reserve(v, v->len + 1))
        return NULL;
    char *dst = (char *)v->data + v->len * v->elem;
    if (p)
        memcpy(dst, p, v->elem);
    else
        memset(dst, 0, v->elem);
    v->len++;
    return dst;
}

static int buf_grow(tt_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1)
        return TT_ENOMEM;
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = realloc(b->data, cap);
    if (!p)
        return TT_ENOMEM;
    b->data = p;
    b->cap = cap;
    tt__hint_huge(p, cap);
    return 0;
}

char *tt__buf_room(tt_buf *b, size_t n)
{
    return buf_grow(b, n) ? NULL : b->data + b->len;
}

int tt_buf_put(tt_buf *b, const char *p, size_t n)
{
    if (buf_grow(b, n))
        return TT_ENOMEM;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
    return 0;
}

int tt_buf_puts(tt_buf *b, const char *s) { return tt_buf_put(b, s, strlen(s)); }

int tt_buf_printf(tt_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return TT_EINVAL;
    if ((size_t)n < sizeof tmp)
        return tt_buf_put(b, tmp, (size_t)n);
    if (buf_grow(b, (size_t)n))
        return TT_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

void tt_buf_free(tt_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
