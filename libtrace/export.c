/* The export driver (spec/samples.md section 7): options and a table of backends (Chrome JSON,
 * folded, speedscope, legacy ART .trace) behind one open/add/close API. Backends share export_util.c and never
 * call back into this file. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

void tt_export_opts_init(tt_export_opts *o)
{
    memset(o, 0, sizeof *o);
    tt_slice_opts_init(&o->slice);
    o->weight = TT_WEIGHT_DEFAULT;
    o->version = "";
}

/* Adapters from the backends' typed functions to the table's generic ones. */
static int chrome_open(void **impl, const tt_export_opts *o, size_t n_parts, const char *doc,
                       tt_write_fn fn, void *ctx)
{
    (void)n_parts;
    (void)doc;
    tt__chrome *c = NULL;
    int rc = tt__chrome_open(&c, o, fn, ctx);
    *impl = c;
    return rc;
}
static int chrome_add(void *impl, tt_profile *p, const tt_export_opts *o,
                      const tt_export_part *part, tt_error *err)
{
    return tt__chrome_add(impl, p, o, part, err);
}
static int chrome_close(void *impl, tt_error *err) { return tt__chrome_close(impl, err); }
static void chrome_free(void *impl) { tt__chrome_free(impl); }

static int folded_open(void **impl, const tt_export_opts *o, size_t n_parts, const char *doc,
                       tt_write_fn fn, void *ctx)
{
    (void)n_parts;
    (void)doc;
    tt__folded *f = NULL;
    int rc = tt__folded_open(&f, o, fn, ctx);
    *impl = f;
    return rc;
}
static int folded_add(void *impl, tt_profile *p, const tt_export_opts *o,
                      const tt_export_part *part, tt_error *err)
{
    return tt__folded_add(impl, p, o, part->label, part->file, err);
}
static int folded_close(void *impl, tt_error *err) { return tt__folded_close(impl, err); }
static void folded_free(void *impl) { tt__folded_free(impl); }

static int speedscope_open(void **impl, const tt_export_opts *o, size_t n_parts,
                           const char *doc, tt_write_fn fn, void *ctx)
{
    tt__speedscope *s = NULL;
    int rc = tt__speedscope_open(&s, o, n_parts, doc, fn, ctx);
    *impl = s;
    return rc;
}
static int speedscope_add(void *impl, tt_profile *p, const tt_export_opts *o,
                          const tt_export_part *part, tt_error *err)
{
    return tt__speedscope_add(impl, p, o, part, err);
}
static int speedscope_close(void *impl, tt_error *err) { return tt__speedscope_close(impl, err); }
static void speedscope_free(void *impl) { tt__speedscope_free(impl); }

static int art_open(void **impl, const tt_export_opts *o, size_t n_parts, const char *doc,
                    tt_write_fn fn, void *ctx)
{
    (void)o;
    (void)n_parts;
    (void)doc;
    tt__art *a = NULL;
    int rc = tt__art_open(&a, fn, ctx);
    *impl = a;
    return rc;
}
static int art_add(void *impl, tt_profile *p, const tt_export_opts *o,
                   const tt_export_part *part, tt_error *err)
{
    (void)part;
    return tt__art_add(impl, p, o, err);
}
static int art_close(void *impl, tt_error *err) { return tt__art_close(impl, err); }
static void art_free(void *impl) { tt__art_free(impl); }

typedef struct backend {
    int format; /* TT_EXPORT_* */
    int (*open)(void **impl, const tt_export_opts *o, size_t n_parts, const char *doc,
                tt_write_fn fn, void *ctx);
    int (*add)(void *impl, tt_profile *p, const tt_export_opts *o, const tt_export_part *part,
               tt_error *err);
    int (*close)(void *impl, tt_error *err);
    void (*free)(void *impl);
} backend;

static const backend backends[] = {
    {TT_EXPORT_CHROME, chrome_open, chrome_add, chrome_close, chrome_free},
    {TT_EXPORT_FOLDED, folded_open, folded_add, folded_close, folded_free},
    {TT_EXPORT_SPEEDSCOPE, speedscope_open, speedscope_add, speedscope_close, speedscope_free},
    {TT_EXPORT_ART, art_open, art_add, art_close, art_free},
};

struct tt_export {
    const backend *b;
    const tt_export_opts *o;
    size_t n_parts, parts;
    void *impl; /* the backend's state */
};

int tt_export_open(tt_export **out, int format, const tt_export_opts *o, size_t n_parts,
                   const char *doc_name, tt_write_fn fn, void *ctx, tt_error *err)
{
    *out = NULL;
    const backend *b = NULL;
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
        if (backends[i].format == format)
            b = &backends[i];
    if (!b)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "unknown export format");
    tt_export *x = calloc(1, sizeof *x);
    int rc = x ? 0 : TT_ENOMEM;
    if (!rc) {
        x->b = b;
        x->o = o;
        x->n_parts = n_parts;
        rc = b->open(&x->impl, o, n_parts, doc_name, fn, ctx);
    }
    if (rc) {
        free(x);
        return tt_error_set(err, rc, NULL, 0, 0, "out of memory");
    }
    *out = x;
    return 0;
}

int tt_export_add(tt_export *x, tt_profile *p, const tt_export_part *part, tt_error *err)
{
    if (x->parts >= x->n_parts || !p->finished)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "export: unexpected part");
    tt_export_opts o = *x->o; /* the part's thread selection and weight unit */
    o.threads = part->threads;
    o.n_threads = part->n_threads;
    int instrumented = !p->samples.len && p->nfixed; /* method-beat trees, ART calls */
    int art = instrumented && p->meta.source_format &&
              !strcmp(p->meta.source_format, "art_trace");
    if (o.weight == TT_WEIGHT_DEFAULT)
        o.weight = tt_export_default_weight(p);
    const char *wname = o.weight == TT_WEIGHT_CPU      ? "cpu"
                        : o.weight == TT_WEIGHT_PERIOD ? "period"
                        : o.weight == TT_WEIGHT_WALL   ? "wall"
                                                       : "samples";
    /* folded weights of calls are self times: wall, or thread CPU for an ART trace that
     * has that clock (art-trace.md 6.2; export_folded.c refuses the others) */
    if (instrumented && x->b->format == TT_EXPORT_FOLDED && o.weight != TT_WEIGHT_WALL &&
        !(art && o.weight == TT_WEIGHT_CPU))
        return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                            art ? "an ART method trace holds calls, not samples: its folded "
                                  "weights are self times (--weight wall, the default, or "
                                  "cpu), not %s"
                                : "a method-beat call tree is instrumented, not sampled: its "
                                  "weights are wall time (--weight wall, the default for it), "
                                  "not %s",
                            wname);
    /* speedscope shows calls as an evented profile on the wall clock only */
    if (instrumented && x->b->format == TT_EXPORT_SPEEDSCOPE && o.weight == TT_WEIGHT_CPU)
        return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                            "speedscope shows calls as an evented profile on the wall clock: "
                            "--weight cpu is not available for them (use --weight wall%s)",
                            art ? ", or --format folded --weight cpu" : "");
    /* sampled stacks without a thread CPU clock would weigh 0 everywhere (an empty folded
     * file, speedscope weights all 0): refused as the calls above are */
    if (!instrumented && !p->meta.timeless && o.weight == TT_WEIGHT_CPU &&
        (x->b->format == TT_EXPORT_FOLDED || x->b->format == TT_EXPORT_SPEEDSCOPE)) {
        int rc = tt_export_cpu_check(p, &o, err);
        if (rc)
            return rc;
    }
    int rc = x->b->add(x->impl, p, &o, part, err);
    if (!rc)
        x->parts++;
    return rc;
}

int tt_export_close(tt_export *x, tt_error *err)
{
    return x->b->close(x->impl, err);
}

void tt_export_free(tt_export *x)
{
    if (!x)
        return;
    x->b->free(x->impl);
    free(x);
}

static int export_one(int format, tt_profile *p, const tt_export_opts *o, tt_write_fn fn,
                      void *ctx, tt_error *err)
{
    tt_export *x;
    int rc = tt_export_open(&x, format, o, 1, NULL, fn, ctx, err);
    if (rc)
        return rc;
    tt_export_part part = {NULL, NULL, 0, o->threads, o->n_threads};
    rc = tt_export_add(x, p, &part, err);
    if (!rc)
        rc = tt_export_close(x, err);
    tt_export_free(x);
    return rc;
}

int tt_export_chrome(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err)
{
    return export_one(TT_EXPORT_CHROME, p, o, fn, ctx, err);
}

int tt_export_folded(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err)
{
    return export_one(TT_EXPORT_FOLDED, p, o, fn, ctx, err);
}

int tt_export_speedscope(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                         tt_error *err)
{
    return export_one(TT_EXPORT_SPEEDSCOPE, p, o, fn, ctx, err);
}


int tt_export_art(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                  tt_error *err)
{
    return export_one(TT_EXPORT_ART, p, o, fn, ctx, err);
}
