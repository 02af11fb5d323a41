/* Startup inputs: the JSON-lines event stream (startup.md 4.2), logcat Displayed / Fully
 * drawn lines (4.3) and `am start -W` blocks (4.4); detection by content. */
#include "tt.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"
#include "json_int.h"

/* ---- detection ---- */
static int has(const char *p, size_t n, const char *needle)
{
    return tt__memmem(p, n, needle, strlen(needle)) != NULL;
}

int tt_su_detect(const char *p, size_t n)
{
    /* binary (a NUL byte): only a buffer; other control bytes (logcat -v color's escape
     * sequences) leave a text a text */
    if (memchr(p, 0, n))
        return tt_detect((const unsigned char *)p, n) == TT_KIND_BEAT ? TT_SU_IN_BEAT
                                                                      : TT_SU_IN_UNKNOWN;
    size_t i = 0;
    if (n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    if (i < n && (p[i] == '{' || (p[i] == '[' && !tt__logcat_long_header(p + i, n - i)))) {
        if (p[i] == '{' && tt__looks_startup_events(p + i, n - i))
            return TT_SU_IN_EVENTS;
        if (has(p + i, n - i, "\"tag\""))
            return TT_SU_IN_REPORT;
        return TT_SU_IN_UNKNOWN;
    }
    if (tt__looks_launches(p, n))
        return TT_SU_IN_LAUNCHES;
    if (has(p, n, "tag["))
        return TT_SU_IN_REPORT;
    tt_kind k = tt_detect((const unsigned char *)p, n); /* buffers and mappings */
    if (k == TT_KIND_BEAT)
        return TT_SU_IN_BEAT;
    if (k == TT_KIND_MAPPING || k == TT_KIND_IGNORE)
        return TT_SU_IN_MAPPING;
    /* a logcat capture whose Displayed or Matrix lines come later: its readers decide */
    return tt__looks_logcat(p, n) ? TT_SU_IN_LAUNCHES : TT_SU_IN_UNKNOWN;
}

/* ---- event stream ---- */
static int ev_err(tt_error *err, const char *file, uint64_t line, const char *fmt,
                  const char *a, const char *b)
{
    return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line, fmt, a, b);
}

/* Optional string member: 0 absent, 1 present, -1 wrong type. */
static int get_str(json_t *o, const char *k, const char **v, size_t *n)
{
    json_t *x = json_object_get(o, k);
    if (!x || json_is_null(x))
        return 0;
    if (!json_is_string(x))
        return -1;
    *v = json_string_value(x);
    *n = json_string_length(x);
    return 1;
}

static int get_int(json_t *o, const char *k, int64_t *v)
{
    json_t *x = json_object_get(o, k);
    if (!x || json_is_null(x))
        return 0;
    if (!json_is_integer(x))
        return -1;
    *v = (int64_t)json_integer_value(x);
    return 1;
}

static int get_bool(json_t *o, const char *k, int *v)
{
    json_t *x = json_object_get(o, k);
    if (!x || json_is_null(x))
        return 0;
    if (!json_is_boolean(x))
        return -1;
    *v = json_is_true(x);
    return 1;
}

static int kind_of(const char *k)
{
    for (int i = 0; i < TT_SU_NKINDS; i++)
        if (!strcmp(k, tt_su_kind_name(i)))
            return i;
    return -1;
}

static int needs_activity(int kind)
{
    return kind >= TT_SU_ACTIVITY_CREATE && kind <= TT_SU_FULLY_DRAWN;
}

static int intern_member(tt_startup *s, json_t *o, const char *k, uint32_t *id, int required,
                         int kind, const char *file, uint64_t line, tt_error *err)
{
    const char *v;
    size_t n;
    int r = get_str(o, k, &v, &n);
    if (r < 0)
        return ev_err(err, file, line, "%s: expected a string for \"%s\"", tt_su_kind_name(kind),
                      k);
    if (r == 0) {
        if (required)
            return ev_err(err, file, line, "%s: missing required field \"%s\"",
                          tt_su_kind_name(kind), k);
        *id = TT__SU_NONE;
        return 0;
    }
    if (n == 0 && required)
        return ev_err(err, file, line, "%s: empty \"%s\"", tt_su_kind_name(kind), k);
    *id = tt_startup__intern(s, v, n);
    return *id == TT__SU_NONE ? tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory") : 0;
}

/* Kind-specific fields of one event. */
static int parse_fields(tt_startup *s, json_t *o, tt__su_event *e, const char *file,
                        tt_error *err)
{
    uint64_t line = e->line;
    int k = e->kind, r;
    if (needs_activity(k)) {
        if ((r = intern_member(s, o, "activity", &e->activity, 1, k, file, line, err)))
            return r;
        if ((r = intern_member(s, o, "instance", &e->instance, 0, k, file, line, err)))
            return r;
        if (e->instance == TT__SU_NONE)
            e->instance = e->activity;
    }
    if (k == TT_SU_LAUNCH_INTENT &&
        (r = intern_member(s, o, "component", &e->component, 0, k, file, line, err)))
        return r;
    if (k == TT_SU_WINDOW_FOCUS && get_bool(o, "focus", &e->focus) < 0)
        return ev_err(err, file, line, "%s: expected true or false for \"%s\"", tt_su_kind_name(k),
                      "focus");
    if (k == TT_SU_APP_CREATE_END) {
        int64_t v;
        r = get_int(o, "scene", &v);
        if (r <= 0)
            return ev_err(err, file, line,
                          r ? "%s: expected an integer for \"%s\""
                            : "%s: missing required field \"%s\"",
                          tt_su_kind_name(k), "scene");
        if (v < INT32_MIN || v > INT32_MAX)
            return ev_err(err, file, line, "%s: \"%s\" out of the int range", tt_su_kind_name(k),
                          "scene");
        e->scene = (int32_t)v;
        e->launch = v == 100 || v == 126 || v == 159;
        if (get_bool(o, "launch", &e->launch) < 0)
            return ev_err(err, file, line, "%s: expected true or false for \"%s\"",
                          tt_su_kind_name(k), "launch");
    }
    if (k == TT_SU_TIME_BASE) {
        r = get_int(o, "base_ms", &e->base_ms);
        if (r <= 0)
            return ev_err(err, file, line,
                          r ? "%s: expected an integer for \"%s\""
                            : "%s: missing required field \"%s\"",
                          tt_su_kind_name(k), "base_ms");
        if (e->base_ms < -TT_MS_MAX || e->base_ms > TT_MS_MAX)
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, line,
                                "%s: base_ms %lld out of range (%lld..%lld ms)", tt_su_kind_name(k),
                                (long long)e->base_ms, -TT_MS_MAX, TT_MS_MAX);
    }
    return 0;
}

/* Time of an event: ts_ms or ts_ns, exactly one, non-negative. */
static int parse_time(json_t *o, tt__su_event *e, const char *file, tt_error *err)
{
    int64_t ms = 0, ns = 0;
    int a = get_int(o, "ts_ms", &ms), b = get_int(o, "ts_ns", &ns);
    if (a < 0 || b < 0)
        return ev_err(err, file, e->line, "%s: expected an integer for \"%s\"",
                      tt_su_kind_name(e->kind), a < 0 ? "ts_ms" : "ts_ns");
    if (a == 0 && b == 0)
        return ev_err(err, file, e->line, "%s: missing time (\"%s\" or \"ts_ns\")",
                      tt_su_kind_name(e->kind), "ts_ms");
    if (a && b)
        return ev_err(err, file, e->line, "%s: both \"%s\" and \"ts_ns\" given",
                      tt_su_kind_name(e->kind), "ts_ms");
    if ((a && ms < 0) || (b && ns < 0))
        return ev_err(err, file, e->line, "%s: negative time in \"%s\"", tt_su_kind_name(e->kind),
                      a ? "ts_ms" : "ts_ns");
    e->ns = ns;
    if (a && tt_ms_to_ns(&e->ns, ms))
        return ev_err(err, file, e->line, "%s: \"%s\" out of range", tt_su_kind_name(e->kind),
                      "ts_ms");
    e->ms = a ? ms : ns / TT_NS_PER_MS;
    return 0;
}

static int parse_event(tt_startup *s, const char *p, size_t n, uint64_t line, const char *file,
                       tt__su_event *e, int *has_pid, int64_t *pid, tt_error *err)
{
    json_error_t je;
    uint64_t nul;
    json_t *o = tt__json_loadb(p, n, JSON_REJECT_DUPLICATES, &nul, &je);
    if (!o)
        return ev_err(err, file, line, "malformed JSON: %s%s", je.text, "");
    tt__json_nul_note(s->stats, file, nul);
    int rc = 0;
    memset(e, 0, sizeof *e);
    e->line = line;
    e->activity = e->instance = e->component = TT__SU_NONE;
    e->focus = 1;
    const char *k;
    size_t kn;
    if (!json_is_object(o)) {
        rc = ev_err(err, file, line, "expected a JSON object per line%s%s", "", "");
    } else if (get_str(o, "kind", &k, &kn) <= 0) {
        rc = ev_err(err, file, line, "missing or non-string \"kind\"%s%s", "", "");
    } else if ((e->kind = kind_of(k)) < 0) {
        char snip[64];
        tt__snippet(snip, sizeof snip, k, kn);
        rc = ev_err(err, file, line, "unknown event kind \"%s\"%s", snip, "");
    } else if (!(rc = parse_time(o, e, file, err))) {
        int r = get_int(o, "pid", pid);
        if (r < 0)
            rc = ev_err(err, file, line, "%s: expected an integer for \"%s\"",
                        tt_su_kind_name(e->kind), "pid");
        else
            *has_pid = r;
        if (!rc)
            rc = parse_fields(s, o, e, file, err);
    }
    json_decref(o);
    return rc;
}

static int cmp_event(const void *a, const void *b)
{
    const tt__su_event *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns < y->ns ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line; /* stable: file order */
}

/* One process of an event stream: a pid (or the events before the first pid), split again
 * when the pid's process starts a second time (pid reuse). */
typedef struct su_proc {
    int has_pid;
    int64_t pid;
    int64_t last_ns;
    uint64_t n, unsorted, first_unsorted;
    int have_start, have_first;
    int have_later;      /* a first_method or a later event (of the app, not time_base) */
    int64_t later_ns;    /* the earliest time of those */
} su_proc;

static int flush(tt_startup *s, const char *file, const su_proc *pr, tt_error *err)
{
    if (s->ev.len == 0)
        return 0;
    if (pr->unsorted) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s:%llu: event earlier than the previous one; events sorted "
                 "by time", file, (unsigned long long)pr->first_unsorted);
        tt_stats_add(s->stats, "startup_events_unsorted", file, TT_SEV_WARN,
                     (int64_t)pr->unsorted, ex);
        qsort(s->ev.data, s->ev.len, sizeof(tt__su_event), cmp_event);
    }
    int rc = tt_startup__process(s, file, pr->has_pid, pr->pid, err);
    s->ev.len = 0;
    return rc;
}

/* Whether e is an event of the app's code: first_method to fully_drawn. */
static int app_event(const tt__su_event *e)
{
    return e->kind >= TT_SU_FIRST_METHOD && e->kind <= TT_SU_FULLY_DRAWN;
}

/* Whether e starts the process again: a second process_start / first_method (pid reuse, or
 * a second launch in a stream without pids), or a process_start later than the process's
 * first_method or another app event (a launch's process_start precedes its first_method:
 * the first launch was logged without process_start). A process_start earlier than those
 * is that process's own, written late. */
static int restarts(const su_proc *pr, const tt__su_event *e)
{
    return (e->kind == TT_SU_PROCESS_START &&
            (pr->have_start || (pr->have_later && e->ns > pr->later_ns))) ||
           (e->kind == TT_SU_FIRST_METHOD && pr->have_first);
}

/* The process an event belongs to: its pid's (a new one at the pid's first event), the
 * current one for an event without a pid; a second process_start / first_method of that
 * process starts a new one with the same pid (or none). State is per pid, so processes that
 * log into one stream at the same time (a main process and a :push service) are each
 * analysed as if their events were alone. */
static int proc_of(tt_vec *procs, tt__map *pids, uint32_t *cur, const tt__su_event *e,
                   int has_pid, int64_t pid)
{
    uint32_t id = *cur;
    if (has_pid && !tt__map_get(pids, (uint64_t)pid, &id))
        id = TT__SU_NONE;
    if (!has_pid && id != TT__SU_NONE) {
        const su_proc *pr = &TT_VEC_AT(procs, su_proc, id);
        has_pid = pr->has_pid;
        pid = pr->pid;
    }
    if (id == TT__SU_NONE || restarts(&TT_VEC_AT(procs, su_proc, id), e)) {
        su_proc np = {0};
        np.has_pid = has_pid;
        np.pid = pid;
        id = (uint32_t)procs->len;
        if (!tt_vec_push(procs, &np) || (has_pid && tt__map_put(pids, (uint64_t)pid, id)))
            return TT_ENOMEM;
    }
    *cur = id;
    su_proc *pr = &TT_VEC_AT(procs, su_proc, id);
    if (pr->n && e->ns < pr->last_ns) {
        if (!pr->unsorted)
            pr->first_unsorted = e->line;
        pr->unsorted++;
    } else {
        pr->last_ns = e->ns;
    }
    pr->n++;
    pr->have_start |= e->kind == TT_SU_PROCESS_START;
    pr->have_first |= e->kind == TT_SU_FIRST_METHOD;
    if (app_event(e) && (!pr->have_later || e->ns < pr->later_ns)) {
        pr->have_later = 1;
        pr->later_ns = e->ns;
    }
    return 0;
}

/* Analyses each process of all (events tagged with their process) in order of appearance. */
static int flush_all(tt_startup *s, const char *file, tt_vec *all, tt_vec *procs,
                     tt_error *err)
{
    size_t np = procs->len, *start = calloc(np + 1, sizeof *start);
    uint32_t *order = malloc((all->len ? all->len : 1) * sizeof *order);
    int rc = 0;
    if (!start || !order)
        rc = TT_ENOMEM;
    for (size_t i = 0; !rc && i < all->len; i++)
        start[TT_VEC_AT(all, tt__su_event, i).proc + 1]++;
    for (size_t p = 0; !rc && p < np; p++)
        start[p + 1] += start[p];
    for (size_t i = 0; !rc && i < all->len; i++)
        order[start[TT_VEC_AT(all, tt__su_event, i).proc]++] = (uint32_t)i;
    for (size_t p = 0, k = 0; !rc && p < np; p++) {
        const su_proc *pr = &TT_VEC_AT(procs, su_proc, p);
        s->ev.len = 0;
        if (tt_vec_reserve(&s->ev, pr->n)) {
            rc = TT_ENOMEM;
            break;
        }
        for (uint64_t j = 0; j < pr->n; j++, k++)
            tt_vec_push(&s->ev, &TT_VEC_AT(all, tt__su_event, order[k]));
        if ((rc = flush(s, file, pr, err)))
            break;
    }
    free(start);
    free(order);
    if (rc == TT_ENOMEM)
        return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    return rc;
}

int tt_startup_read_events(tt_startup *s, tt_input *in, tt_error *err)
{
    const char *file = tt_input_name(in);
    const char *line;
    size_t len;
    uint64_t lineno;
    uint32_t cur = TT__SU_NONE;
    int rc, any = 0;
    tt_vec all, procs;
    tt_vec_init(&all, sizeof(tt__su_event));
    tt_vec_init(&procs, sizeof(su_proc));
    tt__map pids = {0};
    s->ev.len = 0;
    while ((rc = tt_input_line(in, &line, &len, &lineno, err)) == 0) {
        const char *p = line;
        size_t n = len;
        if (lineno == 1 && n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) {
            p += 3;
            n -= 3;
        }
        tt__trim(&p, &n);
        if (n == 0)
            continue;
        tt__su_event e;
        int has_pid = 0;
        int64_t pid = 0;
        if ((rc = parse_event(s, p, n, lineno, file, &e, &has_pid, &pid, err)))
            goto out;
        any = 1;
        if (proc_of(&procs, &pids, &cur, &e, has_pid, pid) ||
            (e.proc = cur, !tt_vec_push(&all, &e))) {
            rc = tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
            goto out;
        }
    }
    if (rc != TT_DONE)
        goto out;
    if (!any)
        rc = tt_error_set(err, TT_EFORMAT, file, TT_LOC_NONE, 0, "no startup events found");
    else
        rc = flush_all(s, file, &all, &procs, err);
out:
    tt_vec_free(&all);
    tt_vec_free(&procs);
    tt__map_free(&pids);
    return rc;
}

