/* Adding files to a symbol store (spec/symbolication.md 4.2, spec/ios.md 8.2): ELF files
 * by build id (hard link or copy), Mach-O slices by UUID. */
#include "store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- adding files to a store ---- */

static int mkdirs(char *p)
{
    for (char *c = p + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = 0;
        int r = mkdir(p, 0777);
        *c = '/';
        if (r && errno != EEXIST)
            return -1;
    }
    return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

/* Entries appear whole or not at all: each is written to a temporary file beside it
 * (DEST.tmp-PID-N, created with O_EXCL so that umask applies as to any new file, and held
 * with flock while it lives: tt_tmp_create), flushed to the disk and renamed over DEST; a
 * failure removes the temporary file and leaves an entry already there as it was. A run
 * killed while writing can leave a temporary file, never a partial entry: lookups open the
 * final names, the scan of a store skips them, and the next run that adds an entry to that
 * directory removes them (tt_remove_stale_tmp_in: dead PID, this user's regular file, not
 * held). */
static int tmp_create(char *tmp, size_t cap, const char *dest, int *hold)
{
    static unsigned n;
    for (int tries = 0; tries < 100; tries++) {
        int fd = tt_tmp_create(tmp, cap, dest, (long)n++, 0644, hold);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

/* Removes what killed runs left in dest's directory. */
static void sweep_beside(const char *dest)
{
    char d[4200];
    const char *slash = strrchr(dest, '/');
    size_t n = slash ? (size_t)(slash - dest) : 0;
    if (!slash || !n || n >= sizeof d)
        return;
    memcpy(d, dest, n);
    d[n] = 0;
    tt_remove_stale_tmp_in(d);
}

/* Writes all n bytes (write(2) moves at most about 2 GiB per call, and may move less). */
static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Finishes temporary file tmp (fd open on it, or -1 for a hard link): flushed, closed and
 * renamed over dest; on failure removed, with errno kept for the message. hold (the flock
 * of tmp, or -1) is released last. */
static int tmp_commit(int fd, const char *tmp, const char *dest, int failed, int hold)
{
    int e = failed ? errno : 0;
    if (fd >= 0) {
        if (!e && fsync(fd))
            e = errno;
        if (close(fd) && !e)
            e = errno;
    }
    if (!e && rename(tmp, dest))
        e = errno;
    /* after a rename too: when tmp and dest are links to one file (a file stored again),
     * rename succeeds and leaves both names */
    unlink(tmp);
    if (hold >= 0)
        close(hold);
    errno = e;
    return e ? -1 : 0;
}

/* dest becomes a hard link to from or, across file systems, a copy of it. */
static int store_file(const char *from, const char *dest)
{
    char tmp[4200];
    int hold;
    sweep_beside(dest);
    int fd = tmp_create(tmp, sizeof tmp, dest, &hold);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(tmp); /* the name is ours (pid, counter): link needs it free */
    if (hold >= 0)
        close(hold);
    if (link(from, tmp) == 0) {
        /* held as a written one is (the lock is on the linked file, and advisory) */
        hold = open(tmp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (hold >= 0 && tt_tmp_hold(hold)) {
            close(hold);
            hold = -1;
        }
        return tmp_commit(-1, tmp, dest, 0, hold);
    }
    if ((fd = tmp_create(tmp, sizeof tmp, dest, &hold)) < 0)
        return -1;
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int failed = in < 0;
    char buf[65536];
    ssize_t n = 0;
    while (!failed && ((n = read(in, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
        failed = n > 0 && write_all(fd, buf, (size_t)n);
    failed |= n < 0;
    if (in >= 0) {
        int e = errno;
        close(in);
        errno = e;
    }
    return tmp_commit(fd, tmp, dest, failed, hold);
}

/* dest holds the n bytes at p. */
static int store_bytes(const void *p, size_t n, const char *dest)
{
    char tmp[4200];
    int hold;
    sweep_beside(dest);
    int fd = tmp_create(tmp, sizeof tmp, dest, &hold);
    if (fd < 0)
        return -1;
    return tmp_commit(fd, tmp, dest, write_all(fd, p, n) != 0, hold);
}

static int add_macho(char *dest, size_t cap, const char *dir, const char *file, tt_error *err);

int tsym_store_add(char *dest, size_t cap, const char *dir, const char *file, tt_error *err)
{
    char f[4096];
    if (!tsym_dsym_file(f, sizeof f, file) && tsym__macho_file(f))
        return add_macho(dest, cap, dir, file, err);
    tsym__elf e;
    int rc = tsym__elf_read(&e, NULL, 0, file, err);
    if (rc)
        return rc;
    if (strlen(e.build_id) < 3 && e.split_kind)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_NONE, 0,
                            "a split DWARF %s has no build id to be stored by: store the "
                            "binary it belongs to, with its .dwp package beside it as "
                            "BINARY.dwp (the package is stored with the binary)",
                            e.split_kind == 2 ? "package (.dwp)" : "file (.dwo)");
    if (strlen(e.build_id) < 3)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_NONE, 0,
                            "no GNU build id note: cannot be stored by build id");
    char d[4096];
    snprintf(d, sizeof d, "%s/.build-id/%.2s", dir, e.build_id);
    if (mkdirs(d))
        return tt_error_set(err, TT_EIO, d, TT_LOC_NONE, 0, "%s", strerror(errno));
    snprintf(dest, cap, "%s/%s%s", d, e.build_id + 2, e.has_debug_info ? ".debug" : "");
    if (store_file(file, dest) == 0)
        return 0;
    return tt_error_set(err, TT_EIO, dest, TT_LOC_NONE, 0, "cannot store %s here: %s", file,
                        strerror(errno));
}

int tsym_store_add_dwp(char *dest, size_t cap, const char *stored, const char *file,
                       tt_error *err)
{
    char dwp[4200];
    snprintf(dest, cap, "%s.dwp", stored);
    if (snprintf(dwp, sizeof dwp, "%s.dwp", file) >= (int)sizeof dwp ||
        !tsym__store_is_file(dwp))
        return 1;
    tsym__elf e;
    int rc = tsym__elf_read(&e, NULL, 0, dwp, err);
    if (rc)
        return rc;
    if (e.split_kind != 2)
        return tt_error_set(err, TT_EFORMAT, dwp, TT_LOC_NONE, 0,
                            "not a split DWARF package: no .debug_cu_index section");
    if (store_file(dwp, dest) == 0)
        return 0;
    return tt_error_set(err, TT_EIO, dest, TT_LOC_NONE, 0, "cannot store %s here: %s", dwp,
                        strerror(errno));
}

int tsym_store_macho_path(char *dest, size_t cap, const char *dir, const char *uuid)
{
    return strlen(uuid) == 32 && tsym__store_layout_file(dest, cap, dir, uuid) ? 0 : TT_EINVAL;
}

/* Writes each slice with a UUID to DIR/uuid/aa/rest.macho, once per UUID (spec/ios.md 8.2) */
static int add_macho(char *dest, size_t cap, const char *dir, const char *file, tt_error *err)
{
    char f[4096];
    if (tsym_dsym_file(f, sizeof f, file))
        return tt_error_set(err, TT_ENOTFOUND, file, TT_LOC_NONE, 0, "no such file");
    tsym__macho m;
    int rc = tsym__macho_open(&m, f, err);
    dest[0] = 0;
    for (size_t i = 0; !rc && i < m.n_slices; i++) {
        if ((rc = tsym__macho_select(&m, i, err)))
            break;
        if (!m.uuid[0])
            continue;
        char p[4200];
        tsym__store_layout_file(p, sizeof p, dir, m.uuid);
        if (!dest[0])
            snprintf(dest, cap, "%s", p);
        tsym_macho_slice old[TSYM_MACHO_MAX_SLICES];
        size_t n_old = 0;
        tt_error oe;
        if (tsym__store_is_file(p) &&
            (!m.has_dwarf || (!tsym_macho_slices(old, 1, &n_old, p, &oe) && old[0].has_dwarf)))
            continue; /* written once per UUID; a dSYM slice replaces a binary */
        char *slash = strrchr(p, '/');
        *slash = 0;
        if (mkdirs(p)) {
            rc = tt_error_set(err, TT_EIO, p, TT_LOC_NONE, 0, "%s", strerror(errno));
            break;
        }
        *slash = '/';
        if (store_bytes(m.p, (size_t)m.n, p)) {
            rc = tt_error_set(err, TT_EIO, p, TT_LOC_NONE, 0, "cannot store %s (%s) here: %s",
                              file, m.arch, strerror(errno));
            break;
        }
    }
    tsym__macho_close(&m);
    if (!rc && !dest[0])
        rc = tt_error_set(err, TT_EFORMAT, file, TT_LOC_NONE, 0,
                          "no LC_UUID: cannot be stored by UUID");
    return rc;
}
