/* The per-module interval index: string interning, hash map, sorting and de-duplication
 * (spec/symbolication.md section 5.1). */
#include "tsym_int.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t hash_u64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int str_grow(tsym__strtab *t)
{
    size_t ncap = t->cap ? t->cap * 2 : 1024;
    uint32_t *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return TT_ENOMEM;
    for (size_t i = 0; i < t->cap; i++) {
        uint32_t v = t->slots[i];
        if (!v)
            continue;
        const char *s = t->bytes.data + (v - 1);
        size_t j = hash_bytes(s, strlen(s)) & (ncap - 1);
        while (ns[j])
            j = (j + 1) & (ncap - 1);
        ns[j] = v;
    }
    free(t->slots);
    t->slots = ns;
    t->cap = ncap;
    return 0;
}

int tsym__str_intern(uint32_t *id, tsym__strtab *t, const char *s, size_t n)
{
    if (memchr(s, 0, n))
        n = strlen(s);
    if ((t->count + 1) * 2 > t->cap && str_grow(t))
        return TT_ENOMEM;
    size_t j = hash_bytes(s, n) & (t->cap - 1);
    while (t->slots[j]) {
        const char *c = t->bytes.data + (t->slots[j] - 1);
        if (!strncmp(c, s, n) && c[n] == 0) {
            *id = t->slots[j] - 1;
            return 0;
        }
        j = (j + 1) & (t->cap - 1);
    }
    if (t->bytes.len + n + 1 >= TSYM_NONE - 1)
        return TT_ELIMIT;
    uint32_t off = (uint32_t)t->bytes.len;
    if (tt_buf_put(&t->bytes, s, n) || tt_buf_put(&t->bytes, "", 1))
        return TT_ENOMEM;
    t->slots[j] = off + 1;
    t->count++;
    *id = off;
    return 0;
}

void tsym__str_free(tsym__strtab *t)
{
    tt_buf_free(&t->bytes);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static int map_grow(tsym__map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 256;
    uint64_t *nk = malloc(ncap * sizeof *nk);
    uint32_t *nv = malloc(ncap * sizeof *nv);
    if (!nk || !nv) {
        free(nk);
        free(nv);
        return TT_ENOMEM;
    }
    memset(nv, 0xff, ncap * sizeof *nv);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] == TSYM_NONE)
            continue;
        size_t j = hash_u64(m->keys[i]) & (ncap - 1);
        while (nv[j] != TSYM_NONE)
            j = (j + 1) & (ncap - 1);
        nk[j] = m->keys[i];
        nv[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = ncap;
    return 0;
}

const uint32_t *tsym__map_find(const tsym__map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    size_t j = hash_u64(key) & (m->cap - 1);
    while (m->vals[j] != TSYM_NONE) {
        if (m->keys[j] == key)
            return &m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

uint32_t *tsym__map_slot(tsym__map *m, uint64_t key)
{
    uint32_t *v = (uint32_t *)tsym__map_find(m, key);
    if (v)
        return v;
    if ((m->count + 1) * 2 > m->cap && map_grow(m))
        return NULL;
    size_t j = hash_u64(key) & (m->cap - 1);
    while (m->vals[j] != TSYM_NONE)
        j = (j + 1) & (m->cap - 1);
    m->keys[j] = key;
    m->count++;
    return &m->vals[j]; /* still TSYM_NONE: the caller stores the value */
}

void tsym__map_free(tsym__map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* qsort, skipped when the elements are in order already (DWARF lists most functions and
 * inlined calls by address: a quarter of the index's finishing time went into sorting
 * sorted arrays). The orders are total, so skipping gives qsort's result. */
static void sort_unless_sorted(void *base, size_t n, size_t size,
                               int (*cmp)(const void *, const void *))
{
    const char *p = base;
    for (size_t i = 1; i < n; i++)
        if (cmp(p + (i - 1) * size, p + i * size) > 0) {
            qsort(base, n, size, cmp);
            return;
        }
}

static int cmp_func(const void *a, const void *b)
{
    const tsym__func *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi > y->hi ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* ---- parts of functions with several ranges (hot/cold split), joined once ---- */

typedef struct fref {
    uint32_t node, i; /* a funcs entry of a function with several ranges, and its index */
} fref;

static int cmp_fref(const void *a, const void *b)
{
    const fref *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Sets each funcs entry's part (funcs sorted): the first entry, in address order, of the
 * ranges of its function that overlap or abut it directly or through others, so the start
 * of the part holding an address is one look-up, whatever the number of ranges. */
static int finish_parts(tsym__index *ix)
{
    tsym__func *f = ix->funcs.data;
    const tsym__node *nodes = ix->nodes.data;
    size_t n = ix->funcs.len, k = 0;
    for (size_t i = 0; i < n; i++) {
        f[i].part = (uint32_t)i + 1;
        if (f[i].node < ix->nodes.len && nodes[f[i].node].n_ranges > 1)
            k++;
    }
    if (!k)
        return 0;
    fref *r = malloc(k * sizeof *r);
    if (!r)
        return TT_ENOMEM;
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (f[i].node < ix->nodes.len && nodes[f[i].node].n_ranges > 1)
            r[k++] = (fref){f[i].node, (uint32_t)i};
    qsort(r, k, sizeof *r, cmp_fref);
    uint64_t maxhi = 0;
    for (size_t j = 0; j < k; j++) {
        tsym__func *e = &f[r[j].i];
        if (j && r[j - 1].node == r[j].node && e->lo <= maxhi) {
            e->part = f[r[j - 1].i].part;
            maxhi = e->hi > maxhi ? e->hi : maxhi;
        } else {
            maxhi = e->hi;
        }
    }
    free(r);
    return 0;
}

static int cmp_sec(const void *a, const void *b)
{
    const tsym__sec *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* Sections by address, with the running maximum of hi (section_lo's binary search) */
static void finish_secs(tsym__index *ix)
{
    tsym__sec *r = ix->secs.data;
    if (ix->secs.len > 1)
        sort_unless_sorted(r, ix->secs.len, sizeof *r, cmp_sec);
    for (size_t i = 0; i < ix->secs.len; i++)
        r[i].maxhi = i && r[i - 1].maxhi > r[i].hi ? r[i - 1].maxhi : r[i].hi;
}

/* ---- line rows in address order (spec 5.1) ---- */

/* address order; end-sequence rows first at one address (equal rows keep input order) */
static int row_before(const tsym__row *x, const tsym__row *y)
{
    if (x->addr != y->addr)
        return x->addr < y->addr;
    return (x->flags & TSYM_ROW_END) > (y->flags & TSYM_ROW_END);
}

typedef struct seq {
    uint64_t lo, hi;
    uint32_t first, n;
    int end_first;
} seq;

static int cmp_seq(const void *a, const void *b)
{
    const seq *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->end_first != y->end_first)
        return x->end_first ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The sequences of ix->rows (each ends with its end-sequence row) sorted by address.
 * Returns 1 when each is sorted and, in that order, none overlaps the next: then their
 * concatenation is the sorted order of all rows. */
static int sorted_sequences(tt_vec *out, const tsym__index *ix, int *nomem)
{
    const tsym__row *r = ix->rows.data;
    size_t n = ix->rows.len, start = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > start && row_before(&r[i], &r[i - 1]))
            return 0;
        if (!(r[i].flags & TSYM_ROW_END) && i + 1 < n)
            continue;
        seq q = {r[start].addr, r[i].addr, (uint32_t)start, (uint32_t)(i + 1 - start),
                 (r[start].flags & TSYM_ROW_END) != 0};
        if (!tt_vec_push(out, &q)) {
            *nomem = 1;
            return 0;
        }
        start = i + 1;
    }
    if (out->len > 1)
        qsort(out->data, out->len, sizeof(seq), cmp_seq);
    const seq *q = out->data;
    for (size_t i = 1; i < out->len; i++)
        if (q[i - 1].hi > q[i].lo || (q[i - 1].hi == q[i].lo && q[i].end_first))
            return 0;
    return 1;
}

/* Stable merge sort of the rows (sequences that overlap or go backwards) */
static void merge_rows(tsym__row *a, tsym__row *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_rows(a, tmp, h);
    merge_rows(a + h, tmp, n - h);
    if (!row_before(&a[h], &a[h - 1]))
        return;
    memcpy(tmp, a, h * sizeof *a);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        a[k++] = row_before(&a[j], &tmp[i]) ? a[j++] : tmp[i++];
    while (i < h)
        a[k++] = tmp[i++];
}

static int push_blocks(tt_vec *blocks, const tsym__row *r, uint32_t first, uint32_t n)
{
    for (uint32_t k = 0; k < n; k += TSYM_RBLOCK_ROWS) {
        tsym__rblock b = {r[first + k].addr, first + k,
                          n - k < TSYM_RBLOCK_ROWS ? n - k : TSYM_RBLOCK_ROWS};
        if (TSYM_VEC_PUSH(blocks, tsym__rblock, b))
            return TT_ENOMEM;
    }
    return 0;
}

/* Orders the rows for lookups without moving them when the sequences are sorted and
 * disjoint (what compilers emit), else sorts them. */
static int finish_rows(tsym__index *ix)
{
    tt_vec seqs;
    tt_vec_init(&seqs, sizeof(seq));
    int nomem = 0, rc = 0;
    ix->rblocks.len = 0;
    if (sorted_sequences(&seqs, ix, &nomem)) {
        const seq *q = seqs.data;
        for (size_t i = 0; i < seqs.len && !rc; i++)
            rc = push_blocks(&ix->rblocks, ix->rows.data, q[i].first, q[i].n);
    } else if (!nomem) {
        tsym__row *tmp = malloc((ix->rows.len / 2 + 1) * sizeof *tmp);
        if (tmp)
            merge_rows(ix->rows.data, tmp, ix->rows.len);
        free(tmp);
        rc = tmp ? push_blocks(&ix->rblocks, ix->rows.data, 0, (uint32_t)ix->rows.len)
                 : TT_ENOMEM;
    }
    tt_vec_free(&seqs);
    return nomem ? TT_ENOMEM : rc;
}

size_t tsym__count_le(const void *base, size_t n, size_t size, uint64_t a)
{
    const unsigned char *p = base;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (*(const uint64_t *)(const void *)(p + mid * size) <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t tsym__count_le_from(const void *base, size_t n, size_t size, uint64_t a, size_t *hint)
{
    const unsigned char *p = base;
    size_t k = *hint;
#define KEY(i) (*(const uint64_t *)(const void *)(p + (i) * size))
    if (k == 0 || k > n || KEY(k - 1) > a) {
        k = tsym__count_le(base, n, size, a);
    } else {
        /* at least k keys are <= a: sorted lookups mostly end a few elements further */
        for (int step = 0; step < 4 && k < n && KEY(k) <= a; step++)
            k++;
        if (k < n && KEY(k) <= a)
            k += tsym__count_le(p + k * size, n - k, size, a);
    }
#undef KEY
    *hint = k;
    return k;
}

const tsym__row *tsym__index_row_at(const tsym__index *ix, uint64_t a, size_t *block,
                                    size_t *row)
{
    size_t prev = *block;
    size_t k = tsym__count_le_from(ix->rblocks.data, ix->rblocks.len, sizeof(tsym__rblock), a,
                                   block);
    if (k == 0)
        return NULL;
    /* the block's first row is at or below a: the answer is in this block */
    const tsym__rblock *b = &TT_VEC_AT(&ix->rblocks, tsym__rblock, k - 1);
    const tsym__row *r = (const tsym__row *)ix->rows.data + b->first;
    if (k != prev)
        *row = 0;
    size_t l = tsym__count_le_from(r, b->n, sizeof *r, a, row);
    return r[l - 1].flags & TSYM_ROW_END ? NULL : &r[l - 1];
}

const tsym__row *tsym__index_row(const tsym__index *ix, uint64_t a)
{
    size_t block = 0, row = 0;
    return tsym__index_row_at(ix, a, &block, &row);
}

/* duplicates at one address: global before local, sized before unsized, shorter name
 * (spec 5.1); the name id (first-seen order) makes the order total */
static int cmp_sym(const void *a, const void *b)
{
    const tsym__sym *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->global != y->global)
        return x->global ? -1 : 1;
    int xs = x->size > 0 && !x->unsized, ys = y->size > 0 && !y->unsized;
    if (xs != ys)
        return xs ? -1 : 1;
    if (x->name_len != y->name_len)
        return x->name_len < y->name_len ? -1 : 1;
    return x->name < y->name ? -1 : x->name > y->name;
}

/* labels for --nearest-symbol: by address, then symbol-table order (kept in size) */
static int cmp_label(const void *a, const void *b)
{
    const tsym__sym *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->size < y->size ? -1 : x->size > y->size;
}

/* Sorts the labels, keeps the first in symbol-table order at each address */
static void finish_labels(tsym__index *ix)
{
    tsym__sym *s = ix->nsyms.data;
    size_t w = 0;
    sort_unless_sorted(s, ix->nsyms.len, sizeof *s, cmp_label);
    for (size_t i = 0; i < ix->nsyms.len; i++)
        if (w == 0 || s[w - 1].lo != s[i].lo)
            s[w++] = s[i];
    for (size_t i = 0; i < w; i++)
        s[i].size = 0;
    ix->nsyms.len = w;
}

/* ---- direct children of large nodes, by address ---- */

static int cmp_kid(const void *a, const void *b)
{
    const tsym__kid *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* Insertion sort by cmp_kid's order: the children of one node are few and nearly in
 * address order (qsort's calls through a pointer cost more than the sorting) */
static void sort_kids(tsym__kid *k, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        tsym__kid x = k[i];
        size_t j = i;
        while (j > 0 && (k[j - 1].lo > x.lo || (k[j - 1].lo == x.lo && k[j - 1].node > x.node))) {
            k[j] = k[j - 1];
            j--;
        }
        k[j] = x;
    }
}

/* the node after c's subtree, as the lookup walks siblings */
static uint32_t next_sibling(const tsym__node *n, uint32_t c)
{
    return n[c].subtree_end > c ? n[c].subtree_end : c + 1;
}

static int finish_kids(tsym__index *ix)
{
    tsym__node *n = ix->nodes.data;
    uint32_t len = (uint32_t)ix->nodes.len;
    const tsym__range *r = ix->ranges.data;
    if (!ix->kids.elem) /* indexes set up by hand (tests, fuzz targets) */
        tt_vec_init(&ix->kids, sizeof(tsym__kid));
    if (!ix->kheads.elem)
        tt_vec_init(&ix->kheads, sizeof(tsym__khead));
    ix->kids.len = ix->kheads.len = 0;
    for (uint32_t p = 0; p < len; p++) {
        n[p].kids = TSYM_NONE;
        uint32_t count = 0;
        for (uint32_t c = p + 1; c < n[p].subtree_end && c < len && count < TSYM_KIDS_MIN;
             c = next_sibling(n, c))
            count++;
        if (count < TSYM_KIDS_MIN || ix->kheads.len >= TSYM_NONE)
            continue;
        tsym__khead h = {(uint32_t)ix->kids.len, 0};
        for (uint32_t c = p + 1; c < n[p].subtree_end && c < len; c = next_sibling(n, c))
            for (uint32_t i = 0; i < n[c].n_ranges; i++) {
                tsym__kid k = {r[n[c].first_range + i].lo, r[n[c].first_range + i].hi, 0, c};
                if (TSYM_VEC_PUSH(&ix->kids, tsym__kid, k))
                    return TT_ENOMEM;
            }
        h.n = (uint32_t)(ix->kids.len - h.first);
        tsym__kid *k = (tsym__kid *)ix->kids.data + h.first;
        if (h.n <= 256)
            sort_kids(k, h.n);
        else
            sort_unless_sorted(k, h.n, sizeof *k, cmp_kid);
        for (uint32_t i = 0; i < h.n; i++)
            k[i].maxhi = i && k[i - 1].maxhi > k[i].hi ? k[i - 1].maxhi : k[i].hi;
        n[p].kids = (uint32_t)ix->kheads.len;
        if (!tt_vec_push(&ix->kheads, &h))
            return TT_ENOMEM;
    }
    return 0;
}

int tsym__index_add_range(tsym__index *ix, uint64_t lo, uint64_t hi)
{
    if (!tsym__index_live(ix, lo, hi))
        return 0;
    tsym__range r = {lo, hi};
    return TSYM_VEC_PUSH(&ix->ranges, tsym__range, r) ? TT_ENOMEM : 1;
}

uint32_t tsym__index_add_node(tsym__index *ix, const tsym__node *n)
{
    uint32_t id = (uint32_t)ix->nodes.len;
    const tsym__range *r = ix->ranges.data;
    if (n->parent != TSYM_NONE)
        ix->n_inlines++;
    else
        for (uint32_t i = 0; i < n->n_ranges; i++) {
            tsym__func f = {r[n->first_range + i].lo, r[n->first_range + i].hi, id, 0};
            if (TSYM_VEC_PUSH(&ix->funcs, tsym__func, f))
                return TSYM_NONE;
        }
    return TSYM_VEC_PUSH(&ix->nodes, tsym__node, *n) ? TSYM_NONE : id;
}

int tsym__node_has(const tsym__index *ix, const tsym__node *n, uint64_t a)
{
    const tsym__range *r = (const tsym__range *)ix->ranges.data + n->first_range;
    for (uint32_t i = 0; i < n->n_ranges; i++)
        if (a >= r[i].lo && a < r[i].hi)
            return 1;
    return 0;
}

uint32_t tsym__index_child(const tsym__index *ix, uint32_t p, uint64_t a)
{
    size_t khead = 0, kid = 0;
    return tsym__index_child_at(ix, p, a, &khead, &kid);
}

uint32_t tsym__index_child_at(const tsym__index *ix, uint32_t p, uint64_t a, size_t *khead,
                              size_t *kid)
{
    const tsym__node *n = ix->nodes.data;
    uint32_t len = (uint32_t)ix->nodes.len;
    if (n[p].kids == TSYM_NONE) {
        for (uint32_t c = p + 1; c < n[p].subtree_end && c < len; c = next_sibling(n, c))
            if (tsym__node_has(ix, &n[c], a))
                return c;
        return TSYM_NONE;
    }
    /* every entry containing a is at or before the last with lo <= a, and after the last
     * whose running maximum of hi is <= a; the first child in node order wins */
    const tsym__khead *h = &TT_VEC_AT(&ix->kheads, tsym__khead, n[p].kids);
    const tsym__kid *k = (const tsym__kid *)ix->kids.data + h->first;
    uint32_t best = TSYM_NONE;
    size_t hint = *khead == (size_t)n[p].kids + 1 ? *kid : 0;
    size_t last = tsym__count_le_from(k, h->n, sizeof *k, a, &hint);
    *khead = (size_t)n[p].kids + 1;
    *kid = hint;
    for (size_t i = last; i-- > 0 && k[i].maxhi > a;)
        if (a < k[i].hi && k[i].node < best)
            best = k[i].node;
    return best;
}

int tsym__index_finish(tsym__index *ix)
{
    if (finish_kids(ix))
        return TT_ENOMEM;
    if (ix->funcs.len)
        sort_unless_sorted(ix->funcs.data, ix->funcs.len, sizeof(tsym__func), cmp_func);
    finish_secs(ix);
    finish_labels(ix);
    if (finish_parts(ix) || finish_rows(ix))
        return TT_ENOMEM;
    if (ix->rows.cap > ix->rows.len + ix->rows.len / 8) {
        /* rows were reserved for the densest line table (dwarf.c): the untouched end goes
         * back, and with it the unused part of the last huge page (peak memory) */
        void *p = realloc(ix->rows.data, (ix->rows.len ? ix->rows.len : 1) * sizeof(tsym__row));
        if (p) {
            ix->rows.data = p;
            ix->rows.cap = ix->rows.len;
        }
    }
    if (ix->syms.len) {
        sort_unless_sorted(ix->syms.data, ix->syms.len, sizeof(tsym__sym), cmp_sym);
        tsym__sym *s = ix->syms.data;
        size_t w = 0;
        for (size_t i = 0; i < ix->syms.len; i++)
            if (w == 0 || s[w - 1].lo != s[i].lo)
                s[w++] = s[i];
        ix->syms.len = w;
        /* unsized function symbols (CRT and assembly code such as register_tm_clones)
         * extend to the next symbol, as llvm-symbolizer treats them, but never past the
         * end of their section (the last one, _fini, up to the end of .fini; _init not
         * over the PLT stubs after .init: R4); sized symbols keep their size so padding
         * after them stays "??" (R4) */
        for (size_t i = 0; i < w; i++) {
            if (!s[i].unsized)
                continue;
            uint64_t next = i + 1 < w ? s[i + 1].lo - s[i].lo : 0;
            if (s[i].size == 0 || (next && next < s[i].size))
                s[i].size = next;
        }
    }
    return 0;
}

void tsym__index_free(tsym__index *ix)
{
    tsym__str_free(&ix->str);
    tt_vec_free(&ix->funcs);
    tt_vec_free(&ix->nodes);
    tt_vec_free(&ix->ranges);
    tt_vec_free(&ix->rows);
    tt_vec_free(&ix->rblocks);
    tt_vec_free(&ix->syms);
    tt_vec_free(&ix->loads);
    tt_vec_free(&ix->fstarts);
    tt_vec_free(&ix->secs);
    tt_vec_free(&ix->nsyms);
    tsym__map_free(&ix->swiftq);
    tt_vec_free(&ix->kids);
    tt_vec_free(&ix->kheads);
}

int tsym__index_live(const tsym__index *ix, uint64_t lo, uint64_t hi)
{
    if (hi <= lo || lo >= 0xfffffffffffffffeULL)
        return 0;
    const tsym__load *l = ix->loads.data;
    int any = 0;
    for (size_t i = 0; i < ix->loads.len; i++) {
        if (!l[i].exec)
            continue;
        any = 1;
        if (lo >= l[i].vaddr && lo < l[i].vaddr + l[i].memsz)
            return 1;
    }
    return !any; /* no program headers (relocatable object): keep everything */
}
