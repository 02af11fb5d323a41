/* Small helpers of the symbol store files (store_int.h): strings, paths, stats. */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *tsym__store_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

const char *tsym__store_base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int tsym__store_is_file(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

void tsym__store_count(tsym_store *s, const char *name, const char *file, const char *msg)
{
    tt_stats_add(s->stats, name, file, TT_SEV_WARN, 1, msg);
}

void tsym__store_count_told(tsym_store *s, const char *name, const char *file, const char *msg)
{
    tt_stats_add_told(s->stats, name, file, TT_SEV_WARN, 1, msg);
}

const char *tsym__store_bad_stat(const tt_error *err)
{
    if (err && (strstr(err->msg, "load command") || strstr(err->msg, "LC_") ||
                strstr(err->msg, "section ")))
        return "macho_bad_load_command";
    return "macho_bad_header";
}

void tsym__store_count_bad(tsym_store *s, const char *file, const tt_error *err, int told)
{
    char msg[TT_ERRMSG_MAX + 24];
    if (err->loc_kind == TT_LOC_OFFSET)
        snprintf(msg, sizeof msg, "0x%llx: %s", (unsigned long long)err->loc, err->msg);
    else
        snprintf(msg, sizeof msg, "%s", err->msg);
    if (told)
        tsym__store_count_told(s, tsym__store_bad_stat(err), file, msg);
    else
        tsym__store_count(s, tsym__store_bad_stat(err), file, msg);
}

int tsym__store_layout_file(char *out, size_t cap, const char *dir, const char *uuid)
{
    int r = snprintf(out, cap, "%s/uuid/%.2s/%s.macho", dir, uuid, uuid + 2);
    return r > 0 && (size_t)r < cap;
}

int tsym__store_is_tmp_name(const char *base)
{
    int numbered = 0;
    return tt_tmp_name(base, &numbered) && numbered;
}
