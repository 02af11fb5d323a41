/* Startup analysis context (startup.md 5.5): rows, launches and Matrix reports, their
 * statistics and pairing. Native start types and segments are in startup_native.c, Matrix's
 * state machine in startup_matrix.c, names and the splash set in startup_names.c. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"


int tt_startup_new(tt_startup **out, const tt_su_opts *opts, tt_stats *stats, tt_error *err)
{
    if (opts->have_base && (opts->base_ms < -TT_MS_MAX || opts->base_ms > TT_MS_MAX))
        return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "base_ms %lld out of range (%lld..%lld ms)",
                            (long long)opts->base_ms, -TT_MS_MAX, TT_MS_MAX);
    tt_startup *s = calloc(1, sizeof *s);
    if (!s || !(s->arena = tt_arena_new())) {
        free(s);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    s->o = *opts;
    /* a threshold given is used as given, 0 included (startup(1)) */
    if (!s->o.has_cold_ms || s->o.cold_ms < 0)
        s->o.cold_ms = TT_SU_COLD_MS_DEFAULT;
    if (!s->o.has_warm_ms || s->o.warm_ms < 0)
        s->o.warm_ms = TT_SU_WARM_MS_DEFAULT;
    s->stats = stats;
    tt_vec_init(&s->strs, sizeof(const char *));
    tt_vec_init(&s->ev, sizeof(tt__su_event));
    tt_vec_init(&s->rows, sizeof(tt_su_row));
    tt_vec_init(&s->matrix, sizeof(tt_su_matrix *));
    tt_vec_init(&s->launches, sizeof(tt_su_launch));
    tt_vec_init(&s->last_logcat, sizeof(size_t));
    tt_vec_init(&s->reports, sizeof(tt_su_matrix *));
    if (tt_startup__parse_splash(s)) {
        tt_startup_free(s);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    *out = s;
    return 0;
}

void tt_startup_free(tt_startup *s)
{
    if (!s)
        return;
    tt_vec_free(&s->strs);
    tt_vec_free(&s->ev);
    tt_vec_free(&s->rows);
    tt_vec_free(&s->matrix);
    tt_vec_free(&s->launches);
    tt_vec_free(&s->last_logcat);
    tt_vec_free(&s->reports);
    free(s->hash);
    tt_arena_free(s->arena);
    free(s);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The mean of v[0..n) truncated toward zero, exactly and without overflow: the sum of the
 * floor quotients by n, plus the carries of the remainders. */
static int64_t trunc_mean(const int64_t *v, size_t n)
{
    if (n > (size_t)INT64_MAX)
        return 0; /* unreachable: the values are in memory */
    int64_t nn = (int64_t)n, q = 0, r = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t qi = v[i] / nn, ri = v[i] % nn;
        if (ri < 0) {
            ri += nn;
            qi--;
        }
        q += qi;
        r += ri; /* both below nn: no overflow */
        if (r >= nn) {
            r -= nn;
            q++;
        }
    }
    return q < 0 && r > 0 ? q + 1 : q; /* floor to truncation */
}

void tt_su_dist_compute(tt_su_dist *d, int64_t *v, size_t n)
{
    memset(d, 0, sizeof *d);
    if (n == 0)
        return;
    qsort(v, n, sizeof *v, cmp_i64);
    d->count = n;
    d->min = v[0];
    d->max = v[n - 1];
    d->mean = trunc_mean(v, n);
    if (n % 2)
        d->median = v[n / 2];
    else {
        int64_t a = v[n / 2 - 1], b = v[n / 2];
        d->median = a / 2 + b / 2 + (a % 2 + b % 2) / 2; /* truncated mean, no overflow */
    }
    size_t r = (90 * n + 99) / 100; /* nearest rank (frames.md 6.2) */
    d->p90 = v[(r ? r : 1) - 1];
}

/* ---- results ---- */
const tt_su_row *tt_startup_rows(const tt_startup *s, size_t *n)
{
    *n = s->rows.len;
    return s->rows.data;
}

const tt_su_launch *tt_startup_launches(const tt_startup *s, size_t *n)
{
    *n = s->launches.len;
    return s->launches.data;
}

const tt_su_matrix *const *tt_startup_matrix(const tt_startup *s, size_t *n)
{
    *n = s->matrix.len;
    return (const tt_su_matrix *const *)s->matrix.data;
}

const tt_su_dist *tt_startup_am_stats(const tt_startup *s) { return &s->am; }
const tt_su_dist *tt_startup_logcat_stats(const tt_startup *s) { return &s->logcat; }

/* ---- Matrix-style objects (method-beat.md 7.3, 7.6) ---- */
void tt_su_matrix_json(tt_jsonw *w, const tt_su_matrix *m, int issue)
{
    tt_jsonw_obj_begin(w);
    if (!issue) {
        tt_jsonw_key(w, "application_create");
        tt_jsonw_int(w, m->application_create);
        tt_jsonw_key(w, "application_create_scene");
        tt_jsonw_int(w, m->scene);
        tt_jsonw_key(w, "first_activity_create");
        tt_jsonw_int(w, m->first_activity_create);
        tt_jsonw_key(w, "startup_duration");
        tt_jsonw_int(w, m->startup_duration);
        tt_jsonw_key(w, "is_warm_start_up");
        tt_jsonw_bool(w, m->is_warm);
    } else {
        tt_jsonw_key(w, "detail");
        tt_jsonw_str(w, "STARTUP");
        tt_jsonw_key(w, "cost");
        tt_jsonw_int(w, m->cost);
        tt_jsonw_key(w, "stack");
        tt_jsonw_str(w, m->stack);
        tt_jsonw_key(w, "stackKey");
        tt_jsonw_str(w, m->stack_key);
        tt_jsonw_key(w, "subType");
        tt_jsonw_int(w, m->sub_type);
    }
    tt_jsonw_key(w, "tag");
    tt_jsonw_str(w, issue ? "Trace_EvilMethod" : "Trace_StartUp");
    if (m->process_name) {
        tt_jsonw_key(w, "process");
        tt_jsonw_str(w, m->process_name);
    }
    int64_t t = issue ? m->issue_time_ms : m->time_ms;
    if (t >= 0) {
        tt_jsonw_key(w, "time");
        tt_jsonw_int(w, t);
    }
    tt_jsonw_obj_end(w);
}

/* ---- Matrix reports (4.1) ---- */
static const char *dup_or_null(tt_startup *s, const char *p)
{
    if (!p)
        return NULL;
    uint32_t id = tt_startup__intern(s, p, strlen(p));
    return id == TT__SU_NONE ? NULL : tt_startup__str(s, id);
}

int tt_startup_add_report(tt_startup *s, const tt_su_report *r, tt_error *err)
{
    tt_su_matrix *m = tt_arena_alloc(s->arena, sizeof *m);
    if (!m)
        return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
    memset(m, 0, sizeof *m);
    m->process_name = dup_or_null(s, r->process);
    m->file = dup_or_null(s, r->file);
    m->time_ms = r->time_ms;
    m->issue_time_ms = r->is_issue ? r->time_ms : -1;
    m->all_cost = -1;
    m->at_ms = -1;
    m->stack = m->stack_key = "";
    if (r->is_issue) {
        m->has_issue = 1;
        m->issue_ref = r->ref;
        m->cost = r->cost;
        m->sub_type = r->sub_type;
        m->is_warm = r->sub_type == 2;
        m->startup_duration = r->cost;
        m->issue_only = 1;
        m->application_create = m->first_activity_create = -1;
        m->scene = TT_SU_SCENE_UNKNOWN;
        m->stack = dup_or_null(s, r->stack ? r->stack : "");
        m->stack_key = dup_or_null(s, r->stack_key ? r->stack_key : "");
    } else {
        m->application_create = r->application_create;
        m->first_activity_create = r->first_activity_create;
        m->startup_duration = r->startup_duration;
        m->scene = r->scene;
        m->is_warm = r->is_warm;
        m->sub_type = r->is_warm ? 2 : 1;
    }
    m->stack_collected = m->startup_duration >= (m->is_warm ? s->o.warm_ms : s->o.cold_ms);
    m->process = UINT32_MAX; /* set at finish; UINT32_MAX - 2 marks an attached issue */
    if ((r->process && !m->process_name) || (r->file && !m->file) || !m->stack || !m->stack_key ||
        !tt_vec_push(&s->reports, &m))
        return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
    return 0;
}

/* Orders Trace_StartUp reports by (process, startup_duration, time) for the attachment
 * search; unknown times (-1) sort first. */
static int cmp_startup(const void *a, const void *b)
{
    const tt_su_matrix *x = *(tt_su_matrix *const *)a, *y = *(tt_su_matrix *const *)b;
    if (x->process_name != y->process_name) /* interned: compare the pointers */
        return (uintptr_t)x->process_name < (uintptr_t)y->process_name ? -1 : 1;
    if (x->startup_duration != y->startup_duration)
        return x->startup_duration < y->startup_duration ? -1 : 1;
    if (x->time_ms != y->time_ms)
        return x->time_ms < y->time_ms ? -1 : 1;
    return 0;
}

/* First index of sorted[0..n) not ordered before (proc, dur, time). */
static size_t lower_bound(tt_su_matrix **sorted, size_t n, const tt_su_matrix *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_startup(&sorted[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The Trace_StartUp report of the same process whose startup_duration equals the issue's
 * cost and whose time is nearest, within 60 s (4.1); both times unknown also match. */
static tt_su_matrix *find_startup(tt_su_matrix **sorted, size_t n, const tt_su_matrix *is)
{
    tt_su_matrix key = *is;
    key.startup_duration = is->cost;
    size_t i = lower_bound(sorted, n, &key);
    tt_su_matrix *best = NULL;
    int64_t bd = 0;
    for (size_t k = i > 0 ? i - 1 : 0; k < n && k <= i; k++) {
        tt_su_matrix *m = sorted[k];
        if (m->process_name != is->process_name || m->startup_duration != is->cost)
            continue;
        if ((m->time_ms < 0) != (is->time_ms < 0))
            continue;
        int64_t d = is->time_ms < 0 ? 0
                    : m->time_ms > is->time_ms ? m->time_ms - is->time_ms
                                               : is->time_ms - m->time_ms;
        if (d <= 60000 && (!best || d < bd))
            best = m, bd = d;
    }
    return best;
}

/* Time between a Trace_StartUp report and a STARTUP issue (both unknown: 0). */
static int64_t issue_distance(const tt_su_matrix *st, const tt_su_matrix *is)
{
    if (st->time_ms < 0 || is->time_ms < 0)
        return 0;
    return st->time_ms > is->time_ms ? st->time_ms - is->time_ms : is->time_ms - st->time_ms;
}

static int report_rows(tt_startup *s)
{
    tt_su_matrix **sorted = malloc((s->reports.len + 1) * sizeof *sorted);
    if (!sorted)
        return TT_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < s->reports.len; i++) {
        tt_su_matrix *m = TT_VEC_AT(&s->reports, tt_su_matrix *, i);
        if (!m->issue_only)
            sorted[n++] = m;
    }
    qsort(sorted, n, sizeof *sorted, cmp_startup);
    for (size_t i = 0; i < s->reports.len; i++) {
        tt_su_matrix *m = TT_VEC_AT(&s->reports, tt_su_matrix *, i);
        if (!m->issue_only)
            continue;
        tt_su_matrix *st = find_startup(sorted, n, m);
        if (!st)
            continue;
        /* one issue per startup: a second one matching it keeps it only when nearer in
         * time (the first on a tie); the other is listed on its own, never dropped */
        if (st->has_issue) {
            if (issue_distance(st, m) >= issue_distance(st, st->issue))
                continue;
            st->issue->process = UINT32_MAX;
        }
        st->has_issue = 1;
        st->issue = m;
        st->cost = m->cost;
        st->stack = m->stack;
        st->stack_key = m->stack_key;
        st->issue_time_ms = m->time_ms;
        st->issue_ref = m->issue_ref;
        m->process = UINT32_MAX - 2; /* attached: no row of its own */
    }
    free(sorted);
    for (size_t i = 0; i < s->reports.len; i++) {
        tt_su_matrix *m = TT_VEC_AT(&s->reports, tt_su_matrix *, i);
        if (m->process == UINT32_MAX - 2)
            continue;
        m->process = s->nproc++;
        tt_su_row r = {0};
        r.type = m->is_warm ? TT_SU_WARM : TT_SU_COLD;
        r.source = "matrix_report";
        r.file = m->file;
        r.process = m->process;
        r.matrix = m;
        r.vitals_basis = "matrix";
        r.has_stack = 1;
        r.stack = m->stack;
        r.stack_key = m->stack_key;
        r.stack_cost = m->startup_duration;
        tt_startup__row_flags(s, &r);
        if (!tt_vec_push(&s->rows, &r))
            return TT_ENOMEM;
    }
    return 0;
}

static int launch_stats(tt_startup *s)
{
    int64_t *am = malloc((s->launches.len + 1) * sizeof *am);
    int64_t *lc = malloc((s->launches.len + 1) * sizeof *lc);
    if (!am || !lc) {
        free(am);
        free(lc);
        return TT_ENOMEM;
    }
    size_t na = 0, nl = 0;
    for (size_t i = 0; i < s->launches.len; i++) {
        const tt_su_launch *l = &TT_VEC_AT(&s->launches, tt_su_launch, i);
        if (!l->has_total || l->not_launched)
            continue;
        if (!strcmp(l->source, "logcat"))
            lc[nl++] = l->total_ms;
        else if (l->status && !strcmp(l->status, "ok"))
            am[na++] = l->total_ms;
    }
    tt_su_dist_compute(&s->am, am, na);
    tt_su_dist_compute(&s->logcat, lc, nl);
    free(am);
    free(lc);
    return 0;
}

int tt_startup_finish(tt_startup *s, tt_error *err)
{
    if (s->finished)
        return 0;
    s->finished = 1;
    if (report_rows(s) || launch_stats(s))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}
