/* Temporary files left by a run that was killed (kill -9: no handler ran): "FILE.tmp-PID"
 * and "FILE.tmp-PID-N" beside an output FILE, "ENTRY.tmp-PID-N" of a symbol store, and the
 * private directories "PREFIX-PID-XXXXXX" of a run. Only names of exactly that form
 * (tt_tmp_name) are removed, and only when (tracetool(1), OUTPUT):
 *  - their PID is no live process (kill(PID, 0) says ESRCH; a first filter only: a run in
 *    another PID namespace sharing the directory looks dead, and PIDs are reused);
 *  - the entry itself, not what a symbolic link names, is a regular file (a directory of
 *    mode 0700, as mkdtemp makes it) owned by this user;
 *  - no live run holds it: a run holds flock(LOCK_EX) on its temporary and on its private
 *    directory for as long as it lives, and the sweeper removes only what it can lock with
 *    LOCK_NB (flock locks are apart from SQLite's fcntl locks on Linux).
 * Everything is reached through descriptors opened with O_NOFOLLOW (openat, unlinkat, the
 * directory read through fdopendir), so a name swapped for a link after the checks is not
 * followed. */
#include "tt_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The PID that s[0..) spells (decimal digits up to end, or up to stop), 0 when it is not one,
 * is this process, or is alive (or cannot be asked about). */
static long dead_pid(const char *s, char stop, const char **end)
{
    char *e;
    if (*s < '0' || *s > '9')
        return 0;
    errno = 0;
    long pid = strtol(s, &e, 10);
    if (errno || e == s || *e != stop || pid <= 0 || pid == (long)getpid())
        return 0;
    if (end)
        *end = e;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
        return 0;
    return pid;
}

/* 1 when fd (opened from dfd's entry nm) is what nm still names, owned by this user, and
 * locked by this call (no live run holds it). */
static int ours_and_free(int dfd, const char *nm, int fd, const struct stat *sb)
{
    struct stat now;
    if (sb->st_uid != geteuid() || flock(fd, LOCK_EX | LOCK_NB))
        return 0;
    return !fstatat(dfd, nm, &now, AT_SYMLINK_NOFOLLOW) && now.st_dev == sb->st_dev &&
           now.st_ino == sb->st_ino;
}

size_t tt_tmp_name(const char *nm, int *numbered)
{
    const char *t = NULL; /* the last ".tmp-": the digits after any other are not the end */
    for (const char *x = *nm ? strstr(nm + 1, ".tmp-") : NULL; x; x = strstr(x + 1, ".tmp-"))
        t = x;
    if (!t)
        return 0;
    const char *p = t + 5, *e = p;
    while (*e >= '0' && *e <= '9')
        e++;
    int num = e > p && *e == '-';
    if (num) {
        p = ++e;
        while (*e >= '0' && *e <= '9')
            e++;
    }
    if (e == p || *e)
        return 0;
    if (numbered)
        *numbered = num;
    return (size_t)(t - nm);
}

/* 1 when nm is "BASE.tmp-PID" or "BASE.tmp-PID-N" (tt_tmp_name) of a dead PID; base NULL:
 * "NAME.tmp-PID-N" of any NAME, the form of a symbol store's temporaries only. */
static int stale_name(const char *nm, const char *base, size_t bl)
{
    int num = 0;
    size_t l = tt_tmp_name(nm, &num);
    if (!l || (base ? l != bl || strncmp(nm, base, bl) : !num))
        return 0;
    return dead_pid(nm + l + 5, num ? '-' : 0, NULL) != 0;
}

static void sweep_dir(const char *dir, const char *base, size_t bl)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        if (!stale_name(nm, base, bl))
            continue;
        /* O_NONBLOCK: a FIFO of that name does not wait for a writer */
        int fd = openat(dfd, nm, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat sb;
        if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && ours_and_free(dfd, nm, fd, &sb))
            unlinkat(dfd, nm, 0);
        close(fd);
    }
    closedir(d);
}

void tt_remove_stale_tmp(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t bl = strlen(base);
    if (!bl) /* "DIR/": no file name, so no "NAME.tmp-PID" of it */
        return;
    if (slash) {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof dir)
            return;
        memcpy(dir, path, n);
        dir[n] = 0;
        if (!n)
            strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    sweep_dir(dir, base, bl);
}

void tt_remove_stale_tmp_in(const char *dir) { sweep_dir(dir, NULL, 0); }

const char *const tt_tmp_db_suffixes[] = {"", "-wal", "-shm", "-journal", ".lock", NULL};

/* 1 for a file name a run's private directory may hold: one of its databases and SQLite's
 * files beside it, its lock, its temporary "DB.tmp-PID" (or "DB.tmp-PID-N"). */
static int private_file(const char *nm, const char *const *dbs)
{
    for (; *dbs; dbs++) {
        size_t dl = strlen(*dbs);
        if (strncmp(nm, *dbs, dl))
            continue;
        for (const char *const *x = tt_tmp_db_suffixes; *x; x++)
            if (!strcmp(nm + dl, *x))
                return 1;
        if (tt_tmp_name(nm, NULL) == dl)
            return 1;
    }
    return 0;
}

void tt_remove_stale_dirs(const char *tmpdir, const char *prefix, const char *const *dbs)
{
    int tfd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = tfd < 0 ? NULL : fdopendir(tfd);
    if (!d) {
        if (tfd >= 0)
            close(tfd);
        return;
    }
    size_t pl = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name, *rest;
        /* PREFIX-PID-XXXXXX (mkdtemp's six characters) */
        if (strncmp(nm, prefix, pl) || nm[pl] != '-' || !dead_pid(nm + pl + 1, '-', &rest) ||
            strlen(rest + 1) != 6)
            continue;
        int sfd = openat(tfd, nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sfd < 0)
            continue; /* a symbolic link (ELOOP, ENOTDIR), or not ours to read */
        struct stat sb;
        DIR *s = NULL;
        if (fstat(sfd, &sb) || !S_ISDIR(sb.st_mode) || (sb.st_mode & 07777) != 0700 ||
            !ours_and_free(tfd, nm, sfd, &sb) || !(s = fdopendir(sfd))) {
            close(sfd);
            continue;
        }
        struct dirent *f;
        while ((f = readdir(s)))
            if (private_file(f->d_name, dbs)) /* anything else stays, and so does the directory */
                unlinkat(sfd, f->d_name, 0); /* never a directory; a link itself, not its target */
        unlinkat(tfd, nm, AT_REMOVEDIR); /* still locked: no run can have taken it */
        closedir(s);
    }
    closedir(d);
}

int tt_private_dir(char *out, size_t cap, const char *tmpdir, const char *prefix,
                   const char *const *dbs)
{
    tt_remove_stale_dirs(tmpdir, prefix, dbs);
    if ((size_t)snprintf(out, cap, "%s/%s-%ld-XXXXXX", tmpdir, prefix, (long)getpid()) >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!mkdtemp(out))
        return -1;
    int fd = open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        rmdir(out);
        errno = e;
        return -1;
    }
    return fd;
}

int tt_tmp_hold(int fd) { return flock(fd, LOCK_EX | LOCK_NB); }

/* Removes the "PATH.tmp-PID" an earlier run of this PID left, as a sweep would: only a
 * regular file (not a link) of this user that no live run holds, since a run of another PID
 * namespace sharing the directory may have this PID too. 1 when the name is free. */
static int take_old(const char *name)
{
    int fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT;
    struct stat sb;
    int ok = !fstat(fd, &sb) && S_ISREG(sb.st_mode) && ours_and_free(AT_FDCWD, name, fd, &sb) &&
             !unlink(name);
    close(fd);
    return ok;
}

int tt_tmp_create(char *out, size_t cap, const char *path, long n, unsigned mode, int *hold)
{
    int r = n < 0 ? snprintf(out, cap, "%s.tmp-%ld", path, (long)getpid())
                  : snprintf(out, cap, "%s.tmp-%ld-%ld", path, (long)getpid(), n);
    if (hold)
        *hold = -1;
    if (r < 0 || (size_t)r >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (n < 0 && !take_old(out)) { /* held or not ours: the first free PATH.tmp-PID-N */
        int fd = -1;
        for (long k = 0; k < 1000 && fd < 0; k++)
            if ((fd = tt_tmp_create(out, cap, path, k, mode, hold)) < 0 && errno != EEXIST)
                break;
        return fd;
    }
    int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode_t)mode);
    if (fd < 0)
        return -1;
    /* another run's sweep leaves a held temporary whatever our PID looks like from there */
    if (!tt_tmp_hold(fd) && hold)
        *hold = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    return fd;
}
