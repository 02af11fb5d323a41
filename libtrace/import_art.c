/* ART method trace reader (.trace), spec/art-trace.md sections 2-4: detection, and the
 * driver of the parse of the legacy text header + binary records (versions 1-3) and the
 * streaming format (packets, summary); the parts are in art_window.c, art_header.c and
 * art_records.c (art_parse_int.h). */
#include "art_parse_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- detection (2.1) ---- */

static int looks_systrace(const char *p, size_t n)
{
    return tt__memmem(p, n, "# tracer:", 9) || tt__memmem(p, n, "TRACE:\n", 7) ||
           (tt__memmem(p, n, "<html", 5) && (tt__memmem(p, n, "trace-viewer", 12) ||
                                                tt__memmem(p, n, "Android System Trace", 20)));
}

/* A Perfetto trace (protobuf: a run of `Trace.packet` fields, tag 0x0a, a varint length, a
 * TracePacket starting with a field tag): binary, and the first packet ends where the next
 * begins (or beyond what was read). */
int tt__looks_perfetto(const unsigned char *p, size_t n)
{
    if (n < 4 || p[0] != 0x0a)
        return 0;
    int ctl = 0;
    for (size_t i = 0; i < n && i < 4096 && !ctl; i++)
        ctl = p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r';
    uint64_t len = 0;
    size_t i = 1;
    for (int shift = 0;; shift += 7) {
        if (i >= n || i > 5)
            return 0;
        len |= (uint64_t)(p[i] & 0x7f) << shift;
        if (!(p[i++] & 0x80))
            break;
    }
    unsigned wt = p[i < n ? i : 0] & 7;
    if (!ctl || len == 0 || i >= n || p[i] < 8 || wt == 3 || wt == 4 || wt > 5)
        return 0;
    return len >= n - i || p[i + len] == 0x0a;
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
        /* another version line: an ART trace all the same, named with its version */
        size_t v = i + 1, e = v;
        while (e < n && e - v < 20 && p[e] >= '0' && p[e] <= '9')
            e++;
        if (i < n && p[i] == '\n' && e > v && e < n && (p[e] == '\n' || p[e] == '\r')) {
            snprintf(what, cap, "an ART method trace of unsupported version %.*s (text header "
                                "versions 1, 2 and 3 are read)", (int)(e - v), (const char *)p + v);
            return TT_ART_UNSUPPORTED;
        }
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
        snprintf(what, cap, "a simpleperf recording (perf.data): turn it into text with "
                            "simpleperf's report_sample.py, which tracetool samples reads");
    else if (n >= 8 && (!memcmp(p, "PERFILE2", 8) || !memcmp(p, "PERFFILE", 8)))
        snprintf(what, cap, "a Linux perf recording (perf.data): turn it into text with "
                            "perf script, which tracetool samples reads");
    else if (looks_systrace((const char *)p, n < 4096 ? n : 4096))
        snprintf(what, cap, "this looks like a systrace/ftrace capture");
    else if (tt__looks_perfetto(p, n))
        snprintf(what, cap, "this looks like a Perfetto trace (protobuf), which tracetool "
                            "does not read");
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
            return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, s->clock_off,
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
    unsigned need = tt_art__rec_need(a->version, a->clock);
    if (a->record_size < need)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at,
                            "record size %u smaller than clock %s needs (%u bytes)",
                            a->record_size, tt_art_clock_name(a->clock), need);
    return 0;
}

/* A legacy file's num-method-calls against the records of its data section (pass 1): the
 * writer states the count of whole records, so a version 3 record size field that does not
 * divide the data into that many records while another size does (one large enough for the
 * clock) is corrupt, an error at the field; any other disagreement is counted (A9: data
 * cut off, or a header that lies). */
static int check_count(art_parse *s, size_t data, size_t at)
{
    tt_art *a = s->a;
    const char *v = tt_art_meta(a, "num-method-calls");
    char *e = NULL;
    unsigned long long n = v ? strtoull(v, &e, 10) : 0;
    if (a->kind != TT_ART_LEGACY || !v || e == v || *e || n == s->recs)
        return 0;
    size_t bytes = s->data_end > data ? s->data_end - data : 0;
    if (a->version >= 3 && n && bytes % n == 0 && bytes / n != a->record_size &&
        bytes / n >= tt_art__rec_need(a->version, a->clock) && bytes / n <= 0xFFFF)
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at + 16,
                            "record size %u contradicts num-method-calls=%llu: the %zu data "
                            "bytes hold %llu records of %zu bytes", a->record_size, n, bytes,
                            n, (size_t)(bytes / n));
    if (bytes % a->record_size && s->recs + 1 == n)
        return 0; /* the partial record art_truncated_record reports */
    tt_art__warn(s, "art_record_count", TT_SEV_DATA_LOSS, data,
                 "num-method-calls=%llu but the data section holds %llu records of %u bytes",
                 n, (unsigned long long)s->recs, a->record_size);
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
    s->wall_latest = TT_ART_NONE;
    for (size_t i = 0; i < a->nthreads; i++) {
        tt_art_thread *t = &a->threads[i];
        if (!t->name) {
            char nm[32];
            snprintf(nm, sizeof nm, "thread %u", t->id);
            if (!(t->name = tt_art__dup(s, nm, strlen(nm))))
                return tt_art__nomem(s);
            tt_stats_add(s->stats, "art_unknown_thread", s->file, TT_SEV_INFO, 1, nm);
        }
        t->last_wall = t->last_cpu = TT_ART_NONE;
        if (s->o && s->o->event)
            continue; /* streaming: nev stays the count of pass 1 */
        if (t->nev && !(t->ev = tt_arena_alloc(a->arena, t->nev * sizeof *t->ev)))
            return tt_art__nomem(s);
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
        int rc = tt_art__win_need(s, 0, want, q, n);
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
    int rc = tt_art__win_need(s, 0, 4096, &q, &n);
    if (rc)
        return rc;
    int kind = tt_art_detect(q, n, what, sizeof what);
    int keys = o && o->keys;
    if (kind == TT_ART_V2 || kind == TT_ART_UNSUPPORTED || (kind == TT_ART_BARE && !keys))
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
        rc = tt_art__parse_header(s, o->keys, o->nkeys, 0, &used, 1);
        s->file = data_file;
        if (rc)
            return s->err ? s->err->code : TT_EFORMAT;
        if (used < o->nkeys)
            tt_art__warn(s, "art_keys_trailing", TT_SEV_WARN, 0,
                         "%zu bytes after *end of the text header ignored", o->nkeys - used);
    } else if (kind == TT_ART_LEGACY && ((rc = header_window(s, &q, &n)) ||
                                         tt_art__parse_header(s, q, n, 0, &at, 1))) {
        return rc ? rc : s->err ? s->err->code : TT_EFORMAT;
    }
    bin_hdr h = {0};
    rc = tt_art__parse_bin_header(s, at, &h);
    if (rc)
        return rc;
    if (kind == TT_ART_LEGACY && (h.raw_version & 0xF0))
        return tt_error_set(s->err, TT_EFORMAT, s->file, TT_LOC_OFFSET, at + 4,
                            "streaming version 0x%x after a text header", h.raw_version);
    a->version = (int)h.version;
    a->record_size = h.rec_size;
    a->start_us = h.start_us;
    if (s->hdr_version && s->hdr_version != a->version)
        tt_art__warn(s, "art_version_mismatch", TT_SEV_WARN, at + 4,
                     "text header says version %d, binary header %d; the binary header wins",
                     s->hdr_version, a->version);
    size_t data = at + h.data_off;
    /* pass 1: packets, thread counts */
    if ((rc = tt_art__walk(s, data, kind == TT_ART_STREAMING, 1)))
        return rc;
    a->threads = s->threads.data;
    a->nthreads = s->threads.len;
    a->kv = s->kv.data;
    a->nkv = s->kv.len;
    if ((rc = choose_clock(s, o, at + 16)) || (rc = check_count(s, data, at)))
        return rc;
    header_values(a);
    if ((rc = thread_arrays(s)))
        return rc;
    if ((rc = tt_art__win_rewind(s)) || (rc = tt_art__walk(s, data, kind == TT_ART_STREAMING, 2)))
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
            tt_art__src_close(&s);
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
        tt_art__src_close(&s);
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
