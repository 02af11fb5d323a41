/* `perf script` / simpleperf report_sample.py text reader, spec/samples.md section 2.2: the
 * input in chunks of lines (linechunk.c, split across threads), each line to perf_sample.c in
 * order; a frame line already seen skips to its frame. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "perf_sample_int.h"

typedef struct pdrv {
    tt__perf_asm a;
    tt__ltab lines; /* frame lines of all chunks; kind LINE_*, val the frame id */
    tt_vec lmap;    /* uint32_t per chunk-local line id: its id in lines */
    tt_buf blank;   /* a line with tabs as blanks */
    /* the chunk's runs of frame lines (linerun.c): per chunk-local run id where its frames
     * are in rfids once it was read line by line with every line a known frame, RUN_* else */
    tt_vec rmap;    /* uint32_t */
    tt_vec rfids;   /* uint32_t */
} pdrv;

/* rmap values besides offsets into rfids: not kept (yet); never (a line of it is no frame, or
 * one that depends on the memory maps) */
#define RUN_UNSEEN TT_NONE
#define RUN_SLOW (TT_NONE - 1)

/* Which lines a chunk numbers: the ones that may be frame lines (indented, or an address
 * first as simpleperf writes them). */
static int frame_candidate(const char *s, size_t n)
{
    return n && (s[0] == '\t' || s[0] == ' ' || (s[0] >= '0' && s[0] <= '9') ||
                 ((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'f'));
}

/* Which numbered lines form runs (linerun.c): frame lines by their text, as fast_frame finds
 * them (tabs and carriage returns are blanks). A hint only: the lines of a run are checked
 * before it is taken as a whole. Called from any thread. */
static int frame_member(const char *s, size_t n)
{
    char b[1024];
    if (n > sizeof b)
        return 0;
    for (size_t i = 0; i < n; i++)
        b[i] = s[i] == '\t' || s[i] == '\r' ? ' ' : s[i];
    const char *t = b;
    tt__trim(&t, &n);
    return tt__perf_frame_text(t, n);
}

enum { LINE_UNSEEN = 0, LINE_OTHER, LINE_FRAME, LINE_FRAME_MAPDEP };

/* A frame line inside a kept or skipped block, read by what the text gave the first time.
 * 1 done, 0 for the slow way, <0 an error. */
static int fast_frame(pdrv *d, const tt__lchunk *c, uint32_t lid, const char *line, size_t n,
                      uint64_t lineno, tt_error *err)
{
    const char *file = d->a.file;
    uint32_t *gid = &TT_VEC_AT(&d->lmap, uint32_t, lid);
    if (*gid == TT_NONE && tt__ltab_get(&d->lines, gid, c->dist[lid].hash, line, n))
        return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    tt__lent *e = &d->lines.ents[*gid];
    if (e->kind == LINE_UNSEEN) {
        const char *s;
        size_t sn;
        if (tt__perf_blank(&d->blank, line, n, &s, &sn))
            return tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
        e->kind = tt__perf_frame_text(s, sn) ? LINE_FRAME : LINE_OTHER;
    }
    if (e->kind == LINE_OTHER || (e->kind == LINE_FRAME_MAPDEP && d->a.have_maps))
        return 0;
    int mapdep, rc = tt__perf_asm_frame(&d->a, line, n, &e->val, &mapdep, lineno, err);
    if (mapdep)
        e->kind = LINE_FRAME_MAPDEP;
    return rc < 0 ? rc : 1;
}

/* Runs ahead of the one read whose ends (the blank line and the next header) are prefetched
 * (tt__prefetch). */
#define PREFETCH_RUNS 8

/* Frame lines from record i on (before end) whose frames are known (the text seen before and
 * not map dependent): what tt__perf_asm_frame does with each, without looking at them. The
 * records taken; *bytes their text with newlines. */
static size_t known_frames(pdrv *d, const tt__lchunk *c, size_t i, size_t end, size_t *bytes)
{
    tt__perf_asm *a = &d->a;
    *bytes = 0;
    if (!tt__perf_asm_plain(a))
        return 0; /* what the first frame line changes: the slow way */
    const uint32_t *lmap = d->lmap.data;
    const tt__lent *ents = d->lines.ents;
    tt_vec *f = &a->frames;
    size_t k = i;
    for (; k < end; k++) {
        uint32_t id = c->recs[k].id, g;
        if (id == TT_NONE || (g = lmap[id]) == TT_NONE || ents[g].kind != LINE_FRAME ||
            ents[g].val == TT_NONE || (f->len == f->cap && tt_vec_reserve(f, f->len + 1)))
            break;
        TT_VEC_AT(f, uint32_t, f->len++) = ents[g].val;
        *bytes += (size_t)c->recs[k].len + 1;
    }
    if (k > i) {
        a->have_frame = 1;
        a->cur_run = TT_NONE;
        a->last_inl = 0;
    }
    return k - i;
}

/* Record *i (its text at *line) and, when they are known frames, the ones after it before end;
 * *i, *line and *lineno move past them. */
static int some_lines(pdrv *d, const tt__lchunk *c, size_t *i, size_t end, const char **line,
                      uint64_t *lineno, tt_error *err)
{
    const tt__lrec *r = &c->recs[*i];
    int rc = 0;
    if (r->id != TT_NONE && tt__perf_asm_takes_frames(&d->a)) {
        size_t bytes, m = known_frames(d, c, *i, end, &bytes);
        if (m) {
            d->a.pf = *line + bytes - c->recs[*i + m - 1].len - 1;
            d->a.pfn = c->recs[*i + m - 1].len;
            *lineno += m;
            *line += bytes;
            *i += m;
            return 0;
        }
        rc = fast_frame(d, c, r->id, *line, r->len, ++*lineno, err);
    } else {
        ++*lineno;
    }
    if (!rc)
        rc = tt__perf_asm_line(&d->a, *line, r->len, *lineno, err);
    *line += r->len + 1;
    ++*i;
    return rc < 0 ? rc : 0;
}

/* After run occurrence o was read line by line from a state that takes frames as they are
 * (before: the frames then): keeps its frames when every line is a known frame. *g: their
 * offset in rfids; RUN_SLOW when that never will be; unchanged when a frame was not known yet
 * (a line first seen in a skipped event). */
static int keep_run(pdrv *d, const tt__lchunk *c, const tt__locc *o, size_t before, uint32_t *g)
{
    tt__perf_asm *a = &d->a;
    const tt__lrun *r = &c->runs[o->run];
    if (a->frames.len != before + r->n || d->rfids.len + r->n >= RUN_SLOW) {
        *g = RUN_SLOW;
        return 0;
    }
    const uint32_t *got = &TT_VEC_AT(&a->frames, uint32_t, before);
    for (size_t m = 0; m < r->n; m++) {
        const tt__lent *e =
            &d->lines.ents[TT_VEC_AT(&d->lmap, uint32_t, c->recs[o->rec + m].id)];
        if (e->kind != LINE_FRAME || e->val != got[m]) {
            if (e->kind != LINE_FRAME && e->kind != LINE_UNSEEN)
                *g = RUN_SLOW;
            return 0;
        }
    }
    if (tt_vec_reserve(&d->rfids, d->rfids.len + r->n))
        return TT_ENOMEM;
    *g = (uint32_t)d->rfids.len;
    memcpy(&TT_VEC_AT(&d->rfids, uint32_t, d->rfids.len), got, r->n * sizeof *got);
    d->rfids.len += r->n;
    a->cur_run = before ? TT_NONE : o->run;
    return 0;
}

/* The frame lines of run occurrence o: as a whole when the run was read before in this chunk
 * and the state takes its frames as they are, else line by line (kept when it can be). */
static int take_run(pdrv *d, const tt__lchunk *c, const tt__locc *o, const char **line,
                    uint64_t *lineno, tt_error *err)
{
    tt__perf_asm *a = &d->a;
    const tt__lrun *r = &c->runs[o->run];
    uint32_t *g = &TT_VEC_AT(&d->rmap, uint32_t, o->run);
    int whole = tt__perf_asm_takes_frames(a) && tt__perf_asm_plain(a);
    size_t before = a->frames.len;
    if (whole && *g < RUN_SLOW) {
        if (tt_vec_reserve(&a->frames, before + r->n))
            return tt_error_set(err, TT_ENOMEM, a->file, 0, 0, "out of memory");
        memcpy(&TT_VEC_AT(&a->frames, uint32_t, before), &TT_VEC_AT(&d->rfids, uint32_t, *g),
               r->n * sizeof(uint32_t));
        a->frames.len += r->n;
        a->have_frame = 1;
        a->last_inl = 0;
        a->pfn = c->recs[o->rec + r->n - 1].len;
        a->pf = *line + r->bytes - a->pfn - 1;
        a->cur_run = before ? TT_NONE : o->run;
        *lineno += r->n;
        *line += r->bytes;
        return 0;
    }
    for (size_t i = o->rec, end = i + r->n; i < end;) {
        int rc = some_lines(d, c, &i, end, line, lineno, err);
        if (rc)
            return rc;
    }
    if (whole && *g == RUN_UNSEEN && keep_run(d, c, o, before, g))
        return tt_error_set(err, TT_ENOMEM, a->file, 0, 0, "out of memory");
    return 0;
}

/* Per chunk: the lines' ids in lines, the runs' frames and stacks, all unknown. */
static int chunk_start(pdrv *d, const tt__lchunk *c)
{
    d->rfids.len = 0;
    d->a.cur_run = TT_NONE; /* a block across chunks: its run's leaf is the last chunk's */
    if (tt_vec_reserve(&d->lmap, c->ndistinct) || tt_vec_reserve(&d->rmap, c->nruns) ||
        tt_vec_reserve(&d->a.run_leaf, c->nruns))
        return TT_ENOMEM;
    d->lmap.len = c->ndistinct;
    d->rmap.len = d->a.run_leaf.len = c->nruns;
    if (c->ndistinct)
        memset(d->lmap.data, 0xff, c->ndistinct * sizeof(uint32_t)); /* TT_NONE */
    if (c->nruns) {
        memset(d->rmap.data, 0xff, c->nruns * sizeof(uint32_t));       /* RUN_UNSEEN */
        memset(d->a.run_leaf.data, 0xff, c->nruns * sizeof(uint32_t)); /* TT_NONE */
    }
    return 0;
}

static int perf_chunk(pdrv *d, const tt__lchunk *c, uint64_t *lineno, tt_error *err)
{
    if (chunk_start(d, c))
        return tt_error_set(err, TT_ENOMEM, d->a.file, 0, 0, "out of memory");
    /* the end of the input, inside a line: known before that line is read (a header cut
     * short names no event) */
    if (c->len && c->data[c->len - 1] != '\n')
        d->a.cut_line = *lineno + c->nrecs;
    const char *line = c->data;
    size_t o = 0;
    for (size_t i = 0; i < c->nrecs;) {
        if (o < c->nocc && c->occ[o].rec == i) {
            if (o + PREFETCH_RUNS < c->nocc) {
                const tt__locc *p = &c->occ[o + PREFETCH_RUNS];
                const char *e = c->data + p->off + c->runs[p->run].bytes;
                tt__prefetch(e);
                tt__prefetch(e + 64);
            }
            int rc = take_run(d, c, &c->occ[o], &line, lineno, err);
            if (rc)
                return rc;
            i += c->runs[c->occ[o++].run].n;
            continue;
        }
        size_t end = o < c->nocc ? c->occ[o].rec : c->nrecs;
        int rc = some_lines(d, c, &i, end, &line, lineno, err);
        if (rc)
            return rc;
    }
    d->a.cur_run = TT_NONE;
    if (d->a.pf && d->a.pf != d->a.pf_buf.data) { /* the chunk's lines are gone after it */
        d->a.pf_buf.len = 0;
        if (tt_buf_put(&d->a.pf_buf, d->a.pf, d->a.pfn))
            return tt_error_set(err, TT_ENOMEM, d->a.file, 0, 0, "out of memory");
        d->a.pf = d->a.pf_buf.data;
    }
    return 0;
}

/* The input's first bytes whose sample headers show its layout (tt__perf_layout_scan): 64
 * KiB, more while they hold fewer than TT__PERF_LAYOUT_HEADERS header lines (side-band
 * records first: a program that maps many files), up to 16 MiB. */
#define LAYOUT_PEEK (64 * 1024)
#define LAYOUT_PEEK_MAX (16 * 1024 * 1024)

int tt_perf_import(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                   tt_error *err)
{
    pdrv d;
    memset(&d, 0, sizeof d);
    tt_vec_init(&d.lmap, sizeof(uint32_t));
    tt_vec_init(&d.rmap, sizeof(uint32_t));
    tt_vec_init(&d.rfids, sizeof(uint32_t));
    const char *file = tt_input_name(in);
    int rc = tt__perf_asm_init(&d.a, p, o, stats, file);
    if (rc)
        rc = tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    const unsigned char *head;
    size_t hn, want = LAYOUT_PEEK, headers = 0;
    while (!rc && !(rc = tt_input_peek(in, &head, &hn, want, err))) {
        tt__perf_layout_scan(&d.a.lay, &d.a.tid_or_time, &headers, (const char *)head, hn);
        if (headers >= TT__PERF_LAYOUT_HEADERS || hn < want || want >= LAYOUT_PEEK_MAX)
            break;
        want *= 4;
    }
    uint64_t lineno = tt__input_lineno(in), total = 0, done = 0;
    size_t base = tt_profile_nsamples(p);
    int sized = tt_input_size(in, &total) != 0; /* unknown (gzip, a pipe): nothing to size */
    tt__lreader *rd = NULL;
    if (!rc)
        rc = tt__lreader_open(&rd, in, o->jobs, o->chunk_bytes,
                              o->jobs < 0 ? NULL : frame_candidate, frame_member, 0, err);
    while (!rc) {
        const tt__lchunk *c;
        rc = tt__lreader_next(rd, &c, err);
        if (rc == TT_DONE) {
            rc = tt__perf_asm_end(&d.a, lineno, err);
            break;
        }
        if (rc)
            break;
        rc = perf_chunk(&d, c, &lineno, err);
        done += c->len;
        if (!rc && !sized) {
            sized = 1;
            tt__profile_reserve_rest(p, tt_profile_nsamples(p) - base, done, total);
        }
    }
    tt__lreader_close(rd);
    tt__perf_asm_free(&d.a);
    tt_vec_free(&d.lmap);
    tt__ltab_free(&d.lines);
    tt_vec_free(&d.rmap);
    tt_vec_free(&d.rfids);
    tt_buf_free(&d.blank);
    return rc;
}
