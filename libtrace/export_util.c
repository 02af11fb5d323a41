/* Helpers every exporter backend shares (spec/samples.md section 7): exact microsecond
 * formatting, streaming flush, thread selection, trace start, run weights, default weight. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

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

const char *tt__timeless_input(const tt_profile *p, const tt_export_opts *o)
{
    uint32_t src = p->meta.timeless_source;
    return o->inputs && src < o->n_inputs ? o->inputs[src].name : NULL;
}

const char *tt__thread_input(const tt_thread *t, const tt_export_opts *o)
{
    return o->inputs && t->source < o->n_inputs ? o->inputs[t->source].name : NULL;
}

const char *tt__export_format(const tt_profile *p, const tt_export_opts *o)
{
    const char *f = NULL;
    for (size_t i = 0; o->inputs && i < o->n_inputs; i++) {
        const char *g = o->inputs[i].format; /* NULL: a mapping, read with its trace */
        if (g && f && strcmp(f, g))
            return "mixed";
        if (g)
            f = g;
    }
    return f ? f : p->meta.source_format;
}

const char *tt__export_process(const tt_profile *p)
{
    const char *best = p->meta.process;
    for (size_t i = 0; i < p->pnames.len; i++) {
        const tt__pname *n = &TT_VEC_AT(&p->pnames, tt__pname, i);
        if (!best || strcmp(n->name, best) < 0)
            best = n->name;
    }
    return best;
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
    if (cpu && (first < 0 || last < 0)) /* -1: no CPU clock; wall times may be negative */
        return 0;
    int64_t b = first, e = last + (cpu ? 0 : pad);
    if (q) {
        int64_t qt = cpu ? q->end_cpu : q->end_ts;
        if (r->ts - q->end_ts <= max_gap && (!cpu || qt >= 0) && qt <= first)
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

/* 1 when an interval sample of o[0..n-1] ends after the sample that follows it (5.1 item
 * order): its end item then lies between later runs' items, and the neighbours of a run in the
 * item order are no longer the runs before and after it. */
static int items_interleave(const tt_profile *p, const uint32_t *o, size_t n)
{
    const tt_sample *s = p->samples.data;
    for (size_t i = 0; i + 1 < n; i++) {
        const tt_sample *a = &s[o[i]], *b = &s[o[i + 1]];
        if (a->is_interval && (a->end_ts > b->ts || (a->end_ts == b->ts && a->seq > b->seq)))
            return 1;
    }
    return 0;
}

/* A run's first or last item (5.1): its begin and its end (its last sample, or the end of an
 * interval sample or of a stored run). */
typedef struct witem {
    int64_t t, cpu;
    uint32_t seq, run;
    int end;
} witem;

static int witem_cmp(const void *x, const void *y)
{
    const witem *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return a->end - b->end;
}

/* Wall or CPU weight of every run from the thread's items in time order: the time between two
 * items within the max gap is split at its midpoint, each half to its item's run (the leaf
 * self time of the mid policy, 5.5); after an item before a gap or at the end the pad, as for
 * a slice end. w: room for every run (at most n), zeroed. */
static int item_weights(int64_t *w, const tt_profile *p, const uint32_t *o, size_t n,
                        int weight, int64_t max_gap, int64_t pad)
{
    witem *it = malloc((n ? 2 * n : 1) * sizeof *it);
    if (!it)
        return TT_ENOMEM;
    size_t m = 0, pos = 0;
    tt_run r;
    for (uint32_t j = 0; tt__run_next(&r, p, o, n, &pos, max_gap); j++) {
        const tt_sample *s = p->samples.data;
        it[m++] = (witem){r.ts, r.cpu, s[r.first].seq, j, 0};
        if (r.is_interval || r.end_ts != r.ts)
            it[m++] = (witem){r.end_ts, r.end_cpu, s[r.last].seq, j, 1};
    }
    qsort(it, m, sizeof *it, witem_cmp);
    int cpu = weight == TT_WEIGHT_CPU;
    for (size_t i = 0; i < m; i++) {
        const witem *a = &it[i], *b = i + 1 < m ? &it[i + 1] : NULL;
        int one = b && a->run == b->run; /* a run's two items: never a gap between */
        if (b && (one || b->t - a->t <= max_gap)) {
            int64_t x = cpu ? a->cpu : a->t, y = cpu ? b->cpu : b->t;
            if (cpu && (x < 0 || y < x))
                continue;
            int64_t mid = x + (y - x) / 2;
            w[a->run] += mid - x;
            w[b->run] += y - mid;
        } else if (!cpu) {
            w[a->run] += b && b->t - a->t < pad ? b->t - a->t : pad;
        }
    }
    free(it);
    return 0;
}

int tt__wruns_init(tt__wruns *it, const tt_profile *p, uint32_t utid, int weight,
                   int64_t max_gap, int64_t pad)
{
    memset(it, 0, sizeof *it);
    it->p = p;
    it->o = tt_profile_thread_order(p, utid, &it->n);
    it->weight = weight;
    it->gap = max_gap;
    it->pad = pad;
    if ((weight != TT_WEIGHT_WALL && weight != TT_WEIGHT_CPU) || p->meta.timeless ||
        !items_interleave(p, it->o, it->n))
        return 0;
    /* at most one run a sample */
    if (!(it->iw = calloc(it->n, sizeof *it->iw)))
        return TT_ENOMEM;
    return item_weights(it->iw, p, it->o, it->n, weight, max_gap, pad);
}

void tt__wruns_free(tt__wruns *it)
{
    free(it->iw);
    it->iw = NULL;
}

int tt__wruns_next(tt__wruns *it, const tt_run **r, int64_t *w)
{
    if (it->iw) { /* weights from the items */
        if (!tt__run_next(&it->w[0], it->p, it->o, it->n, &it->pos, it->gap))
            return 0;
        *r = &it->w[0];
        *w = it->iw[it->have++];
        return 1;
    }
    while (!it->done) {
        tt_run *w3 = it->w;
        int more = tt__run_next(&w3[it->have % 3], it->p, it->o, it->n, &it->pos, it->gap);
        if (more)
            it->have++;
        else if (!it->have) /* a thread without samples */
            break;
        if (more && it->have < 2)
            continue;
        /* the run before the newest one (or the last one when there are no more) */
        size_t j = more ? it->have - 2 : it->have - 1;
        const tt_run *q = j ? &w3[(j - 1) % 3] : NULL, *nx = more ? &w3[(j + 1) % 3] : NULL;
        *r = &w3[j % 3];
        *w = tt__run_weight3(q, *r, nx, it->weight, it->gap, it->pad);
        it->done = !more;
        return 1;
    }
    it->done = 1;
    return 0;
}

int tt__run_weights(int64_t **out, const tt_profile *p, uint32_t utid, size_t nruns,
                    int weight, int64_t max_gap, int64_t pad)
{
    int64_t *v = malloc((nruns ? nruns : 1) * sizeof *v);
    tt__wruns it;
    int rc = v ? tt__wruns_init(&it, p, utid, weight, max_gap, pad) : TT_ENOMEM;
    const tt_run *r;
    for (size_t j = 0; !rc && j < nruns && tt__wruns_next(&it, &r, &v[j]); j++)
        ;
    if (v)
        tt__wruns_free(&it);
    if (rc) {
        free(v);
        v = NULL;
    }
    *out = v;
    return rc;
}

int tt_export_default_weight(const tt_profile *p)
{
    /* samples (samples.md 7.2); wall time for instrumented method-beat call trees */
    return !p->samples.len && p->nfixed ? TT_WEIGHT_WALL : TT_WEIGHT_SAMPLES;
}

