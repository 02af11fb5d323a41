/* File names given to SQLite. SQLite builds that read URIs (Debian's) take a name starting
 * with "file:" for one, so a file of that name, relative, is given as "./file:..."; a read-only
 * open that must not create SQLite's files goes through a "file:" URI of its own. */
#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

char *tdb__file_name(const char *path)
{
    return sqlite3_mprintf(strncmp(path, "file:", 5) ? "%s" : "./%s", path);
}

int tdb__open(const char *path, sqlite3 **h, int flags)
{
    *h = NULL;
    char *p = tdb__file_name(path);
    if (!p)
        return SQLITE_NOMEM;
    int rc = sqlite3_open_v2(p, h, flags, NULL);
    sqlite3_free(p);
    if (rc == SQLITE_OK)
        tdb__untrusted(*h);
    return rc;
}

/* "file:" URI with every byte outside the unreserved set percent-encoded. */
char *tdb__path_uri(const char *path, int immutable)
{
    size_t n = strlen(path);
    char *u = malloc(n * 3 + 64);
    if (!u)
        return NULL;
    char *o = u + sprintf(u, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-_.~", *p))
            *o++ = (char)*p;
        else
            o += sprintf(o, "%%%02X", *p);
    }
    strcpy(o, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
    return u;
}

