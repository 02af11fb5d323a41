/* Folded stacks writer, spec/samples.md section 7.2: one "root;...;leaf weight" line per
 * distinct path with non-zero integer weight, sorted by the path bytes. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct fline {
    size_t off, len;
    int64_t w;
} fline;

static void put_name(tt_buf *b, const char *s)
{
    /* the format has no escaping: ';' becomes ':', line breaks and tabs blanks */
    size_t start = b->len;
    tt_buf_puts(b, s);
    for (size_t i = start; i < b->len; i++) {
        char c = b->data[i];
        if (c == ';')
            b->data[i] = ':';
        else if (c == '\n' || c == '\r' || c == '\t')
            b->data[i] = ' ';
    }
}

static int add_paths(tt_buf *text, tt_vec *lines, const tt_profile *p, const int64_t *w,
                     const uint32_t *touched, size_t nt, const char *root)
{
    uint32_t *fr = malloc((TT_MAX_STACK_DEPTH + 1) * sizeof *fr);
    if (!fr)
        return TT_ENOMEM;
    for (size_t i = 0; i < nt; i++) {
        uint32_t cs = touched[i];
        if (!w[cs])
            continue;
        fline l = {text->len, 0, w[cs]};
        if (root) {
            put_name(text, root);
            tt_buf_puts(text, ";");
        }
        size_t n = tt_callsite_frames(p, cs, fr, TT_MAX_STACK_DEPTH + 1);
        for (size_t k = 0; k < n; k++) {
            if (k)
                tt_buf_puts(text, ";");
            put_name(text, tt_profile_frame(p, fr[k])->name);
        }
        l.len = text->len - l.off;
        if (!tt_vec_push(lines, &l)) {
            free(fr);
            return TT_ENOMEM;
        }
    }
    free(fr);
    return 0;
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
    if (utid < p->nfixed && p->fixed[utid].len) {
        /* instrumented slices: self time per callsite */
        const tt_slice *s = p->fixed[utid].data;
        for (size_t i = 0; i < p->fixed[utid].len; i++) {
            if (!w[s[i].callsite] && !tt_vec_push(touched, &s[i].callsite))
                return TT_ENOMEM;
            w[s[i].callsite] += s[i].self_dur;
        }
        return 0;
    }
    if (p->meta.timeless && (o->weight == TT_WEIGHT_WALL || o->weight == TT_WEIGHT_CPU))
        return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                            "the input has no timestamps: --weight %s needs times",
                            o->weight == TT_WEIGHT_WALL ? "wall" : "cpu");
    tt_vec runs;
    tt_vec_init(&runs, sizeof(tt_run));
    int64_t gap = tt_profile_max_gap(p, utid, o->slice.max_gap);
    if (tt_profile_runs(&runs, p, utid, gap)) {
        tt_vec_free(&runs);
        return TT_ENOMEM;
    }
    for (size_t j = 0; j < runs.len; j++) {
        uint32_t cs = TT_VEC_AT(&runs, tt_run, j).callsite;
        int64_t x = tt__run_weight(&runs, j, o->weight, gap, o->slice.end_pad);
        if (!x)
            continue;
        if (!w[cs] && !tt_vec_push(touched, &cs)) {
            tt_vec_free(&runs);
            return TT_ENOMEM;
        }
        w[cs] += x;
    }
    tt_vec_free(&runs);
    return 0;
}

int tt_export_folded(tt_profile *p, const tt_export_opts *o, tt_write_fn fn, void *ctx,
                     tt_error *err)
{
    size_t nc = tt_profile_ncallsites(p);
    int64_t *w = calloc(nc ? nc : 1, sizeof *w);
    tt_vec touched, lines;
    tt_vec_init(&touched, sizeof(uint32_t));
    tt_vec_init(&lines, sizeof(fline));
    tt_buf text = {0}, root = {0};
    int rc = w ? 0 : TT_ENOMEM;
    for (size_t t = 0; t < tt_profile_nthreads(p) && !rc; t++) {
        if (!tt__export_wants(o, (uint32_t)t))
            continue;
        if ((rc = thread_weights(w, &touched, p, (uint32_t)t, o, err)))
            break;
        root.len = 0;
        if (o->folded_root == TT_ROOT_THREAD)
            tt_thread_format(&root, p, (uint32_t)t);
        else if (o->folded_root == TT_ROOT_PROCESS)
            tt_buf_puts(&root, p->meta.process ? p->meta.process : "unknown");
        rc = add_paths(&text, &lines, p, w, touched.data, touched.len,
                       o->folded_root == TT_ROOT_NONE ? NULL : root.data);
        for (size_t i = 0; i < touched.len; i++)
            w[TT_VEC_AT(&touched, uint32_t, i)] = 0;
        touched.len = 0;
    }
    sref *r = NULL;
    if (!rc && lines.len && !(r = malloc(lines.len * sizeof *r)))
        rc = TT_ENOMEM;
    if (!rc) {
        for (size_t i = 0; i < lines.len; i++) {
            const fline *l = &TT_VEC_AT(&lines, fline, i);
            r[i] = (sref){text.data + l->off, l->len, l->w};
        }
        if (lines.len)
            qsort(r, lines.len, sizeof *r, sref_cmp);
        tt_jsonw out; /* only its buffer is used, for the streaming flush */
        tt_jsonw_init(&out, 0);
        for (size_t i = 0; i < lines.len && !rc; i++) {
            int64_t sum = r[i].w; /* equal paths from several threads merge */
            while (i + 1 < lines.len && !sref_cmp(&r[i], &r[i + 1]))
                sum += r[++i].w;
            tt_buf_put(&out.buf, r[i].s, r[i].n);
            tt_buf_printf(&out.buf, " %lld\n", (long long)sum);
            rc = tt__flush(&out, fn, ctx, 0, err);
        }
        if (!rc)
            rc = tt__flush(&out, fn, ctx, 1, err);
        tt_jsonw_free(&out);
    }
    if (rc == TT_ENOMEM)
        tt_error_set(err, rc, NULL, 0, 0, "out of memory");
    free(r);
    free(w);
    tt_vec_free(&touched);
    tt_vec_free(&lines);
    tt_buf_free(&text);
    tt_buf_free(&root);
    return rc;
}
