/* Symbolicated KSCrash JSON (spec/ios.md 9.2): the report as read, key order kept and
 * unsigned values >= 2^63 restored, with tt_module/tt_symbols on frames and a "tt" object. */
#include "kscrash_int.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct fref {
    const void *json;
    uint32_t frame;
} fref;

static int cmp_fref(const void *x, const void *y)
{
    const fref *a = x, *b = y;
    return a->json < b->json ? -1 : a->json > b->json;
}

typedef struct wctx {
    tt_jsonw *w;
    const tt_ks_reader *r;
    const tt_ks_report *rep;
    fref *refs;
    size_t n_refs;
} wctx;

static const tt_ks_frame *frame_of(const wctx *c, const json_t *o)
{
    size_t lo = 0, hi = c->n_refs;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (c->refs[m].json == (const void *)o)
            return &c->rep->frames[c->refs[m].frame];
        if ((const void *)c->refs[m].json < (const void *)o)
            lo = m + 1;
        else
            hi = m;
    }
    return NULL;
}

/* Everything is written at depth 0 of w (no automatic separators): tt_jsonw keeps commas
 * for 64 levels only and profile trees nest deeper. */
static void raw(wctx *c, const char *s) { tt_buf_puts(&c->w->buf, s); }

static void key(wctx *c, const char *k, int *first)
{
    if (!*first)
        raw(c, ",");
    *first = 0;
    tt_jsonw_str(c->w, k);
    raw(c, ":");
}

static void hex(wctx *c, uint64_t v)
{
    char t[24];
    snprintf(t, sizeof t, "0x%llx", (unsigned long long)v);
    tt_jsonw_str(c->w, t);
}

static void module_obj(wctx *c, const tt_ks_frame *f, const tt_ks_image *g)
{
    tt_jsonw *w = c->w;
    int first = 1;
    raw(c, "{");
    key(c, "name", &first);
    tt_jsonw_str(w, g->name);
    key(c, "uuid", &first);
    tt_jsonw_str(w, g->uuid);
    key(c, "arch", &first);
    if (g->arch)
        tt_jsonw_str(w, g->arch);
    else
        tt_jsonw_null(w);
    key(c, "vmaddr", &first);
    hex(c, f->offset + g->vmaddr);
    key(c, "offset", &first);
    tt_jsonw_uint(w, f->offset);
    key(c, "lookup", &first);
    hex(c, f->lookup + g->vmaddr);
    key(c, "pac_stripped", &first);
    tt_jsonw_bool(w, f->pac);
    key(c, "debug_file", &first);
    tt_jsonw_str(w, g->debug_file ? g->debug_file : "");
    raw(c, "}");
}

static void frame_keys(wctx *c, const tt_ks_frame *f, int *first)
{
    tt_jsonw *w = c->w;
    const tt_ks_image *g = f->image >= 0 ? &c->rep->images[f->image] : NULL;
    key(c, "tt_module", first);
    if (g)
        module_obj(c, f, g);
    else
        tt_jsonw_null(w);
    key(c, "tt_symbols", first);
    raw(c, "[");
    /* the Symbol[] of symbolication.md 8.2, fields in symbolicate's order; a function start
     * without a name (6.5): one nameless Symbol with its StartAddress, as symbolicate -e
     * writes it */
    tt_native_frame only = {.has_start = 1, .start = f->fstart};
    uint32_t n = f->n_sym ? f->n_sym : g && f->has_fstart ? 1 : 0;
    for (uint32_t i = 0; i < n; i++) {
        const tt_native_frame *s = f->n_sym ? &c->rep->syms[f->sym + i] : &only;
        int fs = 1;
        raw(c, i ? ",{" : "{");
        key(c, "FunctionName", &fs);
        tt_jsonw_str(w, s->function ? s->function : "");
        key(c, "FileName", &fs);
        tt_jsonw_str(w, s->file ? s->file : "");
        key(c, "Line", &fs);
        tt_jsonw_uint(w, s->line);
        key(c, "Column", &fs);
        tt_jsonw_uint(w, s->column);
        key(c, "Discriminator", &fs);
        tt_jsonw_uint(w, s->discriminator);
        key(c, "StartFileName", &fs);
        tt_jsonw_str(w, s->start_file ? s->start_file : "");
        key(c, "StartLine", &fs);
        tt_jsonw_uint(w, s->start_line);
        key(c, "StartAddress", &fs); /* the out-of-line function's vmaddr (symbolication 8.2) */
        if (g && s->has_start && !s->inlined)
            hex(c, s->start + g->vmaddr);
        else
            tt_jsonw_str(w, "");
        key(c, "Inlined", &fs);
        tt_jsonw_bool(w, s->inlined);
        key(c, "SymbolName", &fs); /* the out-of-line element's symbol, as symbolicate writes */
        tt_jsonw_str(w, s->symbol ? s->symbol : "");
        key(c, "Approximate", &fs);
        tt_jsonw_bool(w, s->approximate);
        raw(c, "}");
    }
    if (!n) {
        raw(c, "{\"Error\":{\"Message\":");
        tt_jsonw_str(w, !g               ? "pc in no binary image"
                        : f->resolve_err ? "no debug information for this image"
                                         : "not symbolicated");
        raw(c, "}}");
    }
    raw(c, "]");
}

static void value(wctx *c, const json_t *v);

static void members(wctx *c, const json_t *o, int *first)
{
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)o, k, x) {
        key(c, k, first);
        value(c, x);
    }
}

static void value(wctx *c, const json_t *v)
{
    tt_jsonw *w = c->w;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        int first = 1;
        raw(c, "{");
        members(c, v, &first);
        const tt_ks_frame *f = frame_of(c, v);
        if (f)
            frame_keys(c, f, &first);
        raw(c, "}");
        break;
    }
    case JSON_ARRAY: {
        raw(c, "[");
        size_t i;
        const json_t *x;
        json_array_foreach(v, i, x) {
            if (i)
                raw(c, ",");
            value(c, x);
        }
        raw(c, "]");
        break;
    }
    case JSON_STRING: tt_jsonw_strn(w, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: {
        int64_t i = json_integer_value(v);
        if (i < 0 && tt_ks__is_big(c->r, v))
            tt_jsonw_uint(w, (uint64_t)i);
        else
            tt_jsonw_int(w, i);
        break;
    }
    case JSON_REAL: tt_jsonw_real(w, json_real_value(v)); break; /* 91.0 stays a real (2.2) */
    case JSON_TRUE: tt_jsonw_bool(w, 1); break;
    case JSON_FALSE: tt_jsonw_bool(w, 0); break;
    default: tt_jsonw_null(w); break;
    }
}

typedef struct uctx {
    tt_buf key;
    tt_intern *seen;
    int (*fn)(void *ctx, const tt_ks_arg *a);
    void *ctx;
} uctx;

static int user_value(uctx *u, const json_t *v)
{
    tt_ks_arg a = {.key = u->key.data};
    size_t before = tt_intern_count(u->seen);
    uint32_t id;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *k;
        const json_t *x;
        size_t len = u->key.len;
        int rc = 0;
        json_object_foreach((json_t *)v, k, x) {
            u->key.len = len;
            if (tt_buf_printf(&u->key, ".%s", k))
                return TT_ENOMEM;
            if ((rc = user_value(u, x)))
                break;
        }
        u->key.len = len;
        return rc;
    }
    case JSON_NULL: return 0;
    case JSON_INTEGER: /* an unsigned value >= 2^63 as its two's complement (storage.md 2) */
        a.type = 'i';
        a.i = json_integer_value(v);
        break;
    case JSON_TRUE:
    case JSON_FALSE:
        a.type = 'i';
        a.i = json_is_true(v);
        break;
    case JSON_REAL:
        a.type = 'r';
        a.d = json_real_value(v);
        break;
    case JSON_STRING:
        a.type = 's';
        a.s = json_string_value(v);
        break;
    default: a.type = 's'; break; /* arrays: below */
    }
    if (tt_intern_get(u->seen, u->key.data, u->key.len, &id))
        return TT_ENOMEM;
    if (tt_intern_count(u->seen) == before)
        return 0; /* a key given before */
    char *text = NULL;
    if (json_is_array(v)) {
        text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
        if (!text)
            return TT_ENOMEM;
        a.s = text;
    }
    int rc = u->fn(u->ctx, &a);
    free(text);
    return rc;
}

int tt_ks_user_each(const tt_ks_report *rep,
                    int (*fn)(void *ctx, const tt_ks_arg *a), void *ctx)
{
    const json_t *user = rep->json ? json_object_get(rep->json, "user") : NULL;
    if (!user)
        return 0;
    uctx u = {.seen = tt_intern_new(), .fn = fn, .ctx = ctx};
    int rc = !u.seen || tt_buf_puts(&u.key, "user") ? TT_ENOMEM : user_value(&u, user);
    tt_buf_free(&u.key);
    tt_intern_free(u.seen);
    return rc;
}

void tt_ks_json_raw(tt_buf *out, const tt_ks_reader *r, const tt_ks_report *rep)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    wctx c = {.w = &w, .r = r, .rep = rep};
    value(&c, rep->json);
    tt_buf_put(out, w.buf.data, w.buf.len);
    tt_jsonw_free(&w);
}

void tt_ks_json_write(tt_buf *out, const tt_ks_reader *r, const tt_ks_report *rep,
                      const char *tt_members)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    wctx c = {.w = &w, .r = r, .rep = rep};
    c.refs = rep->n_frames ? malloc(rep->n_frames * sizeof *c.refs) : NULL;
    if (c.refs) {
        for (size_t i = 0; i < rep->n_frames; i++)
            c.refs[i] = (fref){rep->frames[i].json, (uint32_t)i};
        qsort(c.refs, rep->n_frames, sizeof *c.refs, cmp_fref);
        c.n_refs = rep->n_frames;
    }
    int first = 1;
    raw(&c, "{");
    members(&c, rep->json, &first);
    key(&c, "tt", &first);
    raw(&c, "{");
    if (tt_members)
        raw(&c, tt_members);
    raw(&c, "}}");
    tt_buf_put(out, w.buf.data, w.buf.len);
    tt_jsonw_free(&w);
    free(c.refs);
}
