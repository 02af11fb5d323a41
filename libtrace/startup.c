/* Startup analysis: Matrix's startup state machine (startup.md 1.4-1.5), replayed exactly,
 * and the context that holds rows, launches and reports (5.5). Native start types and
 * segments are in startup_native.c. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define COLD_DEFAULT_MS 10000
#define WARM_DEFAULT_MS 4000
#define GUARD_MS 30000 /* Matrix's create->focus guard */

static const char *const type_names[] = {"cold", "warm", "hot", "unknown"};

const char *tt_su_type_name(int type)
{
    return type >= 0 && type <= TT_SU_UNKNOWN ? type_names[type] : "unknown";
}

/* ---- interning ---- */
static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

static int rehash(tt_startup *s, size_t cap)
{
    uint32_t *h = malloc(cap * sizeof *h);
    if (!h)
        return TT_ENOMEM;
    memset(h, 0xFF, cap * sizeof *h);
    for (uint32_t id = 0; id < s->strs.len; id++) {
        const char *str = TT_VEC_AT(&s->strs, const char *, id);
        size_t j = hash_bytes(str, strlen(str)) & (cap - 1);
        while (h[j] != TT__SU_NONE)
            j = (j + 1) & (cap - 1);
        h[j] = id;
    }
    free(s->hash);
    s->hash = h;
    s->hash_cap = cap;
    return 0;
}

uint32_t tt_startup__intern(tt_startup *s, const char *p, size_t n)
{
    if ((s->strs.len + 1) * 2 > s->hash_cap && rehash(s, s->hash_cap ? s->hash_cap * 2 : 64))
        return TT__SU_NONE;
    size_t j = hash_bytes(p, n) & (s->hash_cap - 1);
    while (s->hash[j] != TT__SU_NONE) {
        const char *str = TT_VEC_AT(&s->strs, const char *, s->hash[j]);
        if (!strncmp(str, p, n) && str[n] == 0)
            return s->hash[j];
        j = (j + 1) & (s->hash_cap - 1);
    }
    char *c = tt_arena_strndup(s->arena, p, n);
    if (!c || s->strs.len >= TT__SU_NONE - 1 || !tt_vec_push(&s->strs, &c))
        return TT__SU_NONE;
    s->hash[j] = (uint32_t)(s->strs.len - 1);
    return s->hash[j];
}

const char *tt_startup__str(const tt_startup *s, uint32_t id)
{
    return id < s->strs.len ? TT_VEC_AT(&s->strs, const char *, id) : NULL;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int parse_splash(tt_startup *s)
{
    const char *p = s->o.splash;
    if (!p || !*p)
        return 0;
    size_t cap = strlen(p) / 2 + 1, n = 0;
    s->splash = tt_arena_alloc(s->arena, cap * sizeof *s->splash);
    if (!s->splash)
        return TT_ENOMEM;
    while (*p) {
        const char *e = strchr(p, ';');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *q = p;
        size_t qn = len;
        tt__trim(&q, &qn);
        while (qn && *q == ' ')
            q++, qn--;
        if (qn) {
            uint32_t id = tt_startup__intern(s, q, qn);
            if (id == TT__SU_NONE)
                return TT_ENOMEM;
            s->splash[n++] = id;
        }
        p += len + (e ? 1 : 0);
    }
    qsort(s->splash, n, sizeof *s->splash, cmp_u32);
    s->n_splash = n;
    return 0;
}

int tt_startup__is_splash(const tt_startup *s, uint32_t cls)
{
    return s->n_splash && bsearch(&cls, s->splash, s->n_splash, sizeof cls, cmp_u32) != NULL;
}

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
    if (s->o.cold_ms <= 0)
        s->o.cold_ms = COLD_DEFAULT_MS;
    if (s->o.warm_ms <= 0)
        s->o.warm_ms = WARM_DEFAULT_MS;
    s->stats = stats;
    tt_vec_init(&s->strs, sizeof(const char *));
    tt_vec_init(&s->ev, sizeof(tt__su_event));
    tt_vec_init(&s->rows, sizeof(tt_su_row));
    tt_vec_init(&s->matrix, sizeof(tt_su_matrix *));
    tt_vec_init(&s->launches, sizeof(tt_su_launch));
    tt_vec_init(&s->last_logcat, sizeof(size_t));
    tt_vec_init(&s->reports, sizeof(tt_su_matrix *));
    if (parse_splash(s)) {
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

/* ---- Matrix's state machine (1.4) ---- */
typedef struct mx_inst {
    int has_created;
    int64_t created;   /* creation time, overwritten by `between` (quirk) */
    int focused;       /* per class name: in Matrix's focused set */
} mx_inst;

static int64_t threshold(const tt_startup *s, int warm)
{
    return warm ? s->o.warm_ms : s->o.cold_ms;
}

/* analyse() of 1.5: appends one emitted report. */
static int analyse(tt_startup *s, tt__su_mx *m, int64_t app_cost, int64_t first_screen,
                   int64_t all_cost, int warm, int64_t now)
{
    tt_su_matrix *r = tt_arena_alloc(s->arena, sizeof *r);
    if (!r)
        return TT_ENOMEM;
    memset(r, 0, sizeof *r);
    int64_t thr = threshold(s, warm);
    r->application_create = app_cost;
    r->first_activity_create = first_screen;
    r->scene = m->scene;
    r->is_warm = warm;
    r->all_cost = all_cost;
    r->at_ms = now;
    r->stack_collected = all_cost >= thr;
    r->stack = r->stack_key = "";
    r->startup_duration = all_cost;
    r->process = s->nproc;
    r->time_ms = r->issue_time_ms = -1;
    /* warm data is always empty since v0.8 (the warm mark is never set) */
    if (!warm && r->stack_collected && s->o.n_beat) {
        int rc = tt_startup__matrix_stack(s, m->base_ms, now, all_cost, &r->stack,
                                          &r->stack_key, &r->startup_duration);
        if (rc)
            return rc;
    }
    r->cost = r->startup_duration;
    r->has_issue = r->startup_duration > thr; /* strictly greater, while the copy uses >= */
    r->sub_type = warm ? 2 : 1;
    if (!tt_vec_push(&s->matrix, &r))
        return TT_ENOMEM;
    m->last = r;
    return 0;
}

static void mx_app_create_end(tt_startup *s, tt__su_mx *m, const tt__su_event *e)
{
    if (m->app_done)
        return; /* first qualifying message only */
    m->app_done = 1;
    m->A = e->ms;
    m->scene = e->scene;
    m->launch = e->launch;
    if (s->o.no_ui)
        m->rc = analyse(s, m, m->A - m->E, 0, m->A - m->E, 0, e->ms);
}

static void mx_activity_create(tt__su_mx *m, const tt__su_event *e)
{
    if (m->active == 0 && m->cold_cost > 0) {
        m->last_create = e->ms;
        m->warm_pending = 1;
    }
    m->active++;
    m->inst[e->instance].has_created = 1;
    m->inst[e->instance].created = e->ms;
}

static void mx_focus(tt_startup *s, tt__su_mx *m, const tt__su_event *e)
{
    if (m->scene == TT_SU_SCENE_UNKNOWN)
        return; /* "start up from unknown scene" (issue #800) */
    int64_t now = e->ms;
    if (m->cold_cost == 0) {
        mx_inst *in = &m->inst[e->instance];
        int64_t between = now - (in->has_created ? in->created : 0);
        in->has_created = 1;
        in->created = between; /* Matrix overwrites the creation time (quirk) */
        if (m->first_screen == 0)
            m->first_screen = now - m->E;
        if (m->splash_seen)
            m->cold_cost = now - m->E;
        else if (tt_startup__is_splash(s, e->activity))
            m->splash_seen = 1;
        else if (m->launch)
            m->cold_cost = m->first_screen;
        else {
            m->first_screen = 0;
            m->cold_cost = m->A - m->E;
        }
        if (m->cold_cost > 0) {
            if (between >= GUARD_MS) {
                m->discarded = 1;
                return; /* coldCost stays set: no cold report ever */
            }
            m->rc = analyse(s, m, m->A - m->E, m->first_screen, m->cold_cost, 0, now);
        }
    } else if (m->warm_pending) {
        m->warm_pending = 0;
        int64_t warm = now - m->last_create;
        if (warm > 0)
            m->rc = analyse(s, m, 0, 0, warm, 1, now);
    }
}

int tt_startup__mx_init(tt_startup *s, tt__su_mx *m, int64_t base_ms)
{
    memset(m, 0, sizeof *m);
    m->scene = TT_SU_SCENE_UNKNOWN;
    m->base_ms = base_ms;
    m->inst = calloc(s->strs.len + 1, sizeof *m->inst);
    return m->inst ? 0 : TT_ENOMEM;
}

void tt_startup__mx_free(tt__su_mx *m) { free(m->inst); }

/* Feeds one event; m->last is the report emitted by it, if any. */
int tt_startup__mx_event(tt_startup *s, tt__su_mx *m, const tt__su_event *e)
{
    m->last = NULL;
    switch (e->kind) {
    case TT_SU_FIRST_METHOD:
        if (!m->have_E) {
            m->have_E = 1;
            m->E = e->ms;
        }
        break;
    case TT_SU_APP_CREATE_END: mx_app_create_end(s, m, e); break;
    case TT_SU_ACTIVITY_CREATE: mx_activity_create(m, e); break;
    case TT_SU_ACTIVITY_DESTROY: m->active--; break;
    case TT_SU_WINDOW_FOCUS: {
        mx_inst *cls = &m->inst[e->activity];
        if (!e->focus) {
            cls->focused = 0; /* losing focus notifies nothing */
            break;
        }
        if (cls->focused)
            break; /* per-class dedupe (1.2) */
        cls->focused = 1;
        mx_focus(s, m, e);
        break;
    }
    default: break;
    }
    return m->rc;
}

/* ---- distributions ---- */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

void tt_su_dist_compute(tt_su_dist *d, int64_t *v, size_t n)
{
    memset(d, 0, sizeof *d);
    if (n == 0)
        return;
    qsort(v, n, sizeof *v, cmp_i64);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)v[i];
    d->count = n;
    d->min = v[0];
    d->max = v[n - 1];
    d->mean = sum / (double)n;
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
    m->time_ms = r->time_ms;
    m->issue_time_ms = r->is_issue ? r->time_ms : -1;
    m->all_cost = -1;
    m->at_ms = -1;
    m->stack = m->stack_key = "";
    if (r->is_issue) {
        m->has_issue = 1;
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
    m->stack_collected = m->startup_duration >= threshold(s, m->is_warm);
    m->process = UINT32_MAX; /* set at finish; UINT32_MAX - 2 marks an attached issue */
    if ((r->process && !m->process_name) || !m->stack || !m->stack_key ||
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
        if (st) {
            st->has_issue = 1;
            st->cost = m->cost;
            st->stack = m->stack;
            st->stack_key = m->stack_key;
            st->issue_time_ms = m->time_ms;
            m->process = UINT32_MAX - 2; /* attached: no row of its own */
        }
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
