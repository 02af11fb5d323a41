/* tracetool report: decode Matrix issue reports (method-beat.md section 7) with method names,
 * per report or grouped by the stack-key method. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_group.h"
#include "cli_kscrash.h"
#include "cli_load.h"
#include "cli_tree.h"

static const char usage[] =
    "usage: tracetool report [-m MAPPING]... [--proguard FILE] [--group]\n"
    "                        [--format text|json|jsonl] [--names java|full|raw] REPORT...\n"
    "       tracetool report [--symbols DIR]... [--dsym [NAME=]PATH]... [--threads point|main|all]\n"
    "                        [--group] [--skip-frame RE]... [--app-image RE] [--interval-ms N]\n"
    "                        [--no-adjust] [--show-device-names] [--full-path]\n"
    "                        [--swift-demangler CMD]\n"
    "                        [--format text|json|jsonl|folded|csv] IOS-REPORT...\n"
    "       tracetool report --html [HTML OPTIONS] DB [NEW_DB]\n"
    "\n"
    "  -m, --mapping FILE   methodMapping.txt or ignoreMethodMapping.txt (repeatable)\n"
    "      --proguard FILE  ProGuard/R8 mapping.txt: retrace method names and threadStack\n"
    "      --group          aggregate reports by stack-key method name\n"
    "      --format FMT     text (default), json (one document), jsonl (one object a line)\n"
    "      --names STYLE    method names: java (default), full, raw\n"
    "iOS reports (KSCrash, Matrix iOS; detected by content):\n"
    "      --symbols DIR    symbol store (repeatable; also TRACETOOL_SYMBOL_PATH)\n"
    "      --dsym [NAME=]PATH  dSYM bundle, DWARF file or directory, searched first\n"
    "      --threads WHICH  point, main or all (default: point, main, crashed/CPU threads)\n"
    "      --skip-frame RE  frames --group passes over (repeatable)\n"
    "      --app-image RE   images counted as the app's (default: app UUID, bundle path)\n"
    "      --interval-ms N  main-thread sampling interval for estimates (default 50)\n"
    "      --no-adjust      look return addresses up unchanged\n"
    "      --show-device-names  print on-device symbol names too\n"
    "      --full-path      full source paths\n"
    "      --swift-demangler CMD  demangle Swift names with CMD (one name a line on its\n"
    "                       standard input; also TRACETOOL_SWIFT_DEMANGLE)\n"
    "      --html           DB: the HTML report of a tracetool database (tracetool html -h)\n"
    "  -h, --help           show this help\n";

enum { O_PROGUARD = 256, O_GROUP, O_FORMAT, O_NAMES };

static const struct option longopts[] = {
    {"mapping", required_argument, NULL, 'm'},
    {"proguard", required_argument, NULL, O_PROGUARD},
    {"group", no_argument, NULL, O_GROUP},
    {"format", required_argument, NULL, O_FORMAT},
    {"names", required_argument, NULL, O_NAMES},
    {"symbols", required_argument, NULL, CLI_SYM_O_SYMBOLS},
    {"dsym", required_argument, NULL, CLI_KS_O_DSYM},
    {"threads", required_argument, NULL, CLI_KS_O_THREADS},
    {"skip-frame", required_argument, NULL, CLI_KS_O_SKIP},
    {"app-image", required_argument, NULL, CLI_KS_O_APP},
    {"interval-ms", required_argument, NULL, CLI_KS_O_INTERVAL},
    {"no-adjust", no_argument, NULL, CLI_KS_O_NOADJ},
    {"show-device-names", no_argument, NULL, CLI_KS_O_DEVNAMES},
    {"full-path", no_argument, NULL, CLI_KS_O_FULLPATH},
    {"swift-demangler", required_argument, NULL, CLI_SYM_O_SWIFT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

enum { F_TEXT = 0, F_JSON = 1, F_JSONL = 2, F_FOLDED = 3, F_CSV = 4 };
static const char *const formats[] = {"text", "json", "jsonl", "folded", "csv", NULL};
static const char *const names[] = {"java", "full", "raw", NULL};

typedef struct rctx {
    const tt_mapping *m;
    const tt_proguard *pg;
    int style, format, grouping;
    tt_stats *stats;
    tt_buf name;
    uint64_t reports;
    cli_groups *groups; /* --group */
    const tt_report *cur; /* the report being written (warnings name it) */
    uint64_t without_key;
    char error[sizeof(((tt_error *)0)->file) + TT_ERRMSG_MAX + 32]; /* what stopped the run */
} rctx;

/* ---- names and small renderings ---- */

static const char *method_name(rctx *c, int32_t id)
{
    c->name.len = 0;
    if (tt_mapping_format_id(&c->name, c->m, (uint32_t)id, c->style) || !c->name.data)
        return "";
    return c->name.data;
}

static int known_id(const rctx *c, int32_t id)
{
    return tt_mapping_get(c->m, (uint32_t)id) || (uint32_t)id == TT_BEAT_DISPATCH;
}

static const char *detail_meaning(const char *d)
{
    static const char *const tab[][2] = {
        {"NORMAL", "evil method: one main-thread message took too long"},
        {"ANR", "ANR: the main thread was stuck for 5 s"},
        {"STARTUP", "startup over the threshold"},
        {"LAG", "lag: the main thread was stuck for 2 s, Java stack only"},
        {"SIGNAL_ANR", "ANR signalled by the system, SIGQUIT"},
        {"SIGNAL_ANR_NATIVE_BACKTRACE", "ANR signalled by the system, native backtrace"},
        {"LAG_IDLE_HANDLER", "lag in an idle handler"},
        {"LAG_TOUCH", "lag delivering a touch event"},
        {"PRIORITY_MODIFIED", "main-thread priority changed"},
        {"TIMERSLACK_MODIFIED", "main-thread timer slack changed"},
    };
    for (size_t i = 0; d && i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(d, tab[i][0]))
            return tab[i][1];
    return NULL;
}

static const char *create_scene_meaning(int64_t s)
{
    switch (s) {
    case 100: return "launch activity";
    case 126: return "relaunch activity";
    case 159: return "execute transaction, an activity";
    case 114: return "create service";
    case 113: return "broadcast receiver";
    case -100:
    case INT32_MIN: return "unknown";
    default: return NULL;
    }
}

static void put_time(tt_buf *b, int64_t ms)
{
    tt_buf_printf(b, "%lld", (long long)ms);
    if (ms < 0 || ms > INT64_C(253402300799999)) /* after 9999-12-31 */
        return;
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return;
    tt_buf_printf(b, " (%04d-%02d-%02d %02d:%02d:%02d.%03d UTC)", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

/* threadStack frames: the "|*\t\t" decoration and blank lines dropped (7.3), each frame
 * retraced with --proguard (4.6). The v2.0.8/HEAD "simple" form "at cls:method(line)" is
 * rewritten for retracing and kept as it was when the class is not in the mapping. */
typedef void (*frame_fn)(void *ctx, const char *s, size_t n);

static void retrace(rctx *c, tt_buf *out, const char *s, size_t n)
{
    const char *lp = memchr(s, '(', n);
    const char *colon = lp ? memchr(s, ':', (size_t)(lp - s)) : NULL;
    tt_buf in = {0};
    if (colon && n > 3 && !memcmp(s, "at ", 3) && lp[1] >= '0' && lp[1] <= '9') {
        tt_buf_put(&in, s, (size_t)(colon - s));
        tt_buf_puts(&in, ".");
        tt_buf_put(&in, colon + 1, (size_t)(lp - colon - 1));
        tt_buf_puts(&in, "(:");
        tt_buf_put(&in, lp + 1, n - (size_t)(lp + 1 - s));
    } else {
        tt_buf_put(&in, s, n);
    }
    size_t before = out->len;
    if (tt_proguard_retrace_frame(out, c->pg, in.data, in.len) == 1) {
        /* several original methods fit: the candidates are shown, and it is said once */
        char ex[300];
        snprintf(ex, sizeof ex, "%s:%llu: threadStack frame %.*s is ambiguous: %.*s",
                 c->cur ? c->cur->file : "", c->cur ? (unsigned long long)c->cur->line : 0ULL,
                 (int)(n < 80 ? n : 80), s, (int)(out->len - before < 120 ? out->len - before : 120),
                 out->data + before);
        tt_stats_add(c->stats, "retrace_frame_ambiguous", c->cur ? c->cur->file : NULL,
                     TT_SEV_WARN, 1, ex);
    }
    if (out->len - before == in.len && !memcmp(out->data + before, in.data, in.len)) {
        out->len = before; /* unchanged: keep the frame as written */
        tt_buf_put(out, s, n);
    }
    tt_buf_free(&in);
}

static void each_frame(rctx *c, const char *ts, frame_fn fn, void *ctx)
{
    tt_buf one = {0};
    const char *p = ts;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *s = p;
        p += n + (e ? 1 : 0);
        while (n && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        if (n >= 2 && s[0] == '|' && s[1] == '*') {
            s += 2;
            n -= 2;
        }
        while (n && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
            n--;
        if (!n)
            continue;
        one.len = 0;
        if (c->pg)
            retrace(c, &one, s, n);
        else
            tt_buf_put(&one, s, n);
        /* a retraced frame may expand to several (inlining): one call per line */
        size_t st = 0;
        for (size_t i = 0; i <= one.len; i++)
            if (i == one.len || one.data[i] == '\n') {
                if (i > st)
                    fn(ctx, one.data + st, i - st);
                st = i + 1;
            }
    }
    tt_buf_free(&one);
}

/* ---- text ---- */

static void text_frame(void *ctx, const char *s, size_t n)
{
    tt_buf *b = ctx;
    tt_buf_puts(b, "    ");
    tt_buf_put(b, s, n);
    tt_buf_puts(b, "\n");
}

/* Lines whose children add up to more than the line itself (7.7 step 4). */
static size_t self_clamps(const tt_report *r)
{
    tt_stree_node *nd;
    size_t n = 0;
    if (tt_stree_build(&nd, r->items, r->n_items, &n))
        return 0;
    free(nd);
    return n;
}

static void text_stack(rctx *c, tt_buf *b, const tt_report *r)
{
    if (r->stack_key) {
        int kl = (int)strcspn(r->stack_key, "\n"); /* a v0.4 key ends in '\n' */
        if (kl)
            tt_buf_printf(b, "  stackKey:    %.*s", kl, r->stack_key);
        else
            tt_buf_puts(b, "  stackKey:    (empty)");
        if (r->key_id >= 0)
            tt_buf_printf(b, " %s%s", method_name(c, r->key_id),
                          r->key_index < 0 ? " (not in the stack)" : "");
        tt_buf_puts(b, "\n");
    }
    if (r->n_items == 0) {
        tt_buf_puts(b, "  stack:       empty: Matrix kept no method trace (recording off, marks "
                       "overwritten, a nested dispatch or a negative duration)\n");
        return;
    }
    size_t clamps = self_clamps(r);
    tt_buf_printf(b, "  stack:       %zu line%s", r->n_items, r->n_items == 1 ? "" : "s");
    if (clamps)
        tt_buf_printf(b, " (%zu self time%s below 0 shown as 0: quantised, merged or trimmed "
                         "lines)",
                      clamps, clamps == 1 ? "" : "s");
    tt_buf_puts(b, "\n\n");
    cli_tree_text(b, r->items, r->n_items, c->m, r->key_index, c->style, "  ");
}

static void text_startup(tt_buf *b, const tt_report *r)
{
    const tt_report_startup *s = &r->startup;
    tt_buf_printf(b, "  start:       %s\n", s->is_warm_start_up ? "warm" : "cold");
    tt_buf_printf(b, "  application_create:    %lld ms\n", (long long)s->application_create_ms);
    if (s->have_application_create_scene) {
        const char *m = create_scene_meaning(s->application_create_scene);
        tt_buf_printf(b, "  application_create_scene: %lld%s%s%s\n",
                      (long long)s->application_create_scene, m ? " (" : "", m ? m : "",
                      m ? ")" : "");
    }
    tt_buf_printf(b, "  first_activity_create: %lld ms\n",
                  (long long)s->first_activity_create_ms);
    tt_buf_printf(b, "  startup_duration:      %lld ms\n", (long long)s->startup_duration_ms);
}

static void text_fps(tt_buf *b, const tt_report *r)
{
    const tt_report_fps *f = &r->fps;
    char d[64];
    tt_json_format_double(d, sizeof d, f->fps);
    int64_t frames = 0, dropped = 0;
    for (int i = 0; i < TT_DROP_LEVELS; i++) {
        frames += f->drop_level[i];
        dropped += f->drop_sum[i];
    }
    tt_buf_printf(b, "  generation:  %s\n  fps:         %s\n  frames:      %lld (dropped %lld)\n",
                  tt_report_fps_gen_name(f->gen), d, (long long)frames, (long long)dropped);
    tt_buf_printf(b, "  %-10s %10s %10s\n", "level", "frames", "dropped");
    for (int i = 0; i < TT_DROP_LEVELS; i++)
        tt_buf_printf(b, "  %-10s %10lld %10lld\n", tt_report_drop_level_name(i),
                      (long long)f->drop_level[i], (long long)f->drop_sum[i]);
    if (f->have_drop_task_frame_sum)
        tt_buf_printf(b, "  dropTaskFrameSum: %lld\n", (long long)f->drop_task_frame_sum);
    for (int i = 0; i < TT_FPS_DURS; i++)
        if (f->have_dur[i])
            tt_buf_printf(b, "  %-24s %12lld ns (mean per frame)\n", tt_report_fps_dur_name(i),
                          (long long)f->dur_ns[i]);
    if (f->have_drop_count)
        tt_buf_printf(b, "  DROP_COUNT:   %lld\n", (long long)f->drop_count);
    if (f->have_refresh_rate)
        tt_buf_printf(b, "  REFRESH_RATE: %lld Hz\n", (long long)f->refresh_rate);
}

static void text_anr(tt_buf *b, const tt_report *r)
{
    const tt_report_anr *a = &r->anr;
    if (a->have_is_foreground)
        tt_buf_printf(b, "  foreground:  %s\n", a->is_foreground ? "yes" : "no");
    if (a->have_process_priority)
        tt_buf_printf(b, "  priority:    %lld\n", (long long)a->process_priority);
    if (a->have_process_nice)
        tt_buf_printf(b, "  nice:        %lld\n", (long long)a->process_nice);
    if (a->have_timer_slack)
        tt_buf_printf(b, "  timer slack: %lld\n", (long long)a->timer_slack);
    if (a->have_memory) {
        /* a value absent or of the wrong type is "-", never an invented 0 */
        const char *const k[] = {"dalvik heap", "native heap", "vm"};
        const int have[] = {a->have_dalvik_heap, a->have_native_heap, a->have_vm_size};
        const int64_t v[] = {a->dalvik_heap_kb, a->native_heap_kb, a->vm_size_kb};
        tt_buf_puts(b, "  memory:     ");
        for (int i = 0; i < 3; i++) {
            tt_buf_printf(b, "%s %s ", i ? "," : "", k[i]);
            if (have[i])
                tt_buf_printf(b, "%lld KB", (long long)v[i]);
            else
                tt_buf_puts(b, "-");
        }
        tt_buf_puts(b, "\n");
    }
}

static void print_text(rctx *c, const tt_report *r)
{
    tt_buf b = {0};
    if (c->reports > 1)
        tt_buf_puts(&b, "\n");
    tt_buf_printf(&b, "report %llu: %s:%llu\n", (unsigned long long)c->reports, r->file,
                  (unsigned long long)r->line);
    tt_buf_printf(&b, "  tag:         %s\n", r->tag);
    if (r->detail) {
        const char *m = detail_meaning(r->detail);
        tt_buf_printf(&b, "  detail:      %s%s%s%s\n", r->detail, m ? " (" : "", m ? m : "",
                      m ? ")" : "");
    }
    if (r->scene)
        tt_buf_printf(&b, "  scene:       %s\n", r->scene);
    if (r->process)
        tt_buf_printf(&b, "  process:     %s\n", r->process);
    if (r->have_time) {
        tt_buf_puts(&b, "  time:        ");
        put_time(&b, r->time_ms);
        tt_buf_puts(&b, "\n");
    }
    if (r->have_cost)
        tt_buf_printf(&b, "  cost:        %lld ms\n", (long long)r->cost_ms);
    if (r->usage)
        tt_buf_printf(&b, "  usage:       %s (main-thread CPU share)\n", r->usage);
    if (r->have_sub_type)
        tt_buf_printf(&b, "  subType:     %lld%s\n", (long long)r->sub_type,
                      r->sub_type == 1 ? " (cold)" : r->sub_type == 2 ? " (warm)" : "");
    text_anr(&b, r);
    if (r->kind == TT_RKIND_STARTUP)
        text_startup(&b, r);
    if (r->kind == TT_RKIND_FPS)
        text_fps(&b, r);
    if (r->have_stack)
        text_stack(c, &b, r);
    if (r->thread_stack) {
        tt_buf_puts(&b, "  threadStack:\n");
        each_frame(c, r->thread_stack, text_frame, &b);
    }
    cli_out_buf(&b);
    tt_buf_free(&b);
}

/* ---- JSON (the same object for json and jsonl; see tracetool-report(1)) ---- */

static void json_frame(void *ctx, const char *s, size_t n) { tt_jsonw_strn(ctx, s, n); }

static void json_opt_str(tt_jsonw *w, const char *k, const char *v)
{
    tt_jsonw_key(w, k);
    tt_jsonw_str(w, v);
}

static void json_levels(tt_jsonw *w, const char *k, const int64_t *v)
{
    tt_jsonw_key(w, k);
    tt_jsonw_obj_begin(w);
    for (int i = 0; i < TT_DROP_LEVELS; i++) {
        tt_jsonw_key(w, tt_report_drop_level_name(i));
        tt_jsonw_int(w, v[i]);
    }
    tt_jsonw_obj_end(w);
}

static void json_fps(tt_jsonw *w, const tt_report_fps *f)
{
    int64_t frames = 0, dropped = 0;
    for (int i = 0; i < TT_DROP_LEVELS; i++) {
        frames += f->drop_level[i];
        dropped += f->drop_sum[i];
    }
    tt_jsonw_key(w, "fps");
    tt_jsonw_obj_begin(w);
    json_opt_str(w, "generation", tt_report_fps_gen_name(f->gen));
    tt_jsonw_key(w, "fps");
    tt_jsonw_double(w, f->fps);
    tt_jsonw_key(w, "frames");
    tt_jsonw_int(w, frames);
    tt_jsonw_key(w, "dropped_sum");
    tt_jsonw_int(w, dropped);
    json_levels(w, "drop_level", f->drop_level);
    json_levels(w, "drop_sum", f->drop_sum);
    if (f->have_drop_task_frame_sum) {
        tt_jsonw_key(w, "drop_task_frame_sum");
        tt_jsonw_int(w, f->drop_task_frame_sum);
    }
    if (f->gen == TT_FPS_GEN_C) {
        tt_jsonw_key(w, "durations_ns");
        tt_jsonw_obj_begin(w);
        for (int i = 0; i < TT_FPS_DURS; i++)
            if (f->have_dur[i]) {
                tt_jsonw_key(w, tt_report_fps_dur_name(i));
                tt_jsonw_int(w, f->dur_ns[i]);
            }
        tt_jsonw_obj_end(w);
        tt_jsonw_key(w, "drop_count");
        f->have_drop_count ? tt_jsonw_int(w, f->drop_count) : tt_jsonw_null(w);
        tt_jsonw_key(w, "refresh_rate");
        f->have_refresh_rate ? tt_jsonw_int(w, f->refresh_rate) : tt_jsonw_null(w);
    }
    tt_jsonw_obj_end(w);
}

static void json_startup(tt_jsonw *w, const tt_report_startup *s)
{
    tt_jsonw_key(w, "startup");
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "application_create_ms");
    tt_jsonw_int(w, s->application_create_ms);
    tt_jsonw_key(w, "application_create_scene");
    s->have_application_create_scene ? tt_jsonw_int(w, s->application_create_scene)
                                     : tt_jsonw_null(w);
    tt_jsonw_key(w, "first_activity_create_ms");
    tt_jsonw_int(w, s->first_activity_create_ms);
    tt_jsonw_key(w, "startup_duration_ms");
    tt_jsonw_int(w, s->startup_duration_ms);
    tt_jsonw_key(w, "is_warm_start_up");
    tt_jsonw_bool(w, s->is_warm_start_up);
    tt_jsonw_obj_end(w);
}

static void json_anr(tt_jsonw *w, const tt_report_anr *a)
{
    static const char *const k[] = {"process_priority", "process_nice", "process_timer_slack"};
    const int have[] = {a->have_process_priority, a->have_process_nice, a->have_timer_slack};
    const int64_t v[] = {a->process_priority, a->process_nice, a->timer_slack};
    for (int i = 0; i < 3; i++)
        if (have[i]) {
            tt_jsonw_key(w, k[i]);
            tt_jsonw_int(w, v[i]);
        }
    if (a->have_is_foreground) {
        tt_jsonw_key(w, "is_foreground");
        tt_jsonw_bool(w, a->is_foreground);
    }
    if (a->have_memory) {
        tt_jsonw_key(w, "memory");
        tt_jsonw_obj_begin(w);
        static const char *const mk[] = {"dalvik_heap_kb", "native_heap_kb", "vm_size_kb"};
        const int mhave[] = {a->have_dalvik_heap, a->have_native_heap, a->have_vm_size};
        const int64_t mv[] = {a->dalvik_heap_kb, a->native_heap_kb, a->vm_size_kb};
        for (int i = 0; i < 3; i++) {
            tt_jsonw_key(w, mk[i]);
            mhave[i] ? tt_jsonw_int(w, mv[i]) : tt_jsonw_null(w);
        }
        tt_jsonw_obj_end(w);
    }
}

static void json_stack(rctx *c, tt_jsonw *w, const tt_report *r)
{
    json_opt_str(w, "stack_key", r->stack_key);
    tt_jsonw_key(w, "key_id");
    r->key_id >= 0 ? tt_jsonw_int(w, r->key_id) : tt_jsonw_null(w);
    tt_jsonw_key(w, "key_method");
    if (r->key_id >= 0 && known_id(c, r->key_id))
        tt_jsonw_str(w, method_name(c, r->key_id));
    else
        tt_jsonw_null(w);
    tt_jsonw_key(w, "key_path");
    size_t n = tt_report_key_path(r, NULL, 0);
    int32_t *path = n ? malloc(n * sizeof *path) : NULL;
    if (path) {
        tt_report_key_path(r, path, n);
        tt_jsonw_arr_begin(w);
        tt_buf miss = {0};
        for (size_t i = 0; i < n; i++) {
            /* depth gaps as in the tree: "[N frames missing]" before the line below them */
            int64_t gap = (int64_t)r->items[path[i]].depth -
                          (i ? r->items[path[i - 1]].depth : -1);
            if (gap > 1) {
                miss.len = 0;
                cli_tree_missing(&miss, gap);
                tt_jsonw_str(w, miss.data);
            }
            tt_jsonw_str(w, method_name(c, r->items[path[i]].id));
        }
        tt_buf_free(&miss);
        tt_jsonw_arr_end(w);
        free(path);
    } else {
        tt_jsonw_null(w);
    }
    tt_jsonw_key(w, "stack_lines");
    tt_jsonw_uint(w, r->n_items);
    tt_jsonw_key(w, "self_clamped");
    tt_jsonw_uint(w, self_clamps(r));
    tt_jsonw_key(w, "nodes");
    cli_tree_json(w, r->items, r->n_items, c->m, r->key_index, c->style);
}

static void json_report(rctx *c, tt_jsonw *w, const tt_report *r, int with_source)
{
    tt_jsonw_obj_begin(w);
    if (with_source) {
        json_opt_str(w, "file", r->file);
        tt_jsonw_key(w, "line");
        tt_jsonw_uint(w, r->line);
    }
    json_opt_str(w, "tag", r->tag);
    json_opt_str(w, "detail", r->detail);
    json_opt_str(w, "kind", tt_report_issue_kind(r));
    json_opt_str(w, "scene", r->scene);
    json_opt_str(w, "process", r->process);
    tt_jsonw_key(w, "time");
    r->have_time ? tt_jsonw_int(w, r->time_ms) : tt_jsonw_null(w);
    json_opt_str(w, "machine", r->machine);
    tt_jsonw_key(w, "cost");
    r->have_cost ? tt_jsonw_int(w, r->cost_ms) : tt_jsonw_null(w);
    if (r->usage)
        json_opt_str(w, "usage", r->usage);
    if (r->have_sub_type) {
        tt_jsonw_key(w, "sub_type");
        tt_jsonw_int(w, r->sub_type);
    }
    if (r->have_stack)
        json_stack(c, w, r);
    if (r->thread_stack) {
        tt_jsonw_key(w, "thread_stack");
        tt_jsonw_arr_begin(w);
        each_frame(c, r->thread_stack, json_frame, w);
        tt_jsonw_arr_end(w);
    }
    json_anr(w, &r->anr);
    if (r->kind == TT_RKIND_STARTUP)
        json_startup(w, &r->startup);
    if (r->kind == TT_RKIND_FPS)
        json_fps(w, &r->fps);
    tt_jsonw_obj_end(w);
}

static void rctx_free(rctx *c)
{
    cli_groups_free(c->groups);
    tt_buf_free(&c->name);
}

/* ---- driver ---- */

static int one_report(rctx *c, tt_jsonw *doc, const tt_report *r)
{
    c->reports++;
    c->cur = r;
    cli_check_ids(c->m, r->items, r->n_items, r->file, c->stats);
    if (c->grouping) {
        if (r->key_id < 0) {
            c->without_key++;
            return 0;
        }
        const char *name = method_name(c, r->key_id);
        int rc = cli_groups_add(c->groups, name, r->key_id, r->have_cost ? r->cost_ms : 0,
                                r->detail ? r->detail : r->tag, r->scene);
        if (rc == 1) {
            char ex[300];
            snprintf(ex, sizeof ex, "%s:%llu: total cost of %.200s beyond the int64 range; "
                     "held at %s", r->file, (unsigned long long)r->line, name,
                     r->cost_ms > 0 ? "9223372036854775807" : "-9223372036854775808");
            tt_stats_add(c->stats, "report_group_cost_saturated", r->file, TT_SEV_WARN, 1, ex);
            rc = 0;
        }
        return rc;
    }
    if (c->format == F_TEXT) {
        print_text(c, r);
    } else if (c->format == F_JSONL) {
        tt_jsonw w;
        tt_jsonw_init(&w, 0);
        json_report(c, &w, r, 0);
        tt_buf_puts(&w.buf, "\n");
        cli_out_buf(&w.buf);
        tt_jsonw_free(&w);
    } else {
        json_report(c, doc, r, 1);
        cli_out_buf(&doc->buf);
    }
    return 0;
}

/* Prints err and keeps its text for the JSON document's "error" key. */
static int read_error(rctx *c, const tt_error *err)
{
    cli_err_text(c->error, sizeof c->error, err);
    return cli_err(err);
}

static int read_file(rctx *c, tt_jsonw *doc, const char *path)
{
    tt_error err = {0};
    tt_input *in;
    if (cli_ks_open(&in, path, &err))
        return read_error(c, &err);
    tt_report_reader *rr;
    int rc = tt_report_reader_new(&rr, in, c->stats, &err);
    if (rc) {
        tt_input_close(in);
        return read_error(c, &err);
    }
    tt_report_reader_set_json(rr, 0);
    for (;;) {
        const tt_report *r;
        rc = tt_report_reader_next(rr, &r, &err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc) {
            rc = read_error(c, &err);
            break;
        }
        if (one_report(c, doc, r)) {
            rc = read_error(c, &(tt_error){.code = TT_ENOMEM, .msg = "out of memory"});
            break;
        }
    }
    tt_report_reader_free(rr);
    tt_input_close(in);
    return rc;
}

/* Opens the --format json document: {"reports":[ */
static void json_doc_begin(tt_jsonw *doc)
{
    tt_jsonw_obj_begin(doc);
    tt_jsonw_key(doc, "reports");
    tt_jsonw_arr_begin(doc);
}

/* Closes and prints it: reports already printed stay; a bad input (rc != 0, exit status 2)
 * closes it with "error", so standard output is always one JSON document */
static void json_doc_end(rctx *c, tt_jsonw *doc, int rc)
{
    tt_jsonw_arr_end(doc);
    tt_jsonw_key(doc, "count");
    tt_jsonw_uint(doc, c->reports);
    if (rc) {
        tt_jsonw_key(doc, "error");
        tt_jsonw_str(doc, c->error);
    }
    tt_jsonw_obj_end(doc);
    tt_buf_puts(&doc->buf, "\n");
    cli_out_buf(&doc->buf);
}

/* A REPORT that cannot be opened, said before any report is read: with --format json, the
 * document without reports and with the error (with --group, the groups document without
 * groups). Returns CLI_BAD. */
static int open_error(rctx *c, const tt_error *err)
{
    int rc = read_error(c, err);
    if (c->format != F_JSON)
        return rc;
    tt_jsonw doc;
    tt_jsonw_init(&doc, 0);
    if (c->grouping) {
        tt_jsonw_obj_begin(&doc);
        tt_jsonw_key(&doc, "reports");
        tt_jsonw_uint(&doc, 0);
        tt_jsonw_key(&doc, "without_stack_key");
        tt_jsonw_uint(&doc, 0);
        tt_jsonw_key(&doc, "groups");
        tt_jsonw_arr_begin(&doc);
        tt_jsonw_arr_end(&doc);
        tt_jsonw_key(&doc, "error");
        tt_jsonw_str(&doc, c->error);
        tt_jsonw_obj_end(&doc);
        tt_buf_puts(&doc.buf, "\n");
        cli_out_buf(&doc.buf);
    } else {
        json_doc_begin(&doc);
        json_doc_end(c, &doc, rc);
    }
    tt_jsonw_free(&doc);
    return rc;
}

static int run(rctx *c, char **files, int nfiles)
{
    /* every input must open before anything is printed (a missing second file leaves no
     * half-written document); streams were kept in memory by the checks before */
    for (int i = 0; i < nfiles; i++) {
        tt_input *in;
        tt_error err = {0};
        if (cli_ks_open(&in, files[i], &err))
            return open_error(c, &err);
        tt_input_close(in);
    }
    tt_jsonw doc;
    tt_jsonw_init(&doc, 0);
    int json_doc = c->format == F_JSON && !c->grouping;
    if (json_doc)
        json_doc_begin(&doc);
    int rc = 0;
    for (int i = 0; i < nfiles && !rc; i++)
        rc = read_file(c, &doc, files[i]);
    if (json_doc)
        json_doc_end(c, &doc, rc);
    if (!rc && c->grouping)
        cli_groups_print(c->groups, c->format, c->reports, c->without_key);
    tt_jsonw_free(&doc);
    return rc;
}

int cmd_report(int argc, char **argv, cli_ctx *ctx)
{
    /* report --html DB: the HTML report of a tracetool database (tracetool-html(1)) */
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--html")) {
            char *av[argc > 0 ? argc : 1];
            int n = 0;
            for (int j = 0; j < argc; j++)
                if (j != i)
                    av[n++] = argv[j];
            av[n] = NULL;
            return cmd_html(n, av, ctx);
        }
    rctx c = {0};
    char *maps[64];
    size_t nmaps = 0;
    const char *proguard = NULL;
    int opt;
    c.style = TT_NAME_JAVA;
    c.stats = ctx->stats;
    cli_ks_opts ko = {.interval_ms = 50};
    int ios_opt = 0;
    while ((opt = getopt_long(argc, argv, "m:h", longopts, NULL)) != -1) {
        int k = cli_ks_opt(&ko, opt, optarg);
        if (k < 0)
            return CLI_BAD;
        if (k) {
            ios_opt = 1;
            continue;
        }
        switch (opt) {
        case 'm':
            if (nmaps == 64) {
                cli_errorf("too many -m options (at most 64)");
                return CLI_BAD;
            }
            maps[nmaps++] = cli_opt_input(optarg);
            break;
        case O_PROGUARD: proguard = cli_opt_input(optarg); break;
        case O_GROUP: c.grouping = 1; break;
        case O_FORMAT:
            if ((c.format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_NAMES:
            if ((c.style = cli_opt_enum("--names", optarg, names)) < 0)
                return CLI_BAD;
            break;
        case 'h': return cli_usage(usage, 0);
        default: return cli_usage(usage, 1);
        }
    }
    if (optind >= argc) {
        cli_errorf("report: missing REPORT");
        return cli_usage(usage, 1);
    }
    if (cli_stdin_once(argv + optind, argc - optind))
        return CLI_BAD;
    /* standard input and pipes are kept (read twice): one whose head is no trace (the rule
     * of cli_trace_paths) is refused before it is spooled */
    for (int i = optind; i < argc; i++) {
        tt_input *in;
        tt_error err = {0};
        if (!cli_input_is_stream(argv[i]))
            continue;
        if (!cli_input_open_checked(&in, argv[i], cli_input_check_trace, NULL, &err))
            tt_input_close(in);
        else if (cli_input_refused(argv[i]) || cli_input_lost(argv[i]))
            return cli_err(&err);
    }
    /* every input must open, and not be an Apple crash report, before its content picks
     * the reader and the options are checked against it: a missing file is said as such */
    int ios = 0;
    for (int i = optind; i < argc; i++) {
        if (cli_input_path(argv[i]))
            return CLI_BAD;
        if (c.format == F_JSON && !(i > optind && ios)) {
            tt_input *in; /* said in the JSON document too */
            tt_error err = {0};
            if (cli_ks_open(&in, argv[i], &err))
                return open_error(&c, &err);
            tt_input_close(in);
        }
        int k = cli_ks_file_kind(argv[i], 1);
        if (k < 0)
            return CLI_BAD;
        if (i == optind)
            ios = k;
        else if (k != ios) { /* two readers with their own options */
            cli_errorf("%s: %s, but %s is %s: Android Matrix and iOS reports cannot be mixed in "
                       "one report run", argv[i], ios ? "not a KSCrash or Matrix iOS report"
                                                      : "a KSCrash or Matrix iOS report",
                       argv[optind], ios ? "one" : "not");
            return CLI_BAD;
        }
    }
    if (ios) { /* KSCrash / Matrix iOS (ios.md 9, 11) */
        if (nmaps || proguard) {
            cli_errorf("-m and --proguard are for Android Matrix reports, not iOS reports");
            return CLI_BAD;
        }
        ko.format = c.format;
        ko.group = c.grouping;
        int rc = cli_ks_run(&ko, argv + optind, argc - optind, ctx);
        cli_stats_report(ctx->stats);
        return rc;
    }
    if (ios_opt || c.format >= F_FOLDED) {
        cli_errorf("%s: iOS report options and --format folded|csv need KSCrash or Matrix iOS "
                   "reports", argv[optind]);
        return CLI_BAD;
    }
    if (cli_trace_paths(argv + optind, argc - optind, 0))
        return CLI_BAD;
    tt_mapping *m = NULL;
    tt_proguard *pg = NULL;
    int rc = cli_load_proguard(&pg, proguard, NULL);
    if (!rc)
        rc = cli_load_mappings(&m, maps, nmaps, NULL, ctx->stats);
    size_t amb = 0;
    if (!rc && m && pg && tt_mapping_retrace(m, pg, &amb)) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    tt_stats_add(ctx->stats, "retrace_ambiguous", proguard, TT_SEV_WARN, (int64_t)amb, NULL);
    c.m = m;
    c.pg = pg;
    if (!rc && c.grouping && !(c.groups = cli_groups_new())) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    if (!rc)
        rc = run(&c, argv + optind, argc - optind);
    cli_stats_report(ctx->stats);
    rctx_free(&c);
    tt_proguard_free(pg);
    tt_mapping_free(m);
    return rc;
}
