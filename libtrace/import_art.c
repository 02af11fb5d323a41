/* ART method trace reader (.trace), spec/art-trace.md sections 2-4: detection, the legacy
 * text header + binary records (versions 1-3) and the streaming format (packets, summary). */
#include "tt_art.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

#define ART_MAGIC 0x574F4C53u
#define LINE_MAX_BYTES (64 * 1024)
#define METHODS_MAX (1u << 24)
#define THREADS_MAX 65536

/* ---- detection (2.1) ---- */

static int looks_systrace(const char *p, size_t n)
{
    return tt__memmem(p, n, "# tracer:", 9) || tt__memmem(p, n, "TRACE:\n", 7) ||
           (tt__memmem(p, n, "<html", 5) && (tt__memmem(p, n, "trace-viewer", 12) ||
                                                tt__memmem(p, n, "Android System Trace", 20)));
}

int tt_art_detect(const unsigned char *p, size_t n, char *what, size_t cap)
{
    if (cap)
        what[0] = 0;
    if (n >= 11 && !memcmp(p, "*version", 8)) {
        size_t i = 8;
        if (p[i] == '\r')
            i++;
        if (i + 2 < n && p[i] == '\n' && p[i + 1] >= '1' && p[i + 1] <= '3' &&
            (p[i + 2] == '\n' || p[i + 2] == '\r'))
            return TT_ART_LEGACY;
        return TT_ART_NOT;
    }
    if (n >= 6 && tt__le32(p) == ART_MAGIC) {
        unsigned v = tt__le16(p + 4);
        if (v == 0xF4 || v == 0xF5 || v == 4 || v == 5) {
            snprintf(what, cap, "ART trace format V2 (version %u) is not supported yet", v & 0xF);
            return TT_ART_V2;
        }
        if (v >= 0xF1 && v <= 0xF3)
            return TT_ART_STREAMING;
        if (v >= 1 && v <= 3) {
            snprintf(what, cap, "an ART trace data section without its text header (version %u)",
                     v);
            return TT_ART_BARE;
        }
        return TT_ART_NOT;
    }
    if (n >= 10 && !memcmp(p, "SIMPLEPERF", 10))
        snprintf(what, cap, "this is a simpleperf recording; use tracetool samples");
    else if (looks_systrace((const char *)p, n < 4096 ? n : 4096))
        snprintf(what, cap, "this looks like a systrace/ftrace capture");
    else if (n >= 2 && p[0] == 0x0a)
        snprintf(what, cap, "this looks like a Perfetto trace");
    return TT_ART_NOT;
}

const char *tt_art_clock_name(int clock)
{
    return clock == TT_ART_CLOCK_WALL ? "wall" : clock == TT_ART_CLOCK_DUAL ? "dual" : "thread-cpu";
}

const char *tt_art_action_name(int action)
{
    return action == TT_ART_ENTER ? "ent" : action == TT_ART_EXIT ? "xit" : "unr";
}

int tt_art_has_wall(const tt_art *a) { return a->clock != TT_ART_CLOCK_CPU; }
int tt_art_has_cpu(const tt_art *a) { return a->clock != TT_ART_CLOCK_WALL; }

const char *tt_art_meta(const tt_art *a, const char *key)
{
    const char *v = NULL;
    for (size_t i = 0; i < a->nkv; i++)
        if (!strcmp(a->kv[i].key, key))
            v = a->kv[i].value;
    return v;
}

/* ---- parser state ---- */

typedef struct art_parse {
    tt_art *a;
    const unsigned char *p; /* memory input: the whole file */
    size_t n;
    /* input read in chunks (in != NULL): the window holds file bytes [wbase, wbase + wlen) */
    tt_input *in;
    const tt_art_src *src;
    unsigned char *buf;
    size_t cap, wbase, wlen, chunk;
    int eof;
    const char *file;
    tt_stats *stats;
    tt_error *err;
    tt__map mids;         /* method id -> index */
    tt_vec methods, threads, kv;
    uint32_t *tmap;       /* thread id -> 1 + index, 65536 entries */
    int hdr_version;      /* from the text header, 0 when none */
    const char *clock_key;
    const tt_art_opts *o;
} art_parse;

static void warn(art_parse *s, const char *name, int sev, uint64_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static void warn(art_parse *s, const char *name, int sev, uint64_t off, const char *fmt, ...)
{
    char msg[256], ex[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(ex, sizeof ex, "%s:0x%llx: %s", s->file, (unsigned long long)off, msg);
    tt_stats_add(s->stats, name, s->file, sev, 1, ex);
}

static int nomem(art_parse *s)
{
    return tt_error_set(s->err, TT_ENOMEM, s->file, TT_LOC_NONE, 0, "out of memory");
}

/* Reads into the window until it holds want bytes or the input ends; the buffer grows as
 * bytes arrive (a packet's length field alone allocates nothing). */
static int win_fill(art_parse *s, size_t want)
{
    while (!s->eof && s->wlen < want) {
        if (s->wlen == s->cap) {
            size_t ncap = !s->cap ? s->chunk : s->cap > SIZE_MAX / 2 ? SIZE_MAX : s->cap * 2;
            unsigned char *nb = realloc(s->buf, ncap);
            if (!nb)
                return nomem(s);
            s->buf = nb;
            s->cap = ncap;
        }
        size_t got = 0;
        if (tt_input_read(s->in, s->buf + s->wlen, s->cap - s->wlen, &got, s->err))
            return s->err && s->err->code ? s->err->code : TT_EIO;
        if (!got)
            s->eof = 1;
        s->wlen += got;
    }
    return 0;
}

/* The bytes of the file from offset at: *q and *avail (at least want unless the file ends
 * first; 0 at the end). Offsets only move forward, except by win_rewind. Memory inputs give
 * the rest of the file; chunked inputs keep about chunk bytes (more for a longer want). */
static int win_need(art_parse *s, size_t at, size_t want, const unsigned char **q,
                    size_t *avail)
{
    if (!s->in) {
        *q = at < s->n ? s->p + at : s->p;
        *avail = at < s->n ? s->n - at : 0;
        return 0;
    }
    size_t end = s->wbase + s->wlen;
    if (at + want > end && !s->eof) {
        while (at > end && !s->eof) { /* skip bytes before at */
            s->wbase = end;
            s->wlen = 0;
            size_t skip = at - end < s->chunk ? at - end : s->chunk;
            int rc = win_fill(s, skip);
            if (rc)
                return rc;
            end = s->wbase + s->wlen;
        }
        if (at <= end && s->buf) {
            memmove(s->buf, s->buf + (at - s->wbase), end - at);
            s->wlen = end - at;
            s->wbase = at;
        }
        int rc = win_fill(s, want > s->chunk ? want : s->chunk);
        if (rc)
            return rc;
        end = s->wbase + s->wlen;
    }
    *q = at < end ? s->buf + (at - s->wbase) : s->buf;
    *avail = at < end ? end - at : 0;
    return 0;
}

static void src_close(art_parse *s)
{
    if (s->in && s->src->close)
        s->src->close(s->src->ud, s->in);
    else
        tt_input_close(s->in);
    s->in = NULL;
}

/* Starts reading the file again from offset 0 (the second pass). */
static int win_rewind(art_parse *s)
{
    if (!s->in)
        return 0;
    src_close(s);
    int rc = s->src->open(s->src->ud, &s->in, s->err);
    if (rc || !s->in)
        return rc ? rc : TT_EIO;
    s->wbase = s->wlen = 0;
    s->eof = 0;
    return 0;
}

static char *dup(art_parse *s, const char *p, size_t n)
{
    return tt_arena_strndup(s->a->arena, p, n);
}

/* Thread index for a record's id, created on first use. */
static int thread_get(art_parse *s, uint32_t id, uint32_t *idx)
{
    if (s->tmap[id]) {
        *idx = s->tmap[id] - 1;
        return 0;
    }
    tt_art_thread *t = tt_vec_push(&s->threads, NULL);
    if (!t)
        return nomem(s);
    t->id = id;
    t->name = NULL;
    s->tmap[id] = (uint32_t)s->threads.len;
    *idx = (uint32_t)s->threads.len - 1;
    return 0;
}

static int thread_name(art_parse *s, uint32_t id, const char *name, size_t n, uint64_t off)
{
    uint32_t idx;
    if (s->threads.len >= THREADS_MAX && !s->tmap[id])
        return tt_error_set(s->err, TT_ELIMIT, s->file, TT_LOC_OFFSET, off,
                            "more than %d threads", THREADS_MAX);
    if (thread_get(s, id, &idx))
        return TT_ENOMEM;
    tt_art_thread *t = &TT_VEC_AT(&s->threads, tt_art_thread, idx);
    if (t->name && (strlen(t->name) != n || memcmp(t->name, name, n)))
        warn(s, "art_duplicate_thread", TT_SEV_INFO, off, "thread %u listed twice", id);
    if (!(t->name = dup(s, name, n)))
        return nomem(s);
    t->listed = 1;
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

static int method_add(art_parse *s, tt_art_method *m, uint64_t off)
{
    uint32_t idx;
    if (method_names(s->a->arena, m))
        return nomem(s);
    if (tt__map_get(&s->mids, m->id, &idx)) {
        tt_art_method *old = &TT_VEC_AT(&s->methods, tt_art_method, idx);
        if (strcmp(old->raw, m->raw))
            warn(s, "art_duplicate_method", TT_SEV_WARN, off,
                 "method id %#x defined twice; the later definition wins", m->id);
        *old = *m;
        return 0;
    }
    if (s->methods.len >= METHODS_MAX)
        return tt_error_set(s->err, TT_ELIMIT, s->file, TT_LOC_OFFSET, off,
                            "more than %u methods", METHODS_MAX);
    if (!tt_vec_push(&s->methods, m) || tt__map_put(&s->mids, m->id, (uint32_t)s->methods.len - 1))
        return nomem(s);
    return 0;
}

/* One *methods line (2.2): fields split at tabs only. */
static int method_line(art_parse *s, const char *l, size_t n, uint64_t off)
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
    tt_art_method m = {0};
    m.id = (uint32_t)id & ~3u;
    const char *empty = "";
    m.cls = nf == 2 ? empty : dup(s, f[1], fl[1]);
    m.name = nf == 2 ? dup(s, f[1], fl[1]) : dup(s, f[2], fl[2]);
    m.sig = nf >= 4 ? dup(s, f[3], fl[3]) : empty;
    m.src = nf >= 5 ? dup(s, f[4], fl[4]) : empty;
    if (!m.cls || !m.name || !m.sig || !m.src)
        return nomem(s);
    return method_add(s, &m, off);
}

static int kv_line(art_parse *s, const char *l, size_t n, uint64_t off)
{
    const char *eq = memchr(l, '=', n);
    if (!eq) {
        warn(s, "art_bad_header_line", TT_SEV_WARN, off, "header line without '=' ignored");
        return 0;
    }
    tt_art_kv *kv = tt_vec_push(&s->kv, NULL);
    if (!kv || !(kv->key = dup(s, l, (size_t)(eq - l))) ||
        !(kv->value = dup(s, eq + 1, n - (size_t)(eq - l) - 1)))
        return nomem(s);
    if (!strcmp(kv->key, "clock"))
        s->clock_key = kv->value;
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
    /* the records carry the id truncated to 16 bits (8 bits in version 1) */
    return thread_name(s, (uint32_t)id & (s->hdr_version == 1 ? 0xFFu : 0xFFFFu), l + i, n - i,
                       off);
}

/* Parses a text header (legacy file or streaming summary) from p[0..n) at file offset base;
 * *used gets the bytes up to and including the "*end" line (n when there is none). */
static int parse_header(art_parse *s, const unsigned char *p, size_t n, uint64_t base,
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
                warn(s, "art_unknown_section", TT_SEV_WARN, off, "unknown section %.*s skipped",
                     (int)(ll < 40 ? ll : 40), l);
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
        case S_METHODS: rc = method_line(s, l, ll, off); break;
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

/* ---- binary data ---- */

typedef struct bin_hdr {
    unsigned version, raw_version, data_off, rec_size;
    uint64_t start_us;
} bin_hdr;

static int parse_bin_header(art_parse *s, size_t at, bin_hdr *h)
{
    tt_rd r;
    uint32_t magic;
    uint16_t v, off, rs = 0;
    uint64_t start;
    const unsigned char *q;
    size_t left; /* the rest of the file, or more than the largest data offset */
    int rc = win_need(s, at, 16 + 65536, &q, &left);
    if (rc)
        return rc;
    tt_rd_init(&r, q, left);
    if (tt_rd_u32le(&r, &magic) || tt_rd_u16le(&r, &v) || tt_rd_u16le(&r, &off) ||
        tt_rd_u64le(&r, &start))
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at,
                            "binary header needs 16 bytes, found %zu", left);
    if (magic != ART_MAGIC)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at,
                            "expected magic 0x574f4c53 (\"SLOW\"), found 0x%08x", magic);
    h->raw_version = v;
    h->version = v & 0x0F;
    if (h->version < 1 || h->version > 3 || (v > 3 && (v & 0xF0) != 0xF0))
        return tt_error_set(s->err, TT_EUNSUPPORTED, s->file, TT_LOC_OFFSET, at + 4,
                            "unsupported binary version 0x%x", v);
    int streaming = (v & 0xF0) == 0xF0;
    if (off < 16 || ((h->version >= 3 || streaming) && off < 18) || off > left)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at + 6,
                            "offset to data %u out of range (16..%zu%s)", off, left,
                            h->version >= 3 ? ", at least 18 for version 3" : "");
    if (h->version >= 3 || streaming) {
        if (tt_rd_u16le(&r, &rs))
            return TT_EFORMAT;
    }
    h->data_off = off;
    h->start_us = start;
    h->rec_size = h->version == 1 ? 9 : h->version == 2 && !streaming ? 10 : rs;
    if (streaming && h->version == 2 && rs == 0)
        h->rec_size = 10;
    /* the smallest record: thread id, method value and one clock (2.3) */
    unsigned min = h->version == 1 ? 9u : 10u;
    if (h->rec_size < min)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at + 16,
                            "record size %u smaller than the %u bytes of a version %u record",
                            h->rec_size, min, h->version);
    return 0;
}

/* Bytes a record needs for the clock (2.3). */
static unsigned rec_need(int version, int clock)
{
    return (version == 1 ? 1u : 2u) + 4u + (clock == TT_ART_CLOCK_DUAL ? 8u : 4u);
}

/* Wrap repair of one clock value (3.1): v is the raw u32 us. */
static int64_t unwrap(art_parse *s, int64_t *last, uint32_t raw, uint64_t off)
{
    int64_t prev = *last;
    if (prev == TT_ART_NONE) {
        *last = raw;
        return raw;
    }
    int64_t v = (prev & ~(int64_t)0xFFFFFFFF) | raw;
    if (v < prev && prev - v > ((int64_t)1 << 31)) {
        v += (int64_t)1 << 32;
        warn(s, "art_time_wrapped", TT_SEV_INFO, off, "clock wrapped after 2^32 us");
    } else if (v > prev && v - prev > ((int64_t)1 << 31) && v >= ((int64_t)1 << 32)) {
        v -= (int64_t)1 << 32; /* a small step back just after a wrap */
    }
    if (v < prev) {
        warn(s, "art_time_backwards", TT_SEV_WARN, off, "time went backwards by %lld us",
             (long long)(prev - v));
        v = prev;
    }
    *last = v;
    return v;
}

/* Decodes one record (q, at file offset off); pass 1 only counts threads. */
static int record(art_parse *s, const unsigned char *q, size_t off, uint64_t recno, int pass)
{
    tt_art *a = s->a;
    uint32_t tid = a->version == 1 ? q[0] : tt__le16(q);
    q += a->version == 1 ? 1 : 2;
    uint32_t val = tt__le32(q);
    int action = (int)(val & 3);
    uint32_t idx;
    if (action == 3) {
        if (pass == 2)
            warn(s, "art_bad_action", TT_SEV_DATA_LOSS, off,
                 "record %llu: action 3 is not enter/exit/unroll", (unsigned long long)recno);
        return 0;
    }
    if (thread_get(s, tid, &idx))
        return TT_ENOMEM;
    if (pass == 1) {
        TT_VEC_AT(&s->threads, tt_art_thread, idx).nev++;
        a->records++;
        return 0;
    }
    uint32_t mid = val & ~3u, mi;
    if (!tt__map_get(&s->mids, mid, &mi)) {
        char nm[48];
        snprintf(nm, sizeof nm, "<unknown method 0x%x>", mid);
        tt_art_method m = {0};
        m.id = mid;
        m.cls = "";
        m.sig = "";
        m.src = "";
        m.unknown = 1;
        if (!(m.name = dup(s, nm, strlen(nm))) || method_add(s, &m, off))
            return TT_ENOMEM;
        tt__map_get(&s->mids, mid, &mi);
        a->methods = s->methods.data;
    }
    if (TT_VEC_AT(&s->methods, tt_art_method, mi).unknown)
        warn(s, "art_unknown_method", TT_SEV_WARN, off, "record %llu: unknown method id 0x%x",
             (unsigned long long)recno, mid);
    tt_art_thread *t = &a->threads[idx];
    tt_art_event ev1, *e = s->o && s->o->event ? &ev1 : &t->ev[t->nev++];
    e->ma = mi | (uint32_t)action << 24;
    e->rec = (uint32_t)recno;
    uint32_t c1 = tt__le32(q + 4);
    e->wall_us = e->cpu_us = TT_ART_NONE;
    if (a->clock == TT_ART_CLOCK_WALL) {
        e->wall_us = unwrap(s, &t->last_wall, c1, off);
    } else {
        e->cpu_us = unwrap(s, &t->last_cpu, c1, off);
        if (a->clock == TT_ART_CLOCK_DUAL)
            e->wall_us = unwrap(s, &t->last_wall, tt__le32(q + 8), off);
    }
    if (e == &ev1) { /* streaming (4): the record goes to the caller's stacks */
        a->methods = s->methods.data;
        a->nmethods = s->methods.len;
        int rc = s->o->event(s->o->event_ud, a, idx, e);
        if (rc)
            return tt_error_set(s->err, rc, s->file, TT_LOC_OFFSET, off,
                                "record %llu: %s", (unsigned long long)recno,
                                rc == TT_ENOMEM ? "out of memory" : tt_strerror(rc));
    }
    return 0;
}

/* Bytes of the packet starting at q (2.4) as far as its header tells; 0 when the left bytes
 * (the rest of the file then) do not hold the header. */
static size_t packet_size(const unsigned char *q, size_t left)
{
    if (left < 7)
        return 0;
    switch (q[2]) {
    case 1: return 5 + (size_t)tt__le16(q + 3);
    case 2: return 7 + (size_t)tt__le16(q + 5);
    case 3: return 7 + (size_t)tt__le32(q + 3);
    default: return 3;
    }
}

/* Walks the data section from `at`; streaming files interleave packets (2.4). Pass 1 collects
 * packets and counts records per thread, pass 2 decodes the records. */
static int walk(art_parse *s, size_t at, int streaming, int pass)
{
    size_t rs = s->a->record_size;
    uint64_t recno = 0;
    for (;;) {
        const unsigned char *q;
        size_t left;
        int rc = win_need(s, at, rs, &q, &left);
        if (rc)
            return rc;
        if (!left)
            break;
        if (streaming && left >= 2 && tt__le16(q) == 0) {
            size_t whole = packet_size(q, left);
            if (whole > left && (rc = win_need(s, at, whole, &q, &left)))
                return rc;
            tt_rd r;
            uint8_t code;
            uint16_t len16, tid;
            uint32_t len;
            const unsigned char *b;
            tt_rd_init(&r, q + 2, left - 2);
            int bad = tt_rd_u8(&r, &code);
            if (!bad && code == 1) {
                bad = tt_rd_u16le(&r, &len16) || tt_rd_bytes(&r, &b, len16);
                if (!bad && pass == 1) {
                    size_t ll = len16;
                    while (ll && (b[ll - 1] == '\n' || b[ll - 1] == '\r'))
                        ll--;
                    if (method_line(s, (const char *)b, ll, at + 5))
                        return s->err ? s->err->code : TT_EFORMAT;
                }
            } else if (!bad && code == 2) {
                bad = tt_rd_u16le(&r, &tid) || tt_rd_u16le(&r, &len16) ||
                      tt_rd_bytes(&r, &b, len16);
                if (!bad && pass == 1 && thread_name(s, tid, (const char *)b, len16, at + 7))
                    return s->err ? s->err->code : TT_EFORMAT;
            } else if (!bad && code == 3) {
                bad = tt_rd_u32le(&r, &len) || tt_rd_bytes(&r, &b, len);
                if (!bad && pass == 1) {
                    size_t used;
                    s->a->has_summary = 1;
                    if (parse_header(s, b, len, at + 7, &used, 0))
                        return s->err ? s->err->code : TT_EFORMAT;
                }
            } else if (!bad) {
                if (pass == 1)
                    warn(s, "art_bad_packet", TT_SEV_DATA_LOSS, at,
                         "unknown packet code %u; the rest of the file is ignored", code);
                return 0;
            }
            if (bad) {
                if (pass == 1)
                    warn(s, "art_truncated_record", TT_SEV_DATA_LOSS, at,
                         "packet cut by the end of the file");
                return 0;
            }
            at += 2 + r.pos;
            continue;
        }
        if (left < rs) {
            if (pass == 1)
                warn(s, "art_truncated_record", TT_SEV_DATA_LOSS, at,
                     "trailing partial record of %zu bytes dropped (record size %zu)", left, rs);
            return 0;
        }
        recno++;
        if (recno > 0xFFFFFFFFull)
            return tt_error_set(s->err, TT_ELIMIT, s->file, TT_LOC_OFFSET, at,
                                "more than 2^32 records");
        if (record(s, q, at, recno, pass))
            return s->err ? s->err->code : TT_ENOMEM;
        at += rs;
    }
    return 0;
}

/* The clock of the file (2.2, 2.4) and the record size check. */
static int choose_clock(art_parse *s, const tt_art_opts *o, size_t at)
{
    tt_art *a = s->a;
    if (s->clock_key) {
        if (!strcmp(s->clock_key, "dual"))
            a->clock = TT_ART_CLOCK_DUAL;
        else if (!strcmp(s->clock_key, "wall"))
            a->clock = TT_ART_CLOCK_WALL;
        else if (!strcmp(s->clock_key, "thread-cpu"))
            a->clock = TT_ART_CLOCK_CPU;
        else
            return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_NONE, 0,
                                "unknown clock \"%s\" (expected thread-cpu, wall or dual)",
                                s->clock_key);
    } else if (a->record_size >= 14 && a->version >= 2) {
        a->clock = TT_ART_CLOCK_DUAL;
    } else if (a->kind == TT_ART_STREAMING) {
        a->clock = o && o->clock_guess == TT_ART_CLOCK_CPU ? TT_ART_CLOCK_CPU : TT_ART_CLOCK_WALL;
        a->clock_guessed = 1;
        tt_stats_add(s->stats, "art_clock_guessed", s->file, TT_SEV_WARN, 1,
                     "streaming file without summary: clock guessed (--art-clock)");
    } else {
        a->clock = TT_ART_CLOCK_CPU;
    }
    unsigned need = rec_need(a->version, a->clock);
    if (a->record_size < need)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at,
                            "record size %u smaller than clock %s needs (%u bytes)",
                            a->record_size, tt_art_clock_name(a->clock), need);
    return 0;
}

static int cmp_thread(const void *x, const void *y)
{
    const tt_art_thread *a = x, *b = y;
    return a->id < b->id ? -1 : a->id > b->id;
}

static void header_values(tt_art *a)
{
    const char *v;
    a->overflow = (v = tt_art_meta(a, "data-file-overflow")) && !strcmp(v, "true");
    a->elapsed_us = (v = tt_art_meta(a, "elapsed-time-usec")) ? strtoll(v, NULL, 10) : -1;
    a->pid = (v = tt_art_meta(a, "pid")) ? strtoll(v, NULL, 10) : -1;
}

/* Allocates each thread's event array (sizes from pass 1) and names the unnamed threads. */
static int thread_arrays(art_parse *s)
{
    tt_art *a = s->a;
    a->threads = s->threads.data;
    a->nthreads = s->threads.len;
    for (size_t i = 0; i < a->nthreads; i++) {
        tt_art_thread *t = &a->threads[i];
        if (!t->name) {
            char nm[32];
            snprintf(nm, sizeof nm, "thread %u", t->id);
            if (!(t->name = dup(s, nm, strlen(nm))))
                return nomem(s);
            tt_stats_add(s->stats, "art_unknown_thread", s->file, TT_SEV_INFO, 1, nm);
        }
        t->last_wall = t->last_cpu = TT_ART_NONE;
        if (s->o && s->o->event)
            continue; /* streaming: nev stays the count of pass 1 */
        if (t->nev && !(t->ev = tt_arena_alloc(a->arena, t->nev * sizeof *t->ev)))
            return nomem(s);
        t->nev = 0;
    }
    /* sorted by id before pass 2, so the indices pass 2 reports are final */
    if (a->nthreads)
        qsort(a->threads, a->nthreads, sizeof *a->threads, cmp_thread);
    for (size_t i = 0; i < a->nthreads; i++)
        s->tmap[a->threads[i].id] = (uint32_t)i + 1;
    return 0;
}

/* The start of the file up to and including the text header's "*end" line (or all of it). */
static int header_window(art_parse *s, const unsigned char **q, size_t *n)
{
    size_t want = s->chunk;
    for (;;) {
        int rc = win_need(s, 0, want, q, n);
        if (rc || !s->in || *n < want || tt__memmem((const char *)*q, *n, "\n*end\n", 6) ||
            tt__memmem((const char *)*q, *n, "\n*end\r\n", 7))
            return rc;
        want = *n * 2;
    }
}

static int parse_body(art_parse *s, const tt_art_opts *o)
{
    tt_art *a = s->a;
    size_t at = 0;
    char what[200];
    const unsigned char *q;
    size_t n;
    int rc = win_need(s, 0, 4096, &q, &n);
    if (rc)
        return rc;
    int kind = tt_art_detect(q, n, what, sizeof what);
    int keys = o && o->keys;
    if (kind == TT_ART_V2 || (kind == TT_ART_BARE && !keys))
        return tt_error_set(s->err, TT_EUNSUPPORTED, s->file, TT_LOC_OFFSET, 0, "%s%s", what,
                            kind == TT_ART_BARE ? ": give the text header with --art-keys" : "");
    if (kind == TT_ART_NOT)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, 0,
                            "not an ART method trace%s%s", what[0] ? ": " : "", what);
    if (keys && kind != TT_ART_BARE)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, 0,
                            "the file has its own %s; a separate text header is only for a "
                            "bare data section", kind == TT_ART_LEGACY ? "text header"
                                                                       : "packets and summary");
    a->kind = kind == TT_ART_BARE ? TT_ART_LEGACY : kind;
    if (keys) { /* the header lives in the keys file: its offsets name that file (2.1) */
        const char *data_file = s->file;
        size_t used;
        s->file = o->keys_name ? o->keys_name : "";
        rc = parse_header(s, o->keys, o->nkeys, 0, &used, 1);
        s->file = data_file;
        if (rc)
            return s->err ? s->err->code : TT_EFORMAT;
        if (used < o->nkeys)
            warn(s, "art_keys_trailing", TT_SEV_WARN, 0,
                 "%zu bytes after *end of the text header ignored", o->nkeys - used);
    } else if (kind == TT_ART_LEGACY && ((rc = header_window(s, &q, &n)) ||
                                         parse_header(s, q, n, 0, &at, 1))) {
        return rc ? rc : s->err ? s->err->code : TT_EFORMAT;
    }
    bin_hdr h = {0};
    rc = parse_bin_header(s, at, &h);
    if (rc)
        return rc;
    if (kind == TT_ART_LEGACY && (h.raw_version & 0xF0))
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at + 4,
                            "streaming version 0x%x after a text header", h.raw_version);
    a->version = (int)h.version;
    a->record_size = h.rec_size;
    a->start_us = h.start_us;
    if (s->hdr_version && s->hdr_version != a->version)
        warn(s, "art_version_mismatch", TT_SEV_WARN, at + 4,
             "text header says version %d, binary header %d; the binary header wins",
             s->hdr_version, a->version);
    size_t data = at + h.data_off;
    /* pass 1: packets, thread counts */
    if ((rc = walk(s, data, kind == TT_ART_STREAMING, 1)))
        return rc;
    a->threads = s->threads.data;
    a->nthreads = s->threads.len;
    a->kv = s->kv.data;
    a->nkv = s->kv.len;
    if ((rc = choose_clock(s, o, at + 16)))
        return rc;
    header_values(a);
    if ((rc = thread_arrays(s)))
        return rc;
    if ((rc = win_rewind(s)) || (rc = walk(s, data, kind == TT_ART_STREAMING, 2)))
        return rc;
    a->methods = s->methods.data;
    a->nmethods = s->methods.len;
    if (a->overflow)
        tt_stats_add(s->stats, "art_overflow", s->file, TT_SEV_DATA_LOSS, 1,
                     "data-file-overflow=true: recording stopped when the buffer was full");
    return 0;
}

/* The parse of s's input (memory or chunked). */
static int parse(tt_art **out, art_parse *s0, const char *name, const tt_art_opts *o,
                 tt_stats *stats, tt_error *err)
{
    art_parse s = *s0;
    tt_art *a = calloc(1, sizeof *a);
    s.tmap = calloc(65536, sizeof *s.tmap);
    if (!a || !s.tmap || !(a->arena = tt_arena_new())) {
        free(s.tmap);
        free(a);
        if (s.in)
            src_close(&s);
        return tt_error_set(err, TT_ENOMEM, name, TT_LOC_NONE, 0, "out of memory");
    }
    s.a = a;
    s.file = name ? name : "";
    s.stats = stats;
    s.err = err;
    s.o = o;
    tt_vec_init(&s.methods, sizeof(tt_art_method));
    tt_vec_init(&s.threads, sizeof(tt_art_thread));
    tt_vec_init(&s.kv, sizeof(tt_art_kv));
    int rc = parse_body(&s, o);
    /* the vectors' arrays now belong to a */
    a->methods = s.methods.data;
    a->nmethods = s.methods.len;
    a->threads = s.threads.data;
    a->nthreads = s.threads.len;
    a->kv = s.kv.data;
    a->nkv = s.kv.len;
    tt__map_free(&s.mids);
    free(s.tmap);
    if (s.in)
        src_close(&s);
    free(s.buf);
    if (rc) {
        if (err && !err->code)
            tt_error_set(err, rc, name, TT_LOC_NONE, 0, "%s", tt_strerror(rc));
        tt_art_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

int tt_art_parse(tt_art **out, const unsigned char *data, size_t n, const char *name,
                 const tt_art_opts *o, tt_stats *stats, tt_error *err)
{
    *out = NULL;
    art_parse s = {0};
    s.p = data;
    s.n = n;
    return parse(out, &s, name, o, stats, err);
}

int tt_art_parse_src(tt_art **out, const tt_art_src *src, const char *name,
                     const tt_art_opts *o, tt_stats *stats, tt_error *err)
{
    *out = NULL;
    art_parse s = {0};
    s.src = src;
    s.chunk = o && o->chunk_bytes ? o->chunk_bytes : (size_t)1 << 20;
    int rc = src->open(src->ud, &s.in, err);
    if (rc || !s.in)
        return rc ? rc : tt_error_set(err, TT_EIO, name, TT_LOC_NONE, 0, "cannot open");
    return parse(out, &s, name, o, stats, err);
}

void tt_art_free(tt_art *a)
{
    if (!a)
        return;
    tt_arena_free(a->arena);
    free(a->methods);
    free(a->threads);
    free(a->kv);
    free(a);
}
