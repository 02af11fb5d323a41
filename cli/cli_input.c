/* Inputs read once (cli.md "Inputs"): standard input, FIFOs and character devices cannot be
 * opened a second time, so a command that looks at an input before reading it (analyze's
 * two passes, export's and diff's database check) keeps one copy of such inputs: in memory,
 * or, past 16 MiB, in an unlinked spool file, once the command's check of the first 16 MiB
 * found that it can be an input (so /dev/zero or `yes` never fill $TMPDIR). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct copy {
    char *path;
    unsigned char *data; /* the bytes as read (still compressed if they were) */
    size_t len;
    int spool;           /* >= 0: an unlinked spool file holding the bytes (data is NULL) */
    int refused;         /* the check refused it from its head: every open fails with why */
    int lost;            /* reading or spooling failed after bytes were consumed (they cannot
                            be read again): every open fails with why */
    tt_error why;
} copy;

static copy *copies;
static size_t ncopies;

/* A stream longer than this is spooled to an unlinked file in $TMPDIR (or /tmp), which every
 * open reads from its start, so `perf script | tracetool analyze -` holds no more memory than
 * analysing the saved file. */
#define SPOOL_AFTER ((size_t)16 << 20)

int cli_input_is_stream(const char *path)
{
    struct stat sb;
    if (!strcmp(path, "-"))
        return 1;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

static const copy *find(const char *path)
{
    for (size_t i = 0; i < ncopies; i++)
        if (!strcmp(copies[i].path, path))
            return &copies[i];
    return NULL;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Copies the head already read into c->data and the rest of fd into an unlinked temporary
 * file, which replaces the head. */
static int spool(copy *c, int fd, const char *name, tt_error *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t n = strlen(dir) + 32;
    char *tmpl = malloc(n);
    if (!tmpl)
        return tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
    snprintf(tmpl, n, "%s/tracetool-stdin-XXXXXX", dir);
    int t = mkstemp(tmpl);
    if (t < 0) {
        int e = errno;
        tt_error_set(err, TT_EIO, name, 0, 0, "cannot create a spool file in %s: %s", dir,
                     strerror(e));
        free(tmpl);
        return TT_EIO;
    }
    unlink(tmpl);
    free(tmpl);
    int rc = 0;
    if (write_all(t, c->data, c->len))
        rc = tt_error_set(err, TT_EIO, name, 0, 0, "cannot write the spool file in %s: %s", dir,
                          strerror(errno));
    unsigned char *buf = c->data; /* reused as the copy buffer */
    while (!rc) {
        ssize_t r = read(fd, buf, SPOOL_AFTER);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rc = tt_error_set(err, TT_EIO, name, TT_LOC_OFFSET, c->len, "read error: %s",
                              strerror(errno));
        else if (r == 0)
            break;
        else if (write_all(t, buf, (size_t)r))
            rc = tt_error_set(err, TT_EIO, name, 0, 0, "cannot write the spool file in %s: %s",
                              dir, strerror(errno));
        else
            c->len += (size_t)r;
    }
    free(buf);
    c->data = NULL;
    if (rc)
        close(t);
    else
        c->spool = t;
    return rc;
}

/* The check of a stream that outgrew memory, run on its first SPOOL_AFTER bytes (c->data):
 * 0 to spool the rest, or its error, after which c holds only the error (the rest of the
 * stream is never read). */
static int check_head(copy *c, const char *path, cli_input_check check, void *ud,
                      tt_error *err)
{
    tt_input *head;
    tt_error e = {0};
    int rc = tt_input_open_mem(&head, strcmp(path, "-") ? path : "<stdin>", c->data, c->len, &e);
    if (!rc) {
        rc = check(head, path, ud, &e);
        tt_input_close(head);
    }
    if (!rc)
        return 0;
    free(c->data);
    c->data = NULL;
    c->refused = 1;
    c->why = e;
    c->why.code = rc;
    if (err)
        *err = c->why;
    return rc;
}

/* Reads the whole input (raw bytes) into a new copy: in memory up to SPOOL_AFTER bytes, else,
 * when check (if any) accepts the head, in a spool file. A refused input is kept as its
 * error. */
static int read_all(const char *path, cli_input_check check, void *ud, tt_error *err_out)
{
    tt_error e = {0}, *err = &e; /* kept in the copy when the stream is lost */
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
    if (fd < 0)
        return tt_error_set(err_out, TT_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    copy c = {strdup(path), NULL, 0, -1, 0, 0, {0}};
    size_t cap = 0;
    int rc = 0;
    if (!c.path) {
        if (fd > 0)
            close(fd);
        return tt_error_set(err_out, TT_ENOMEM, name, 0, 0, "out of memory");
    }
    while (!rc) {
        if (c.len == cap) {
            if (cap == SPOOL_AFTER) {
                rc = check ? check_head(&c, path, check, ud, err) : 0;
                if (!rc)
                    rc = spool(&c, fd, name, err);
                break;
            }
            size_t ncap = cap ? cap * 2 : 1 << 16;
            unsigned char *p = realloc(c.data, ncap);
            if (!p) {
                rc = tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
                break;
            }
            c.data = p;
            cap = ncap;
        }
        ssize_t r = read(fd, c.data + c.len, cap - c.len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rc = tt_error_set(err, TT_EIO, name, TT_LOC_OFFSET, c.len, "read error: %s",
                              strerror(errno));
        else if (r == 0)
            break;
        else
            c.len += (size_t)r;
    }
    if (fd > 0)
        close(fd);
    /* a refused input is kept too, so a later open fails the same way and reads nothing; so
     * is one whose read or spool failed (an unwritable $TMPDIR): a later open of the stream
     * would read only what is left of it */
    if (rc && !c.refused) {
        free(c.data);
        c.data = NULL;
        c.lost = 1;
        c.why = e;
        c.why.code = rc;
    }
    copy *grown = realloc(copies, (ncopies + 1) * sizeof *copies);
    if (grown)
        copies = grown;
    else if (!rc)
        rc = tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
    if (rc && err_out)
        *err_out = e;
    if (!grown) {
        free(c.path);
        free(c.data);
        return rc;
    }
    copies[ncopies++] = c;
    return rc;
}

int cli_input_open_checked(tt_input **in, const char *path, cli_input_check check, void *ud,
                           tt_error *err)
{
    *in = NULL;
    const copy *c = find(path);
    if (!c && cli_input_is_stream(path)) {
        int rc = read_all(path, check, ud, err);
        if (rc)
            return rc;
        c = &copies[ncopies - 1];
    }
    if (c && (c->refused || c->lost)) {
        if (err)
            *err = c->why;
        return c->why.code;
    }
    if (c && c->spool >= 0) {
        /* a file description of its own (offset 0), so two opens never share an offset */
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", c->spool);
        int fd = open(proc, O_RDONLY | O_CLOEXEC);
        if (fd < 0 && (fd = fcntl(c->spool, F_DUPFD_CLOEXEC, 0)) >= 0 &&
            lseek(fd, 0, SEEK_SET) != 0) { /* no /proc: a duplicate, rewound (opens of one
                                              copy never overlap) */
            close(fd);
            fd = -1;
        }
        if (fd < 0)
            return tt_error_set(err, TT_EIO, strcmp(path, "-") ? path : "<stdin>", 0, 0,
                                "cannot reopen the spool file: %s", strerror(errno));
        return tt_input_open_fd(in, strcmp(path, "-") ? path : "<stdin>", fd, err);
    }
    if (c)
        return tt_input_open_mem(in, strcmp(path, "-") ? path : "<stdin>", c->data, c->len,
                                 err);
    return tt_input_open(in, path, err);
}

int cli_input_open(tt_input **in, const char *path, int again, tt_error *err)
{
    if (again || find(path))
        return cli_input_open_checked(in, path, NULL, NULL, err);
    *in = NULL;
    return tt_input_open(in, path, err);
}

int cli_input_refused(const char *path)
{
    const copy *c = find(path);
    return c && c->refused;
}

int cli_input_lost(const char *path)
{
    const copy *c = find(path);
    return c && c->lost;
}

int cli_input_foreign(const tt_detection *d, int db_ok)
{
    /* a known foreign format, or binary data that is no method-beat buffer; an SQLite file
     * unless a database is an input */
    return d->kind == TT_KIND_UNKNOWN && d->what[0] && !(d->sqlite && db_ok);
}

int cli_input_check_trace(tt_input *head, const char *path, void *ud, tt_error *err)
{
    tt_detection d;
    int rc = tt_input_detect(&d, head, err);
    if (rc)
        return rc;
    if (cli_input_foreign(&d, ud != NULL))
        return tt_error_set(err, TT_EFORMAT, path, 0, 0, "not a trace: %s", d.what);
    return 0;
}

void cli_input_release(void)
{
    for (size_t i = 0; i < ncopies; i++) {
        free(copies[i].path);
        free(copies[i].data);
        if (copies[i].spool >= 0)
            close(copies[i].spool);
    }
    free(copies);
    copies = NULL;
    ncopies = 0;
}
