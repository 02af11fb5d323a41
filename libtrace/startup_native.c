/* Native startup analysis of one process: start types, segments, TTID/TTFD, threshold
 * flags and stacks (startup.md 5.2-5.4), alongside the Matrix replay (1.4). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define VITALS_COLD_MS 5000
#define VITALS_WARM_MS 2000
#define VITALS_HOT_MS 1500

/* A configuration-change relaunch (rotation) destroys the activity and creates it again in
 * the same main-thread message: a create of the destroyed class at most this long after the
 * destroy, with nothing in between, is no start (startup(1), NATIVE START TYPES). */
#define RELAUNCH_MS 100

/* Per interned id: an instance's state, and for a class id the count of its alive
 * instances and the one inferred alive (1 + id, 0 none). */
typedef struct nat_inst {
    unsigned alive : 1, started : 1, seen : 1, gone : 1, inferred : 1;
    uint32_t cls_alive, inferred_id;
} nat_inst;

typedef struct nat {
    tt_startup *s;
    const tt__su_event *ev;
    size_t n;
    const char *file;
    size_t row0;          /* first row of this process */
    int64_t cold_end;     /* index of the event ending the cold start, -1 none */
    int have_cold;
    size_t cold_idx;
    nat_inst *inst;
    int64_t alive, started;
    int create_since_stop, seen_stop;
    /* the destroy that left no activity alive, while nothing else happened since */
    int relaunch_ok;
    uint32_t relaunch_cls;
    int64_t relaunch_ms;
    /* pending warm/hot/unknown row */
    int pending;
    size_t prow;
    uint32_t pcls, pinst;
    int64_t focus_end;
    int has_focus_end;
} nat;

static tt_su_row *row_at(tt_startup *s, size_t i) { return &TT_VEC_AT(&s->rows, tt_su_row, i); }

static int first_of(const nat *x, int kind)
{
    for (size_t i = 0; i < x->n; i++)
        if (x->ev[i].kind == kind && (kind != TT_SU_WINDOW_FOCUS || x->ev[i].focus))
            return (int)i;
    return -1;
}

static tt_su_row *new_row(nat *x, int type, int64_t pid, int has_pid, size_t *idx)
{
    tt_su_row r = {0};
    r.type = type;
    r.source = "events";
    r.file = x->file;
    r.process = x->s->nproc;
    r.has_pid = has_pid;
    r.pid = pid;
    r.stack_cost = -1;
    r.vitals_basis = "duration";
    tt_su_row *p = tt_vec_push(&x->s->rows, &r);
    if (p)
        *idx = x->s->rows.len - 1;
    return p;
}

static void set_end(tt_su_row *r, int64_t t, const char *ev)
{
    r->has_end = 1;
    r->end_ms = t;
    r->end_event = ev;
    if (r->has_start)
        r->duration_ms = t - r->start_ms;
}

/* ---- cold start and its segments ---- */
static int add_seg(tt_startup *s, tt_vec *segs, const char *name, const tt__su_event *a,
                   const tt__su_event *b, const char *file)
{
    if (!a || !b)
        return 0; /* an endpoint is missing: the segment is omitted */
    if (b->ms < a->ms) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s:%llu: segment %s ends before it starts; omitted", file,
                 (unsigned long long)b->line, name);
        tt_stats_add(s->stats, "startup_segment_negative", file, TT_SEV_WARN, 1, ex);
        return 0;
    }
    tt_su_segment g = {name, tt_su_kind_name(a->kind), tt_su_kind_name(b->kind), a->ms, b->ms,
                       b->ms - a->ms};
    return tt_vec_push(segs, &g) ? 0 : TT_ENOMEM;
}

static const tt__su_event *at(const nat *x, int i) { return i >= 0 ? &x->ev[i] : NULL; }

/* First event of `kind` (focus gained for window_focus) matching instance or class. */
static int first_match(const nat *x, int kind, int from, uint32_t inst, uint32_t cls)
{
    for (size_t i = from > 0 ? (size_t)from : 0; i < x->n; i++) {
        const tt__su_event *e = &x->ev[i];
        if (e->kind != kind || (kind == TT_SU_WINDOW_FOCUS && !e->focus))
            continue;
        if ((inst != TT__SU_NONE && e->instance == inst) ||
            (cls != TT__SU_NONE && e->activity == cls))
            return (int)i;
    }
    return -1;
}

/* First event of `kind` whose activity is not a splash activity. */
static int first_non_splash(const nat *x, int kind)
{
    for (size_t i = 0; i < x->n; i++) {
        const tt__su_event *e = &x->ev[i];
        if (e->kind == kind && (kind != TT_SU_WINDOW_FOCUS || e->focus) &&
            !tt_startup__is_splash(x->s, e->activity))
            return (int)i;
    }
    return -1;
}

/* The launch intent of the cold start: the first one, unless it comes after the process
 * started (then it launched a later warm or hot start). */
static int cold_intent(const nat *x, int li, int ps, int fm)
{
    if (li >= 0 && ((ps >= 0 && x->ev[li].ms > x->ev[ps].ms) ||
                    (fm >= 0 && x->ev[li].ms > x->ev[fm].ms)))
        return -1;
    return li;
}

static int cold_row(nat *x, int has_pid, int64_t pid)
{
    int li = first_of(x, TT_SU_LAUNCH_INTENT), ps = first_of(x, TT_SU_PROCESS_START),
        fm = first_of(x, TT_SU_FIRST_METHOD);
    li = cold_intent(x, li, ps, fm);
    x->cold_end = -1;
    if (li < 0 && ps < 0 && fm < 0)
        return 0; /* no cold-start marker: the process was already running */
    x->have_cold = 1;
    size_t idx;
    tt_su_row *r = new_row(x, TT_SU_COLD, pid, has_pid, &idx);
    if (!r)
        return TT_ENOMEM;
    const tt__su_event *start = at(x, li >= 0 ? li : ps >= 0 ? ps : fm);
    r->has_start = 1;
    r->start_ms = start->ms;
    r->start_event = tt_su_kind_name(start->kind);
    /* the first frame of the first non-splash activity, else its focus */
    int ff = first_non_splash(x, TT_SU_FIRST_FRAME), fo = first_non_splash(x, TT_SU_WINDOW_FOCUS);
    if (ff >= 0 && fo >= 0 && x->ev[ff].ms > x->ev[fo].ms)
        ff = -1;
    if (ff >= 0 || fo >= 0) {
        const tt__su_event *e = at(x, ff >= 0 ? ff : fo);
        set_end(r, e->ms, tt_su_kind_name(e->kind));
        x->cold_end = (int64_t)(e - x->ev); /* index of the ending event */
    }
    x->cold_idx = idx;
    return 0;
}

/* First event of `kind` before limit_ms. */
static const tt__su_event *first_before(const nat *x, int kind, int64_t limit_ms)
{
    int i = first_of(x, kind);
    return i >= 0 && x->ev[i].ms < limit_ms ? &x->ev[i] : NULL;
}

/* Segments of the cold row (5.2), in the order of the table; limit_ms is the start of the
 * next startup of the process, which bounds first_frame and fully_drawn. */
static int cold_segments(nat *x, int64_t limit_ms)
{
    if (!x->have_cold)
        return 0;
    tt_startup *s = x->s;
    tt_su_row *r = row_at(s, x->cold_idx);
    int li = first_of(x, TT_SU_LAUNCH_INTENT), ps = first_of(x, TT_SU_PROCESS_START),
        fm = first_of(x, TT_SU_FIRST_METHOD), fo = first_non_splash(x, TT_SU_WINDOW_FOCUS);
    li = cold_intent(x, li, ps, fm);
    const tt__su_event *start = at(x, li >= 0 ? li : ps >= 0 ? ps : fm);
    tt_vec segs;
    tt_vec_init(&segs, sizeof(tt_su_segment));
    int ac = first_of(x, TT_SU_ACTIVITY_CREATE), rc = 0;
    int af = ac < 0 ? -1 : first_match(x, TT_SU_WINDOW_FOCUS, ac, x->ev[ac].instance,
                                       TT__SU_NONE);
    if (ac >= 0 && af < 0)
        af = first_match(x, TT_SU_FIRST_FRAME, ac, TT__SU_NONE, x->ev[ac].activity);
    const tt__su_event *first_frame = first_before(x, TT_SU_FIRST_FRAME, limit_ms),
                       *fully = first_before(x, TT_SU_FULLY_DRAWN, limit_ms);
    rc |= add_seg(s, &segs, "system_to_process", at(x, li), at(x, ps), x->file);
    rc |= add_seg(s, &segs, "process_to_first_method", at(x, ps), at(x, fm), x->file);
    rc |= add_seg(s, &segs, "bind_application", at(x, first_of(x, TT_SU_BIND_BEGIN)),
                  at(x, first_of(x, TT_SU_BIND_END)), x->file);
    rc |= add_seg(s, &segs, "application", at(x, fm), at(x, first_of(x, TT_SU_APP_CREATE_END)),
                  x->file);
    rc |= add_seg(s, &segs, "first_activity", at(x, ac), at(x, af), x->file);
    rc |= add_seg(s, &segs, "first_screen", at(x, fm), at(x, first_of(x, TT_SU_WINDOW_FOCUS)),
                  x->file);
    rc |= add_seg(s, &segs, "ttid", start, first_frame, x->file);
    rc |= add_seg(s, &segs, "ttfd", start, fully, x->file);
    rc |= add_seg(s, &segs, "cold", at(x, fm), at(x, fo), x->file);
    r = row_at(s, x->cold_idx);
    if (!rc && segs.len) {
        tt_su_segment *g = tt_arena_alloc(s->arena, segs.len * sizeof *g);
        if (!g)
            rc = TT_ENOMEM;
        else {
            memcpy(g, segs.data, segs.len * sizeof *g);
            r->segs = g;
            r->n_segs = segs.len;
        }
    }
    for (size_t i = 0; i < r->n_segs; i++) {
        if (!strcmp(r->segs[i].name, "ttid")) {
            r->has_ttid = 1;
            r->ttid_ms = r->segs[i].dur_ms;
        } else if (!strcmp(r->segs[i].name, "ttfd")) {
            r->has_ttfd = 1;
            r->ttfd_ms = r->segs[i].dur_ms;
        }
    }
    tt_vec_free(&segs);
    return rc ? TT_ENOMEM : 0;
}

/* ---- warm, hot and unknown starts ---- */
static void close_pending(nat *x)
{
    if (!x->pending)
        return;
    x->pending = 0;
    tt_su_row *r = row_at(x->s, x->prow);
    if (!r->has_end && x->has_focus_end)
        set_end(r, x->focus_end, "window_focus");
    if (!r->has_end) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s: %s start at %lld ms has no first_frame or focus", x->file,
                 tt_su_type_name(r->type), (long long)r->start_ms);
        tt_stats_add(x->s->stats, "startup_unfinished", x->file, TT_SEV_WARN, 1, ex);
    }
}

static int open_row(nat *x, int type, const tt__su_event *e, int64_t pid, int has_pid)
{
    close_pending(x);
    size_t idx;
    tt_su_row *r = new_row(x, type, pid, has_pid, &idx);
    if (!r)
        return TT_ENOMEM;
    if (type != TT_SU_UNKNOWN) {
        r->has_start = 1;
        r->start_ms = e->ms;
        r->start_event = tt_su_kind_name(e->kind);
        x->pending = 1;
        x->prow = idx;
        x->pcls = e->activity;
        x->pinst = e->instance;
        x->has_focus_end = 0;
    } else {
        set_end(r, e->ms, tt_su_kind_name(e->kind));
    }
    return 0;
}

static void inst_alive(nat *x, nat_inst *in, uint32_t cls)
{
    in->alive = in->seen = 1;
    in->gone = 0;
    x->alive++;
    if (cls != TT__SU_NONE)
        x->inst[cls].cls_alive++;
}

static void inst_dead(nat *x, nat_inst *in, uint32_t cls)
{
    in->alive = in->inferred = 0;
    in->gone = 1;
    x->alive--;
    if (cls != TT__SU_NONE && x->inst[cls].cls_alive)
        x->inst[cls].cls_alive--;
}

/* A focus gain, start, resume or stop of an instance whose creation was not observed proves
 * it alive (it was created before the stream began), unless it was destroyed or another
 * instance of its class is alive (a stream naming instances in some events only). */
static void inst_evidence(nat *x, nat_inst *in, const tt__su_event *e)
{
    if (!in || in->alive || in->gone || e->activity == TT__SU_NONE ||
        x->inst[e->activity].cls_alive)
        return;
    inst_alive(x, in, e->activity);
    in->inferred = 1;
    x->inst[e->activity].inferred_id = e->instance + 1;
}

/* The instance a destroy ends: itself, else an instance of its class inferred alive. */
static nat_inst *destroyed(nat *x, nat_inst *in, const tt__su_event *e)
{
    if (in->alive || e->activity == TT__SU_NONE)
        return in;
    uint32_t id = x->inst[e->activity].inferred_id;
    if (!id)
        return in;
    nat_inst *o = &x->inst[id - 1];
    x->inst[e->activity].inferred_id = 0;
    return o->alive && o->inferred ? o : in;
}

/* A create that relaunches the activity just destroyed (a configuration change), called
 * when nothing happened since that destroy. */
static int relaunch(nat *x, const tt__su_event *e)
{
    if (x->relaunch_cls != e->activity || e->ms - x->relaunch_ms > RELAUNCH_MS)
        return 0;
    char ex[200];
    snprintf(ex, sizeof ex, "%s:%llu: %s created again %lld ms after its destroy: a "
             "configuration-change relaunch, not a start", x->file, (unsigned long long)e->line,
             tt_startup__str(x->s, e->activity), (long long)(e->ms - x->relaunch_ms));
    tt_stats_add(x->s->stats, "startup_relaunch", x->file, TT_SEV_INFO, 1, ex);
    return 1;
}

static int native_event(nat *x, const tt__su_event *e, int64_t pid, int has_pid)
{
    nat_inst *in = e->instance != TT__SU_NONE ? &x->inst[e->instance] : NULL;
    int past_cold = !x->have_cold || (x->cold_end >= 0 && e - x->ev > x->cold_end);
    int rc = 0, was_ok = x->relaunch_ok;
    /* anything but a lost focus or a first frame between the destroy and the create means
     * a new launch */
    if (e->kind != TT_SU_FIRST_FRAME && (e->kind != TT_SU_WINDOW_FOCUS || e->focus))
        x->relaunch_ok = 0;
    switch (e->kind) {
    case TT_SU_ACTIVITY_CREATE:
        if (x->alive == 0 && past_cold && !x->pending &&
            !(was_ok && relaunch(x, e)))
            rc = open_row(x, TT_SU_WARM, e, pid, has_pid);
        if (!in->alive)
            inst_alive(x, in, e->activity);
        x->create_since_stop = 1;
        break;
    case TT_SU_ACTIVITY_DESTROY: {
        nat_inst *d = destroyed(x, in, e);
        if (d->alive) {
            inst_dead(x, d, e->activity);
            if (x->alive == 0) {
                x->relaunch_ok = 1;
                x->relaunch_cls = e->activity;
                x->relaunch_ms = e->ms;
            }
        }
        in->gone = 1;
        if (x->pending && x->pinst == e->instance)
            close_pending(x);
        break;
    }
    case TT_SU_ACTIVITY_START:
        if (in->alive && x->started == 0 && x->seen_stop && !x->create_since_stop && past_cold &&
            !x->pending)
            rc = open_row(x, TT_SU_HOT, e, pid, has_pid);
        inst_evidence(x, in, e);
        if (!in->started)
            x->started++;
        in->started = 1;
        break;
    case TT_SU_ACTIVITY_RESUME:
        inst_evidence(x, in, e);
        break;
    case TT_SU_ACTIVITY_STOP:
        inst_evidence(x, in, e);
        if (in->started && --x->started == 0) {
            x->create_since_stop = 0;
            x->seen_stop = 1;
        }
        in->started = 0;
        if (x->pending && x->pinst == e->instance)
            close_pending(x);
        break;
    case TT_SU_FIRST_FRAME:
        if (x->pending) {
            tt_su_row *r = row_at(x->s, x->prow);
            if (r->type == TT_SU_HOT || e->activity == x->pcls) {
                set_end(r, e->ms, "first_frame");
                x->pending = 0;
            }
        }
        break;
    case TT_SU_WINDOW_FOCUS:
        if (!e->focus)
            break;
        if (x->pending && x->pinst == e->instance && !x->has_focus_end) {
            x->has_focus_end = 1;
            x->focus_end = e->ms;
        } else if (!x->pending && past_cold && x->have_cold && !in->seen) {
            in->seen = 1; /* creation never observed: an unknown start, not a discard */
            rc = open_row(x, TT_SU_UNKNOWN, e, pid, has_pid);
        }
        inst_evidence(x, in, e);
        break;
    default: break;
    }
    return rc;
}

/* ---- flags, stacks ---- */
static int64_t vitals_limit(int type)
{
    return type == TT_SU_COLD ? VITALS_COLD_MS : type == TT_SU_WARM ? VITALS_WARM_MS
                                                                     : VITALS_HOT_MS;
}

void tt_startup__row_flags(const tt_startup *s, tt_su_row *r)
{
    const tt_su_matrix *m = r->matrix;
    if (m) {
        int64_t thr = m->is_warm ? s->o.warm_ms : s->o.cold_ms;
        r->matrix_over_threshold = m->startup_duration > thr;
        r->matrix_stack_collected = m->stack_collected;
    }
    if (r->type != TT_SU_WARM && r->type != TT_SU_HOT && r->type != TT_SU_COLD)
        return;
    if (r->has_ttid) {
        r->vitals_basis = "ttid";
        r->vitals_excessive = r->ttid_ms >= vitals_limit(r->type);
    } else if (r->has_start && r->has_end) {
        r->vitals_basis = "duration";
        r->vitals_excessive = r->duration_ms >= vitals_limit(r->type);
    } else if (m) {
        r->vitals_basis = "matrix";
        r->vitals_excessive = m->startup_duration >= vitals_limit(r->type);
    }
}

static int row_stacks(nat *x, tt_su_row *r, int64_t base, const tt__su_event *cold_focus,
                      const tt__su_event *fm)
{
    tt_startup *s = x->s;
    const tt_su_matrix *m = r->matrix;
    if (m) {
        r->has_stack = 1;
        r->stack = m->stack;
        r->stack_key = m->stack_key;
        r->stack_cost = m->startup_duration;
    }
    if (!s->o.n_beat)
        return 0;
    if (r->type == TT_SU_COLD && s->o.force_stack && !(m && m->stack_collected)) {
        int64_t end = m ? m->at_ms : cold_focus ? cold_focus->ms : r->has_end ? r->end_ms : -1;
        int64_t cost = m ? m->all_cost : (cold_focus && fm) ? cold_focus->ms - fm->ms : 0;
        if (end >= 0) {
            r->has_stack = 1;
            int rc = tt_startup__matrix_stack(s, base, end, cost, &r->stack, &r->stack_key,
                                              &r->stack_cost);
            if (rc)
                return rc;
        }
    }
    if (r->has_start && r->has_end) {
        tt_su_native *nt;
        int rc = tt_startup__native_stack(s, base, r->start_ms, r->end_ms, &nt);
        if (rc)
            return rc;
        r->native = nt;
    }
    return 0;
}

static int64_t time_base(const tt_startup *s, const nat *x)
{
    if (s->o.have_base)
        return s->o.base_ms;
    int tb = first_of(x, TT_SU_TIME_BASE);
    if (tb >= 0)
        return x->ev[tb].base_ms;
    int fm = first_of(x, TT_SU_FIRST_METHOD);
    return fm >= 0 ? x->ev[fm].ms : 0;
}

static void check_buffer_start(tt_startup *s, const nat *x, int64_t base, const char *file)
{
    int fm = first_of(x, TT_SU_FIRST_METHOD);
    if (fm < 0)
        return;
    for (size_t i = 0; i < s->o.n_beat; i++) {
        if (!s->o.beat[i])
            continue;
        int64_t t = tt_beat_time(s->o.beat[i]) + base;
        if (t > x->ev[fm].ms + 5) {
            char ex[200];
            snprintf(ex, sizeof ex, "buffer starts at %lld ms, %lld ms after the first method: "
                     "the ring probably wrapped (Matrix would report an empty stack)",
                     (long long)t, (long long)(t - x->ev[fm].ms));
            tt_stats_add(s->stats, "beat_not_from_first_method", file, TT_SEV_WARN, 1, ex);
        }
        return;
    }
}

static int attach_matrix(nat *x, tt_su_matrix *m)
{
    for (size_t i = x->s->rows.len; i-- > x->row0;) {
        tt_su_row *r = row_at(x->s, i);
        if (r->matrix)
            continue;
        if ((!m->is_warm && r->type == TT_SU_COLD) || (m->is_warm && r->type == TT_SU_WARM)) {
            r->matrix = m;
            return 0;
        }
    }
    if (m->is_warm) {
        /* Matrix counts a start the native model does not (an instance alive though its
         * creation was not observed, or a relaunch): say so rather than hide it */
        char ex[200];
        snprintf(ex, sizeof ex, "%s: Matrix reports a warm start of %lld ms at %lld ms that "
                 "is no native start (see --matrix-compat)", x->file,
                 (long long)m->startup_duration, (long long)m->at_ms);
        tt_stats_add(x->s->stats, "startup_matrix_warm_unmatched", x->file, TT_SEV_WARN, 1, ex);
    }
    return 0;
}

int tt_startup__process(tt_startup *s, const char *file, int has_pid, int64_t pid,
                        tt_error *err)
{
    nat x = {0};
    x.s = s;
    x.ev = s->ev.data;
    x.n = s->ev.len;
    uint32_t fid = tt_startup__intern(s, file, strlen(file));
    x.file = fid == TT__SU_NONE ? file : tt_startup__str(s, fid);
    x.row0 = s->rows.len;
    int64_t base = time_base(s, &x);
    if (s->o.n_beat)
        check_buffer_start(s, &x, base, x.file);
    size_t nmx = s->matrix.len;
    tt__su_mx mx;
    x.inst = calloc(s->strs.len + 1, sizeof *x.inst);
    int rc = tt_startup__mx_init(s, &mx, base);
    if (!x.inst || rc || cold_row(&x, has_pid, pid)) {
        rc = TT_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < x.n && !rc; i++) {
        if ((rc = native_event(&x, &x.ev[i], pid, has_pid)))
            break;
        if ((rc = tt_startup__mx_event(s, &mx, &x.ev[i])))
            break;
        if (mx.last)
            rc = attach_matrix(&x, mx.last);
    }
    close_pending(&x);
    if (!rc) {
        int64_t limit = INT64_MAX;
        if (x.have_cold && s->rows.len > x.cold_idx + 1)
            limit = row_at(s, x.cold_idx + 1)->has_start ? row_at(s, x.cold_idx + 1)->start_ms
                                                         : row_at(s, x.cold_idx + 1)->end_ms;
        rc = cold_segments(&x, limit);
    }
    if (!rc && s->matrix.len > nmx && !mx.have_E)
        tt_stats_add(s->stats, "startup_no_first_method", x.file, TT_SEV_WARN, 1,
                     "no first_method event: Matrix durations are measured from uptime 0");
    int fo = first_non_splash(&x, TT_SU_WINDOW_FOCUS), fm = first_of(&x, TT_SU_FIRST_METHOD);
    for (size_t i = x.row0; i < s->rows.len && !rc; i++) {
        tt_su_row *r = row_at(s, i);
        rc = row_stacks(&x, r, base, at(&x, fo), at(&x, fm));
        tt_startup__row_flags(s, r);
    }
out:
    tt_startup__mx_free(&mx);
    free(x.inst);
    s->nproc++;
    if (rc)
        return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    return 0;
}
