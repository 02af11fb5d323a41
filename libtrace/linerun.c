/* Runs of a chunk's lines (issue 16): the consecutive numbered lines a reader's member() picked,
 * e.g. the frame lines of one perf sample, numbered by their texts on the thread that read the
 * chunk, so that the reader, in input order, looks at each different run once per chunk. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

static int in_run(const tt__lchunk *c, size_t i)
{
    uint32_t id = c->recs[i].id;
    return id != TT_NONE && c->dist[id].member;
}

static int same_run(const tt__lchunk *c, const tt__lrun *r, size_t rec, size_t n)
{
    if (r->n != n)
        return 0;
    for (size_t k = 0; k < n; k++)
        if (c->recs[r->rec + k].id != c->recs[rec + k].id)
            return 0;
    return 1;
}

/* The chunk-local id of the run of records rec..rec+n-1 (bytes long, hash h), numbered on
 * first sight. */
static int run_id(tt__lchunk *c, uint32_t *id, size_t rec, size_t n, size_t bytes, uint64_t h)
{
    if ((c->nruns + 1) * 2 > c->nrslots &&
        tt__lslots_grow(&c->rslots, &c->nrslots, c->runs, c->nruns, sizeof *c->runs, 1024))
        return TT_ENOMEM;
    size_t j = (size_t)h & (c->nrslots - 1);
    while (c->rslots[j]) {
        tt__lrun *r = &c->runs[c->rslots[j] - 1];
        if (r->hash == h && same_run(c, r, rec, n)) {
            *id = c->rslots[j] - 1;
            r->rec = (uint32_t)rec;
            return 0;
        }
        j = (j + 1) & (c->nrslots - 1);
    }
    if (c->nruns == c->runcap) {
        tt__lrun *d = tt__lgrow(c->runs, &c->runcap, sizeof *d, 1024);
        if (!d)
            return TT_ENOMEM;
        c->runs = d;
    }
    c->runs[c->nruns] = (tt__lrun){h, (uint32_t)rec, (uint32_t)n, bytes};
    *id = (uint32_t)c->nruns++;
    c->rslots[j] = *id + 1;
    return 0;
}

static int add_occ(tt__lchunk *c, size_t off, uint32_t rec, uint32_t run)
{
    if (c->nocc == c->occap) {
        tt__locc *d = tt__lgrow(c->occ, &c->occap, sizeof *d, 1024);
        if (!d)
            return TT_ENOMEM;
        c->occ = d;
    }
    c->occ[c->nocc++] = (tt__locc){off, rec, run};
    return 0;
}

int tt__lchunk_runs(tt__lchunk *c)
{
    c->nruns = c->nocc = 0;
    if (c->nrecs >= UINT32_MAX)
        return 0; /* no runs: every line the slow way */
    size_t pos = 0;
    for (size_t i = 0; i < c->nrecs;) {
        if (!in_run(c, i)) {
            pos += (size_t)c->recs[i++].len + 1;
            continue;
        }
        size_t k = i, bytes = 0;
        uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (; k < c->nrecs && in_run(c, k); k++) {
            /* the lines' hashes are mixed already: a rotation keeps their order */
            h = ((h << 7) | (h >> 57)) ^ c->dist[c->recs[k].id].hash;
            bytes += (size_t)c->recs[k].len + 1;
        }
        uint32_t id;
        if (run_id(c, &id, i, k - i, bytes, tt__mix64(h + (k - i))) ||
            add_occ(c, pos, (uint32_t)i, id))
            return TT_ENOMEM;
        pos += bytes;
        i = k;
    }
    return 0;
}
