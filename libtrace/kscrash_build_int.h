/* The state of building one report (kscrash_build.c, kscrash_images.c, kscrash_str.c) and
 * its JSON access: one interface over a jansson value and the fast path's tree (spec/ios.md
 * 2.3-2.6, 3, 4). Private to these files. */
#ifndef KSCRASH_BUILD_INT_H
#define KSCRASH_BUILD_INT_H

#include <string.h>

#include "kscrash_int.h"

typedef struct bctx {
    tt_ks_reader *r;
    tt_ks_report *rep;
    int arch_kind; /* the report's 4.3 rule (an image's own arch first): 0 arm64, 1 arm32, 2 x86 */
    int oom;       /* a string of the tree could not be copied */
    int from_frames; /* no binary_images: images from the frames' object_addr (4.1) */
    uint64_t bad_frames, no_image, pac, unresolved, neg_self, deep;
} bctx;

/* ---- report strings (kscrash_str.c) ---- */

/* A fast-path string into the arena, simple escapes decoded; NULL when absent (*oom set
 * when out of memory). */
const char *tt_ks__span_str(bctx *c, const tt_ks_span *s, int *oom);
/* UUID normalisation (2.3): 32 lowercase hex digits, dashes dropped; "" when not a UUID. */
const char *tt_ks__norm_uuid_n(bctx *c, const char *u, size_t len);
const char *tt_ks__norm_uuid(bctx *c, const char *u);

/* ---- JSON access: one interface over a jansson value and the fast path's tree (r->tree,
 * tt_ks_jn): a value is a const json_t * or a const tt_ks_jn *, NULL when absent ---- */

static inline const tt_ks_jn *tn(const bctx *c, uint32_t k)
{
    return (const tt_ks_jn *)c->r->jnodes.data + k;
}

static inline int jtype(const bctx *c, const void *v)
{
    if (!v)
        return -1;
    return c->r->tree ? ((const tt_ks_jn *)v)->type : (int)json_typeof((const json_t *)v);
}

/* The member k of object o (the last one when repeated, as jansson keeps it). */
static inline const void *jget(const bctx *c, const void *o, const char *k)
{
    if (!c->r->tree)
        return json_object_get(o, k);
    if (jtype(c, o) != JSON_OBJECT)
        return NULL;
    const tt_ks_jn *n = o, *hit = NULL;
    size_t len = strlen(k);
    for (uint32_t i = n->first; i; i = n->next) {
        n = tn(c, i);
        if (n->key_len == len && !memcmp(c->r->fast_text + n->key_off, k, len))
            hit = n;
    }
    return hit;
}

static inline size_t jsize(const bctx *c, const void *a)
{
    if (!c->r->tree)
        return json_array_size(a);
    return jtype(c, a) == JSON_ARRAY ? ((const tt_ks_jn *)a)->n : 0;
}

/* Array iteration: for (x = jfirst(c, &it, a); x; x = jnext(c, &it)). */
typedef struct jit {
    const void *a, *cur;
    size_t i;
} jit;

static inline const void *jnext(const bctx *c, jit *it)
{
    if (!c->r->tree)
        return it->cur = json_array_get(it->a, it->i++);
    const tt_ks_jn *x = it->cur;
    uint32_t k = x ? x->next : it->i++ ? 0 : ((const tt_ks_jn *)it->a)->first;
    return it->cur = k ? tn(c, k) : NULL;
}

static inline const void *jfirst(const bctx *c, jit *it, const void *a)
{
    *it = (jit){a, NULL, 0};
    return jsize(c, a) ? jnext(c, it) : NULL;
}

/* A string value, NULL for anything else. */
static inline const char *jsval(bctx *c, const void *v)
{
    if (!c->r->tree)
        return json_is_string((const json_t *)v) ? json_string_value(v) : NULL;
    if (jtype(c, v) != JSON_STRING)
        return NULL;
    const tt_ks_jn *n = v;
    tt_ks_span s = {n->off, n->len, 1, n->esc};
    return tt_ks__span_str(c, &s, &c->oom);
}

/* An integer, or a real in range truncated. */
static inline int jival(const bctx *c, const void *v, int64_t *out)
{
    int t = jtype(c, v);
    double d;
    if (t == JSON_INTEGER) {
        *out = c->r->tree ? ((const tt_ks_jn *)v)->v.i : json_integer_value(v);
        return 1;
    }
    if (t != JSON_REAL)
        return 0;
    d = c->r->tree ? ((const tt_ks_jn *)v)->v.d : json_real_value(v);
    if (d > -9.2e18 && d < 9.2e18) {
        *out = (int64_t)d;
        return 1;
    }
    return 0;
}

/* An address or unsigned field (tt_ks__u64's rules). */
static inline int juval(bctx *c, const void *v, uint64_t *out)
{
    if (!c->r->tree)
        return tt_ks__u64(v, out);
    if (jtype(c, v) == JSON_INTEGER) {
        *out = (uint64_t)((const tt_ks_jn *)v)->v.i;
        return 1;
    }
    const char *s = jsval(c, v);
    return s && tt_ks__u64_str(s, out);
}

static inline int jnumval(const bctx *c, const void *v, double *out)
{
    int t = jtype(c, v);
    if (t == JSON_REAL)
        *out = c->r->tree ? ((const tt_ks_jn *)v)->v.d : json_real_value(v);
    else if (t == JSON_INTEGER)
        *out = (double)(c->r->tree ? ((const tt_ks_jn *)v)->v.i : json_integer_value(v));
    return t == JSON_REAL || t == JSON_INTEGER;
}

static inline const char *jstr(bctx *c, const void *o, const char *k)
{
    return jsval(c, jget(c, o, k));
}

static inline int jint(const bctx *c, const void *o, const char *k, int64_t *out)
{
    return jival(c, jget(c, o, k), out);
}

static inline int ju64(bctx *c, const void *o, const char *k, uint64_t *out)
{
    return juval(c, jget(c, o, k), out);
}

/* ---- images (kscrash_images.c, 2.3, 4.1) ---- */

/* The binary_images array arr (jansson or the tree), sorted by load address. */
int tt_ks__read_images(bctx *c, const void *arr);
/* The images tt_ks__scan_images read (the fast path of I10). */
int tt_ks__read_fast_images(bctx *c);
/* 4.1 without binary_images: images from the frames of threads. */
int tt_ks__images_from_frames(bctx *c, const void *threads);
/* The image holding pc, -1 when none does. */
int32_t tt_ks__find_image(bctx *c, uint64_t pc);
/* Without binary_images (4.1): the image loaded at the frame's own object_addr when it
 * holds pc (PAC-masked when *pac is set on return), else -1; never the nearest image. */
int32_t tt_ks__frame_image(bctx *c, const void *fo, uint64_t pc, uint64_t mask, int *pac);
/* App images (9.4 default). */
void tt_ks__mark_app(tt_ks_report *rep);

#endif
