/* analyze: method-beat buffers into the database (storage.md 3.2-3.4): native slices on the
 * main thread (method-beat.md 8.2), one evil-method issue with its Matrix stack per dispatch
 * over the threshold (5.11), counted repairs as stats. Also the helpers shared by importers. */
#include "cli_an.h"

#include <stdlib.h>
#include <string.h>

#include "cli_tree.h"

#define NS_PER_MS 1000000LL

const char *cli_an_name(cli_an *a, uint32_t id)
{
    id &= TT_BEAT_ID_MAX;
    if (a->ahead && a->ahead[id])
        return a->ahead[id];
    if (a->names[id])
        return a->names[id];
    a->tmp.len = 0;
    const tt_method *m = tt_mapping_get(a->map, id);
    if (m)
        tt_method_format(&a->tmp, m, TT_NAME_JAVA);
    else if (id == TT_BEAT_DISPATCH)
        tt_buf_puts(&a->tmp, "android.os.Handler.dispatchMessage(android.os.Message)");
    else
        tt_buf_printf(&a->tmp, "<unknown id %u>", id);
    a->names[id] = tt_arena_strndup(a->arena, a->tmp.data ? a->tmp.data : "", a->tmp.len);
    return a->names[id];
}

/* cli_an_names_ahead: one slice of the mapping's methods, formatted into its own arena. */
typedef struct ahead_part {
    const tt_mapping *map;
    const char **names;
    size_t from, to;
    tt_arena *arena;
} ahead_part;

static void format_part(void *ctx, size_t k)
{
    ahead_part *p = &((ahead_part *)ctx)[k];
    tt_buf tmp = {0};
    for (size_t i = p->from; i < p->to && p->arena; i++) {
        const tt_method *m = tt_mapping_at(p->map, i);
        uint32_t id = m->id & TT_BEAT_ID_MAX;
        if (tt_mapping_get(p->map, id) != m) /* an id listed twice: its entry is the other's */
            continue;
        tmp.len = 0;
        tt_method_format(&tmp, m, TT_NAME_JAVA);
        p->names[id] = tt_arena_strndup(p->arena, tmp.data ? tmp.data : "", tmp.len);
    }
    tt_buf_free(&tmp);
}

void cli_an_names_ahead(cli_an *a, int jobs)
{
    size_t n = tt_mapping_count(a->map), nparts = (size_t)jobs * 4;
    const char **names = n ? calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof *names) : NULL;
    ahead_part *parts = names ? calloc(nparts, sizeof *parts) : NULL;
    a->ahead_arenas = parts ? calloc(nparts, sizeof *a->ahead_arenas) : NULL;
    if (!a->ahead_arenas) { /* out of memory: cli_an_name formats them as they are needed */
        free(names);
        free(parts);
        return;
    }
    for (size_t k = 0; k < nparts; k++) {
        a->ahead_arenas[k] = tt_arena_new();
        parts[k] = (ahead_part){a->map, names, n * k / nparts, n * (k + 1) / nparts,
                                a->ahead_arenas[k]};
    }
    a->n_ahead = nparts;
    cli_an_parallel(nparts, jobs, format_part, parts);
    free(parts);
    a->ahead = names;
}

void cli_an_names_ahead_free(cli_an *a)
{
    for (size_t k = 0; k < a->n_ahead; k++)
        tt_arena_free(a->ahead_arenas[k]);
    free(a->ahead_arenas);
    free((void *)a->ahead);
    a->ahead = NULL;
    a->ahead_arenas = NULL;
    a->n_ahead = 0;
}

int64_t cli_an_method_row(const cli_an *a, uint32_t id)
{
    return a->method_rows ? a->method_rows[id & TT_BEAT_ID_MAX] : 0;
}

const char *cli_an_key_path(cli_an *a, const tt_mitem *items, size_t n, ptrdiff_t key_index)
{
    if (key_index < 0 || (size_t)key_index >= n)
        return NULL;
    tt_stree_node *nd;
    if (tt_stree_build(&nd, items, n, NULL))
        return NULL;
    /* walk up to the root, then join root first */
    size_t depth = 0;
    for (int32_t i = (int32_t)key_index; i >= 0; i = nd[i].parent)
        depth++;
    const char **chain = malloc(depth * sizeof *chain);
    int64_t *gaps = malloc(depth * sizeof *gaps);
    if (!chain || !gaps) {
        free(chain);
        free(gaps);
        free(nd);
        return NULL;
    }
    size_t k = depth;
    for (int32_t i = (int32_t)key_index; i >= 0; i = nd[i].parent)
        chain[--k] = cli_an_name(a, (uint32_t)items[i].id);
    tt_buf b = {0};
    k = depth;
    for (int32_t i = (int32_t)key_index; i >= 0; i = nd[i].parent)
        gaps[--k] = nd[i].gap;
    for (size_t i = 0; i < depth; i++) {
        if (i)
            tt_buf_puts(&b, ";");
        if (gaps[i] > 1) { /* depth gaps as in the tree (7.7 step 3) */
            cli_tree_missing(&b, gaps[i]);
            tt_buf_puts(&b, ";");
        }
        tt_buf_puts(&b, chain[i] ? chain[i] : "");
    }
    const char *r = tt_arena_strndup(a->arena, b.data ? b.data : "", b.len);
    tt_buf_free(&b);
    free(chain);
    free(gaps);
    free(nd);
    return r;
}

int cli_an_store_stack(cli_an *a, int64_t trace_id, const char *kind, int64_t issue_id,
                       int64_t utid, const tt_mitem *items, size_t n, int64_t *tree_id,
                       tt_error *err)
{
    int rc = tdb_tree_add(a->db, trace_id, kind, issue_id, utid, tree_id, err);
    if (rc)
        return rc;
    tt_stree_node *nd;
    size_t clamps = 0;
    if (tt_stree_build(&nd, items, n, &clamps))
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    int64_t base;
    rc = tdb_next_id(a->db, "call_node", &base, err);
    for (size_t i = 0; i < n && !rc; i++) {
        tdb_node node = {
            .id = base + (int64_t)i,
            .tree_id = *tree_id,
            .parent_id = nd[i].parent >= 0 ? base + nd[i].parent : 0,
            .depth = items[i].depth,
            .ordinal = (int64_t)i,
            .name = cli_an_name(a, (uint32_t)items[i].id),
            .method_id = cli_an_method_row(a, (uint32_t)items[i].id),
            .count = items[i].count,
            .have_dur = 1,
            .total_dur = (int64_t)items[i].dur * NS_PER_MS,
            .self_dur = nd[i].self_ms * NS_PER_MS,
        };
        if (tt_mapping_count(a->map) && !tt_mapping_get(a->map, (uint32_t)items[i].id) &&
            (uint32_t)items[i].id != TT_BEAT_DISPATCH)
            a->unknown_ids++;
        rc = tdb_node_add(a->db, &node, err);
    }
    free(nd);
    return rc;
}

/* The Matrix JSON of an evil-method issue found in a buffer (method-beat.md 7.3 order). */
static void evil_json(tt_buf *out, const tt_bevil *e)
{
    tt_buf stack = {0};
    tt_mstack_to_string(&stack, e->items, e->n_items);
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "detail");
    tt_jsonw_str(&w, "NORMAL");
    tt_jsonw_key(&w, "cost");
    tt_jsonw_int(&w, e->stack_cost);
    tt_jsonw_key(&w, "stack");
    tt_jsonw_strn(&w, stack.data ? stack.data : "", stack.len);
    tt_jsonw_key(&w, "stackKey");
    char k[16] = "";
    if (e->key_id >= 0)
        snprintf(k, sizeof k, "%d|", (int)e->key_id);
    tt_jsonw_str(&w, k);
    tt_jsonw_key(&w, "tag");
    tt_jsonw_str(&w, "Trace_EvilMethod");
    tt_jsonw_obj_end(&w);
    out->len = 0;
    tt_buf_put(out, w.buf.data, w.buf.len);
    tt_jsonw_free(&w);
    tt_buf_free(&stack);
}

static int store_evil(cli_an *a, int64_t trace_id, int64_t utid, const tt_bevil *e,
                      tt_error *err)
{
    tt_buf json = {0};
    evil_json(&json, e);
    char raw[16] = "";
    if (e->key_id >= 0)
        snprintf(raw, sizeof raw, "%d|", (int)e->key_id);
    int mapped = e->key_id >= 0 && (tt_mapping_get(a->map, (uint32_t)e->key_id) ||
                                    (uint32_t)e->key_id == TT_BEAT_DISPATCH);
    tdb_issue is = {
        .trace_id = trace_id,
        .tag = "Trace_EvilMethod",
        .detail = "NORMAL",
        .kind = "evil_method",
        .have_cost = 1,
        .cost_ms = e->stack_cost,
        .stack_key_raw = raw,
        .stack_key_method_id = e->key_id >= 0 ? cli_an_method_row(a, (uint32_t)e->key_id) : 0,
        .stack_key = mapped ? cli_an_name(a, (uint32_t)e->key_id) : NULL,
        .stack_key_path = mapped ? cli_an_key_path(a, e->items, e->n_items, e->key_index) : NULL,
        .utid = utid,
        .have_ts = 1,
        .ts = (e->ts_ms + a->base_ms) * NS_PER_MS, /* a slice's start: checked */
        .raw_json = json.data,
    };
    int64_t issue_id, tree_id;
    int rc = tdb_issue_add(a->db, &is, &issue_id, err);
    if (!rc)
        rc = cli_an_store_stack(a, trace_id, "beat_slice", issue_id, utid, e->items,
                                e->n_items, &tree_id, err);
    if (!rc)
        rc = tdb_issue_set_tree(a->db, issue_id, tree_id, err);
    tt_buf_free(&json);
    return rc;
}

static const char *end_kind_name(int k)
{
    switch (k) {
    case TT_SLICE_INFERRED: return "inferred";
    case TT_SLICE_UNTERMINATED: return "unterminated";
    case TT_SLICE_TRUNCATED: return "truncated";
    default: return "exact";
    }
}

/* Absolute start and end of a slice in ns; 1 when they leave the int64 ns range. */
static int slice_ns(const cli_an *a, const tt_bslice *s, int64_t *s0, int64_t *s1)
{
    int64_t ms, d;
    return tt_add_i64(&ms, s->ts_ms, a->base_ms) || tt_ms_to_ns(s0, ms) ||
           tt_ms_to_ns(&d, s->dur_ms) || tt_add_i64(s1, *s0, d);
}

static int store_slices(cli_an *a, int64_t trace_id, int64_t utid, const tt_bslice *S,
                        size_t n, tt_error *err)
{
    int64_t base;
    int rc = tdb_next_id(a->db, "slice", &base, err);
    if (rc)
        return rc;
    int64_t *newid = malloc((n ? n : 1) * sizeof *newid);
    if (!newid)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    int64_t next = base;
    for (size_t i = 0; i < n && !rc; i++) {
        if (i % 16384 == 0)
            cli_progress_items("slices written", i, n);
        if (S[i].dropped)
            continue;
        newid[i] = next++;
        int64_t s0 = 0, s1 = 0;
        slice_ns(a, &S[i], &s0, &s1); /* checked by cli_an_beat */
        tdb_slice s = {
            .id = newid[i],
            .trace_id = trace_id,
            .utid = utid,
            .ts = s0,
            .dur = s1 - s0,
            .depth = S[i].depth,
            .parent_id = S[i].parent >= 0 ? newid[S[i].parent] : 0,
            .name = S[i].synthetic ? "<unknown caller>" : cli_an_name(a, S[i].id),
            .category = S[i].synthetic ? "synthetic" : "beat",
            .method_id = S[i].synthetic ? 0 : cli_an_method_row(a, S[i].id),
            .end_kind = end_kind_name(S[i].end_kind),
            .self_dur = S[i].self_ms * NS_PER_MS,
            .is_recursive = S[i].recursive,
            .thread_dur = -1, .self_thread_dur = -1, .block_dur = -1, .gap_before = -1,
            .gap_after = -1, .sample_count = -1,
        };
        cli_an_acc *acc = &a->acc[S[i].id & TT_BEAT_ID_MAX];
        if (S[i].synthetic) /* no method: not in the per-method summary */
            acc = NULL;
        else if (!acc->calls++ && a->acc_ids) {
            uint32_t id = S[i].id & TT_BEAT_ID_MAX;
            tt_vec_push(a->acc_ids, &id); /* out of memory: the summary misses it */
        }
        if (acc) {
            acc->self_ms += S[i].self_ms;
            if (!S[i].recursive)
                acc->total_ms += S[i].dur_ms;
        }
        if (!s.name)
            rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        else
            rc = tdb_slice_add(a->db, &s, err);
    }
    cli_progress_items("slices written", n, n);
    free(newid);
    return rc;
}

static int beat_stats(cli_an *a, int64_t trace_id, const tt_bslicer_stats *st, tt_error *err)
{
    static const struct {
        size_t off;
        const char *name, *sev, *desc;
    } rows[] = {
#define OFF(f) offsetof(tt_bslicer_stats, f)
        {OFF(zero_records), "beat_zero_record", "info", "never-written ring slots (0) skipped"},
        {OFF(invalid_ids), "beat_invalid_id", "data_loss", "records with method id 0 or 0xFFFFF skipped"},
        {OFF(stray_exits), "beat_stray_exit", "notice", "exits without a matching open entry ignored"},
        {OFF(orphans), "beat_unknown_caller", "notice",
         "calls whose caller entered before the buffer began (its exit came with nothing open), "
         "attached to a synthetic <unknown caller> slice"},
        {OFF(unterminated), "beat_unterminated", "notice",
         "calls whose exit never came, closed when a caller exited (exception unwinding)"},
        {OFF(truncated), "beat_truncated", "notice", "calls still open at the end of the buffer, closed at the end time"},
        {OFF(negative_dropped), "beat_negative_dur", "data_loss", "entry/exit pairs with a negative duration dropped"},
        {OFF(backwards), "beat_time_backwards", "notice", CLI_BEAT_BACKWARDS},
        {OFF(clamped_self), "beat_self_clamped", "info", "self times below zero (5 ms quantisation) clamped to 0"},
#undef OFF
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && !rc; i++) {
        uint64_t v;
        memcpy(&v, (const char *)st + rows[i].off, sizeof v);
        rc = cli_an_stat(a, trace_id, rows[i].name, rows[i].sev, "trace", v, rows[i].desc, err);
    }
    return rc;
}

int cli_an_beat(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err)
{
    tt_beat_reader *r;
    int rc = tt_beat_reader_new(&r, in, a->beat_fmt == TT_BEAT_FMT_AUTO && a->beat_forced
                                            ? TT_BEAT_FMT_AUTO_ANY : a->beat_fmt, err);
    if (rc)
        return rc;
    tt_beat_reader_set_ring_next(r, (uint64_t)a->ring_next);
    tt_bslicer_opts o = {.base_ms = a->base_ms, .have_end = a->have_end, .end_ms = a->end_ms,
                         .evil_ms = a->evil_ms, .trim = a->trim};
    tt_bslicer *b;
    if ((rc = tt_bslicer_new(&b, &o))) {
        tt_beat_reader_free(r);
        if (rc == TT_EINVAL)
            return tt_error_set(err, rc, NULL, 0, 0, "base_ms or end_ms out of range (%lld..%lld)",
                                -TT_MS_MAX, TT_MS_MAX);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    uint64_t blk[4096];
    for (;;) {
        size_t n;
        rc = tt_beat_reader_next(r, blk, 4096, &n, err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc)
            break;
        tt_bslicer_feed(b, blk, n);
    }
    int binary = tt_beat_reader_format(r) == TT_BEAT_FMT_BIN;
    tt_beat_reader_free(r);
    if (!rc)
        rc = tt_bslicer_finish(b, err);
    size_t n = 0, nevil = 0;
    const tt_bslice *S = rc ? NULL : tt_bslicer_slices(b, &n);
    const tt_bevil *E = rc ? NULL : tt_bslicer_evil(b, &nevil);
    const tt_bslicer_stats *st = tt_bslicer_stats_get(b);
    tdb_trace tr = {.import_key = t->import_key, .content_sha256 = t->content_sha256,
                    .source_format = "matrix_beat", .options = t->options,
                    .clock = a->have_base ? "uptime" : "relative", .mapping_id = a->mapping_row};
    for (size_t i = 0; i < n && !rc; i++) {
        if (S[i].dropped)
            continue;
        int64_t s0, s1;
        if (slice_ns(a, &S[i], &s0, &s1)) {
            rc = tt_error_set(err, TT_EFORMAT, t->path, 0, 0,
                              "call at %lld ms (duration %lld ms) with base_ms %lld: time out of "
                              "range (%lld..%lld ms)", (long long)S[i].ts_ms,
                              (long long)S[i].dur_ms, (long long)a->base_ms, -TT_MS_MAX,
                              TT_MS_MAX);
            break;
        }
        if (!tr.have_start || s0 < tr.start_ts)
            tr.start_ts = s0;
        if (!tr.have_end || s1 > tr.end_ts)
            tr.end_ts = s1;
        tr.have_start = tr.have_end = 1;
    }
    int64_t upid = 0, utid = 0;
    if (!rc)
        rc = tdb_trace_add(a->db, &tr, &t->trace_id, err);
    if (!rc)
        rc = tdb_input_add(a->db, t->trace_id, 0, t->path, t->kind, t->sha256, t->bytes, err);
    if (!rc)
        rc = tdb_process_add(a->db, t->trace_id, NULL, NULL, &upid, err);
    if (!rc)
        rc = tdb_thread_add(a->db, t->trace_id, upid, NULL, "main", 1, &utid, err);
    if (!rc)
        rc = store_slices(a, t->trace_id, utid, S, n, err);
    for (size_t i = 0; i < nevil && !rc; i++)
        rc = store_evil(a, t->trace_id, utid, &E[i], err);
    if (!rc)
        rc = beat_stats(a, t->trace_id, st, err);
    if (!rc && st->end_raised) { /* --end-ms before the records (method-beat.md 8.2) */
        char ex[200];
        snprintf(ex, sizeof ex, "--end-ms %lld is before the buffer's latest record (%lld ms): "
                 "%llu open frame%s closed there", (long long)a->end_ms,
                 (long long)(st->end_ms_used + a->base_ms), (unsigned long long)st->end_raised,
                 st->end_raised == 1 ? "" : "s");
        rc = tdb_stat_add(a->db, t->trace_id, "beat_end_before_records", NULL, "notice", "trace",
                          (int64_t)st->end_raised, "frames still open at the end closed at the "
                          "latest record time, not at an earlier --end-ms", err);
        if (!rc)
            cli_an_print_stat(a, "beat_end_before_records", "notice", a->cur_path,
                              st->end_raised, ex);
    }
    if (!rc && a->ring_next > 0 && (uint64_t)a->ring_next > st->records)
        rc = cli_an_stat(a, t->trace_id, "beat_ring_next_beyond", "notice", "trace", 1,
                         "--ring-next is beyond the records of the buffer: read in file order",
                         err);
    if (!rc) {
        uint64_t unknown = 0;
        for (size_t i = 0; i < n; i++)
            if (!S[i].dropped && !S[i].synthetic && tt_mapping_count(a->map) &&
                !tt_mapping_get(a->map, S[i].id))
                unknown++;
        a->unknown_ids += unknown;
        rc = cli_an_stat(a, t->trace_id, "unknown_method_id", "notice", "analysis", unknown,
                         "calls whose method id is missing from the mapping (another build?)",
                         err);
    }
    if (!rc) {
        int64_t v = (int64_t)st->records;
        rc = tdb_metadata_add(a->db, t->trace_id, "beat_records", &v, NULL, err);
        if (!rc)
            rc = tdb_metadata_add(a->db, t->trace_id, "beat_encoding", NULL,
                                  binary ? "binary" : "text", err);
        v = a->evil_ms;
        if (!rc)
            rc = tdb_metadata_add(a->db, t->trace_id, "evil_threshold_ms", &v, NULL, err);
    }
    tt_bslicer_free(b);
    return rc;
}
