/* analyze: sampled stacks into the database (storage.md 3.7, samples.md): threads, interned
 * stack frames and callsites, one sample row per run of identical samples (4.3) and the
 * slices rebuilt per thread (section 5), streamed one top-level subtree at a time. */
#include "cli_an.h"

#include <stdlib.h>
#include <string.h>

#include "cli_samples.h"

typedef struct sctx {
    cli_an *a;
    tt_profile *p;
    int64_t trace_id, db_utid;
    const int64_t *frame_rows, *cs_rows, *thread_rows;
    int64_t next_id;
    tt_vec ids;   /* int64_t: db ids of the current chunk */
    tt_error *err;
} sctx;

/* Native modules and symbol sets of this input (storage.md module, symbol, symbolized_pc):
 * rows written while the frames are symbolicated, ids found again by the frame rows. */
typedef struct symctx {
    cli_an *a;
    tt_error *err;
    tt_intern *mods;   /* module basename, build id, path -> index into mod_rows */
    tt_vec mod_rows;   /* int64_t module.id, 0 = not written yet */
    tt_intern *pcs;    /* "<module>@<rel_pc hex>" -> index into set_rows */
    tt_vec set_rows;   /* int64_t symbol_set_id */
    tt_buf key;
} symctx;

static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* c->key = the text key of (module, rel_pc) */
static int pc_key(symctx *c, const char *module, uint64_t rel_pc)
{
    c->key.len = 0;
    return tt_buf_printf(&c->key, "%s@%llx", module, (unsigned long long)rel_pc) ? TT_ENOMEM
                                                                                   : 0;
}

static const char *module_kind(const tt_stack_frame *f)
{
    static const char *const ext[][2] = {{".oat", "oat"}, {".odex", "oat"}, {".vdex", "dex"},
                                         {".dex", "dex"}, {".jar", "dex"}, {".apk", "apk"}};
    size_t n = strlen(f->module);
    if (f->kind == TT_FRAME_KERNEL)
        return "kernel";
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t l = strlen(ext[i][0]);
        if (n >= l && !strcmp(f->module + n - l, ext[i][0]))
            return ext[i][1];
    }
    if (strstr(f->module, "jit"))
        return "jit";
    return f->kind == TT_FRAME_NATIVE && (strstr(f->module, ".so") || !strchr(f->module, '.'))
               ? "elf"
               : "unknown";
}

/* module.id of a frame's module: the row written for its symbolicated module, else a row
 * by name only. */
static int module_row(symctx *c, const tt_stack_frame *f, const tsym_module_info *info,
                      int64_t *id)
{
    uint32_t k;
    int64_t zero = 0;
    /* the path and build id the input gives (perf's dso, a JSON-lines module line): each
     * combination reaches tdb_module_get, whose row does not depend on their order */
    const char *path = f->module_path ? f->module_path : f->module_file;
    c->key.len = 0;
    tt_buf_put(&c->key, f->module, strlen(f->module) + 1);
    tt_buf_put(&c->key, f->build_id ? f->build_id : "", strlen(f->build_id ? f->build_id : "") + 1);
    tt_buf_puts(&c->key, path ? path : "");
    if (!c->key.data || tt_intern_get(c->mods, c->key.data, c->key.len, &k))
        return tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    while (c->mod_rows.len <= k)
        if (!tt_vec_push(&c->mod_rows, &zero))
            return tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    int64_t *row = &TT_VEC_AT(&c->mod_rows, int64_t, k);
    if (!*row) {
        tdb_module m = {.name = f->module, .path = path, .build_id = f->build_id,
                        .kind = module_kind(f)};
        if (f->addr_is_offset) /* a Mach-O image of a btrace iOS database */
            m.kind = "macho";
        if (info) {
            m.build_id = info->build_id[0] ? info->build_id : NULL;
            m.path = info->path ? info->path : path;
            m.name = base_name(m.path ? m.path : f->module);
            m.kind = f->addr_is_offset ? "macho" : "elf";
            m.have_debug_info = 1;
            m.has_debug_info = tsym_module_has_debug_info(info);
        }
        int rc = tdb_module_get(c->a->db, &m, row, c->err);
        if (rc)
            return rc;
    }
    *id = *row;
    return 0;
}

static void symctx_free(symctx *c)
{
    tt_intern_free(c->mods);
    tt_intern_free(c->pcs);
    tt_vec_free(&c->mod_rows);
    tt_vec_free(&c->set_rows);
    tt_buf_free(&c->key);
}

static int on_lookup(void *ctx, const tt_stack_frame *f, tsym_module *m, uint64_t vaddr,
                     int return_address)
{
    symctx *c = ctx;
    int64_t mod;
    if (module_row(c, f, tsym_module_info_get(m), &mod))
        return 1;
    uint64_t at = return_address && vaddr ? vaddr - 1 : vaddr;
    tsym_result r;
    tsym_module_lookup(&r, m, at, c->a->sym.flags | TSYM_F_DEMANGLE);
    tdb_symbol sy[TSYM_MAX_FRAMES];
    for (size_t i = 0; i < r.n_frames; i++) {
        const tsym_frame *fr = &r.frames[i];
        int outer = i + 1 == r.n_frames;
        sy[i] = (tdb_symbol){.name = fr->function, .file = fr->file, .line = fr->line,
                             .column = fr->column, .is_inlined = !outer,
                             .symbol_name = outer ? r.symbol : NULL,
                             .is_approximate = r.approximate};
    }
    int64_t set;
    uint32_t k;
    if (tdb_symbolized_pc_add(c->a->db, mod, (int64_t)at, sy, r.n_frames, &set, c->err))
        return 1;
    /* keyed by the address looked up: a return address and a program counter at one
     * address are two lookups */
    if (pc_key(c, f->module, at) || tt_intern_get(c->pcs, c->key.data, c->key.len, &k)) {
        tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        return 1;
    }
    while (c->set_rows.len <= k)
        if (!tt_vec_push(&c->set_rows, &set)) {
            tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
            return 1;
        }
    return 0;
}

/* What ended the wait (storage.md 3.7 wakeup.kind), from the woken wait's type. */
static const char *wakeup_kind(int type)
{
    switch (type) {
    case TT_ST_WAIT: return "notify";
    case TT_ST_MONITOR:
    case TT_ST_MUTEX: return "unlock";
    default: return "unpark";
    }
}

static int put_slices(void *ctx, const tt_slice *s, size_t n)
{
    sctx *c = ctx;
    c->ids.len = 0;
    if (tt_vec_reserve(&c->ids, n))
        return 1;
    for (size_t i = 0; i < n; i++) {
        int64_t id = c->next_id++;
        TT_VEC_AT(&c->ids, int64_t, i) = id;
        c->ids.len = i + 1;
        const tt_stack_frame *f = s[i].frame != TT_NONE ? tt_profile_frame(c->p, s[i].frame) : NULL;
        tdb_slice row = {
            .id = id, .trace_id = c->trace_id, .utid = c->db_utid, .ts = s[i].ts, .dur = s[i].dur,
            .depth = s[i].depth,
            .parent_id = s[i].parent != TT_NONE && s[i].parent < i ? TT_VEC_AT(&c->ids, int64_t, s[i].parent) : 0,
            .name = f ? f->name : "[no samples]",
            .category = s[i].is_synthetic ? "synthetic" : "sampled",
            .end_kind = tt_end_kind_name(s[i].end_kind),
            .self_dur = s[i].self_dur >= 0 ? s[i].self_dur : 0,
            .is_recursive = s[i].is_recursive,
            .frame_id = s[i].frame != TT_NONE ? c->frame_rows[s[i].frame] : 0,
            .callsite_id = s[i].callsite != TT_NONE ? c->cs_rows[s[i].callsite] : 0,
            .thread_dur = s[i].thread_dur, .self_thread_dur = s[i].self_thread_dur,
            .block_dur = s[i].block_dur, .gap_before = s[i].gap_before,
            .gap_after = s[i].gap_after, .sample_count = s[i].sample_count,
            .have_msg_id = s[i].msg_id != 0, .msg_id = (int64_t)s[i].msg_id,
            .type = tt_sample_type_name(s[i].type), .ctr_known = s[i].ctr_known,
            .wakeup_utid = s[i].wakeup_utid != TT_NONE ? c->thread_rows[s[i].wakeup_utid] : 0};
        memcpy(row.ctr, s[i].ctr, sizeof row.ctr);
        if (tdb_slice_add(c->a->db, &row, c->err))
            return 1;
        /* the waker's wake-up sample time, as the Chrome export's flow arrow needs it */
        if (row.wakeup_utid && s[i].waker_ts &&
            tdb_wakeup_add(c->a->db, c->trace_id, id, row.wakeup_utid, s[i].waker_ts,
                           wakeup_kind(s[i].type), c->err))
            return 1;
    }
    return 0;
}

static int store_runs(sctx *c, uint32_t utid, const tt_profile_meta *m, tt_error *err)
{
    tt_vec runs;
    tt_vec_init(&runs, sizeof(tt_run));
    int rc = tt_profile_runs(&runs, c->p, utid, tt_profile_max_gap(c->p, utid, TT_GAP_AUTO));
    if (rc)
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < runs.len && !rc; i++) {
        const tt_run *r = &TT_VEC_AT(&runs, tt_run, i);
        tdb_sample row = {.trace_id = c->trace_id, .utid = c->db_utid,
                          .callsite_id = c->cs_rows[r->callsite], .have_ts = !m->timeless,
                          .ts = r->ts, .dur = r->end_ts - r->ts, .count = r->count,
                          .weight = r->weight, .type = tt_sample_type_name(r->type),
                          .event = m->event, .have_msg_id = r->msg_id != 0,
                          .msg_id = (int64_t)r->msg_id, .is_interval = r->is_interval,
                          .is_blocking = r->is_blocking, .have_thread = r->cpu >= 0,
                          .thread_ts = r->cpu, .thread_dur = r->end_cpu - r->cpu};
        rc = tdb_sample_add(c->a->db, &row, err);
    }
    tt_vec_free(&runs);
    return rc;
}

typedef struct pidrow {
    int64_t pid, upid;
    size_t first; /* the first thread with this pid */
} pidrow;

static int by_pid(const void *a, const void *b)
{
    const pidrow *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

static int by_pid_only(const void *a, const void *b)
{
    const pidrow *x = a, *y = b;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_first(const void *a, const void *b)
{
    const pidrow *x = *(pidrow *const *)a, *y = *(pidrow *const *)b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Process rows: the profile's own (its pid and name, also for threads without a pid), one
 * per other thread pid, in the order threads first show them, and last one of unknown pid
 * (NULL) for the thread of samples without a thread (perf's -1); thread_upid[u] per thread. */
static int store_processes(cli_an *a, tt_profile *p, int64_t trace_id, int64_t *thread_upid,
                           tt_error *err)
{
    const tt_profile_meta *m = tt_profile_meta_get(p);
    size_t nt = tt_profile_nthreads(p), n = 0;
    int64_t upid = 0;
    int rc = tdb_process_add(a->db, trace_id, m->pid >= 0 ? &m->pid : NULL, m->process, &upid,
                             err);
    pidrow *r = malloc((nt ? nt : 1) * sizeof *r);
    pidrow **order = malloc((nt ? nt : 1) * sizeof *order);
    if (!rc && (!r || !order))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t u = 0; u < nt && !rc; u++) {
        const tt_thread *t = tt_profile_thread(p, (uint32_t)u);
        int64_t pid = t->pid;
        if (!t->no_thread && pid >= 0 && pid != m->pid)
            r[n++] = (pidrow){pid, 0, u};
    }
    if (!rc && n) {
        qsort(r, n, sizeof *r, by_pid);
        size_t k = 0;
        for (size_t i = 0; i < n; i++) /* the first thread of each pid */
            if (!k || r[k - 1].pid != r[i].pid)
                r[k++] = r[i];
        n = k;
        for (size_t i = 0; i < n; i++)
            order[i] = &r[i];
        qsort(order, n, sizeof *order, by_first);
        for (size_t i = 0; i < n && !rc; i++)
            rc = tdb_process_add(a->db, trace_id, &order[i]->pid, NULL, &order[i]->upid, err);
    }
    int64_t none_upid = 0; /* the process of samples without a thread, once one shows */
    for (size_t u = 0; u < nt && !rc; u++) {
        const tt_thread *t = tt_profile_thread(p, (uint32_t)u);
        pidrow key = {t->pid, 0, 0};
        const pidrow *f = !t->no_thread && key.pid >= 0 && key.pid != m->pid && n
                              ? bsearch(&key, r, n, sizeof *r, by_pid_only)
                              : NULL;
        thread_upid[u] = f ? f->upid : upid;
        if (t->no_thread && !none_upid)
            rc = tdb_process_add(a->db, trace_id, NULL, NULL, &none_upid, err);
        if (t->no_thread)
            thread_upid[u] = none_upid;
    }
    free(r);
    free(order);
    return rc;
}

/* *neg: the slices' counter deltas that were negative (stored as NULL, samples.md 5.6). */
static int store_profile(cli_an *a, tt_profile *p, int64_t trace_id, symctx *sc,
                         uint64_t *neg, tt_error *err)
{
    const tt_profile_meta *m = tt_profile_meta_get(p);
    size_t nf = tt_profile_nframes(p), nc = tt_profile_ncallsites(p), nt = tt_profile_nthreads(p);
    int64_t *frame_rows = calloc(nf ? nf : 1, sizeof *frame_rows);
    int64_t *cs_rows = calloc(nc ? nc : 1, sizeof *cs_rows);
    int64_t *thread_rows = calloc(nt ? nt : 1, sizeof *thread_rows);
    int64_t *thread_upid = calloc(nt ? nt : 1, sizeof *thread_upid);
    int rc = frame_rows && cs_rows && thread_rows && thread_upid
                 ? 0
                 : tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc)
        rc = store_processes(a, p, trace_id, thread_upid, err);
    for (uint32_t i = 0; i < nf && !rc; i++) {
        const tt_stack_frame *f = tt_profile_frame(p, i);
        /* rel_pc is an ELF vaddr (schema(5)): a module offset the symbolicator could not
         * map (JSON-lines addr - base, module not found) is stored as NULL */
        int vaddr = f->has_rel_pc && !f->rel_pc_is_offset;
        tdb_frame row = {.trace_id = trace_id, .name = f->name, .raw_name = f->raw_name,
                         .kind = tt_frame_kind_name(f->kind), .have_rel_pc = vaddr,
                         .rel_pc = vaddr ? (int64_t)f->rel_pc : 0, .file = f->file,
                         .line = f->line};
        if (f->module && f->kind != TT_FRAME_JAVA)
            rc = module_row(sc, f, NULL, &row.module_id);
        uint32_t k;
        if (!rc && f->module && vaddr && sc->set_rows.len) {
            if (pc_key(sc, f->module, f->return_address && f->rel_pc ? f->rel_pc - 1 : f->rel_pc))
                rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
            else if (!tt_intern_find(sc->pcs, sc->key.data, sc->key.len, &k) &&
                     k < sc->set_rows.len)
                row.symbol_set_id = TT_VEC_AT(&sc->set_rows, int64_t, k);
        }
        if (!rc)
            rc = tdb_frame_add(a->db, &row, &frame_rows[i], err);
    }
    for (uint32_t i = 0; i < nc && !rc; i++) { /* parents have smaller ids */
        const tt_callsite *cs = tt_profile_callsite(p, i);
        rc = tdb_callsite_add(a->db, trace_id, cs->parent != TT_NONE ? cs_rows[cs->parent] : 0,
                              cs->depth, frame_rows[cs->frame], &cs_rows[i], err);
    }
    /* every thread first: slices refer to their wakers */
    for (uint32_t u = 0; u < nt && !rc; u++) {
        const tt_thread *t = tt_profile_thread(p, u);
        tt_buf name = {0};
        tt_thread_format(&name, p, u);
        rc = tdb_thread_add_args(a->db, trace_id, thread_upid[u], &t->tid, name.data,
                                 t->is_main, t->tid_bits, 0, &thread_rows[u], err);
        tt_buf_free(&name);
    }
    sctx c = {.a = a, .p = p, .trace_id = trace_id, .frame_rows = frame_rows,
              .cs_rows = cs_rows, .thread_rows = thread_rows, .err = err};
    tt_vec_init(&c.ids, sizeof(int64_t));
    if (!rc)
        rc = tdb_next_id(a->db, "slice", &c.next_id, err);
    for (uint32_t u = 0; u < nt && !rc; u++) {
        c.db_utid = thread_rows[u];
        rc = store_runs(&c, u, m, err);
        if (!rc && !m->timeless) {
            tt_slice_opts so;
            tt_slice_opts_init(&so);
            so.sink = put_slices;
            so.sink_ctx = &c;
            tt_vec out;
            tt_vec_init(&out, sizeof(tt_slice));
            tt_slice_info info;
            tt_error e2 = {0};
            rc = tt_slice_build(&out, &info, p, u, &so, &e2);
            if (rc && !err->msg[0])
                *err = e2;
            if (!rc)
                *neg += info.negative_counter_deltas;
            tt_vec_free(&out);
        }
    }
    tt_vec_free(&c.ids);
    free(frame_rows);
    free(cs_rows);
    free(thread_rows);
    free(thread_upid);
    return rc;
}

int cli_an_samples(cli_an *a, const char *path, cli_an_trace *t, tt_error *err)
{
    cli_samples_opts o;
    cli_samples_opts_init(&o);
    o.sym = a->sym;
    o.event = a->event;
    symctx sc = {.a = a, .err = err};
    tt_vec_init(&sc.mod_rows, sizeof(int64_t));
    tt_vec_init(&sc.set_rows, sizeof(int64_t));
    if (!(sc.mods = tt_intern_new()) || !(sc.pcs = tt_intern_new())) {
        tt_intern_free(sc.mods);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    o.on_lookup = on_lookup;
    o.on_lookup_ctx = &sc;
    o.jobs = 1; /* analyze's parallelism is across inputs: one thread per input */
    o.fail = err; /* printed by the caller, or recorded under --keep-going */
    tt_profile *p = NULL;
    /* a btrace sampling file with its mapping among the inputs (cli_an__pair_btrace) */
    char *files[2] = {(char *)path, (char *)t->btrace_map};
    /* the reader's warnings of this input go to its trace's stats rows and are printed */
    tt_stats *outer;
    if (cli_an_input_stats_begin(&outer, a)) {
        symctx_free(&sc);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int rc = cli_samples_load(&p, files, t->btrace_map ? 2 : 1, &o, a->cli);
    /* printed with the error; on success cli_an_reader_stats stores and prints them */
    tt_stats *st = cli_an_input_stats_end(a, outer, rc != 0);
    if (rc) {
        symctx_free(&sc);
        if (err->msg[0])
            return err->code ? err->code : TT_EIO;
        return tt_error_set(err, TT_EFORMAT, path, 0, 0, "cannot be analysed");
    }
    tt_profile_meta *m = tt_profile_meta_get(p);
    tdb_trace tr = {.import_key = t->import_key, .content_sha256 = t->content_sha256,
                    .source_format = m->source_format ? m->source_format : "tt_samples",
                    .options = t->options, .clock = m->clock ? m->clock : "unknown",
                    .package = m->process, .mapping_id = a->mapping_row};
    rc = tdb_trace_add(a->db, &tr, &t->trace_id, err);
    if (!rc)
        rc = tdb_input_add(a->db, t->trace_id, 0, t->path, t->kind, t->sha256, t->bytes, err);
    if (!rc && t->map_path) /* the second input of the trace, wherever it was given */
        rc = tdb_input_add(a->db, t->trace_id, 1, t->map_path,
                           tt_kind_name(TT_KIND_BTRACE_MAPPING), t->map_sha, t->map_bytes, err);
    uint64_t neg = 0;
    if (!rc)
        rc = store_profile(a, p, t->trace_id, &sc, &neg, err);
    if (!rc && neg)
        tt_stats_add(st, "slice_negative_counter_delta", path, TT_SEV_WARN, (int64_t)neg, NULL);
    if (!rc)
        rc = cli_an_reader_stats(a, t->trace_id, st, err);
    tt_stats_free(st);
    if (!rc && m->interval_ns) {
        int64_t v = m->interval_ns;
        rc = tdb_metadata_add(a->db, t->trace_id, "sample_interval_ns", &v, NULL, err);
    }
    tt_profile_free(p);
    symctx_free(&sc);
    return rc;
}
