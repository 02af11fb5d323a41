/* The debug-information search order of an ELF module (spec/symbolication.md 4.3): store
 * files by build id, scanned files, the file itself, .gnu_debuglink; Mach-O modules go to
 * store_macho.c. */
#include "store_int.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* snprintf that reports truncation (a truncated path names some other file) */
static int fmt_path(char *out, size_t cap, const char *a, const char *mid, const char *b)
{
    int r = snprintf(out, cap, "%s%s%s", a, mid, b);
    if (r < 0 || (size_t)r >= cap) {
        out[0] = 0;
        return 0;
    }
    return 1;
}

/* ---- the search (spec 4.3) ---- */

typedef struct search {
    const char *bid;
    char mismatch[300];   /* first build-id mismatch */
    char fallback[4096];  /* a verified file without DWARF (symbol table only) */
    char skipped[TT_ERRMSG_MAX - 64]; /* "debug file P: why" of every file passed over */
} search;

/* Notes why debug file p was not used, once per file (the search may meet it twice) */
static void skip(search *q, const char *p, const char *fmt, ...)
{
    size_t n = strlen(q->skipped), pn = strlen(p);
    for (const char *t = strstr(q->skipped, p); t; t = strstr(t + 1, p))
        if ((t == q->skipped || t[-1] == ' ') && (t[pn] == ':' || t[pn] == ' '))
            return;
    if (n + 16 >= sizeof q->skipped)
        return;
    int k = snprintf(q->skipped + n, sizeof q->skipped - n, "%sdebug file %s", n ? "; " : "", p);
    if (k < 0 || (size_t)k >= sizeof q->skipped - n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(q->skipped + n + (size_t)k, sizeof q->skipped - n - (size_t)k, fmt, ap);
    va_end(ap);
}

static void mismatch(search *q, const char *p, const char *has)
{
    if (!q->mismatch[0])
        snprintf(q->mismatch, sizeof q->mismatch, "debug file %s has build id %s, expected %s",
                 p, has, q->bid);
    skip(q, p, " has build id %s, expected %s", has, q->bid);
}

/* A candidate: exists, is ELF, has build id == bid. Returns 1 when it has DWARF. */
static int candidate(search *q, const char *p)
{
    if (!tsym__store_is_file(p))
        return 0;
    tsym__elf e;
    tt_error err;
    if (tsym__elf_read(&e, NULL, 0, p, &err)) {
        skip(q, p, ": %s", err.msg);
        return 0;
    }
    if (strcmp(e.build_id, q->bid)) {
        mismatch(q, p, e.build_id[0] ? e.build_id : "(none)");
        return 0;
    }
    if (e.has_debug_info || e.zstd)
        return 1;
    if (!q->fallback[0])
        snprintf(q->fallback, sizeof q->fallback, "%s", p);
    return 0;
}

static uint32_t file_crc(const char *p, int *ok)
{
    *ok = 0;
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    unsigned char buf[65536];
    uLong crc = crc32(0L, Z_NULL, 0);
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        crc = crc32(crc, buf, (uInt)n);
    close(fd);
    *ok = n == 0;
    return (uint32_t)crc;
}

static int debuglink_ok(search *q, const char *p, uint32_t want_crc)
{
    int ok;
    if (!tsym__store_is_file(p))
        return 0;
    uint32_t crc = file_crc(p, &ok);
    if (!ok) {
        skip(q, p, ": cannot be read");
        return 0;
    }
    if (crc != want_crc) {
        skip(q, p, ": CRC32 %08x, .gnu_debuglink expects %08x", crc, want_crc);
        return 0;
    }
    tsym__elf e;
    tt_error err;
    if (tsym__elf_read(&e, NULL, 0, p, &err)) {
        skip(q, p, ": %s", err.msg);
        return 0;
    }
    if (!e.has_debug_info) {
        skip(q, p, ": no DWARF debug information");
        return 0;
    }
    if (q->bid[0] && e.build_id[0] && strcmp(q->bid, e.build_id)) {
        mismatch(q, p, e.build_id);
        return 0;
    }
    return 1;
}

static int find_debuglink(tsym_store *s, search *q, const char *local, const tsym__elf *le,
                          char *out, size_t cap)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", local);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    const char *name = le->debuglink;
    if (fmt_path(out, cap, dir, "/", name) && strcmp(out, local) &&
        debuglink_ok(q, out, le->debuglink_crc))
        return 1;
    if (fmt_path(out, cap, dir, "/.debug/", name) && debuglink_ok(q, out, le->debuglink_crc))
        return 1;
    for (size_t i = 0; i < s->n_dirs; i++)
        if (fmt_path(out, cap, s->dirs[i], "/", name) && debuglink_ok(q, out, le->debuglink_crc))
            return 1;
    tsym__store_scan(s);
    for (size_t i = 0; i < s->files.len; i++) {
        const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
        if (!strcmp(f->base, name) && debuglink_ok(q, f->path, le->debuglink_crc)) {
            snprintf(out, cap, "%s", f->path);
            return 1;
        }
    }
    return 0;
}

/* Steps 1-2: store files named by build id, then scanned files with that build id. */
static int find_by_build_id(tsym_store *s, search *q, char *out, size_t cap)
{
    size_t n = strlen(q->bid);
    if (n < 3)
        return 0;
    char rel[TSYM_BUILD_ID_HEX_MAX + 32];
    for (size_t i = 0; i < s->n_dirs; i++) {
        snprintf(rel, sizeof rel, "/.build-id/%.2s/%s.debug", q->bid, q->bid + 2);
        if (fmt_path(out, cap, s->dirs[i], rel, "") && candidate(q, out))
            return 1;
        snprintf(rel, sizeof rel, "/.build-id/%.2s/%s", q->bid, q->bid + 2);
        if (fmt_path(out, cap, s->dirs[i], rel, "") && candidate(q, out))
            return 1;
    }
    tsym__store_scan(s);
    for (size_t i = 0; i < s->files.len; i++) {
        const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
        if (!strcmp(f->build_id, q->bid) && candidate(q, f->path)) {
            snprintf(out, cap, "%s", f->path);
            return 1;
        }
    }
    return 0;
}

int tsym__store_search(tsym_module **out, tsym_store *s, const char *path, const char *bid_in,
                       int device, tt_error *err)
{
    char mf[4096], ma[32];
    /* --dsym NAME=PATH binds a dSYM to an image named NAME given without UUID (spec/ios.md
     * 4.1): the dSYM's own UUID and __TEXT are used, unverified */
    for (size_t i = 0; path && (!bid_in || !*bid_in) && i < s->n_dsyms; i++)
        if (s->dsyms[i]->name && !strcmp(s->dsyms[i]->name, tsym__store_base_name(path))) {
            const tsym_dsym *d = s->dsyms[i];
            tsym__store_count(s, "sym_unverified_module", path,
                              "bound by --dsym NAME=PATH, no UUID to check");
            if (d->arch[0]) /* a slice of d->file, checked when it was added */
                return tsym__module_open_macho(out, d->file, d->arch, NULL, NULL, err);
            return tsym__module_open_macho(out, NULL, NULL, d->path, NULL, err);
        }
    /* --dsym NAME=PATH whose UUID is not the image's: refused and named (spec/ios.md 8.1) */
    char bmis[600];
    int refused = path && bid_in && *bid_in &&
                  tsym__store_bound_mismatch(s, path, bid_in, bmis, sizeof bmis);
    if (refused && !tsym__store_macho_known(s, bid_in)) {
        tsym__store_count_told(s, "macho_uuid_mismatch", path, bmis);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_NONE, 0, "%s", bmis);
    }
    if (refused)
        tsym__store_count(s, "macho_uuid_mismatch", path, bmis);
    if ((path && tsym__macho_split(mf, sizeof mf, ma, sizeof ma, path)) ||
        (bid_in && !(path && tsym__store_is_file(path)) && tsym__store_macho_known(s, bid_in)))
        return tsym__store_search_macho(out, s, path, bid_in && *bid_in ? bid_in : NULL, err);
    /* a device's relative path (base.apk!libfoo.so) names no file of the current directory */
    const char *local =
            path && (!device || path[0] == '/') && tsym__store_is_file(path) ? path : NULL;
    const char *label = path ? path : bid_in;
    char bid[TSYM_BUILD_ID_HEX_MAX] = "";
    snprintf(bid, sizeof bid, "%s", bid_in ? bid_in : "");
    tsym__elf le = {0};
    /* the module file when it cannot be this build's: step 3 passes it over, the search goes
     * on (a file of another build shadows no store entry) */
    const char *other = NULL;
    tt_error lerr = {0};
    int lrc = 0;
    if (local) {
        lrc = tsym__elf_read(&le, NULL, 0, local, &lerr);
        if (lrc && !bid[0]) {
            if (err)
                *err = lerr;
            return lrc;
        }
        if (lrc || (bid[0] && le.build_id[0] && strcmp(bid, le.build_id))) {
            other = local;
            local = NULL;
        }
        if (!bid[0])
            snprintf(bid, sizeof bid, "%s", le.build_id);
    } else if (!bid[0] && path) {
        /* a bare name: the first scanned file with that name defines the module */
        tsym__store_scan(s);
        for (size_t i = 0; i < s->files.len && !local; i++) {
            const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
            if (!strcmp(f->base, tsym__store_base_name(path)) && f->macho)
                return tsym__store_search_macho(out, s, NULL, f->build_id, err); /* by its UUID */
            if (!strcmp(f->base, tsym__store_base_name(path)) && !f->macho && !f->bad)
                local = f->path;
        }
        /* else one that cannot be read: the error below names it with why */
        for (size_t i = 0; i < s->files.len && !local; i++) {
            const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
            if (f->bad && !strcmp(f->base, tsym__store_base_name(path)))
                local = f->path;
        }
        if (!local) {
            tsym__store_count(s, "sym_module_not_found", label, NULL);
            return tt_error_set(err, TT_ENOTFOUND, label, TT_LOC_NONE, 0,
                                "module not found (no such file, not in the symbol stores)");
        }
        int rc = tsym__elf_read(&le, NULL, 0, local, err);
        if (rc)
            return rc;
        snprintf(bid, sizeof bid, "%s", le.build_id);
    }
    search q = {.bid = bid};
    char found[4096] = "";
    int have = bid[0] && find_by_build_id(s, &q, found, sizeof found);
    if (!have && path) { /* store files of its name that cannot be read: named with why */
        tsym__store_scan(s);
        for (size_t i = 0; i < s->files.len; i++) {
            const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
            if (f->bad && !strcmp(f->base, tsym__store_base_name(path)))
                (void)candidate(&q, f->path);
        }
    }
    if (!have && other && lrc)
        skip(&q, other, ": %s", lerr.msg);
    else if (!have && other)
        mismatch(&q, other, le.build_id);
    if (!have && local && (le.has_debug_info || le.zstd)) {
        snprintf(found, sizeof found, "%s", local);
        have = 1;
    }
    if (!have && local && le.debuglink[0])
        have = find_debuglink(s, &q, local, &le, found, sizeof found);
    const char *modfile = local ? local : q.fallback[0] ? q.fallback : NULL;
    if (!have && !modfile) {
        if (!q.mismatch[0] && path) {
            /* same name, other build: a stale store gives wrong names, refuse it */
            tsym__store_scan(s);
            for (size_t i = 0; i < s->files.len; i++) {
                const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
                if (!f->bad && !strcmp(f->base, tsym__store_base_name(path))) {
                    snprintf(q.mismatch, sizeof q.mismatch, "%s has build id %s, expected %s",
                             f->path, f->build_id[0] ? f->build_id : "(none)", bid);
                    break;
                }
            }
        }
        if (q.mismatch[0]) {
            tsym__store_count_told(s, "sym_build_id_mismatch", label, q.mismatch);
            return tt_error_set(err, TT_EFORMAT, label, TT_LOC_NONE, 0, "%s", q.mismatch);
        }
        /* a UUID-sized build id no store knows while --dsym gave Mach-O files: a dSYM of
         * another build was given, named with both UUIDs (spec/ios.md 8.1) */
        for (size_t i = 0; !path && strlen(bid) == 32 && i < s->dfiles.len; i++)
            if (TT_VEC_AT(&s->dfiles, scanned, i).macho)
                return tsym__store_search_macho(out, s, NULL, bid, err);
        tsym__store_count(s, "sym_module_not_found", label, NULL);
        return tt_error_set(err, TT_ENOTFOUND, label, TT_LOC_NONE, 0,
                            "no debug information found for build id %s%s%s",
                            bid[0] ? bid : "(none)", q.skipped[0] ? "; skipped " : "",
                            q.skipped);
    }
    int rc = tsym__module_open_dirs(out, modfile,
                                    have && (!modfile || strcmp(found, modfile)) ? found : NULL,
                                    s->dirs, s->n_dirs, err);
    if (rc) {
        tsym__store_count_told(s, "sym_dwarf_error", label, err ? err->msg : NULL);
        return rc;
    }
    if (q.skipped[0]) /* files passed over on the way, named with why (spec 4.3) */
        tsym__module_note(*out, q.skipped);
    const tsym_module_info *mi = tsym_module_info_get(*out);
    if (tsym_module_no_debug_info(mi))
        tsym__store_count(s, "sym_no_debug_info", label, NULL);
    if (mi->split_dwarf)
        tsym__store_count(s, "sym_split_dwarf", label, NULL);
    else if (mi->warning[0])
        tsym__store_count_told(s, "sym_dwarf_error", label, mi->warning); /* the warning */
    return 0;
}
