/* The page checks of merge's inputs (PRAGMA quick_check, tracetool-schema(5) INPUT CHECKS)
 * run on a thread ahead of the merge: input i + 1 is checked while input i is merged, so on
 * two cores the check costs the merge little wall time. The thread stays one input ahead at
 * most. A check that fails or cannot tell (a file that cannot be opened, a damaged one, a
 * signal) leaves the input to tdb_merge_add, which checks it again and says why. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "tdb.h"
#include "tdb_int.h"

enum { PENDING, INTACT, UNTOLD };

struct tdb_precheck {
    char *const *paths;
    size_t n;
    unsigned char *state;       /* per input: PENDING, INTACT, UNTOLD */
    size_t ahead;               /* the thread may check inputs up to this one */
    volatile sig_atomic_t quit; /* stops the thread, and the check running at once */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t th;
};

static void *run(void *arg)
{
    tdb_precheck *pc = arg;
    for (size_t i = 0; i < pc->n; i++) {
        pthread_mutex_lock(&pc->mu);
        while (!pc->quit && i > pc->ahead)
            pthread_cond_wait(&pc->cv, &pc->mu);
        int quit = pc->quit;
        pthread_mutex_unlock(&pc->mu);
        if (quit)
            break;
        tdb_db *db = NULL;
        int newer = 0;
        tt_error err = {0};
        int rc = tdb__open_read_stop(&db, pc->paths[i], &pc->quit, 1, &newer, &err);
        tdb_close(db);
        pthread_mutex_lock(&pc->mu);
        pc->state[i] = rc || pc->quit ? UNTOLD : INTACT;
        pthread_cond_broadcast(&pc->cv);
        pthread_mutex_unlock(&pc->mu);
    }
    return NULL;
}

tdb_precheck *tdb_precheck_start(char *const *paths, size_t n)
{
    tdb_precheck *pc = calloc(1, sizeof *pc);
    if (!pc)
        return NULL;
    pc->paths = paths;
    pc->n = n;
    pc->state = calloc(n ? n : 1, 1);
    if (!pc->state || pthread_mutex_init(&pc->mu, NULL)) {
        free(pc->state);
        free(pc);
        return NULL;
    }
    if (pthread_cond_init(&pc->cv, NULL)) {
        pthread_mutex_destroy(&pc->mu);
        free(pc->state);
        free(pc);
        return NULL;
    }
    /* signals go to the merging thread, as before: the thread starts with all blocked */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&pc->th, NULL, run, pc);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        pthread_cond_destroy(&pc->cv);
        pthread_mutex_destroy(&pc->mu);
        free(pc->state);
        free(pc);
        return NULL;
    }
    return pc;
}

int tdb_precheck_take(tdb_precheck *pc, size_t i, volatile sig_atomic_t *stop)
{
    if (!pc || i >= pc->n)
        return 0;
    pthread_mutex_lock(&pc->mu);
    if (pc->ahead < i) {
        pc->ahead = i;
        pthread_cond_broadcast(&pc->cv);
    }
    /* a signal's flag is looked at every 50 ms: the handler cannot wake the wait */
    while (pc->state[i] == PENDING && !(stop && *stop)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        int w = pthread_cond_timedwait(&pc->cv, &pc->mu, &ts);
        if (w && w != ETIMEDOUT)
            break;
    }
    int intact = pc->state[i] == INTACT;
    pc->ahead = i + 1; /* the next input is checked while this one is merged */
    pthread_cond_broadcast(&pc->cv);
    pthread_mutex_unlock(&pc->mu);
    return intact;
}

void tdb_precheck_free(tdb_precheck *pc)
{
    if (!pc)
        return;
    pthread_mutex_lock(&pc->mu);
    pc->quit = 1;
    pthread_cond_broadcast(&pc->cv);
    pthread_mutex_unlock(&pc->mu);
    pthread_join(pc->th, NULL);
    pthread_cond_destroy(&pc->cv);
    pthread_mutex_destroy(&pc->mu);
    free(pc->state);
    free(pc);
}
