/* SQLite's -wal and -shm files beside a database read without write access (storage.md
 * 5.4). A read-only connection to a WAL database creates them when they are missing, but
 * cannot remove them when it closes: only a connection that can write checkpoints the log
 * and deletes both files, and only when it is the last one open on the database. So after a
 * read-only connection that found neither file, a short read-write connection reads the
 * header and closes; SQLite then removes the files unless another connection (a writer, a
 * second reader) still uses them, in which case that one's close does. */
#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tdb_int.h"

static int exists_with(const char *path, const char *suffix)
{
    size_t n = strlen(path) + 8;
    char *p = malloc(n);
    if (!p)
        return 1; /* unknown: leave the files alone */
    snprintf(p, n, "%s%s", path, suffix);
    int r = access(p, F_OK) == 0;
    free(p);
    return r;
}

int tdb__wal_absent(const char *path)
{
    return !exists_with(path, "-wal") && !exists_with(path, "-shm");
}

void tdb__wal_tidy(const char *path)
{
    if (tdb__wal_absent(path))
        return;
    sqlite3 *h = NULL;
    /* no SQLITE_OPEN_CREATE: a file removed meanwhile is not recreated; a file that cannot be
     * written opens read-only and is left as it is */
    if (tdb__open(path, &h, SQLITE_OPEN_READWRITE) == SQLITE_OK &&
        sqlite3_db_readonly(h, "main") == 0)
        sqlite3_exec(h, "PRAGMA schema_version", NULL, NULL, NULL); /* opens the log */
    sqlite3_close(h);
}

int tdb__wal_frames(const char *path)
{
    size_t n = strlen(path) + 8;
    char *p = malloc(n);
    if (!p)
        return -1;
    snprintf(p, n, "%s-wal", path);
    struct stat sb;
    /* the log's header is 32 bytes; each frame after it is a page written by a transaction
     * (SQLite's file format, section 4.1) */
    int frames = stat(p, &sb) == 0 && sb.st_size > 32;
    free(p);
    return frames;
}

int tdb__wal_unread(const char *path, tt_error *err)
{
    int frames = tdb__wal_frames(path);
    if (frames < 0)
        return tt_error_set(err, TT_ENOMEM, path, 0, 0, "out of memory");
    if (!frames)
        return 0;
    return tt_error_set(err, TT_EUNSUPPORTED, path, 0, 0,
                        "its write-ahead log %s-wal holds changes that cannot be read on a "
                        "read-only file system or directory: copy %s and %s-wal to a "
                        "writable directory",
                        path, path, path);
}
