/* One KSCrash / Matrix iOS report object into tt_ks_report (spec/ios.md 2.3-2.6, 3, 4):
 * frames mapped to images (PAC mask, 4.3 adjustment) and resolved, threads, main and point
 * thread, the profile tree in sorted pre-order; the images are read by kscrash_images.c. */
#include "kscrash_build_int.h"

#include <stdio.h>
#include <stdlib.h>

#define PAC_MASK UINT64_C(0x0000000FFFFFFFFF)
#define MAX_NODE_DEPTH 256

static int warn(bctx *c, const char *fmt, const char *a)
{
    snprintf(c->r->warn, sizeof c->r->warn, fmt, a);
    return TT_EFORMAT;
}

/* ---- frames (4.1-4.3) ---- */

/* The 4.3 rule of an architecture name (4.4): 0 arm64 (also an unknown or absent name), 1
 * 32-bit ARM, 2 x86 */
static int arch_kind(const char *arch)
{
    if (!arch)
        return 0;
    return !strncmp(arch, "armv", 4)                         ? 1
           : !strncmp(arch, "x86", 3) || !strcmp(arch, "i386") ? 2
                                                              : 0;
}

/* An image's own architecture decides (4.4: its cpu_type and cpu_subtype; a Rosetta
 * process on arm64 runs x86_64 images), else the report's */
static int image_kind(const bctx *c, int32_t i)
{
    const tt_ks_image *g = &((const tt_ks_image *)c->r->images.data)[i];
    return g->arch ? arch_kind(g->arch) : c->arch_kind;
}

/* pc, frame pos of its backtrace (or a profile node): the image, pointer-authentication
 * bits masked only for an arm64 image (4.1), then the 4.3 adjustment by the image's rule */
static int add_frame(bctx *c, const void *fo, uint64_t pc, int is_return, uint32_t pos)
{
    tt_ks_frame *f = tt_vec_push(&c->r->frames, NULL);
    if (!f)
        return TT_ENOMEM;
    f->pc = pc;
    f->pos = pos;
    f->json = c->r->tree ? NULL : fo;
    f->is_return = is_return;
    if (c->from_frames) {
        int pac;
        f->image = tt_ks__frame_image(c, fo, pc, PAC_MASK, &pac);
        if (f->image >= 0 && pac && image_kind(c, f->image) != 0) {
            f->image = -1; /* only masking put it there: no PAC on that architecture */
            pac = 0;
        }
        f->pac = pac;
        c->pac += (uint64_t)pac;
    } else
        f->image = tt_ks__find_image(c, pc);
    if (f->image < 0 && !c->from_frames && (pc & PAC_MASK) != pc) {
        int32_t i = tt_ks__find_image(c, pc & PAC_MASK);
        if (i >= 0 && image_kind(c, i) == 0) {
            f->image = i;
            f->pac = 1;
            c->pac++;
        }
    }
    f->device_name = jstr(c, fo, "symbol_name");
    if (!f->device_name && jget(c, fo, "instruction_address"))
        f->device_name = jstr(c, fo, "object_name"); /* Matrix custom nodes (2.5) */
    f->has_device_addr = ju64(c, fo, "symbol_addr", &f->device_addr);
    if (jget(c, fo, "instruction_addr"))
        f->object_name = jstr(c, fo, "object_name");
    f->sym = (uint32_t)c->r->syms.len;
    if (f->image < 0) {
        c->no_image++;
        return 0;
    }
    tt_ks_image *g = &((tt_ks_image *)c->r->images.data)[f->image];
    g->n_frames++;
    f->offset = (f->pac ? pc & PAC_MASK : pc) - g->addr;
    uint64_t a = f->offset;
    int ret = is_return && !c->r->opts.no_adjust;
    int kind = image_kind(c, f->image);
    if (ret)
        a &= kind == 0 ? ~UINT64_C(3) : kind == 1 ? ~UINT64_C(1) : ~UINT64_C(0);
    if (ret && a == 0)
        ret = 0;
    f->lookup = ret ? a - 1 : a;
    tt_native_frame chain[TT_KS_MAX_CHAIN];
    tt_native_loc loc = {.module = g->path[0] ? g->path : g->name,
                         .build_id = g->uuid[0] ? g->uuid : NULL,
                         .addr = a,
                         .addr_kind = TT_NADDR_OFFSET,
                         .return_address = ret,
                         .bound_only = !g->uuid[0],
                         .want_start = 1,
                         .arch = g->arch ? g->arch : c->rep->arch};
    tt_error e = {0};
    int n = tt_resolve(c->r->opts.resolver, chain, TT_KS_MAX_CHAIN, &loc, &e);
    if (n < 0) {
        f->resolve_err = n;
        n = 0;
    }
    int fstart = n == 1 && !chain[0].function && !chain[0].file && chain[0].has_start;
    if (fstart) /* a function start without a name (6.5): still unresolved */
        n = 0;
    for (int i = 0; i < n; i++) {
        tt_native_frame *s = tt_vec_push(&c->r->syms, &chain[i]);
        if (!s)
            return TT_ENOMEM;
    }
    f = &((tt_ks_frame *)c->r->frames.data)[c->r->frames.len - 1];
    f->n_sym = (uint32_t)n;
    f->has_fstart = fstart;
    f->fstart = fstart ? chain[0].start : 0;
    if (!n) {
        g->n_unresolved++;
        c->unresolved++;
    }
    return 0;
}

static int read_thread(bctx *c, const void *t)
{
    tt_ks_thread th = {0};
    th.has_index = jint(c, t, "index", &th.index);
    th.name = jstr(c, t, "name");
    th.queue = jstr(c, t, "dispatch_queue");
    if (th.name && !*th.name) /* an empty name or queue is no name */
        th.name = NULL;
    if (th.queue && !*th.queue)
        th.queue = NULL;
    th.crashed = jtype(c, jget(c, t, "crashed")) == JSON_TRUE;
    th.current = jtype(c, jget(c, t, "current_thread")) == JSON_TRUE;
    th.handled = th.name && !strcmp(th.name, "HandledThread");
    th.has_cpu = jnumval(c, jget(c, t, "cpu_usage"), &th.cpu);
    th.frame = (uint32_t)c->r->frames.len;
    const void *bt = jget(c, jget(c, t, "backtrace"), "contents");
    jit it;
    uint32_t pos = 0; /* in backtrace.contents: 0 is the PC even when it was skipped (4.3) */
    for (const void *fo = jfirst(c, &it, bt); fo; fo = jnext(c, &it), pos++) {
        uint64_t pc;
        if (jtype(c, fo) != JSON_OBJECT || !ju64(c, fo, "instruction_addr", &pc)) {
            c->bad_frames++;
            continue;
        }
        int rc = add_frame(c, fo, pc, pos > 0, pos);
        if (rc)
            return rc;
        int64_t rpt;
        if (jint(c, fo, "repeat_count", &rpt)) {
            tt_ks_frame *f = &((tt_ks_frame *)c->r->frames.data)[c->r->frames.len - 1];
            f->has_repeat = 1;
            f->repeat = rpt;
        }
    }
    th.n_frames = (uint32_t)(c->r->frames.len - th.frame);
    return tt_vec_push(&c->r->threads, &th) ? 0 : TT_ENOMEM;
}

/* ---- profile tree (3.2) ---- */

typedef struct kid {
    const void *o;
    uint64_t addr;
    int64_t sample;
} kid;

static int cmp_kid(const void *x, const void *y)
{
    const kid *a = x, *b = y;
    if (a->sample != b->sample)
        return a->sample > b->sample ? -1 : 1;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int read_nodes(bctx *c, const void *arr, int32_t parent, uint32_t depth)
{
    size_t n = jsize(c, arr), k = 0;
    if (!n)
        return 0;
    if (depth >= MAX_NODE_DEPTH) {
        c->deep += n;
        return 0;
    }
    kid *kids = calloc(n, sizeof *kids);
    if (!kids)
        return TT_ENOMEM;
    jit it;
    for (size_t i = 0; i < n; i++) {
        const void *o = i ? jnext(c, &it) : jfirst(c, &it, arr);
        if (jtype(c, o) != JSON_OBJECT || !ju64(c, o, "instruction_address",
                                              &kids[k].addr)) {
            c->bad_frames++;
            continue;
        }
        kids[k].o = o;
        jint(c, o, "sample", &kids[k].sample);
        k++;
    }
    qsort(kids, k, sizeof *kids, cmp_kid);
    int rc = 0;
    for (size_t i = 0; i < k && !rc; i++) {
        const void *ch = jget(c, kids[i].o, "child");
        int has_kids = jsize(c, ch) > 0;
        tt_ks_node nd = {.parent = parent, .depth = depth, .sample = kids[i].sample,
                         .frame = (uint32_t)c->r->frames.len};
        jint(c, kids[i].o, "sample_background", &nd.sample_bg);
        if ((rc = add_frame(c, kids[i].o, kids[i].addr, has_kids, 0)))
            break;
        int32_t me = (int32_t)c->r->nodes.len;
        if (!tt_vec_push(&c->r->nodes, &nd)) {
            rc = TT_ENOMEM;
            break;
        }
        if (parent >= 0)
            ((tt_ks_node *)c->r->nodes.data)[parent].n_children++;
        rc = read_nodes(c, ch, me, depth + 1);
    }
    free(kids);
    return rc;
}

static void node_self(bctx *c)
{
    tt_ks_node *nd = c->r->nodes.data;
    size_t n = c->r->nodes.len;
    for (size_t i = 0; i < n; i++)
        nd[i].self = nd[i].sample;
    for (size_t i = 0; i < n; i++)
        if (nd[i].parent >= 0) { /* a negative sample takes nothing; saturating */
            int64_t *self = &nd[nd[i].parent].self, x = nd[i].sample > 0 ? nd[i].sample : 0;
            *self = *self < INT64_MIN + x ? INT64_MIN : *self - x;
        }
    for (size_t i = 0; i < n; i++)
        if (nd[i].self < 0) {
            nd[i].self = 0;
            c->neg_self++;
        }
}

/* ---- report fields ---- */

static void read_header(bctx *c, const void *o)
{
    tt_ks_report *rep = c->rep;
    const void *h = jget(c, o, "report");
    rep->id = jstr(c, h, "id");
    rep->process_name = jstr(c, h, "process_name");
    rep->type = jstr(c, h, "type");
    rep->version = jstr(c, h, "version");
    int64_t ts;
    const char *tss = jstr(c, h, "timestamp");
    int ts_int = jint(c, h, "timestamp", &ts);
    if (ts_int && ts < INT64_MIN / 1000) { /* as milliseconds out of range */
        char ex[TT_ERRMSG_MAX];
        snprintf(ex, sizeof ex, "%.200s:%llu: report.timestamp %lld is out of range",
                 c->r->file ? c->r->file : "-", (unsigned long long)rep->line, (long long)ts);
        tt_stats_add(c->r->stats, "kscrash_bad_timestamp", c->r->file, TT_SEV_WARN, 1, ex);
    } else if (ts_int) {
        rep->has_time = 1;
        rep->unix_ms = ts < INT64_C(100000000000)    ? ts * 1000
                       : ts >= INT64_C(100000000000000) ? ts / 1000
                                                        : ts;
    } else if (tss && tt_ks_rfc3339_ms(tss, &rep->unix_ms)) {
        rep->has_time = 1;
    } else if (tss) {
        char ex[TT_ERRMSG_MAX];
        snprintf(ex, sizeof ex, "%.200s:%llu: report.timestamp \"%.60s\" is neither a number "
                 "nor an RFC 3339 time", c->r->file ? c->r->file : "-",
                 (unsigned long long)rep->line, tss);
        tt_stats_add(c->r->stats, "kscrash_bad_timestamp", c->r->file, TT_SEV_WARN, 1, ex);
    }
    const void *s = jget(c, o, "system");
    rep->system_name = jstr(c, s, "system_name");
    rep->system_version = jstr(c, s, "system_version");
    rep->os_version = jstr(c, s, "os_version");
    rep->machine = jstr(c, s, "machine");
    rep->cpu_arch = jstr(c, s, "cpu_arch");
    rep->bundle_name = jstr(c, s, "CFBundleName");
    rep->bundle_exec = jstr(c, s, "CFBundleExecutable");
    rep->bundle_id = jstr(c, s, "CFBundleIdentifier");
    rep->short_version = jstr(c, s, "CFBundleShortVersionString");
    rep->bundle_version = jstr(c, s, "CFBundleVersion");
    rep->app_uuid = tt_ks__norm_uuid(c, jstr(c, s, "app_uuid"));
    rep->has_pid = jint(c, s, "process_id", &rep->pid);
    if (!rep->process_name)
        rep->process_name = jstr(c, s, "process_name");
    int64_t ct, cs;
    if (jint(c, s, "cpu_type", &ct) && jint(c, s, "cpu_subtype", &cs))
        rep->arch = tt_ks_arch_name(ct, cs);
    if (!rep->arch)
        rep->arch = rep->cpu_arch;
}

static void read_error(bctx *c, const void *err)
{
    tt_ks_report *rep = c->rep;
    rep->error_type = jstr(c, err, "type");
    rep->reason = jstr(c, err, "reason");
    const void *u = jget(c, err, "user_reported");
    int64_t dt;
    if (jint(c, u, "dump_type", &dt)) {
        rep->has_dump_type = 1;
        rep->dump_type = dt;
    }
    int v = jtype(c, jget(c, u, "suspend_all_threads"));
    if (v == JSON_TRUE || v == JSON_FALSE) {
        rep->has_suspend = 1;
        rep->suspend_all = v == JSON_TRUE;
    }
    rep->has_snapshot = jint(c, u, "snapshot_status", &rep->snapshot_status);
    const char *mach = jstr(c, jget(c, err, "mach"), "exception_name");
    const char *sig = jstr(c, jget(c, err, "signal"), "name");
    const char *nse = jstr(c, jget(c, err, "nsexception"), "name");
    const char *cpp = jstr(c, jget(c, err, "cpp_exception"), "name");
    if (nse)
        rep->crash_text = nse;
    else if (cpp)
        rep->crash_text = cpp;
    else if (mach && sig) {
        size_t n = strlen(mach) + strlen(sig) + 4;
        char *t = tt_arena_alloc(c->r->arena, n);
        if (t) {
            snprintf(t, n, "%s (%s)", mach, sig);
            rep->crash_text = t;
        }
    } else
        rep->crash_text = mach ? mach : sig ? sig : jstr(c, u, "name");
}

static void dump_type(bctx *c)
{
    tt_ks_report *rep = c->rep;
    if (!rep->has_dump_type)
        return;
    rep->dump_name = tt_ks_dump_type_name(rep->dump_type);
    rep->is_lag = tt_ks_dump_type_is_lag(rep->dump_type);
    if (!rep->dump_name) {
        char t[40];
        snprintf(t, sizeof t, "dump_type_%lld", (long long)rep->dump_type);
        rep->dump_name = tt_arena_strndup(c->r->arena, t, strlen(t));
        tt_stats_add(c->r->stats, "kscrash_unknown_dump_type", c->r->file, TT_SEV_WARN, 1,
                     rep->dump_name);
    }
}

/* 2.6 */
static void find_threads(tt_ks_report *rep)
{
    rep->main_thread = rep->point_thread = rep->crashed_thread = -1;
    int queue = -1, nqueue = 0;
    for (size_t i = 0; i < rep->n_threads; i++) {
        const tt_ks_thread *t = &rep->threads[i];
        if (t->queue && !strcmp(t->queue, "com.apple.main-thread") && !t->handled) {
            queue = (int)i;
            nqueue++;
        }
        if (t->handled && rep->point_thread < 0)
            rep->point_thread = (int)i;
        if (t->crashed && rep->crashed_thread < 0)
            rep->crashed_thread = (int)i;
    }
    if (nqueue == 1) {
        rep->main_thread = queue;
        return;
    }
    if (rep->has_dump_type && rep->dump_type == 2003)
        return; /* CPU dumps: indexes are list positions, not task indexes (2.4) */
    for (size_t i = 0; i < rep->n_threads; i++)
        if (rep->threads[i].has_index && rep->threads[i].index == 0 && !rep->threads[i].handled) {
            rep->main_thread = (int)i;
            return;
        }
}

static void flush_stats(bctx *c)
{
    tt_stats *st = c->r->stats;
    const char *f = c->r->file;
    char ex[200];
    const char *id = c->rep->id ? c->rep->id : "?";
    if (c->bad_frames) {
        snprintf(ex, sizeof ex, "report %s: a frame without a usable address was skipped", id);
        tt_stats_add(st, "kscrash_bad_frame", f, TT_SEV_DATA_LOSS, (int64_t)c->bad_frames, ex);
    }
    if (c->no_image) {
        snprintf(ex, sizeof ex, "report %s: a pc is in no binary image", id);
        tt_stats_add(st, "kscrash_no_image", f, TT_SEV_WARN, (int64_t)c->no_image, ex);
    }
    if (c->pac)
        tt_stats_add(st, "kscrash_pac_stripped", f, TT_SEV_INFO, (int64_t)c->pac, NULL);
    if (c->unresolved && c->r->opts.resolver && c->r->opts.resolver->fn)
        tt_stats_add(st, "kscrash_unresolved", f, TT_SEV_WARN, (int64_t)c->unresolved, NULL);
    if (c->neg_self) {
        snprintf(ex, sizeof ex, "report %s: profile children exceed their parent's samples", id);
        tt_stats_add(st, "ios_profile_negative_self", f, TT_SEV_WARN, (int64_t)c->neg_self, ex);
    }
    if (c->deep) {
        snprintf(ex, sizeof ex, "report %s: profile nodes deeper than %d were dropped", id,
                 MAX_NODE_DEPTH);
        tt_stats_add(st, "ios_profile_too_deep", f, TT_SEV_DATA_LOSS, (int64_t)c->deep, ex);
    }
}

static int build(bctx *c, const void *o)
{
    tt_ks_report *rep = c->rep;
    if (jtype(c, o) != JSON_OBJECT)
        return warn(c, "%sexpected a JSON object", "");
    const void *ss = jget(c, o, "stack_string");
    const void *hdr = jget(c, o, "report");
    const void *crash = jget(c, o, "crash");
    if (jtype(c, ss) == JSON_ARRAY)
        rep->shape = jget(c, o, "dump_type") || jtype(c, hdr) == JSON_OBJECT ? TT_KS_CUSTOM
                                                                           : TT_KS_PROFILE;
    else if (jtype(c, hdr) == JSON_OBJECT &&
             (jtype(c, crash) == JSON_OBJECT || jget(c, o, "binary_images")))
        rep->shape = TT_KS_STANDARD;
    else
        return warn(c, "%sneither a KSCrash report (\"report\" and \"crash\") nor a Matrix "
                       "\"stack_string\" report", "");
    if (rep->shape == TT_KS_STANDARD) { /* a member of the wrong type: nothing to show */
        const void *ths = jget(c, crash, "threads"), *bim = jget(c, o, "binary_images");
        if (ths && jtype(c, ths) != JSON_ARRAY)
            return warn(c, "%scrash.threads is not an array", "");
        if (bim && jtype(c, bim) != JSON_ARRAY && jtype(c, bim) != JSON_NULL)
            return warn(c, "%sbinary_images is not an array", "");
    }
    read_header(c, o);
    if (!rep->app_uuid)
        return TT_ENOMEM;
    c->arch_kind = arch_kind(rep->arch);
    const void *bi = jget(c, o, "binary_images"), *rr = jget(c, o, "recrash_report");
    int fast_bi = c->r->fast && bi && !c->r->nested;
    if (!bi && jtype(c, rr) == JSON_OBJECT) { /* same process: the original's images */
        bi = jget(c, rr, "binary_images");
        rep->recrash_id = jstr(c, jget(c, rr, "report"), "id");
        rep->recrash = 2;
    } else if (jtype(c, rr) == JSON_OBJECT) {
        rep->recrash_id = jstr(c, jget(c, rr, "report"), "id");
        rep->recrash = 2;
    }
    c->from_frames = !bi;
    int rc = fast_bi ? tt_ks__read_fast_images(c)
             : bi       ? tt_ks__read_images(c, bi)
                        : tt_ks__images_from_frames(c, jget(c, crash, "threads"));
    if (rc)
        return rc;
    if (!rep->arch && c->r->images.len) { /* the architecture of the images */
        const tt_ks_image *g = c->r->images.data;
        rep->arch = g[0].arch;
        c->arch_kind = arch_kind(rep->arch);
    }
    if (rep->shape == TT_KS_STANDARD) {
        read_error(c, jget(c, crash, "error"));
        jit it;
        const void *ths = jget(c, crash, "threads");
        for (const void *t = jfirst(c, &it, ths); t; t = jnext(c, &it))
            if (jtype(c, t) == JSON_OBJECT && (rc = read_thread(c, t)))
                return rc;
        /* a recrash ("minimal") report writes only the offending thread, as an object */
        const void *ct = jget(c, crash, "crashed_thread");
        if (jtype(c, ct) == JSON_OBJECT) {
            if ((rc = read_thread(c, ct)))
                return rc;
            ((tt_ks_thread *)c->r->threads.data)[c->r->threads.len - 1].crashed = 1;
        }
        const void *tp = jfirst(c, &it, jget(c, crash, "threads_profile"));
        const void *prof = jget(c, tp, "profile");
        if (jtype(c, prof) == JSON_OBJECT && (rc = read_nodes(c, jget(c, prof, "stack_string"), -1, 0)))
            return rc;
    } else {
        int64_t dt;
        if (jint(c, o, "dump_type", &dt)) {
            rep->has_dump_type = 1;
            rep->dump_type = dt;
        }
        if ((rc = read_nodes(c, ss, -1, 0)))
            return rc;
    }
    dump_type(c);
    node_self(c);
    return 0;
}

const void *tt_ks__recrash(tt_ks_reader *r, const void *o)
{
    bctx c = {.r = r};
    const void *rr = jtype(&c, o) == JSON_OBJECT ? jget(&c, o, "recrash_report") : NULL;
    return jtype(&c, rr) == JSON_OBJECT ? rr : NULL;
}

const char *tt_ks__report_id(tt_ks_reader *r, const void *o)
{
    bctx c = {.r = r};
    const char *id = jstr(&c, jget(&c, o, "report"), "id");
    return c.oom ? NULL : id;
}

int tt_ks__build(tt_ks_reader *r, tt_ks_report *rep, const void *o, uint64_t line,
                 uint64_t index)
{
    tt_arena_free(r->arena);
    if (!(r->arena = tt_arena_new()))
        return TT_ENOMEM;
    r->images.len = r->threads.len = r->frames.len = r->syms.len = r->nodes.len = 0;
    memset(rep, 0, sizeof *rep);
    rep->file = r->file;
    rep->line = line;
    rep->index = index;
    rep->json = r->tree ? NULL : o;
    rep->app_uuid = "";
    bctx c = {.r = r, .rep = rep};
    int rc = build(&c, o);
    if (c.oom)
        return TT_ENOMEM;
    if (rc)
        return rc;
    rep->images = r->images.data;
    rep->n_images = r->images.len;
    rep->threads = r->threads.data;
    rep->n_threads = r->threads.len;
    rep->frames = r->frames.data;
    rep->n_frames = r->frames.len;
    rep->syms = r->syms.data;
    rep->n_syms = r->syms.len;
    rep->nodes = r->nodes.data;
    rep->n_nodes = r->nodes.len;
    tt_ks__mark_app(rep);
    /* no system.app_uuid: the UUID of the image named like CFBundleExecutable (9.4) */
    for (size_t i = 0; !rep->app_uuid[0] && rep->bundle_exec && i < rep->n_images; i++)
        if (!strcmp(rep->images[i].name, rep->bundle_exec))
            rep->app_uuid = rep->images[i].uuid;
    find_threads(rep);
    flush_stats(&c);
    return 0;
}
