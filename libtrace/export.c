/* Shared pieces of the exporters (spec/samples.md section 7): options, exact microsecond
 * formatting, streaming flush, run weights; input-kind detection by content (cli.md). */
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

int tt_format_us(char *dst, size_t cap, int64_t ns)
{
    /* exact decimal from integer ns: Perfetto reads it back with llround(ts * 1000);
     * snprintf's contract (truncated to cap - 1 bytes, full length returned) */
    char tmp[32];
    size_t n = (size_t)(tt__fmt_dec3(tmp, ns) - tmp);
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(dst, tmp, k);
        dst[k] = 0;
    }
    return (int)n;
}

int tt__flush(tt_jsonw *w, tt_write_fn fn, void *ctx, int force, tt_error *err)
{
    if (!force && w->buf.len < 256 * 1024)
        return 0;
    if (w->buf.len && fn(ctx, w->buf.data, w->buf.len))
        return tt_error_set(err, TT_EIO, NULL, 0, 0, "write failed");
    w->buf.len = 0;
    return 0;
}

int tt__export_wants(const tt_export_opts *o, uint32_t utid)
{
    if (!o->threads)
        return 1;
    for (size_t i = 0; i < o->n_threads; i++)
        if (o->threads[i] == utid)
            return 1;
    return 0;
}

int64_t tt__profile_start(const tt_profile *p)
{
    int64_t m = INT64_MAX;
    const tt_sample *s = p->samples.data;
    for (size_t i = 0; i < p->samples.len; i++)
        if (s[i].ts < m)
            m = s[i].ts;
    for (size_t t = 0; t < p->nfixed; t++) {
        const tt_slice *f = p->fixed[t].data;
        for (size_t i = 0; i < p->fixed[t].len; i++)
            if (f[i].ts < m)
                m = f[i].ts;
    }
    return m == INT64_MAX ? 0 : m;
}

int64_t tt__run_weight3(const tt_run *q, const tt_run *r, const tt_run *nx, int weight,
                        int64_t max_gap, int64_t pad)
{
    if (weight == TT_WEIGHT_SAMPLES)
        return r->count;
    if (weight == TT_WEIGHT_PERIOD)
        return r->weight;
    int cpu = weight == TT_WEIGHT_CPU;
    int64_t first = cpu ? r->cpu : r->ts, last = cpu ? r->end_cpu : r->end_ts;
    if (first < 0 || last < 0)
        return 0;
    int64_t b = first, e = last + (cpu ? 0 : pad);
    if (q) {
        int64_t qt = cpu ? q->end_cpu : q->end_ts;
        if (r->ts - q->end_ts <= max_gap && qt >= 0 && qt <= first)
            b = qt + (first - qt) / 2;
    }
    if (nx) {
        int64_t qt = cpu ? nx->cpu : nx->ts;
        if (nx->ts - r->end_ts <= max_gap && qt >= last)
            e = last + (qt - last) / 2;
        else if (!cpu && qt >= last && qt - last < pad)
            e = qt;
    }
    return e > b ? e - b : 0;
}

int64_t tt__run_weight(const tt_vec *runs, size_t j, int weight, int64_t max_gap, int64_t pad)
{
    const tt_run *r = &TT_VEC_AT(runs, tt_run, j);
    return tt__run_weight3(j > 0 ? r - 1 : NULL, r, j + 1 < runs->len ? r + 1 : NULL, weight,
                           max_gap, pad);
}

struct tt_export {
    int format;
    const tt_export_opts *o;
    size_t n_parts, parts;
    void *impl; /* tt__chrome, tt__folded or tt__speedscope */
};

int tt_export_open(tt_export **out, int format, const tt_export_opts *o, size_t n_parts,
                   const char *doc_name, tt_write_fn fn, void *ctx, tt_error *err)
{
    *out = NULL;
    tt_export *x = calloc(1, sizeof *x);
    int rc = x ? 0 : TT_ENOMEM;
    if (!rc) {
        x->format = format;
        x->o = o;
        x->n_parts = n_parts;
        if (format == TT_EXPORT_CHROME)
            rc = tt__chrome_open((tt__chrome **)&x->impl, o, fn, ctx);
        else if (format == TT_EXPORT_FOLDED)
            rc = tt__folded_open((tt__folded **)&x->impl, o, fn, ctx);
        else if (format == TT_EXPORT_SPEEDSCOPE)
            rc = tt__speedscope_open((tt__speedscope **)&x->impl, o, n_parts, doc_name, fn,
                                     ctx);
        else
            rc = TT_EINVAL;
    }
    if (rc) {
        free(x);
        return tt_error_set(err, rc, NULL, 0, 0,
                            rc == TT_EINVAL ? "unknown export format" : "out of memory");
    }
    *out = x;
    return 0;
}

int tt_export_default_weight(const tt_profile *p)
{
    /* samples (samples.md 7.2); wall time for instrumented method-beat call trees */
    return !p->samples.len && p->nfixed ? TT_WEIGHT_WALL : TT_WEIGHT_SAMPLES;
}

int tt_export_add(tt_export *x, tt_profile *p, const tt_export_part *part, tt_error *err)
{
    if (x->parts >= x->n_parts || !p->finished)
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "export: unexpected part");
    tt_export_opts o = *x->o; /* the part's thread selection and weight unit */
    o.threads = part->threads;
    o.n_threads = part->n_threads;
    int instrumented = !p->samples.len && p->nfixed; /* method-beat call trees */
    if (o.weight == TT_WEIGHT_DEFAULT)
        o.weight = tt_export_default_weight(p);
    if (instrumented && o.weight != TT_WEIGHT_WALL && x->format == TT_EXPORT_FOLDED)
        return tt_error_set(err, TT_EUNSUPPORTED, NULL, 0, 0,
                            "a method-beat call tree is instrumented, not sampled: its weights "
                            "are wall time (--weight wall, the default for it), not %s",
                            o.weight == TT_WEIGHT_CPU ? "cpu" : o.weight == TT_WEIGHT_PERIOD
                                                                    ? "period" : "samples");
    int rc;
    if (x->format == TT_EXPORT_CHROME)
        rc = tt__chrome_add(x->impl, p, &o, part, err);
    else if (x->format == TT_EXPORT_FOLDED)
        rc = tt__folded_add(x->impl, p, &o, part->label, err);
    else
        rc = tt__speedscope_add(x->impl, p, &o, part, err);
    if (!rc)
        x->parts++;
    return rc;
}

int tt_export_close(tt_export *x, tt_error *err)
{
    if (x->format == TT_EXPORT_CHROME)
        return tt__chrome_close(x->impl, err);
    if (x->format == TT_EXPORT_FOLDED)
        return tt__folded_close(x->impl, err);
    return tt__speedscope_close(x->impl, err);
}

void tt_export_free(tt_export *x)
{
    if (!x)
        return;
    if (x->format == TT_EXPORT_CHROME)
        tt__chrome_free(x->impl);
    else if (x->format == TT_EXPORT_FOLDED)
        tt__folded_free(x->impl);
    else
        tt__speedscope_free(x->impl);
    free(x);
}

static int export_one(int format, tt_profile *p, const tt_export_opts *o, tt_write_fn fn,
                      void *ctx, tt_error *err)
{
    tt_export *x;
    int rc = tt_export_open(&x, format, o, 1, NULL, fn, ctx, err);
    if (rc)
        return rc;
    tt_export_part part = {NULL, 0, o->threads, o->n_threads};
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

const char *tt_samples_kind_name(int kind)
{
    switch (kind) {
    case TT_SKIND_BTRACE: return "btrace";
    case TT_SKIND_BTRACE_MAPPING: return "btrace-mapping";
    case TT_SKIND_PERF: return "perf";
    case TT_SKIND_FOLDED: return "folded";
    case TT_SKIND_JSONL: return "samples-jsonl";
    case TT_SKIND_BEAT: return "beat";
    case TT_SKIND_DATABASE: return "database";
    case TT_SKIND_BTRACE_IOS: return "btrace-ios";
    default: return "unknown";
    }
}

static int is_int_token(const char *s, size_t n)
{
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, n -= 2;
    else if (n && s[0] == '-')
        s++, n--;
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f')))
            return 0;
    return 1;
}

/* The meaningful line after p[e] (a '\n' or the end), for perf's two-line shapes. */
static const char *line_after(const unsigned char *p, size_t n, size_t e, size_t *ln)
{
    for (size_t i = e + 1; i < n;) {
        size_t j = i;
        while (j < n && p[j] != '\n')
            j++;
        const char *s = (const char *)p + i;
        size_t k = j - i, t = 0;
        while (t < k && (s[t] == ' ' || s[t] == '\t' || s[t] == '\r'))
            t++;
        if (t < k && (j < n || n < 4096)) {
            *ln = k;
            return s;
        }
        if (t < k)
            return NULL;
        i = j + 1;
    }
    return NULL;
}

int tt_btrace_ios_detect(const unsigned char *p, size_t n)
{
    /* the schema (sqlite_master) is on the first pages: its CREATE TABLE texts */
    return n >= 100 && !memcmp(p, "SQLite format 3", 16) && memcmp(p + 68, "TTDB", 4) &&
           tt__memmem((const char *)p, n, "BTraceModel", 11) && tt__memmem((const char *)p, n, "CallStackTableModel", 19);
}

int tt_samples_detect(const unsigned char *p, size_t n)
{
    if (tt_btrace_ios_detect(p, n))
        return TT_SKIND_BTRACE_IOS;
    if (n >= 16 && !memcmp(p, "SQLite format 3", 16)) /* a database written by analyze */
        return TT_SKIND_DATABASE;
    if (n >= 4 && p[0] == 4 && p[1] == 3 && p[2] == 2 && p[3] == 1)
        return TT_SKIND_BTRACE;
    if (n >= 12 && !memcmp(p, "\0\0\0\0\0\0\0\0\1\0\0\0", 12))
        return TT_SKIND_BTRACE_MAPPING;
    size_t ctl = 0;
    for (size_t i = 0; i < n && i < 4096; i++)
        if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
            ctl++;
    if (ctl)
        return n % 8 == 0 ? TT_SKIND_BEAT : TT_SKIND_UNKNOWN;
    /* first non-blank, non-comment line decides */
    size_t i = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && p[e] != '\n')
            e++;
        const char *s = (const char *)p + i;
        size_t ln = e - i;
        tt__trim(&s, &ln);
        if (ln && s[0] != '#') {
            if (s[0] == '{')
                return TT_SKIND_JSONL;
            size_t nn = 0;
            const char *raw = (const char *)p + i, *nx = line_after(p, n, e, &nn);
            if (tt__perf_detect(raw, e - i, nx, nn))
                return TT_SKIND_PERF;
            if (is_int_token(s, ln))
                return TT_SKIND_BEAT;
            size_t b = ln;
            while (b > 0 && s[b - 1] != ' ')
                b--;
            if (b > 0 && b < ln && s[b] >= '0' && s[b] <= '9')
                return TT_SKIND_FOLDED;
            if (e >= n && n >= 4096)
                return TT_SKIND_UNKNOWN;
            return TT_SKIND_UNKNOWN;
        }
        i = e + 1;
    }
    return TT_SKIND_UNKNOWN;
}

/* ---- method-beat call trees as fixed slices ---- */

int tt_profile_from_beat(tt_profile *p, const tt_mitem *items, size_t n, const tt_mapping *m,
                         int name_style, size_t *clamped)
{
    *clamped = 0;
    tt_profile_meta *meta = tt_profile_meta_get(p);
    meta->source_format = "matrix_beat";
    meta->clock = "relative";
    uint32_t utid;
    if (tt_thread_intern(p, &utid, 0, -1, 0, 32))
        return TT_ENOMEM;
    tt_thread_set_name(p, utid, "main", 4, 1);
    tt_thread_set_main(p, utid);
    tt_vec sl, stack;
    tt_vec_init(&sl, sizeof(tt_slice));
    tt_vec_init(&stack, sizeof(uint32_t));
    tt_buf name = {0};
    int rc = 0;
    int64_t cursor = 0; /* next free time at depth 0 */
    /* per open slice: next free child time */
    tt_vec next;
    tt_vec_init(&next, sizeof(int64_t));
    for (size_t i = 0; i < n && !rc; i++) {
        /* pop to the parent: the nearest open slice with a smaller depth (gaps kept) */
        while (stack.len) {
            const tt_slice *top = &TT_VEC_AT(&sl, tt_slice,
                                             TT_VEC_AT(&stack, uint32_t, stack.len - 1));
            if (items[i].depth > (int32_t)top->msg_id) /* msg_id holds the source depth */
                break;
            stack.len--;
            next.len--;
        }
        name.len = 0;
        if (tt_mapping_format_id(&name, m, (uint32_t)items[i].id, name_style) || !name.data) {
            rc = TT_ENOMEM;
            break;
        }
        uint32_t f;
        if ((rc = tt__frame_simple(p, &f, name.data, name.len, TT_FRAME_JAVA, NULL)))
            break;
        tt_slice s;
        memset(&s, 0, sizeof s);
        int64_t dur = (int64_t)items[i].dur * 1000000;
        if (dur < 0)
            dur = 0;
        s.parent = TT_NONE;
        int64_t begin = cursor, limit = INT64_MAX;
        uint32_t parent_cs = TT_NONE;
        if (stack.len) {
            s.parent = TT_VEC_AT(&stack, uint32_t, stack.len - 1);
            const tt_slice *par = &TT_VEC_AT(&sl, tt_slice, s.parent);
            begin = TT_VEC_AT(&next, int64_t, next.len - 1);
            limit = par->ts + par->dur;
            parent_cs = par->callsite;
        }
        if (begin + dur > limit) { /* Matrix rounding can make children outgrow parents */
            dur = limit - begin;
            (*clamped)++;
        }
        s.ts = begin;
        s.dur = dur;
        s.self_dur = dur;
        s.thread_dur = s.self_thread_dur = s.block_dur = s.thread_ts = -1;
        s.gap_before = s.gap_after = -1;
        s.wakeup_utid = TT_NONE;
        s.depth = (uint32_t)stack.len;
        s.frame = f;
        s.msg_id = (uint64_t)(int64_t)items[i].depth;
        s.sample_count = (uint32_t)(items[i].count > 0 ? items[i].count : 0);
        s.type = TT_ST_CPU; /* instrumented: no sample type */
        s.end_kind = TT_ENDK_EXACT;
        uint64_t key = ((uint64_t)parent_cs << 32) | f;
        if (!tt__map_get(&p->csmap, key, &s.callsite)) {
            tt_callsite c = {parent_cs, f, s.depth};
            if (!tt_vec_push(&p->callsites, &c) ||
                tt__map_put(&p->csmap, key, (uint32_t)(p->callsites.len - 1))) {
                rc = TT_ENOMEM;
                break;
            }
            s.callsite = (uint32_t)(p->callsites.len - 1);
        }
        if (s.parent != TT_NONE) {
            tt_slice *par = &TT_VEC_AT(&sl, tt_slice, s.parent);
            par->self_dur -= dur;
            if (par->self_dur < 0)
                par->self_dur = 0;
            TT_VEC_AT(&next, int64_t, next.len - 1) = begin + dur;
        } else {
            cursor = begin + dur;
        }
        uint32_t idx = (uint32_t)sl.len;
        int64_t child0 = begin;
        if (!tt_vec_push(&sl, &s) || !tt_vec_push(&stack, &idx) || !tt_vec_push(&next, &child0))
            rc = TT_ENOMEM;
    }
    for (size_t i = 0; i < sl.len; i++) /* the source depth was only needed while building */
        TT_VEC_AT(&sl, tt_slice, i).msg_id = 0;
    if (!rc)
        rc = tt_profile_set_slices(p, utid, sl.data, sl.len);
    tt_vec_free(&sl);
    tt_vec_free(&stack);
    tt_vec_free(&next);
    tt_buf_free(&name);
    return rc;
}
