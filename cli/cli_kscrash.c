/* tracetool report / symbolicate --kind kscrash on KSCrash and Matrix iOS reports
 * (spec/ios.md 9.1-9.5): ks2apple-style text, symbolicated JSON, folded stacks, CSV. */
#include "cli_kscrash.h"
#include "cli_csv.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_ks_group.h"
#include "cli_swift.h"

typedef struct kctx {
    const cli_ks_opts *o;
    cli_ks_names names;
    cli_ks_key key;
    cli_ks_groups *groups;
    tt_buf b;
    uint64_t reports, json_count;
    tt_vec missing; /* miss: images without symbols, over all reports */
    int resolving;
    tt_stats *stats;
    tt_intern *miss_ids; /* "uuid/name" -> index into missing */
    cli_swift *swift;    /* display names of Swift frames (spec/ios.md 7) */
    tt_intern *paths;    /* o->aggregate: folded paths -> index into weights */
    tt_vec weights;      /* int64_t */
    int nomem;
    int approx;          /* this report's text marked a name APPROX_MARK */
} kctx;

/* A text frame named from a symbol table only (Approximate in JSON, 6.5) */
#define APPROX_MARK " [approximate]"

typedef struct miss {
    char name[128], uuid[40];
    uint64_t frames;
} miss;

/* Standard input and FIFOs are read once and kept (cli_input_open), so detection can look at
 * them first. */
int cli_ks_open(tt_input **in, const char *path, tt_error *err)
{
    return cli_input_open(in, path, 1, err);
}

/* ios.md 2.1: Apple's own crash reports are out of scope; said as such, not as a KSCrash or
 * Matrix report with missing fields */
static int apple_refused(const char *path, const char *what)
{
    cli_errorf("%s: %s is not supported: tracetool reads KSCrash and Matrix iOS reports (use "
               "the app's KSCrash or Matrix report of this crash, or convert this one to "
               "KSCrash JSON)", path, what);
    return CLI_BAD;
}

/* The Apple crash report in's head is, or NULL */
static const char *apple_crash(tt_input *in)
{
    const unsigned char *p;
    size_t n;
    tt_error err = {0}; /* a head that cannot be read is said by the reader */
    return tt_input_peek(in, &p, &n, TT_DETECT_PEEK, &err) ? NULL : tt_detect_apple_crash(p, n);
}

int cli_ks_file_kind(const char *path, int must_open)
{
    tt_input *in;
    tt_error err = {0};
    if (cli_ks_open(&in, path, &err)) {
        if (must_open)
            cli_err(&err);
        return must_open ? -1 : 0;
    }
    const unsigned char *p;
    size_t n;
    int r = 0;
    const char *apple = NULL;
    if (!tt_input_peek(in, &p, &n, TT_DETECT_PEEK, &err)) {
        r = tt_ks_detect(p, n);
        apple = r ? NULL : tt_detect_apple_crash(p, n);
    }
    tt_input_close(in);
    if (apple) {
        apple_refused(path, apple);
        return -1;
    }
    return r;
}

int cli_ks_file_is_ios(const char *path)
{
    tt_input *in;
    tt_error err = {0};
    if (cli_ks_open(&in, path, &err))
        return 0;
    const unsigned char *p;
    size_t n;
    int r = !tt_input_peek(in, &p, &n, 65536, &err) && tt_ks_detect(p, n);
    tt_input_close(in);
    return r;
}

/* Writes and empties c->b: to the -o stream of export, else to standard output */
static void emit(kctx *c)
{
    if (!c->o->out) {
        cli_out_buf(&c->b);
        return;
    }
    if (c->b.len)
        (void)!cli_out_file_write(c->o->out, c->b.data, c->b.len); /* the caller checks ferror */
    c->b.len = 0;
}

/* ---- text (9.1) ---- */

static void put_time(tt_buf *b, int64_t ms)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (ms < 0 || !gmtime_r(&t, &tm))
        return;
    tt_buf_printf(b, "%04d-%02d-%02d %02d:%02d:%02d UTC", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static const char *file_part(const kctx *c, const char *f)
{
    if (c->o->full_path)
        return f;
    const char *s = strrchr(f, '/');
    return s ? s + 1 : f;
}

/* Decimal v (a minus sign first when neg), as printf's %llu / %lld write it. */
static void put_dec(tt_buf *b, uint64_t v, int neg)
{
    char t[24];
    size_t k = sizeof t;
    do
        t[--k] = (char)('0' + v % 10);
    while (v /= 10);
    if (neg)
        t[--k] = '-';
    tt_buf_put(b, t + k, sizeof t - k);
}

static void put_i64(tt_buf *b, int64_t v)
{
    put_dec(b, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

/* A frame line's columns: printf's "%-4u%-31s 0x%016llx " written directly (the text
 * report prints a line per frame). */
static void frame_head(tt_buf *b, uint32_t n, const char *name, uint64_t pc)
{
    static const char spaces[] = "                               "; /* 31 */
    size_t len = b->len;
    put_dec(b, n, 0);
    len = b->len - len;
    if (len < 4)
        tt_buf_put(b, spaces, 4 - len);
    len = strlen(name);
    tt_buf_put(b, name, len);
    if (len < 31)
        tt_buf_put(b, spaces, 31 - len);
    char h[20] = " 0x";
    for (int i = 0; i < 16; i++)
        h[3 + i] = "0123456789abcdef"[(pc >> (60 - 4 * i)) & 15];
    h[19] = ' ';
    tt_buf_put(b, h, sizeof h);
}

/* " (<file>:<line>)" of a symbol, ":<line>" only when known (line 0: compiler-generated
 * code has none), nothing without a file (spec/ios.md 9.1); frame and profile lines alike. */
static void put_source(kctx *c, const tt_native_frame *s)
{
    if (!s->file || !*s->file)
        return;
    tt_buf_puts(&c->b, " (");
    tt_buf_puts(&c->b, file_part(c, s->file));
    if (s->line) {
        tt_buf_puts(&c->b, ":");
        put_dec(&c->b, s->line, 0);
    }
    tt_buf_puts(&c->b, ")");
}

/* n: the frame's index in backtrace.contents (tt_ks_frame.pos) */
static void frame_lines(kctx *c, const tt_ks_report *rep, uint32_t n, const tt_ks_frame *f)
{
    tt_buf *b = &c->b;
    const tt_ks_image *g = f->image >= 0 ? &rep->images[f->image] : NULL;
    uint32_t lines = f->n_sym ? f->n_sym : 1;
    uint64_t start;
    for (uint32_t i = 0; i < lines; i++) {
        frame_head(b, n, g ? g->name : "???", f->pc);
        if (f->n_sym) {
            const tt_native_frame *s = &rep->syms[f->sym + i];
            tt_buf_puts(b, s->function && *s->function ? s->function : "??");
            /* Apple's "name + N" on the out-of-line line: N = pc - function start (9.1) */
            if (!s->inlined && s->has_start && g && f->offset >= s->start) {
                tt_buf_puts(b, " + ");
                put_dec(b, f->offset - s->start, 0);
            }
            put_source(c, s);
            if (s->inlined)
                tt_buf_puts(b, " [inlined]");
            if (s->approximate) { /* symbol table only: maybe a stripped neighbour's name */
                tt_buf_puts(b, APPROX_MARK);
                c->approx = 1;
            }
        } else if (g) {
            const char *dn = f->device_name;
            int usable = dn && *dn && strcmp(dn, "<redacted>") && !g->is_app;
            if (usable)
                dn = cli_swift_name(c->swift, dn);
            if (usable && f->has_device_addr && f->pc >= f->device_addr)
                tt_buf_printf(b, "%s + %llu", dn,
                              (unsigned long long)(f->pc - f->device_addr));
            else if (usable)
                tt_buf_puts(b, dn);
            else if (cli_ks_fstart(rep, f, &start)) /* no name: 6.5 */
                tt_buf_printf(b, "%s + 0x%llx + %llu", g->name, (unsigned long long)start,
                              (unsigned long long)(f->offset - f->fstart));
            else
                tt_buf_printf(b, "0x%llx + %llu", (unsigned long long)g->addr,
                              (unsigned long long)f->offset);
        } else {
            b->len--; /* a pc in no image: the address alone */
        }
        if (i == 0 && f->has_repeat) {
            tt_buf_puts(b, "  \u00d7");
            put_i64(b, f->repeat);
            tt_buf_puts(b, " \u2248");
            put_i64(b, (int64_t)((uint64_t)f->repeat * (uint64_t)c->o->interval_ms));
            tt_buf_puts(b, " ms");
        }
        if (i == 0 && c->o->show_device_names && f->device_name && f->n_sym) {
            const char *fn = cli_ks_function(rep, f);
            tt_buf_printf(b, "  [device: %s]", f->device_name);
            if (!fn || strcmp(fn, f->device_name)) { /* 9.5, Matrix #423 */
                char ex[300];
                snprintf(ex, sizeof ex, "report %s: pc 0x%llx: device %s, debug info %s",
                         rep->id ? rep->id : "?", (unsigned long long)f->pc, f->device_name,
                         fn ? fn : "??");
                tt_stats_add(c->stats, "kscrash_device_name_mismatch", rep->file, TT_SEV_INFO,
                             1, ex);
            }
        }
        tt_buf_puts(b, "\n");
    }
}

static void thread_block(kctx *c, const tt_ks_report *rep, int ti, const char *title)
{
    const tt_ks_thread *t = &rep->threads[ti];
    tt_buf *b = &c->b;
    tt_buf_puts(b, title);
    tt_buf_puts(b, " (");
    if (t->has_index)
        tt_buf_printf(b, "index %lld", (long long)t->index);
    else
        tt_buf_puts(b, "no index");
    if (t->name)
        tt_buf_printf(b, ", %s", t->name);
    if (t->queue)
        tt_buf_printf(b, ", %s", t->queue);
    if (t->has_cpu)
        tt_buf_printf(b, ", cpu %.1f%%", t->cpu);
    if (t->crashed)
        tt_buf_puts(b, ", crashed");
    tt_buf_puts(b, ")\n");
    if (!t->n_frames)
        tt_buf_puts(b, "    (no frames)\n");
    for (uint32_t i = 0; i < t->n_frames; i++)
        frame_lines(c, rep, rep->frames[t->frame + i].pos, &rep->frames[t->frame + i]);
    tt_buf_puts(b, "\n");
}

static void profile_block(kctx *c, const tt_ks_report *rep)
{
    tt_buf *b = &c->b;
    tt_buf_printf(b, "Profile (%s; samples, self in brackets)\n",
                  rep->shape == TT_KS_STANDARD ? "threads_profile" : "stack_string");
    for (size_t i = 0; i < rep->n_nodes; i++) {
        const tt_ks_node *nd = &rep->nodes[i];
        const tt_ks_frame *f = &rep->frames[nd->frame];
        for (uint32_t d = 0; d < nd->depth && d < 64; d++)
            tt_buf_puts(b, "  ");
        tt_buf_printf(b, "%lld [%lld]", (long long)nd->sample, (long long)nd->self);
        if (nd->sample_bg)
            tt_buf_printf(b, " bg %lld", (long long)nd->sample_bg);
        tt_buf_puts(b, "  ");
        cli_ks_short_name(b, rep, f);
        if (f->n_sym) {
            const tt_native_frame *s = &rep->syms[f->sym + f->n_sym - 1];
            put_source(c, s);
            if (s->approximate) {
                tt_buf_puts(b, APPROX_MARK);
                c->approx = 1;
            }
        }
        tt_buf_puts(b, "\n");
    }
    tt_buf_puts(b, "\n");
}

static void header(kctx *c, const tt_ks_report *rep)
{
    tt_buf *b = &c->b;
    tt_buf_printf(b, "Report %s  ", rep->id ? rep->id : "(no id)");
    if (rep->has_dump_type)
        tt_buf_printf(b, "%s (%lld)", rep->dump_name, (long long)rep->dump_type);
    else if (rep->shape == TT_KS_PROFILE)
        tt_buf_puts(b, "Matrix lag profile (stack_string)");
    else
        tt_buf_printf(b, "crash: %s", rep->crash_text  ? rep->crash_text
                                      : rep->error_type ? rep->error_type
                                                        : "unknown");
    if (rep->has_time && rep->unix_ms >= 0) { /* put_time prints no time before 1970 */
        tt_buf_puts(b, "  ");
        put_time(b, rep->unix_ms);
    }
    tt_buf_puts(b, "\n");
    const char *app = rep->bundle_name ? rep->bundle_name
                      : rep->bundle_exec ? rep->bundle_exec
                                         : rep->process_name;
    if (app || rep->app_uuid[0]) {
        tt_buf_printf(b, "App:     %s", app ? app : "?");
        if (rep->short_version)
            tt_buf_printf(b, " %s", rep->short_version);
        if (rep->bundle_version)
            tt_buf_printf(b, " (%s)", rep->bundle_version);
        if (rep->bundle_id)
            tt_buf_printf(b, "  %s", rep->bundle_id);
        if (rep->app_uuid[0])
            tt_buf_printf(b, "  UUID %s", rep->app_uuid);
        tt_buf_puts(b, "\n");
    }
    if (rep->machine || rep->system_name || rep->arch) {
        tt_buf_printf(b, "Device:  %s", rep->machine ? rep->machine : "?");
        if (rep->system_name)
            tt_buf_printf(b, "  %s %s", rep->system_name,
                          rep->system_version ? rep->system_version : "");
        if (rep->os_version)
            tt_buf_printf(b, " (%s)", rep->os_version);
        if (rep->arch)
            tt_buf_printf(b, "  %s", rep->arch);
        tt_buf_puts(b, "\n");
    }
    if (rep->has_suspend || rep->has_snapshot) {
        tt_buf_puts(b, "Dump:   ");
        if (rep->has_suspend)
            tt_buf_printf(b, " suspend_all_threads=%s", rep->suspend_all ? "true" : "false");
        if (rep->has_snapshot)
            tt_buf_printf(b, " snapshot_status=%lld", (long long)rep->snapshot_status);
        tt_buf_puts(b, "\n");
    }
    if (rep->recrash == 1)
        tt_buf_printf(b, "Recrash: the original report, kept as recrash_report by report %s "
                      "(KSCrash's handler crashed while writing it)\n",
                      rep->recrash_id ? rep->recrash_id : "(no id)");
    else if (rep->recrash == 2)
        tt_buf_printf(b, "Recrash: KSCrash's handler crashed while writing report %s (shown "
                      "before); this minimal report holds the handler's crashed thread\n",
                      rep->recrash_id ? rep->recrash_id : "(no id)");
    if (rep->reason && *rep->reason)
        tt_buf_printf(b, "Reason:  %s\n", rep->reason);
    for (size_t i = 0; i < rep->n_images; i++)
        for (int k = 0; k < 4; k++)
            if (rep->images[i].crash_info[k])
                tt_buf_printf(b, "Crash info %s: %s\n", rep->images[i].name,
                              rep->images[i].crash_info[k]);
    tt_buf_puts(b, "\n");
}

static void print_text(kctx *c, const tt_ks_report *rep)
{
    tt_buf *b = &c->b;
    header(c, rep);
    c->approx = 0;
    int th = c->o->threads;
    if (th == CLI_KS_THREADS_ALL) {
        for (size_t i = 0; i < rep->n_threads; i++)
            thread_block(c, rep, (int)i,
                         (int)i == rep->point_thread  ? "Point stack"
                         : (int)i == rep->main_thread ? "Main thread"
                                                      : "Thread");
    } else {
        int pt = rep->point_thread;
        if (pt >= 0 && th != CLI_KS_THREADS_MAIN) {
            tt_buf_printf(b, "Point stack: HandledThread is Matrix's pick among its main-thread "
                             "samples, not a real thread (hence two \"index 0\")\n"
                             "\u00d7N = samples holding the frame (repeat_count); \u2248 ms = N \u00d7 %lld ms, "
                             "an estimate\n",
                          (long long)c->o->interval_ms);
            thread_block(c, rep, pt, "Point stack");
        }
        if (th != CLI_KS_THREADS_POINT) {
            if (rep->main_thread >= 0)
                thread_block(c, rep, rep->main_thread, "Main thread");
            else if (rep->shape == TT_KS_STANDARD)
                tt_buf_puts(b, "Main thread: not in this dump\n\n");
            if (th == CLI_KS_THREADS_DEFAULT) {
                int cpu = rep->has_dump_type && rep->dump_type == 2003;
                for (size_t i = 0; i < rep->n_threads; i++) {
                    int t = (int)i;
                    if (t == pt || t == rep->main_thread)
                        continue;
                    if (cpu && rep->threads[i].has_cpu)
                        thread_block(c, rep, t, "CPU thread");
                    else if (!rep->has_dump_type && t == rep->crashed_thread)
                        thread_block(c, rep, t, "Crashed thread");
                }
            }
        }
    }
    if (rep->n_nodes && th != CLI_KS_THREADS_MAIN && th != CLI_KS_THREADS_POINT)
        profile_block(c, rep);
    if (c->approx)
        tt_buf_puts(b, "[approximate]: named from the image's symbol table only, without its dSYM: "
                       "the pc may lie in a neighbouring function whose symbol was stripped\n\n");
    if (c->key.key[0])
        tt_buf_printf(b, "Top app frame: %s        group key: %s\n\n",
                      c->key.top[0] ? c->key.top : "(none)", c->key.key);
    emit(c);
}

/* ---- missing symbols (9.5) ---- */

static void note_missing(kctx *c, const tt_ks_report *rep)
{
    for (size_t i = 0; i < rep->n_images; i++) {
        const tt_ks_image *g = &rep->images[i];
        if (!g->n_unresolved)
            continue;
        c->b.len = 0;
        tt_buf_printf(&c->b, "%s/%s", g->uuid, g->name);
        uint32_t id;
        if (!c->miss_ids || tt_intern_get(c->miss_ids, c->b.data, c->b.len, &id))
            continue;
        if (id == c->missing.len) {
            miss *m = tt_vec_push(&c->missing, NULL);
            if (!m)
                continue;
            snprintf(m->name, sizeof m->name, "%s", g->name);
            snprintf(m->uuid, sizeof m->uuid, "%s", g->uuid);
        }
        if (id < c->missing.len)
            TT_VEC_AT(&c->missing, miss, id).frames += g->n_unresolved;
    }
    c->b.len = 0;
}

static int cmp_miss(const void *x, const void *y)
{
    const miss *a = x, *b = y;
    if (a->frames != b->frames)
        return a->frames > b->frames ? -1 : 1;
    int r = strcmp(a->name, b->name);
    return r ? r : strcmp(a->uuid, b->uuid);
}

static void print_missing(kctx *c)
{
    if (!c->missing.len)
        return;
    qsort(c->missing.data, c->missing.len, sizeof(miss), cmp_miss);
    tt_buf_printf(&c->b, "Images without symbols (%zu; frames show image + offset):\n",
                  c->missing.len);
    for (size_t i = 0; i < c->missing.len; i++) {
        const miss *m = &TT_VEC_AT(&c->missing, miss, i);
        tt_buf_printf(&c->b, "  %-31s %-32s %llu frame%s\n", m->name, m->uuid[0] ? m->uuid : "(no uuid)",
                      (unsigned long long)m->frames, m->frames == 1 ? "" : "s");
    }
    emit(c);
}

/* ---- JSON (9.2), folded (9.3), CSV ---- */

static void tt_members(kctx *c, const tt_ks_report *rep, tt_buf *m)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "version");
    tt_jsonw_str(&w, TT_VERSION_STRING);
    tt_jsonw_key(&w, "group_key");
    if (c->key.key[0])
        tt_jsonw_str(&w, c->key.key);
    else
        tt_jsonw_null(&w);
    tt_jsonw_key(&w, "top_app_frame");
    if (c->key.top[0])
        tt_jsonw_str(&w, c->key.top);
    else
        tt_jsonw_null(&w);
    static const char *const k[3] = {"main_thread", "point_thread", "crashed_thread"};
    int v[3] = {rep->main_thread, rep->point_thread, rep->crashed_thread};
    for (int i = 0; i < 3; i++) {
        tt_jsonw_key(&w, k[i]);
        if (v[i] >= 0)
            tt_jsonw_int(&w, v[i]);
        else
            tt_jsonw_null(&w);
    }
    if (rep->recrash) { /* KSCrash recrash: which part this is, and the other's id */
        tt_jsonw_key(&w, "recrash");
        tt_jsonw_str(&w, rep->recrash == 1 ? "original" : "minimal");
        tt_jsonw_key(&w, "recrash_id");
        if (rep->recrash_id)
            tt_jsonw_str(&w, rep->recrash_id);
        else
            tt_jsonw_null(&w);
    }
    uint64_t noimg = 0, pac = 0, unres = 0;
    for (size_t i = 0; i < rep->n_frames; i++) {
        noimg += rep->frames[i].image < 0;
        pac += rep->frames[i].pac;
        unres += rep->frames[i].image >= 0 && !rep->frames[i].n_sym;
    }
    tt_jsonw_key(&w, "stats");
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "frames");
    tt_jsonw_uint(&w, rep->n_frames);
    tt_jsonw_key(&w, "kscrash_no_image");
    tt_jsonw_uint(&w, noimg);
    tt_jsonw_key(&w, "kscrash_pac_stripped");
    tt_jsonw_uint(&w, pac);
    tt_jsonw_key(&w, "unresolved");
    tt_jsonw_uint(&w, unres);
    tt_jsonw_obj_end(&w);
    tt_jsonw_obj_end(&w);
    /* members only: drop the braces */
    if (w.buf.len >= 2)
        tt_buf_put(m, w.buf.data + 1, w.buf.len - 2);
    tt_buf_put(m, "", 1);
    tt_jsonw_free(&w);
}

static void print_json(kctx *c, const tt_ks_reader *r, const tt_ks_report *rep)
{
    tt_buf m = {0};
    tt_members(c, rep, &m);
    for (size_t i = 0; i < rep->n_images && c->names.sym; i++) {
        tt_ks_image *g = &rep->images[i];
        if (g->n_frames > g->n_unresolved) /* loaded while reading: no messages */
            g->debug_file = cli_sym_debug_file(c->names.sym, g->path[0] ? g->path : g->name,
                                               g->uuid);
    }
    if (c->o->format == CLI_KS_JSON)
        tt_buf_puts(&c->b, c->json_count++ ? ",\n" : "[\n");
    tt_ks_json_write(&c->b, r, rep, m.data);
    if (c->o->format == CLI_KS_JSONL)
        tt_buf_puts(&c->b, "\n");
    tt_buf_free(&m);
    emit(c);
}

/* Folded names have no escaping (samples.md 7.2): the name written from start on */
static void folded_name(tt_buf *b, size_t start)
{
    tt_folded_name_fix(b->data + start, b->len - start);
}

static void folded_frames(kctx *c, const tt_ks_report *rep, const uint32_t *idx, size_t n,
                          int64_t weight)
{
    if (!n || weight <= 0)
        return;
    size_t line = c->b.len;
    for (size_t i = 0; i < n; i++) {
        const tt_ks_frame *f = &rep->frames[idx[i]];
        if (i)
            tt_buf_puts(&c->b, ";");
        size_t start = c->b.len;
        if (f->n_sym < 2) {
            cli_ks_short_name(&c->b, rep, f);
            folded_name(&c->b, start);
            continue;
        }
        for (uint32_t k = f->n_sym; k-- > 0;) { /* inline chain, outermost first */
            const char *fn = rep->syms[f->sym + k].function;
            start = c->b.len;
            tt_buf_puts(&c->b, fn && *fn ? fn : "??");
            folded_name(&c->b, start);
            if (k)
                tt_buf_puts(&c->b, ";");
        }
    }
    if (!c->paths) {
        tt_buf_printf(&c->b, " %lld\n", (long long)weight);
        return;
    }
    uint32_t id;
    if (tt_intern_get(c->paths, c->b.data + line, c->b.len - line, &id) ||
        (id == c->weights.len && !tt_vec_push(&c->weights, NULL)))
        c->nomem = 1;
    else { /* saturating: repeat counts and self samples come from the report */
        int64_t *w = &TT_VEC_AT(&c->weights, int64_t, id);
        *w = *w > INT64_MAX - weight ? INT64_MAX : *w + weight;
    }
    c->b.len = line;
}

typedef struct fpath {
    const char *p;
    size_t n;
    uint32_t id;
} fpath;

static int cmp_path(const void *a, const void *b)
{
    const fpath *x = a, *y = b;
    int r = memcmp(x->p, y->p, x->n < y->n ? x->n : y->n);
    return r ? r : (x->n > y->n) - (x->n < y->n);
}

/* o->aggregate: one line per distinct path, sorted by the path bytes (samples.md 7.2) */
static void print_paths(kctx *c)
{
    size_t n = c->weights.len;
    fpath *v = malloc((n + 1) * sizeof *v);
    if (!v) {
        c->nomem = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        v[i].id = (uint32_t)i;
        v[i].p = tt_intern_str(c->paths, v[i].id, &v[i].n);
    }
    qsort(v, n, sizeof *v, cmp_path);
    for (size_t i = 0; i < n; i++) {
        tt_buf_put(&c->b, v[i].p, v[i].n);
        tt_buf_printf(&c->b, " %lld\n", (long long)TT_VEC_AT(&c->weights, int64_t, v[i].id));
        if (c->b.len > 65536)
            emit(c);
    }
    emit(c);
    free(v);
}

static void print_folded(kctx *c, const tt_ks_report *rep)
{
    uint32_t path[256 + 1];
    for (size_t i = 0; i < rep->n_nodes; i++) { /* root-to-node paths weighted by self */
        const tt_ks_node *nd = &rep->nodes[i];
        size_t n = 0;
        for (int32_t p = (int32_t)i; p >= 0 && n < 257; p = rep->nodes[p].parent)
            path[n++] = rep->nodes[p].frame;
        for (size_t k = 0; k < n / 2; k++) {
            uint32_t t = path[k];
            path[k] = path[n - 1 - k];
            path[n - 1 - k] = t;
        }
        folded_frames(c, rep, path, n, nd->self);
    }
    int t = c->key.thread;
    if (t >= 0) { /* the key stack (point stack, main thread, ...) with weight 1, or with
                   * --weight repeat its top frame's repeat count */
        const tt_ks_thread *th = &rep->threads[t];
        int64_t w = 1;
        if (c->o->weight_repeat && th->n_frames && rep->frames[th->frame].repeat > 0)
            w = rep->frames[th->frame].repeat;
        uint32_t *idx = malloc((th->n_frames + 1) * sizeof *idx);
        if (idx) {
            for (uint32_t i = 0; i < th->n_frames; i++)
                idx[i] = th->frame + th->n_frames - 1 - i;
            folded_frames(c, rep, idx, th->n_frames, w);
            free(idx);
        }
    }
    emit(c);
}

static void print_csv(kctx *c, const tt_ks_report *rep)
{
    tt_buf *b = &c->b;
    if (!c->reports)
        tt_buf_puts(b, "report_id,thread,frame,image,uuid,pc,offset,repeat_count,function,"
                       "file,line,inlined\n");
    for (size_t t = 0; t < rep->n_threads; t++) {
        const tt_ks_thread *th = &rep->threads[t];
        for (uint32_t i = 0; i < th->n_frames; i++) {
            const tt_ks_frame *f = &rep->frames[th->frame + i];
            const tt_ks_image *g = f->image >= 0 ? &rep->images[f->image] : NULL;
            uint32_t lines = f->n_sym ? f->n_sym : 1;
            for (uint32_t k = 0; k < lines; k++) {
                const tt_native_frame *s = f->n_sym ? &rep->syms[f->sym + k] : NULL;
                cli_csv_str(b, rep->id);
                tt_buf_printf(b, ",%zu,%u,", t, f->pos);
                cli_csv_str(b, g ? g->name : "");
                tt_buf_printf(b, ",%s,0x%llx,", g ? g->uuid : "", (unsigned long long)f->pc);
                if (g)
                    tt_buf_printf(b, "%llu", (unsigned long long)f->offset);
                tt_buf_puts(b, ",");
                if (f->has_repeat)
                    tt_buf_printf(b, "%lld", (long long)f->repeat);
                tt_buf_puts(b, ",");
                /* a frame the report alone names: its name, as text and folded show it */
                const char *dn = s ? NULL : cli_ks_device_name(rep, f);
                cli_csv_str(b, s ? s->function : dn ? cli_swift_name(c->swift, dn) : NULL);
                tt_buf_puts(b, ",");
                cli_csv_str(b, s ? s->file : NULL);
                tt_buf_puts(b, ",");
                if (s && s->line)
                    tt_buf_printf(b, "%u", s->line);
                tt_buf_printf(b, ",%d\n", s ? s->inlined : 0);
            }
        }
    }
    emit(c);
}

/* ---- driver ---- */

static int one_report(kctx *c, const tt_ks_reader *r, tt_ks_report *rep)
{
    cli_ks_mark_app(&c->names, rep);
    for (size_t i = 0; i < rep->n_images && c->names.sym; i++)
        cli_sym_saw_uuid(c->names.sym, rep->images[i].uuid);
    cli_ks_key_compute(&c->key, &c->names, rep);
    /* keys use the mangled Swift names, everything printed the demangled ones (7) */
    cli_swift_frames(c->swift, rep->syms, rep->n_syms);
    /* without a symbol store too: then every image of a frame is one to fetch (9.5) */
    note_missing(c, rep);
    if (c->o->group) {
        if (cli_ks_groups_add(c->groups, rep, &c->key))
            return -1;
    } else if (c->o->format == CLI_KS_TEXT) {
        print_text(c, rep);
    } else if (c->o->format == CLI_KS_JSON || c->o->format == CLI_KS_JSONL) {
        print_json(c, r, rep);
    } else if (c->o->format == CLI_KS_FOLDED) {
        print_folded(c, rep);
    } else {
        print_csv(c, rep);
    }
    c->reports++;
    return 0;
}

static int read_file(kctx *c, const tt_resolver *res, const char *path, cli_ctx *ctx)
{
    tt_error err = {0};
    tt_input *in;
    if (cli_ks_open(&in, path, &err))
        return cli_err(&err);
    const char *apple = apple_crash(in); /* also with --kind kscrash */
    if (apple) {
        tt_input_close(in);
        return apple_refused(path, apple);
    }
    int json = !c->o->group && (c->o->format == CLI_KS_JSON || c->o->format == CLI_KS_JSONL);
    tt_ks_opts ko = {.resolver = res, .no_adjust = c->o->no_adjust, .no_image_json = !json};
    tt_ks_reader *r;
    int rc = tt_ks_reader_new(&r, in, &ko, ctx->stats, &err);
    if (rc) {
        tt_input_close(in);
        return cli_err(&err);
    }
    uint64_t good = 0;
    for (;;) {
        const tt_ks_report *rep;
        rc = tt_ks_reader_next(r, &rep, &err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc) {
            rc = cli_err(&err);
            break;
        }
        good++;
        if (one_report(c, r, (tt_ks_report *)rep)) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
            break;
        }
    }
    if (!rc && !good) {
        cli_stderrf("tracetool: %s: no usable KSCrash or Matrix iOS report\n", path);
        rc = CLI_BAD;
    }
    tt_ks_reader_free(r);
    tt_input_close(in);
    return rc;
}

int cli_ks_run(const cli_ks_opts *o, char **files, int nfiles, cli_ctx *ctx)
{
    kctx c = {.o = o, .stats = ctx->stats, .miss_ids = tt_intern_new()};
    tt_vec_init(&c.missing, sizeof(miss));
    tt_vec_init(&c.weights, sizeof(int64_t));
    if (o->aggregate && !(c.paths = tt_intern_new()))
        c.nomem = 1;
    if (cli_ks_names_init(&c.names, o)) {
        tt_intern_free(c.miss_ids);
        return CLI_BAD;
    }
    if (o->group && !(c.groups = cli_ks_groups_new())) {
        cli_ks_names_free(&c.names);
        tt_intern_free(c.miss_ids);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    cli_sym *sym = NULL;
    tt_resolver res = {0};
    int rc = 0;
    const char *env = getenv("TRACETOOL_SYMBOL_PATH");
    if (o->sym.n_dirs || o->sym.n_exes || o->sym.n_dsyms || (env && *env)) {
        if (!(rc = cli_sym_open(&sym, &o->sym, ctx))) {
            cli_sym_resolver(&res, sym);
            cli_sym_swift_keys(sym, 1);
            c.swift = cli_sym_swift(sym);
            c.names.sym = sym;
            c.resolving = 1;
        }
    }
    cli_swift *own = NULL; /* without symbols: for the on-device names */
    if (!rc && !sym) {
        const char *cmd = o->sym.swift ? o->sym.swift : getenv("TRACETOOL_SWIFT_DEMANGLE");
        if (!(c.swift = own = cli_swift_new(cmd, ctx->stats))) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
        }
    }
    for (int i = 0; i < nfiles && !rc; i++)
        rc = read_file(&c, c.resolving ? &res : NULL, files[i], ctx);
    if (c.o->format == CLI_KS_JSON && !o->group) {
        tt_buf_puts(&c.b, c.json_count ? "\n]\n" : "[]\n");
        emit(&c);
    }
    if (c.paths && !rc && !c.nomem)
        print_paths(&c);
    if (c.nomem && !rc) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    if (o->group)
        cli_ks_groups_print(c.groups, o->format, c.reports);
    else if (o->format == CLI_KS_TEXT)
        print_missing(&c);
    if (!rc)
        cli_sym_dsym_unmatched(sym);
    cli_ks_groups_free(c.groups);
    cli_ks_key_free(&c.key);
    cli_ks_names_free(&c.names);
    cli_sym_close(sym);
    cli_swift_free(own);
    tt_vec_free(&c.missing);
    tt_vec_free(&c.weights);
    tt_intern_free(c.paths);
    tt_intern_free(c.miss_ids);
    tt_buf_free(&c.b);
    return rc;
}
