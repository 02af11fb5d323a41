/* tracetool art: ART method traces (.trace), spec/art-trace.md 6.5: summary, --dump,
 * --profile and --tree in text, JSON, JSON lines or CSV. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "../libtrace/tt_art.h"
#include "cli_load.h"

static const char usage[] =
    "usage: tracetool art [--dump] [--profile] [--tree [--max-nodes N]] [--threads main|all|NAME]\n"
    "                     [--clock wall|cpu|first] [--units us|ms]\n"
    "                     [--art-mode auto|instrumented|sampled] [--art-clock wall|thread-cpu]\n"
    "                     [--art-close-at thread-last|trace-end] [--retrace MAPPING]\n"
    "                     [--normalize-synthetic]\n"
    "                     [--window NAME] [--threshold-ms N] [--format text|json|jsonl|csv]\n"
    "                     FILE\n"
    "\n"
    "      --dump              one line per record in file order (dmtracedump -o)\n"
    "      --profile           per-method calls, self and total time on both clocks\n"
    "      --tree              top-down call tree per thread\n"
    "      --max-nodes N       keep the N heaviest nodes of each tree (default 200)\n"
    "      --threads SEL       main, all (default) or a thread name; repeatable\n"
    "      --clock CLOCK       wall (default), cpu, or first (the records' first clock)\n"
    "      --units UNITS       ms (default, three decimals) or us\n"
    "      --art-mode MODE     auto (default), instrumented or sampled\n"
    "      --art-clock CLOCK   clock of a streaming file without summary (default wall)\n"
    "      --art-close-at AT   close open frames at the thread's last event (default) or\n"
    "                          at the trace end\n"
    "      --retrace MAPPING   de-obfuscate method names with a ProGuard/R8 mapping.txt\n"
    "      --normalize-synthetic  '#' for the digits of synthetic names (Foo$1, Lambda3)\n"
    "      --window NAME       slow-message window method (repeatable; default\n"
    "                          android.os.Handler.dispatchMessage(android.os.Message))\n"
    "      --threshold-ms N    slow-message threshold (default 700)\n"
    "      --format FMT        text (default), json, jsonl, csv\n"
    "  -h, --help              show this help\n";

enum { O_DUMP = 256, O_PROFILE, O_TREE, O_MAXN, O_THREADS, O_CLOCK, O_UNITS, O_MODE, O_ACLOCK,
       O_CLOSE, O_WINDOW, O_THRESH, O_FORMAT, O_RETRACE, O_NORM };

static const struct option longopts[] = {
    {"dump", no_argument, NULL, O_DUMP},
    {"profile", no_argument, NULL, O_PROFILE},
    {"tree", no_argument, NULL, O_TREE},
    {"max-nodes", required_argument, NULL, O_MAXN},
    {"threads", required_argument, NULL, O_THREADS},
    {"clock", required_argument, NULL, O_CLOCK},
    {"units", required_argument, NULL, O_UNITS},
    {"art-mode", required_argument, NULL, O_MODE},
    {"art-clock", required_argument, NULL, O_ACLOCK},
    {"art-close-at", required_argument, NULL, O_CLOSE},
    {"window", required_argument, NULL, O_WINDOW},
    {"retrace", required_argument, NULL, O_RETRACE},
    {"normalize-synthetic", no_argument, NULL, O_NORM},
    {"threshold-ms", required_argument, NULL, O_THRESH},
    {"format", required_argument, NULL, O_FORMAT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *const formats[] = {"text", "json", "jsonl", "csv", NULL};
static const char *const clocks[] = {"wall", "cpu", "first", NULL};
static const char *const units_names[] = {"ms", "us", NULL};
static const char *const modes[] = {"auto", "instrumented", "sampled", NULL};
static const char *const aclocks[] = {"wall", "thread-cpu", NULL};
static const char *const closes[] = {"thread-last", "trace-end", NULL};
enum { F_TEXT, F_JSON, F_JSONL, F_CSV };
enum { C_WALL, C_CPU, C_FIRST };
#define MAX_SEL 16
#define MAX_WIN 16

typedef struct art_run {
    int dump, profile, tree, max_nodes, format, clock, clock_given, us, mode, aclock, close_at;
    const char *sel[MAX_SEL];
    int nsel;
    const char *win[MAX_WIN];
    int nwin;
    int64_t threshold_ms;
    const char *retrace;
    int normalize;
    /* after parsing */
    tt_art *a;
    const char *file;
    unsigned char *use;  /* per thread: selected */
    int use_cpu;         /* the chosen clock is the CPU clock */
    int sampled;
    int64_t interval_us;
    uint32_t cur_tid;
    tt_art_rebuild_opts ro;
    cli_ctx *ctx;
} art_run;

static int parse_args(int argc, char **argv, art_run *r)
{
    int c, v;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case O_DUMP: r->dump = 1; break;
        case O_PROFILE: r->profile = 1; break;
        case O_TREE: r->tree = 1; break;
        case O_MAXN:
            if (cli_opt_int("--max-nodes", optarg, 1, 100000000, &r->max_nodes))
                return CLI_BAD;
            break;
        case O_THREADS:
            if (r->nsel == MAX_SEL) {
                cli_errorf("option --threads: at most %d selections", MAX_SEL);
                return CLI_BAD;
            }
            r->sel[r->nsel++] = optarg;
            break;
        case O_CLOCK:
            if ((r->clock = cli_opt_enum("--clock", optarg, clocks)) < 0)
                return CLI_BAD;
            r->clock_given = 1;
            break;
        case O_UNITS:
            if ((v = cli_opt_enum("--units", optarg, units_names)) < 0)
                return CLI_BAD;
            r->us = v;
            break;
        case O_MODE:
            if ((r->mode = cli_opt_enum("--art-mode", optarg, modes)) < 0)
                return CLI_BAD;
            break;
        case O_ACLOCK:
            if ((r->aclock = cli_opt_enum("--art-clock", optarg, aclocks)) < 0)
                return CLI_BAD;
            break;
        case O_CLOSE:
            if ((r->close_at = cli_opt_enum("--art-close-at", optarg, closes)) < 0)
                return CLI_BAD;
            break;
        case O_WINDOW:
            if (r->nwin == MAX_WIN) {
                cli_errorf("option --window: at most %d names", MAX_WIN);
                return CLI_BAD;
            }
            r->win[r->nwin++] = optarg;
            break;
        case O_THRESH:
            if (cli_opt_i64("--threshold-ms", optarg, &r->threshold_ms))
                return CLI_BAD;
            if (r->threshold_ms < 0 || r->threshold_ms > TT_MS_MAX / 1000) {
                cli_errorf("option --threshold-ms: expected a non-negative number of ms");
                return CLI_BAD;
            }
            break;
        case O_FORMAT:
            if ((r->format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_RETRACE: r->retrace = optarg; break;
        case O_NORM: r->normalize = 1; break;
        case 'h': return -1;
        default: return cli_usage(usage, 1);
        }
    }
    return 0;
}

/* ---- shared helpers ---- */

static void put_time(int64_t us, int have, int in_us)
{
    if (!have)
        cli_out_puts("-");
    else if (in_us)
        cli_out_printf("%lld", (long long)us);
    else
        cli_out_printf("%lld.%03lld", (long long)(us / 1000), (long long)(us % 1000));
}

static void json_flush(tt_jsonw *w)
{
    cli_out_buf(&w->buf);
}

static int is_main(const art_run *r, const tt_art_thread *t)
{
    return !strcmp(t->name, "main") ||
           (r->a->pid >= 0 && (uint32_t)(r->a->pid & 0xFFFF) == t->id);
}

/* Thread selection of --threads (default all, or main for the summary's table). */
static int select_threads(art_run *r, int default_main)
{
    tt_art *a = r->a;
    r->use = calloc(a->nthreads + 1, 1);
    if (!r->use) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (!r->nsel) {
        for (size_t i = 0; i < a->nthreads; i++)
            r->use[i] = default_main ? (unsigned char)is_main(r, &a->threads[i]) : 1;
        return 0;
    }
    for (int k = 0; k < r->nsel; k++) {
        int hit = 0;
        for (size_t i = 0; i < a->nthreads; i++) {
            const tt_art_thread *t = &a->threads[i];
            int m = !strcmp(r->sel[k], "all") ||
                    (!strcmp(r->sel[k], "main") ? is_main(r, t) : !strcmp(r->sel[k], t->name));
            if (m)
                r->use[i] = 1;
            hit |= m;
        }
        if (!hit) {
            cli_errorf("%s: no thread matches --threads %s", r->file, r->sel[k]);
            return CLI_BAD;
        }
    }
    return 0;
}

/* ---- --dump (7.2 without its quirks) ---- */

typedef struct dstack {
    uint32_t *m;
    size_t n, cap;
} dstack;

static int dump_depth(dstack *s, uint32_t m, int action, uint32_t *depth)
{
    if (action == TT_ART_ENTER) {
        if (s->n == s->cap) {
            size_t nc = s->cap ? s->cap * 2 : 32;
            uint32_t *nm = realloc(s->m, nc * sizeof *nm);
            if (!nm)
                return TT_ENOMEM;
            s->m = nm;
            s->cap = nc;
        }
        *depth = (uint32_t)s->n;
        s->m[s->n++] = m;
        return 0;
    }
    size_t k = s->n;
    while (k && s->m[k - 1] != m)
        k--;
    if (!k) { /* unmatched exit: shown at the current depth, stack unchanged */
        *depth = (uint32_t)s->n;
        return 0;
    }
    *depth = (uint32_t)(k - 1);
    s->n = k - 1;
    return 0;
}

static void dump_line(const art_run *r, tt_jsonw *w, const tt_art_thread *t,
                      const tt_art_event *e, uint32_t depth)
{
    const tt_art *a = r->a;
    const tt_art_method *m = &a->methods[TT_ART_EV_METHOD(e)];
    int act = TT_ART_EV_ACTION(e);
    int64_t v = r->use_cpu ? e->cpu_us : e->wall_us;
    if (r->format == F_TEXT) { /* built in w->buf: one write per 64 KiB (2 M-record dumps) */
        static const char dots[] = "................................................................";
        char head[96];
        int k = r->us ? snprintf(head, sizeof head, "%2u %s  %8lld ", t->id,
                                 tt_art_action_name(act), (long long)v)
                      : snprintf(head, sizeof head, "%2u %s  %8lld.%03lld ", t->id,
                                 tt_art_action_name(act), (long long)(v / 1000),
                                 (long long)(v % 1000));
        tt_buf_put(&w->buf, head, (size_t)k);
        for (uint32_t d = depth + 3; d;) {
            uint32_t c = d < 64 ? d : 64;
            tt_buf_put(&w->buf, dots, c);
            d -= c;
        }
        tt_buf_puts(&w->buf, m->raw);
        tt_buf_put(&w->buf, "\n", 1);
    } else if (r->format == F_CSV) {
        cli_out_printf("%u,%u,%s,", e->rec, t->id, tt_art_action_name(act));
        if (e->wall_us != TT_ART_NONE)
            cli_out_printf("%lld", (long long)e->wall_us);
        cli_out_puts(",");
        if (e->cpu_us != TT_ART_NONE)
            cli_out_printf("%lld", (long long)e->cpu_us);
        cli_out_printf(",%u,\"%s\"\n", depth, m->raw);
    } else {
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "record");
        tt_jsonw_uint(w, e->rec);
        tt_jsonw_key(w, "thread");
        tt_jsonw_uint(w, t->id);
        tt_jsonw_key(w, "action");
        tt_jsonw_str(w, tt_art_action_name(act));
        tt_jsonw_key(w, "wall_us");
        if (e->wall_us != TT_ART_NONE)
            tt_jsonw_int(w, e->wall_us);
        else
            tt_jsonw_null(w);
        tt_jsonw_key(w, "cpu_us");
        if (e->cpu_us != TT_ART_NONE)
            tt_jsonw_int(w, e->cpu_us);
        else
            tt_jsonw_null(w);
        tt_jsonw_key(w, "depth");
        tt_jsonw_uint(w, depth);
        tt_jsonw_key(w, "method");
        tt_jsonw_str(w, m->key);
        tt_jsonw_key(w, "raw_name");
        tt_jsonw_str(w, m->raw);
        tt_jsonw_obj_end(w);
        if (r->format == F_JSONL) {
            tt_buf_puts(&w->buf, "\n");
            json_flush(w);
        }
    }
}

static int do_dump(art_run *r)
{
    tt_art *a = r->a;
    uint32_t maxrec = 0;
    for (size_t i = 0; i < a->nthreads; i++)
        if (a->threads[i].nev && a->threads[i].ev[a->threads[i].nev - 1].rec > maxrec)
            maxrec = a->threads[i].ev[a->threads[i].nev - 1].rec;
    uint32_t *order = malloc(((size_t)maxrec + 1) * sizeof *order);
    size_t *pos = calloc(a->nthreads + 1, sizeof *pos);
    dstack *st = calloc(a->nthreads + 1, sizeof *st);
    if (!order || !pos || !st) {
        free(order);
        free(pos);
        free(st);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    memset(order, 0xff, ((size_t)maxrec + 1) * sizeof *order);
    for (size_t i = 0; i < a->nthreads; i++)
        for (size_t k = 0; k < a->threads[i].nev; k++)
            order[a->threads[i].ev[k].rec] = (uint32_t)i;
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    if (r->format == F_TEXT) {
        cli_out_printf("VERSION: %d\nThreads (%zu):\n", a->version, a->nthreads);
        for (size_t i = 0; i < a->nthreads; i++)
            cli_out_printf("%2u %s\n", a->threads[i].id, a->threads[i].name);
        cli_out_printf("Trace (threadID action %s class.method signature):\n",
                       r->us ? "usecs" : "msecs");
    } else if (r->format == F_CSV) {
        cli_out_puts("record,thread,action,wall_us,cpu_us,depth,method\n");
    } else if (r->format == F_JSON) {
        tt_jsonw_obj_begin(&w);
        tt_jsonw_key(&w, "records");
        tt_jsonw_arr_begin(&w);
    }
    int rc = 0;
    for (uint32_t rec = 0; rec <= maxrec && !rc; rec++) {
        uint32_t ti = order[rec];
        if (ti == UINT32_MAX)
            continue;
        const tt_art_thread *t = &a->threads[ti];
        const tt_art_event *e = &t->ev[pos[ti]++];
        uint32_t depth;
        if (dump_depth(&st[ti], TT_ART_EV_METHOD(e), TT_ART_EV_ACTION(e), &depth)) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
        } else if (r->use[ti]) {
            dump_line(r, &w, t, e, depth);
            if (w.buf.len > 65536)
                json_flush(&w);
        }
    }
    if (r->format == F_JSON) {
        tt_jsonw_arr_end(&w);
        tt_jsonw_obj_end(&w);
        tt_buf_puts(&w.buf, "\n");
    }
    json_flush(&w);
    tt_jsonw_free(&w);
    for (size_t i = 0; i < a->nthreads; i++)
        free(st[i].m);
    free(st);
    free(pos);
    free(order);
    return rc;
}

/* ---- --profile (5.2) ---- */

static const tt_art_prof *sort_prof;
static int sort_cpu;
static const tt_art *sort_art;

static int cmp_prof(const void *x, const void *y)
{
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    const tt_art_prof *a = &sort_prof[i], *b = &sort_prof[j];
    int64_t sa = sort_cpu ? a->cpu_self_us : a->self_us, sb = sort_cpu ? b->cpu_self_us : b->self_us;
    if (sa != sb)
        return sa > sb ? -1 : 1;
    int64_t ta = sort_cpu ? a->cpu_total_us : a->total_us, tb = sort_cpu ? b->cpu_total_us : b->total_us;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    int c = strcmp(sort_art->methods[i].key, sort_art->methods[j].key);
    return c ? c : (i < j ? -1 : i > j);
}

/* Indices of the methods with calls, sorted by self time of the chosen clock. */
static uint32_t *prof_order(const art_run *r, const tt_art_prof *prof, size_t *n)
{
    uint32_t *ix = malloc((r->a->nmethods + 1) * sizeof *ix);
    if (!ix)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < r->a->nmethods; i++)
        if (prof[i].calls || prof[i].recursive_calls)
            ix[k++] = (uint32_t)i;
    sort_prof = prof;
    sort_cpu = r->use_cpu;
    sort_art = r->a;
    qsort(ix, k, sizeof *ix, cmp_prof);
    *n = k;
    return ix;
}

static void json_time(tt_jsonw *w, const char *k, int64_t v, int have)
{
    tt_jsonw_key(w, k);
    if (have)
        tt_jsonw_int(w, v);
    else
        tt_jsonw_null(w);
}

static void prof_row(const art_run *r, tt_jsonw *w, const tt_art_method *m, const tt_art_prof *p,
                     size_t limit_name)
{
    int hw = tt_art_has_wall(r->a), hc = tt_art_has_cpu(r->a);
    if (r->format == F_TEXT) {
        char calls[48];
        snprintf(calls, sizeof calls, "%llu+%llu", (unsigned long long)p->calls,
                 (unsigned long long)p->recursive_calls);
        cli_out_printf("%9s ", calls);
        int64_t v[4] = {p->self_us, p->total_us, p->cpu_self_us, p->cpu_total_us};
        for (int i = 0; i < 4; i++) {
            char b[48];
            int have = i < 2 ? hw : hc;
            if (!have)
                snprintf(b, sizeof b, "-");
            else if (r->us)
                snprintf(b, sizeof b, "%lld", (long long)v[i]);
            else
                snprintf(b, sizeof b, "%lld.%03lld", (long long)(v[i] / 1000),
                         (long long)(v[i] % 1000));
            cli_out_printf("%11s ", b);
        }
        (void)limit_name;
        cli_out_printf(" %s\n", m->key);
    } else if (r->format == F_CSV) {
        cli_out_puts("\"");
        for (const char *s = m->key; *s; s++)
            cli_out_write(*s == '"' ? "\"\"" : s, *s == '"' ? 2 : 1);
        cli_out_printf("\",%llu,%llu,", (unsigned long long)p->calls,
                       (unsigned long long)p->recursive_calls);
        if (hw)
            cli_out_printf("%lld,%lld,", (long long)p->self_us, (long long)p->total_us);
        else
            cli_out_puts(",,");
        if (hc)
            cli_out_printf("%lld,%lld\n", (long long)p->cpu_self_us, (long long)p->cpu_total_us);
        else
            cli_out_puts(",\n");
    } else {
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "method");
        tt_jsonw_str(w, m->key);
        tt_jsonw_key(w, "raw_name");
        tt_jsonw_str(w, m->raw);
        tt_jsonw_key(w, "calls");
        tt_jsonw_uint(w, p->calls);
        tt_jsonw_key(w, "recursive_calls");
        tt_jsonw_uint(w, p->recursive_calls);
        json_time(w, "self_us", p->self_us, hw);
        json_time(w, "total_us", p->total_us, hw);
        json_time(w, "cpu_self_us", p->cpu_self_us, hc);
        json_time(w, "cpu_total_us", p->cpu_total_us, hc);
        tt_jsonw_obj_end(w);
        if (r->format == F_JSONL) {
            tt_buf_puts(&w->buf, "\n");
            json_flush(w);
        }
    }
}

static void prof_header(void)
{
    cli_out_printf("%9s %11s %11s %11s %11s  %s\n", "calls", "self", "total", "cpu self",
                   "cpu total", "method");
}

static int do_profile(art_run *r)
{
    tt_art *a = r->a;
    tt_art_prof *prof = calloc(a->nmethods + 1, sizeof *prof);
    if (!prof) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    int64_t span = 0, cspan = 0;
    tt_error err = {0};
    if (tt_art_profile(prof, &span, &cspan, a, r->use, &r->ro, r->ctx->stats, r->file, &err)) {
        free(prof);
        return cli_err(&err);
    }
    size_t n;
    uint32_t *ix = prof_order(r, prof, &n);
    if (!ix) {
        free(prof);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    int hw = tt_art_has_wall(a), hc = tt_art_has_cpu(a);
    if (r->format == F_TEXT) {
        cli_out_printf("# per-method profile, %s; thread spans: wall ", r->us ? "us" : "ms");
        put_time(span, hw, r->us);
        cli_out_puts(", cpu ");
        put_time(cspan, hc, r->us);
        cli_out_puts("\n");
        prof_header();
    } else if (r->format == F_CSV) {
        cli_out_puts("method,calls,recursive_calls,self_us,total_us,cpu_self_us,cpu_total_us\n");
    } else if (r->format == F_JSON) {
        tt_jsonw_obj_begin(&w);
        json_time(&w, "span_us", span, hw);
        json_time(&w, "cpu_span_us", cspan, hc);
        tt_jsonw_key(&w, "methods");
        tt_jsonw_arr_begin(&w);
    }
    for (size_t i = 0; i < n; i++)
        prof_row(r, &w, &a->methods[ix[i]], &prof[ix[i]], 0);
    if (r->format == F_JSON) {
        tt_jsonw_arr_end(&w);
        tt_jsonw_obj_end(&w);
        tt_buf_puts(&w.buf, "\n");
    }
    json_flush(&w);
    tt_jsonw_free(&w);
    free(ix);
    free(prof);
    return 0;
}


/* ---- --tree (5.3) ---- */

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

static void tree_print(const art_run *r, tree *t, uint32_t id, uint32_t depth, tt_jsonw *w)
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
            cli_out_puts("  ");
            put_time(r->use_cpu ? n->cpu_total : n->total, 1, r->us);
            cli_out_puts("  ");
            put_time(r->use_cpu ? n->cpu_self : n->self, 1, r->us);
            cli_out_printf("  %llu  ", (unsigned long long)n->calls);
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
            cli_out_printf(",%llu,%llu,\"%s\"\n", (unsigned long long)n->unwound,
                           (unsigned long long)n->truncated, name);
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
            json_time(w, "cpu_total_us", n->cpu_total, hc);
            json_time(w, "cpu_self_us", n->cpu_self, hc);
            tt_jsonw_key(w, "unwound");
            tt_jsonw_uint(w, n->unwound);
            tt_jsonw_key(w, "truncated");
            tt_jsonw_uint(w, n->truncated);
            tt_jsonw_key(w, "children");
            tt_jsonw_arr_begin(w);
        }
        tree_print(r, t, ch[i], depth + 1, w);
        if (r->format == F_JSON || r->format == F_JSONL) {
            tt_jsonw_arr_end(w);
            tt_jsonw_obj_end(w);
        }
        if (w->buf.len > 65536)
            json_flush(w);
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

static int do_tree(art_run *r)
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
        r->cur_tid = th->id;
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
                cli_out_printf("thread %u %s (%zu events)\n  %s  self  calls  method\n", th->id,
                               th->name, th->nev, r->use_cpu ? "cpu total" : "total");
            } else if (r->format != F_CSV) {
                tt_jsonw_obj_begin(&w);
                tt_jsonw_key(&w, "thread");
                tt_jsonw_uint(&w, th->id);
                tt_jsonw_key(&w, "name");
                tt_jsonw_str(&w, th->name);
                tt_jsonw_key(&w, "children");
                tt_jsonw_arr_begin(&w);
            }
            tree_print(r, &t, 0, 0, &w);
            if (r->format == F_JSON || r->format == F_JSONL) {
                tt_jsonw_arr_end(&w);
                tt_jsonw_obj_end(&w);
                if (r->format == F_JSONL)
                    tt_buf_puts(&w.buf, "\n");
            }
            json_flush(&w);
        }
        tt_vec_free(&t.nodes);
        tt_vec_free(&t.stack);
    }
    if (r->format == F_JSON) {
        tt_jsonw_arr_end(&w);
        tt_jsonw_obj_end(&w);
        tt_buf_puts(&w.buf, "\n");
    }
    json_flush(&w);
    tt_jsonw_free(&w);
    return rc;
}

/* ---- default: summary, top methods of the main thread, slow messages (6.3) ---- */

static int is_window(const art_run *r, uint32_t m)
{
    const char *k = r->a->methods[m].key;
    if (!r->nwin)
        return !strcmp(k, "android.os.Handler.dispatchMessage(android.os.Message)");
    for (int i = 0; i < r->nwin; i++)
        if (!strcmp(k, r->win[i]))
            return 1;
    return 0;
}

/* Slow messages of thread t (6.3): windows, method-beat pipeline, blame by name. */
static int slow_messages(tt_vec *out, const art_run *r, size_t t)
{
    tt_vec_init(out, sizeof(tt_art_issue));
    if (t >= r->a->nthreads)
        return 0;
    tt_vec win;
    tt_vec_init(&win, sizeof(uint32_t));
    for (uint32_t m = 0; m < r->a->nmethods; m++)
        if (is_window(r, m) && !tt_vec_push(&win, &m)) {
            tt_vec_free(&win);
            cli_errorf("out of memory");
            return CLI_BAD;
        }
    tt_error err = {0};
    int rc = win.len ? tt_art_slow_messages(out, r->a, t, win.data, win.len,
                                            r->threshold_ms * 1000, &err)
                     : 0;
    tt_vec_free(&win);
    return rc ? cli_err(&err) : 0;
}

static void summary_text(const art_run *r, size_t main_i)
{
    const tt_art *a = r->a;
    cli_out_printf("ART method trace: %s, version %d, clock %s%s, mode %s",
                   a->kind == TT_ART_STREAMING ? "streaming" : "legacy", a->version,
                   tt_art_clock_name(a->clock), a->clock_guessed ? " (guessed)" : "",
                   r->sampled ? "sampled" : "instrumented");
    if (r->sampled)
        cli_out_printf(" (interval %lld us)", (long long)r->interval_us);
    cli_out_printf("\nstart: %llu us (monotonic)", (unsigned long long)a->start_us);
    if (a->elapsed_us >= 0) {
        cli_out_puts(", elapsed: ");
        put_time(a->elapsed_us, 1, r->us);
        cli_out_puts(r->us ? " us" : " ms");
    }
    cli_out_printf("\nrecords: %llu, methods: %zu, threads: %zu\n",
                   (unsigned long long)a->records, a->nmethods, a->nthreads);
    if (!tt_art_has_wall(a))
        cli_out_puts("note: CPU-time only: threads are not aligned to each other\n");
    for (size_t i = 0; i < a->nthreads; i++)
        cli_out_printf("  thread %u %s: %zu events\n", a->threads[i].id, a->threads[i].name,
                       a->threads[i].nev);
    if (main_i < a->nthreads)
        cli_out_printf("top methods of thread %u %s by self time (%s):\n",
                       a->threads[main_i].id, a->threads[main_i].name, r->us ? "us" : "ms");
}

static int64_t last_time(const art_run *r)
{
    int64_t m = 0;
    for (size_t i = 0; i < r->a->nthreads; i++) {
        const tt_art_thread *t = &r->a->threads[i];
        if (t->nev) {
            const tt_art_event *e = &t->ev[t->nev - 1];
            int64_t v = tt_art_has_wall(r->a) ? e->wall_us : e->cpu_us;
            if (v > m)
                m = v;
        }
    }
    return m;
}

static void overflow_warning(const art_run *r)
{
    if (!r->a->overflow)
        return;
    int64_t last = last_time(r);
    cli_warnf("%s: data-file-overflow=true: buffer full after %lld.%03lld ms: pass a larger "
              "bufferSize to Debug.startMethodTracing or record in streaming mode",
              r->file, (long long)(last / 1000), (long long)(last % 1000));
}

static int do_summary(art_run *r)
{
    tt_art *a = r->a;
    size_t main_i = a->nthreads;
    for (size_t i = 0; i < a->nthreads && main_i == a->nthreads; i++)
        if (r->use[i])
            main_i = i;
    tt_vec iss;
    tt_error err = {0};
    if (slow_messages(&iss, r, main_i))
        return CLI_BAD;
    uint32_t wm = TT_NONE;
    for (uint32_t m = 0; m < a->nmethods && wm == TT_NONE; m++)
        if (is_window(r, m))
            wm = m;
    tt_buf bname = {0}, bpath = {0};
    tt_art_prof *prof = calloc(a->nmethods + 1, sizeof *prof);
    int64_t span, cspan;
    unsigned char *one = calloc(a->nthreads + 1, 1);
    if (!prof || !one) {
        free(prof);
        free(one);
        tt_art_issues_free(&iss);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (main_i < a->nthreads)
        one[main_i] = 1;
    int rc = tt_art_profile(prof, &span, &cspan, a, one, &r->ro, r->ctx->stats, r->file, &err)
                 ? cli_err(&err)
                 : 0;
    size_t n = 0;
    uint32_t *ix = rc ? NULL : prof_order(r, prof, &n);
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    if (!rc && !ix) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    if (!rc && r->format == F_TEXT) {
        summary_text(r, main_i);
        if (n)
            prof_header();
        for (size_t i = 0; i < n && i < 20; i++)
            prof_row(r, &w, &a->methods[ix[i]], &prof[ix[i]], 0);
        cli_out_printf("slow messages (>= %lld ms): %zu\n", (long long)r->threshold_ms,
                       iss.len);
        for (size_t i = 0; i < iss.len; i++) {
            const tt_art_issue *is = &TT_VEC_AT(&iss, tt_art_issue, i);
            tt_art_issue_blame(&bname, &bpath, a, is, wm);
            cli_out_puts("  at ");
            put_time(is->ts_us, 1, r->us);
            cli_out_puts(", duration ");
            put_time(is->dur_us, 1, r->us);
            cli_out_printf(": %s\n    path: %s\n", bname.len ? bname.data : "(no key)",
                           bpath.len ? bpath.data : "-");
        }
    } else if (!rc) {
        tt_jsonw_obj_begin(&w);
        tt_jsonw_key(&w, "format");
        tt_jsonw_str(&w, a->kind == TT_ART_STREAMING ? "streaming" : "legacy");
        tt_jsonw_key(&w, "version");
        tt_jsonw_int(&w, a->version);
        tt_jsonw_key(&w, "clock");
        tt_jsonw_str(&w, tt_art_clock_name(a->clock));
        tt_jsonw_key(&w, "mode");
        tt_jsonw_str(&w, r->sampled ? "sampled" : "instrumented");
        tt_jsonw_key(&w, "start_us");
        tt_jsonw_uint(&w, a->start_us);
        tt_jsonw_key(&w, "records");
        tt_jsonw_uint(&w, a->records);
        tt_jsonw_key(&w, "overflow");
        tt_jsonw_bool(&w, a->overflow);
        tt_jsonw_key(&w, "threads");
        tt_jsonw_arr_begin(&w);
        for (size_t i = 0; i < a->nthreads; i++) {
            tt_jsonw_obj_begin(&w);
            tt_jsonw_key(&w, "id");
            tt_jsonw_uint(&w, a->threads[i].id);
            tt_jsonw_key(&w, "name");
            tt_jsonw_str(&w, a->threads[i].name);
            tt_jsonw_key(&w, "events");
            tt_jsonw_uint(&w, a->threads[i].nev);
            tt_jsonw_obj_end(&w);
        }
        tt_jsonw_arr_end(&w);
        tt_jsonw_key(&w, "slow_messages");
        tt_jsonw_arr_begin(&w);
        for (size_t i = 0; i < iss.len; i++) {
            const tt_art_issue *is = &TT_VEC_AT(&iss, tt_art_issue, i);
            tt_art_issue_blame(&bname, &bpath, a, is, wm);
            tt_jsonw_obj_begin(&w);
            tt_jsonw_key(&w, "ts_us");
            tt_jsonw_int(&w, is->ts_us);
            tt_jsonw_key(&w, "dur_us");
            tt_jsonw_int(&w, is->dur_us);
            tt_jsonw_key(&w, "stack_key");
            if (bname.len)
                tt_jsonw_str(&w, bname.data);
            else
                tt_jsonw_null(&w);
            tt_jsonw_key(&w, "stack_key_path");
            if (bpath.len)
                tt_jsonw_str(&w, bpath.data);
            else
                tt_jsonw_null(&w);
            tt_jsonw_obj_end(&w);
        }
        tt_jsonw_arr_end(&w);
        tt_jsonw_obj_end(&w);
        tt_buf_puts(&w.buf, "\n");
        json_flush(&w);
    }
    tt_jsonw_free(&w);
    free(ix);
    free(prof);
    free(one);
    tt_art_issues_free(&iss);
    tt_buf_free(&bname);
    tt_buf_free(&bpath);
    return rc;
}

/* Reads and parses FILE; the "not an ART method trace" errors name what it is instead. */
static int load(art_run *r, const char *path)
{
    tt_error err = {0};
    tt_input *in;
    char *data = NULL;
    size_t n = 0;
    if (cli_input_path(path))
        return CLI_BAD;
    if (cli_input_open(&in, path, 0, &err))
        return cli_err(&err);
    int rc = tt_input_slurp(in, &data, &n, &err);
    tt_input_close(in);
    if (rc)
        return cli_err(&err);
    tt_art_opts o = {r->aclock == 1 ? TT_ART_CLOCK_CPU : TT_ART_CLOCK_WALL};
    rc = tt_art_parse(&r->a, (const unsigned char *)data, n, path, &o, r->ctx->stats, &err);
    free(data);
    if (rc)
        return cli_err(&err);
    if (r->retrace) { /* art-trace.md 3.2: before canonical keys are used */
        tt_proguard *pg = NULL;
        size_t amb = 0;
        if ((rc = cli_load_proguard(&pg, r->retrace, NULL)))
            return rc;
        rc = tt_art_retrace(r->a, pg, &amb);
        tt_proguard_free(pg);
        if (rc) {
            cli_errorf("out of memory");
            return CLI_BAD;
        }
        if (amb)
            tt_stats_add(r->ctx->stats, "art_retrace_ambiguous", path, TT_SEV_WARN, (int64_t)amb,
                         "obfuscated methods with several original names: the first was used");
    }
    size_t coll = 0;
    if (r->normalize && tt_art_normalize_synthetic(r->a, &coll)) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (coll)
        tt_stats_add(r->ctx->stats, "art_synthetic_collision", path, TT_SEV_WARN, (int64_t)coll,
                     "--normalize-synthetic gave distinct methods the same name");
    return 0;
}

static int check_clock(art_run *r)
{
    tt_art *a = r->a;
    if (r->clock == C_CPU && !tt_art_has_cpu(a)) {
        cli_errorf("%s: --clock cpu: the trace has no thread-CPU clock (clock=%s)", r->file,
                   tt_art_clock_name(a->clock));
        return CLI_BAD;
    }
    if (r->clock == C_WALL && !tt_art_has_wall(a) && r->clock_given) {
        cli_errorf("%s: --clock wall: the trace has no wall clock (clock=%s)", r->file,
                   tt_art_clock_name(a->clock));
        return CLI_BAD;
    }
    r->use_cpu = r->clock == C_CPU || !tt_art_has_wall(a) ||
                 (r->clock == C_FIRST && a->clock != TT_ART_CLOCK_WALL);
    return 0;
}

int cmd_art(int argc, char **argv, cli_ctx *ctx)
{
    art_run r = {0};
    r.threshold_ms = 700;
    r.ctx = ctx;
    int rc = parse_args(argc, argv, &r);
    if (rc < 0)
        return cli_usage(usage, 0);
    if (rc)
        return rc;
    if (optind >= argc) {
        cli_errorf("art: missing FILE");
        return cli_usage(usage, 1);
    }
    if (optind + 1 < argc) {
        cli_errorf("art: expected one FILE, got %d", argc - optind);
        return cli_usage(usage, 1);
    }
    if (r.dump + r.profile + r.tree > 1) {
        cli_errorf("art: --dump, --profile and --tree are exclusive");
        return CLI_BAD;
    }
    if (r.max_nodes && !r.tree) {
        cli_errorf("art: --max-nodes applies to --tree");
        return CLI_BAD;
    }
    if (r.format == F_JSONL && !r.dump && !r.profile && !r.tree) {
        cli_errorf("art: --format jsonl needs --dump, --profile or --tree");
        return CLI_BAD;
    }
    if (r.format == F_CSV && !r.dump && !r.profile && !r.tree) {
        cli_errorf("art: --format csv needs --dump, --profile or --tree");
        return CLI_BAD;
    }
    r.file = argv[optind];
    if ((rc = load(&r, r.file)) || (rc = check_clock(&r)) ||
        (rc = select_threads(&r, !r.dump && !r.profile && !r.tree))) {
        tt_art_free(r.a);
        free(r.use);
        return rc;
    }
    r.ro.close_at = r.close_at;
    if (r.mode == TT_ART_MODE_AUTO)
        r.sampled = tt_art_detect_sampled(r.a, &r.interval_us);
    else if (r.mode == TT_ART_MODE_SAMPLED)
        r.sampled = 1 + 0 * tt_art_detect_sampled(r.a, &r.interval_us);
    r.ro.sampled = r.sampled;
    overflow_warning(&r);
    rc = r.dump ? do_dump(&r) : r.profile ? do_profile(&r) : r.tree ? do_tree(&r) : do_summary(&r);
    cli_stats_report(ctx->stats);
    tt_art_free(r.a);
    free(r.use);
    return rc;
}
