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

static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return -1;
    int outfd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (outfd < 0) {
        close(in);
        return -1;
    }
    char buf[65536];
    ssize_t n;
    int rc = 0;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(outfd, buf, (size_t)n) != n) {
            rc = -1;
            break;
        }
    if (n < 0)
        rc = -1;
    close(in);
    if (close(outfd))
        rc = -1;
    return rc;
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
    if (strlen(e.build_id) < 3)
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_NONE, 0,
                            "no GNU build id note: cannot be stored by build id");
    char d[4096];
    snprintf(d, sizeof d, "%s/.build-id/%.2s", dir, e.build_id);
    if (mkdirs(d))
        return tt_error_set(err, TT_EIO, d, TT_LOC_NONE, 0, "%s", strerror(errno));
    snprintf(dest, cap, "%s/%s%s", d, e.build_id + 2, e.has_debug_info ? ".debug" : "");
    if (unlink(dest) && errno != ENOENT)
        return tt_error_set(err, TT_EIO, dest, TT_LOC_NONE, 0, "%s", strerror(errno));
    if (link(file, dest) == 0 || copy_file(file, dest) == 0)
        return 0;
    return tt_error_set(err, TT_EIO, dest, TT_LOC_NONE, 0, "%s", strerror(errno));
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
        unlink(p);
        int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, m.p, (size_t)m.n) != (ssize_t)m.n) {
            rc = tt_error_set(err, TT_EIO, p, TT_LOC_NONE, 0, "%s", strerror(errno));
            if (fd >= 0)
                close(fd);
            unlink(p);
            break;
        }
        if (close(fd))
            rc = tt_error_set(err, TT_EIO, p, TT_LOC_NONE, 0, "%s", strerror(errno));
    }
    tsym__macho_close(&m);
    if (!rc && !dest[0])
        rc = tt_error_set(err, TT_EFORMAT, file, TT_LOC_NONE, 0,
                          "no LC_UUID: cannot be stored by UUID");
    return rc;
}
