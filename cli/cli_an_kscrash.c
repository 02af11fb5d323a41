/* analyze: KSCrash / Matrix iOS reports into the database (spec/ios.md 10): per report a
 * process, its threads, modules by UUID, one issue keyed by the top app frame (9.4), the
 * point stack (issue_stack) and the profile tree (sample_profile); counted problems as stats. */
#include "cli_an.h"

#include <stdlib.h>
#include <string.h>

#include "cli_kscrash.h"
#include "cli_swift.h"

typedef struct ksan {
    cli_an *a;
    int64_t trace_id;
    cli_ks_names names;
    cli_ks_key key;
    tt_buf text, name, json;
    int64_t *module_ids;
    size_t cap_modules;
    /* stack_frame and callsite rows of this trace, interned (storage.md 3.7) */
    tt_intern *frames, *sites;
    tt_vec frame_rows, site_rows; /* int64 row ids by interned id */
    tt_buf fkey;
    struct cli_swift *swift; /* Swift display names (spec/ios.md 7) */
    cli_sym *sym;            /* NULL without symbol options */
} ksan;

typedef struct argctx {
    ksan *k;
    int64_t set, n; /* n: rows written */
    tt_error *err;
} argctx;

static int user_arg(void *ctx, const tt_ks_arg *a)
{
    argctx *c = ctx;
    tdb_db *db = c->k->a->db;
    c->n++;
    return a->type == 'i' ? tdb_arg_int(db, c->set, a->key, a->i, c->err)
           : a->type == 'r' ? tdb_arg_real(db, c->set, a->key, a->d, c->err)
                            : tdb_arg_str(db, c->set, a->key, a->s, c->err);
}

/* The issue's args (10): dump_type, suspend_all_threads, snapshot_status, user.*; *set 0
 * when there are none (the id is then left unused and handed out again). */
static int issue_args(ksan *k, const tt_ks_report *rep, int64_t *set, tt_error *err)
{
    tdb_db *db = k->a->db;
    argctx c = {.k = k, .err = err};
    int rc = tdb_next_id(db, "args", &c.set, err);
    if (!rc && rep->has_dump_type && !(rc = tdb_arg_int(db, c.set, "dump_type", rep->dump_type, err)))
        c.n++;
    if (!rc && rep->has_suspend &&
        !(rc = tdb_arg_int(db, c.set, "suspend_all_threads", rep->suspend_all, err)))
        c.n++;
    if (!rc && rep->has_snapshot &&
        !(rc = tdb_arg_int(db, c.set, "snapshot_status", rep->snapshot_status, err)))
        c.n++;
    if (!rc && (rc = tt_ks_user_each(rep, user_arg, &c)) == TT_ENOMEM && !err->code)
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    *set = c.n ? c.set : 0;
    return rc;
}

/* The main (or key) thread as text: "n image 0xpc name" per frame, n its index in
 * backtrace.contents as report's text numbers it. */
static void thread_text(ksan *k, const tt_ks_report *rep, int t)
{
    k->text.len = 0;
    if (t < 0)
        return;
    const tt_ks_thread *th = &rep->threads[t];
    for (uint32_t i = 0; i < th->n_frames; i++) {
        const tt_ks_frame *f = &rep->frames[th->frame + i];
        tt_buf_printf(&k->text, "%u %s 0x%llx ", f->pos,
                      f->image >= 0 ? rep->images[f->image].name : "???",
                      (unsigned long long)f->pc);
        cli_ks_short_name(&k->text, rep, f);
        tt_buf_puts(&k->text, "\n");
    }
}

static const char *short_name(ksan *k, const tt_ks_report *rep, uint32_t frame)
{
    k->name.len = 0;
    cli_ks_short_name(&k->name, rep, &rep->frames[frame]);
    tt_buf_put(&k->name, "", 1);
    return k->name.data;
}

/* A thread's stack as a single chain, root first; counts are repeat_count (or 1). */
static int store_chain(ksan *k, const tt_ks_report *rep, int t, int64_t issue_id, int64_t utid,
                       int64_t *tree_id, tt_error *err)
{
    const tt_ks_thread *th = &rep->threads[t];
    int rc = tdb_tree_add(k->a->db, k->trace_id, "issue_stack", issue_id, utid, tree_id, err);
    int64_t base = 0;
    if (!rc)
        rc = tdb_next_id(k->a->db, "call_node", &base, err);
    for (uint32_t d = 0; d < th->n_frames && !rc; d++) {
        uint32_t fi = th->frame + th->n_frames - 1 - d;
        const tt_ks_frame *f = &rep->frames[fi];
        tdb_node n = {.id = base + d, .tree_id = *tree_id, .parent_id = d ? base + d - 1 : 0,
                      .depth = d, .ordinal = d, .name = short_name(k, rep, fi),
                      .count = f->has_repeat ? f->repeat : 1};
        rc = tdb_node_add(k->a->db, &n, err);
    }
    return rc;
}

/* A new arg set holding one integer (key, v); *set receives its id. */
static int arg_set_int(ksan *k, const char *key, int64_t v, int64_t *set, tt_error *err)
{
    int rc = tdb_next_id(k->a->db, "args", set, err);
    return rc ? rc : tdb_arg_int(k->a->db, *set, key, v, err);
}

static int store_profile(ksan *k, const tt_ks_report *rep, int64_t issue_id, tt_error *err)
{
    int64_t tree_id, base = 0;
    int rc = tdb_tree_add(k->a->db, k->trace_id, "sample_profile", issue_id, 0, &tree_id, err);
    if (!rc)
        rc = tdb_next_id(k->a->db, "call_node", &base, err);
    for (size_t i = 0; i < rep->n_nodes && !rc; i++) {
        const tt_ks_node *nd = &rep->nodes[i];
        int64_t set = 0; /* args.sample_background, for nodes with background samples */
        if (nd->sample_bg && (rc = arg_set_int(k, "sample_background", nd->sample_bg, &set, err)))
            break;
        tdb_node n = {.id = base + (int64_t)i, .tree_id = tree_id,
                      .parent_id = nd->parent >= 0 ? base + nd->parent : 0, .depth = nd->depth,
                      .ordinal = (int64_t)i, .name = short_name(k, rep, nd->frame),
                      .count = nd->sample, .have_self_count = 1, .self_count = nd->self,
                      .arg_set_id = set};
        rc = tdb_node_add(k->a->db, &n, err);
    }
    return rc;
}

/* The interned row id for key (0 when new: *idx receives the slot to fill). */
static int intern_row(tt_intern *t, tt_vec *rows, const tt_buf *key, int64_t **slot)
{
    uint32_t id;
    if (tt_intern_get(t, key->data, key->len, &id))
        return TT_ENOMEM;
    while (rows->len <= id)
        if (!tt_vec_push(rows, NULL))
            return TT_ENOMEM;
    *slot = &TT_VEC_AT(rows, int64_t, id);
    return 0;
}

/* stack_frame row of a frame: module + vmaddr of the original pc, the on-device name as
 * raw_name, the symbol set of the looked-up address. */
static int frame_row(ksan *k, const tt_ks_report *rep, uint32_t fi, int64_t *row, tt_error *err)
{
    const tt_ks_frame *f = &rep->frames[fi];
    const tt_ks_image *g = f->image >= 0 ? &rep->images[f->image] : NULL;
    int64_t mod = g ? k->module_ids[f->image] : 0;
    const char *name = short_name(k, rep, fi);
    /* the module by its key, not its row id: analyze --jobs records rows with provisional
     * ids, a new one for every report's tdb_module_get of the same module */
    k->fkey.len = 0;
    tt_buf_printf(&k->fkey, "%s|%s|%llx|%s|%s", mod ? g->uuid : "", mod ? g->name : "",
                  (unsigned long long)(g ? f->offset + g->vmaddr : f->pc), name,
                  f->device_name ? f->device_name : "");
    int64_t *slot;
    if (intern_row(k->frames, &k->frame_rows, &k->fkey, &slot))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    if (*slot) {
        *row = *slot;
        return 0;
    }
    int64_t set = 0;
    int rc = 0;
    if (mod && f->n_sym) {
        tdb_symbol sy[TT_KS_MAX_CHAIN];
        for (uint32_t i = 0; i < f->n_sym; i++) {
            const tt_native_frame *n = &rep->syms[f->sym + i];
            sy[i] = (tdb_symbol){.name = n->function, .file = n->file, .line = n->line,
                                 .column = n->column, .is_inlined = n->inlined};
        }
        rc = tdb_symbolized_pc_add(k->a->db, mod, (int64_t)(f->lookup + g->vmaddr), sy, f->n_sym,
                                   &set, err);
    }
    tdb_frame fr = {.trace_id = k->trace_id, .name = name, .raw_name = f->device_name,
                    .kind = "native", .have_rel_pc = g != NULL,
                    .rel_pc = g ? (int64_t)(f->offset + g->vmaddr) : 0, .module_id = mod,
                    .symbol_set_id = set};
    if (!rc)
        rc = tdb_frame_add(k->a->db, &fr, row, err);
    if (!rc)
        *slot = *row;
    return rc;
}

/* A backtrace as a callsite chain, root first. */
static int store_callsites(ksan *k, const tt_ks_report *rep, const tt_ks_thread *th,
                           tt_error *err)
{
    int64_t parent = 0;
    int rc = 0;
    for (uint32_t d = 0; d < th->n_frames && !rc; d++) {
        int64_t frame;
        if ((rc = frame_row(k, rep, th->frame + th->n_frames - 1 - d, &frame, err)))
            break;
        k->fkey.len = 0;
        tt_buf_printf(&k->fkey, "%lld|%lld", (long long)parent, (long long)frame);
        int64_t *slot;
        if (intern_row(k->sites, &k->site_rows, &k->fkey, &slot))
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        if (!*slot) {
            int64_t id;
            if ((rc = tdb_callsite_add(k->a->db, k->trace_id, parent, d, frame, &id, err)))
                break;
            *slot = id;
        }
        parent = *slot;
    }
    return rc;
}

/* binary_image rows (10): the images frames refer to, all of them with --all-images */
static int store_images(ksan *k, const tt_ks_report *rep, tt_error *err)
{
    char rid[32];
    snprintf(rid, sizeof rid, "#%llu", (unsigned long long)rep->index + 1);
    int rc = 0;
    for (size_t i = 0; i < rep->n_images && !rc; i++) {
        const tt_ks_image *g = &rep->images[i];
        if (!g->n_frames && !k->a->all_images)
            continue;
        const char *dbg = NULL;
        if (k->sym && g->n_frames > g->n_unresolved) /* loaded while reading: no messages */
            dbg = cli_sym_debug_file(k->sym, g->path[0] ? g->path : g->name, g->uuid);
        tdb_binary_image b = {.trace_id = k->trace_id, .report_id = rep->id ? rep->id : rid,
                              .module_id = k->module_ids[i], .image_addr = g->addr,
                              .image_vmaddr = g->vmaddr, .image_size = g->size,
                              .name = g->path[0] ? g->path : g->name, .arch = g->arch,
                              .debug_file = dbg, .n_frames = g->n_frames};
        rc = tdb_binary_image_add(k->a->db, &b, err);
    }
    return rc;
}

static int store_modules(ksan *k, const tt_ks_report *rep, tt_error *err)
{
    if (rep->n_images > k->cap_modules) {
        int64_t *m = realloc(k->module_ids, rep->n_images * sizeof *m);
        if (!m)
            return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        k->module_ids = m;
        k->cap_modules = rep->n_images;
    }
    int rc = 0;
    for (size_t i = 0; i < rep->n_images && !rc; i++) {
        const tt_ks_image *g = &rep->images[i];
        k->module_ids[i] = 0;
        if (!g->n_frames || !g->uuid[0]) /* only images frames refer to (10) */
            continue;
        tdb_module m = {.build_id = g->uuid, .name = g->name, .path = g->path, .kind = "macho"};
        rc = tdb_module_get(k->a->db, &m, &k->module_ids[i], err);
    }
    return rc ? rc : store_images(k, rep, err);
}

static int store_report(ksan *k, const tt_ks_reader *r, const tt_ks_report *rep, tt_error *err)
{
    tdb_db *db = k->a->db;
    int64_t upid, main_utid = 0;
    int rc = tdb_process_add(db, k->trace_id, rep->has_pid ? &rep->pid : NULL, rep->process_name,
                             &upid, err);
    for (size_t i = 0; i < rep->n_threads && !rc; i++) {
        const tt_ks_thread *t = &rep->threads[i];
        if (t->handled)
            continue;
        int64_t utid, set = 0; /* args.index: the task index (10) */
        if (t->has_index && (rc = arg_set_int(k, "index", t->index, &set, err)))
            break;
        rc = tdb_thread_add_args(db, k->trace_id, upid, NULL, t->name ? t->name : t->queue,
                                 (int)i == rep->main_thread, 0, set, &utid, err);
        if ((int)i == rep->main_thread)
            main_utid = utid;
    }
    /* the key from the mangled Swift names, the rows with the demangled ones (7) */
    cli_ks_mark_app(&k->names, (tt_ks_report *)rep);
    cli_ks_key_compute(&k->key, &k->names, rep);
    cli_swift_frames(k->swift, rep->syms, rep->n_syms);
    if (!rc)
        rc = store_modules(k, rep, err);
    for (size_t i = 0; i < rep->n_threads && !rc; i++)
        rc = store_callsites(k, rep, &rep->threads[i], err);
    if (rc)
        return rc;
    thread_text(k, rep, rep->main_thread >= 0 ? rep->main_thread : k->key.thread);
    tt_buf_put(&k->text, "", 1);
    k->json.len = 0;
    tt_ks_json_raw(&k->json, r, rep);
    tt_buf_put(&k->json, "", 1);
    tt_buf_put(&k->key.path, "", 1);
    int lag = rep->has_dump_type && rep->is_lag;
    tdb_issue is = {
        .trace_id = k->trace_id,
        .tag = rep->has_dump_type ? "ios_lag" : "ios_crash",
        .detail = rep->has_dump_type ? rep->dump_name : rep->error_type,
        .kind = lag ? "lag" : "other",
        .process_name = rep->process_name,
        .have_report_time = rep->has_time,
        .report_unix_ms = rep->unix_ms,
        .have_sub_type = rep->has_dump_type,
        .sub_type = rep->dump_type,
        .stack_key_raw = k->key.raw[0] ? k->key.raw : NULL,
        .stack_key = k->key.key[0] ? k->key.key : NULL,
        .stack_key_path = k->key.path.len > 1 ? k->key.path.data : NULL,
        .have_foreground = lag,
        .is_foreground = rep->dump_type != 2002,
        .thread_stack = k->text.len > 1 ? k->text.data : NULL,
        .utid = main_utid,
        .raw_json = k->json.data,
    };
    int64_t issue_id, tree_id;
    rc = issue_args(k, rep, &is.arg_set_id, err);
    if (!rc)
        rc = tdb_issue_add(db, &is, &issue_id, err);
    int chain = rep->point_thread >= 0 ? rep->point_thread : k->key.thread;
    if (!rc && chain >= 0 && rep->threads[chain].n_frames) {
        rc = store_chain(k, rep, chain, issue_id, main_utid, &tree_id, err);
        if (!rc)
            rc = tdb_issue_set_tree(db, issue_id, tree_id, err);
    }
    if (!rc && rep->n_nodes)
        rc = store_profile(k, rep, issue_id, err);
    return rc;
}

/* 2.3: the system keys of the first report as metadata rows ios_<key>. */
static int system_metadata(ksan *k, const tt_ks_report *rep, tt_error *err)
{
    const struct {
        const char *name, *value;
    } m[] = {
        {"ios_system_name", rep->system_name},
        {"ios_system_version", rep->system_version},
        {"ios_os_version", rep->os_version},
        {"ios_machine", rep->machine},
        {"ios_cpu_arch", rep->cpu_arch},
        {"ios_CFBundleExecutable", rep->bundle_exec},
        {"ios_CFBundleIdentifier", rep->bundle_id},
        {"ios_CFBundleShortVersionString", rep->short_version},
        {"ios_CFBundleVersion", rep->bundle_version},
        {"ios_app_uuid", rep->app_uuid[0] ? rep->app_uuid : NULL},
        {"ios_report_version", rep->version},
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof m / sizeof m[0] && !rc; i++)
        if (m[i].value)
            rc = tdb_metadata_add(k->a->db, k->trace_id, m[i].name, NULL, m[i].value, err);
    return rc;
}

static int contains(const unsigned char *p, size_t n, const char *s)
{
    size_t m = strlen(s);
    for (size_t i = 0; i + m <= n; i++)
        if (p[i] == (unsigned char)s[0] && !memcmp(p + i, s, m))
            return 1;
    return 0;
}

static int open_resolver(cli_an *a, cli_sym **sym, tt_resolver *res)
{
    const char *env = getenv("TRACETOOL_SYMBOL_PATH");
    *sym = NULL;
    if (!a->sym.n_dirs && !a->sym.n_exes && !a->sym.n_dsyms && !(env && *env))
        return 0;
    int rc = cli_sym_open(sym, &a->sym, a->cli);
    if (!rc)
        cli_sym_resolver(res, *sym);
    return rc;
}

int cli_an_kscrash(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err)
{
    const unsigned char *p;
    size_t pn;
    int rc = tt_input_peek(in, &p, &pn, 65536, err);
    if (rc)
        return rc;
    int matrix = contains(p, pn, "\"dump_type\"") || contains(p, pn, "\"stack_string\"");
    /* the reader's counts and the symbol stores' (sym_*, macho_*: the resolver counts into
     * the run's sink) become this trace's stats rows, as for sampled stacks */
    tt_stats *outer;
    if (cli_an_input_stats_begin(&outer, a))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    tt_stats *st = a->cli->stats;
    cli_sym *sym = NULL;
    tt_resolver res = {0};
    if (open_resolver(a, &sym, &res)) {
        cli_an_input_stats_end(a, outer, 1);
        return tt_error_set(err, TT_EINVAL, t->path, 0, 0, "symbol stores could not be opened");
    }
    tt_ks_opts ko = {.resolver = sym ? &res : NULL};
    tt_ks_reader *r = NULL;
    ksan k = {.a = a, .frames = tt_intern_new(), .sites = tt_intern_new(),
              .swift = cli_sym_swift(sym), .sym = sym};
    cli_sym_swift_keys(sym, 1);
    tt_vec_init(&k.frame_rows, sizeof(int64_t));
    tt_vec_init(&k.site_rows, sizeof(int64_t));
    cli_ks_opts no = {0};
    if (!k.frames || !k.sites || cli_ks_names_init(&k.names, &no))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    k.names.sym = sym;
    if (!rc)
        rc = tt_ks_reader_new(&r, in, &ko, st, err);
    /* the first report names the app for the trace row (package, app_version) */
    const tt_ks_report *rep = NULL;
    int first = rc ? rc : tt_ks_reader_next(r, &rep, err);
    if (first && first != TT_DONE)
        rc = first;
    tdb_trace tr = {.import_key = t->import_key, .content_sha256 = t->content_sha256,
                    .source_format = matrix ? "matrix_ios" : "kscrash", .options = t->options,
                    .clock = "realtime"};
    if (rep) {
        tr.package = rep->bundle_id ? rep->bundle_id : rep->process_name;
        tr.app_version = rep->short_version;
        if (rep->has_time) {
            tr.have_start = 1;
            tr.start_ts = rep->unix_ms * INT64_C(1000000);
        }
    }
    if (!rc)
        rc = tdb_trace_add(a->db, &tr, &k.trace_id, err);
    t->trace_id = k.trace_id;
    if (!rc)
        rc = tdb_input_add(a->db, k.trace_id, 0, t->path, t->kind, t->sha256, t->bytes, err);
    if (!rc && rep)
        rc = system_metadata(&k, rep, err);
    int64_t n = 0, tmin = 0, tmax = 0;
    while (!rc && rep) {
        if (rep->has_time) {
            if (!n || rep->unix_ms < tmin)
                tmin = rep->unix_ms;
            if (!n || rep->unix_ms > tmax)
                tmax = rep->unix_ms;
        }
        n++;
        if ((rc = store_report(&k, r, rep, err)))
            break;
        rc = tt_ks_reader_next(r, &rep, err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
    }
    if (!rc && !n)
        rc = tt_error_set(err, TT_EFORMAT, t->path, 0, 0,
                          "no usable KSCrash or Matrix iOS report");
    /* closed first: the Swift demangler counts its mangled names as it closes */
    cli_sym_close(sym);
    st = cli_an_input_stats_end(a, outer, rc != 0);
    if (!rc)
        rc = cli_an_reader_stats(a, k.trace_id, st, err);
    if (!rc)
        rc = tdb_metadata_add(a->db, k.trace_id, "reports", &n, NULL, err);
    if (!rc && n && tmax) {
        rc = tdb_metadata_add(a->db, k.trace_id, "first_report_unix_ms", &tmin, NULL, err);
        if (!rc)
            rc = tdb_metadata_add(a->db, k.trace_id, "last_report_unix_ms", &tmax, NULL, err);
    }
    tt_ks_reader_free(r);
    cli_ks_names_free(&k.names);
    cli_ks_key_free(&k.key);
    tt_buf_free(&k.text);
    tt_buf_free(&k.name);
    tt_buf_free(&k.json);
    free(k.module_ids);
    tt_intern_free(k.frames);
    tt_intern_free(k.sites);
    tt_vec_free(&k.frame_rows);
    tt_vec_free(&k.site_rows);
    tt_buf_free(&k.fkey);
    tt_stats_free(st);
    return rc;
}

typedef struct uuids {
    tt_intern *seen;
    int oom;
} uuids;

static int saw_uuid(void *ctx, const char *uuid)
{
    uuids *u = ctx;
    uint32_t id;
    return u->oom = uuid && tt_intern_get(u->seen, uuid, strlen(uuid), &id);
}

int cli_an_dsym_unmatched(cli_an *a, const int64_t *traces, size_t n, int64_t stat_trace,
                          tt_error *err)
{
    if (!n || !a->sym.n_dsyms)
        return 0;
    uuids u = {tt_intern_new(), 0};
    tt_stats *st = tt_stats_new();
    int rc = u.seen && st ? 0 : TT_ENOMEM;
    for (size_t i = 0; i < n && !rc; i++)
        if (!(rc = tdb_binary_image_uuids(a->db, traces[i], saw_uuid, &u, err)) && u.oom)
            rc = TT_ENOMEM;
    if (rc == TT_ENOMEM)
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc)
        cli_sym_dsyms_unmatched(&a->sym, u.seen, stat_trace ? st : a->cli->stats);
    if (!rc && stat_trace)
        rc = cli_an_reader_stats(a, stat_trace, st, err);
    tt_stats_free(st);
    tt_intern_free(u.seen);
    return rc;
}
