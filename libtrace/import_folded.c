/* Folded (collapsed) stacks reader, spec/samples.md section 2.3: "a;b;c 12" lines, root
 * first, no time and no threads; a second count column makes a differential file whose two
 * columns become two synthetic threads, "before" and "after". */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

/* Parses "<digits>[.<digits>]" and rounds half up; 0 on success. */
static int parse_count(const char *s, size_t n, int64_t *out, int *decimal)
{
    const char *dot = memchr(s, '.', n);
    size_t a = dot ? (size_t)(dot - s) : n;
    uint64_t v;
    if (!a || tt__parse_u64(s, a, &v) || v > INT64_MAX / 2)
        return TT_EFORMAT;
    *decimal = 0;
    if (dot) {
        size_t b = n - a - 1;
        if (!b)
            return TT_EFORMAT;
        for (size_t i = 0; i < b; i++)
            if (dot[1 + i] < '0' || dot[1 + i] > '9')
                return TT_EFORMAT;
        *decimal = 1;
        if (dot[1] >= '5')
            v++;
    }
    *out = (int64_t)v;
    return 0;
}

/* The largest count of a folded line: a sample's count (tt_sample.count) is a u32, and every
 * output writes the count exactly; a larger one is refused (one rule for every size). */
#define FOLDED_MAX_COUNT UINT32_MAX

/* 1 when s[0..n) is written as a count (digits, optionally a dot and digits) that is above
 * FOLDED_MAX_COUNT, however many digits it has. */
static int count_too_big(const char *s, size_t n)
{
    size_t i = 0, d0, k;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    if (!i || (i < n && (s[i] != '.' || i + 1 == n)))
        return 0; /* not a count */
    for (k = i + 1; k < n; k++)
        if (s[k] < '0' || s[k] > '9')
            return 0;
    for (d0 = 0; d0 + 1 < i && s[d0] == '0';)
        d0++; /* leading zeros */
    if (i - d0 > 10)
        return 1;
    uint64_t v = 0;
    for (k = d0; k < i; k++)
        v = v * 10 + (uint64_t)(s[k] - '0');
    if (i < n && s[i + 1] >= '5')
        v++; /* rounded as parse_count rounds */
    return v > FOLDED_MAX_COUNT;
}

static int count_error(const char *file, const char *s, size_t n, uint64_t lineno,
                       tt_error *err)
{
    return tt_error_set(err, TT_EFORMAT, file, TT_LOC_LINE, lineno,
                        "count %.*s is above %llu (2^32-1), the largest count a line may carry",
                        (int)(n > 40 ? 40 : n), s, (unsigned long long)FOLDED_MAX_COUNT);
}

/* Any white space separates a count, as flamegraph.pl's /^(.*)\s+?(\d+(?:\.\d*)?)$/ does (a
 * tab written by hand or by a spreadsheet). */
static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Last blank-separated token of s[0..n): start offset, or n when none. */
static size_t last_token(const char *s, size_t n)
{
    size_t e = n;
    while (e > 0 && blank(s[e - 1]))
        e--;
    size_t b = e;
    while (b > 0 && !blank(s[b - 1]))
        b--;
    return b;
}

/* Where the last blank-separated token of s[0..n) (n after a non-blank) starts when it may be a
 * count (digits and dots only), else n: the stack before a count holds long tokens, and none of
 * them needs scanning. */
static size_t count_token(const char *s, size_t n)
{
    size_t b = n;
    while (b > 0 && ((s[b - 1] >= '0' && s[b - 1] <= '9') || s[b - 1] == '.'))
        b--;
    return b == 0 || blank(s[b - 1]) ? b : n;
}

typedef struct fstate {
    tt_profile *p;
    const tt_import_opts *o;
    tt_stats *stats;
    const char *file;
    tt_vec frames;
    uint32_t th[2];
    int diff; /* -1 unknown, 0 single, 1 two columns */
    uint64_t lines, bad, bad_first, decimals;
    char bad_msg[200];
    tt__ltab names;   /* frame text seen so far; val: its frame id (issue 16) */
    tt__cscache *cs;  /* the previous stack: sorted folded files share long prefixes */
    const tt__lchunk *chunk; /* the chunk of the line read, when its fields have ids */
    const uint32_t *fids;    /* the line's numbered fields: count, end, chunk-local ids */
    const char *raw;         /* the line before trimming */
    tt_vec lmap;             /* uint32_t per chunk-local field id: frame id, FIELD_* */
} fstate;

/* Bytes per chunk: folded lines hold whole stacks, a chunk's fields stay in cache (measured
 * faster than perf text's 4 MiB, with less memory). */
#define CHUNK_BYTES ((size_t)1 << 20)

/* Lines ahead of the one read whose ends are prefetched (tt__prefetch). */
#define PREFETCH_RECS 8

/* lmap values besides frame ids */
#define FIELD_UNSEEN TT_NONE
#define FIELD_EMPTY (TT_NONE - 1)
#define FIELD_NAMED (TT_NONE - 2)

/* The frame of a name (trimmed, not empty) whose hash is h: interned once, repeats find its id
 * by the text as written. */
static int frame_of(fstate *st, uint32_t *id, const char *f, size_t fn, uint64_t h)
{
    uint32_t e;
    if (tt__ltab_get(&st->names, &e, h, f, fn))
        return TT_ENOMEM;
    *id = st->names.ents[e].val;
    if (*id == TT_NONE) {
        if (tt__frame_simple(st->p, id, f, fn, TT_FRAME_NATIVE, NULL))
            return TT_ENOMEM;
        st->names.ents[e].val = *id;
    }
    return 0;
}

static int push_frame(fstate *st, const char *f, size_t fn, uint64_t lineno, tt_error *err)
{
    uint32_t id;
    if (frame_of(st, &id, f, fn, tt__ltab_hash(f, fn)) || !tt_vec_push(&st->frames, &id))
        return tt_error_set(err, TT_ENOMEM, st->file, TT_LOC_LINE, lineno, "out of memory");
    return 0;
}

/* Field k of the line (the chunk numbered it) trimmed. */
static void field_text(const fstate *st, size_t k, const char **f, size_t *fn)
{
    const tt__ldist *d = &st->chunk->dist[st->fids[2 + k]];
    *f = st->chunk->data + d->off;
    *fn = d->len;
    tt__trim(f, fn);
}

/* The frames of the fields the chunk numbered (all but the last): lmap holds what a field is,
 * FIELD_EMPTY for blanks only, FIELD_NAMED before its frame is interned (only frames kept
 * are), or the frame. *last: the last field with a name, or nf; *end: where the fields end in
 * the raw line, after their last ';'. */
static int numbered_frames(fstate *st, size_t nf, size_t *depth, size_t *last, size_t *end)
{
    *last = nf;
    *end = st->fids[1];
    for (size_t k = 0; k < nf; k++) {
        uint32_t lid = st->fids[2 + k], *v = &TT_VEC_AT(&st->lmap, uint32_t, lid);
        const char *f;
        size_t fn;
        if (*v == FIELD_UNSEEN) {
            field_text(st, k, &f, &fn);
            *v = fn ? FIELD_NAMED : FIELD_EMPTY;
        }
        if (*v == FIELD_EMPTY)
            continue;
        *last = k;
        if (++*depth >= TT_MAX_STACK_DEPTH)
            continue;
        if (*v == FIELD_NAMED) {
            const tt__ldist *d = &st->chunk->dist[lid];
            field_text(st, k, &f, &fn);
            if (frame_of(st, v, f, fn, fn == d->len ? d->hash : tt__ltab_hash(f, fn)))
                return TT_ENOMEM;
        }
        if (!tt_vec_push(&st->frames, v))
            return TT_ENOMEM;
    }
    return 0;
}

static int add_line(fstate *st, const char *s, size_t n, int64_t *w, int ncols, uint64_t lineno,
                    tt_error *err)
{
    st->frames.len = 0;
    size_t i = 0, depth = 0, last_fn = 0, nf = st->fids ? st->fids[0] : 0, last_k = nf;
    const char *last_f = NULL;
    int rc;
    if (nf) {
        if (numbered_frames(st, nf, &depth, &last_k, &i))
            return tt_error_set(err, TT_ENOMEM, st->file, TT_LOC_LINE, lineno, "out of memory");
        /* the last field starts after the numbered ones; s is the raw line without its leading
         * blanks (the first field holds them) */
        i -= (size_t)(s - st->raw);
        if (last_k < nf)
            field_text(st, last_k, &last_f, &last_fn);
    }
    while (i <= n) {
        size_t j = i;
        while (j < n && s[j] != ';')
            j++;
        const char *f = s + i;
        size_t fn = j - i;
        tt__trim(&f, &fn);
        /* a stack deeper than the limit keeps its outermost frames under a marker leaf, so
         * its weight still counts (only frames that are kept are interned) */
        if (fn && ++depth < TT_MAX_STACK_DEPTH && (rc = push_frame(st, f, fn, lineno, err)))
            return rc;
        if (fn)
            last_f = f, last_fn = fn;
        i = j + 1;
    }
    char ex[200];
    if (!depth) {
        snprintf(ex, sizeof ex, "%s:%llu: stack without frames; line ignored", st->file,
                 (unsigned long long)lineno);
        tt_stats_add(st->stats, "folded_empty_stack", st->file, TT_SEV_WARN, 1, ex);
        return 0;
    }
    if (depth == TT_MAX_STACK_DEPTH) { /* exactly at the limit: the leaf fits */
        if ((rc = push_frame(st, last_f, last_fn, lineno, err)))
            return rc;
    } else if (depth > TT_MAX_STACK_DEPTH) {
        /* the marker is synthetic, as perf text's and JSON-lines' (tt__stack_truncate) */
        uint32_t id;
        if (tt__frame_simple(st->p, &id, TT_TRUNCATED_FRAME, strlen(TT_TRUNCATED_FRAME),
                             TT_FRAME_SYNTHETIC, NULL) ||
            !tt_vec_push(&st->frames, &id))
            return tt_error_set(err, TT_ENOMEM, st->file, TT_LOC_LINE, lineno, "out of memory");
        snprintf(ex, sizeof ex, "%s:%llu: stack of %zu frames truncated to the %d outermost "
                 "and a \"%s\" leaf", st->file, (unsigned long long)lineno, depth,
                 TT_MAX_STACK_DEPTH - 1, TT_TRUNCATED_FRAME);
        tt_stats_add(st->stats, "folded_stack_truncated", st->file, TT_SEV_DATA_LOSS, 1, ex);
    }
    uint32_t cs;
    if (tt__callsite_intern_cached(st->p, &cs, st->frames.data, st->frames.len, st->cs))
        return tt_error_set(err, TT_ENOMEM, st->file, TT_LOC_LINE, lineno, "out of memory");
    for (int c = 0; c < ncols; c++) {
        if (w[c] <= 0)
            continue;
        tt_sample smp;
        tt_sample_init(&smp);
        smp.utid = st->th[c];
        smp.callsite = cs;
        smp.weight = w[c];
        smp.count = (uint32_t)w[c]; /* at most FOLDED_MAX_COUNT (folded_line) */
        rc = tt_profile_add(st->p, &smp, NULL);
        if (rc)
            return tt_error_set(err, TT_ENOMEM, st->file, TT_LOC_LINE, lineno,
                                "out of memory");
    }
    st->lines++;
    return 0;
}

static int setup_threads(fstate *st, int diff)
{
    static const char *const names[2][2] = {{"all", ""}, {"before", "after"}};
    st->diff = diff;
    for (int c = 0; c <= diff; c++) {
        if (tt_thread_intern(st->p, &st->th[c], st->o->source, -1, c, 32))
            return TT_ENOMEM;
        tt_thread_set_name(st->p, st->th[c], names[diff][c], strlen(names[diff][c]), 1);
        if (!diff) /* no threads in the file: its stacks are written back as read */
            tt_thread_set_no_root(st->p, st->th[c]);
    }
    return 0;
}

static int folded_line(fstate *st, const char *s, size_t n, uint64_t lineno, tt_error *err)
{
    tt__trim(&s, &n);
    if (!n || s[0] == '#')
        return 0;
    size_t b1 = last_token(s, n);
    int64_t w[2];
    int dec = 0, dec2 = 0;
    if (b1 > 0 && count_too_big(s + b1, n - b1))
        return count_error(st->file, s + b1, n - b1, lineno, err);
    if (b1 == 0 || parse_count(s + b1, n - b1, &w[0], &dec)) {
        char snip[64];
        tt__snippet(snip, sizeof snip, s, n);
        if (!st->bad++) {
            st->bad_first = lineno;
            snprintf(st->bad_msg, sizeof st->bad_msg, "%s", snip);
        }
        char ex[200];
        snprintf(ex, sizeof ex, "%s:%llu: expected \"frame;frame;... count\": %s", st->file,
                 (unsigned long long)lineno, snip);
        tt_stats_add(st->stats, "folded_unparsable_line", st->file, TT_SEV_WARN, 1, ex);
        return 0;
    }
    size_t stack_end = b1, e2 = b1;
    while (e2 > 0 && blank(s[e2 - 1]))
        e2--;
    size_t b2 = count_token(s, e2);
    int64_t w0;
    /* a count too big in the "before" column is refused on the first line too, where it
     * decides that the file is differential */
    int big = st->diff != 0 && b2 > 0 && b2 < e2 && count_too_big(s + b2, e2 - b2);
    int two = big || (b2 > 0 && b2 < e2 && !parse_count(s + b2, e2 - b2, &w0, &dec2));
    /* the first stack line decides: two numbers at the end make a differential file */
    if (st->diff < 0 && setup_threads(st, two))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    if (big)
        return count_error(st->file, s + b2, e2 - b2, lineno, err);
    int ncols = 1;
    if (st->diff) {
        ncols = 2;
        w[1] = w[0];
        w[0] = 0;
        if (two) {
            w[0] = w0;
            stack_end = b2;
        }
    } else {
        dec2 = 0;
    }
    if (dec || dec2)
        st->decimals++;
    return add_line(st, s, stack_end, w, ncols, lineno, err);
}

/* Which lines a chunk cuts into numbered fields: the ones that may be stacks. */
static int stack_line(const char *s, size_t n)
{
    tt__trim(&s, &n);
    return n && s[0] != '#';
}

static int folded_chunk(fstate *st, const tt__lchunk *c, uint64_t *lineno, tt_error *err)
{
    st->lmap.len = 0;
    uint32_t none = FIELD_UNSEEN;
    for (size_t i = 0; i < c->ndistinct; i++)
        if (!tt_vec_push(&st->lmap, &none))
            return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    st->chunk = c;
    const char *line = c->data, *ahead = c->data;
    size_t j = 0; /* ahead: the text of record j, up to PREFETCH_RECS records after i */
    for (size_t i = 0; i < c->nrecs; i++) {
        for (; j < c->nrecs && j < i + PREFETCH_RECS; j++) {
            tt__prefetch(ahead); /* its first field and its counts */
            tt__prefetch(ahead + (c->recs[j].len ? c->recs[j].len - 1 : 0));
            ahead += c->recs[j].len + 1;
        }
        const tt__lrec *r = &c->recs[i];
        st->fids = r->id != TT_NONE ? c->fids + r->id : NULL;
        st->raw = line;
        int rc = folded_line(st, line, r->len, ++*lineno, err);
        if (rc)
            return rc;
        line += r->len + 1;
    }
    return 0;
}

int tt_folded_import(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                     tt_error *err)
{
    fstate st;
    memset(&st, 0, sizeof st);
    st.p = p;
    st.o = o;
    st.stats = stats;
    st.file = tt_input_name(in);
    st.diff = -1;
    tt_vec_init(&st.frames, sizeof(uint32_t));
    st.cs = calloc(1, sizeof *st.cs);
    if (!st.cs)
        return tt_error_set(err, TT_ENOMEM, st.file, 0, 0, "out of memory");
    tt_profile_meta *m = tt_profile_meta_get(p);
    m->source_format = "folded";
    m->clock = "unknown";
    tt_profile_meta_timeless(p, o->source);
    uint64_t lineno = tt__input_lineno(in), total = 0, done = 0;
    size_t base = tt_profile_nsamples(p);
    int sized = tt_input_size(in, &total) != 0; /* unknown (gzip, a pipe): nothing to size */
    tt__lreader *rd = NULL;
    tt_vec_init(&st.lmap, sizeof(uint32_t));
    int rc = tt__lreader_open(&rd, in, o->jobs, o->chunk_bytes ? o->chunk_bytes : CHUNK_BYTES,
                              o->jobs < 0 ? NULL : stack_line, NULL, ';', err);
    while (!rc) {
        const tt__lchunk *c;
        rc = tt__lreader_next(rd, &c, err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc)
            break;
        rc = folded_chunk(&st, c, &lineno, err);
        done += c->len;
        if (!rc && !sized) {
            sized = 1;
            tt__profile_reserve_rest(p, tt_profile_nsamples(p) - base, done, total);
        }
    }
    tt__lreader_close(rd);
    if (!rc && st.decimals)
        tt_stats_add(stats, "folded_decimal_count", st.file, TT_SEV_INFO, (int64_t)st.decimals,
                     "decimal counts were rounded to integers");
    if (!rc && !st.lines)
        rc = tt_error_set(err, TT_EFORMAT, st.file, st.bad ? TT_LOC_LINE : 0, st.bad_first,
                          st.bad ? "not a folded stack line: expected \"frame;frame;... "
                                   "count\", found \"%s\""
                                 : "no stacks in folded input%s",
                          st.bad_msg);
    tt_vec_free(&st.frames);
    tt_vec_free(&st.lmap);
    tt__ltab_free(&st.names);
    free(st.cs);
    return rc;
}
