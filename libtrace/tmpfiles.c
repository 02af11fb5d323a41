/* Temporary files left by a run that was killed (kill -9: no handler ran): "FILE.tmp-PID"
 * beside an output FILE, and the private directories "PREFIX-PID-XXXXXX" of a run. Only
 * names of exactly that form whose PID is no live process are removed (tracetool(1)). */
#include "tt_int.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

void tt_remove_stale_tmp(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
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
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t bl = strlen(base);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        if (strncmp(nm, base, bl) || strncmp(nm + bl, ".tmp-", 5) || !dead_pid(nm + bl + 5, 0, NULL))
            continue;
        char full[8192];
        snprintf(full, sizeof full, "%s/%s", dir, nm);
        unlink(full);
    }
    closedir(d);
}

/* 1 for a file name a run's private directory may hold: its database and SQLite's files
 * beside it, its lock, its temporary "in.db.tmp-PID". */
static int private_file(const char *nm, const char *db)
{
    static const char *const sfx[] = {"", "-wal", "-shm", "-journal", ".lock"};
    size_t dl = strlen(db);
    if (strncmp(nm, db, dl))
        return 0;
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
        if (!strcmp(nm + dl, sfx[i]))
            return 1;
    return !strncmp(nm + dl, ".tmp-", 5);
}

void tt_remove_stale_dirs(const char *tmpdir, const char *prefix, const char *db)
{
    DIR *d = opendir(tmpdir);
    if (!d)
        return;
    size_t pl = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name, *rest;
        /* PREFIX-PID-XXXXXX (mkdtemp's six characters) */
        if (strncmp(nm, prefix, pl) || nm[pl] != '-' || !dead_pid(nm + pl + 1, '-', &rest) ||
            strlen(rest + 1) != 6)
            continue;
        char sub[4096];
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", tmpdir, nm) >= sizeof sub)
            continue;
        DIR *s = opendir(sub);
        if (!s)
            continue;
        struct dirent *f;
        while ((f = readdir(s))) {
            char full[8192];
            if (!private_file(f->d_name, db))
                continue; /* anything else stays, and so does the directory */
            snprintf(full, sizeof full, "%s/%s", sub, f->d_name);
            unlink(full);
        }
        closedir(s);
        rmdir(sub);
    }
    closedir(d);
}
