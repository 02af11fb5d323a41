/* Symbol store directories, the debug-information search order and the module cache
 * (spec/symbolication.md 4.2, 4.3, 5.5, 10). */
#include "tsym_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define SCAN_DEPTH 8

typedef struct scanned {
    char *path;
    const char *base;
    char build_id[TSYM_BUILD_ID_HEX_MAX];
    int macho, has_dwarf; /* Mach-O: one entry per slice, build_id = its LC_UUID */
    char arch[16];
} scanned;

typedef struct entry {
    char *key;
    tsym_module *mod; /* NULL: failed, see rc/err */
    int rc, owner;    /* owner: this entry frees mod (aliases do not) */
    tt_error err;
} entry;

struct tsym_store {
    char **dirs;
    size_t n_dirs;
    tt_stats *stats;
    int scanned_done;
    tt_vec files;   /* scanned, sorted by path */
    char **dsyms;   /* --dsym paths (spec/ios.md 8.2), searched first */
    char **dsym_names; /* NAME of --dsym NAME=PATH, or NULL */
    size_t n_dsyms;
    tt_vec dfiles;  /* scanned files of the --dsym paths */
    tt_vec entries; /* entry; entries[i].key is keys' string i */
    tt_intern *keys;
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

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

static int is_file(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int tsym_store_new(tsym_store **out, const char *const *dirs, size_t n_dirs, tt_stats *stats,
                   tt_error *err)
{
    tsym_store *s = calloc(1, sizeof *s);
    if (!s || (n_dirs && !(s->dirs = calloc(n_dirs, sizeof *s->dirs)))) {
        free(s);
        return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    }
    s->stats = stats;
    tt_vec_init(&s->files, sizeof(scanned));
    tt_vec_init(&s->dfiles, sizeof(scanned));
    tt_vec_init(&s->entries, sizeof(entry));
    if (!(s->keys = tt_intern_new())) {
        tsym_store_free(s);
        return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    }
    for (size_t i = 0; i < n_dirs; i++) {
        if (!(s->dirs[i] = dup_str(dirs[i]))) {
            tsym_store_free(s);
            return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
        }
        s->n_dirs++;
    }
    *out = s;
    return 0;
}

void tsym_store_free(tsym_store *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_dirs; i++)
        free(s->dirs[i]);
    free(s->dirs);
    for (size_t i = 0; i < s->files.len; i++)
        free(TT_VEC_AT(&s->files, scanned, i).path);
    tt_vec_free(&s->files);
    for (size_t i = 0; i < s->dfiles.len; i++)
        free(TT_VEC_AT(&s->dfiles, scanned, i).path);
    tt_vec_free(&s->dfiles);
    for (size_t i = 0; i < s->n_dsyms; i++) {
        free(s->dsyms[i]);
        free(s->dsym_names[i]);
    }
    free(s->dsyms);
    free(s->dsym_names);
    for (size_t i = 0; i < s->entries.len; i++) {
        entry *e = &TT_VEC_AT(&s->entries, entry, i);
        if (e->owner)
            tsym_module_free(e->mod);
        free(e->key);
    }
    tt_vec_free(&s->entries);
    tt_intern_free(s->keys);
    free(s);
}

/* ---- scanning (plain file names anywhere below a store, spec 4.2) ---- */

/* Records every slice of a Mach-O file; 1 when p was one (p then owned by v). */
static int scan_macho(tt_vec *v, char *p)
{
    tsym_macho_slice sl[TSYM_MACHO_MAX_SLICES];
    size_t n = 0;
    tt_error e;
    if (!tsym__macho_file(p) || tsym_macho_slices(sl, TSYM_MACHO_MAX_SLICES, &n, p, &e) || !n)
        return 0;
    size_t pushed = 0;
    for (size_t i = 0; i < n && i < TSYM_MACHO_MAX_SLICES; i++) {
        if (!sl[i].uuid[0])
            continue;
        scanned f = {.path = pushed ? dup_str(p) : p, .macho = 1, .has_dwarf = sl[i].has_dwarf};
        if (!f.path)
            break;
        f.base = base_name(f.path);
        snprintf(f.build_id, sizeof f.build_id, "%s", sl[i].uuid);
        snprintf(f.arch, sizeof f.arch, "%s", sl[i].arch);
        if (!tt_vec_push(v, &f)) {
            if (pushed)
                free(f.path);
            break;
        }
        pushed++;
    }
    return pushed > 0;
}

static void scan_dir_into(tt_vec *v, const char *dir, int depth);

static void scan_dir(tsym_store *s, const char *dir, int depth)
{
    scan_dir_into(&s->files, dir, depth);
}

static void scan_dir_into(tt_vec *v, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..") ||
                                     !strcmp(de->d_name, ".build-id")))
            continue;
        size_t n = strlen(dir) + strlen(de->d_name) + 2;
        char *p = malloc(n);
        if (!p)
            break;
        snprintf(p, n, "%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && depth < SCAN_DEPTH) {
            scan_dir_into(v, p, depth + 1);
        } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            scanned f = {.path = p};
            tt_error e;
            int r = tsym_elf_build_id(f.build_id, sizeof f.build_id, p, &e);
            if (r == 0 || r == TT_ENOTFOUND) {
                f.base = base_name(p);
                if (tt_vec_push(v, &f))
                    continue;
            } else if (scan_macho(v, p)) {
                continue;
            }
        }
        free(p);
    }
    closedir(d);
}

static int cmp_scanned(const void *a, const void *b)
{
    return strcmp(((const scanned *)a)->path, ((const scanned *)b)->path);
}

static void scan_stores(tsym_store *s)
{
    if (s->scanned_done)
        return;
    s->scanned_done = 1;
    for (size_t i = 0; i < s->n_dsyms; i++) {
        size_t from = s->dfiles.len;
        char f[4096];
        struct stat st;
        if (!tsym_dsym_file(f, sizeof f, s->dsyms[i]) && stat(f, &st) == 0 &&
            S_ISREG(st.st_mode)) {
            char *p = dup_str(f);
            if (p && !scan_macho(&s->dfiles, p))
                free(p);
        } else {
            scan_dir_into(&s->dfiles, s->dsyms[i], 0);
        }
        if (s->dfiles.len > from)
            qsort(&TT_VEC_AT(&s->dfiles, scanned, from), s->dfiles.len - from, sizeof(scanned),
                  cmp_scanned);
    }
    for (size_t i = 0; i < s->n_dirs; i++) {
        size_t from = s->files.len;
        scan_dir(s, s->dirs[i], 0);
        /* deterministic order within a store (readdir order is not) */
        if (s->files.len > from)
            qsort(&TT_VEC_AT(&s->files, scanned, from), s->files.len - from, sizeof(scanned),
                  cmp_scanned);
    }
}

/* ---- the search (spec 4.3) ---- */

typedef struct search {
    const char *bid;
    char mismatch[300];   /* first build-id mismatch */
    char fallback[4096];  /* a verified file without DWARF (symbol table only) */
} search;

/* A candidate: exists, is ELF, has build id == bid. Returns 1 when it has DWARF. */
static int candidate(search *q, const char *p)
{
    if (!is_file(p))
        return 0;
    tsym__elf e;
    tt_error err;
    if (tsym__elf_read(&e, NULL, 0, p, &err))
        return 0;
    if (strcmp(e.build_id, q->bid)) {
        if (!q->mismatch[0])
            snprintf(q->mismatch, sizeof q->mismatch, "debug file %s has build id %s, expected %s",
                     p, e.build_id[0] ? e.build_id : "(none)", q->bid);
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
    if (!is_file(p) || file_crc(p, &ok) != want_crc || !ok)
        return 0;
    tsym__elf e;
    tt_error err;
    if (tsym__elf_read(&e, NULL, 0, p, &err) || !e.has_debug_info)
        return 0;
    if (q->bid[0] && e.build_id[0] && strcmp(q->bid, e.build_id)) {
        if (!q->mismatch[0])
            snprintf(q->mismatch, sizeof q->mismatch, "debug file %s has build id %s, expected %s",
                     p, e.build_id, q->bid);
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
    scan_stores(s);
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
    scan_stores(s);
    for (size_t i = 0; i < s->files.len; i++) {
        const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
        if (!strcmp(f->build_id, q->bid) && candidate(q, f->path)) {
            snprintf(out, cap, "%s", f->path);
            return 1;
        }
    }
    return 0;
}

static void count(tsym_store *s, const char *name, const char *file, const char *msg)
{
    tt_stats_add(s->stats, name, file, TT_SEV_WARN, 1, msg);
}

/* ---- Mach-O: debug information by LC_UUID only (spec/ios.md 8) ---- */

typedef struct msearch {
    const char *uuid;
    char mismatch[600]; /* first refused dSYM */
    char found[4096];   /* a file with DWARF for uuid */
    char symfile[4096]; /* a file with uuid but no DWARF (symbol table only) */
} msearch;

static void note_mismatch(msearch *q, const char *file, const char *other)
{
    if (!q->mismatch[0])
        snprintf(q->mismatch, sizeof q->mismatch, "dSYM %.400s has UUID %s, image has %s", file,
                 other[0] ? other : "(none)", q->uuid);
}

/* Looks through scanned entries; 1 when one with DWARF was found. */
static int scan_hits(msearch *q, const tt_vec *v, int refuse_others)
{
    for (size_t i = 0; i < v->len; i++) {
        const scanned *f = &TT_VEC_AT(v, scanned, i);
        if (!f->macho)
            continue;
        if (!strcmp(f->build_id, q->uuid)) {
            if (f->has_dwarf) {
                snprintf(q->found, sizeof q->found, "%s", f->path);
                return 1;
            }
            if (!q->symfile[0])
                snprintf(q->symfile, sizeof q->symfile, "%s", f->path);
        }
    }
    if (refuse_others)
        for (size_t i = 0; i < v->len; i++) {
            const scanned *f = &TT_VEC_AT(v, scanned, i);
            int same_path = 0;
            for (size_t k = 0; k < v->len; k++)
                same_path |= k != i && !strcmp(TT_VEC_AT(v, scanned, k).path, f->path) &&
                             !strcmp(TT_VEC_AT(v, scanned, k).build_id, q->uuid);
            if (f->macho && f->has_dwarf && !same_path)
                note_mismatch(q, f->path, f->build_id);
        }
    return 0;
}

/* A single file (beside dSYM, store layout): 1 when it has DWARF for uuid. */
static int check_file(msearch *q, const char *path, int refuse)
{
    char f[4096];
    if (tsym_dsym_file(f, sizeof f, path) || !tsym__macho_file(f))
        return 0;
    tsym_macho_slice sl[TSYM_MACHO_MAX_SLICES];
    size_t n = 0;
    tt_error e;
    if (tsym_macho_slices(sl, TSYM_MACHO_MAX_SLICES, &n, f, &e))
        return 0;
    for (size_t i = 0; i < n && i < TSYM_MACHO_MAX_SLICES; i++)
        if (!strcmp(sl[i].uuid, q->uuid)) {
            if (sl[i].has_dwarf) {
                snprintf(q->found, sizeof q->found, "%s", f);
                return 1;
            }
            if (!q->symfile[0])
                snprintf(q->symfile, sizeof q->symfile, "%s", f);
            return 0;
        }
    if (refuse && n)
        note_mismatch(q, f, sl[0].uuid);
    return 0;
}

static int store_layout_file(char *out, size_t cap, const char *dir, const char *uuid)
{
    int r = snprintf(out, cap, "%s/uuid/%.2s/%s.macho", dir, uuid, uuid + 2);
    return r > 0 && (size_t)r < cap;
}

/* Is uuid known to the stores as a Mach-O image or dSYM? */
static int macho_known(tsym_store *s, const char *uuid)
{
    if (!uuid || strlen(uuid) != 32)
        return 0;
    char p[4200];
    for (size_t i = 0; i < s->n_dirs; i++)
        if (store_layout_file(p, sizeof p, s->dirs[i], uuid) && is_file(p))
            return 1;
    scan_stores(s);
    const tt_vec *vs[2] = {&s->dfiles, &s->files};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < vs[k]->len; i++) {
            const scanned *f = &TT_VEC_AT(vs[k], scanned, i);
            if (f->macho && !strcmp(f->build_id, uuid))
                return 1;
        }
    return 0;
}

static const char *bad_stat(const tt_error *err)
{
    if (err && (strstr(err->msg, "load command") || strstr(err->msg, "LC_") ||
                strstr(err->msg, "section ")))
        return "macho_bad_load_command";
    return "macho_bad_header";
}

static int search_macho(tsym_module **out, tsym_store *s, const char *path, const char *bid,
                        tt_error *err)
{
    char file[4096] = "", arch[32] = "";
    const char *label = path ? path : bid;
    int local = path && tsym__macho_split(file, sizeof file, arch, sizeof arch, path);
    char uuid[TSYM_BUILD_ID_HEX_MAX] = "";
    if (local) {
        tsym_macho_slice sl[TSYM_MACHO_MAX_SLICES];
        size_t n = 0;
        int rc = tsym_macho_slices(sl, TSYM_MACHO_MAX_SLICES, &n, file, err);
        if (rc) {
            count(s, bad_stat(err), label, err ? err->msg : NULL);
            return rc;
        }
        int pick = -1;
        for (size_t i = 0; i < n && i < TSYM_MACHO_MAX_SLICES; i++)
            if ((arch[0] && !strcmp(sl[i].arch, arch)) ||
                (!arch[0] && bid && !strcmp(sl[i].uuid, bid)) || (!arch[0] && !bid && n == 1))
                pick = (int)i;
        if (pick < 0) {
            /* no such slice, or a universal file without ARCH: the open names the slices */
            int rc2 = tsym__module_open_macho(out, file, arch[0] ? arch : NULL, NULL, bid, NULL,
                                              err);
            if (rc2)
                count(s, "macho_no_slice", label, err ? err->msg : NULL);
            return rc2;
        }
        snprintf(uuid, sizeof uuid, "%s", sl[pick].uuid);
        snprintf(arch, sizeof arch, "%s", sl[pick].arch);
        if (sl[pick].has_dwarf)
            return tsym__module_open_macho(out, file, arch, NULL, NULL, NULL, err);
    } else {
        snprintf(uuid, sizeof uuid, "%s", bid ? bid : "");
    }
    msearch q = {.uuid = uuid};
    int have = 0;
    if (uuid[0]) {
        scan_stores(s);
        /* --dsym paths first; a dSYM there with another UUID is refused and named */
        have = scan_hits(&q, &s->dfiles, 1);
        char p[4200];
        if (!have && local && snprintf(p, sizeof p, "%s.dSYM", file) < (int)sizeof p)
            have = check_file(&q, p, 1);
        /* X.framework/X, X.app/X: Xcode puts X.framework.dSYM beside the bundle */
        const char *slash = local ? strrchr(file, '/') : NULL;
        if (!have && slash && slash > file &&
            snprintf(p, sizeof p, "%.*s.dSYM", (int)(slash - file), file) < (int)sizeof p &&
            (strstr(p, ".framework.dSYM") || strstr(p, ".app.dSYM") || strstr(p, ".appex.dSYM")))
            have = check_file(&q, p, 1);
        for (size_t i = 0; i < s->n_dirs && !have; i++)
            if (store_layout_file(p, sizeof p, s->dirs[i], uuid))
                have = check_file(&q, p, 0);
        if (!have)
            have = scan_hits(&q, &s->files, 0);
    }
    if (q.mismatch[0])
        count(s, "macho_uuid_mismatch", label, q.mismatch);
    const char *img = local ? file : q.symfile[0] ? q.symfile : NULL;
    if (!have && !img) {
        if (q.mismatch[0])
            return tt_error_set(err, TT_EFORMAT, label, TT_LOC_NONE, 0, "%s", q.mismatch);
        count(s, "sym_module_not_found", label, NULL);
        return tt_error_set(err, TT_ENOTFOUND, label, TT_LOC_NONE, 0,
                            "no Mach-O image or dSYM with UUID %s found",
                            uuid[0] ? uuid : "(none)");
    }
    int rc = tsym__module_open_macho(out, img, img && local ? arch : NULL, have ? q.found : NULL,
                                     uuid[0] ? uuid : NULL,
                                     q.mismatch[0] && !have ? q.mismatch : NULL, err);
    if (rc) {
        count(s, bad_stat(err), label, err ? err->msg : NULL);
        return rc;
    }
    if (tsym_module_info_get(*out)->symtab_only)
        count(s, "macho_no_dwarf", label, NULL);
    return 0;
}

static int search_module(tsym_module **out, tsym_store *s, const char *path, const char *bid_in,
                         tt_error *err)
{
    char mf[4096], ma[32];
    /* --dsym NAME=PATH binds a dSYM to an image named NAME given without UUID (spec/ios.md
     * 4.1): the dSYM's own UUID and __TEXT are used, unverified */
    for (size_t i = 0; path && (!bid_in || !*bid_in) && i < s->n_dsyms; i++)
        if (s->dsym_names[i] && !strcmp(s->dsym_names[i], base_name(path))) {
            count(s, "sym_unverified_module", path, "bound by --dsym NAME=PATH, no UUID to check");
            return tsym__module_open_macho(out, NULL, NULL, s->dsyms[i], NULL, NULL, err);
        }
    if ((path && tsym__macho_split(mf, sizeof mf, ma, sizeof ma, path)) ||
        (bid_in && !(path && is_file(path)) && macho_known(s, bid_in)))
        return search_macho(out, s, path, bid_in && *bid_in ? bid_in : NULL, err);
    const char *local = is_file(path) ? path : NULL;
    const char *label = path ? path : bid_in;
    char bid[TSYM_BUILD_ID_HEX_MAX] = "";
    snprintf(bid, sizeof bid, "%s", bid_in ? bid_in : "");
    tsym__elf le = {0};
    if (local) {
        int rc = tsym__elf_read(&le, NULL, 0, local, err);
        if (rc)
            return rc;
        if (bid[0] && le.build_id[0] && strcmp(bid, le.build_id)) {
            count(s, "sym_build_id_mismatch", label, NULL);
            return tt_error_set(err, TT_EFORMAT, label, TT_LOC_NONE, 0,
                                "file has build id %s, expected %s", le.build_id, bid);
        }
        if (!bid[0])
            snprintf(bid, sizeof bid, "%s", le.build_id);
    } else if (!bid[0] && path) {
        /* a bare name: the first scanned file with that name defines the module */
        scan_stores(s);
        for (size_t i = 0; i < s->files.len && !local; i++) {
            const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
            if (!strcmp(f->base, base_name(path)) && f->macho)
                return search_macho(out, s, NULL, f->build_id, err); /* by its UUID */
            if (!strcmp(f->base, base_name(path)) && !f->macho)
                local = f->path;
        }
        if (!local) {
            count(s, "sym_module_not_found", label, NULL);
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
            scan_stores(s);
            for (size_t i = 0; i < s->files.len; i++) {
                const scanned *f = &TT_VEC_AT(&s->files, scanned, i);
                if (!strcmp(f->base, base_name(path))) {
                    snprintf(q.mismatch, sizeof q.mismatch, "%s has build id %s, expected %s",
                             f->path, f->build_id[0] ? f->build_id : "(none)", bid);
                    break;
                }
            }
        }
        if (q.mismatch[0]) {
            count(s, "sym_build_id_mismatch", label, q.mismatch);
            return tt_error_set(err, TT_EFORMAT, label, TT_LOC_NONE, 0, "%s", q.mismatch);
        }
        count(s, "sym_module_not_found", label, NULL);
        return tt_error_set(err, TT_ENOTFOUND, label, TT_LOC_NONE, 0,
                            "no debug information found for build id %s", bid[0] ? bid : "(none)");
    }
    int rc = tsym_module_open(out, modfile, have && (!modfile || strcmp(found, modfile)) ? found
                                                                                       : NULL,
                              err);
    if (rc) {
        count(s, rc == TT_EUNSUPPORTED ? "sym_zstd_unsupported" : "sym_dwarf_error", label,
              err ? err->msg : NULL);
        return rc;
    }
    const tsym_module_info *mi = tsym_module_info_get(*out);
    if (mi->symtab_only)
        count(s, "sym_no_debug_info", label, NULL);
    if (mi->split_dwarf)
        count(s, "sym_split_dwarf", label, NULL);
    else if (mi->warning[0])
        count(s, "sym_dwarf_error", label, mi->warning);
    return 0;
}

static entry *find_entry(tsym_store *s, const char *key)
{
    uint32_t id;
    if (tt_intern_find(s->keys, key, strlen(key), &id) || id >= s->entries.len)
        return NULL;
    return &TT_VEC_AT(&s->entries, entry, id);
}

int tsym_store_get(tsym_module **out, int *fresh, tsym_store *s, const char *path,
                   const char *build_id, tt_error *err)
{
    *out = NULL;
    *fresh = 0;
    if (!path && (!build_id || !*build_id))
        return tt_error_set(err, TT_EINVAL, NULL, TT_LOC_NONE, 0, "no module given");
    char key[4200];
    if (build_id && *build_id)
        snprintf(key, sizeof key, "B%s", build_id);
    else
        snprintf(key, sizeof key, "P%s", path);
    entry *e = find_entry(s, key);
    if (!e) {
        *fresh = 1;
        entry ne = {.key = dup_str(key)};
        if (!ne.key)
            return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
        ne.rc = search_module(&ne.mod, s, path, build_id, &ne.err);
        ne.owner = 1;
        if (!ne.rc) {
            /* one index per build id: a path key whose module has a build id already
             * indexed reuses that index */
            const char *bid = tsym_module_info_get(ne.mod)->build_id;
            char bkey[TSYM_BUILD_ID_HEX_MAX + 1];
            snprintf(bkey, sizeof bkey, "B%s", bid);
            entry *same = bid[0] && key[0] == 'P' ? find_entry(s, bkey) : NULL;
            if (same && same->mod) {
                tsym_module_free(ne.mod);
                ne.mod = same->mod;
                ne.owner = 0;
            }
        }
        uint32_t id;
        if (tt_intern_get(s->keys, key, strlen(key), &id) || id != s->entries.len ||
            !tt_vec_push(&s->entries, &ne)) {
            if (ne.owner)
                tsym_module_free(ne.mod);
            free(ne.key);
            return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
        }
        e = &TT_VEC_AT(&s->entries, entry, s->entries.len - 1);
    }
    if (e->rc) {
        if (err)
            *err = e->err;
        return e->rc;
    }
    if (!tsym_module_info_get(e->mod)->build_id[0])
        count(s, "sym_unverified_module", path, "module without build id: unverified");
    *out = e->mod;
    return 0;
}

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

int tsym_store_add_dsym(tsym_store *s, const char *arg, tt_error *err)
{
    const char *path = arg, *eq = strchr(arg, '=');
    struct stat st;
    if (eq && eq != arg && stat(arg, &st) != 0)
        path = eq + 1; /* NAME=PATH */
    if (stat(path, &st) != 0)
        return tt_error_set(err, TT_ENOTFOUND, path, TT_LOC_NONE, 0, "%s", strerror(errno));
    char **nd = realloc(s->dsyms, (s->n_dsyms + 1) * sizeof *nd);
    if (nd)
        s->dsyms = nd;
    char **nn = nd ? realloc(s->dsym_names, (s->n_dsyms + 1) * sizeof *nn) : NULL;
    if (!nn)
        return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    s->dsym_names = nn;
    nn[s->n_dsyms] = NULL;
    if (path != arg) {
        size_t k = (size_t)(path - 1 - arg);
        if ((nn[s->n_dsyms] = malloc(k + 1))) {
            memcpy(nn[s->n_dsyms], arg, k);
            nn[s->n_dsyms][k] = 0;
        }
    }
    if (!(nd[s->n_dsyms] = dup_str(path)) || (path != arg && !nn[s->n_dsyms])) {
        free(nd[s->n_dsyms]);
        free(nn[s->n_dsyms]);
        return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    }
    s->n_dsyms++;
    s->scanned_done = 0;
    for (size_t i = 0; i < s->files.len; i++)
        free(TT_VEC_AT(&s->files, scanned, i).path);
    s->files.len = 0;
    for (size_t i = 0; i < s->dfiles.len; i++)
        free(TT_VEC_AT(&s->dfiles, scanned, i).path);
    s->dfiles.len = 0;
    return 0;
}

int tsym_store_macho_path(char *dest, size_t cap, const char *dir, const char *uuid)
{
    return strlen(uuid) == 32 && store_layout_file(dest, cap, dir, uuid) ? 0 : TT_EINVAL;
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
        store_layout_file(p, sizeof p, dir, m.uuid);
        if (!dest[0])
            snprintf(dest, cap, "%s", p);
        tsym_macho_slice old[TSYM_MACHO_MAX_SLICES];
        size_t n_old = 0;
        tt_error oe;
        if (is_file(p) && (!m.has_dwarf ||
                           (!tsym_macho_slices(old, 1, &n_old, p, &oe) && old[0].has_dwarf)))
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
