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
} pdrv;

/* Which lines a chunk numbers: the ones that may be frame lines (indented, or an address
 * first as simpleperf writes them). */
static int frame_candidate(const char *s, size_t n)
{
    return n && (s[0] == '\t' || s[0] == ' ' || (s[0] >= '0' && s[0] <= '9') ||
                 ((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'f'));
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

/* Records ahead of the one read whose text is prefetched (tt__prefetch). */
#define PREFETCH_RECS 256

/* Frame lines from record i on whose frames are known (the text seen before and not map
 * dependent): what tt__perf_asm_frame does with each, without looking at them. The records
 * taken; *bytes their text with newlines. */
static size_t known_frames(pdrv *d, const tt__lchunk *c, size_t i, size_t *bytes)
{
    tt__perf_asm *a = &d->a;
    *bytes = 0;
    if (!a->keep || a->inline_only || a->addr_frames < 0)
        return 0; /* what the first frame line changes: the slow way */
    const uint32_t *lmap = d->lmap.data;
    const tt__lent *ents = d->lines.ents;
    tt_vec *f = &a->frames;
    size_t k = i;
    for (; k < c->nrecs; k++) {
        uint32_t id = c->recs[k].id, g;
        if (id == TT_NONE || (g = lmap[id]) == TT_NONE || ents[g].kind != LINE_FRAME ||
            ents[g].val == TT_NONE || (f->len == f->cap && tt_vec_reserve(f, f->len + 1)))
            break;
        TT_VEC_AT(f, uint32_t, f->len++) = ents[g].val;
        *bytes += (size_t)c->recs[k].len + 1;
    }
    if (k > i)
        a->have_frame = 1;
    return k - i;
}

static int perf_chunk(pdrv *d, const tt__lchunk *c, uint64_t *lineno, tt_error *err)
{
    d->lmap.len = 0;
    uint32_t none = TT_NONE;
    for (size_t i = 0; i < c->ndistinct; i++)
        if (!tt_vec_push(&d->lmap, &none))
            return tt_error_set(err, TT_ENOMEM, d->a.file, 0, 0, "out of memory");
    const char *line = c->data, *ahead = c->data;
    size_t j = 0; /* ahead: the text of record j, up to PREFETCH_RECS records after i */
    for (size_t i = 0; i < c->nrecs; i++) {
        for (; j < c->nrecs && j < i + PREFETCH_RECS; j++) {
            if (c->recs[j].id == TT_NONE ||
                TT_VEC_AT(&d->lmap, uint32_t, c->recs[j].id) == TT_NONE)
                tt__prefetch(ahead);
            ahead += c->recs[j].len + 1;
        }
        const tt__lrec *r = &c->recs[i];
        int rc = 0;
        if (r->id != TT_NONE && tt__perf_asm_takes_frames(&d->a)) {
            size_t bytes, m = known_frames(d, c, i, &bytes);
            if (m) {
                *lineno += m;
                line += bytes;
                i += m - 1;
                continue;
            }
            rc = fast_frame(d, c, r->id, line, r->len, ++*lineno, err);
        } else {
            ++*lineno;
        }
        if (!rc)
            rc = tt__perf_asm_line(&d->a, line, r->len, *lineno, err);
        if (rc < 0)
            return rc;
        line += r->len + 1;
    }
    return 0;
}

int tt_perf_import(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                   tt_error *err)
{
    pdrv d;
    memset(&d, 0, sizeof d);
    tt_vec_init(&d.lmap, sizeof(uint32_t));
    const char *file = tt_input_name(in);
    int rc = tt__perf_asm_init(&d.a, p, o, stats, file);
    if (rc)
        rc = tt_error_set(err, TT_ENOMEM, file, 0, 0, "out of memory");
    uint64_t lineno = tt__input_lineno(in);
    tt__lreader *rd = NULL;
    if (!rc)
        rc = tt__lreader_open(&rd, in, o->jobs, o->chunk_bytes,
                              o->jobs < 0 ? NULL : frame_candidate, 0, err);
    while (!rc) {
        const tt__lchunk *c;
        rc = tt__lreader_next(rd, &c, err);
        if (rc == TT_DONE) {
            rc = tt__perf_asm_end(&d.a, lineno, err);
            break;
        }
        if (!rc)
            rc = perf_chunk(&d, c, &lineno, err);
    }
    tt__lreader_close(rd);
    tt__perf_asm_free(&d.a);
    tt_vec_free(&d.lmap);
    tt__ltab_free(&d.lines);
    tt_buf_free(&d.blank);
    return rc;
}
