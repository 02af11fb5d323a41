/* The fields of a Matrix issue report (method-beat.md 7.2-7.5) and its stack decoding (7.7),
 * read from the report's JSON object by tt_report_reader_next (import_report.c); the names
 * of containers, levels and durations; what consumers derive from a report. */
#include "report_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

static const char *const drop_keys[TT_DROP_LEVELS] = {
    "DROPPED_BEST", "DROPPED_NORMAL", "DROPPED_MIDDLE", "DROPPED_HIGH", "DROPPED_FROZEN"};
static const char *const dur_keys[TT_FPS_DURS] = {
    "UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION", "ANIMATION_DURATION",
    "LAYOUT_MEASURE_DURATION", "DRAW_DURATION", "SYNC_DURATION", "COMMAND_ISSUE_DURATION",
    "SWAP_BUFFERS_DURATION", "TOTAL_DURATION", "GPU_DURATION"};

const char *tt_report_container_name(int c)
{
    switch (c) {
    case TT_REPORT_ARRAY: return "array";
    case TT_REPORT_STREAM: return "stream";
    case TT_REPORT_LOG: return "log";
    default: return NULL;
    }
}

const char *tt_report_fps_gen_name(int g)
{
    switch (g) {
    case TT_FPS_GEN_A: return "a";
    case TT_FPS_GEN_AB: return "ab";
    case TT_FPS_GEN_C: return "c";
    default: return NULL;
    }
}

const char *tt_report_drop_level_name(int level)
{
    static const char *const n[TT_DROP_LEVELS] = {"BEST", "NORMAL", "MIDDLE", "HIGH", "FROZEN"};
    return level >= 0 && level < TT_DROP_LEVELS ? n[level] : NULL;
}

const char *tt_report_fps_dur_name(int d) { return d >= 0 && d < TT_FPS_DURS ? dur_keys[d] : NULL; }

/* ---- fields ---- */

typedef struct fill_ctx {
    tt_report_reader *r;
    json_t *o;
    const char *missing; /* first required key absent */
    const char *bad;     /* first required key with the wrong type */
    const char *parent;  /* "memory." when o is a nested object, for the warnings */
} fill_ctx;

static void warn_report(fill_ctx *fc, const char *stat, int sev, const char *fmt, const char *a,
                        const char *b)
{
    char ex[200], msg[160];
    snprintf(msg, sizeof msg, fmt, a, b ? b : "");
    snprintf(ex, sizeof ex, "%s:%llu: %s", fc->r->file, (unsigned long long)fc->r->rep.line,
             msg);
    tt_stats_add(fc->r->stats, stat, fc->r->file, sev, 1, ex);
}

/* Looks key up; 1 found with the right type, 0 absent (or null), -1 wrong type (counted). */
static int lookup(fill_ctx *fc, const char *key, int req, int ok_type, json_t **v)
{
    *v = json_object_get(fc->o, key);
    if (!*v || json_is_null(*v)) {
        if (req && !fc->missing)
            fc->missing = key;
        return 0;
    }
    if (ok_type)
        return 1;
    if (req) {
        if (!fc->bad)
            fc->bad = key;
    } else {
        warn_report(fc, "report_bad_field", TT_SEV_WARN, "\"%s%s\" has the wrong type; ignored",
                    fc->parent ? fc->parent : "", key);
    }
    return -1;
}

static int get_str(fill_ctx *fc, const char *key, int req, const char **out)
{
    json_t *v = json_object_get(fc->o, key);
    if (lookup(fc, key, req, v && json_is_string(v), &v) != 1)
        return 0;
    *out = json_string_value(v);
    return 1;
}

/* Integers; a real is accepted when it is integral and in range. */
static int as_i64(json_t *v, int64_t *out)
{
    if (json_is_integer(v)) {
        *out = (int64_t)json_integer_value(v);
        return 1;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d >= -9.2e18 && d <= 9.2e18 && d == (double)(int64_t)d) {
            *out = (int64_t)d;
            return 1;
        }
    }
    return 0;
}

static int get_int(fill_ctx *fc, const char *key, int req, int64_t *out)
{
    json_t *v = json_object_get(fc->o, key);
    int64_t x = 0;
    int ok = v && as_i64(v, &x);
    if (lookup(fc, key, req, ok, &v) != 1)
        return 0;
    *out = x;
    return 1;
}

static int get_bool(fill_ctx *fc, const char *key, int req, int *out)
{
    json_t *v = json_object_get(fc->o, key);
    if (lookup(fc, key, req, v && json_is_boolean(v), &v) != 1)
        return 0;
    *out = json_is_true(v);
    return 1;
}

/* "243|" (HEAD), "101\n" (v0.4), "1|2|" (deprecated overload: the first id counts). */
static int32_t parse_key(const char *s)
{
    int64_t v = 0;
    size_t i = 0;
    while (s[i] >= '0' && s[i] <= '9' && v <= INT32_MAX)
        v = v * 10 + (s[i++] - '0');
    if (i == 0 || v > INT32_MAX || (s[i] && s[i] != '|' && s[i] != '\n'))
        return -1;
    return (int32_t)v;
}

static int fill_stack(fill_ctx *fc, tt_error *err)
{
    tt_report *rep = &fc->r->rep;
    size_t slen = 0;
    json_t *v = json_object_get(fc->o, "stack");
    if (v && json_is_string(v))
        slen = json_string_length(v);
    int rc = tt_stack_parse(&fc->r->items, &rep->n_items, rep->stack, slen, rep->file,
                            rep->line, err);
    if (rc)
        return rc;
    rep->items = fc->r->items;
    if (!rep->stack_key || !rep->stack_key[0])
        return 0;
    rep->key_id = parse_key(rep->stack_key);
    if (rep->key_id < 0) {
        warn_report(fc, "report_bad_stack_key", TT_SEV_WARN, "stackKey \"%.40s\" is not an id",
                    rep->stack_key, NULL);
        return 0;
    }
    /* the line getTreeKey chose (5.9); else the first line with that id */
    int64_t cost = rep->have_cost ? rep->cost_ms : tt_mstack_max_dur(rep->items, rep->n_items);
    ptrdiff_t k = tt_mstack_tree_key(rep->items, rep->n_items, cost);
    if (k >= 0 && rep->items[k].id == rep->key_id) {
        rep->key_index = k;
        return 0;
    }
    for (size_t i = 0; i < rep->n_items; i++)
        if (rep->items[i].id == rep->key_id) {
            rep->key_index = (ptrdiff_t)i;
            break;
        }
    return 0;
}

static void fill_anr(fill_ctx *fc)
{
    tt_report_anr *a = &fc->r->rep.anr;
    a->have_process_priority = get_int(fc, "processPriority", 0, &a->process_priority);
    a->have_process_nice = get_int(fc, "processNice", 0, &a->process_nice);
    a->have_is_foreground = get_bool(fc, "isProcessForeground", 0, &a->is_foreground);
    a->have_timer_slack = get_int(fc, "processTimerSlack", 0, &a->timer_slack);
    json_t *m;
    if (lookup(fc, "memory", 0, json_is_object(json_object_get(fc->o, "memory")), &m) == 1) {
        fill_ctx sub = *fc;
        sub.o = m;
        sub.parent = "memory.";
        a->have_memory = 1;
        a->have_dalvik_heap = get_int(&sub, "dalvik_heap", 0, &a->dalvik_heap_kb);
        a->have_native_heap = get_int(&sub, "native_heap", 0, &a->native_heap_kb);
        a->have_vm_size = get_int(&sub, "vm_size", 0, &a->vm_size_kb);
    }
}

/* Which fields a detail requires (7.3): the method-trace details need cost and stack, the
 * lag-type details threadStack. Unknown details (newer releases) require nothing. */
static void fill_evil(fill_ctx *fc)
{
    tt_report *rep = &fc->r->rep;
    if (!get_str(fc, "detail", 1, &rep->detail))
        return;
    static const char *const traced[] = {"NORMAL", "ANR", "STARTUP", NULL};
    static const char *const lags[] = {"LAG", "SIGNAL_ANR", "SIGNAL_ANR_NATIVE_BACKTRACE",
                                       "LAG_IDLE_HANDLER", "LAG_TOUCH", "PRIORITY_MODIFIED",
                                       "TIMERSLACK_MODIFIED", NULL};
    int need_stack = 0, need_thread = 0;
    for (int i = 0; traced[i]; i++)
        need_stack |= !strcmp(rep->detail, traced[i]);
    for (int i = 0; lags[i]; i++)
        need_thread |= !strcmp(rep->detail, lags[i]);
    if (!need_stack && !need_thread)
        warn_report(fc, "report_unknown_detail", TT_SEV_INFO, "detail \"%.40s\"", rep->detail,
                    NULL);
    rep->have_cost = get_int(fc, "cost", need_stack, &rep->cost_ms);
    rep->have_stack = get_str(fc, "stack", need_stack, &rep->stack);
    get_str(fc, "stackKey", 0, &rep->stack_key);
    get_str(fc, "threadStack", need_thread, &rep->thread_stack);
    get_str(fc, "usage", 0, &rep->usage);
    rep->have_sub_type = get_int(fc, "subType", 0, &rep->sub_type);
    fill_anr(fc);
}

static void fill_startup(fill_ctx *fc)
{
    tt_report_startup *s = &fc->r->rep.startup;
    get_int(fc, "application_create", 1, &s->application_create_ms);
    s->have_application_create_scene =
        get_int(fc, "application_create_scene", 0, &s->application_create_scene);
    get_int(fc, "first_activity_create", 1, &s->first_activity_create_ms);
    get_int(fc, "startup_duration", 1, &s->startup_duration_ms);
    get_bool(fc, "is_warm_start_up", 1, &s->is_warm_start_up);
}

static void fill_levels(fill_ctx *fc, const char *key, int64_t *dst)
{
    json_t *m;
    if (lookup(fc, key, 1, json_is_object(json_object_get(fc->o, key)), &m) != 1)
        return;
    char parent[16];
    snprintf(parent, sizeof parent, "%s.", key);
    fill_ctx sub = *fc;
    sub.o = m;
    sub.parent = parent;
    for (int i = 0; i < TT_DROP_LEVELS; i++) {
        if (!get_int(&sub, drop_keys[i], 0, &dst[i]))
            warn_report(fc, "report_bad_field", TT_SEV_WARN, "%s without %s; taken as 0", key,
                        drop_keys[i]);
        else if (dst[i] < 0 || dst[i] > INT32_MAX) {
            /* Java int counters: bounded values keep their sums in range */
            dst[i] = 0;
            warn_report(fc, "report_bad_field", TT_SEV_WARN,
                        "%s %s out of range (0..2147483647); taken as 0", key, drop_keys[i]);
        }
    }
}

static void fill_fps(fill_ctx *fc)
{
    tt_report_fps *f = &fc->r->rep.fps;
    fill_levels(fc, "dropLevel", f->drop_level);
    fill_levels(fc, "dropSum", f->drop_sum);
    json_t *v;
    if (lookup(fc, "fps", 1, json_is_number(json_object_get(fc->o, "fps")), &v) == 1)
        f->fps = json_number_value(v);
    f->have_drop_task_frame_sum = get_int(fc, "dropTaskFrameSum", 0, &f->drop_task_frame_sum);
    for (int i = 0; i < TT_FPS_DURS; i++)
        f->have_dur[i] = get_int(fc, dur_keys[i], 0, &f->dur_ns[i]);
    f->have_drop_count = get_int(fc, "DROP_COUNT", 0, &f->drop_count);
    f->have_refresh_rate = get_int(fc, "REFRESH_RATE", 0, &f->refresh_rate);
    if (f->have_dur[TT_FPS_DUR_TOTAL] || f->have_refresh_rate)
        f->gen = TT_FPS_GEN_C;
    else if (f->have_drop_task_frame_sum)
        f->gen = TT_FPS_GEN_A;
    else
        f->gen = TT_FPS_GEN_AB;
}

/* The tag, or when the object has none the wrapper's, or one inferred from the keys. */
static int fill_tag(fill_ctx *fc)
{
    tt_report *rep = &fc->r->rep;
    json_t *o = fc->o, *t = json_object_get(o, "tag");
    if (t && json_is_string(t)) {
        rep->tag = json_string_value(t);
    } else if (t && !json_is_null(t)) {
        fc->bad = "tag";
        return -1;
    } else {
        rep->tag_inferred = 1;
        if (rep->wrap_tag)
            rep->tag = rep->wrap_tag;
        else if (json_object_get(o, "detail"))
            rep->tag = "Trace_EvilMethod";
        else if (json_object_get(o, "application_create") ||
                 json_object_get(o, "startup_duration"))
            rep->tag = "Trace_StartUp";
        else if (json_object_get(o, "dropLevel"))
            rep->tag = "Trace_FPS";
        else {
            fc->missing = "tag";
            return -1;
        }
        warn_report(fc, "report_tag_inferred", TT_SEV_INFO, "no \"tag\"; taken as %s", rep->tag,
                    NULL);
    }
    if (!strcmp(rep->tag, "Trace_EvilMethod"))
        rep->kind = TT_RKIND_EVIL;
    else if (!strcmp(rep->tag, "Trace_StartUp"))
        rep->kind = TT_RKIND_STARTUP;
    else if (!strcmp(rep->tag, "Trace_FPS"))
        rep->kind = TT_RKIND_FPS;
    else
        warn_report(fc, "report_unknown_tag", TT_SEV_INFO, "tag \"%.60s\"", rep->tag, NULL);
    return 0;
}

/* 0 = usable, 1 = skipped (counted), < 0 = error. */
int tt_report__fill(tt_report_reader *r, json_t *o, tt_error *err)
{
    tt_report *rep = &r->rep;
    fill_ctx fc = {r, o, NULL, NULL, NULL};
    rep->key_id = -1;
    rep->key_index = -1;
    if (fill_tag(&fc) == 0) {
        get_str(&fc, "scene", 0, &rep->scene);
        get_str(&fc, "process", 0, &rep->process);
        get_str(&fc, "machine", 0, &rep->machine);
        rep->have_time = get_int(&fc, "time", 0, &rep->time_ms);
        rep->have_type = get_int(&fc, "type", 0, &rep->type);
        if (rep->kind != TT_RKIND_EVIL)
            rep->have_cost = get_int(&fc, "cost", 0, &rep->cost_ms);
        if (rep->kind == TT_RKIND_EVIL)
            fill_evil(&fc);
        else if (rep->kind == TT_RKIND_STARTUP)
            fill_startup(&fc);
        else if (rep->kind == TT_RKIND_FPS)
            fill_fps(&fc);
    }
    if (fc.missing || fc.bad) {
        char what[88]; /* "TAG[ DETAIL] report", or "report" when the tag is unknown */
        if (rep->tag)
            snprintf(what, sizeof what, "%s%s%s report", rep->tag, rep->detail ? " " : "",
                     rep->detail ? rep->detail : "");
        else
            snprintf(what, sizeof what, "report");
        if (fc.bad)
            warn_report(&fc, "report_mistyped_field", TT_SEV_WARN,
                        "%s: \"%s\" has the wrong type; skipped", what, fc.bad);
        else
            warn_report(&fc, "report_missing_field", TT_SEV_WARN,
                        "%s without \"%s\"; skipped", what, fc.missing);
        return 1;
    }
    if (rep->have_stack) {
        int rc = fill_stack(&fc, err);
        if (rc)
            return rc;
    }
    if (r->no_json)
        return 0;
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    tt_report__json_write(&w, o);
    if (!w.buf.data)
        return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
    r->dump = w.buf.data;
    rep->json = r->dump;
    rep->json_len = w.buf.len;
    return 0;
}

/* ---- helpers for consumers (analyze, report) ---- */

const char *tt_report_issue_kind(const tt_report *r)
{
    static const char *const tab[][2] = {
        {"NORMAL", "evil_method"}, {"ANR", "anr"}, {"LAG", "lag"}, {"STARTUP", "startup"},
        {"SIGNAL_ANR", "signal_anr"}, {"SIGNAL_ANR_NATIVE_BACKTRACE", "signal_anr"},
        {"LAG_IDLE_HANDLER", "idle_lag"}, {"LAG_TOUCH", "touch_lag"},
        {"PRIORITY_MODIFIED", "priority"}, {"TIMERSLACK_MODIFIED", "timerslack"},
    };
    if (r->kind == TT_RKIND_STARTUP)
        return "startup";
    if (r->kind == TT_RKIND_FPS)
        return "fps";
    for (size_t i = 0; r->kind == TT_RKIND_EVIL && r->detail && i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(r->detail, tab[i][0]))
            return tab[i][1];
    return "other";
}

int tt_report_cost(const tt_report *r, int64_t *ms)
{
    if (r->have_cost)
        *ms = r->cost_ms;
    else if (r->kind == TT_RKIND_STARTUP)
        *ms = r->startup.startup_duration_ms;
    else
        return 0;
    return 1;
}

size_t tt_report_key_path(const tt_report *r, int32_t *idx, size_t cap)
{
    if (r->key_index < 0 || (size_t)r->key_index >= r->n_items)
        return 0;
    /* walk back: each ancestor is the nearest previous line with a smaller depth (7.7) */
    size_t len = 0;
    int32_t depth = r->items[r->key_index].depth;
    for (ptrdiff_t i = r->key_index; i >= 0; i--)
        if (i == r->key_index || r->items[i].depth < depth) {
            depth = r->items[i].depth;
            len++;
        }
    size_t k = len;
    depth = r->items[r->key_index].depth;
    for (ptrdiff_t i = r->key_index; i >= 0; i--)
        if (i == r->key_index || r->items[i].depth < depth) {
            depth = r->items[i].depth;
            if (--k < cap)
                idx[k] = (int32_t)i;
        }
    return len;
}
