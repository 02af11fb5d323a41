/* tracetool samples: sampled stacks per thread and overall: top functions by self and total
 * weight, the call tree (bottom-up with --inverted) and the longest rebuilt slices
 * (spec/samples.md sections 4-6). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli_samples.h"
#include "cli_tree.h"

static const char usage[] =
    "usage: tracetool samples [--format text|json] [--thread NAME|TID]... [--top N]\n"
    "                         [--inverted] [--min-percent P] [--max-gap DUR|auto|none]\n"
    "                         [--slice-end last|mid|next] [--end-pad DUR] [--no-msg-split]\n"
    "                         [--loop-frame NAME]... [--mark-gaps] [--event NAME]\n"
    "                         [--frame-identity name|address] [--keep-runtime-frames]\n"
    "                         [--weight samples|wall|cpu|period] [--jobs N]\n"
    "                         [-e FILE]... [--symbols DIR]... [--swift-demangler CMD]\n"
    "                         [--kind KIND] FILE...\n"
    "\n"
    "      --format FMT        text (default) or json\n"
    "      --weight W          unit of the weights: samples, wall, cpu (ns) or period; default\n"
    "                          wall for btrace and JSON-lines, period for perf, samples for folded\n"
    "      --thread NAME|TID   only these threads (repeatable)\n"
    "      --top N             rows in the function and slice tables (default 10)\n"
    "      --inverted          bottom-up call tree (leaf functions first)\n"
    "      --min-percent P     hide call-tree nodes below P% of the thread (default 1)\n"
    "      --max-gap DUR       close every slice across a gap longer than DUR (default auto)\n"
    "      --slice-end P       slice end policy: last (default), mid, next\n"
    "      --end-pad DUR       pad after the last sample of a slice (default 10ns)\n"
    "      --no-msg-split      do not split slices when the message id changes\n"
    "      --loop-frame NAME   loop frame for message splits (default android.os.Looper.loop())\n"
    "      --mark-gaps         add [no samples] slices over gaps\n"
    "      --event NAME        perf event to keep (default: the first one seen)\n"
    "      --frame-identity I  name (default) or address\n"
    "      --keep-runtime-frames  keep btrace <runtime ...> frames\n"
    "      --jobs N            threads reading a perf/folded text file (default: 1 per core)\n"
    "  -e, --exe FILE          name unnamed native frames from this ELF file (repeatable)\n"
    "      --symbols DIR       symbol store directory for native frames (repeatable)\n"
    "      --swift-demangler CMD  demangle Swift names with CMD (also TRACETOOL_SWIFT_DEMANGLE)\n"
    "      --kind KIND         force the input kind (btrace, perf, folded, samples-jsonl,\n"
    "                          btrace-ios)\n"
    "  -h, --help              show this help\n";

enum { O_FORMAT = 256, O_TOP, O_INVERTED, O_MINPCT };

static const struct option longopts[] = {
    {"format", required_argument, NULL, O_FORMAT},
    {"top", required_argument, NULL, O_TOP},
    {"inverted", no_argument, NULL, O_INVERTED},
    {"min-percent", required_argument, NULL, O_MINPCT},
    CLI_SAMPLES_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct sctx {
    tt_profile *p;
    int json, inverted, top;
    int weight; /* TT_WEIGHT_*: the one unit of every weight column */
    double min_pct;
    const cli_samples_opts *so;
    tt_weight *cw, *fw, *ov; /* callsites of one thread, frames, callsites of all shown */
    tt_touched *tw; /* what one thread's weights touched: the rest of cw and fw is zero */
    const uint32_t *cids, *fids; /* a thread's callsites and frames; NULL: all (overall) */
    size_t ncids, nfids;
    tt_vec sl; /* one thread's slices, reused: its pages stay mapped */
    tt_jsonw w;
    tt_buf b;
    tt_error err;
} sctx;

/* A name as one cell of a text table: a newline or tab of a frame or thread name written as
 * \xNN, as the other text tables write it (tt_textesc_cell), then the line's end. */
static void put_name(tt_buf *b, const char *name)
{
    tt_textesc_cell(b, name, strlen(name), NULL); /* out of memory: the buffer's error */
    tt_buf_puts(b, "\n");
}

static double pct(int64_t a, int64_t total) { return total ? 100.0 * (double)a / (double)total : 0; }

typedef struct fref {
    uint32_t frame;
    const tt_weight *w;
} fref;

static int by_self(const void *a, const void *b)
{
    const fref *x = a, *y = b;
    if (x->w->self_weight != y->w->self_weight)
        return x->w->self_weight > y->w->self_weight ? -1 : 1;
    return x->frame < y->frame ? -1 : x->frame > y->frame;
}

static int by_total(const void *a, const void *b)
{
    const fref *x = a, *y = b;
    if (x->w->total_weight != y->w->total_weight)
        return x->w->total_weight > y->w->total_weight ? -1 : 1;
    return by_self(a, b);
}

/* Function refs with non-zero total (among the thread's frames), sorted by cmp. Owned by the
 * caller (free()). */
static fref *sorted_functions(const sctx *c, size_t *n, int (*cmp)(const void *, const void *))
{
    size_t nf = c->fids ? c->nfids : tt_profile_nframes(c->p);
    fref *r = malloc((nf ? nf : 1) * sizeof *r);
    *n = 0;
    if (!r)
        return NULL;
    for (size_t j = 0; j < nf; j++) {
        uint32_t i = c->fids ? c->fids[j] : (uint32_t)j;
        if (c->fw[i].total_samples || c->fw[i].total_weight)
            r[(*n)++] = (fref){i, &c->fw[i]};
    }
    qsort(r, *n, sizeof *r, cmp);
    return r;
}

static void func_json(sctx *c, uint32_t f, const tt_weight *w)
{
    const tt_stack_frame *fr = tt_profile_frame(c->p, f);
    tt_jsonw_obj_begin(&c->w);
    tt_jsonw_key(&c->w, "name");
    tt_jsonw_str(&c->w, fr->name);
    tt_jsonw_key(&c->w, "module");
    tt_jsonw_str(&c->w, fr->module);
    tt_jsonw_key(&c->w, "kind");
    tt_jsonw_str(&c->w, tt_frame_kind_name(fr->kind));
    tt_jsonw_key(&c->w, "self_weight");
    tt_jsonw_int(&c->w, w->self_weight);
    tt_jsonw_key(&c->w, "total_weight");
    tt_jsonw_int(&c->w, w->total_weight);
    tt_jsonw_key(&c->w, "self_samples");
    tt_jsonw_uint(&c->w, w->self_samples);
    tt_jsonw_key(&c->w, "total_samples");
    tt_jsonw_uint(&c->w, w->total_samples);
    tt_jsonw_obj_end(&c->w);
}

static void top_tables(sctx *c, int64_t total, const char *indent)
{
    for (int pass = 0; pass < 2; pass++) {
        size_t n;
        fref *r = sorted_functions(c, &n, pass ? by_total : by_self);
        if (!r)
            return;
        size_t lim = n < (size_t)c->top ? n : (size_t)c->top;
        if (c->json) {
            tt_jsonw_key(&c->w, pass ? "top_total" : "top_self");
            tt_jsonw_arr_begin(&c->w);
            for (size_t i = 0; i < lim; i++) {
                if (!pass && !r[i].w->self_weight && !r[i].w->self_samples)
                    break;
                func_json(c, r[i].frame, r[i].w);
            }
            tt_jsonw_arr_end(&c->w);
        } else {
            tt_buf_printf(&c->b, "%stop %s:\n%s  %7s %7s %14s %9s  function\n", indent,
                          pass ? "total" : "self", indent, "self%", "total%",
                          tt_weight_unit(c->weight), "samples");
            for (size_t i = 0; i < lim; i++) {
                const tt_weight *w = r[i].w;
                if (!pass && !w->self_weight && !w->self_samples)
                    break;
                tt_buf_printf(&c->b, "%s  %7.2f %7.2f %14lld %9llu  ", indent,
                              pct(w->self_weight, total), pct(w->total_weight, total),
                              (long long)(pass ? w->total_weight : w->self_weight),
                              (unsigned long long)(pass ? w->total_samples : w->self_samples));
                put_name(&c->b, tt_profile_frame(c->p, r[i].frame)->name);
            }
        }
        free(r);
    }
}

typedef struct nref {
    uint32_t id;
    int64_t total;
} nref;

static int by_node(const void *a, const void *b)
{
    const nref *x = a, *y = b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Children of a node (or the roots when id is TT_NONE) above the threshold, heaviest first. */
static nref *children(const tt_vec *t, uint32_t id, int64_t min, size_t *n)
{
    const tt_tree_node *nd = t->data;
    *n = 0;
    size_t cap = 16;
    nref *r = malloc(cap * sizeof *r);
    if (!r)
        return NULL;
    if (id == TT_NONE) {
        for (size_t i = 0; i < t->len; i++) {
            if (nd[i].parent != TT_NONE || nd[i].w.total_weight < min || !nd[i].w.total_weight)
                continue;
            if (*n == cap) {
                nref *x = realloc(r, (cap *= 2) * sizeof *r);
                if (!x)
                    break;
                r = x;
            }
            r[(*n)++] = (nref){(uint32_t)i, nd[i].w.total_weight};
        }
    } else {
        for (uint32_t ch = nd[id].first_child; ch != TT_NONE; ch = nd[ch].next_sibling) {
            if (nd[ch].w.total_weight < min || !nd[ch].w.total_weight)
                continue;
            if (*n == cap) {
                nref *x = realloc(r, (cap *= 2) * sizeof *r);
                if (!x)
                    break;
                r = x;
            }
            r[(*n)++] = (nref){ch, nd[ch].w.total_weight};
        }
    }
    qsort(r, *n, sizeof *r, by_node);
    return r;
}

/* The call tree below id in pre-order: text indented by level, JSON one flat node each with
 * its level as depth and the position of its parent (ppos, -1 for a root) among the nodes
 * written so far (*pos). */
static void tree_rec(sctx *c, const tt_vec *t, uint32_t id, int64_t total, int64_t min,
                     int level, int64_t ppos, int64_t *pos)
{
    size_t n;
    nref *r = children(t, id, min, &n);
    if (!r)
        return;
    const tt_tree_node *nd = t->data;
    for (size_t i = 0; i < n; i++) {
        const tt_tree_node *x = &nd[r[i].id];
        const char *name = tt_profile_frame(c->p, x->frame)->name;
        if (c->json) {
            tt_jsonw_obj_begin(&c->w);
            tt_jsonw_key(&c->w, "name");
            tt_jsonw_str(&c->w, name);
            tt_jsonw_key(&c->w, "total_weight");
            tt_jsonw_int(&c->w, x->w.total_weight);
            tt_jsonw_key(&c->w, "self_weight");
            tt_jsonw_int(&c->w, x->w.self_weight);
            tt_jsonw_key(&c->w, "total_samples");
            tt_jsonw_uint(&c->w, x->w.total_samples);
            tt_jsonw_key(&c->w, "self_samples");
            tt_jsonw_uint(&c->w, x->w.self_samples);
            cli_tree_json_parent(&c->w, ppos);
            tt_jsonw_key(&c->w, "depth");
            tt_jsonw_int(&c->w, level);
            tt_jsonw_obj_end(&c->w);
            int64_t me = (*pos)++;
            tree_rec(c, t, r[i].id, total, min, level + 1, me, pos);
        } else {
            tt_buf_printf(&c->b, "  %7.2f %7.2f %9llu  %*s", pct(x->w.total_weight, total),
                          pct(x->w.self_weight, total), (unsigned long long)x->w.total_samples,
                          2 * level, "");
            put_name(&c->b, name);
            tree_rec(c, t, r[i].id, total, min, level + 1, -1, pos);
        }
    }
    free(r);
}

static int tree(sctx *c, int64_t total)
{
    tt_vec t;
    tt_vec_init(&t, sizeof(tt_tree_node));
    if (tt_profile_tree_of(&t, c->p, c->cw, c->inverted, c->cids, c->ncids)) {
        tt_vec_free(&t);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    int64_t min = (int64_t)((double)total * c->min_pct / 100.0);
    if (c->json) {
        tt_jsonw_key(&c->w, c->inverted ? "nodes_inverted" : "nodes");
        tt_jsonw_arr_begin(&c->w);
    } else {
        tt_buf_printf(&c->b, "call tree (%s, nodes >= %g%% of the %s weight):\n  %7s %7s "
                      "%9s  function\n", c->inverted ? "bottom-up" : "top-down", c->min_pct,
                      tt_weight_unit(c->weight), "total%", "self%", "samples");
    }
    int64_t pos = 0;
    tree_rec(c, &t, TT_NONE, total, min, 0, -1, &pos);
    if (c->json)
        tt_jsonw_arr_end(&c->w);
    tt_vec_free(&t);
    return 0;
}

static int longest(sctx *c, uint32_t utid)
{
    tt_slice_top t = {malloc((size_t)c->top * sizeof(tt_slice)), 0, (size_t)c->top, 0};
    if (!t.s) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    tt_slice_info info;
    int rc = tt_slice_longest(&t, &info, &c->sl, c->p, utid, &c->so->slice,
                              cli_samples_jobs(c->so), &c->err);
    if (rc) {
        free(t.s);
        return cli_err(&c->err);
    }
    tt_slice *s = t.s;
    size_t m = t.n;
    size_t lim = m < (size_t)c->top ? m : (size_t)c->top;
    if (c->json) {
        tt_jsonw_key(&c->w, "slices");
        tt_jsonw_uint(&c->w, t.total);
        tt_jsonw_key(&c->w, "items");
        tt_jsonw_uint(&c->w, info.items);
        tt_jsonw_key(&c->w, "gap_splits");
        tt_jsonw_uint(&c->w, info.gap_splits);
        tt_jsonw_key(&c->w, "msg_splits");
        tt_jsonw_uint(&c->w, info.msg_splits);
        tt_jsonw_key(&c->w, "max_gap");
        tt_jsonw_int(&c->w, info.max_gap == TT_GAP_NONE ? -1 : info.max_gap);
        tt_jsonw_key(&c->w, "covered_dur");
        tt_jsonw_int(&c->w, info.covered_dur);
        tt_jsonw_key(&c->w, "span_dur");
        tt_jsonw_int(&c->w, info.last_ts - info.first_ts);
        tt_jsonw_key(&c->w, "longest_slices");
        tt_jsonw_arr_begin(&c->w);
    } else {
        char gap[32] = "none";
        if (info.max_gap != TT_GAP_NONE)
            snprintf(gap, sizeof gap, "%.3f ms", (double)info.max_gap / 1e6);
        tt_buf_printf(&c->b, "slices: %zu rebuilt from %llu items, covered %.3f ms of a %.3f ms "
                      "span, %llu gap split%s (max gap %s), %llu message split%s\n", t.total,
                      (unsigned long long)info.items, (double)info.covered_dur / 1e6,
                      (double)(info.last_ts - info.first_ts) / 1e6,
                      (unsigned long long)info.gap_splits, info.gap_splits == 1 ? "" : "s",
                      gap, (unsigned long long)info.msg_splits, info.msg_splits == 1 ? "" : "s");
        tt_buf_printf(&c->b, "longest slices:\n  %20s %12s %12s %5s %7s  function\n", "ts",
                      "dur_ms", "cpu_ms", "depth", "samples");
    }
    for (size_t i = 0; i < lim; i++) {
        const char *name = tt_profile_frame(c->p, s[i].frame)->name;
        if (c->json) {
            tt_jsonw_obj_begin(&c->w);
            tt_jsonw_key(&c->w, "name");
            tt_jsonw_str(&c->w, name);
            tt_jsonw_key(&c->w, "ts");
            tt_jsonw_int(&c->w, s[i].ts);
            tt_jsonw_key(&c->w, "dur");
            tt_jsonw_int(&c->w, s[i].dur);
            tt_jsonw_key(&c->w, "thread_dur");
            if (s[i].thread_dur >= 0)
                tt_jsonw_int(&c->w, s[i].thread_dur);
            else
                tt_jsonw_null(&c->w);
            tt_jsonw_key(&c->w, "block_dur");
            tt_jsonw_int(&c->w, s[i].block_dur > 0 ? s[i].block_dur : 0);
            tt_jsonw_key(&c->w, "depth");
            tt_jsonw_uint(&c->w, s[i].depth);
            tt_jsonw_key(&c->w, "samples");
            tt_jsonw_uint(&c->w, s[i].sample_count);
            tt_jsonw_key(&c->w, "type");
            tt_jsonw_str(&c->w, tt_sample_type_name(s[i].type));
            tt_jsonw_obj_end(&c->w);
        } else {
            char cpu[32] = "-";
            if (s[i].thread_dur >= 0)
                snprintf(cpu, sizeof cpu, "%.3f", (double)s[i].thread_dur / 1e6);
            tt_buf_printf(&c->b, "  %20lld %12.3f %12s %5u %7u  ", (long long)s[i].ts,
                          (double)s[i].dur / 1e6, cpu, s[i].depth, s[i].sample_count);
            put_name(&c->b, name);
        }
    }
    if (c->json)
        tt_jsonw_arr_end(&c->w);
    free(s);
    return 0;
}

/* One thread's weights into c->cw and c->fw (its touched ids in c->cids, c->fids), also added
 * to c->ov; utid TT_NONE: the sum over the threads shown (all, or the selected ones), without
 * another pass over the samples. *total and *samples: the weight and samples of the roots. */
static int weights_for(sctx *c, uint32_t utid, int64_t *total, uint64_t *samples)
{
    int rc;
    if (utid != TT_NONE) {
        rc = tt_profile_thread_weights(c->cw, c->fw, c->tw, c->p, utid, c->weight,
                                       c->so->slice.max_gap, c->so->slice.end_pad);
        c->cids = tt_touched_callsites(c->tw, &c->ncids);
        c->fids = tt_touched_frames(c->tw, &c->nfids);
        for (size_t j = 0; !rc && j < c->ncids; j++) {
            uint32_t k = c->cids[j];
            c->ov[k].self_weight = tt_sat_add_i64(c->ov[k].self_weight, c->cw[k].self_weight);
            c->ov[k].total_weight = tt_sat_add_i64(c->ov[k].total_weight, c->cw[k].total_weight);
            c->ov[k].self_samples += c->cw[k].self_samples;
            c->ov[k].total_samples += c->cw[k].total_samples;
        }
    } else {
        c->ncids = tt_profile_ncallsites(c->p);
        c->cids = c->fids = NULL;
        memcpy(c->cw, c->ov, c->ncids * sizeof *c->cw);
        rc = tt_profile_frame_weights(c->fw, c->p, c->cw);
    }
    if (rc) {
        cli_errorf("samples: %s weights%s: %s", tt_weight_unit(c->weight),
                   utid != TT_NONE ? " of a thread" : "", tt_strerror(rc));
        return CLI_BAD;
    }
    *total = 0;
    *samples = 0;
    for (size_t j = 0; j < c->ncids; j++) {
        uint32_t k = c->cids ? c->cids[j] : (uint32_t)j;
        if (tt_profile_callsite(c->p, k)->parent == TT_NONE) {
            *total = tt_sat_add_i64(*total, c->cw[k].total_weight);
            *samples += c->cw[k].total_samples;
        }
    }
    return 0;
}

static int thread_section(sctx *c, uint32_t utid)
{
    const tt_thread *t = tt_profile_thread(c->p, utid);
    uint64_t samples;
    int64_t total;
    int rc = weights_for(c, utid, &total, &samples);
    if (rc)
        return rc;
    c->b.len = 0;
    tt_thread_format(&c->b, c->p, utid);
    if (c->json) {
        tt_jsonw_obj_begin(&c->w);
        tt_jsonw_key(&c->w, "utid");
        tt_jsonw_uint(&c->w, utid);
        tt_jsonw_key(&c->w, "name");
        tt_jsonw_str(&c->w, c->b.data);
        tt_jsonw_key(&c->w, "tid");
        if (t->tid >= 0)
            tt_jsonw_int(&c->w, t->tid);
        else
            tt_jsonw_null(&c->w); /* perf script -F without tid */
        tt_jsonw_key(&c->w, "tid_bits");
        tt_jsonw_int(&c->w, t->tid_bits);
        tt_jsonw_key(&c->w, "pid");
        if (t->pid >= 0)
            tt_jsonw_int(&c->w, t->pid);
        else
            tt_jsonw_null(&c->w);
        tt_jsonw_key(&c->w, "is_main");
        tt_jsonw_bool(&c->w, t->is_main);
        tt_jsonw_key(&c->w, "samples");
        tt_jsonw_uint(&c->w, samples);
        tt_jsonw_key(&c->w, "weight");
        tt_jsonw_int(&c->w, total);
        c->b.len = 0;
    } else {
        tt_buf name = {0}; /* the thread's name as one line (put_name) */
        tt_textesc_cell(&name, c->b.data ? c->b.data : "", c->b.len, NULL);
        c->b.len = 0;
        tt_buf_put(&c->b, name.data ? name.data : "", name.len);
        tt_buf_free(&name);
        /* the fields the input gave: no tid, no "-1" */
        char tid[48] = "", pid[48] = "";
        if (t->tid >= 0)
            snprintf(tid, sizeof tid, ", tid %lld%s", (long long)t->tid,
                     t->tid_bits == 16 ? " low 16 bits" : "");
        if (t->pid >= 0)
            snprintf(pid, sizeof pid, ", pid %lld", (long long)t->pid);
        char paren[128];
        int np = snprintf(paren, sizeof paren, "%s%s%s", tid, pid, t->is_main ? ", main" : "");
        tt_buf_printf(&c->b, "%s%s%s\nsamples %llu, weight %lld %s\n", np ? " (" : "",
                      np ? paren + 2 : "", np ? ")" : "", (unsigned long long)samples,
                      (long long)total, tt_weight_unit(c->weight));
        cli_out_puts("== thread ");
        cli_out_buf(&c->b);
    }
    top_tables(c, total, "");
    rc = tree(c, total);
    if (!rc && !tt_profile_meta_get(c->p)->timeless)
        rc = longest(c, utid);
    if (c->json)
        tt_jsonw_obj_end(&c->w);
    else {
        tt_buf_puts(&c->b, "\n");
        cli_out_buf(&c->b);
    }
    return rc;
}

/* The source's default weight; inputs of several formats take the unit they all have,
 * whatever their order: wall when each has times and none is perf (periods are not
 * times), else samples. */
static int default_weight(const cli_samples_opts *so, size_t n, tt_profile *p)
{
    tt_profile_meta *m = tt_profile_meta_get(p);
    const char *format, *clock;
    cli_samples_source(&format, &clock, so, n, m);
    if (strcmp(format, "mixed"))
        return tt_weight_default(m);
    for (size_t i = 0; i < n && i < CLI_SAMPLES_MAX_INPUTS; i++)
        if (so->formats[i] && !strcmp(so->formats[i], "perf_script"))
            return TT_WEIGHT_SAMPLES;
    return m->timeless ? TT_WEIGHT_SAMPLES : TT_WEIGHT_WALL;
}

static void header(sctx *c, char **files, size_t n)
{
    tt_profile_meta *m = tt_profile_meta_get(c->p);
    const char *format, *clock; /* several inputs that differ: "mixed" */
    cli_samples_source(&format, &clock, c->so, n, m);
    if (c->json) {
        tt_jsonw_key(&c->w, "inputs");
        tt_jsonw_arr_begin(&c->w);
        for (size_t i = 0; i < n; i++)
            tt_jsonw_str(&c->w, files[i]);
        tt_jsonw_arr_end(&c->w);
        tt_jsonw_key(&c->w, "source_format");
        tt_jsonw_str(&c->w, format);
        tt_jsonw_key(&c->w, "clock");
        tt_jsonw_str(&c->w, clock);
        tt_jsonw_key(&c->w, "event");
        tt_jsonw_str(&c->w, m->event);
        if (m->event_variants) {
            tt_jsonw_key(&c->w, "event_variants");
            tt_jsonw_str(&c->w, m->event_variants);
        }
        tt_jsonw_key(&c->w, "process");
        tt_jsonw_str(&c->w, m->process);
        tt_jsonw_key(&c->w, "pid");
        if (m->pid >= 0)
            tt_jsonw_int(&c->w, m->pid);
        else
            tt_jsonw_null(&c->w);
        tt_jsonw_key(&c->w, "frames");
        tt_jsonw_uint(&c->w, tt_profile_nframes(c->p));
        tt_jsonw_key(&c->w, "callsites");
        tt_jsonw_uint(&c->w, tt_profile_ncallsites(c->p));
        tt_jsonw_key(&c->w, "weight_unit");
        tt_jsonw_str(&c->w, tt_weight_unit(c->weight));
        return;
    }
    c->b.len = 0;
    tt_buf_printf(&c->b, "input: ");
    for (size_t i = 0; i < n; i++)
        tt_buf_printf(&c->b, "%s%s", i ? ", " : "", files[i]);
    tt_buf_printf(&c->b, " (%s", format);
    if (m->event)
        tt_buf_printf(&c->b, ", event %s", m->event);
    if (m->event_variants)
        tt_buf_printf(&c->b, " (written %s)", m->event_variants);
    /* samples as the sections count them: a folded line or a merged run is its count */
    uint64_t count = 0;
    for (size_t i = 0, ns = tt_profile_nsamples(c->p); i < ns; i++)
        count += tt_profile_sample(c->p, i)->count;
    tt_buf_printf(&c->b, ", clock %s%s)\n%llu samples, %zu threads, %zu frames, %zu callsites\n",
                  clock, m->ambiguous_ts ? ", ambiguous timestamps: no slices"
                            : m->timeless ? ", no timestamps: no slices" : "",
                  (unsigned long long)count, tt_profile_nthreads(c->p), tt_profile_nframes(c->p),
                  tt_profile_ncallsites(c->p));
    static const char *const what[] = {
        "the number of samples (a merged run counts the samples it merged)",
        "wall time in ns, each run of samples up to the midpoints to its neighbours",
        "thread CPU time in ns, each run of samples up to the midpoints to its neighbours",
        "the input's sample weights (perf: the event period; 1 when none)"};
    if (c->so->weight < 0)
        tt_buf_printf(&c->b, "weight: %s (default for %s input): %s\n\n",
                      tt_weight_unit(c->weight), format, what[c->weight]);
    else
        tt_buf_printf(&c->b, "weight: %s (--weight): %s\n\n", tt_weight_unit(c->weight),
                      what[c->weight]);
    cli_out_buf(&c->b);
}

static int run(sctx *c, char **files, size_t n, const uint32_t *sel, size_t nsel)
{
    size_t nt = tt_profile_nthreads(c->p);
    if (c->json) {
        tt_jsonw_obj_begin(&c->w);
    }
    header(c, files, n);
    if (c->json) {
        tt_jsonw_key(&c->w, "threads");
        tt_jsonw_arr_begin(&c->w);
    }
    int rc = 0;
    for (size_t i = 0; i < (sel ? nsel : nt) && !rc; i++) {
        uint32_t utid = sel ? sel[i] : (uint32_t)i;
        size_t ns;
        tt_profile_thread_order(c->p, utid, &ns);
        if (ns || (!tt_profile_meta_get(c->p)->timeless && !sel))
            rc = ns ? thread_section(c, utid) : 0;
        if (!rc && !c->json)
            cli_out_buf(&c->b);
    }
    if (rc)
        return rc;
    uint64_t samples;
    int64_t total;
    rc = weights_for(c, TT_NONE, &total, &samples);
    if (rc)
        return rc;
    if (c->json) {
        tt_jsonw_arr_end(&c->w);
        tt_jsonw_key(&c->w, "overall");
        tt_jsonw_obj_begin(&c->w);
        tt_jsonw_key(&c->w, "samples");
        tt_jsonw_uint(&c->w, samples);
        tt_jsonw_key(&c->w, "weight");
        tt_jsonw_int(&c->w, total);
        top_tables(c, total, "");
        tt_jsonw_obj_end(&c->w);
        size_t nf;
        fref *r = sorted_functions(c, &nf, by_total);
        tt_jsonw_key(&c->w, "functions");
        tt_jsonw_arr_begin(&c->w);
        for (size_t i = 0; r && i < nf; i++)
            func_json(c, r[i].frame, r[i].w);
        tt_jsonw_arr_end(&c->w);
        free(r);
        tt_jsonw_obj_end(&c->w);
        tt_buf_puts(&c->w.buf, "\n");
        cli_out_buf(&c->w.buf);
    } else {
        tt_buf_printf(&c->b, "== overall (%s): samples %llu, weight %lld %s\n",
                      sel ? "selected threads" : "all threads", (unsigned long long)samples,
                      (long long)total, tt_weight_unit(c->weight));
        top_tables(c, total, "");
        cli_out_buf(&c->b);
    }
    return 0;
}

int cmd_samples(int argc, char **argv, cli_ctx *ctx)
{
    cli_samples_opts so;
    cli_samples_opts_init(&so);
    sctx c;
    memset(&c, 0, sizeof c);
    tt_vec_init(&c.sl, sizeof(tt_slice));
    c.top = 10;
    c.min_pct = 1;
    int ch;
    while ((ch = getopt_long(argc, argv, "e:h", longopts, NULL)) != -1) {
        int r = cli_samples_opt(&so, ch, optarg);
        if (r < 0)
            return CLI_BAD;
        if (r)
            continue;
        switch (ch) {
        case O_FORMAT: {
            static const char *const f[] = {"text", "json", NULL};
            int v = cli_opt_enum("--format", optarg, f);
            if (v < 0)
                return CLI_BAD;
            c.json = v;
            break;
        }
        case O_TOP:
            if (cli_opt_int("--top", optarg, 1, 1000000, &c.top))
                return CLI_BAD;
            break;
        case O_INVERTED: c.inverted = 1; break;
        case O_MINPCT: {
            if (cli_opt_real(optarg, &c.min_pct, NULL) ||
                !(c.min_pct >= 0 && c.min_pct <= 100)) {
                cli_errorf("option --min-percent: expected a number in 0..100, got \"%s\"",
                           optarg);
                return CLI_BAD;
            }
            break;
        }
        case 'h': return cli_usage(usage, 0);
        default: return cli_usage(usage, 1);
        }
    }
    if (argc - optind < 1) {
        cli_errorf("samples: missing FILE");
        return cli_usage(usage, 1);
    }
    if (so.kind == TT_SKIND_BEAT) {
        cli_errorf("samples: method-beat buffers are read by 'tracetool beat'");
        return CLI_BAD;
    }
    c.so = &so;
    if (cli_trace_paths_check(argv + optind, argc - optind, so.kind ? CLI_TRACE_FORCED : 0,
                              cli_samples_check_stream))
        return CLI_BAD;
    int rc = cli_samples_load(&c.p, argv + optind, (size_t)(argc - optind), &so, ctx);
    if (rc)
        return rc;
    c.weight = so.weight >= 0 ? so.weight : default_weight(&so, (size_t)(argc - optind), c.p);
    if (tt_profile_meta_get(c.p)->timeless &&
        (c.weight == TT_WEIGHT_WALL || c.weight == TT_WEIGHT_CPU)) {
        cli_errorf("the input has no timestamps: --weight %s needs times (use samples or "
                   "period)", c.weight == TT_WEIGHT_WALL ? "wall" : "cpu");
        tt_profile_free(c.p);
        return CLI_BAD;
    }
    uint32_t *sel = NULL;
    size_t nsel = 0;
    rc = cli_samples_threads(&sel, &nsel, c.p, &so);
    if (!rc && c.weight == TT_WEIGHT_CPU)
        rc = cli_samples_cpu_check(c.p, argv + optind, (size_t)(argc - optind), &so, sel, nsel);
    c.cw = calloc(tt_profile_ncallsites(c.p) + 1, sizeof *c.cw);
    c.ov = calloc(tt_profile_ncallsites(c.p) + 1, sizeof *c.ov);
    c.fw = calloc(tt_profile_nframes(c.p) + 2, sizeof *c.fw);
    if (!rc && (!c.cw || !c.fw || !c.ov || tt_touched_new(&c.tw, c.p))) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    tt_jsonw_init(&c.w, 0);
    if (!rc)
        rc = run(&c, argv + optind, (size_t)(argc - optind), sel, nsel);
    if (!rc)
        cli_stats_report(ctx->stats);
    tt_jsonw_free(&c.w);
    tt_vec_free(&c.sl);
    tt_buf_free(&c.b);
    free(sel);
    free(c.cw);
    free(c.ov);
    free(c.fw);
    tt_touched_free(c.tw);
    tt_profile_free(c.p);
    return rc;
}
