/* The sample container of one analysis: threads, samples, per-thread time order, run merging
 * (spec/samples.md sections 1, 3, 4.3, 5.4); the aggregates of section 6 are in profile_agg.c. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

int tt_profile_new(tt_profile **out, int identity)
{
    tt_profile *p = calloc(1, sizeof *p);
    if (!p || !(p->arena = tt_arena_new())) {
        free(p);
        return TT_ENOMEM;
    }
    p->identity = identity;
    tt_vec_init(&p->frames, sizeof(tt_stack_frame));
    tt_vec_init(&p->callsites, sizeof(tt_callsite));
    tt_vec_init(&p->threads, sizeof(tt_thread));
    tt_vec_init(&p->samples, sizeof(tt_sample));
    tt_vec_init(&p->counters, sizeof(tt__ctr_packed));
    tt_vec_init(&p->pnames, sizeof(tt__pname));
    p->meta.pid = -1;
    p->meta.pid_source = TT_NONE;
    p->meta.timeless_source = TT_NONE;
    p->meta.clock = "unknown";
    p->meta.source_format = "unknown";
    *out = p;
    return 0;
}

static void slice_ws_free(tt__slice_ws *w)
{
    if (!w)
        return;
    tt_vec_free(&w->items);
    tt_vec_free(&w->open);
    free(w->cum_block);
    free(w->cum_count);
    free(w->path);
    free(w->loop);
    free(w->loop_on);
    free(w->seen);
    free(w);
}

void tt_profile_free(tt_profile *p)
{
    if (!p)
        return;
    tt_vec_free(&p->frames);
    tt_vec_free(&p->callsites);
    tt_vec_free(&p->threads);
    tt_vec_free(&p->samples);
    tt_vec_free(&p->counters);
    tt_vec_free(&p->pnames);
    tt__idtab_free(&p->ftab);
    tt__idtab_free(&p->ttab);
    tt__map_free(&p->csmap);
    free(p->cs_hint);
    for (size_t i = 0; i < p->nfixed; i++)
        tt_vec_free(&p->fixed[i]);
    free(p->fixed);
    free(p->order);
    free(p->toff);
    free(p->run_brk);
    free(p->cs_rec);
    free(p->gap_auto);
    slice_ws_free(p->sws);
    tt_buf_free(&p->tmp);
    tt_arena_free(p->arena);
    free(p);
}

tt_profile_meta *tt_profile_meta_get(tt_profile *p) { return &p->meta; }
size_t tt_profile_nframes(const tt_profile *p) { return p->frames.len; }
size_t tt_profile_ncallsites(const tt_profile *p) { return p->callsites.len; }
size_t tt_profile_nthreads(const tt_profile *p) { return p->threads.len; }
size_t tt_profile_nsamples(const tt_profile *p) { return p->samples.len; }

const tt_stack_frame *tt_profile_frame(const tt_profile *p, uint32_t id)
{
    return &TT_VEC_AT(&p->frames, tt_stack_frame, id);
}

const tt_thread *tt_profile_thread(const tt_profile *p, uint32_t utid)
{
    return &TT_VEC_AT(&p->threads, tt_thread, utid);
}

tt_sample *tt_profile_sample(tt_profile *p, uint32_t i)
{
    return &TT_VEC_AT(&p->samples, tt_sample, i);
}

int tt_profile_counters(tt_counters *out, const tt_profile *p, uint32_t ctr)
{
    memset(out, 0, sizeof *out);
    if (ctr == TT_NONE || ctr >= p->counters.len)
        return TT_ENOTFOUND;
    const tt__ctr_packed *c = &TT_VEC_AT(&p->counters, tt__ctr_packed, ctr);
    for (int k = 0; k < TT_CTR_COUNT; k++)
        out->v[k] = tt__ctr_get(c, k);
    out->known = c->known;
    return 0;
}

typedef struct tkey {
    uint32_t source;
    int64_t pid, tid;
} tkey;

static int thread_eq(const void *ctx, uint32_t id, const void *key)
{
    const tt_thread *t = &TT_VEC_AT(&((const tt_profile *)ctx)->threads, tt_thread, id);
    const tkey *k = key;
    return t->source == k->source && t->pid == k->pid && t->tid == k->tid;
}

int tt_thread_intern(tt_profile *p, uint32_t *utid, uint32_t source, int64_t pid, int64_t tid,
                     int tid_bits)
{
    tkey k = {source, pid, tid};
    uint64_t h = tt__hash(&k.pid, sizeof k.pid, tt__mix64(source) ^ (uint64_t)tid);
    uint32_t id = tt__idtab_find(&p->ttab, h, thread_eq, p, &k);
    if (id != TT_NONE) {
        *utid = id;
        return 0;
    }
    if (p->finished)
        return TT_EINVAL;
    tt_thread t = {.utid = (uint32_t)p->threads.len, .source = source, .pid = pid, .tid = tid,
                   .tid_bits = tid_bits};
    if (p->threads.len >= TT_NONE - 1)
        return TT_ELIMIT;
    if (!tt_vec_push(&p->threads, &t) || tt__idtab_add(&p->ttab, h, t.utid))
        return TT_ENOMEM;
    *utid = t.utid;
    return 0;
}

int tt_thread_add(tt_profile *p, uint32_t *utid, uint32_t source, int64_t pid, int64_t tid,
                  int tid_bits)
{
    if (p->finished)
        return TT_EINVAL;
    if (p->threads.len >= TT_NONE - 1)
        return TT_ELIMIT;
    tt_thread t = {.utid = (uint32_t)p->threads.len, .source = source, .pid = pid, .tid = tid,
                   .tid_bits = tid_bits};
    if (!tt_vec_push(&p->threads, &t))
        return TT_ENOMEM;
    *utid = t.utid;
    return 0;
}

int tt_thread_set_name(tt_profile *p, uint32_t utid, const char *name, size_t n, int keep_first)
{
    tt_thread *t = &TT_VEC_AT(&p->threads, tt_thread, utid);
    if (t->name && strlen(t->name) == n && !memcmp(t->name, name, n))
        return 0;
    int differs = t->name != NULL;
    if (differs && keep_first)
        return 1;
    const char *s = tt_profile_str(p, name, n);
    if (s)
        t->name = s;
    return differs;
}

void tt_thread_set_main(tt_profile *p, uint32_t utid)
{
    TT_VEC_AT(&p->threads, tt_thread, utid).is_main = 1;
}

void tt_thread_set_no_thread(tt_profile *p, uint32_t utid)
{
    TT_VEC_AT(&p->threads, tt_thread, utid).no_thread = 1;
}

void tt_thread_set_no_root(tt_profile *p, uint32_t utid)
{
    TT_VEC_AT(&p->threads, tt_thread, utid).no_root = 1;
}

int tt_thread_format(tt_buf *b, const tt_profile *p, uint32_t utid)
{
    const tt_thread *t = tt_profile_thread(p, utid);
    if (t->name && t->name[0])
        return tt_buf_puts(b, t->name);
    if (t->tid < 0) /* perf script -F without tid and comm */
        return tt_buf_puts(b, "[no tid]");
    return tt_buf_printf(b, "Thread-%lld", (long long)t->tid);
}

static int by_tid(const void *a, const void *b)
{
    const tt_proc_ent *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->source != y->source)
        return x->source < y->source ? -1 : 1;
    return (x->utid > y->utid) - (x->utid < y->utid);
}

int tt_proc_index_build(tt_proc_index *x, const tt_profile *p, int by_input)
{
    size_t n = tt_profile_nthreads(p);
    x->n = 0;
    x->by_input = by_input;
    x->e = malloc((n ? n : 1) * sizeof *x->e);
    if (!x->e)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const tt_thread *m = tt_profile_thread(p, (uint32_t)i);
        if (m->name && m->name[0])
            x->e[x->n++] = (tt_proc_ent){m->tid, by_input ? m->source : 0, (uint32_t)i};
    }
    qsort(x->e, x->n, sizeof *x->e, by_tid);
    return 0;
}

void tt_proc_index_free(tt_proc_index *x)
{
    free(x->e);
    x->e = NULL;
    x->n = 0;
}

int tt_thread_process_format(tt_buf *b, const tt_profile *p, const tt_proc_index *x,
                             uint32_t utid)
{
    const tt_thread *t = tt_profile_thread(p, utid);
    if (t->no_thread) /* samples without a thread: no process's, not the input's */
        return tt_buf_puts(b, "unknown");
    /* without a pid: the profile's process when it is the thread's input's */
    if (t->pid < 0)
        return tt_buf_puts(b, p->meta.process && tt__meta_owns(p, t) ? p->meta.process
                                                                      : "unknown");
    /* its own input's name first, as Chrome's process_name of the processes it splits
     * apart by input; another input's main thread names a process of its own there */
    uint32_t src = x->by_input ? t->source : 0;
    const char *named = x->by_input ? tt__profile_source_pid_name(p, src, t->pid) : NULL;
    if (named || (named = tt_profile_pid_name(p, t->pid)))
        return tt_buf_puts(b, named);
    size_t lo = 0, hi = x->n; /* the first named thread of its input whose tid is the pid */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const tt_proc_ent *e = &x->e[mid];
        if (e->tid < t->pid || (e->tid == t->pid && e->source < src))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < x->n && x->e[lo].tid == t->pid && x->e[lo].source == src)
        return tt_buf_puts(b, tt_profile_thread(p, x->e[lo].utid)->name);
    return tt_buf_printf(b, "[pid %lld]", (long long)t->pid);
}

int tt__meta_owns(const tt_profile *p, const tt_thread *t)
{
    return p->meta.pid_source == TT_NONE || t->source == p->meta.pid_source;
}

int64_t tt_thread_pid(const tt_profile *p, uint32_t utid)
{
    const tt_thread *t = tt_profile_thread(p, utid);
    if (t->no_thread || t->pid >= 0)
        return t->no_thread ? -1 : t->pid;
    return tt__meta_owns(p, t) ? p->meta.pid : -1;
}

int tt_profile_meta_claim(tt_profile *p, uint32_t source)
{
    if (p->meta.pid_source == source)
        return 0;
    /* the name the other input gave its pid stays that pid's (tt_profile_pid_name); a name
     * given without a pid is kept too, with pid -1, for the document name
     * (tt__export_process), but names no pid: the lookups below skip it */
    if (p->meta.process &&
        !tt_vec_push(&p->pnames, &(tt__pname){p->meta.pid, p->meta.process, p->meta.pid_source}))
        return TT_ENOMEM;
    p->meta.pid = -1;
    p->meta.process = NULL;
    p->meta.pid_source = source;
    return 0;
}

const char *tt_profile_pid_name(const tt_profile *p, int64_t pid)
{
    const char *best = pid == p->meta.pid ? p->meta.process : NULL;
    for (size_t i = 0; i < p->pnames.len; i++) {
        const tt__pname *n = &TT_VEC_AT(&p->pnames, tt__pname, i);
        if (n->pid >= 0 && n->pid == pid && (!best || strcmp(n->name, best) < 0))
            best = n->name;
    }
    return best;
}

const char *tt__profile_source_pid_name(const tt_profile *p, uint32_t source, int64_t pid)
{
    if (p->meta.pid_source == source && pid == p->meta.pid && p->meta.process)
        return p->meta.process;
    for (size_t i = 0; i < p->pnames.len; i++) {
        const tt__pname *n = &TT_VEC_AT(&p->pnames, tt__pname, i);
        if (n->pid >= 0 && n->pid == pid && n->source == source)
            return n->name;
    }
    return NULL;
}

void tt_profile_meta_timeless(tt_profile *p, uint32_t source)
{
    if (!p->meta.timeless)
        p->meta.timeless_source = source;
    p->meta.timeless = 1;
}

void tt_sample_init(tt_sample *s)
{
    memset(s, 0, sizeof *s);
    s->cpu = s->end_cpu = -1;
    s->weight = 1;
    s->count = 1;
    s->waker_utid = s->waker_seq = s->ctr = TT_NONE;
}

#define TIME_LIMIT ((int64_t)1 << 62)
#define WEIGHT_LIMIT ((int64_t)1 << 40)

static int in_range(const tt_sample *s, int runs)
{
    /* keeps every difference, midpoint and sum of the slice builder inside int64; a run's
     * weight is the sum of its count samples' (a database's sample rows) */
    int has_end = s->is_interval || runs;
    return s->ts >= -TIME_LIMIT && s->ts <= TIME_LIMIT &&
           (!has_end || (s->end_ts >= s->ts && s->end_ts <= TIME_LIMIT)) &&
           s->cpu >= -1 && s->cpu <= TIME_LIMIT &&
           (!has_end || (s->end_cpu >= -1 && s->end_cpu <= TIME_LIMIT)) &&
           s->weight >= 0 && s->weight / (runs && s->count > 1 ? s->count : 1) <= WEIGHT_LIMIT;
}

int tt_profile_add(tt_profile *p, const tt_sample *s, const tt_counters *c)
{
    if (p->finished || s->callsite >= p->callsites.len || s->utid >= p->threads.len)
        return TT_EINVAL;
    if (!in_range(s, p->meta.runs))
        return TT_ELIMIT;
    if (p->samples.len >= TT_NONE - 1)
        return TT_ELIMIT;
    tt_sample *d = tt_vec_push(&p->samples, s);
    if (!d)
        return TT_ENOMEM;
    d->seq = (uint32_t)(p->samples.len - 1);
    if (!d->count)
        d->count = 1;
    d->ctr = TT_NONE;
    if (c && c->known) {
        tt__ctr_packed pk;
        for (int k = 0; k < TT_CTR_MAJ_FLT; k++)
            pk.alloc[k] = c->v[k];
        for (int k = TT_CTR_MAJ_FLT; k < TT_CTR_COUNT; k++)
            pk.rusage[k - TT_CTR_MAJ_FLT] = (uint32_t)c->v[k];
        pk.known = c->known;
        if (!tt_vec_push(&p->counters, &pk)) {
            p->samples.len--;
            return TT_ENOMEM;
        }
        d->ctr = (uint32_t)(p->counters.len - 1);
    }
    if (!d->is_interval && !p->meta.runs)
        d->end_ts = d->ts, d->end_cpu = d->cpu;
    return 0;
}

int tt_profile_reserve(tt_profile *p, size_t n, int with_counters)
{
    if (n > SIZE_MAX / 2 - p->samples.len || tt_vec_reserve(&p->samples, p->samples.len + n) ||
        (with_counters && tt_vec_reserve(&p->counters, p->counters.len + n)))
        return TT_ENOMEM;
    return 0;
}

void tt__profile_reserve_rest(tt_profile *p, size_t added, uint64_t done, uint64_t total)
{
    if (added < 64 || !done || total / 2 < done)
        return;
    double est = (double)added * ((double)total / (double)done) * 1.125;
    if (est < (double)((size_t)1 << 40) && est > (double)added)
        (void)tt_profile_reserve(p, (size_t)est - added, 0); /* a hint: growth goes on without */
}

typedef struct skey {
    int64_t ts;
    uint32_t seq, idx;
} skey;

static int by_time(const void *a, const void *b)
{
    const skey *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* (t, seq) of an interval's end item before (t, seq) of a point sample's item (5.1) */
static int end_before(const skey *e, const tt_sample *x)
{
    return e->ts < x->ts || (e->ts == x->ts && e->seq < x->seq);
}

/* p->run_brk of one thread o[0..n-1] in time order; *ends (room for *cap) grows to its
 * interval samples. The items of a run are only its first and last sample, so a run must not
 * contain the end item of an interval that began before it (5.2; 5.3 rule 2 closes the leaf
 * there). An end item between two consecutive samples is of an interval at or before the
 * first of them. */
static int thread_run_breaks(tt_profile *p, const uint32_t *o, size_t n, skey **ends,
                             size_t *cap)
{
    const tt_sample *s = p->samples.data;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += s[o[i]].is_interval;
    if (!m)
        return 0;
    if (m > *cap) {
        skey *e = realloc(*ends, m * sizeof *e);
        if (!e)
            return TT_ENOMEM;
        *ends = e;
        *cap = m;
    }
    skey *k = *ends;
    m = 0;
    for (size_t i = 0; i < n; i++)
        if (s[o[i]].is_interval)
            k[m++] = (skey){s[o[i]].end_ts, s[o[i]].seq, o[i]};
    qsort(k, m, sizeof *k, by_time);
    size_t e = 0;
    for (size_t i = 1; i < n; i++) {
        const tt_sample *a = &s[o[i - 1]], *b = &s[o[i]];
        while (e < m && end_before(&k[e], a))
            e++;
        if (e < m && end_before(&k[e], b) && !a->is_interval && !b->is_interval) {
            if (!p->run_brk && !(p->run_brk = calloc(p->samples.len, 1)))
                return TT_ENOMEM;
            p->run_brk[b->seq] = 1; /* seq: the sample's index */
        }
    }
    return 0;
}

static int mark_run_breaks(tt_profile *p)
{
    skey *ends = NULL;
    size_t cap = 0;
    int rc = 0;
    for (size_t t = 0; t < p->threads.len && !rc; t++)
        rc = thread_run_breaks(p, p->order + p->toff[t], p->toff[t + 1] - p->toff[t], &ends,
                               &cap);
    free(ends);
    return rc;
}

int tt_profile_finish(tt_profile *p, tt_error *err)
{
    if (p->finished)
        return 0;
    size_t nt = p->threads.len, ns = p->samples.len;
    p->toff = calloc(nt + 1, sizeof *p->toff);
    p->order = malloc((ns ? ns : 1) * sizeof *p->order);
    if (!p->toff || !p->order)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    const tt_sample *s = p->samples.data;
    for (size_t i = 0; i < ns; i++)
        p->toff[s[i].utid + 1]++;
    for (size_t t = 0; t < nt; t++)
        p->toff[t + 1] += p->toff[t];
    size_t *fill = malloc((nt ? nt : 1) * sizeof *fill);
    if (!fill)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(fill, p->toff, nt * sizeof *fill);
    for (size_t i = 0; i < ns; i++)
        p->order[fill[s[i].utid]++] = (uint32_t)i;
    free(fill);
    /* stable grouping keeps input order; sort only the threads that are out of order
     * (btrace writes interval records when they end, JSON-lines need not be sorted) */
    for (size_t t = 0; t < nt; t++) {
        uint32_t *o = p->order + p->toff[t];
        size_t n = p->toff[t + 1] - p->toff[t];
        int sorted = 1;
        for (size_t i = 1; i < n && sorted; i++)
            sorted = s[o[i - 1]].ts <= s[o[i]].ts;
        if (!sorted) {
            skey *k = malloc(n * sizeof *k);
            if (!k)
                return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
            for (size_t i = 0; i < n; i++)
                k[i] = (skey){s[o[i]].ts, s[o[i]].seq, o[i]};
            qsort(k, n, sizeof *k, by_time);
            for (size_t i = 0; i < n; i++)
                o[i] = k[i].idx;
            free(k);
        }
    }
    if (!p->meta.runs && mark_run_breaks(p))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    p->finished = 1;
    return 0;
}

const uint32_t *tt_profile_thread_order(const tt_profile *p, uint32_t utid, size_t *n)
{
    if (!p->finished || utid >= p->threads.len) {
        *n = 0;
        return NULL;
    }
    *n = p->toff[utid + 1] - p->toff[utid];
    return p->order + p->toff[utid];
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void swap_i64(int64_t *a, int64_t *b)
{
    int64_t t = *a;
    *a = *b;
    *b = t;
}

int64_t tt__select_i64(int64_t *d, size_t n, size_t k)
{
    /* quickselect with a median-of-three pivot; after 2 log2(n) rounds without converging
     * the rest is sorted, so the worst case stays n log n */
    size_t lo = 0, hi = n - 1, budget = 2;
    for (size_t m = n; m > 1; m >>= 1)
        budget += 2;
    while (lo < hi) {
        if (!budget--) {
            qsort(d + lo, hi - lo + 1, sizeof *d, cmp_i64);
            break;
        }
        size_t mi = lo + (hi - lo) / 2;
        if (d[mi] < d[lo])
            swap_i64(&d[mi], &d[lo]);
        if (d[hi] < d[lo])
            swap_i64(&d[hi], &d[lo]);
        if (d[hi] < d[mi])
            swap_i64(&d[hi], &d[mi]);
        int64_t pv = d[mi];
        size_t i = lo, j = hi;
        while (i <= j) { /* Hoare partition: [lo, j] <= pv <= [i, hi] */
            while (d[i] < pv)
                i++;
            while (d[j] > pv)
                j--;
            if (i <= j) {
                swap_i64(&d[i], &d[j]);
                i++;
                if (j-- == 0)
                    break;
            }
        }
        if (k <= j && j != (size_t)-1)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break; /* k lies between the parts: d[k] == pv */
    }
    return d[k];
}

typedef struct wval {
    int64_t v;
    uint64_t w;
} wval;

static int cmp_wval(const void *a, const void *b)
{
    return cmp_i64(&((const wval *)a)->v, &((const wval *)b)->v);
}

/* Median interval of a thread of stored runs: a run of n samples over dur stands for n - 1
 * intervals of dur / (n - 1) (the single intervals are not stored), the time from one run's
 * last sample to the next run's first is one interval. -1 without intervals. */
static int64_t runs_median(const tt_profile *p, const uint32_t *o, size_t n)
{
    const tt_sample *s = p->samples.data;
    wval *d = malloc((2 * n + 1) * sizeof *d);
    if (!d)
        return -1;
    size_t m = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const tt_sample *x = &s[o[i]];
        if (x->count > 1 && !x->is_interval && x->end_ts >= x->ts) {
            d[m++] = (wval){(x->end_ts - x->ts) / (x->count - 1), x->count - 1};
            total += x->count - 1;
        }
        if (i > 0) {
            const tt_sample *q = &s[o[i - 1]];
            int64_t a = q->end_ts > q->ts ? q->end_ts : q->ts;
            if (x->ts >= a) {
                d[m++] = (wval){x->ts - a, 1};
                total++;
            }
        }
    }
    int64_t med = -1;
    if (m) {
        qsort(d, m, sizeof *d, cmp_wval);
        uint64_t want = (total - 1) / 2, seen = 0;
        for (size_t i = 0; i < m && med < 0; i++) {
            seen += d[i].w;
            if (seen > want)
                med = d[i].v;
        }
    }
    free(d);
    return med;
}

static int64_t auto_gap(const tt_profile *p, uint32_t utid);

/* The automatic gap of a finished profile's thread is worked out once (the aggregates and the
 * slices both need it: a pass over the thread's samples and a selection) and kept in the
 * profile, which callers do not share between threads while they call this. */
int64_t tt_profile_max_gap(const tt_profile *p, uint32_t utid, int64_t max_gap)
{
    if (max_gap != TT_GAP_AUTO)
        return max_gap;
    if (!p->finished || utid >= p->threads.len)
        return auto_gap(p, utid);
    tt_profile *w = (tt_profile *)p;
    if (!w->gap_auto && !(w->gap_auto = calloc(p->threads.len, sizeof *w->gap_auto)))
        return auto_gap(p, utid);
    if (!w->gap_auto[utid])
        w->gap_auto[utid] = auto_gap(p, utid);
    return w->gap_auto[utid];
}

static int64_t auto_gap(const tt_profile *p, uint32_t utid)
{
    size_t n;
    const uint32_t *o = tt_profile_thread_order(p, utid, &n);
    const tt_sample *s = p->samples.data;
    int64_t med = 1000000; /* no intervals: as for 1 ms sampling */
    if (p->meta.runs) {
        int64_t r = runs_median(p, o, n);
        if (r >= 0)
            med = r;
    } else if (n >= 2) {
        int64_t *d = malloc((n - 1) * sizeof *d);
        if (d) {
            size_t m = 0;
            for (size_t i = 1; i < n; i++) {
                int64_t a = s[o[i - 1]].end_ts > s[o[i - 1]].ts ? s[o[i - 1]].end_ts
                                                                 : s[o[i - 1]].ts;
                int64_t b = s[o[i]].ts;
                if (b >= a)
                    d[m++] = b - a;
            }
            if (m)
                med = tt__select_i64(d, m, (m - 1) / 2);
            free(d);
        }
    }
    int64_t g = med > INT64_MAX / 20 ? INT64_MAX : med * 20;
    if (g < 5000000)
        g = 5000000;
    if (g > 200000000)
        g = 200000000;
    return g;
}

/* Same type class (4.3): a custom sample is not merged into cpu samples. */
static int mergeable(const tt_profile *p, const tt_sample *a, const tt_sample *b,
                     int64_t max_gap)
{
    return !(p->run_brk && p->run_brk[b->seq]) && a->callsite == b->callsite &&
           a->msg_id == b->msg_id && !a->is_interval && !b->is_interval && a->type == b->type &&
           b->ts - a->ts <= max_gap && a->waker_utid == TT_NONE && b->waker_utid == TT_NONE;
}

static void run_from(tt_run *r, const tt_sample *s, uint32_t idx)
{
    r->ts = s->ts;
    r->end_ts = s->end_ts;
    r->cpu = s->cpu;
    r->end_cpu = s->end_cpu;
    r->weight = s->weight;
    r->msg_id = s->msg_id;
    r->callsite = s->callsite;
    r->count = s->count;
    r->first = r->last = idx;
    r->waker_utid = s->waker_utid;
    r->waker_seq = s->waker_seq;
    r->type = s->type;
    r->is_blocking = s->is_blocking;
    r->is_interval = s->is_interval;
}

int tt__run_next(tt_run *r, const tt_profile *p, const uint32_t *o, size_t n, size_t *pos,
                 int64_t max_gap_ns)
{
    size_t i = *pos;
    if (i >= n)
        return 0;
    const tt_sample *s = p->samples.data;
    run_from(r, &s[o[i]], o[i]);
    /* stored runs (a profile read back from a database) are already merged */
    for (i++; i < n && !p->meta.timeless && !p->meta.runs; i++) {
        const tt_sample *x = &s[o[i]];
        if (!mergeable(p, &s[r->last], x, max_gap_ns) || r->count >= UINT32_MAX - x->count)
            break;
        r->end_ts = x->end_ts;
        r->end_cpu = x->end_cpu;
        r->weight = tt__sat_add(r->weight, x->weight);
        r->count += x->count;
        r->last = o[i];
    }
    *pos = i;
    return 1;
}

int tt__run_starts(const tt_profile *p, const uint32_t *o, size_t j, int64_t max_gap_ns)
{
    const tt_sample *s = p->samples.data;
    return j == 0 || p->meta.timeless || p->meta.runs ||
           !mergeable(p, &s[o[j - 1]], &s[o[j]], max_gap_ns);
}

int tt_profile_runs(tt_vec *out, const tt_profile *p, uint32_t utid, int64_t max_gap_ns)
{
    out->len = 0;
    size_t n, pos = 0;
    const uint32_t *o = tt_profile_thread_order(p, utid, &n);
    tt_run r;
    while (tt__run_next(&r, p, o, n, &pos, max_gap_ns))
        if (!tt_vec_push(out, &r))
            return TT_ENOMEM;
    return 0;
}

const uint8_t *tt__callsite_recursive(tt_profile *p)
{
    size_t n = p->callsites.len;
    if (p->cs_rec && p->cs_rec_n == n)
        return p->cs_rec;
    uint8_t *r = realloc(p->cs_rec, n ? n : 1);
    if (!r)
        return NULL;
    const tt_callsite *c = p->callsites.data;
    for (size_t i = p->cs_rec_n; i < n; i++) {
        r[i] = 0;
        for (uint32_t a = c[i].parent; a != TT_NONE; a = c[a].parent)
            if (c[a].frame == c[i].frame) {
                r[i] = 1;
                break;
            }
    }
    p->cs_rec = r;
    p->cs_rec_n = n;
    return r;
}

int tt_profile_set_slices(tt_profile *p, uint32_t utid, const tt_slice *s, size_t n)
{
    if (utid >= p->threads.len)
        return TT_EINVAL;
    if (p->nfixed < p->threads.len) {
        tt_vec *f = realloc(p->fixed, p->threads.len * sizeof *f);
        if (!f)
            return TT_ENOMEM;
        for (size_t i = p->nfixed; i < p->threads.len; i++)
            tt_vec_init(&f[i], sizeof(tt_slice));
        p->fixed = f;
        p->nfixed = p->threads.len;
    }
    tt_vec *v = &p->fixed[utid];
    v->len = 0;
    if (tt_vec_reserve(v, n ? n : 1))
        return TT_ENOMEM;
    if (n)
        memcpy(v->data, s, n * sizeof *s);
    v->len = n;
    return 0;
}
