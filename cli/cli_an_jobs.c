/* analyze --jobs: worker threads parse inputs into recorded rows (tdb_rec_new) while the one
 * writer replays them in input order (storage.md 5.1 and 9), so the database, the warnings
 * and the summary are those of --jobs 1. 2 x jobs inputs are in flight, more while they hold
 * little memory (FLIGHT_BYTES, FLIGHT_JOBS below). The writer does not wait idle for a
 * job: it runs queued jobs itself (a worker's context of its own). It counts as one of the
 * jobs: jobs - 1 worker threads, so that N jobs keep N cores busy and the writer, whose
 * work is the run's serial part, never waits for a core behind the parsers. */
#include "cli_an.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Inputs in flight beyond 2 x jobs: while the memory they hold stays under FLIGHT_BYTES (an
 * input's size until it is parsed, then the size of its recorded rows), up to FLIGHT_JOBS x
 * jobs of them. A writer slower than the parsers (long method-beat or perf inputs) then
 * finds the next inputs parsed when it gets to them, and the parsers find work while it
 * writes instead of waiting for a free slot. */
#define FLIGHT_BYTES ((uint64_t)64 << 20)
#define FLIGHT_JOBS 128

typedef struct acc_delta {
    uint32_t id;
    cli_an_acc acc;
} acc_delta;

enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

struct cli_an_job {
    /* in */
    char *path;
    tt_kind kind;
    cli_an_trace t;
    char *sha256, *content, *key, *options;
    /* out */
    uint64_t bytes;   /* what it holds: the input's size, then its recorded rows' if larger */
    int state, rc;
    int opened;       /* parse set a->cur_path (the input could be opened) */
    tt_error err;
    tdb_db *rec;
    tt_buf msgs;      /* diagnostics printed while parsing */
    tt_stats *stats;  /* counted warnings (the run's stats sink) */
    uint64_t unknown_ids;
    tt_vec acc;       /* acc_delta: this input's per-method slice totals */
    struct cli_an_job *next;  /* queue */
    struct cli_an_job *other; /* every job not released yet */
};

typedef struct worker {
    cli_an_pool *pool;
    pthread_t th;
    int started;
    cli_an a;      /* the run's analysis state with its own caches and no database */
    cli_ctx ctx;   /* its stats sink is the job's */
    tt_vec acc_ids; /* Matrix ids whose a.acc entry is not zero */
} worker;

struct cli_an_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    cli_an_job *head, *tail; /* queued, oldest first */
    cli_an_job *all;         /* submitted and not released */
    int stop;
    int idle;         /* workers waiting for work */
    int writer_waits; /* the writer waits for a job to finish */
    size_t in_flight, max_in_flight;
    uint64_t in_bytes; /* the memory the inputs in flight hold (cli_an_job.bytes) */
    cli_an_parse_fn parse;
    worker *w;
    int nw;       /* workers set up: the threads, then self */
    worker *self; /* the writer's own context, for jobs it runs instead of waiting */
};

static void job_free(cli_an_job *j)
{
    if (!j)
        return;
    free(j->path);
    free(j->sha256);
    free(j->content);
    free(j->key);
    free(j->options);
    tdb_close(j->rec);
    tt_buf_free(&j->msgs);
    tt_stats_free(j->stats);
    tt_vec_free(&j->acc);
    free(j);
}

/* Moves the slice totals of the last input out of the worker's table into the job. */
static void take_acc(worker *w, cli_an_job *j)
{
    for (size_t i = 0; i < w->acc_ids.len; i++) {
        uint32_t id = TT_VEC_AT(&w->acc_ids, uint32_t, i);
        acc_delta d = {id, w->a.acc[id]};
        memset(&w->a.acc[id], 0, sizeof w->a.acc[id]);
        if (!tt_vec_push(&j->acc, &d) && !j->rc)
            j->rc = tt_error_set(&j->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    w->acc_ids.len = 0;
}

static void run_job(worker *w, cli_an_job *j)
{
    cli_msg_capture(&j->msgs);
    j->stats = tt_stats_new();
    j->rc = j->stats ? tdb_rec_new(&j->rec, &j->err)
                     : tt_error_set(&j->err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    if (!j->rc) {
        w->ctx.stats = j->stats;
        w->a.db = j->rec;
        w->a.cur_path = NULL;
        w->a.unknown_ids = 0;
        j->rc = w->pool->parse(&w->a, j->path, j->kind, &j->t, &j->err);
        j->opened = w->a.cur_path != NULL;
        j->unknown_ids = w->a.unknown_ids;
        w->a.db = NULL;
        w->ctx.stats = NULL;
    }
    take_acc(w, j);
    tdb_rec_trim(j->rec); /* in flight until the writer replays it */
    cli_msg_capture(NULL);
}

/* Charges parsed job j with its recorded rows when they outweigh its input (p->mu held). */
static void recharge(cli_an_pool *p, cli_an_job *j)
{
    uint64_t rec = j->rec ? tdb_rec_bytes(j->rec) : 0;
    if (rec > j->bytes) {
        p->in_bytes += rec - j->bytes;
        j->bytes = rec;
    }
}

/* Takes queued job j off the queue (p->mu held). */
static void unqueue(cli_an_pool *p, cli_an_job *j)
{
    cli_an_job *prev = NULL;
    for (cli_an_job *q = p->head; q != j; q = q->next)
        prev = q;
    if (prev)
        prev->next = j->next;
    else
        p->head = j->next;
    if (p->tail == j)
        p->tail = prev;
    j->next = NULL;
}

static void *work(void *arg)
{
    worker *w = arg;
    cli_an_pool *p = w->pool;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->stop) {
            p->idle++;
            pthread_cond_wait(&p->work, &p->mu);
            p->idle--;
        }
        if (p->stop)
            break;
        cli_an_job *j = p->head;
        unqueue(p, j);
        j->state = JOB_RUNNING;
        pthread_mutex_unlock(&p->mu);
        run_job(w, j);
        pthread_mutex_lock(&p->mu);
        recharge(p, j);
        j->state = JOB_DONE;
        if (p->writer_waits)
            pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void worker_free(worker *w)
{
    free(w->a.names);
    free(w->a.acc);
    tt_arena_free(w->a.arena);
    tt_buf_free(&w->a.tmp);
    tt_vec_free(&w->acc_ids);
}

int cli_an_pool_start(cli_an_pool **out, const cli_an *a, int jobs, cli_an_parse_fn parse)
{
    *out = NULL;
    cli_an_pool *p = calloc(1, sizeof *p);
    worker *w = calloc((size_t)jobs + 1, sizeof *w);
    if (!p || !w) {
        free(p);
        free(w);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->w = w;
    p->parse = parse;
    p->max_in_flight = 2 * (size_t)jobs;
    int threads = jobs > 1 ? jobs - 1 : 1; /* the writer is the last job */
    for (int i = 0; i <= threads; i++) {
        w[i].pool = p;
        w[i].a = *a;
        w[i].a.db = NULL;
        w[i].a.cli = &w[i].ctx;
        w[i].ctx = *a->cli;
        w[i].ctx.stats = NULL;
        w[i].a.tmp = (tt_buf){0};
        w[i].a.arena = tt_arena_new();
        w[i].a.names = calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof *w[i].a.names);
        w[i].a.acc = calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof *w[i].a.acc);
        tt_vec_init(&w[i].acc_ids, sizeof(uint32_t));
        w[i].a.acc_ids = &w[i].acc_ids;
        p->nw = i + 1;
        if (!w[i].a.arena || !w[i].a.names || !w[i].a.acc ||
            (i < threads && pthread_create(&w[i].th, NULL, work, &w[i]))) {
            cli_errorf("cannot start %d analysis threads", threads);
            cli_an_pool_stop(p);
            return CLI_BAD;
        }
        w[i].started = i < threads;
    }
    p->self = &w[threads];
    *out = p;
    return 0;
}

void cli_an_pool_stop(cli_an_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nw; i++) {
        if (p->w[i].started)
            pthread_join(p->w[i].th, NULL);
        worker_free(&p->w[i]);
    }
    /* jobs not released: the run stopped at an earlier input */
    for (cli_an_job *j = p->all, *n; j; j = n) {
        n = j->other;
        job_free(j);
    }
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p->w);
    free(p);
}

int cli_an_pool_full(const cli_an_pool *p)
{
    return p->in_flight >= p->max_in_flight &&
           (p->in_flight >= FLIGHT_JOBS / 2 * p->max_in_flight || p->in_bytes >= FLIGHT_BYTES);
}

/* Waits until a worker finishes a job (p->mu held; the writer). */
static void wait_done(cli_an_pool *p)
{
    p->writer_waits++;
    pthread_cond_wait(&p->done, &p->mu);
    p->writer_waits--;
}

static char *dup_or_null(const char *s, int *oom)
{
    char *d = s ? strdup(s) : NULL;
    *oom |= s && !d;
    return d;
}

cli_an_job *cli_an_pool_submit(cli_an_pool *p, const char *path, tt_kind kind,
                               const cli_an_trace *t)
{
    cli_an_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    int oom = 0;
    j->path = dup_or_null(path, &oom);
    j->kind = kind;
    j->sha256 = dup_or_null(t->sha256, &oom);
    j->content = dup_or_null(t->content_sha256, &oom);
    j->key = dup_or_null(t->import_key, &oom);
    j->options = dup_or_null(t->options, &oom);
    tt_vec_init(&j->acc, sizeof(acc_delta));
    if (oom) {
        job_free(j);
        return NULL;
    }
    j->t = *t;
    j->t.path = j->path;
    j->t.sha256 = j->sha256;
    j->t.content_sha256 = j->content;
    j->t.import_key = j->key;
    j->t.options = j->options;
    j->bytes = t->bytes;
    pthread_mutex_lock(&p->mu);
    if (p->tail)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    j->other = p->all;
    p->all = j;
    p->in_flight++;
    p->in_bytes += j->bytes;
    if (p->idle)
        pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
    return j;
}

/* Replays job j (submitted for this input) into a: its diagnostics, counted warnings and
 * rows, in the order --jobs 1 produces them. Returns the import's result: the parse's error,
 * or the database's. */
int cli_an_pool_replay(cli_an_pool *p, cli_an_job *j, cli_an *a, cli_an_trace *t,
                       tt_error *err)
{
    pthread_mutex_lock(&p->mu);
    while (j->state != JOB_DONE) {
        /* rather than wait: run j itself when no worker took it yet, else the oldest queued
         * job; its rows are recorded and replayed like a worker's */
        cli_an_job *k = j->state == JOB_QUEUED ? j : p->head;
        if (!k) {
            wait_done(p);
            continue;
        }
        unqueue(p, k);
        k->state = JOB_RUNNING;
        pthread_mutex_unlock(&p->mu);
        run_job(p->self, k);
        pthread_mutex_lock(&p->mu);
        recharge(p, k);
        k->state = JOB_DONE;
    }
    pthread_mutex_unlock(&p->mu);
    if (j->msgs.len)
        cli_stderrf("%s", j->msgs.data);
    for (size_t i = 0; i < tt_stats_count(j->stats); i++) {
        const tt_stat *x = tt_stats_get(j->stats, i);
        tt_stats_add_stat(a->cli->stats, x);
    }
    a->unknown_ids += j->unknown_ids;
    if (j->opened)
        a->cur_path = t->path;
    for (size_t i = 0; i < j->acc.len; i++) {
        const acc_delta *d = &TT_VEC_AT(&j->acc, acc_delta, i);
        if (!a->acc[d->id].calls && d->acc.calls && a->acc_ids)
            tt_vec_push(a->acc_ids, &d->id); /* out of memory: the summary misses it */
        a->acc[d->id].calls += d->acc.calls;
        a->acc[d->id].self_ms += d->acc.self_ms;
        a->acc[d->id].total_ms += d->acc.total_ms;
    }
    /* a failed parse's rows are replayed too: --keep-going rolls them back exactly as when
     * they were written directly */
    int rc = j->rec ? tdb_rec_replay(a->db, j->rec, err) : 0;
    if (rc)
        return rc;
    if (j->rc) {
        *err = j->err;
        return j->rc;
    }
    t->trace_id = tdb_rec_resolve(j->rec, j->t.trace_id);
    return 0;
}

void cli_an_pool_release(cli_an_pool *p, cli_an_job *j)
{
    if (!j)
        return;
    pthread_mutex_lock(&p->mu);
    while (j->state != JOB_DONE) /* never freed under a running worker */
        wait_done(p);
    p->in_flight--;
    p->in_bytes -= j->bytes;
    for (cli_an_job **q = &p->all; *q; q = &(*q)->other)
        if (*q == j) {
            *q = j->other;
            break;
        }
    pthread_mutex_unlock(&p->mu);
    job_free(j);
}

/* ---- a parallel loop (pass 1's detection and hashing) ---- */
typedef struct loop {
    atomic_size_t next; /* the next item to take */
    size_t n;
    void (*fn)(void *ctx, size_t i);
    void *ctx;
} loop;

static void *loop_work(void *arg)
{
    loop *l = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&l->next, 1);
        if (i >= l->n)
            return NULL;
        l->fn(l->ctx, i);
    }
}

void cli_an_parallel(size_t n, int jobs, void (*fn)(void *ctx, size_t i), void *ctx)
{
    loop l = {.n = n, .fn = fn, .ctx = ctx};
    atomic_init(&l.next, 0);
    pthread_t th[jobs > 1 ? jobs - 1 : 1];
    int started = 0;
    for (int k = 0; k + 1 < jobs; k++, started++)
        if (pthread_create(&th[k], NULL, loop_work, &l))
            break;
    loop_work(&l); /* this thread too; the others only help */
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
}
