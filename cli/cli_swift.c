/* External Swift demangler process (spec/ios.md 7): one child per run through /bin/sh -c,
 * names written one per line, one answer line read per name. A failure is a one-time
 * warning and counted (swift_demangler_failed); the names then stay mangled. */
#include "cli_swift.h"

#include "../libsym/tsym.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SWIFT_TIMEOUT_MS 10000 /* no answer for this long: the demangler is stuck */

typedef struct entry {
    char *dem;  /* demangled form, NULL: stays mangled */
    char *qual; /* the qualified DW_AT_name, shown without a demangled form */
    int asked;  /* sent to the demangler (or given up) */
} entry;

struct cli_swift {
    const char *cmd;
    tt_stats *stats;
    tt_intern *ids;   /* Swift name -> index into ents */
    tt_vec ents;      /* entry */
    pid_t pid;
    int to, from;     /* pipe ends: the child's stdin, its stdout */
    int started, failed;
    tt_buf line;      /* a partial answer line */
};

cli_swift *cli_swift_new(const char *cmd, tt_stats *stats)
{
    cli_swift *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (!(s->ids = tt_intern_new())) {
        free(s);
        return NULL;
    }
    s->cmd = cmd && *cmd ? cmd : NULL;
    s->stats = stats;
    s->to = s->from = -1;
    tt_vec_init(&s->ents, sizeof(entry));
    return s;
}

static void stop_child(cli_swift *s)
{
    if (s->to >= 0)
        close(s->to);
    if (s->from >= 0)
        close(s->from);
    s->to = s->from = -1;
}

/* Reaps the child (killed when it has not exited within 1 s of losing its pipes) and
 * describes how it ended, or "" */
static void reap(cli_swift *s, char *out, size_t cap)
{
    int st = 0;
    out[0] = '\0';
    if (s->pid <= 0)
        return;
    pid_t w = 0;
    for (int i = 0; i < 100 && (w = waitpid(s->pid, &st, WNOHANG)) == 0; i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (w == 0) {
        kill(s->pid, SIGKILL);
        while ((w = waitpid(s->pid, &st, 0)) < 0 && errno == EINTR)
            ;
        s->pid = 0;
        return;
    }
    s->pid = 0;
    if (w > 0 && WIFEXITED(st))
        snprintf(out, cap, " (exit status %d)", WEXITSTATUS(st));
    else if (w > 0 && WIFSIGNALED(st))
        snprintf(out, cap, " (killed by signal %d)", WTERMSIG(st));
}

static void fail(cli_swift *s, const char *why)
{
    char st[64];
    stop_child(s);
    reap(s, st, sizeof st);
    s->failed = 1;
    cli_warnf("swift demangler '%s': %s%s; Swift names stay mangled", s->cmd, why, st);
    char ex[300];
    snprintf(ex, sizeof ex, "'%.200s': %s%s", s->cmd, why, st);
    /* the warning above is the message; the stat is for the database's stats table */
    tt_stats_add(s->stats, "swift_demangler_failed", "", TT_SEV_INFO, 1, ex);
}

static int start(cli_swift *s)
{
    int in[2], out[2];
    s->started = 1;
    if (pipe(in)) {
        fail(s, strerror(errno));
        return -1;
    }
    if (pipe(out)) {
        close(in[0]);
        close(in[1]);
        fail(s, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        fail(s, strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl("/bin/sh", "sh", "-c", s->cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    s->pid = pid;
    s->to = in[1];
    s->from = out[0];
    fcntl(s->to, F_SETFD, FD_CLOEXEC);
    fcntl(s->from, F_SETFD, FD_CLOEXEC);
    fcntl(s->to, F_SETFL, fcntl(s->to, F_GETFL) | O_NONBLOCK);
    return 0;
}

/* One answer line for ents[id]: an empty line or the name itself keep the mangled form. */
static int answer(cli_swift *s, uint32_t id, const char *p, size_t n)
{
    if (n && p[n - 1] == '\r')
        n--;
    entry *e = &TT_VEC_AT(&s->ents, entry, id);
    size_t mn;
    const char *m = tt_intern_str(s->ids, id, &mn);
    if (!n || (n == mn && !memcmp(p, m, n)))
        return 0;
    if (!(e->dem = malloc(n + 1)))
        return -1;
    memcpy(e->dem, p, n);
    e->dem[n] = '\0';
    return 0;
}

/* Writes req (the names ids[0..n), one per line) while reading the answers. */
static void exchange(cli_swift *s, const tt_buf *req, const uint32_t *ids, size_t n)
{
    size_t sent = 0, got = 0;
    char chunk[4096];
    while (got < n) {
        struct pollfd pf[2] = {{.fd = s->from, .events = POLLIN}, {.fd = -1}};
        if (sent < req->len)
            pf[1] = (struct pollfd){.fd = s->to, .events = POLLOUT};
        int pr = poll(pf, 2, SWIFT_TIMEOUT_MS);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0) {
            fail(s, pr ? strerror(errno) : "no answer within 10 s");
            return;
        }
        if (pf[1].revents & (POLLOUT | POLLERR | POLLHUP)) {
            ssize_t w = write(s->to, req->data + sent, req->len - sent);
            if (w < 0 && errno != EAGAIN && errno != EINTR)
                sent = req->len; /* it stopped reading: its answers (or EOF) tell the rest */
            else
                sent += w > 0 ? (size_t)w : 0;
        }
        if (!(pf[0].revents & (POLLIN | POLLERR | POLLHUP)))
            continue;
        ssize_t r = read(s->from, chunk, sizeof chunk);
        if (r < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (r <= 0) {
            char why[80];
            snprintf(why, sizeof why, "answered %zu of %zu names", got, n);
            fail(s, why);
            return;
        }
        for (ssize_t i = 0; i < r; i++) {
            if (chunk[i] != '\n') {
                if (tt_buf_put(&s->line, chunk + i, 1)) {
                    fail(s, "out of memory");
                    return;
                }
                continue;
            }
            if (got == n || answer(s, ids[got], s->line.data ? s->line.data : "", s->line.len)) {
                fail(s, got == n ? "answered more lines than names" : "out of memory");
                return;
            }
            got++;
            s->line.len = 0;
        }
    }
}

/* The entry of Swift name nm (added when new), NULL on out of memory */
static entry *entry_of(cli_swift *s, const char *nm)
{
    uint32_t id;
    if (tt_intern_get(s->ids, nm, strlen(nm), &id))
        return NULL;
    if (id == s->ents.len && !tt_vec_push(&s->ents, NULL))
        return NULL;
    return &TT_VEC_AT(&s->ents, entry, id);
}

void cli_swift_batch(cli_swift *s, const char *const *names, size_t n)
{
    if (!s)
        return;
    tt_vec fresh;
    tt_vec_init(&fresh, sizeof(uint32_t));
    tt_buf req = {0};
    for (size_t i = 0; i < n; i++) {
        const char *nm = names[i];
        if (!tsym_swift_mangled(nm) || strpbrk(nm, "\r\n"))
            continue;
        entry *e = entry_of(s, nm);
        if (!e)
            break;
        if (e->asked)
            continue;
        e->asked = 1;
        if (!s->cmd || s->failed)
            continue;
        uint32_t id = (uint32_t)(e - (entry *)s->ents.data);
        if (!tt_vec_push(&fresh, &id) || tt_buf_puts(&req, nm) || tt_buf_puts(&req, "\n"))
            break;
    }
    if (fresh.len && (s->started || !start(s)) && !s->failed)
        exchange(s, &req, fresh.data, fresh.len);
    tt_vec_free(&fresh);
    tt_buf_free(&req);
}

void cli_swift_hint(cli_swift *s, const char *name, const char *qualified)
{
    if (!s || !qualified || !*qualified || !tsym_swift_mangled(name))
        return;
    entry *e = entry_of(s, name);
    if (e && !e->qual)
        e->qual = strdup(qualified);
}

const char *cli_swift_name(cli_swift *s, const char *name)
{
    if (!s || !tsym_swift_mangled(name))
        return name;
    uint32_t id;
    if (tt_intern_find(s->ids, name, strlen(name), &id) || id >= s->ents.len ||
        !TT_VEC_AT(&s->ents, entry, id).asked)
        cli_swift_batch(s, &name, 1);
    if (tt_intern_find(s->ids, name, strlen(name), &id) || id >= s->ents.len)
        return name;
    const entry *e = &TT_VEC_AT(&s->ents, entry, id);
    return e->dem ? e->dem : e->qual ? e->qual : name;
}

void cli_swift_frames(cli_swift *s, tt_native_frame *frames, size_t n)
{
    if (!s)
        return;
    const char *names[256];
    for (size_t i = 0; i < n; i += 256) {
        size_t k = n - i < 256 ? n - i : 256;
        for (size_t j = 0; j < k; j++)
            names[j] = frames[i + j].function;
        cli_swift_batch(s, names, k);
    }
    for (size_t i = 0; i < n; i++)
        frames[i].function = cli_swift_name(s, frames[i].function);
}

void cli_swift_free(cli_swift *s)
{
    if (!s)
        return;
    uint64_t mangled = 0;
    const char *first = NULL;
    for (size_t i = 0; i < s->ents.len; i++) {
        entry *e = &TT_VEC_AT(&s->ents, entry, i);
        if (!e->dem && !e->qual && !mangled++)
            first = tt_intern_str(s->ids, (uint32_t)i, NULL);
        free(e->dem);
        free(e->qual);
    }
    if (mangled) {
        char ex[300];
        snprintf(ex, sizeof ex, "%.200s (%s)", first,
                 s->failed ? "the demangler failed" : s->cmd ? "the demangler gave no other form"
                        : "give --swift-demangler CMD to demangle");
        tt_stats_add(s->stats, "swift_names_mangled", "", TT_SEV_WARN, (int64_t)mangled, ex);
    }
    stop_child(s);
    char st[64];
    reap(s, st, sizeof st);
    tt_intern_free(s->ids);
    tt_vec_free(&s->ents);
    tt_buf_free(&s->line);
    free(s);
}
