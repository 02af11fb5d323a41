/* Grouping Matrix issues by the name of the blamed (stack-key) method, with cost totals and
 * per-detail and per-scene counts (tracetool report --group; method-beat.md 4.7, 8.2). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli_group.h"

/* One --group bucket: reports whose stack key names the same method. */
typedef struct count_entry {
    char *name;
    uint64_t n;
} count_entry;

typedef struct group {
    char *method;
    uint64_t count;
    int64_t total_cost, max_cost; /* total_cost saturates (sticky) at INT64_MIN/MAX */
    int saturated;                /* total_cost stopped at a bound: avg from cost_sum */
    double cost_sum;              /* the costs summed in double, as SQLite's AVG(cost_ms) */
    tt_vec key_ids; /* int32_t, distinct */
    tt_vec details; /* count_entry */
    tt_vec scenes;  /* count_entry */
} group;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

struct cli_groups {
    tt_vec groups; /* group */
    uint32_t *slots; /* open addressing: index + 1 into groups, 0 = empty */
    size_t nslots;
};

cli_groups *cli_groups_new(void)
{
    cli_groups *g = calloc(1, sizeof *g);
    if (g)
        tt_vec_init(&g->groups, sizeof(group));
    return g;
}

static int grow_slots(cli_groups *c)
{
    size_t n = c->nslots ? c->nslots * 2 : 64;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < c->groups.len; i++) {
        size_t h = (size_t)hash_str(TT_VEC_AT(&c->groups, group, i).method) & (n - 1);
        while (s[h])
            h = (h + 1) & (n - 1);
        s[h] = (uint32_t)i + 1;
    }
    free(c->slots);
    c->slots = s;
    c->nslots = n;
    return 0;
}

static group *group_get(cli_groups *c, const char *method)
{
    if ((c->groups.len + 1) * 2 > c->nslots && grow_slots(c))
        return NULL;
    size_t h = (size_t)hash_str(method) & (c->nslots - 1);
    while (c->slots[h]) {
        group *g = &TT_VEC_AT(&c->groups, group, c->slots[h] - 1);
        if (!strcmp(g->method, method))
            return g;
        h = (h + 1) & (c->nslots - 1);
    }
    group *g = tt_vec_push(&c->groups, NULL);
    if (!g || !(g->method = strdup(method)))
        return NULL;
    tt_vec_init(&g->key_ids, sizeof(int32_t));
    tt_vec_init(&g->details, sizeof(count_entry));
    tt_vec_init(&g->scenes, sizeof(count_entry));
    c->slots[h] = (uint32_t)c->groups.len;
    return g;
}

/* Few distinct scenes or details per method: a linear list is enough. */
static int count_add(tt_vec *v, const char *name)
{
    for (size_t i = 0; i < v->len; i++)
        if (!strcmp(TT_VEC_AT(v, count_entry, i).name, name)) {
            TT_VEC_AT(v, count_entry, i).n++;
            return 0;
        }
    count_entry e = {strdup(name), 1};
    if (!e.name || !tt_vec_push(v, &e)) {
        free(e.name);
        return -1;
    }
    return 0;
}

int cli_groups_add(cli_groups *c, const char *method, int32_t key_id, int64_t cost_ms,
                   const char *detail, const char *scene)
{
    group *g = group_get(c, method);
    if (!g)
        return -1;
    g->count++;
    g->cost_sum += (double)cost_ms;
    int newly = 0;
    if (!g->saturated && tt_add_i64(&g->total_cost, g->total_cost, cost_ms)) {
        /* hostile costs: no wrapped sum (signed overflow is UB); the bound it passed */
        g->total_cost = cost_ms > 0 ? INT64_MAX : INT64_MIN;
        g->saturated = newly = 1;
    }
    if (g->count == 1 || cost_ms > g->max_cost)
        g->max_cost = cost_ms;
    int seen = 0;
    for (size_t i = 0; i < g->key_ids.len; i++)
        seen |= TT_VEC_AT(&g->key_ids, int32_t, i) == key_id;
    if (!seen && !tt_vec_push(&g->key_ids, &key_id))
        return -1;
    if (count_add(&g->details, detail) || count_add(&g->scenes, scene ? scene : "(none)"))
        return -1;
    return newly;
}

/* The mean cost: exact total over count, or the double sum once the total saturated. */
static double avg_cost(const group *g)
{
    return (g->saturated ? g->cost_sum : (double)g->total_cost) / (double)g->count;
}

static int cmp_count(const void *a, const void *b)
{
    const count_entry *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_group(const void *a, const void *b)
{
    const group *x = a, *y = b;
    if (x->total_cost != y->total_cost)
        return x->total_cost > y->total_cost ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->method, y->method);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void text_counts(tt_buf *b, const char *label, const tt_vec *v)
{
    tt_buf_printf(b, "%40s%s:", "", label);
    for (size_t i = 0; i < v->len; i++) {
        const count_entry *e = &TT_VEC_AT(v, count_entry, i);
        tt_buf_printf(b, "%s %s %llu", i ? "," : "", e->name, (unsigned long long)e->n);
    }
    tt_buf_puts(b, "\n");
}

static void json_counts(tt_jsonw *w, const char *key, const char *field, const tt_vec *v)
{
    tt_jsonw_key(w, key);
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; i < v->len; i++) {
        const count_entry *e = &TT_VEC_AT(v, count_entry, i);
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, field);
        tt_jsonw_str(w, e->name);
        tt_jsonw_key(w, "count");
        tt_jsonw_uint(w, e->n);
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_arr_end(w);
}

static void json_group(tt_jsonw *w, const group *g)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "method");
    tt_jsonw_str(w, g->method);
    tt_jsonw_key(w, "key_ids");
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; i < g->key_ids.len; i++)
        tt_jsonw_int(w, TT_VEC_AT(&g->key_ids, int32_t, i));
    tt_jsonw_arr_end(w);
    tt_jsonw_key(w, "count");
    tt_jsonw_uint(w, g->count);
    tt_jsonw_key(w, "total_cost_ms");
    tt_jsonw_int(w, g->total_cost);
    tt_jsonw_key(w, "avg_cost_ms");
    /* always with a fraction (report(1)), so a loader sees one type: 11230.0, not 11230 */
    char avg[64];
    int n = tt_json_format_double(avg, sizeof avg - 2, avg_cost(g));
    if (n > 0 && (size_t)n < sizeof avg - 2 && strspn(avg, "-0123456789") == (size_t)n)
        memcpy(avg + n, ".0", 3);
    tt_jsonw_raw(w, avg, strlen(avg));
    tt_jsonw_key(w, "max_cost_ms");
    tt_jsonw_int(w, g->max_cost);
    json_counts(w, "details", "detail", &g->details);
    json_counts(w, "scenes", "scene", &g->scenes);
    tt_jsonw_obj_end(w);
}

void cli_groups_print(cli_groups *c, int format, uint64_t reports, uint64_t without_key)
{
    size_t n = c->groups.len;
    group *gs = c->groups.data;
    if (n)
        qsort(gs, n, sizeof *gs, cmp_group);
    for (size_t i = 0; i < n; i++) {
        qsort(gs[i].key_ids.data, gs[i].key_ids.len, sizeof(int32_t), cmp_i32);
        if (gs[i].details.len)
            qsort(gs[i].details.data, gs[i].details.len, sizeof(count_entry), cmp_count);
        if (gs[i].scenes.len)
            qsort(gs[i].scenes.data, gs[i].scenes.len, sizeof(count_entry), cmp_count);
    }
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    if (format == 0) {
        tt_buf_printf(&w.buf, "%llu report%s, %zu stack-key method%s, %llu without a stack key\n\n",
                      (unsigned long long)reports, reports == 1 ? "" : "s", n,
                      n == 1 ? "" : "s", (unsigned long long)without_key);
        tt_buf_printf(&w.buf, "%7s %10s %9s %9s  %s\n", "count", "total_ms", "avg_ms", "max_ms",
                      "method");
        for (size_t i = 0; i < n; i++) {
            char avg[340]; /* %.1f of a double up to 1.8e308 */
            snprintf(avg, sizeof avg, "%.1f", avg_cost(&gs[i]));
            tt_buf_printf(&w.buf, "%7llu %10lld %9s %9lld  %s\n",
                          (unsigned long long)gs[i].count, (long long)gs[i].total_cost, avg,
                          (long long)gs[i].max_cost, gs[i].method);
            text_counts(&w.buf, "details", &gs[i].details);
            text_counts(&w.buf, "scenes", &gs[i].scenes);
        }
    } else if (format == 2) {
        for (size_t i = 0; i < n; i++) {
            json_group(&w, &gs[i]);
            tt_buf_puts(&w.buf, "\n");
        }
    } else {
        tt_jsonw_obj_begin(&w);
        tt_jsonw_key(&w, "reports");
        tt_jsonw_uint(&w, reports);
        tt_jsonw_key(&w, "without_stack_key");
        tt_jsonw_uint(&w, without_key);
        tt_jsonw_key(&w, "groups");
        tt_jsonw_arr_begin(&w);
        for (size_t i = 0; i < n; i++)
            json_group(&w, &gs[i]);
        tt_jsonw_arr_end(&w);
        tt_jsonw_obj_end(&w);
        tt_buf_puts(&w.buf, "\n");
    }
    cli_out_buf(&w.buf);
    tt_jsonw_free(&w);
}

static void free_counts(tt_vec *v)
{
    for (size_t i = 0; i < v->len; i++)
        free(TT_VEC_AT(v, count_entry, i).name);
    tt_vec_free(v);
}

void cli_groups_free(cli_groups *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->groups.len; i++) {
        group *g = &TT_VEC_AT(&c->groups, group, i);
        free(g->method);
        tt_vec_free(&g->key_ids);
        free_counts(&g->details);
        free_counts(&g->scenes);
    }
    tt_vec_free(&c->groups);
    free(c->slots);
    free(c);
}
