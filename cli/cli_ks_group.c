/* report --group on iOS dumps (spec/ios.md 9.4): dumps grouped by (dump class, top app
 * frame key) with types, builds, OS versions, times, an example and the common path. */
#include "cli_ks_group.h"
#include "cli_csv.h"

#include <stdlib.h>
#include <string.h>

typedef struct cstr {
    char *s;
    uint64_t n;
} cstr;

/* Counted strings in first-seen order, found through a hash table (a path per dump is
 * common: a scan per dump would be quadratic). Sorted only once every dump is in. */
typedef struct clist {
    tt_vec v;         /* cstr */
    uint32_t *slots;  /* index + 1 into v, 0: empty; open addressing */
    size_t nslots;
} clist;

typedef struct group {
    char *key, *cls, *example;
    uint64_t count;
    int have_time;
    int64_t first_ms, last_ms;
    clist types, uuids, oses, paths;
} group;

struct cli_ks_groups {
    tt_vec groups; /* group */
    tt_intern *ids; /* "class\0key" -> index into groups */
    tt_buf k;
};

cli_ks_groups *cli_ks_groups_new(void)
{
    cli_ks_groups *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    tt_vec_init(&g->groups, sizeof(group));
    if (!(g->ids = tt_intern_new())) {
        free(g);
        return NULL;
    }
    return g;
}

static void cstr_free(clist *l)
{
    for (size_t i = 0; i < l->v.len; i++)
        free(TT_VEC_AT(&l->v, cstr, i).s);
    tt_vec_free(&l->v);
    free(l->slots);
}

void cli_ks_groups_free(cli_ks_groups *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->groups.len; i++) {
        group *x = &TT_VEC_AT(&g->groups, group, i);
        free(x->key);
        free(x->cls);
        free(x->example);
        cstr_free(&x->types);
        cstr_free(&x->uuids);
        cstr_free(&x->oses);
        cstr_free(&x->paths);
    }
    tt_vec_free(&g->groups);
    tt_intern_free(g->ids);
    tt_buf_free(&g->k);
    free(g);
}

static uint64_t str_hash(const char *s) /* FNV-1a */
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

static int rehash(clist *l, size_t n)
{
    uint32_t *t = calloc(n, sizeof *t);
    if (!t)
        return -1;
    for (size_t k = 0; k < l->v.len; k++) {
        size_t i = str_hash(TT_VEC_AT(&l->v, cstr, k).s) & (n - 1);
        while (t[i])
            i = (i + 1) & (n - 1);
        t[i] = (uint32_t)k + 1;
    }
    free(l->slots);
    l->slots = t;
    l->nslots = n;
    return 0;
}

static int count_str(clist *l, const char *s)
{
    if (!s)
        return 0;
    if ((l->v.len + 1) * 2 > l->nslots && rehash(l, l->nslots ? l->nslots * 2 : 8))
        return -1;
    size_t i = str_hash(s) & (l->nslots - 1);
    for (; l->slots[i]; i = (i + 1) & (l->nslots - 1)) {
        cstr *c = &TT_VEC_AT(&l->v, cstr, l->slots[i] - 1);
        if (!strcmp(c->s, s)) {
            c->n++;
            return 0;
        }
    }
    cstr c = {strdup(s), 1};
    if (!c.s || !tt_vec_push(&l->v, &c)) {
        free(c.s);
        return -1;
    }
    l->slots[i] = (uint32_t)l->v.len;
    return 0;
}

int cli_ks_groups_add(cli_ks_groups *g, const tt_ks_report *rep, const cli_ks_key *k)
{
    const char *key = k->key[0] ? k->key : "(no stack)";
    const char *cls = cli_ks_class(rep);
    group *x = NULL;
    g->k.len = 0;
    tt_buf_puts(&g->k, cls);
    tt_buf_put(&g->k, "", 1);
    tt_buf_puts(&g->k, key);
    uint32_t id;
    if (!g->k.data || tt_intern_get(g->ids, g->k.data, g->k.len, &id))
        return -1;
    if (id < g->groups.len)
        x = &TT_VEC_AT(&g->groups, group, id);
    if (!x) {
        if (!(x = tt_vec_push(&g->groups, NULL)))
            return -1;
        x->types = x->uuids = x->oses = x->paths = (clist){{0}, NULL, 0};
        tt_vec_init(&x->types.v, sizeof(cstr));
        tt_vec_init(&x->uuids.v, sizeof(cstr));
        tt_vec_init(&x->oses.v, sizeof(cstr));
        tt_vec_init(&x->paths.v, sizeof(cstr));
        x->key = strdup(key);
        x->cls = strdup(cls);
        x->example = strdup(rep->id ? rep->id : "");
        if (!x->key || !x->cls || !x->example)
            return -1;
    }
    x->count++;
    if (rep->has_time) {
        if (!x->have_time || rep->unix_ms < x->first_ms)
            x->first_ms = rep->unix_ms;
        if (!x->have_time || rep->unix_ms > x->last_ms)
            x->last_ms = rep->unix_ms;
        x->have_time = 1;
    }
    const char *type = rep->has_dump_type ? rep->dump_name
                       : rep->error_type  ? rep->error_type
                                          : "crash";
    char os[128];
    snprintf(os, sizeof os, "%s%s%s", rep->system_version ? rep->system_version : "",
             rep->os_version ? " " : "", rep->os_version ? rep->os_version : "");
    if (count_str(&x->types, type) || count_str(&x->uuids, rep->app_uuid[0] ? rep->app_uuid : NULL) ||
        count_str(&x->oses, os[0] ? os : NULL) ||
        count_str(&x->paths, k->path.len ? k->path.data : NULL))
        return -1;
    return 0;
}

static int cmp_group(const void *a, const void *b)
{
    const group *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    int r = strcmp(x->key, y->key);
    return r ? r : strcmp(x->cls, y->cls);
}

static int cmp_cstr(const void *a, const void *b)
{
    const cstr *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return strcmp(x->s, y->s);
}

/* Joins up to max strings (most common first) with sep. */
static void joined(tt_buf *b, tt_vec *v, size_t max, const char *sep)
{
    if (v->len > 1)
        qsort(v->data, v->len, sizeof(cstr), cmp_cstr);
    for (size_t i = 0; i < v->len && i < max; i++) {
        if (i)
            tt_buf_puts(b, sep);
        tt_buf_puts(b, TT_VEC_AT(v, cstr, i).s);
    }
}

static void json_list(tt_jsonw *w, tt_vec *v, size_t max)
{
    if (v->len > 1)
        qsort(v->data, v->len, sizeof(cstr), cmp_cstr);
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; i < v->len && i < max; i++)
        tt_jsonw_str(w, TT_VEC_AT(v, cstr, i).s);
    tt_jsonw_arr_end(w);
}

static const char *top_path(tt_vec *v)
{
    if (!v->len)
        return "";
    qsort(v->data, v->len, sizeof(cstr), cmp_cstr);
    return TT_VEC_AT(v, cstr, 0).s;
}

static void group_json(tt_jsonw *w, group *x, uint64_t dumps)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "key");
    tt_jsonw_str(w, x->key);
    tt_jsonw_key(w, "class");
    tt_jsonw_str(w, x->cls);
    tt_jsonw_key(w, "dump_types");
    json_list(w, &x->types.v, SIZE_MAX);
    tt_jsonw_key(w, "count");
    tt_jsonw_uint(w, x->count);
    tt_jsonw_key(w, "share");
    tt_jsonw_double(w, dumps ? (double)x->count / (double)dumps : 0);
    tt_jsonw_key(w, "builds");
    tt_jsonw_uint(w, x->uuids.v.len);
    tt_jsonw_key(w, "os_versions");
    json_list(w, &x->oses.v, 3);
    tt_jsonw_key(w, "first_unix_ms");
    if (x->have_time)
        tt_jsonw_int(w, x->first_ms);
    else
        tt_jsonw_null(w);
    tt_jsonw_key(w, "last_unix_ms");
    if (x->have_time)
        tt_jsonw_int(w, x->last_ms);
    else
        tt_jsonw_null(w);
    tt_jsonw_key(w, "example");
    tt_jsonw_str(w, x->example);
    tt_jsonw_key(w, "path");
    tt_jsonw_str(w, top_path(&x->paths.v));
    tt_jsonw_obj_end(w);
}

void cli_ks_groups_print(cli_ks_groups *g, int format, uint64_t dumps)
{
    if (g->groups.len > 1)
        qsort(g->groups.data, g->groups.len, sizeof(group), cmp_group);
    tt_buf b = {0};
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    if (format == CLI_KS_JSON) {
        tt_jsonw_obj_begin(&w);
        tt_jsonw_key(&w, "dumps");
        tt_jsonw_uint(&w, dumps);
        tt_jsonw_key(&w, "groups");
        tt_jsonw_arr_begin(&w);
    } else if (format == CLI_KS_CSV) {
        tt_buf_puts(&b, "key,class,dump_types,count,share,builds,os_versions,first_unix_ms,"
                        "last_unix_ms,example,path\n");
    } else if (format == CLI_KS_TEXT) {
        tt_buf_printf(&b, "%llu dumps in %zu groups (by top app frame)\n\n",
                      (unsigned long long)dumps, g->groups.len);
        tt_buf_puts(&b, "count   share  builds  class  key\n");
    }
    for (size_t i = 0; i < g->groups.len; i++) {
        group *x = &TT_VEC_AT(&g->groups, group, i);
        double share = dumps ? 100.0 * (double)x->count / (double)dumps : 0;
        if (format == CLI_KS_JSON) {
            group_json(&w, x, dumps);
        } else if (format == CLI_KS_JSONL) {
            tt_jsonw one;
            tt_jsonw_init(&one, 0);
            group_json(&one, x, dumps);
            tt_buf_put(&b, one.buf.data, one.buf.len);
            tt_buf_puts(&b, "\n");
            tt_jsonw_free(&one);
        } else if (format == CLI_KS_CSV) {
            tt_buf t = {0};
            cli_csv_str(&b, x->key);
            tt_buf_puts(&b, ",");
            cli_csv_str(&b, x->cls);
            tt_buf_puts(&b, ",");
            joined(&t, &x->types.v, SIZE_MAX, ";");
            tt_buf_put(&t, "", 1);
            cli_csv_str(&b, t.data);
            tt_buf_printf(&b, ",%llu,%.4f,%zu,", (unsigned long long)x->count, share / 100,
                          x->uuids.v.len);
            t.len = 0;
            joined(&t, &x->oses.v, 3, ";");
            tt_buf_put(&t, "", 1);
            cli_csv_str(&b, t.data);
            if (x->have_time)
                tt_buf_printf(&b, ",%lld,%lld,", (long long)x->first_ms, (long long)x->last_ms);
            else
                tt_buf_puts(&b, ",,,");
            cli_csv_str(&b, x->example);
            tt_buf_puts(&b, ",");
            cli_csv_str(&b, top_path(&x->paths.v));
            tt_buf_puts(&b, "\n");
            tt_buf_free(&t);
        } else {
            tt_buf_printf(&b, "%5llu  %5.1f%%  %6zu  %s  %s\n", (unsigned long long)x->count,
                          share, x->uuids.v.len, x->cls, x->key);
            tt_buf_puts(&b, "        types: ");
            joined(&b, &x->types.v, SIZE_MAX, ", ");
            if (x->oses.v.len) {
                tt_buf_puts(&b, "  os: ");
                joined(&b, &x->oses.v, 3, ", ");
            }
            tt_buf_printf(&b, "  example: %s\n", x->example[0] ? x->example : "(no id)");
            if (x->paths.v.len)
                tt_buf_printf(&b, "        path: %s\n", top_path(&x->paths.v));
        }
    }
    if (format == CLI_KS_JSON) {
        tt_jsonw_arr_end(&w);
        tt_jsonw_obj_end(&w);
        tt_buf_put(&b, w.buf.data, w.buf.len);
        tt_buf_puts(&b, "\n");
    }
    cli_out_buf(&b);
    tt_buf_free(&b);
    tt_jsonw_free(&w);
}
