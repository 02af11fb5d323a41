/* tracetool art --tree: the top-down call tree per thread (spec/art-trace.md 5.3) with native
 * subtree trimming to --max-nodes. */
#include "cli_art.h"
#include "cli_csv.h"
#include "cli_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tnode {
    uint32_t method, parent, child, next;
    uint64_t calls, unwound, truncated;
    int64_t total, self, cpu_total, cpu_self;
    int keep;
} tnode;

typedef struct tree {
    tt_vec nodes;
    tt_vec stack; /* uint32_t node ids */
    int oom;
} tree;

static int tree_enter(void *ud, uint32_t method, uint32_t depth)
{
    tree *t = ud;
    (void)depth;
    uint32_t parent = t->stack.len ? TT_VEC_AT(&t->stack, uint32_t, t->stack.len - 1) : 0;
    tnode *p = &TT_VEC_AT(&t->nodes, tnode, parent);
    uint32_t c = p->child;
    while (c && TT_VEC_AT(&t->nodes, tnode, c).method != method)
        c = TT_VEC_AT(&t->nodes, tnode, c).next;
    if (!c) {
        tnode *n = tt_vec_push(&t->nodes, NULL);
        if (!n)
            return t->oom = 1;
        c = (uint32_t)t->nodes.len - 1;
        n->method = method;
        n->parent = parent;
        p = &TT_VEC_AT(&t->nodes, tnode, parent);
        n->next = p->child;
        p->child = c;
    }
    if (!tt_vec_push(&t->stack, &c))
        return t->oom = 1;
    return 0;
}

static int tree_slice(void *ud, const tt_art_slice *s)
{
    tree *t = ud;
    uint32_t id = TT_VEC_AT(&t->stack, uint32_t, --t->stack.len);
    tnode *n = &TT_VEC_AT(&t->nodes, tnode, id);
    n->calls++;
    n->total += s->dur_us;
    n->self += s->self_us;
    if (s->cpu_dur_us != TT_ART_NONE) {
        n->cpu_total += s->cpu_dur_us;
        n->cpu_self += s->cpu_self_us;
    }
    n->unwound += (uint64_t)s->unwound;
    n->truncated += s->end_kind == TT_ART_END_TRUNCATED;
    return 0;
}

static const tnode *sort_nodes;
static int sort_tree_cpu;

static int cmp_node(const void *x, const void *y)
{
    const tnode *a = &sort_nodes[*(const uint32_t *)x], *b = &sort_nodes[*(const uint32_t *)y];
    int64_t va = sort_tree_cpu ? a->cpu_total : a->total, vb = sort_tree_cpu ? b->cpu_total : b->total;
    if (va != vb)
        return va > vb ? -1 : 1;
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    return i < j ? -1 : i > j; /* parents were created before their children */
}

/* The kept nodes below id in pre-order; JSON writes one flat node each, with the position
 * of its parent (ppos, -1 for a root) among the thread's nodes written so far (*pos). */
static void tree_print(const art_run *r, tree *t, uint32_t id, uint32_t depth, tt_jsonw *w,
                       int64_t ppos, int64_t *pos)
{
    tnode *nodes = t->nodes.data;
    /* children in order of total, heaviest first */
    size_t nc = 0;
    for (uint32_t c = nodes[id].child; c; c = nodes[c].next)
        nc += nodes[c].keep;
    uint32_t *ch = malloc((nc + 1) * sizeof *ch);
    if (!ch)
        return;
    nc = 0;
    for (uint32_t c = nodes[id].child; c; c = nodes[c].next)
        if (nodes[c].keep)
            ch[nc++] = c;
    sort_nodes = nodes;
    sort_tree_cpu = r->use_cpu;
    qsort(ch, nc, sizeof *ch, cmp_node);
    int hc = tt_art_has_cpu(r->a);
    for (size_t i = 0; i < nc; i++) {
        const tnode *n = &nodes[ch[i]];
        const char *name = r->a->methods[n->method].key;
        if (r->format == F_TEXT) {
            /* right-aligned under the headings, as --profile's table */
            int64_t v[2] = {r->use_cpu ? n->cpu_total : n->total,
                            r->use_cpu ? n->cpu_self : n->self};
            for (int k = 0; k < 2; k++) {
                char b[48];
                if (r->us)
                    snprintf(b, sizeof b, "%lld", (long long)v[k]);
                else
                    snprintf(b, sizeof b, "%lld.%03lld", (long long)(v[k] / 1000),
                             (long long)(v[k] % 1000));
                cli_out_printf("%11s ", b);
            }
            cli_out_printf("%9llu  ", (unsigned long long)n->calls);
            for (uint32_t d = 0; d < depth; d++)
                cli_out_puts("  ");
            cli_out_printf("%s\n", name);
        } else if (r->format == F_CSV) {
            cli_out_printf("%u,%u,%u,%u,%llu,%lld,%lld,", r->cur_tid, ch[i], n->parent, depth,
                           (unsigned long long)n->calls, (long long)n->total, (long long)n->self);
            if (hc)
                cli_out_printf("%lld,%lld", (long long)n->cpu_total, (long long)n->cpu_self);
            else
                cli_out_puts(",");
            cli_out_printf(",%llu,%llu,", (unsigned long long)n->unwound,
                           (unsigned long long)n->truncated);
            cli_csv_out(name, 1);
            cli_out_puts("\n");
        } else {
            tt_jsonw_obj_begin(w);
            tt_jsonw_key(w, "method");
            tt_jsonw_str(w, name);
            tt_jsonw_key(w, "calls");
            tt_jsonw_uint(w, n->calls);
            tt_jsonw_key(w, "total_us");
            tt_jsonw_int(w, n->total);
            tt_jsonw_key(w, "self_us");
            tt_jsonw_int(w, n->self);
            cli_art_json_time(w, "cpu_total_us", n->cpu_total, hc);
            cli_art_json_time(w, "cpu_self_us", n->cpu_self, hc);
            tt_jsonw_key(w, "unwound");
            tt_jsonw_uint(w, n->unwound);
            tt_jsonw_key(w, "truncated");
            tt_jsonw_uint(w, n->truncated);
            cli_tree_json_parent(w, ppos);
            tt_jsonw_key(w, "depth");
            tt_jsonw_uint(w, depth);
            tt_jsonw_obj_end(w);
        }
        int64_t me = (*pos)++;
        tree_print(r, t, ch[i], depth + 1, w, me, pos);
        if (w->buf.len > 65536)
            cli_art_json_flush(w);
    }
    free(ch);
}

/* Keeps the max_nodes heaviest nodes (native subtree trimming): sorted by total, a parent
 * always comes before its children, so every kept node's ancestors are kept. */
static int tree_trim(const art_run *r, tree *t)
{
    size_t n = t->nodes.len;
    tnode *nodes = t->nodes.data;
    uint32_t *ix = malloc(n * sizeof *ix);
    if (!ix)
        return TT_ENOMEM;
    for (size_t i = 1; i < n; i++)
        ix[i - 1] = (uint32_t)i;
    sort_nodes = nodes;
    sort_tree_cpu = r->use_cpu;
    qsort(ix, n - 1, sizeof *ix, cmp_node);
    size_t max = r->max_nodes ? (size_t)r->max_nodes : 200;
    for (size_t i = 0; i + 1 < n; i++)
        nodes[ix[i]].keep = i < max && nodes[nodes[ix[i]].parent].keep;
    free(ix);
    return 0;
}

int cli_art_tree(art_run *r)
{
    tt_art *a = r->a;
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    if (r->format == F_CSV)
        cli_out_puts("thread,node,parent,depth,calls,total_us,self_us,cpu_total_us,cpu_self_us,"
                     "unwound,truncated,method\n");
    if (r->format == F_JSON) {
        tt_jsonw_obj_begin(&w);
        tt_jsonw_key(&w, "threads");
        tt_jsonw_arr_begin(&w);
    }
    int rc = 0;
    for (size_t i = 0; i < a->nthreads && !rc; i++) {
        if (!r->use[i])
            continue;
        const tt_art_thread *th = &a->threads[i];
        r->cur_tid = th->tid;
        tree t = {0};
        tt_vec_init(&t.nodes, sizeof(tnode));
        tt_vec_init(&t.stack, sizeof(uint32_t));
        tnode *root = tt_vec_push(&t.nodes, NULL);
        tt_art_visit v = {tree_enter, tree_slice, &t};
        tt_error err = {0};
        if (!root) {
            t.oom = 1;
        } else {
            root->keep = 1;
            rc = tt_art_rebuild(a, i, &r->ro, &v, r->ctx->stats, r->file, &err);
            if (rc && !t.oom)
                rc = cli_err(&err);
            if (!rc && tree_trim(r, &t))
                t.oom = 1;
        }
        if (t.oom) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
        } else if (!rc) {
            if (r->format == F_TEXT) {
                cli_out_printf("thread %u %s (%zu events)\n%11s %11s %9s  method\n", th->tid,
                               th->name, th->nev, r->use_cpu ? "cpu total" : "total", "self",
                               "calls");
            } else if (r->format != F_CSV) {
                tt_jsonw_obj_begin(&w);
                tt_jsonw_key(&w, "thread");
                tt_jsonw_uint(&w, th->tid);
                tt_jsonw_key(&w, "name");
                tt_jsonw_str(&w, th->name);
                tt_jsonw_key(&w, "nodes");
                tt_jsonw_arr_begin(&w);
            }
            int64_t pos = 0;
            tree_print(r, &t, 0, 0, &w, -1, &pos);
            if (r->format == F_JSON || r->format == F_JSONL) {
                tt_jsonw_arr_end(&w);
                tt_jsonw_obj_end(&w);
                if (r->format == F_JSONL)
                    tt_buf_puts(&w.buf, "\n");
            }
            cli_art_json_flush(&w);
        }
        tt_vec_free(&t.nodes);
        tt_vec_free(&t.stack);
    }
    cli_art_json_end(r, &w);
    return rc;
}

