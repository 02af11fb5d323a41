/* Checked output and diagnostics (STYLE.md section 7, cli.md "Outputs"); output files written
 * aside and renamed into place, the lock of database writers, temporary-file cleanup on
 * signals. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int epipe_status = CLI_OK;

void cli_out_epipe_status(int rc) { epipe_status = rc; }

static void out_failed(void)
{
    if (errno == EPIPE)
        exit(epipe_status);
    fprintf(stderr, "tracetool: write error on standard output: %s\n", strerror(errno));
    exit(CLI_BAD);
}

/* Output is data written as it is after cli_out_binary(1) (an ART trace). Otherwise it is
 * text, and what the inputs' names hold is escaped, to a terminal or not (a file or pipe is
 * read on one later), so that a crafted input cannot drive the terminal: a C0 byte (but
 * newline, tab and a CRLF's carriage return), DEL and every byte that is not part of
 * well-formed UTF-8 (a lone 0x9b, which an 8-bit terminal reads as CSI) as \xNN, a UTF-8
 * encoded C1 character (U+0080..U+009F: bytes C2 80..C2 9F) as \u00NN, which is also how
 * JSON writes it (jsonw.c): inside a JSON string the escape means the same character. The
 * escaper (libtrace/textesc.c) keeps its state from one write to the next of a stream, so a
 * sequence or CR LF split between two writes is seen whole; the tail it holds is written at
 * the end (cli_out_finish, cli_out_file_commit). */
static int out_binary;

static int stdout_write(void *ctx, const char *p, size_t n)
{
    (void)ctx;
    return fwrite(p, 1, n, stdout) != n ? -1 : 0;
}

static tt_textesc out_esc = {stdout_write, NULL, {0}, 0};

void cli_out_binary(int on)
{
    if (on && !out_binary && tt_textesc_flush(&out_esc))
        out_failed();
    out_binary = on;
}

void cli_out_write(const char *p, size_t n)
{
    cli_progress_clear();
    if (out_binary ? n && fwrite(p, 1, n, stdout) != n : tt_textesc_put(&out_esc, p, n) != 0)
        out_failed();
}

void cli_out_write_large(const char *p, size_t n)
{
    if (!out_binary && (out_esc.n_held || tt_textesc_plain(p, n) != n)) {
        cli_out_write(p, n);
        return;
    }
    cli_progress_clear();
    if (fflush(stdout) != 0)
        out_failed();
    while (n) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            out_failed();
        p += w;
        n -= (size_t)w;
    }
}

void cli_out_puts(const char *s) { cli_out_write(s, strlen(s)); }

void cli_out_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!out_binary) { /* formatted first, then written as cli_out_write writes */
        va_list aq;
        va_copy(aq, ap);
        int r = vsnprintf(NULL, 0, fmt, aq);
        va_end(aq);
        char *s = r >= 0 ? malloc((size_t)r + 1) : NULL;
        if (s)
            vsnprintf(s, (size_t)r + 1, fmt, ap);
        va_end(ap);
        if (!s) {
            fprintf(stderr, "tracetool: out of memory\n");
            exit(CLI_BAD);
        }
        cli_out_write(s, (size_t)r);
        free(s);
        return;
    }
    int r = vfprintf(stdout, fmt, ap);
    va_end(ap);
    if (r < 0)
        out_failed();
}

void cli_out_buf(tt_buf *b)
{
    cli_out_write(b->data ? b->data : "", b->len);
    b->len = 0;
    if (b->data)
        b->data[0] = 0;
}

int cli_out_finish(void)
{
    if ((!out_binary && tt_textesc_flush(&out_esc)) || fflush(stdout) != 0 || ferror(stdout)) {
        if (errno == EPIPE)
            return CLI_OK;
        fprintf(stderr, "tracetool: write error on standard output: %s\n", strerror(errno));
        return CLI_BAD;
    }
    return CLI_OK;
}

void cli_err_text(char *dst, size_t cap, const tt_error *err)
{
    if (!err->file[0])
        snprintf(dst, cap, "%s", err->msg[0] ? err->msg : tt_strerror(err->code));
    else if (err->loc_kind == TT_LOC_LINE)
        snprintf(dst, cap, "%s:%llu: %s", err->file, (unsigned long long)err->loc, err->msg);
    else if (err->loc_kind == TT_LOC_OFFSET)
        snprintf(dst, cap, "%s:0x%llx: %s", err->file, (unsigned long long)err->loc, err->msg);
    else
        snprintf(dst, cap, "%s: %s", err->file, err->msg);
}

static int buf_write(void *ctx, const char *p, size_t n)
{
    return tt_buf_put(ctx, p, n);
}

/* Message text on standard error is escaped like the text outputs (tracetool(1) OUTPUT):
 * file names and quoted input in it cannot move the cursor or retitle the terminal. */
static void put_msg(const char *text, size_t n)
{
    tt_buf esc = {0};
    tt_textesc e;
    tt_textesc_init(&e, buf_write, &esc);
    int bad = tt_textesc_put(&e, text, n) || tt_textesc_flush(&e);
    const char *out = bad || !esc.data ? text : esc.data;
    size_t len = bad || !esc.data ? n : esc.len;
    tt_buf *capture = cli_msg_capture_buf();
    if (capture) {
        tt_buf_put(capture, out, len);
    } else {
        cli_progress_clear();
        fwrite(out, 1, len, stderr);
    }
    tt_buf_free(&esc);
}

void cli_stderr_text(const char *p, size_t n)
{
    int e = fflush(stdout) ? errno : 0;
    put_msg(p, n);
    if (e) { /* after the text: a closed pipe exits with the verdict (cli_out_epipe_status) */
        errno = e;
        out_failed();
    }
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
    char line[4096];
    int n = snprintf(line, sizeof line, "%s", prefix);
    if (n < 0 || (size_t)n >= sizeof line)
        n = 0;
    int m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    if (m < 0)
        m = 0;
    size_t len = (size_t)n + (size_t)m;
    put_msg(line, len < sizeof line ? len : sizeof line - 1);
}

void cli_stderrf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
}

int cli_err(const tt_error *err)
{
    char text[sizeof err->file + sizeof err->msg + 32];
    cli_err_text(text, sizeof text, err);
    cli_stderrf("tracetool: %s\n", text);
    return CLI_BAD;
}

void cli_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("tracetool: ", fmt, ap);
    va_end(ap);
    cli_stderrf("\n");
}

void cli_warnf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("tracetool: warning: ", fmt, ap);
    va_end(ap);
    cli_stderrf("\n");
}

void cli_stats_report(const tt_stats *s)
{
    cli_stats_report_prefix(s, "");
}

void cli_stats_report_prefix(const tt_stats *s, const char *prefix)
{
    cli_progress_clear();
    for (size_t i = 0; i < tt_stats_count(s); i++) {
        const tt_stat *st = tt_stats_get(s, i);
        if (st->severity == TT_SEV_INFO || strncmp(st->name, prefix, strlen(prefix)))
            continue;
        /* the file is named once: before the name unless the example begins with it, as
         * "FILE:" (an input named "report" is not the start of "report 5B0C...: ...") */
        size_t fl = strlen(st->file);
        int named = st->example[0] && !st->told && fl && !strncmp(st->example, st->file, fl) &&
                    st->example[fl] == ':';
        const char *file = named ? "" : st->file;
        tt_buf line = {0};
        if (st->example[0] && !st->told) /* told: the error said it already */
            tt_buf_printf(&line, "tracetool: warning: %s%s%s: %lld time%s, first: %s\n", file,
                          file[0] ? ": " : "", st->name, (long long)st->count,
                          st->count == 1 ? "" : "s", st->example);
        else
            tt_buf_printf(&line, "tracetool: warning: %s%s%s: %lld time%s\n", file,
                          file[0] ? ": " : "", st->name, (long long)st->count,
                          st->count == 1 ? "" : "s");
        if (line.data)
            put_msg(line.data, line.len);
        tt_buf_free(&line);
    }
}

/* ---- temporary files removed on SIGINT/SIGTERM/SIGHUP ----
 * A fixed table (a handler may only touch static memory); the handler unlinks every entry,
 * then hands the signal to the handler installed before (another cleanup's, such as the
 * temporary directory's in cli_tmpdir.c) or to the default action. A signal ignored when
 * the handlers are installed (nohup, a background job of a non-interactive shell) stays
 * ignored: it cannot end the run, so nothing needs cleaning up. */
#define GUARD_SLOTS 8
static char guarded[GUARD_SLOTS][4096];
static struct sigaction prev_action[3];
static const int guard_sigs[3] = {SIGINT, SIGTERM, SIGHUP};
static int guard_installed;

void cli_out_signal_pass(int sig, const struct sigaction *prev)
{
    for (int i = 0; i < 3; i++) {
        if (guard_sigs[i] != sig)
            continue;
        if (prev[i].sa_handler == SIG_IGN)
            return; /* never fatal (install leaves an ignored signal alone) */
        if (prev[i].sa_handler != SIG_DFL && !(prev[i].sa_flags & SA_SIGINFO)) {
            prev[i].sa_handler(sig);
            return;
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_out_signal_install(void (*fn)(int), struct sigaction *prev)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++) {
        /* an ignored signal keeps SIG_IGN (prev[i] records it; fn is not its handler) */
        if (sigaction(guard_sigs[i], NULL, &prev[i]) == 0 && prev[i].sa_handler == SIG_IGN)
            continue;
        sigaction(guard_sigs[i], &sa, &prev[i]);
    }
}

void cli_out_signal_restore(const struct sigaction *prev)
{
    for (int i = 0; i < 3; i++)
        sigaction(guard_sigs[i], &prev[i], NULL); /* an ignored one: SIG_IGN again */
}

/* DB-wal and DB-shm of a database written in place (cli_out_guard_wal), "" when none */
static char guarded_wal[2][4096 + 8];

/* 1 when another process has the -shm file at path open: SQLite's unix VFS holds a read lock
 * on its byte 128 (the "DMS" lock, after the 8 WAL locks at 120) while a connection uses it.
 * Async-signal-safe; a lock this process holds is not reported (and is dropped by close). */
static int shm_in_use(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct flock l;
    memset(&l, 0, sizeof l);
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    l.l_start = 128;
    l.l_len = 1;
    int used = fcntl(fd, F_GETLK, &l) != 0 || l.l_type != F_UNLCK;
    close(fd);
    return used;
}

static void guard_signal(int sig)
{
    for (int i = 0; i < GUARD_SLOTS; i++)
        if (guarded[i][0])
            unlink(guarded[i]);
    /* the transaction was not committed: the log holds none of DB's committed pages */
    if (guarded_wal[0][0] && !shm_in_use(guarded_wal[1])) {
        unlink(guarded_wal[0]);
        unlink(guarded_wal[1]);
    }
    cli_out_signal_pass(sig, prev_action);
}

int cli_out_wal_absent(const char *db)
{
    char wal[sizeof guarded_wal[0]], shm[sizeof guarded_wal[0]];
    if (strlen(db) >= 4096)
        return 0;
    snprintf(wal, sizeof wal, "%s-wal", db);
    snprintf(shm, sizeof shm, "%s-shm", db);
    /* there before this run (or unknown): another's, left alone */
    return !(access(wal, F_OK) == 0 || access(shm, F_OK) == 0 || errno != ENOENT);
}

void cli_out_guard_wal(const char *db)
{
    char wal[sizeof guarded_wal[0]], shm[sizeof guarded_wal[0]];
    if (strlen(db) >= 4096)
        return;
    snprintf(wal, sizeof wal, "%s-wal", db);
    snprintf(shm, sizeof shm, "%s-shm", db);
    if (!guard_installed) {
        guard_installed = 1;
        cli_out_signal_install(guard_signal, prev_action);
    }
    memcpy(guarded_wal[1], shm, sizeof shm);
    memcpy(guarded_wal[0], wal, sizeof wal);
}

void cli_out_unguard_wal(void) { guarded_wal[0][0] = 0; }

void cli_out_guard(const char *path)
{
    if (!path || strlen(path) >= sizeof guarded[0])
        return;
    if (!guard_installed) {
        guard_installed = 1;
        cli_out_signal_install(guard_signal, prev_action);
    }
    for (int i = 0; i < GUARD_SLOTS; i++) {
        if (!guarded[i][0]) {
            strcpy(guarded[i], path);
            return;
        }
    }
}

void cli_out_unguard(const char *path)
{
    for (int i = 0; path && i < GUARD_SLOTS; i++)
        if (!strcmp(guarded[i], path))
            guarded[i][0] = 0;
}

void cli_out_block_signals(int block)
{
    static sigset_t old;
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < 3; i++)
        sigaddset(&set, guard_sigs[i]);
    if (block)
        sigprocmask(SIG_BLOCK, &set, &old);
    else
        sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- output files: a temporary file beside the target, renamed over it on success ---- */
int cli_out_fd_path(const char *p)
{
    if (!strcmp(p, "-")) /* -o -: standard output */
        return 1;
    if (!strcmp(p, "/dev/stdin"))
        return 0;
    if (!strcmp(p, "/dev/stdout"))
        return 1;
    if (!strcmp(p, "/dev/stderr"))
        return 2;
    const char *rest = NULL;
    if (!strncmp(p, "/dev/fd/", 8))
        rest = p + 8;
    else if (!strncmp(p, "/proc/self/fd/", 14))
        rest = p + 14;
    else if (!strncmp(p, "/proc/thread-self/fd/", 21))
        rest = p + 21;
    else if (!strncmp(p, "/proc/", 6) && isdigit((unsigned char)p[6])) {
        char *end;
        long pid = strtol(p + 6, &end, 10);
        if (pid == (long)getpid() && !strncmp(end, "/fd/", 4))
            rest = end + 4;
    }
    if (!rest || !isdigit((unsigned char)*rest))
        return -1;
    long n = 0;
    for (; isdigit((unsigned char)*rest) && n < INT_MAX / 10; rest++)
        n = n * 10 + (*rest - '0');
    return *rest ? -1 : (int)n;
}

/* The directory of path (".", "/" or the part before the last slash); -1 when too long. */
static int parent_dir(char dir[4096], const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        strcpy(dir, ".");
        return 0;
    }
    if ((size_t)(slash - path) >= 4096)
        return -1;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = 0;
    if (!dir[0])
        strcpy(dir, "/");
    return 0;
}

/* fs.protected_symlinks' rule: a link in a sticky world-writable directory (/tmp) is
 * followed only when it belongs to us or to the directory's owner, so that another user
 * cannot point an output of ours (run as root) at a file of their choosing. */
static int link_may_be_followed(const char *link, const struct stat *lsb)
{
    if (lsb->st_uid == geteuid())
        return 1;
    char dir[4096];
    struct stat dsb;
    if (parent_dir(dir, link) || stat(dir, &dsb))
        return 1;
    return !((dsb.st_mode & S_ISVTX) && (dsb.st_mode & S_IWOTH)) || dsb.st_uid == lsb->st_uid;
}

char *cli_out_resolve(const char *path)
{
    if (!*path) {
        cli_errorf("an output file name is empty");
        return NULL;
    }
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat sb;
        /* a descriptor we inherited (/dev/stdout): written through, never resolved to the
         * file behind it (which a rename would replace) */
        if (cli_out_fd_path(cur) >= 0 || lstat(cur, &sb) || !S_ISLNK(sb.st_mode))
            return cur;
        if (hops == 40) {
            cli_errorf("%s: cannot write: %s", path, strerror(ELOOP));
            free(cur);
            return NULL;
        }
        if (!link_may_be_followed(cur, &sb)) {
            cli_errorf("%s: not written: %s is a symbolic link in a shared directory (sticky, "
                       "writable by all) that belongs to another user", path, cur);
            free(cur);
            return NULL;
        }
        char link[4096];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return cur;
        link[n] = 0;
        const char *slash = strrchr(cur, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dir);
            memcpy(next + dir, link, (size_t)n + 1);
        }
        free(cur);
        cur = next;
    }
    cli_errorf("out of memory");
    return NULL;
}

/* Inputs named so far (cli_out_note_input), compared with each output file. */
#define NOTED_INPUTS 64
static struct {
    dev_t dev;
    ino_t ino;
} noted_inputs[NOTED_INPUTS];
static int n_noted;

void cli_out_note_input(const char *path)
{
    struct stat sb;
    if (n_noted < NOTED_INPUTS && strcmp(path, "-") && !stat(path, &sb) && S_ISREG(sb.st_mode)) {
        noted_inputs[n_noted].dev = sb.st_dev;
        noted_inputs[n_noted].ino = sb.st_ino;
        n_noted++;
    }
}

static int is_noted_input(const struct stat *sb)
{
    for (int i = 0; i < n_noted; i++)
        if (noted_inputs[i].dev == sb->st_dev && noted_inputs[i].ino == sb->st_ino)
            return 1;
    return 0;
}

int cli_out_same_file(const char *input, const char *target)
{
    struct stat a, b;
    int fd = cli_out_fd_path(target);
    if (!strcmp(input, "-") || stat(input, &a) || !S_ISREG(a.st_mode) ||
        (fd >= 0 ? fstat(fd, &b) : stat(target, &b)))
        return 0;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

struct cli_out_file {
    FILE *f;
    char *target, *tmp; /* tmp NULL: written in place (a device or FIFO) */
    const char *shown;  /* the path as the user gave it */
    tt_textesc esc;     /* text written through cli_out_file_write */
    int hold;           /* tmp's flock held until it is renamed or removed (tt_tmp_hold); -1 */
};

static int file_stream_write(void *ctx, const char *p, size_t n)
{
    return fwrite(p, 1, n, ctx) != n ? -1 : 0;
}

int cli_out_file_write(cli_out_file *o, const char *p, size_t n)
{
    if (out_binary)
        return n && fwrite(p, 1, n, o->f) != n ? -1 : 0;
    return tt_textesc_put(&o->esc, p, n);
}

static void file_free(cli_out_file *o)
{
    if (o->tmp) {
        unlink(o->tmp);
        cli_out_unguard(o->tmp);
    }
    if (o->hold >= 0)
        close(o->hold);
    free(o->target);
    free(o->tmp);
    free(o);
}

cli_out_file *cli_out_file_open(const char *path)
{
    cli_out_file *o = calloc(1, sizeof *o);
    if (!o) {
        cli_errorf("out of memory");
        return NULL;
    }
    o->hold = -1;
    if (!(o->target = cli_out_resolve(path))) {
        free(o);
        return NULL;
    }
    o->shown = path;
    int fdn = cli_out_fd_path(o->target);
    if (fdn >= 0) { /* -o /dev/stdout: the descriptor as the shell opened it (append, offset) */
        int fd = dup(fdn);
        if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            cli_errorf("%s: cannot write: %s", path, strerror(e));
            file_free(o);
            return NULL;
        }
        tt_textesc_init(&o->esc, file_stream_write, o->f);
        return o;
    }
    struct stat sb;
    int exists = stat(o->target, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        cli_errorf("%s: cannot write: %s", path, strerror(EISDIR));
        file_free(o);
        return NULL;
    }
    if (exists && S_ISREG(sb.st_mode) && is_noted_input(&sb)) {
        cli_errorf("%s: is an input of this run: not replaced by the output", path);
        file_free(o);
        return NULL;
    }
    int fd;
    if (exists && !S_ISREG(sb.st_mode)) {
        /* /dev/null, /dev/stdout, a FIFO: no file to replace, written as it is */
        fd = open(o->target, O_WRONLY | O_CLOEXEC);
    } else {
        size_t n = strlen(o->target) + 32;
        if (!(o->tmp = malloc(n))) {
            file_free(o);
            cli_errorf("out of memory");
            return NULL;
        }
        cli_out_block_signals(1); /* no signal between creating and registering it */
        /* held (o->hold, a second descriptor that keeps the lock past fclose): another
         * run's sweep leaves it whatever our PID looks like from there */
        fd = tt_tmp_create(o->tmp, n, o->target, -1, 0666, &o->hold);
        if (fd >= 0)
            cli_out_guard(o->tmp);
        cli_out_block_signals(0);
        if (fd >= 0 && exists) { /* the replacement keeps the old file's mode and owner */
            if (fchown(fd, sb.st_uid, sb.st_gid)) {
                /* not permitted: the new file belongs to us */
            }
            fchmod(fd, sb.st_mode & 07777);
        }
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        else
            free(o->tmp), o->tmp = NULL; /* nothing was created */
        cli_errorf("%s: cannot create: %s", path, strerror(e));
        file_free(o);
        return NULL;
    }
    tt_textesc_init(&o->esc, file_stream_write, o->f);
    return o;
}

FILE *cli_out_file_stream(cli_out_file *o) { return o->f; }

int cli_out_file_pipe_closed(const cli_out_file *o, int err)
{
    return !o->tmp && err == EPIPE;
}

static int sync_dir(const char *target)
{
    char dir[4096];
    if (parent_dir(dir, target))
        return 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    return 0;
}

int cli_out_file_commit(cli_out_file *o)
{
    int rc = 0;
    if (tt_textesc_flush(&o->esc) || fflush(o->f) || ferror(o->f) || (o->tmp && fsync(fileno(o->f)) && errno != EINVAL))
        rc = CLI_BAD;
    if (fclose(o->f) && !rc)
        rc = CLI_BAD;
    o->f = NULL;
    if (rc && cli_out_file_pipe_closed(o, errno)) {
        /* -o /dev/stdout into a pipe whose reader stopped (| head): as for standard output */
        file_free(o);
        return CLI_OK;
    }
    if (rc)
        cli_errorf("%s: write error: %s", o->shown, strerror(errno));
    if (!rc && o->tmp) {
        if (rename(o->tmp, o->target)) {
            cli_errorf("%s: cannot rename %s into place: %s", o->shown, o->tmp,
                       strerror(errno));
            rc = CLI_BAD;
        } else {
            cli_out_unguard(o->tmp);
            free(o->tmp);
            o->tmp = NULL;
            sync_dir(o->target);
        }
    }
    file_free(o);
    return rc;
}

void cli_out_file_abort(cli_out_file *o)
{
    if (!o)
        return;
    if (o->f)
        fclose(o->f);
    file_free(o);
}

/* ---- the lock of a database's writers: "<db>.lock" beside it ---- */
struct cli_out_lock {
    int fd;
    char *path;
};

cli_out_lock *cli_out_lock_take(const char *target)
{
    cli_out_lock *l = calloc(1, sizeof *l);
    size_t n = strlen(target) + 6;
    if (!l || !(l->path = malloc(n))) {
        free(l);
        cli_errorf("out of memory");
        return NULL;
    }
    snprintf(l->path, n, "%s.lock", target);
    int noted = 0;
    for (;;) {
        /* never through a symbolic link (one planted in /tmp would make us create or
         * truncate-lock another file) */
        l->fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (l->fd < 0) {
            int e = errno;
            struct stat sb;
            if (!lstat(l->path, &sb) && S_ISLNK(sb.st_mode))
                cli_errorf("%s: the lock file %s is a symbolic link: not followed (remove it "
                           "if it is yours)", target, l->path);
            else
                cli_errorf("%s: cannot create the lock file %s: %s", target, l->path,
                           strerror(e));
            break;
        }
        struct flock fl;
        memset(&fl, 0, sizeof fl);
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        int r = fcntl(l->fd, F_SETLK, &fl);
        if (r < 0 && (errno == EACCES || errno == EAGAIN)) {
            struct flock who = fl;
            if (!noted && fcntl(l->fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK &&
                who.l_pid > 0)
                cli_stderrf("tracetool: %s: waiting for process %ld to finish writing it "
                        "(lock file %s)\n", target, (long)who.l_pid, l->path);
            else if (!noted)
                cli_stderrf("tracetool: %s: waiting for another process to finish writing "
                        "it (lock file %s)\n", target, l->path);
            noted = 1;
            while ((r = fcntl(l->fd, F_SETLKW, &fl)) < 0 && errno == EINTR)
                ;
        }
        if (r < 0) {
            cli_errorf("%s: cannot lock %s: %s", target, l->path, strerror(errno));
            break;
        }
        /* the holder removes the file when it is done: lock the file that is there now */
        struct stat a, b;
        if (fstat(l->fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            cli_out_guard(l->path);
            return l;
        }
        close(l->fd);
    }
    if (l->fd >= 0)
        close(l->fd);
    free(l->path);
    free(l);
    return NULL;
}

void cli_out_lock_release(cli_out_lock *l)
{
    if (!l)
        return;
    unlink(l->path); /* before the lock goes: a waiter then sees the file is gone */
    cli_out_unguard(l->path);
    close(l->fd);
    free(l->path);
    free(l);
}
