/* Folded stacks writer, spec/samples.md section 7.2: one "root;...;leaf weight" line per
 * distinct path with non-zero integer weight, sorted by the path bytes. */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct fline {
    size_t off, len;
    int64_t w;
} fline;

void tt_folded_name_fix(char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ';')
            s[i] = ':';
        else if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
            s[i] = ' ';
    }
}

/* The format has no escaping: from start on, tt_folded_name_fix. */
static void sanitize(tt_buf *b, size_t start)
{
    if (b->len > start)
        tt_folded_name_fix(b->data + start, b->len - start);
}

/* What an empty or blank frame name is written as: the folded reader trims frames and drops
 * empty ones, so the name itself would not survive folded to folded. */
#define FOLDED_NO_NAME "[no name]"

static void put_name(tt_buf *b, const char *s)
{
    size_t start = b->len;
    tt_buf_puts(b, s);
    sanitize(b, start);
    size_t i = start;
    while (i < b->len && b->data[i] == ' ')
        i++;
    if (i == b->len) {
        b->len = start;
        tt_buf_puts(b, FOLDED_NO_NAME);
    }
}

/* One line: the root, then the frames of callsite cs, then (trunc) the truncated leaf. */
static int add_line(tt_buf *text, tt_vec *lines, const tt_profile *p, uint32_t *fr,
                    uint32_t cs, int64_t w, const char *root, int trunc)
{
    fline l = {text->len, 0, w};
    if (root) { /* frame names, already sanitised */
        tt_buf_puts(text, root);
        tt_buf_puts(text, ";");
    }
    size_t n = tt_callsite_frames(p, cs, fr, TT_MAX_STACK_DEPTH + 1);
    for (size_t k = 0; k < n; k++) {
        if (k)
            tt_buf_puts(text, ";");
        put_name(text, tt_profile_frame(p, fr[k])->name);
    }
    if (trunc)
        tt_buf_puts(text, ";" TT_TRUNCATED_FRAME);
    l.len = text->len - l.off;
    return tt_vec_push(lines, &l) ? 0 : TT_ENOMEM;
}

typedef struct deep {
    uint32_t anc; /* the ancestor at depth TT_MAX_STACK_DEPTH - 2 */
    int64_t w;
} deep;

static int deep_cmp(const void *a, const void *b)
{
    const deep *x = a, *y = b;
    return x->anc < y->anc ? -1 : x->anc > y->anc;
}

/* The ancestor of cs (depth >= TT_MAX_STACK_DEPTH) at depth TT_MAX_STACK_DEPTH - 2, through
 * up[] (per callsite, TT_NONE = not known yet), which it fills on the way: every callsite is
 * walked once however many paths share it. */
static uint32_t deep_anc(const tt_profile *p, uint32_t *up, uint32_t cs)
{
    uint32_t c = cs;
    while (tt_profile_callsite(p, c)->depth > TT_MAX_STACK_DEPTH - 2 && up[c] == TT_NONE)
        c = tt_profile_callsite(p, c)->parent;
    uint32_t a = tt_profile_callsite(p, c)->depth == TT_MAX_STACK_DEPTH - 2 ? c : up[c];
    for (uint32_t d = cs; d != c; d = tt_profile_callsite(p, d)->parent)
        up[d] = a;
    return a;
}

/* The lines of one thread's touched callsites. A path of more than TT_MAX_STACK_DEPTH frames
 * (instrumented calls, which have no depth limit) keeps its TT_MAX_STACK_DEPTH - 1 outermost
 * frames under a TT_TRUNCATED_FRAME leaf that takes the weight of every deeper path, as the
 * readers truncate sampled stacks: written whole, a deep recursion's paths would be
 * quadratic in its depth. ndeep: the number of paths cut and the frames of the deepest. */
static int add_paths(tt_buf *text, tt_vec *lines, const tt_profile *p, const int64_t *w,
                     const uint32_t *touched, size_t nt, const char *root, size_t ndeep[2])
{
    uint32_t *fr = malloc((TT_MAX_STACK_DEPTH + 1) * sizeof *fr), *up = NULL;
    tt_vec dv;
    tt_vec_init(&dv, sizeof(deep));
    int rc = fr ? 0 : TT_ENOMEM;
    for (size_t i = 0; i < nt && !rc; i++) {
        uint32_t cs = touched[i];
        if (!w[cs])
            continue;
        if (tt_profile_callsite(p, cs)->depth < TT_MAX_STACK_DEPTH) {
            rc = add_line(text, lines, p, fr, cs, w[cs], root, 0);
            continue;
        }
        size_t nc = tt_profile_ncallsites(p);
        if (!up && (up = malloc(nc * sizeof *up)) != NULL)
            for (size_t k = 0; k < nc; k++)
                up[k] = TT_NONE;
        deep d = {up ? deep_anc(p, up, cs) : 0, w[cs]};
        rc = up && tt_vec_push(&dv, &d) ? 0 : TT_ENOMEM;
        ndeep[0]++;
        if (tt_profile_callsite(p, cs)->depth + (size_t)1 > ndeep[1])
            ndeep[1] = tt_profile_callsite(p, cs)->depth + (size_t)1;
    }
    if (!rc && dv.len) {
        deep *d = dv.data;
        qsort(d, dv.len, sizeof *d, deep_cmp);
        for (size_t i = 0; i < dv.len && !rc; i++) {
            int64_t sum = d[i].w;
            while (i + 1 < dv.len && d[i + 1].anc == d[i].anc)
                sum = tt__sat_add(sum, d[++i].w);
            rc = add_line(text, lines, p, fr, d[i].anc, sum, root, 1);
        }
    }
    tt_vec_free(&dv);
    free(up);
    free(fr);
    return rc;
}

/* qsort without context: lines are sorted through an array of (pointer, length) pairs */
typedef struct sref {
    const char *s;
    size_t n;
    int64_t w;
} sref;

static int sref_cmp(const void *a, const void *b)
{
    const sref *x = a, *y = b;
    size_t n = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->s, y->s, n);
    if (c)
        return c;
    return x->n < y->n ? -1 : x->n > y->n;
}

/* Per-callsite weights of one thread into w (touched lists the non-zero entries). */
static int thread_weights(int64_t *w, tt_vec *touched, tt_profile *p, uint32_t utid,
                          const tt_export_opts *o, tt_error *err)
{
    size_t ns;
    tt_profile_thread_order(p, utid, &ns);
    if (!ns && utid < p->nfixed && p->fixed[utid].len) {
        /* instrumented slices of a thread without samples: self time per callsite, on the
         * thread CPU clock for --weight cpu (an ART trace with that clock), else wall */
        const tt_slice *s = p->fixed[utid].data;
        int cpu = o->weight == TT_WEIGHT_CPU;
        for (size_t i = 0; i < p->fixed[utid].len; i++) {
            int64_t d = cpu ? s[i].self_thread_dur : s[i].self_dur;
            if (cpu && d < 0)
                return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                                    "--weight cpu: the calls have no thread CPU time (a "
                                    "wall-clock trace): use --weight wall");
            /* a zero weight would leave w at 0 and list the callsite again: every listed
             * copy then wrote the callsite's whole sum (issue 11 item 7) */
            if (d <= 0)
                continue;
            if (!w[s[i].callsite] && !tt_vec_push(touched, &s[i].callsite))
                return TT_ENOMEM;
            w[s[i].callsite] += d;
        }
        return 0;
    }
    if (p->meta.timeless && (o->weight == TT_WEIGHT_WALL || o->weight == TT_WEIGHT_CPU))
        return tt_error_set(err, TT_EUNSUPPORTED, tt__timeless_input(p, o), 0, 0,
                            "the input has no timestamps: --weight %s needs times",
                            o->weight == TT_WEIGHT_WALL ? "wall" : "cpu");
    tt__wruns it;
    int rc = tt__wruns_init(&it, p, utid, o->weight,
                            tt_profile_max_gap(p, utid, o->slice.max_gap), o->slice.end_pad);
    const tt_run *r;
    int64_t x;
    while (!rc && tt__wruns_next(&it, &r, &x)) {
        uint32_t cs = r->callsite;
        if (!x)
            continue;
        if (!w[cs] && !tt_vec_push(touched, &cs))
            rc = TT_ENOMEM;
        else
            w[cs] = tt__sat_add(w[cs], x); /* period weights: count x 2^40 each */
    }
    tt__wruns_free(&it);
    return rc;
}

struct tt__folded {
    const tt_export_opts *o;
    tt_write_fn fn;
    void *ctx;
    tt_vec touched, lines; /* uint32_t callsites of the current thread; fline of all parts */
    tt_buf text, root;     /* the paths of every line back to back; the current root */
};

int tt__folded_open(tt__folded **out, const tt_export_opts *o, tt_write_fn fn, void *ctx)
{
    tt__folded *f = calloc(1, sizeof *f);
    if (!f)
        return TT_ENOMEM;
    f->o = o;
    f->fn = fn;
    f->ctx = ctx;
    tt_vec_init(&f->touched, sizeof(uint32_t));
    tt_vec_init(&f->lines, sizeof(fline));
    *out = f;
    return 0;
}

void tt__folded_free(tt__folded *f)
{
    if (!f)
        return;
    tt_vec_free(&f->touched);
    tt_vec_free(&f->lines);
    tt_buf_free(&f->text);
    tt_buf_free(&f->root);
    free(f);
}

int tt__folded_add(tt__folded *f, tt_profile *p, const tt_export_opts *o, const char *label,
                   const char *file, tt_error *err)
{
    size_t nc = tt_profile_ncallsites(p);
    int64_t *w = calloc(nc ? nc : 1, sizeof *w);
    int rc = w ? 0 : TT_ENOMEM;
    tt_proc_index px = {0};
    if (!rc && o->folded_root == TT_ROOT_PROCESS)
        rc = tt_proc_index_build(&px, p, o->inputs && o->n_inputs > 1);
    size_t ndeep[2] = {0, 0};
    const char *deep_file = NULL; /* the input of the first thread with a path cut */
    for (size_t t = 0; t < tt_profile_nthreads(p) && !rc; t++) {
        if (!tt__export_wants(o, (uint32_t)t))
            continue;
        if ((rc = thread_weights(w, &f->touched, p, (uint32_t)t, o, err)))
            break;
        /* folded input names no thread or process: its stacks as read */
        int root = tt_profile_thread(p, (uint32_t)t)->no_root ? TT_ROOT_NONE : o->folded_root;
        f->root.len = 0;
        if (label) /* the part is the outermost frame, also with --folded-root none */
            put_name(&f->root, label);
        if (label && root != TT_ROOT_NONE)
            tt_buf_puts(&f->root, ";");
        size_t start = f->root.len;
        if (root == TT_ROOT_THREAD)
            tt_thread_format(&f->root, p, (uint32_t)t);
        else if (root == TT_ROOT_PROCESS)
            tt_thread_process_format(&f->root, p, &px, (uint32_t)t);
        sanitize(&f->root, start);
        rc = add_paths(&f->text, &f->lines, p, w, f->touched.data, f->touched.len,
                       root == TT_ROOT_NONE && !label ? NULL : f->root.data, ndeep);
        if (ndeep[0] && !deep_file)
            deep_file = tt__thread_input(tt_profile_thread(p, (uint32_t)t), o);
        for (size_t i = 0; i < f->touched.len; i++)
            w[TT_VEC_AT(&f->touched, uint32_t, i)] = 0;
        f->touched.len = 0;
    }
    tt_proc_index_free(&px);
    free(w);
    if (rc == TT_ENOMEM)
        tt_error_set(err, rc, NULL, 0, 0, "out of memory");
    if (!rc && ndeep[0]) {
        char ex[240];
        snprintf(ex, sizeof ex, "%s%scall paths of more than %d frames (the deepest %zu) folded "
                 "into a \"%s\" leaf under their %d outermost frames", label ? label : "",
                 label ? ": " : "", TT_MAX_STACK_DEPTH, ndeep[1], TT_TRUNCATED_FRAME,
                 TT_MAX_STACK_DEPTH - 1);
        tt_stats_add(o->stats, "stack_too_deep", deep_file ? deep_file : file, TT_SEV_DATA_LOSS, (int64_t)ndeep[0], ex);
    }
    return rc;
}

int tt__folded_close(tt__folded *f, tt_error *err)
{
    sref *r = NULL;
    size_t n = f->lines.len;
    int rc = 0;
    if (n && !(r = malloc(n * sizeof *r)))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const fline *l = &TT_VEC_AT(&f->lines, fline, i);
        r[i] = (sref){f->text.data + l->off, l->len, l->w};
    }
    if (n)
        qsort(r, n, sizeof *r, sref_cmp);
    tt_jsonw out; /* only its buffer is used, for the streaming flush */
    tt_jsonw_init(&out, 0);
    for (size_t i = 0; i < n && !rc; i++) {
        int64_t sum = r[i].w; /* equal paths from several threads (and parts) merge */
        while (i + 1 < n && !sref_cmp(&r[i], &r[i + 1]))
            sum = tt__sat_add(sum, r[++i].w);
        tt_buf_put(&out.buf, r[i].s, r[i].n);
        tt_buf_printf(&out.buf, " %lld\n", (long long)sum);
        rc = tt__flush(&out, f->fn, f->ctx, 0, err);
    }
    if (!rc)
        rc = tt__flush(&out, f->fn, f->ctx, 1, err);
    tt_jsonw_free(&out);
    free(r);
    return rc;
}

int tt__folded_weights(int64_t *w, tt_vec *touched, tt_profile *p, uint32_t utid,
                       const tt_export_opts *o, tt_error *err)
{
    tt_export_opts r = *o;
    if (r.weight == TT_WEIGHT_DEFAULT)
        r.weight = tt_export_default_weight(p);
    return thread_weights(w, touched, p, utid, &r, err);
}
