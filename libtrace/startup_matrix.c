/* Matrix's startup state machine (startup.md 1.4-1.5), replayed exactly; driven by
 * startup_native.c's event stream and never calling back into it. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define GUARD_MS 30000 /* Matrix's create->focus guard */

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
