/* Text input in chunks of whole lines for the sampled-stack readers (issue 16): threads read
 * chunks and number their distinct lines (perf) or line fields (folded); chunks are handed over
 * in file order, so a reader sees the lines tt_input_line gives, for any number of threads. */
#include "tt.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tt_int.h"

#define CHUNK_BYTES ((size_t)4 << 20)
/* With more than one thread: smaller chunks stay in the caches between the thread that reads
 * and numbers a chunk and the one that takes it (about 5 % less wall on 2 cores) */
#define CHUNK_BYTES_PAR ((size_t)2 << 20)
#define SCAN_STEP ((size_t)64 << 10)

/* Four independent lanes of eight bytes (rotate, xor, multiply, as intern.c does with one):
 * frame lines are 50 to 200 bytes and one lane would wait on its multiplies. */
static uint64_t lane(uint64_t h, uint64_t w)
{
    return (((h << 5) | (h >> 59)) ^ w) * 0x517cc1b727220a95ULL;
}

static uint64_t line_hash(const char *s, size_t n)
{
    uint64_t a = n, b = 0x9e3779b97f4a7c15ULL, c = 0xc2b2ae3d27d4eb4fULL, d = 0x165667b19e3779f9ULL;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, s + i, 32);
        a = lane(a, w[0]);
        b = lane(b, w[1]);
        c = lane(c, w[2]);
        d = lane(d, w[3]);
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        a = lane(a, w);
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, s + i, n - i);
        b = lane(b, w);
    }
    uint64_t h = a ^ ((b << 17) | (b >> 47)) ^ ((c << 31) | (c >> 33)) ^ ((d << 47) | (d >> 17));
    h ^= h >> 32;
    h *= 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

static void chunk_reset(tt__lchunk *c)
{
    c->len = c->nrecs = c->ndistinct = c->nfids = c->nruns = c->nocc = 0;
    c->too_long = 0;
    if (c->slots)
        memset(c->slots, 0, c->nslots * sizeof *c->slots);
    if (c->rslots)
        memset(c->rslots, 0, c->nrslots * sizeof *c->rslots);
}

static void chunk_free(tt__lchunk *c)
{
    free(c->data);
    free(c->recs);
    free(c->fids);
    free(c->dist);
    free(c->slots);
    free(c->runs);
    free(c->rslots);
    free(c->occ);
    memset(c, 0, sizeof *c);
}

static int grow_slots(tt__lchunk *c)
{
    return tt__lslots_grow(&c->slots, &c->nslots, c->dist, c->ndistinct, sizeof *c->dist, 4096);
}

/* The chunk-local id of the line s (offset off in the chunk), numbered on first sight. */
static int distinct(tt__lchunk *c, uint32_t *id, const char *s, size_t n, size_t off)
{
    if ((c->ndistinct + 1) * 2 > c->nslots && grow_slots(c))
        return TT_ENOMEM;
    uint64_t h = line_hash(s, n);
    size_t j = (size_t)h & (c->nslots - 1);
    while (c->slots[j]) {
        const tt__ldist *d = &c->dist[c->slots[j] - 1];
        if (d->hash == h && d->len == n && !memcmp(c->data + d->off, s, n)) {
            *id = c->slots[j] - 1;
            c->dist[*id].off = (uint32_t)off;
            return 0;
        }
        j = (j + 1) & (c->nslots - 1);
    }
    if (c->ndistinct == c->dcap) {
        void *d = tt__lgrow(c->dist, &c->dcap, sizeof *c->dist, 1024);
        if (!d)
            return TT_ENOMEM;
        c->dist = d;
    }
    c->dist[c->ndistinct] = (tt__ldist){h, (uint32_t)off, (uint32_t)n,
                                        {TT_NONE, TT_NONE, TT_NONE},
                                        c->member && c->member(s, n)};
    *id = (uint32_t)c->ndistinct++;
    c->slots[j] = *id + 1;
    return 0;
}

/* The text at s (offset off in the chunk, left bytes before the end of what it may span) when
 * it is the text of the chunk-local id k followed by term: its length + 1, else 0. */
static size_t same_text(tt__lchunk *c, uint32_t k, const char *s, size_t off, size_t left,
                        char term)
{
    tt__ldist *d = &c->dist[k];
    size_t l = d->len;
    if (l >= left || s[l] != term || memcmp(s, c->data + d->off, l))
        return 0;
    d->off = (uint32_t)off; /* the latest copy is the one in cache */
    return l + 1;
}

/* Stack lines repeat in runs: the caller of a frame is most often one of the few it had
 * before (recursion gives two or three), so trying those replaces the newline scan, the
 * hash and the table for most lines (and most frames of a folded line). The id of the text at
 * s among the successors of prev, moved to the front; *step its length + 1, 0 when none. */
static uint32_t successor(tt__lchunk *c, uint32_t prev, const char *s, size_t off, size_t left,
                          char term, size_t *step)
{
    uint32_t *nx = c->dist[prev].next;
    for (int i = 0; i < 3 && nx[i] != TT_NONE; i++) {
        uint32_t k = nx[i];
        if ((*step = same_text(c, k, s, off, left, term)) != 0) {
            for (; i > 0; i--)
                nx[i] = nx[i - 1];
            nx[0] = k;
            return k;
        }
    }
    *step = 0;
    return TT_NONE;
}

static void add_successor(tt__lchunk *c, uint32_t prev, uint32_t id)
{
    uint32_t *nx = c->dist[prev].next;
    int i = 0;
    while (i < 2 && nx[i] != id && nx[i] != TT_NONE)
        i++;
    for (; i > 0; i--)
        nx[i] = nx[i - 1];
    nx[0] = id;
}

static int add_rec(tt__lchunk *c, uint32_t len, uint32_t id)
{
    if (c->nrecs == c->rcap) {
        void *d = tt__lgrow(c->recs, &c->rcap, sizeof *c->recs, 65536);
        if (!d)
            return TT_ENOMEM;
        c->recs = d;
    }
    c->recs[c->nrecs++] = (tt__lrec){len, id};
    return 0;
}

static int add_fid(tt__lchunk *c, uint32_t v)
{
    if (c->nfids == c->fcap) {
        void *d = tt__lgrow(c->fids, &c->fcap, sizeof *c->fids, 65536);
        if (!d)
            return TT_ENOMEM;
        c->fids = d;
    }
    c->fids[c->nfids++] = v;
    return 0;
}

/* Fields mode: numbers the fields of the line s[0..l) (offset pos) that end with sep, i.e. all
 * but the last; *first: where their count, the last field's offset and their ids start in
 * fids. */
static int index_fields(tt__lchunk *c, const char *s, size_t l, size_t pos, char sep,
                        uint32_t *first)
{
    if (c->nfids >= UINT32_MAX - l - 1)
        return TT_ENOMEM;
    *first = (uint32_t)c->nfids;
    if (add_fid(c, 0) || add_fid(c, 0))
        return TT_ENOMEM;
    uint32_t prev = TT_NONE, k = 0, id;
    size_t p = 0, step;
    for (;; k++, prev = id, p += step) {
        if (prev != TT_NONE &&
            (id = successor(c, prev, s + p, pos + p, l - p, sep, &step)) != TT_NONE) {
            if (add_fid(c, id))
                return TT_ENOMEM;
            continue;
        }
        const char *q = memchr(s + p, sep, l - p);
        if (!q)
            break;
        step = (size_t)(q - (s + p)) + 1;
        if (distinct(c, &id, s + p, step - 1, pos + p) || add_fid(c, id))
            return TT_ENOMEM;
        if (prev != TT_NONE)
            add_successor(c, prev, id);
    }
    c->fids[*first] = k;
    c->fids[*first + 1] = (uint32_t)p;
    return 0;
}

/* Splits data into line records and numbers the lines want() picks, or with sep their fields
 * (index_fields). A line longer than the cap ends the records (too_long). */
static int chunk_index(tt__lchunk *c, tt__lwant_fn want, char sep, size_t line_max)
{
    size_t pos = 0;
    uint32_t prev = TT_NONE; /* the id of the line before, when it had one */
    while (pos < c->len) {
        const char *s = c->data + pos;
        if (prev != TT_NONE) {
            size_t step;
            uint32_t k = successor(c, prev, s, pos, c->len - pos, '\n', &step);
            if (k != TT_NONE) {
                if (add_rec(c, (uint32_t)(step - 1), k))
                    return TT_ENOMEM;
                prev = k;
                pos += step;
                continue;
            }
        }
        const char *nl = memchr(s, '\n', c->len - pos);
        size_t l = nl ? (size_t)(nl - s) : c->len - pos;
        if (l > line_max || l >= UINT32_MAX) {
            c->too_long = 1;
            return 0;
        }
        uint32_t id = TT_NONE;
        if (want && want(s, l) &&
            (sep ? index_fields(c, s, l, pos, sep, &id) : distinct(c, &id, s, l, pos)))
            return TT_ENOMEM;
        if (add_rec(c, (uint32_t)l, id))
            return TT_ENOMEM;
        if (!sep && prev != TT_NONE && id != TT_NONE)
            add_successor(c, prev, id);
        prev = sep ? TT_NONE : id;
        pos += l + 1;
    }
    return c->member ? tt__lchunk_runs(c) : 0;
}

static int chunk_reserve(tt__lchunk *c, size_t n)
{
    if (n <= c->cap)
        return 0;
    char *d = realloc(c->data, n);
    if (!d)
        return TT_ENOMEM;
    c->data = d;
    c->cap = n;
    return 0;
}

/* ---- parallel reading of a plain file ---- */

enum { SLOT_EMPTY, SLOT_BUSY, SLOT_READY };

typedef struct slot {
    tt__lchunk c;   /* c.data: the chunk's bytes, read by fill_slot */
    int state, rc;
    size_t index; /* chunk number */
    int err_no;
} slot;

struct tt__lreader {
    tt_input *in;
    tt__lwant_fn want, member;
    char sep;
    size_t line_max;
    uint64_t lines; /* lines handed over, up to the end of the current chunk */
    int pending_too_long, done;
    /* stream mode */
    tt__lchunk sc;
    char *carry;
    size_t carry_len, carry_cap;
    /* file mode */
    int fd, jobs;
    uint64_t base, size, chunk;
    size_t nchunks, next_take, next_give;
    slot *slots;
    size_t nslots;
    pthread_t *threads;
    size_t nthreads;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
};

static int pread_all(int fd, char *d, size_t n, uint64_t off, size_t *got)
{
    *got = 0;
    while (*got < n) {
        ssize_t r = pread(fd, d + *got, n - *got, (off_t)(off + *got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno ? errno : EIO;
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return 0;
}

/* The first line start at or after the nominal offset of chunk k: where the chunk begins.
 * Not further than the cap past it: a longer line fails in the chunk where it starts. */
static int boundary(tt__lreader *r, size_t k, uint64_t *at)
{
    if (k == 0) {
        *at = r->base;
        return 0;
    }
    if (k >= r->nchunks) {
        *at = r->size;
        return 0;
    }
    uint64_t p = r->base + (uint64_t)k * r->chunk - 1, limit = p + r->line_max + 2;
    char buf[4096];
    while (p < r->size && p < limit) {
        size_t got;
        int e = pread_all(r->fd, buf, sizeof buf, p, &got);
        if (e)
            return e;
        if (!got)
            break;
        const char *nl = memchr(buf, '\n', got);
        if (nl) {
            *at = p + (uint64_t)(nl - buf) + 1;
            return 0;
        }
        p += got;
    }
    *at = p < r->size ? limit : r->size;
    return 0;
}

/* Reads the chunk's bytes into the slot's own buffer (reused from chunk to chunk). The file is
 * read, not mapped: a file that shrinks while it is read is a read error, never a SIGBUS. */
static int fill_slot(tt__lreader *r, slot *s)
{
    uint64_t a, b;
    int e = boundary(r, s->index, &a);
    if (!e)
        e = boundary(r, s->index + 1, &b);
    if (e) {
        s->err_no = e;
        return TT_EIO;
    }
    chunk_reset(&s->c);
    if (b <= a)
        return 0;
    if (b - a > SIZE_MAX / 2 || chunk_reserve(&s->c, (size_t)(b - a)))
        return TT_ENOMEM;
    size_t got;
    if ((e = pread_all(r->fd, s->c.data, (size_t)(b - a), a, &got)) != 0 || got != b - a) {
        s->err_no = e ? e : EIO; /* shorter than when the chunks were cut: the file shrank */
        return TT_EIO;
    }
    s->c.len = (size_t)(b - a);
    return chunk_index(&s->c, r->want, r->sep, r->line_max);
}

static void *worker(void *arg)
{
    tt__lreader *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->stop && r->next_take < r->nchunks &&
               r->slots[r->next_take % r->nslots].state != SLOT_EMPTY)
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->stop || r->next_take >= r->nchunks)
            break;
        slot *s = &r->slots[r->next_take % r->nslots];
        s->index = r->next_take++;
        s->state = SLOT_BUSY;
        pthread_mutex_unlock(&r->mu);
        int rc = fill_slot(r, s);
        pthread_mutex_lock(&r->mu);
        s->rc = rc;
        s->state = SLOT_READY;
        pthread_cond_broadcast(&r->cv);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static int start_file(tt__lreader *r, int jobs, tt_error *err)
{
    r->nchunks = (size_t)((r->size - r->base + r->chunk - 1) / r->chunk);
    r->nslots = jobs > 1 ? (size_t)jobs * 2 : 1;
    r->slots = calloc(r->nslots, sizeof *r->slots);
    r->threads = calloc((size_t)jobs, sizeof *r->threads);
    if (!r->slots || !r->threads)
        return tt_error_set(err, TT_ENOMEM, tt_input_name(r->in), 0, 0, "out of memory");
    for (size_t i = 0; i < r->nslots; i++)
        r->slots[i].c.member = r->member;
    if (pthread_mutex_init(&r->mu, NULL) || pthread_cond_init(&r->cv, NULL))
        return tt_error_set(err, TT_ENOMEM, tt_input_name(r->in), 0, 0, "cannot start threads");
    r->jobs = jobs;
    /* jobs - 1 workers: the caller's thread is the last one (file_next) */
    for (int i = 0; i < jobs - 1; i++) {
        if (pthread_create(&r->threads[i], NULL, worker, r))
            break;
        r->nthreads++;
    }
    return 0;
}

int tt__lreader_open(tt__lreader **out, tt_input *in, int jobs, size_t chunk_bytes,
                     tt__lwant_fn want, tt__lwant_fn member, char sep, tt_error *err)
{
    tt__lreader *r = calloc(1, sizeof *r);
    if (!r)
        return tt_error_set(err, TT_ENOMEM, tt_input_name(in), 0, 0, "out of memory");
    r->in = in;
    r->want = want;
    r->sep = sep;
    r->line_max = tt_input_line_max(in);
    r->member = sep ? NULL : member;
    r->sc.member = r->member;
    r->fd = -1;
    r->lines = tt__input_lineno(in);
    r->chunk = chunk_bytes ? chunk_bytes : jobs > 1 ? CHUNK_BYTES_PAR : CHUNK_BYTES;
    *out = r;
    if (jobs >= 1 && tt__input_take_file(in, &r->fd, &r->base, &r->size) == 0) {
        if (jobs > 64)
            jobs = 64;
        int rc = start_file(r, jobs, err);
        if (rc) {
            tt__lreader_close(r);
            *out = NULL;
        }
        return rc;
    }
    return 0;
}

void tt__lreader_close(tt__lreader *r)
{
    if (!r)
        return;
    if (r->jobs) {
        pthread_mutex_lock(&r->mu);
        r->stop = 1;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
        for (size_t i = 0; i < r->nthreads; i++)
            pthread_join(r->threads[i], NULL);
        pthread_mutex_destroy(&r->mu);
        pthread_cond_destroy(&r->cv);
    }
    for (size_t i = 0; r->slots && i < r->nslots; i++) {
        chunk_free(&r->slots[i].c);
    }
    free(r->slots);
    free(r->threads);
    chunk_free(&r->sc);
    free(r->carry);
    free(r);
}

static int too_long(tt__lreader *r, tt_error *err)
{
    char cap[32];
    tt_input_line_max_text(cap, sizeof cap, r->line_max);
    return tt_error_set(err, TT_ELIMIT, tt_input_name(r->in), TT_LOC_LINE, r->lines + 1,
                        "line longer than %s", cap);
}

/* Stream mode: read through tt_input (gzip, pipes, content hash), cut after the last
 * newline, keep the rest for the next chunk. */
static int stream_next(tt__lreader *r, tt_error *err)
{
    tt__lchunk *c = &r->sc;
    chunk_reset(c);
    if (chunk_reserve(c, r->chunk + r->carry_len + 1))
        return tt_error_set(err, TT_ENOMEM, tt_input_name(r->in), 0, 0, "out of memory");
    if (r->carry_len)
        memcpy(c->data, r->carry, r->carry_len);
    c->len = r->carry_len;
    r->carry_len = 0;
    int eof = 0;
    size_t last = 0; /* 1 + the offset of the last newline, 0 when none yet */
    for (;;) {
        size_t got = 0, old = c->len;
        if (c->cap - c->len < SCAN_STEP && chunk_reserve(c, c->cap * 2))
            return tt_error_set(err, TT_ENOMEM, tt_input_name(r->in), 0, 0, "out of memory");
        size_t want = c->cap - c->len < r->chunk ? c->cap - c->len : r->chunk;
        int rc = tt_input_read(r->in, c->data + c->len, want, &got, err);
        if (rc)
            return rc;
        c->len += got;
        eof = got == 0;
        /* the last newline of what was read; earlier data had none when we are still here */
        for (size_t i = c->len; i > old; i--)
            if (c->data[i - 1] == '\n') {
                last = i;
                break;
            }
        if (eof || (last && c->len >= r->chunk))
            break;
        if (!last && c->len > r->line_max + 1)
            break; /* chunk_index finds the line too long */
    }
    if (!eof && last) {
        size_t keep = c->len - last;
        if (keep > r->carry_cap) {
            char *d = realloc(r->carry, keep);
            if (!d)
                return tt_error_set(err, TT_ENOMEM, tt_input_name(r->in), 0, 0, "out of memory");
            r->carry = d;
            r->carry_cap = keep;
        }
        if (keep)
            memcpy(r->carry, c->data + last, keep);
        r->carry_len = keep;
        c->len -= keep;
    }
    r->done = eof;
    if (chunk_index(c, r->want, r->sep, r->line_max))
        return tt_error_set(err, TT_ENOMEM, tt_input_name(r->in), 0, 0, "out of memory");
    return 0;
}

/* The next chunk in file order. While it is not ready the caller maps and numbers the next
 * chunk nobody took (with one job it does them all), so --jobs N keeps N threads busy. */
static int file_next(tt__lreader *r, const tt__lchunk **out, tt_error *err)
{
    pthread_mutex_lock(&r->mu);
    if (r->next_give) { /* hand the previous slot back */
        r->slots[(r->next_give - 1) % r->nslots].state = SLOT_EMPTY;
        pthread_cond_broadcast(&r->cv);
    }
    if (r->next_give >= r->nchunks) {
        pthread_mutex_unlock(&r->mu);
        return TT_DONE;
    }
    slot *s = &r->slots[r->next_give % r->nslots];
    while (s->state != SLOT_READY || s->index != r->next_give) {
        slot *h = &r->slots[r->next_take % r->nslots];
        if (r->next_take < r->nchunks && h->state == SLOT_EMPTY) {
            h->index = r->next_take++;
            h->state = SLOT_BUSY;
            pthread_mutex_unlock(&r->mu);
            int rc = fill_slot(r, h);
            pthread_mutex_lock(&r->mu);
            h->rc = rc;
            h->state = SLOT_READY;
            pthread_cond_broadcast(&r->cv);
            continue;
        }
        pthread_cond_wait(&r->cv, &r->mu);
    }
    pthread_mutex_unlock(&r->mu);
    r->next_give++;
    tt__input_progress(r->in, r->next_give >= r->nchunks
                                  ? r->size
                                  : r->base + (uint64_t)r->next_give * r->chunk,
                       r->next_give >= r->nchunks);
    if (s->rc == TT_EIO)
        return tt_error_set(err, TT_EIO, tt_input_name(r->in), 0, 0, "read error: %s",
                            strerror(s->err_no));
    if (s->rc)
        return tt_error_set(err, s->rc, tt_input_name(r->in), 0, 0, "out of memory");
    *out = &s->c;
    return 0;
}

int tt__lreader_next(tt__lreader *r, const tt__lchunk **c, tt_error *err)
{
    if (r->pending_too_long)
        return too_long(r, err);
    const tt__lchunk *got = NULL;
    int rc;
    if (r->jobs) {
        rc = file_next(r, &got, err);
    } else if (r->done) {
        rc = TT_DONE;
    } else {
        rc = stream_next(r, err);
        got = &r->sc;
    }
    if (rc)
        return rc;
    r->pending_too_long = got->too_long;
    r->lines += got->nrecs;
    *c = got;
    return 0;
}

/* ---- lines seen in any chunk: text to a dense id, with the chunk's hash ---- */

uint64_t tt__ltab_hash(const char *s, size_t n) { return line_hash(s, n); }

int tt__ltab_get(tt__ltab *t, uint32_t *id, uint64_t h, const char *s, size_t n)
{
    if ((t->len + 1) * 2 > t->nslots) {
        size_t ns = t->nslots ? t->nslots * 2 : 4096;
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl)
            return TT_ENOMEM;
        for (size_t i = 0; i < t->len; i++) {
            size_t j = (size_t)t->ents[i].hash & (ns - 1);
            while (sl[j])
                j = (j + 1) & (ns - 1);
            sl[j] = (uint32_t)i + 1;
        }
        free(t->slots);
        t->slots = sl;
        t->nslots = ns;
    }
    size_t j = (size_t)h & (t->nslots - 1);
    while (t->slots[j]) {
        const tt__lent *e = &t->ents[t->slots[j] - 1];
        if (e->hash == h && e->len == n && !memcmp(e->s, s, n)) {
            *id = t->slots[j] - 1;
            return 0;
        }
        j = (j + 1) & (t->nslots - 1);
    }
    if (t->len == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        tt__lent *e = realloc(t->ents, cap * sizeof *e);
        if (!e)
            return TT_ENOMEM;
        t->ents = e;
        t->cap = cap;
    }
    if (!t->arena && !(t->arena = tt_arena_new()))
        return TT_ENOMEM;
    const char *c = tt_arena_strndup(t->arena, s, n);
    if (!c || t->len >= UINT32_MAX - 1)
        return TT_ENOMEM;
    t->ents[t->len] = (tt__lent){h, c, (uint32_t)n, 0, TT_NONE};
    *id = (uint32_t)t->len++;
    t->slots[j] = *id + 1;
    return 0;
}

void tt__ltab_free(tt__ltab *t)
{
    tt_arena_free(t->arena);
    free(t->ents);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
