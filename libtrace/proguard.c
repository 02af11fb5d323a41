/* ProGuard / R8 mapping.txt reading and retrace (method-beat.md 4.6). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct pg_method {
    const char *ret, *cls, *name, *args; /* cls NULL = the enclosing class */
    int32_t a, b, c, d;                  /* -1 = absent */
    const char *obf;
} pg_method;

struct obf_ix {
    const char *obf;
    size_t idx;
};

typedef struct pg_class {
    const char *orig, *obf, *source;
    size_t first, n; /* range in methods */
} pg_class;

struct tt_proguard {
    tt_arena *arena;
    tt_vec classes; /* pg_class */
    tt_vec methods; /* pg_method */
    struct obf_ix *by_obf; /* classes sorted by obfuscated name */
    /* Per class, positions [first, first + n) of these arrays: the class's method lines
     * sorted by (obfuscated name, args, return type, file order), so lookups are binary
     * searches and big classes with one reused obfuscated name stay linear overall. */
    const pg_method **order;
    const pg_method **name_first; /* at the start of an obf-name run: its first unqualified
                                      line in file order, or NULL */
    const char **sig_name;         /* at the start of an (obf, args, ret) run: the chosen
                                      original name (first unqualified), or NULL */
    unsigned char *sig_amb;        /* ... and whether other unqualified names differ */
};

void tt_proguard_free(tt_proguard *p)
{
    if (!p)
        return;
    tt_arena_free(p->arena);
    tt_vec_free(&p->classes);
    tt_vec_free(&p->methods);
    free(p->by_obf);
    free(p->order);
    free(p->name_first);
    free(p->sig_name);
    free(p->sig_amb);
    free(p);
}

static int cmp_obf(const void *x, const void *y)
{
    const struct obf_ix *a = x, *b = y;
    int r = strcmp(a->obf, b->obf);
    if (r)
        return r;
    return a->idx < b->idx ? -1 : 1;
}

static const pg_class *find_class(const tt_proguard *p, const char *obf)
{
    size_t lo = 0, hi = p->classes.len;
    const pg_class *c = p->classes.data;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int r = strcmp(p->by_obf[mid].obf, obf);
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < p->classes.len && !strcmp(p->by_obf[lo].obf, obf))
        return &c[p->by_obf[lo].idx];
    return NULL;
}

const char *tt_proguard_class(const tt_proguard *p, const char *obf)
{
    const pg_class *c = p ? find_class(p, obf) : NULL;
    return c ? c->orig : NULL;
}

static int cmp_sig(const pg_method *a, const pg_method *b)
{
    int r = strcmp(a->obf, b->obf);
    if (!r)
        r = strcmp(a->args, b->args);
    if (!r)
        r = strcmp(a->ret, b->ret);
    return r;
}

static int cmp_order(const void *x, const void *y)
{
    const pg_method *a = *(const pg_method *const *)x, *b = *(const pg_method *const *)y;
    int r = cmp_sig(a, b);
    if (r)
        return r;
    return a < b ? -1 : a > b; /* file order: the vector is contiguous */
}

/* Builds order, name_first, sig_name and sig_amb (see struct tt_proguard). */
static int index_methods(tt_proguard *p)
{
    size_t n = p->methods.len ? p->methods.len : 1;
    p->order = malloc(n * sizeof *p->order);
    p->name_first = calloc(n, sizeof *p->name_first);
    p->sig_name = calloc(n, sizeof *p->sig_name);
    p->sig_amb = calloc(n, 1);
    if (!p->order || !p->name_first || !p->sig_name || !p->sig_amb)
        return TT_ENOMEM;
    const pg_method *pm = p->methods.data;
    for (size_t i = 0; i < p->methods.len; i++)
        p->order[i] = &pm[i];
    for (size_t ci = 0; ci < p->classes.len; ci++) {
        const pg_class *c = &TT_VEC_AT(&p->classes, pg_class, ci);
        const pg_method **o = p->order + c->first;
        qsort(o, c->n, sizeof *o, cmp_order);
        size_t name_run = 0, sig_run = 0;
        for (size_t k = 0; k < c->n; k++) {
            if (k && strcmp(o[k]->obf, o[name_run]->obf))
                name_run = k;
            if (k && cmp_sig(o[k], o[sig_run]))
                sig_run = k;
            if (o[k]->cls)
                continue; /* inlined from another class: not a method of this one */
            const pg_method **nf = &p->name_first[c->first + name_run];
            if (!*nf || o[k] < *nf)
                *nf = o[k];
            const char **sn = &p->sig_name[c->first + sig_run];
            if (!*sn)
                *sn = o[k]->name; /* runs are in file order */
            else if (strcmp(*sn, o[k]->name))
                p->sig_amb[c->first + sig_run] = 1;
        }
    }
    return 0;
}

/* First position in the class's order whose line is >= key (by obf, then args and ret
 * when full is set). */
static size_t lower_bound(const tt_proguard *p, const pg_class *c, const pg_method *key, int full)
{
    size_t lo = c->first, hi = c->first + c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = full ? cmp_sig(p->order[mid], key) : strcmp(p->order[mid]->obf, key->obf);
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int parse_num(const char **s, const char *e, int32_t *v)
{
    const char *p = *s;
    int64_t x = 0;
    if (p >= e || *p < '0' || *p > '9')
        return -1;
    while (p < e && *p >= '0' && *p <= '9') {
        x = x * 10 + (*p - '0');
        if (x > INT32_MAX)
            return -1;
        p++;
    }
    *v = (int32_t)x;
    *s = p;
    return 0;
}

/* "[A:B:]ret [cls.]name(args)[:C[:D]] -> obf" */
static int parse_method(tt_proguard *p, const char *s, size_t n, pg_method *m)
{
    const char *e = s + n;
    const char *arrow = NULL;
    for (const char *q = s; q + 4 <= e; q++)
        if (!memcmp(q, " -> ", 4))
            arrow = q;
    if (!arrow)
        return -1;
    m->a = m->b = m->c = m->d = -1;
    const char *q = s;
    if (q < arrow && *q >= '0' && *q <= '9') {
        if (parse_num(&q, arrow, &m->a) || q >= arrow || *q++ != ':' ||
            parse_num(&q, arrow, &m->b) || q >= arrow || *q++ != ':')
            return -1;
    }
    const char *sp = memchr(q, ' ', (size_t)(arrow - q));
    if (!sp)
        return -1;
    m->ret = tt_arena_strndup(p->arena, q, (size_t)(sp - q));
    const char *nm = sp + 1;
    const char *lp = memchr(nm, '(', (size_t)(arrow - nm));
    if (!lp)
        return -1; /* field line */
    const char *rp = memchr(lp, ')', (size_t)(arrow - lp));
    if (!rp)
        return -1;
    const char *dot = NULL;
    for (const char *d = nm; d < lp; d++)
        if (*d == '.')
            dot = d;
    m->cls = dot ? tt_arena_strndup(p->arena, nm, (size_t)(dot - nm)) : NULL;
    const char *mn = dot ? dot + 1 : nm;
    m->name = tt_arena_strndup(p->arena, mn, (size_t)(lp - mn));
    m->args = tt_arena_strndup(p->arena, lp + 1, (size_t)(rp - lp - 1));
    q = rp + 1;
    if (q < arrow && *q == ':') {
        q++;
        if (parse_num(&q, arrow, &m->c))
            return -1;
        if (q < arrow && *q == ':') {
            q++;
            if (parse_num(&q, arrow, &m->d))
                return -1;
        }
    }
    const char *ob = arrow + 4;
    size_t ol = (size_t)(e - ob);
    m->obf = tt_arena_strndup(p->arena, ob, ol);
    return (m->ret && m->name && m->args && m->obf) ? 0 : -2;
}

int tt__proguard_class_line(const char *l, size_t n)
{
    const char *arrow = n > 4 ? tt__memmem(l, n, " -> ", 4) : NULL;
    return arrow && l[n - 1] == ':' && !memchr(l, '(', n) &&
           !memchr(l, ' ', (size_t)(arrow - l));
}

int tt_proguard_load(tt_proguard **out, tt_input *in, tt_error *err)
{
    const char *fn = tt_input_name(in);
    tt_proguard *p = calloc(1, sizeof *p);
    if (!p || !(p->arena = tt_arena_new())) {
        free(p);
        return tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
    }
    tt_vec_init(&p->classes, sizeof(pg_class));
    tt_vec_init(&p->methods, sizeof(pg_method));
    pg_class *cur = NULL;
    int rc = 0;
    for (;;) {
        const char *line;
        size_t len;
        uint64_t ln;
        rc = tt_input_line(in, &line, &len, &ln, err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc)
            break;
        while (len && line[len - 1] == '\r')
            len--;
        const char *t = line;
        size_t tl = len;
        tt__trim(&t, &tl);
        if (tl == 0)
            continue;
        if (t[0] == '#') {
            const char *sf = "\"id\":\"sourceFile\"";
            if (cur && tl > 20 && tt__memmem(t, tl, sf, strlen(sf))) {
                const char *k = tt__memmem(t, tl, "\"fileName\":\"", 12);
                if (k) {
                    k += 12;
                    const char *q = memchr(k, '"', (size_t)(t + tl - k));
                    if (q)
                        cur->source = tt_arena_strndup(p->arena, k, (size_t)(q - k));
                }
            }
            continue;
        }
        int indented = line[0] == ' ' || line[0] == '\t';
        if (!indented) {
            const char *arrow = tl > 4 ? tt__memmem(t, tl, " -> ", 4) : NULL;
            if (!arrow || t[tl - 1] != ':') {
                char snip[200];
                tt__snippet(snip, sizeof snip, t, tl);
                rc = tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                                  "expected a class line \"original -> obfuscated:\", got "
                                  "\"%s\"", snip);
                break;
            }
            pg_class c = {0};
            c.orig = tt_arena_strndup(p->arena, t, (size_t)(arrow - t));
            c.obf = tt_arena_strndup(p->arena, arrow + 4, (size_t)(t + tl - 1 - arrow - 4));
            c.first = p->methods.len;
            if (!c.orig || !c.obf || !(cur = tt_vec_push(&p->classes, &c))) {
                rc = tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
                break;
            }
            continue;
        }
        if (!cur) {
            rc = tt_error_set(err, TT_EFORMAT, fn, TT_LOC_LINE, ln,
                              "member line before any class line");
            break;
        }
        pg_method m;
        int pr = parse_method(p, t, tl, &m);
        if (pr == -2) {
            rc = tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
            break;
        }
        if (pr)
            continue; /* field lines and unknown member forms are not needed for retrace */
        if (!tt_vec_push(&p->methods, &m)) {
            rc = tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
            break;
        }
        cur->n = p->methods.len - cur->first;
    }
    if (!rc) {
        p->by_obf = malloc((p->classes.len ? p->classes.len : 1) * sizeof *p->by_obf);
        if (!p->by_obf) {
            rc = tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
        } else {
            for (size_t i = 0; i < p->classes.len; i++)
                p->by_obf[i] = (struct obf_ix){TT_VEC_AT(&p->classes, pg_class, i).obf, i};
            qsort(p->by_obf, p->classes.len, sizeof *p->by_obf, cmp_obf);
            if (index_methods(p))
                rc = tt_error_set(err, TT_ENOMEM, fn, 0, 0, "out of memory");
        }
    }
    if (rc) {
        tt_proguard_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* Java source type of one descriptor type, class names mapped through p. */
static int desc_type(tt_buf *b, const tt_proguard *p, const char **pp)
{
    const char *s = *pp;
    int dims = 0;
    while (*s == '[') {
        dims++;
        s++;
    }
    static const char *const prim[] = {"Bbyte", "Cchar", "Ddouble", "Ffloat", "Iint",
                                       "Jlong", "Sshort", "Zboolean", "Vvoid"};
    int ok = 0;
    for (size_t i = 0; i < sizeof prim / sizeof prim[0]; i++)
        if (*s == prim[i][0]) {
            tt_buf_puts(b, prim[i] + 1);
            s++;
            ok = 1;
            break;
        }
    if (!ok) {
        if (*s != 'L')
            return -1;
        const char *e = strchr(s, ';');
        if (!e)
            return -1;
        char tmp[1024];
        size_t l = (size_t)(e - s - 1);
        if (l >= sizeof tmp)
            return -1;
        for (size_t i = 0; i < l; i++)
            tmp[i] = s[1 + i] == '/' ? '.' : s[1 + i];
        tmp[l] = 0;
        const char *orig = tt_proguard_class(p, tmp);
        tt_buf_puts(b, orig ? orig : tmp);
        s = e + 1;
    }
    for (int i = 0; i < dims; i++)
        tt_buf_puts(b, "[]");
    *pp = s;
    return 0;
}

/* Builds "args" and "ret" Java-form strings from a descriptor, mapped; also the mapped
 * descriptor itself into md. */
static int map_desc(const tt_proguard *p, const char *desc, tt_buf *args, tt_buf *ret,
                    tt_buf *md)
{
    const char *s = desc;
    if (*s++ != '(')
        return -1;
    int first = 1;
    while (*s && *s != ')') {
        if (!first)
            tt_buf_puts(args, ",");
        first = 0;
        if (desc_type(args, p, &s))
            return -1;
    }
    if (*s != ')')
        return -1;
    s++;
    if (desc_type(ret, p, &s) || *s)
        return -1;
    /* mapped descriptor: replace class names inside L...; */
    for (const char *q = desc; *q;) {
        if (*q == 'L') {
            const char *e = strchr(q, ';');
            char tmp[1024];
            size_t l = (size_t)(e - q - 1);
            if (l >= sizeof tmp)
                return -1;
            memcpy(tmp, q + 1, l);
            tmp[l] = 0;
            const char *orig = tt_proguard_class(p, tmp);
            tt_buf_printf(md, "L%s;", orig ? orig : tmp);
            q = e + 1;
        } else {
            tt_buf_put(md, q, 1);
            q++;
        }
    }
    return 0;
}

/* Re-points *dst at a copy of s in the mapping's arena: the mapping outlives p. */
static void set_name(tt_arena *a, const char **dst, const char *s)
{
    char *c = tt_arena_strndup(a, s, strlen(s));
    if (c)
        *dst = c;
}

int tt_proguard_retrace_method(const tt_proguard *p, tt_arena *a, tt_method *m)
{
    const pg_class *c = find_class(p, m->cls);
    const char *obf_name = m->name;
    if (c)
        set_name(a, &m->cls, c->orig);
    if (!m->desc || m->bad_desc) {
        /* no descriptor: by name alone, first in file order */
        if (c) {
            pg_method key = {.obf = obf_name};
            size_t k = lower_bound(p, c, &key, 0);
            if (k < c->first + c->n && !strcmp(p->order[k]->obf, obf_name) && p->name_first[k])
                set_name(a, &m->name, p->name_first[k]->name);
        }
        return 0;
    }
    tt_buf args = {0}, ret = {0}, md = {0};
    int amb = 0;
    if (map_desc(p, m->desc, &args, &ret, &md) == 0) {
        char *nd = tt_arena_strndup(a, md.data, md.len);
        if (nd)
            m->desc = nd;
        if (c) {
            pg_method key = {.obf = m->name, .args = args.data ? args.data : "",
                             .ret = ret.data ? ret.data : ""};
            size_t k = lower_bound(p, c, &key, 1);
            if (k < c->first + c->n && !cmp_sig(p->order[k], &key) && p->sig_name[k]) {
                amb = p->sig_amb[k];
                set_name(a, &m->name, p->sig_name[k]);
            }
        }
    }
    tt_buf_free(&args);
    tt_buf_free(&ret);
    tt_buf_free(&md);
    return amb;
}

/* A candidate line of a frame retrace; keep marks the first of each distinct name. */
struct cand {
    const pg_method *m;
    int keep;
};

static int cmp_cand_file(const void *x, const void *y)
{
    const struct cand *a = x, *b = y;
    return a->m < b->m ? -1 : a->m > b->m;
}

static int cmp_cand_name_only(const struct cand *a, const struct cand *b)
{
    int r = strcmp(a->m->name, b->m->name);
    if (r)
        return r;
    return (a->m->cls != NULL) - (b->m->cls != NULL);
}

static int cmp_cand_name(const void *x, const void *y)
{
    int r = cmp_cand_name_only(x, y);
    return r ? r : cmp_cand_file(x, y);
}

/* The file name a retraced frame shows (4.6): the class's sourceFile metadata, else the
 * frame's own file name (it names the original source unless the build renamed it to
 * "SourceFile"), else "Unknown Source". A native frame keeps "Native Method", what
 * StackTraceElement prints instead of a file (and ProGuard's retrace keeps). lp: the
 * frame's '(' or NULL; e: its end. */
static const char *frame_source(const pg_class *c, const char *lp, const char *e, char *buf,
                                size_t cap)
{
    if (lp && e - lp >= 15 && !memcmp(lp, "(Native Method)", 15))
        return "Native Method";
    if (c->source)
        return c->source;
    if (lp) {
        const char *f = lp + 1, *q = f;
        while (q < e && *q != ':' && *q != ')')
            q++;
        size_t fl = (size_t)(q - f);
        if (fl && fl < cap && !(fl == 10 && !memcmp(f, "SourceFile", 10)) &&
            !(fl == 14 && !memcmp(f, "Unknown Source", 14)) && !memchr(f, '(', fl)) {
            memcpy(buf, f, fl);
            buf[fl] = 0;
            return buf;
        }
    }
    return "Unknown Source";
}

int tt_proguard_retrace_frame(tt_buf *b, const tt_proguard *p, const char *frame, size_t n)
{
    /* "[at ]cls.method(File:line)" */
    const char *s = frame;
    size_t l = n;
    tt__trim(&s, &l);
    size_t pre = 0;
    if (l > 3 && !memcmp(s, "at ", 3))
        pre = 3;
    const char *lp = memchr(s + pre, '(', l - pre);
    const char *end = lp ? lp : s + l;
    const char *dot = NULL;
    for (const char *q = s + pre; q < end; q++)
        if (*q == '.')
            dot = q;
    if (!dot)
        return tt_buf_put(b, frame, n);
    char cls[1024], meth[512];
    size_t cl = (size_t)(dot - s - pre), ml = (size_t)(end - dot - 1);
    if (cl >= sizeof cls || ml >= sizeof meth)
        return tt_buf_put(b, frame, n);
    memcpy(cls, s + pre, cl);
    cls[cl] = 0;
    memcpy(meth, dot + 1, ml);
    meth[ml] = 0;
    int32_t line = -1;
    if (lp) {
        const char *colon = memchr(lp, ':', (size_t)(s + l - lp));
        if (colon) {
            const char *q = colon + 1;
            if (parse_num(&q, s + l, &line))
                line = -1;
        }
    }
    const pg_class *c = find_class(p, cls);
    if (!c)
        return tt_buf_put(b, frame, n);
    char file[256];
    const char *src = frame_source(c, lp, s + l, file, sizeof file);
    /* the lines with this obfuscated name, in file order */
    pg_method key = {.obf = meth};
    size_t lo = lower_bound(p, c, &key, 0), hi = lo;
    while (hi < c->first + c->n && !strcmp(p->order[hi]->obf, meth))
        hi++;
    size_t nc = hi - lo;
    struct cand *cd = malloc((nc ? nc : 1) * sizeof *cd);
    if (!cd)
        return TT_ENOMEM;
    for (size_t i = 0; i < nc; i++)
        cd[i] = (struct cand){p->order[lo + i], 0};
    qsort(cd, nc, sizeof *cd, cmp_cand_file);
    /* the ranges holding the line: one group per range (consecutive lines of one range are
     * one position with inlined frames) */
    int groups = 0, emitted = 0;
    int32_t ga = -1, gb = -1;
    for (size_t i = 0; i < nc && line >= 0; i++) {
        const pg_method *pm = cd[i].m;
        if (pm->a < 0 || line < pm->a || line > pm->b)
            continue;
        if (!groups || pm->a != ga || pm->b != gb)
            groups++;
        ga = pm->a;
        gb = pm->b;
    }
    if (groups == 1) {
        for (size_t i = 0; i < nc; i++) {
            const pg_method *pm = cd[i].m;
            if (pm->a != ga || pm->b != gb)
                continue;
            int32_t ol;
            if (pm->c < 0)
                ol = line;
            else if (pm->d >= 0 && pm->d - pm->c == pm->b - pm->a)
                ol = pm->c + (line - pm->a);
            else
                ol = pm->c;
            if (emitted)
                tt_buf_puts(b, "\n");
            tt_buf_printf(b, "%s%s.%s(%s:%d)", pre ? "at " : "", pm->cls ? pm->cls : c->orig,
                          pm->name, src, (int)ol);
            emitted++;
        }
    } else if (groups > 1) {
        /* several ranges hold the line: the candidates are the innermost line of each */
        size_t k = 0;
        for (size_t i = 0; i < nc; i++) {
            const pg_method *pm = cd[i].m, *prev = i ? cd[i - 1].m : NULL;
            if (pm->a < 0 || line < pm->a || line > pm->b)
                continue;
            if (prev && prev->a == pm->a && prev->b == pm->b)
                continue;
            cd[k++] = cd[i];
        }
        nc = k;
    }
    if (!emitted) {
        /* ambiguous: every distinct original name once, in file order */
        qsort(cd, nc, sizeof *cd, cmp_cand_name);
        for (size_t i = 0; i < nc; i++)
            cd[i].keep = i == 0 || cmp_cand_name_only(&cd[i - 1], &cd[i]);
        qsort(cd, nc, sizeof *cd, cmp_cand_file);
        tt_buf_printf(b, "%s%s.", pre ? "at " : "", c->orig);
        int k = 0;
        for (size_t i = 0; i < nc; i++) {
            if (!cd[i].keep)
                continue;
            if (k++)
                tt_buf_puts(b, " | ");
            tt_buf_puts(b, cd[i].m->name);
        }
        if (!k)
            tt_buf_puts(b, meth);
        tt_buf_printf(b, "(%s)", src);
        emitted = k > 1;
    } else {
        emitted = 0;
    }
    free(cd);
    return emitted; /* 1: ambiguous */
}
