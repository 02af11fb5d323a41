/* analyze: ART method traces into the database (spec/art-trace.md 6.1): trace and metadata,
 * threads, one java stack_frame per method, callsites, and one slice per call. A top-level
 * call's slices are written when it closes, parents first. */
#include "cli_an.h"

#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt_art.h"

typedef struct open_call {
    int64_t id, callsite;
} open_call;

typedef struct pending {
    tt_art_slice s;
    int64_t id, parent_id, callsite;
} pending;

typedef struct actx {
    cli_an *a;
    const tt_art *art;
    int64_t trace_id, utid, next_id, start_ns;
    const int64_t *frame_rows;
    tt_intern *cs;    /* (parent callsite row, method) -> index into cs_rows */
    tt_vec cs_rows;   /* int64_t */
    tt_vec open;      /* open_call */
    tt_vec done;      /* pending, in close order */
    int sampled;
    tt_stats *st;
    tt_error *err;
} actx;

static int on_enter(void *ud, uint32_t method, uint32_t depth)
{
    actx *c = ud;
    int64_t parent = c->open.len ? TT_VEC_AT(&c->open, open_call, c->open.len - 1).callsite : 0;
    char key[12];
    memcpy(key, &parent, 8);
    memcpy(key + 8, &method, 4);
    uint32_t k;
    if (tt_intern_get(c->cs, key, sizeof key, &k))
        return tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    int64_t zero = 0;
    while (c->cs_rows.len <= k)
        if (!tt_vec_push(&c->cs_rows, &zero))
            return tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    int64_t *row = &TT_VEC_AT(&c->cs_rows, int64_t, k);
    if (!*row && tdb_callsite_add(c->a->db, c->trace_id, parent, depth, c->frame_rows[method],
                                  row, c->err))
        return TT_EIO;
    open_call oc = {c->next_id++, *row};
    return tt_vec_push(&c->open, &oc) ? 0 : tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0,
                                                         "out of memory");
}

static int64_t ns(int64_t us) { return us == TT_ART_NONE ? -1 : us * 1000; }

/* Writes the finished top-level call: reversed close order puts parents first. */
static int flush(actx *c)
{
    for (size_t i = c->done.len; i-- > 0;) {
        const pending *p = &TT_VEC_AT(&c->done, pending, i);
        const tt_art_method *m = &c->art->methods[p->s.method];
        tdb_slice row = {.id = p->id, .trace_id = c->trace_id, .utid = c->utid,
                         .ts = c->start_ns + p->s.ts_us * 1000, .dur = p->s.dur_us * 1000,
                         .depth = p->s.depth, .parent_id = p->parent_id, .name = m->key,
                         .category = c->sampled ? "art_sampled" : "art",
                         .end_kind = tt_art_end_kind_name(p->s.end_kind),
                         .self_dur = p->s.self_us * 1000, .is_recursive = p->s.recursive,
                         .frame_id = c->frame_rows[p->s.method], .callsite_id = p->callsite,
                         .thread_dur = ns(p->s.cpu_dur_us),
                         .self_thread_dur = ns(p->s.cpu_self_us), .block_dur = -1,
                         .gap_before = -1, .gap_after = -1,
                         .sample_count = c->sampled ? (int64_t)p->s.sample_count : -1};
        /* args.unwound = 1: closed by an exception unwinding the frame (6.1) */
        if (p->s.unwound && (tdb_next_id(c->a->db, "args", &row.arg_set_id, c->err) ||
                             tdb_arg_int(c->a->db, row.arg_set_id, "unwound", 1, c->err)))
            return TT_EIO;
        if (tdb_slice_add(c->a->db, &row, c->err))
            return TT_EIO;
    }
    c->done.len = 0;
    return 0;
}

static int on_slice(void *ud, const tt_art_slice *s)
{
    actx *c = ud;
    open_call oc = TT_VEC_AT(&c->open, open_call, --c->open.len);
    pending p = {*s, oc.id, c->open.len ? TT_VEC_AT(&c->open, open_call, c->open.len - 1).id : 0,
                 oc.callsite};
    if (!tt_vec_push(&c->done, &p))
        return tt_error_set(c->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    return c->open.len ? 0 : flush(c);
}

/* 1 with *v when s is a decimal integer written as such (no sign but '-', no leading zero,
 * within int64): numbers are int_value like art_version, the rest str_value. */
static int int_value(const char *s, int64_t *v)
{
    const char *d = s + (*s == '-');
    if (!*d || (*d == '0' && d[1]) || (*s == '-' && *d == '0'))
        return 0;
    uint64_t x = 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9' || x > (UINT64_C(1) << 63) / 10)
            return 0;
        x = x * 10 + (uint64_t)(*d - '0');
    }
    if (x > (uint64_t)INT64_MAX + (*s == '-'))
        return 0;
    *v = *s == '-' ? (int64_t)(0 - x) : (int64_t)x;
    return 1;
}

static int store_meta(cli_an *a, int64_t id, const tt_art *art, int sampled, int64_t interval,
                      tt_error *err)
{
    int64_t v[4] = {art->version, art->kind == TT_ART_STREAMING, art->overflow, interval};
    int rc = tdb_metadata_add(a->db, id, "art_version", &v[0], NULL, err) ||
             tdb_metadata_add(a->db, id, "art_streaming", &v[1], NULL, err) ||
             tdb_metadata_add(a->db, id, "art_clock", NULL, tt_art_clock_name(art->clock), err) ||
             tdb_metadata_add(a->db, id, "art_mode", NULL,
                              sampled ? "sampled" : "instrumented", err) ||
             tdb_metadata_add(a->db, id, "art_data_file_overflow", &v[2], NULL, err) ||
             (sampled && tdb_metadata_add(a->db, id, "art_sampling_interval_us", &v[3], NULL,
                                          err));
    tt_buf k = {0};
    for (size_t i = 0; i < art->nkv && !rc; i++) {
        const char *key = art->kv[i].key;
        if (!strcmp(key, "clock") || !strcmp(key, "data-file-overflow"))
            continue;
        k.len = 0;
        tt_buf_puts(&k, "art_");
        for (const char *p = key; *p; p++)
            tt_buf_put(&k, *p == '-' ? "_" : p, 1);
        /* elapsed-time-usec -> art_elapsed_time_us (units as the database names them) */
        if (k.len > 5 && (!strcmp(k.data + k.len - 5, "_usec") ||
                          !strcmp(k.data + k.len - 5, "_nsec"))) {
            k.data[k.len - 3] = 's';
            k.data[k.len -= 2] = 0;
        }
        int64_t num;
        int is_num = int_value(art->kv[i].value, &num);
        rc = tdb_metadata_add(a->db, id, k.data, is_num ? &num : NULL,
                              is_num ? NULL : art->kv[i].value, err);
    }
    tt_buf_free(&k);
    return rc ? TT_EIO : 0;
}

/* Slow-message issues of a main thread (6.3): issue row 'art_slow_message' and its trimmed
 * stack as an issue_stack call tree. */
static int store_issues(actx *c, const tt_art *art, size_t t, tt_error *err)
{
    tt_vec win;
    tt_vec_init(&win, sizeof(uint32_t));
    uint32_t wm = TT_NONE;
    for (uint32_t m = 0; m < art->nmethods; m++)
        if (!strcmp(art->methods[m].key, "android.os.Handler.dispatchMessage(android.os.Message)")) {
            if (!tt_vec_push(&win, &m)) {
                tt_vec_free(&win);
                return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
            }
            wm = m;
        }
    tt_vec iss;
    int64_t thr_ms = c->a->evil_ms > 0 ? c->a->evil_ms : 700;
    int rc = win.len ? tt_art_slow_messages(&iss, art, t, win.data, win.len, thr_ms * 1000, err)
                     : (tt_vec_init(&iss, sizeof(tt_art_issue)), 0);
    tt_vec_free(&win);
    tt_buf name = {0}, path = {0};
    for (size_t i = 0; i < iss.len && !rc; i++) {
        const tt_art_issue *is = &TT_VEC_AT(&iss, tt_art_issue, i);
        if (tt_art_issue_blame(&name, &path, art, is, wm)) {
            rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        tdb_issue row = {.trace_id = c->trace_id, .tag = "art_slow_message", .detail = "ART",
                         .kind = "evil_method", .have_cost = 1, .cost_ms = is->dur_us / 1000,
                         .stack_key = name.len ? name.data : NULL,
                         .stack_key_path = path.len ? path.data : NULL, .utid = c->utid,
                         .have_ts = 1, .ts = c->start_ns + is->ts_us * 1000};
        int64_t id, tree;
        tt_stree_node *nd = NULL;
        size_t clamps;
        rc = tdb_issue_add(c->a->db, &row, &id, err) ||
             tdb_tree_add(c->a->db, c->trace_id, "issue_stack", id, c->utid, &tree, err) ||
             tdb_issue_set_tree(c->a->db, id, tree, err);
        if (!rc && tt_stree_build(&nd, is->items, is->n, &clamps))
            rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        int64_t base = 0;
        if (!rc)
            rc = tdb_next_id(c->a->db, "call_node", &base, err);
        for (size_t k = 0; k < is->n && !rc; k++) {
            uint32_t m = tt_art_issue_method(is, is->items[k].id, wm);
            tdb_node node = {.id = base + (int64_t)k, .tree_id = tree,
                             .parent_id = nd[k].parent >= 0 ? base + nd[k].parent : 0,
                             .depth = is->items[k].depth, .ordinal = (int64_t)k,
                             .name = m != TT_NONE ? art->methods[m].key : "?",
                             .count = is->items[k].count, .have_dur = 1,
                             .total_dur = (int64_t)is->items[k].dur * 1000000,
                             .self_dur = nd[k].self_ms * 1000000};
            rc = tdb_node_add(c->a->db, &node, err);
        }
        free(nd);
    }
    tt_buf_free(&name);
    tt_buf_free(&path);
    tt_art_issues_free(&iss);
    return rc ? (err->code ? err->code : TT_EIO) : 0;
}

static int store_threads(actx *c, const tt_art *art, int64_t upid, tt_error *err)
{
    tt_art_rebuild_opts ro = {.close_at = TT_ART_CLOSE_THREAD_LAST, .sampled = c->sampled};
    tt_art_visit v = {on_enter, on_slice, c};
    int rc = 0;
    for (size_t i = 0; i < art->nthreads && !rc; i++) {
        const tt_art_thread *t = &art->threads[i];
        int64_t tid = t->tid;
        int is_main = !strcmp(t->name, "main") || (art->pid >= 0 && (art->pid & 0xFFFF) == t->id);
        /* the trace's thread ids are the low 16 (version 1: 8) bits of the tid, unless the
         * thread list gave a wider one: the whole tid */
        if ((rc = tdb_thread_add_args(c->a->db, c->trace_id, upid, &tid, t->name, is_main,
                                      t->tid_full ? 32 : art->version == 1 ? 8 : 16, 0,
                                      &c->utid, err)))
            break;
        rc = tt_art_rebuild(art, i, &ro, &v, c->st, c->a->cur_path, err);
        if (!rc && is_main)
            rc = store_issues(c, art, i, err);
    }
    return rc;
}

static int store(cli_an *a, const tt_art *art, cli_an_trace *t, tt_stats *st, tt_error *err)
{
    int64_t interval = 0;
    int sampled = tt_art_detect_sampled(art, &interval);
    int has_wall = tt_art_has_wall(art);
    tdb_trace tr = {.import_key = t->import_key, .content_sha256 = t->content_sha256,
                    .source_format = "art_trace", .options = t->options,
                    .clock = has_wall ? "monotonic" : "relative", .have_start = 1,
                    .start_ts = (int64_t)art->start_us * 1000, .mapping_id = a->mapping_row};
    /* start + elapsed-time, or the last event (6.1: a streaming file without summary) */
    int64_t end_us = art->elapsed_us;
    for (size_t i = 0; i < art->nthreads && art->elapsed_us < 0; i++)
        if (art->threads[i].last_wall != TT_ART_NONE && art->threads[i].last_wall > end_us)
            end_us = art->threads[i].last_wall;
    if (has_wall && end_us >= 0) {
        tr.have_end = 1;
        tr.end_ts = tr.start_ts + end_us * 1000;
    }
    int64_t upid = 0;
    int rc = tdb_trace_add(a->db, &tr, &t->trace_id, err) ||
             tdb_input_add(a->db, t->trace_id, 0, t->path, t->kind, t->sha256, t->bytes, err) ||
             store_meta(a, t->trace_id, art, sampled, interval, err);
    if (!rc && art->pid >= 0) {
        int64_t pid = art->pid;
        rc = tdb_process_add(a->db, t->trace_id, &pid, NULL, &upid, err);
    }
    int64_t *frames = calloc(art->nmethods + 1, sizeof *frames);
    if (!frames)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < art->nmethods && !rc; i++) {
        const tt_art_method *m = &art->methods[i];
        tdb_frame f = {.trace_id = t->trace_id, .name = m->key, .raw_name = m->raw,
                       .kind = "java", .file = m->src[0] ? m->src : NULL, .line = m->line};
        rc = tdb_frame_add(a->db, &f, &frames[i], err);
    }
    actx c = {.a = a, .art = art, .trace_id = t->trace_id, .frame_rows = frames,
              .start_ns = tr.start_ts, .sampled = sampled, .st = st, .err = err};
    tt_vec_init(&c.cs_rows, sizeof(int64_t));
    tt_vec_init(&c.open, sizeof(open_call));
    tt_vec_init(&c.done, sizeof(pending));
    if (!rc && !(c.cs = tt_intern_new()))
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    if (!rc)
        rc = tdb_next_id(a->db, "slice", &c.next_id, err);
    if (!rc)
        rc = store_threads(&c, art, upid, err);
    tt_intern_free(c.cs);
    tt_vec_free(&c.cs_rows);
    tt_vec_free(&c.open);
    tt_vec_free(&c.done);
    free(frames);
    return rc ? (err->code ? err->code : TT_EIO) : 0;
}

/* The reader's passes (art-trace.md 4): the first reads the caller's input, the second the
 * file again (kept in memory when it is standard input or a pipe). */
typedef struct art_src {
    tt_input *caller; /* closed by the caller */
    const char *path;
    int opens;
} art_src;

static int src_open(void *ud, tt_input **in, tt_error *err)
{
    art_src *s = ud;
    if (!s->opens++) {
        *in = s->caller;
        return 0;
    }
    return cli_input_open(in, s->path, 1, err);
}

static void src_close(void *ud, tt_input *in)
{
    if (in != ((art_src *)ud)->caller)
        tt_input_close(in);
}

int cli_an_art(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err)
{
    tt_stats *st = tt_stats_new();
    tt_art *art = NULL;
    if (!st)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    art_src as = {in, a->cur_path, 0};
    tt_art_src src = {src_open, &as, src_close};
    int rc = tt_art_parse_src(&art, &src, t->path, NULL, st, err);
    size_t amb = 0;
    if (!rc && a->pg && tt_art_retrace(art, a->pg, &amb)) /* --proguard (3.2) */
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    if (amb)
        tt_stats_add(st, "art_retrace_ambiguous", t->path, TT_SEV_WARN, (int64_t)amb,
                     "obfuscated methods with several original names: the first was used");
    if (!rc)
        rc = store(a, art, t, st, err);
    if (!rc)
        rc = cli_an_reader_stats(a, t->trace_id, st, err);
    tt_stats_free(st);
    tt_art_free(art);
    return rc;
}
