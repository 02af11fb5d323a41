/* methodMapping.txt and ignoreMethodMapping.txt (method-beat.md 4.1-4.3), display
 * names (4.2). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

struct tt_mapping {
    tt_arena *arena;
    tt_vec methods;     /* tt_method */
    uint32_t *idx;      /* id -> methods index + 1, 0 = unknown */
    size_t idx_cap;
    uint32_t max_id;    /* largest id except the dispatch */
    tt_method dispatch; /* built-in fallback for 1048574 */
    uint32_t dispatch_ix; /* methods index + 1 of a 1048574 line; kept out of idx, which
                             would otherwise span 4 MB for one id */
    const char *last_cls; /* class name of the previous line (shared, 4.1 sorts by id) */
    size_t last_cls_len;
    char **ign;         /* open-addressing set of "cls name" */
    size_t ign_cap, ign_n;
    tt_vec ign_lines;   /* tt_method (id 0): every ignoreMethodMapping.txt line, in order */
    size_t load_start;  /* methods index of the first line of the tt_mapping_load running */
    int order_matters;  /* tt_mapping_order_matters */
    uint32_t load_no;   /* tt_mapping_load calls so far */
    uint32_t *cmp;      /* per methods index: the load that compared its first line for it */
    size_t cmp_cap;
};

tt_mapping *tt_mapping_new(void)
{
    tt_mapping *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->arena = tt_arena_new();
    if (!m->arena) {
        free(m);
        return NULL;
    }
    tt_vec_init(&m->methods, sizeof(tt_method));
    tt_vec_init(&m->ign_lines, sizeof(tt_method));
    m->dispatch = (tt_method){TT_BEAT_DISPATCH, 1, "android.os.Handler", "dispatchMessage",
                              "(Landroid.os.Message;)V", 0, 0};
    return m;
}

void tt_mapping_free(tt_mapping *m)
{
    if (!m)
        return;
    tt_arena_free(m->arena);
    tt_vec_free(&m->methods);
    tt_vec_free(&m->ign_lines);
    free(m->idx);
    free(m->ign);
    free(m->cmp);
    free(m);
}

/* methods index + 1 of id, 0 when unknown */
static uint32_t slot(const tt_mapping *m, uint32_t id)
{
    if (id == TT_BEAT_DISPATCH)
        return m->dispatch_ix;
    return id < m->idx_cap ? m->idx[id] : 0;
}

const tt_method *tt_mapping_get(const tt_mapping *m, uint32_t id)
{
    if (!m)
        return id == TT_BEAT_DISPATCH ? NULL : NULL;
    uint32_t ix = slot(m, id);
    if (ix)
        return &TT_VEC_AT(&m->methods, tt_method, ix - 1);
    if (id == TT_BEAT_DISPATCH)
        return &m->dispatch;
    return NULL;
}

uint32_t tt_mapping_max_id(const tt_mapping *m) { return m ? m->max_id : 0; }
size_t tt_mapping_count(const tt_mapping *m) { return m ? m->methods.len : 0; }
size_t tt_mapping_ignored_count(const tt_mapping *m) { return m ? m->ign_n : 0; }
size_t tt_mapping_ignored_lines(const tt_mapping *m) { return m ? m->ign_lines.len : 0; }

const tt_method *tt_mapping_ignored_at(const tt_mapping *m, size_t i)
{
    return &TT_VEC_AT(&m->ign_lines, tt_method, i);
}

static int valid_desc(const char *d)
{
    const char *p = d;
    if (*p++ != '(')
        return 0;
    int in_params = 1;
    for (;;) {
        if (in_params && *p == ')') {
            in_params = 0;
            p++;
            continue;
        }
        while (*p == '[')
            p++;
        switch (*p) {
        case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z':
            p++;
            break;
        case 'V':
            if (in_params)
                return 0;
            p++;
            break;
        case 'L': {
            const char *e = strchr(p, ';');
            if (!e || e == p + 1)
                return 0;
            p = e + 1;
            break;
        }
        default:
            return 0;
        }
        if (!in_params)
            return *p == 0;
    }
}

int tt__desc_valid(const char *d) { return valid_desc(d); }

/* Splits "class method[ desc]" (4.1 rule 3). */
static int split_rest(const char *r, size_t n, const char **cls, size_t *cl, const char **name,
                      size_t *nl, const char **desc, size_t *dl)
{
    const char *sp = memchr(r, ' ', n);
    if (!sp || sp == r)
        return -1;
    *cls = r;
    *cl = (size_t)(sp - r);
    const char *rest = sp + 1;
    size_t rl = n - *cl - 1;
    const char *ls = NULL;
    for (size_t i = rl; i-- > 0;)
        if (rest[i] == ' ') {
            ls = rest + i;
            break;
        }
    *desc = NULL;
    *dl = 0;
    if (ls && ls[1] == '(') {
        *desc = ls + 1;
        *dl = rl - (size_t)(ls + 1 - rest);
        rl = (size_t)(ls - rest);
    } else if (!ls && rl && rest[0] == '(') {
        return -1;
    }
    if (rl == 0)
        return -1;
    *name = rest;
    *nl = rl;
    return 0;
}

static int put_idx(tt_mapping *m, uint32_t id, uint32_t v)
{
    if (id == TT_BEAT_DISPATCH) {
        m->dispatch_ix = v;
        return 0;
    }
    if (id >= m->idx_cap) {
        size_t cap = m->idx_cap ? m->idx_cap : 1024;
        while (cap <= id)
            cap *= 2;
        uint32_t *p = realloc(m->idx, cap * sizeof *p);
        if (!p)
            return TT_ENOMEM;
        memset(p + m->idx_cap, 0, (cap - m->idx_cap) * sizeof *p);
        m->idx = p;
        m->idx_cap = cap;
    }
    m->idx[id] = v;
    return 0;
}

int tt_mapping_looks_like(const char *p, size_t n)
{
    /* first non-comment line: digits ',' digits ',' text ' ' text */
    size_t i = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && p[e] != '\n')
            e++;
        const char *l = p + i;
        size_t ll = e - i;
        tt__trim(&l, &ll);
        i = e + 1;
        if (ll == 0 || l[0] == '#')
            continue;
        size_t k = 0;
        while (k < ll && l[k] >= '0' && l[k] <= '9')
            k++;
        if (k == 0 || k >= ll || l[k] != ',')
            return 0;
        size_t j = k + 1;
        while (j < ll && l[j] >= '0' && l[j] <= '9')
            j++;
        if (j == k + 1 || j >= ll || l[j] != ',')
            return 0;
        return memchr(l + j, ' ', ll - j) != NULL;
    }
    return 0;
}

int tt_mapping_looks_ignore(const char *p, size_t n)
{
    if (n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) {
        p += 3;
        n -= 3;
    }
    return n >= 15 && !memcmp(p, "ignore methods:", 15);
}

/* 1 when the line's fields are those of me (a line for the same id). */
static int same_line(const tt_method *me, uint64_t flags, const char *cls, size_t cl,
                     const char *name, size_t nl, const char *desc, size_t dl)
{
    return me->flags == flags && strlen(me->cls) == cl && !memcmp(me->cls, cls, cl) &&
           strlen(me->name) == nl && !memcmp(me->name, name, nl) && !me->desc == !desc &&
           (!desc || (strlen(me->desc) == dl && !memcmp(me->desc, desc, dl)));
}

int tt_mapping_order_matters(const tt_mapping *m) { return m->order_matters; }

/* 1 for the first line of this load that gives the id of methods[k] (an earlier load's):
 * only that line would be kept were the loads in the other order; later ones of the same
 * file are its own duplicates. Out of memory: 1 (the order is kept in the key). */
static int first_of_load(tt_mapping *m, size_t k)
{
    if (k >= m->cmp_cap) {
        size_t cap = m->methods.len > 2 * m->cmp_cap ? m->methods.len : 2 * m->cmp_cap;
        uint32_t *p = realloc(m->cmp, cap * sizeof *p);
        if (!p)
            return 1;
        memset(p + m->cmp_cap, 0, (cap - m->cmp_cap) * sizeof *p);
        m->cmp = p;
        m->cmp_cap = cap;
    }
    if (m->cmp[k] == m->load_no)
        return 0;
    m->cmp[k] = m->load_no;
    return 1;
}

int tt_mapping_load(tt_mapping *m, tt_input *in, tt_stats *stats, tt_error *err)
{
    const char *fn = tt_input_name(in);
    m->load_start = m->methods.len;
    m->load_no++;
    for (;;) {
        const char *line;
        size_t len;
        uint64_t ln;
        int rc = tt_input_line(in, &line, &len, &ln, err);
        if (rc == TT_DONE)
            break;
        if (rc)
            return rc;
        if (ln == 1 && len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3)) {
            line += 3;
            len -= 3;
        }
        /* a trailing \r and trailing blanks (4.1 rule 1; blanks as harmless as the \r): left,
         * they would hide the descriptor, the last space-separated token (rule 3) */
        while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
            len--;
        const char *t = line;
        size_t tl = len;
        tt__trim(&t, &tl);
        if (tl == 0 || t[0] == '#')
            continue;
        const char *c1 = memchr(line, ',', len);
        const char *c2 = c1 ? memchr(c1 + 1, ',', len - (size_t)(c1 + 1 - line)) : NULL;
        char snip[200];
        if (!c2 || !c1)
            tt__snippet(snip, sizeof snip, line, len);
        if (!c2 && tt__proguard_class_line(t, tl))
            return tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                                "this looks like a ProGuard/R8 mapping.txt (\"%s\"), not a "
                                "methodMapping.txt; pass it with --proguard (beat, report, "
                                "analyze)", snip);
        if (!c2)
            return tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                                "expected \"id,accessFlags,class method [descriptor]\", got "
                                "\"%s\"", snip);
        uint64_t id;
        int bad_id = tt__parse_u64(line, (size_t)(c1 - line), &id) || id < 1 ||
                     id > TT_BEAT_DISPATCH;
        uint64_t flags;
        int bad_flags = !bad_id && (tt__parse_u64(c1 + 1, (size_t)(c2 - c1 - 1), &flags) ||
                                    flags > UINT32_MAX);
        const char *rest = c2 + 1;
        size_t rl = len - (size_t)(rest - line);
        const char *cls, *name, *desc;
        size_t cl, nl, dl;
        int bad_rest = !bad_id && !bad_flags &&
                       split_rest(rest, rl, &cls, &cl, &name, &nl, &desc, &dl);
        if (bad_id || bad_flags || bad_rest)
            tt__snippet(snip, sizeof snip, line, len);
        if (bad_id)
            return tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                                "expected a method id in 1..1048574, got \"%s\"", snip);
        if (bad_flags)
            return tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                                "expected decimal access flags, got \"%s\"", snip);
        if (bad_rest)
            return tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                                "expected \"class method [descriptor]\" after the flags, got "
                                "\"%s\"", snip);
        uint32_t pix = slot(m, (uint32_t)id);
        const tt_method *prev = pix ? &TT_VEC_AT(&m->methods, tt_method, pix - 1) : NULL;
        if (prev) {
            /* an id an earlier file gave another line: that file's line is used, so the
             * order of the files decides (the import key keeps it, tracetool-analyze(1)) */
            if ((size_t)(pix - 1) < m->load_start && first_of_load(m, pix - 1) &&
                !same_line(prev, flags, cls, cl, name, nl, desc, dl))
                m->order_matters = 1;
            char ex[200];
            snprintf(ex, sizeof ex, "%s:%llu: duplicate id %llu (first on line %u)", fn,
                     (unsigned long long)ln, (unsigned long long)id, prev->line);
            tt_stats_add(stats, "mapping_duplicate_id", fn, TT_SEV_WARN, 1, ex);
            continue;
        }
        tt_method me = {(uint32_t)id, (uint32_t)flags, NULL, NULL, NULL, (uint32_t)ln, 0};
        /* lines of one class are consecutive: share the class name with the line before */
        if (m->last_cls && m->last_cls_len == cl && !memcmp(m->last_cls, cls, cl)) {
            me.cls = m->last_cls;
        } else {
            me.cls = tt_arena_strndup(m->arena, cls, cl);
            m->last_cls = me.cls;
            m->last_cls_len = cl;
        }
        me.name = tt_arena_strndup(m->arena, name, nl);
        if (desc) {
            me.desc = tt_arena_strndup(m->arena, desc, dl);
            if (me.desc)
                me.bad_desc = !valid_desc(me.desc);
            if (me.bad_desc) { /* 4.2: kept verbatim and flagged, not an error */
                char ex[200];
                snprintf(ex, sizeof ex, "%s:%llu: malformed descriptor \"%.80s\" kept verbatim",
                         fn, (unsigned long long)ln, me.desc);
                tt_stats_add(stats, "mapping_bad_descriptor", fn, TT_SEV_WARN, 1, ex);
            }
        }
        if (!me.cls || !me.name || (desc && !me.desc) || !tt_vec_push(&m->methods, &me) ||
            put_idx(m, (uint32_t)id, (uint32_t)m->methods.len))
            return tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
        if (id != TT_BEAT_DISPATCH && id > m->max_id)
            m->max_id = (uint32_t)id;
    }
    return 0;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

static int ign_add(tt_mapping *m, char *key)
{
    if ((m->ign_n + 1) * 2 > m->ign_cap) {
        size_t cap = m->ign_cap ? m->ign_cap * 2 : 1024;
        char **t = calloc(cap, sizeof *t);
        if (!t)
            return TT_ENOMEM;
        for (size_t i = 0; i < m->ign_cap; i++) {
            if (!m->ign[i])
                continue;
            size_t j = hash_str(m->ign[i]) & (cap - 1);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = m->ign[i];
        }
        free(m->ign);
        m->ign = t;
        m->ign_cap = cap;
    }
    size_t j = hash_str(key) & (m->ign_cap - 1);
    while (m->ign[j]) {
        if (!strcmp(m->ign[j], key))
            return 0;
        j = (j + 1) & (m->ign_cap - 1);
    }
    m->ign[j] = key;
    m->ign_n++;
    return 0;
}

int tt_mapping_is_ignored(const tt_mapping *m, const char *cls, const char *name)
{
    if (!m || !m->ign_n)
        return 0;
    size_t cl = strlen(cls), nl = strlen(name);
    char stackbuf[512];
    char *key = cl + nl + 2 <= sizeof stackbuf ? stackbuf : malloc(cl + nl + 2);
    if (!key)
        return 0;
    memcpy(key, cls, cl);
    key[cl] = ' ';
    memcpy(key + cl + 1, name, nl + 1);
    size_t j = hash_str(key) & (m->ign_cap - 1);
    int found = 0;
    while (m->ign[j]) {
        if (!strcmp(m->ign[j], key)) {
            found = 1;
            break;
        }
        j = (j + 1) & (m->ign_cap - 1);
    }
    if (key != stackbuf)
        free(key);
    return found;
}

int tt_mapping_load_ignore(tt_mapping *m, tt_input *in, tt_error *err)
{
    const char *fn = tt_input_name(in);
    for (;;) {
        const char *line;
        size_t len;
        uint64_t ln;
        int rc = tt_input_line(in, &line, &len, &ln, err);
        if (rc == TT_DONE)
            break;
        if (rc)
            return rc;
        if (ln == 1) {
            if (!tt_mapping_looks_ignore(line, len))
                return tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                                    "expected \"ignore methods:\" as the first line");
            continue;
        }
        tt__trim(&line, &len);
        if (len == 0 || line[0] == '#')
            continue;
        const char *cls, *name, *desc;
        size_t cl, nl, dl;
        if (split_rest(line, len, &cls, &cl, &name, &nl, &desc, &dl)) {
            char snip[200];
            tt__snippet(snip, sizeof snip, line, len);
            return tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                                "expected \"class method [descriptor]\", got \"%s\"", snip);
        }
        char *key = tt_arena_alloc(m->arena, cl + nl + 2);
        if (!key)
            return tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
        memcpy(key, cls, cl);
        key[cl] = ' ';
        memcpy(key + cl + 1, name, nl);
        key[cl + nl + 1] = 0;
        /* the line as the file gives it (the key's bytes are shared) */
        tt_method me = {0, 0, tt_arena_strndup(m->arena, cls, cl), key + cl + 1,
                        desc ? tt_arena_strndup(m->arena, desc, dl) : NULL, (uint32_t)ln, 0};
        if (me.desc)
            me.bad_desc = !valid_desc(me.desc);
        if (ign_add(m, key) || !me.cls || (desc && !me.desc) || !tt_vec_push(&m->ign_lines, &me))
            return tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
    }
    return 0;
}

/* One descriptor type at *p in Java source form. */
static int put_type(tt_buf *b, const char **pp)
{
    const char *p = *pp;
    int dims = 0;
    while (*p == '[') {
        dims++;
        p++;
    }
    const char *s = NULL;
    switch (*p) {
    case 'B': s = "byte"; break;
    case 'C': s = "char"; break;
    case 'D': s = "double"; break;
    case 'F': s = "float"; break;
    case 'I': s = "int"; break;
    case 'J': s = "long"; break;
    case 'S': s = "short"; break;
    case 'Z': s = "boolean"; break;
    case 'V': s = "void"; break;
    case 'L': {
        const char *e = strchr(p, ';');
        if (!e)
            return -1;
        for (const char *q = p + 1; q < e; q++)
            if (tt_buf_put(b, *q == '/' ? "." : q, 1))
                return TT_ENOMEM;
        p = e;
        break;
    }
    default:
        return -1;
    }
    if (s && tt_buf_puts(b, s))
        return TT_ENOMEM;
    p++;
    for (int i = 0; i < dims; i++)
        if (tt_buf_puts(b, "[]"))
            return TT_ENOMEM;
    *pp = p;
    return 0;
}

int tt_method_format(tt_buf *b, const tt_method *m, int style)
{
    if (style == TT_NAME_RAW) {
        tt_buf_printf(b, "%s %s", m->cls, m->name);
        if (m->desc)
            tt_buf_printf(b, " %s", m->desc);
        return 0;
    }
    if (!m->desc || m->bad_desc) {
        tt_buf_printf(b, "%s.%s", m->cls, m->name);
        if (m->desc)
            tt_buf_puts(b, m->desc);
        return 0;
    }
    if (style == TT_NAME_FULL) {
        const char *r = strchr(m->desc, ')') + 1;
        put_type(b, &r);
        tt_buf_puts(b, " ");
    }
    tt_buf_printf(b, "%s.%s(", m->cls, m->name);
    const char *p = m->desc + 1;
    int first = 1;
    while (*p && *p != ')') {
        if (!first)
            tt_buf_puts(b, ",");
        first = 0;
        if (put_type(b, &p))
            break;
    }
    return tt_buf_puts(b, ")");
}

int tt_mapping_format_id(tt_buf *b, const tt_mapping *m, uint32_t id, int style)
{
    const tt_method *me = tt_mapping_get(m, id);
    if (!me && id == TT_BEAT_DISPATCH) {
        static const tt_method d = {TT_BEAT_DISPATCH, 1, "android.os.Handler",
                                    "dispatchMessage", "(Landroid.os.Message;)V", 0, 0};
        me = &d;
    }
    if (!me)
        return tt_buf_printf(b, "<unknown id %u>", id); /* 4.2 */
    return tt_method_format(b, me, style);
}

int tt_mapping_retrace(tt_mapping *m, const tt_proguard *p, size_t *ambiguous)
{
    size_t amb = 0;
    for (size_t i = 0; i < m->methods.len; i++)
        amb += (size_t)tt_proguard_retrace_method(p, m->arena, &TT_VEC_AT(&m->methods, tt_method, i));
    if (ambiguous)
        *ambiguous = amb;
    return 0;
}

const tt_method *tt_mapping_at(const tt_mapping *m, size_t i)
{
    return m && i < m->methods.len ? &TT_VEC_AT(&m->methods, tt_method, i) : NULL;
}
