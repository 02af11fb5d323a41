/* The text header of an ART method trace (spec/art-trace.md 2.2, 3.2): version, keys,
 * *threads and *methods lines (also the streaming packets and summary), the method names,
 * and their retracing through a ProGuard mapping. */
#include "art_parse_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES (64 * 1024)
#define METHODS_MAX (1u << 24)
#define THREADS_MAX 65536

/* Thread index for a record's id, created on first use. */
int tt_art__thread_get(art_parse *s, uint32_t id, uint32_t *idx)
{
    if (s->tmap[id]) {
        *idx = s->tmap[id] - 1;
        return 0;
    }
    tt_art_thread *t = tt_vec_push(&s->threads, NULL);
    if (!t)
        return tt_art__nomem(s);
    t->id = t->tid = id;
    t->tid_full = 0;
    t->name = NULL;
    s->tmap[id] = (uint32_t)s->threads.len;
    *idx = (uint32_t)s->threads.len - 1;
    return 0;
}

int tt_art__thread_name(art_parse *s, uint32_t id, uint32_t listed, const char *name, size_t n,
                        uint64_t off)
{
    uint32_t idx;
    if (s->threads.len >= THREADS_MAX && !s->tmap[id])
        return tt_error_set(s->err, TT_ELIMIT, s->file, TT_LOC_OFFSET, off,
                            "more than %d threads", THREADS_MAX);
    if (tt_art__thread_get(s, id, &idx))
        return TT_ENOMEM;
    tt_art_thread *t = &TT_VEC_AT(&s->threads, tt_art_thread, idx);
    if (t->name && (strlen(t->name) != n || memcmp(t->name, name, n)))
        /* a later definition that differs wins with a warning (2.2, 2.4) */
        tt_art__warn(s, "art_duplicate_thread", TT_SEV_WARN, off,
                     "thread %u named twice (\"%s\", then \"%.*s\"); the later name wins", id,
                     t->name, (int)(n > 200 ? 200 : n), name);
    if (!(t->name = tt_art__dup(s, name, n)))
        return tt_art__nomem(s);
    t->listed = 1;
    t->tid = listed;
    t->tid_full = listed != id;
    return 0;
}

/* Canonical key and raw name of m (3.2), copied into ar. */
static int method_names(tt_arena *ar, tt_art_method *m)
{
    tt_buf b = {0};
    int rc = 0;
    if (!m->cls[0]) {
        rc = tt_buf_puts(&b, m->name);
    } else if (m->sig[0] && tt__desc_valid(m->sig)) {
        tt_method tm = {0};
        tm.cls = m->cls;
        tm.name = m->name;
        tm.desc = m->sig;
        m->bad_desc = 0;
        rc = tt_method_format(&b, &tm, TT_NAME_JAVA);
    } else {
        m->bad_desc = m->sig[0] != 0;
        rc = tt_buf_printf(&b, "%s.%s%s", m->cls, m->name, m->sig);
    }
    if (rc || !(m->key = tt_arena_strndup(ar, b.data ? b.data : "", b.len))) {
        tt_buf_free(&b);
        return TT_ENOMEM;
    }
    b.len = 0;
    if (!m->cls[0])
        rc = tt_buf_puts(&b, m->name);
    else
        rc = tt_buf_printf(&b, "%s.%s%s%s", m->cls, m->name, m->sig[0] ? " " : "", m->sig);
    if (rc || !(m->raw = tt_arena_strndup(ar, b.data ? b.data : "", b.len))) {
        tt_buf_free(&b);
        return TT_ENOMEM;
    }
    tt_buf_free(&b);
    return 0;
}

/* A descriptor with its class names' separators replaced (from -> to); borrowed from ar. */
static const char *desc_sep(tt_arena *ar, const char *d, char from, char to)
{
    char *c = tt_arena_strndup(ar, d, strlen(d));
    for (char *q = c; q && *q; q++)
        if (*q == from)
            *q = to;
    return c;
}

int tt_art_retrace(tt_art *a, const tt_proguard *p, size_t *ambiguous)
{
    size_t amb = 0;
    for (size_t i = 0; i < a->nmethods; i++) {
        tt_art_method *m = &a->methods[i];
        if (m->unknown || !m->cls[0])
            continue;
        tt_method tm = {0};
        tm.cls = m->cls;
        tm.name = m->name;
        /* mapping.txt names classes with dots, dex descriptors with slashes */
        tm.desc = m->sig[0] ? desc_sep(a->arena, m->sig, '/', '.') : NULL;
        tm.bad_desc = m->bad_desc;
        if (m->sig[0] && !tm.desc)
            return TT_ENOMEM;
        amb += (size_t)tt_proguard_retrace_method(p, a->arena, &tm);
        m->cls = tm.cls;
        m->name = tm.name;
        if (tm.desc && !(m->sig = desc_sep(a->arena, tm.desc, '.', '/')))
            return TT_ENOMEM;
        if (method_names(a->arena, m))
            return TT_ENOMEM;
    }
    if (ambiguous)
        *ambiguous = amb;
    return 0;
}

int tt_art__method_add(art_parse *s, tt_art_method *m, uint64_t off)
{
    uint32_t idx;
    if (method_names(s->a->arena, m))
        return tt_art__nomem(s);
    if (m->bad_desc) /* kept verbatim and flagged (3.2) */
        tt_art__warn(s, "art_bad_descriptor", TT_SEV_WARN, off,
                     "method %s.%s: malformed descriptor \"%s\" kept as written", m->cls,
                     m->name, m->sig);
    if (tt__map_get(&s->mids, m->id, &idx)) {
        tt_art_method *old = &TT_VEC_AT(&s->methods, tt_art_method, idx);
        if (strcmp(old->raw, m->raw))
            tt_art__warn(s, "art_duplicate_method", TT_SEV_WARN, off,
                         "method id %#x defined twice; the later definition wins", m->id);
        *old = *m;
        return 0;
    }
    if (s->methods.len >= METHODS_MAX)
        return tt_error_set(s->err, TT_ELIMIT, s->file, TT_LOC_OFFSET, off,
                            "more than %u methods", METHODS_MAX);
    if (!tt_vec_push(&s->methods, m) || tt__map_put(&s->mids, m->id, (uint32_t)s->methods.len - 1))
        return tt_art__nomem(s);
    return 0;
}

/* One *methods line (2.2): fields split at tabs only. */
int tt_art__method_line(art_parse *s, const char *l, size_t n, uint64_t off)
{
    const char *f[6];
    size_t fl[6];
    int nf = 0;
    size_t b = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || l[i] == '\t') {
            if (nf == 6)
                return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, off,
                                    "method line with more than 6 tab-separated fields");
            f[nf] = l + b;
            fl[nf++] = i - b;
            b = i + 1;
        }
    }
    char idbuf[32];
    char *end;
    if (nf < 2 || !fl[0] || fl[0] >= sizeof idbuf)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, off,
                            "expected a method line \"id<TAB>class<TAB>name...\", found \"%.*s\"",
                            (int)(n < 60 ? n : 60), l);
    memcpy(idbuf, f[0], fl[0]);
    idbuf[fl[0]] = 0;
    unsigned long long id = strtoull(idbuf, &end, 0);
    if (*end || idbuf[0] == '-' || id > 0xFFFFFFFFull)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, off,
                            "method id \"%s\" is not a 32-bit number", idbuf);
    if (id & 3) { /* records carry the id with the action in its two low bits (2.2) */
        tt_art__warn(s, "art_bad_method_id", TT_SEV_WARN, off,
                     "method id %#llx is not a multiple of 4: no record can name it, line "
                     "ignored", id);
        return 0;
    }
    tt_art_method m = {0};
    m.id = (uint32_t)id;
    if (nf == 6) { /* Dalvik: the line number */
        long long ln = 0;
        size_t k = 0;
        while (k < fl[5] && f[5][k] >= '0' && f[5][k] <= '9' && ln <= INT32_MAX)
            ln = ln * 10 + (f[5][k++] - '0');
        if (k == fl[5] && k && ln <= INT32_MAX)
            m.line = (int32_t)ln;
    }
    const char *empty = "";
    m.cls = nf == 2 ? empty : tt_art__dup(s, f[1], fl[1]);
    m.name = nf == 2 ? tt_art__dup(s, f[1], fl[1]) : tt_art__dup(s, f[2], fl[2]);
    m.sig = nf >= 4 ? tt_art__dup(s, f[3], fl[3]) : empty;
    m.src = nf >= 5 ? tt_art__dup(s, f[4], fl[4]) : empty;
    if (!m.cls || !m.name || !m.sig || !m.src)
        return tt_art__nomem(s);
    return tt_art__method_add(s, &m, off);
}

static int kv_line(art_parse *s, const char *l, size_t n, uint64_t off)
{
    const char *eq = memchr(l, '=', n);
    if (!eq) {
        tt_art__warn(s, "art_bad_header_line", TT_SEV_WARN, off, "header line without '=' ignored");
        return 0;
    }
    tt_art_kv *kv = tt_vec_push(&s->kv, NULL);
    if (!kv || !(kv->key = tt_art__dup(s, l, (size_t)(eq - l))) ||
        !(kv->value = tt_art__dup(s, eq + 1, n - (size_t)(eq - l) - 1)))
        return tt_art__nomem(s);
    if (!strcmp(kv->key, "clock")) {
        s->clock_key = kv->value;
        s->clock_off = off;
    }
    return 0;
}

static int thread_line(art_parse *s, const char *l, size_t n, uint64_t off)
{
    size_t i = 0;
    uint64_t id = 0;
    while (i < n && l[i] >= '0' && l[i] <= '9' && id <= 0xFFFFFFFFu)
        id = id * 10 + (uint64_t)(l[i++] - '0');
    if (!i || id > 0xFFFFFFFFu || (i < n && l[i] != '\t' && l[i] != ' '))
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, off,
                            "expected a thread line \"id<TAB>name\", found \"%.*s\"",
                            (int)(n < 60 ? n : 60), l);
    if (i < n)
        i++;
    /* the records carry the id truncated to 16 bits (8 bits in version 1); the list's is
     * the one shown */
    return tt_art__thread_name(s, (uint32_t)id & (s->hdr_version == 1 ? 0xFFu : 0xFFFFu),
                               (uint32_t)id, l + i, n - i, off);
}

/* Parses a text header (legacy file or streaming summary) from p[0..n) at file offset base;
 * *used gets the bytes up to and including the "*end" line (n when there is none). */
int tt_art__parse_header(art_parse *s, const unsigned char *p, size_t n, uint64_t base,
                         size_t *used, int need_end)
{
    enum { S_NONE, S_VERSION, S_KV, S_THREADS, S_METHODS } sec = S_NONE;
    size_t i = 0;
    while (i < n) {
        const unsigned char *nl = memchr(p + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - p) : n;
        const char *l = (const char *)p + i;
        size_t ll = e - i;
        uint64_t off = base + i;
        if (ll > LINE_MAX_BYTES)
            return tt_error_set(s->err, TT_ELIMIT, s->file, TT_LOC_OFFSET, off,
                                "header line longer than 64 KiB");
        if (ll && l[ll - 1] == '\r')
            ll--;
        i = nl ? e + 1 : n;
        if (ll && l[0] == '*') {
            if (ll == 4 && !memcmp(l, "*end", 4)) {
                *used = i;
                return 0;
            }
            sec = ll == 8 && !memcmp(l, "*version", 8)   ? S_VERSION
                  : ll == 8 && !memcmp(l, "*threads", 8) ? S_THREADS
                  : ll == 8 && !memcmp(l, "*methods", 8) ? S_METHODS
                                                          : S_NONE;
            if (sec == S_NONE)
                tt_art__warn(s, "art_unknown_section", TT_SEV_WARN, off,
                             "unknown section %.*s skipped", (int)(ll < 40 ? ll : 40), l);
            continue;
        }
        if (!ll)
            continue;
        int rc = 0;
        switch (sec) {
        case S_VERSION:
            if (ll != 1 || l[0] < '1' || l[0] > '3')
                return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, off,
                                    "expected version 1, 2 or 3 after *version, found \"%.*s\"",
                                    (int)(ll < 40 ? ll : 40), l);
            s->hdr_version = l[0] - '0';
            sec = S_KV;
            break;
        case S_KV: rc = kv_line(s, l, ll, off); break;
        case S_THREADS: rc = thread_line(s, l, ll, off); break;
        case S_METHODS: rc = tt_art__method_line(s, l, ll, off); break;
        case S_NONE: break;
        }
        if (rc)
            return rc;
    }
    *used = n;
    if (need_end)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, base + n,
                            "text header ends without a *end line (file truncated?)");
    return 0;
}
