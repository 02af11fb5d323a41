/* The symbol store's state, shared by store.c (the store and its module cache),
 * store_scan.c (file names below the stores), store_search.c (the ELF search order),
 * store_macho.c (Mach-O by UUID), store_add.c (adding files) and store_util.c (small
 * helpers), spec/symbolication.md 4.2, 4.3, 5.5, 10 and spec/ios.md 8. */
#ifndef TSYM_STORE_INT_H
#define TSYM_STORE_INT_H

#include "tsym_int.h"

typedef struct scanned {
    char *path;
    const char *base;
    char build_id[TSYM_BUILD_ID_HEX_MAX];
    int macho, has_dwarf; /* Mach-O: one entry per slice, build_id = its LC_UUID */
    int bad;              /* an ELF file that cannot be read (truncated, corrupt): no build
                           * id; a module of its name names it with why (store_search.c) */
    char arch[16];
} scanned;

struct tsym_store {
    char **dirs;
    size_t n_dirs;
    tt_stats *stats;
    int scanned_done;
    tt_vec files;   /* scanned, sorted by path */
    tsym_dsym **dsyms; /* --dsym arguments (spec/ios.md 8.2), searched first */
    size_t n_dsyms;
    tt_vec dfiles;  /* scanned files of the --dsym paths */
    tt_vec entries; /* entry (store.c); entries[i].key is keys' string i */
    tt_intern *keys;
};

/* ---- helpers (store_util.c) ---- */

/* A malloc'ed copy of s; NULL when out of memory. */
char *tsym__store_dup(const char *s);
/* The file name part of p (borrowed from p). */
const char *tsym__store_base_name(const char *p);
/* 1 when p names a regular file. */
int tsym__store_is_file(const char *p);
/* Counts the warning name with its example msg into the store's stats. */
void tsym__store_count(tsym_store *s, const char *name, const char *file, const char *msg);
/* The same when msg is also the message of the error (or the module warning) returned to
 * the caller, who prints it: the summary counts it without repeating it (tt_stats_add_told). */
void tsym__store_count_told(tsym_store *s, const char *name, const char *file, const char *msg);
/* The stat of a rejected Mach-O file or slice: macho_bad_load_command when err is about a
 * load command or section, else macho_bad_header (spec/ios.md 14). */
const char *tsym__store_bad_stat(const tt_error *err);
/* Counts that stat for file with err's message, prefixed by its byte offset when it has one;
 * told: err is returned to the caller too (tsym__store_count_told). */
void tsym__store_count_bad(tsym_store *s, const char *file, const tt_error *err, int told);
/* DIR/uuid/aa/rest.macho, the store's file of a Mach-O UUID (spec/ios.md 8.2); 0 when
 * it does not fit in cap bytes. */
int tsym__store_layout_file(char *out, size_t cap, const char *dir, const char *uuid);

/* 1 when file name base is a temporary name ENTRY.tmp-PID-N (tt_tmp_name) of an entry being
 * written (store_add.c, tt_tmp_create) or left by a killed run: never read, and what the
 * sweep of tt_remove_stale_tmp_in removes; ENTRY.tmp-PID is neither. */
int tsym__store_is_tmp_name(const char *base);

/* Scans the stores and --dsym paths once (s->files, s->dfiles), store_scan.c. */
void tsym__store_scan(tsym_store *s);
/* The module of path and/or build id bid_in through the search order (spec 4.3),
 * store_search.c; owned by the caller. device: path is a device's (a backtrace's), so a
 * relative one is a name only, never a file of the current directory. */
int tsym__store_search(tsym_module **out, tsym_store *s, const char *path, const char *bid_in,
                       int device, tt_error *err);
/* Is uuid known to the stores as a Mach-O image or dSYM? (store_macho.c) */
int tsym__store_macho_known(tsym_store *s, const char *uuid);
/* --dsym NAME=PATH bound to path's file name while the image has UUID uuid: 1 with msg
 * naming the dSYM file and both UUIDs when no bound file carries uuid (spec/ios.md 8.1),
 * else 0. */
int tsym__store_bound_mismatch(const tsym_store *s, const char *path, const char *uuid,
                               char *msg, size_t cap);
/* The Mach-O module of path and/or UUID bid: debug information by LC_UUID only
 * (spec/ios.md 8), store_macho.c; owned by the caller. */
int tsym__store_search_macho(tsym_module **out, tsym_store *s, const char *path,
                             const char *bid, tt_error *err);

#endif
