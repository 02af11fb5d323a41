/* The debug information of a Mach-O module, by LC_UUID only (spec/ios.md 8): --dsym paths,
 * the dSYM beside the image or its bundle, the store layout, scanned files. */
#include "store_int.h"

#include <stdio.h>
#include <string.h>

/* ---- Mach-O: debug information by LC_UUID only (spec/ios.md 8) ---- */

typedef struct msearch {
    const char *uuid;
    char mismatch[600]; /* first refused dSYM */
    char found[4096];   /* a file with DWARF for uuid */
    char symfile[4096]; /* a file with uuid but no DWARF (symbol table only) */
    char bad[700];      /* first dSYM beside the image that is not valid Mach-O:
                         * "dSYM FILE:0xOFF: why" */
    const char *bad_stat; /* and its stat (tsym__store_bad_stat) */
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

/* The slices sl (n) of Mach-O file f: 1 when one has DWARF for uuid. */
static int check_slices(msearch *q, const char *f, const tsym_macho_slice *sl, size_t n,
                        int refuse)
{
    for (size_t i = 0; i < n; i++)
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

/* A single file (beside dSYM, store layout): 1 when it has DWARF for uuid. */
static int check_file(msearch *q, const char *path, int refuse)
{
    char f[4096];
    if (tsym_dsym_file(f, sizeof f, path) || !tsym__macho_file(f))
        return 0;
    tsym_macho_slice sl[TSYM_MACHO_MAX_SLICES];
    size_t n = 0;
    tt_error e;
    int rc = tsym_macho_slices(sl, TSYM_MACHO_MAX_SLICES, &n, f, &e);
    if (rc == TT_EFORMAT && refuse && !q->bad[0]) { /* beside the image: passed over, named */
        if (e.loc_kind == TT_LOC_OFFSET)
            snprintf(q->bad, sizeof q->bad, "dSYM %.400s:0x%llx: %.250s", f,
                     (unsigned long long)e.loc, e.msg);
        else
            snprintf(q->bad, sizeof q->bad, "dSYM %.400s: %.250s", f, e.msg);
        q->bad_stat = tsym__store_bad_stat(&e);
    }
    if (rc)
        return 0;
    return check_slices(q, f, sl, n < TSYM_MACHO_MAX_SLICES ? n : TSYM_MACHO_MAX_SLICES, refuse);
}

int tsym__store_bound_mismatch(const tsym_store *s, const char *path, const char *uuid,
                               char *msg, size_t cap)
{
    msearch q = {.uuid = uuid};
    int bound = 0;
    for (size_t i = 0; i < s->n_dsyms; i++) {
        const tsym_dsym *d = s->dsyms[i];
        if (!d->name || strcmp(d->name, tsym__store_base_name(path)))
            continue;
        bound = 1;
        if ((d->file && check_slices(&q, d->file, d->slices, d->n_slices, 1)) || q.symfile[0])
            return 0; /* a bound file carries the UUID */
    }
    if (!bound || !q.mismatch[0])
        return 0;
    snprintf(msg, cap, "%s", q.mismatch);
    return 1;
}

/* Is uuid known to the stores as a Mach-O image or dSYM? */
int tsym__store_macho_known(tsym_store *s, const char *uuid)
{
    if (!uuid || strlen(uuid) != 32)
        return 0;
    char p[4200];
    for (size_t i = 0; i < s->n_dirs; i++)
        if (tsym__store_layout_file(p, sizeof p, s->dirs[i], uuid) && tsym__store_is_file(p))
            return 1;
    tsym__store_scan(s);
    const tt_vec *vs[2] = {&s->dfiles, &s->files};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < vs[k]->len; i++) {
            const scanned *f = &TT_VEC_AT(vs[k], scanned, i);
            if (f->macho && !strcmp(f->build_id, uuid))
                return 1;
        }
    return 0;
}

int tsym__store_search_macho(tsym_module **out, tsym_store *s, const char *path, const char *bid,
                             tt_error *err)
{
    char file[4096] = "", arch[32] = "";
    const char *label = path ? path : bid;
    int local = path && tsym__macho_split(file, sizeof file, arch, sizeof arch, path);
    /* the ARCH as given (after the last ':'), whole: arch cuts a long one */
    const char *want = local && arch[0] ? strrchr(path, ':') + 1 : NULL;
    char uuid[TSYM_BUILD_ID_HEX_MAX] = "";
    if (local) {
        tsym_macho_slice sl[TSYM_MACHO_MAX_SLICES];
        size_t n = 0;
        int rc = tsym_macho_slices(sl, TSYM_MACHO_MAX_SLICES, &n, file, err);
        if (rc) {
            tsym__store_count_told(s, tsym__store_bad_stat(err), label, err ? err->msg : NULL);
            return rc;
        }
        int pick = -1;
        for (size_t i = 0; i < n && i < TSYM_MACHO_MAX_SLICES; i++)
            if ((want && !strcmp(sl[i].arch, want)) ||
                (!want && bid && !strcmp(sl[i].uuid, bid)) || (!want && !bid && n == 1))
                pick = (int)i;
        if (pick < 0) {
            /* no such slice, or a universal file without ARCH: the open names the slices */
            int rc2 = tsym__module_open_macho(out, file, want, NULL, bid, err);
            /* counted without the text: the error carries it and its caller prints it */
            if (rc2)
                tsym__store_count(s, "macho_no_slice", label, NULL);
            return rc2;
        }
        snprintf(uuid, sizeof uuid, "%s", sl[pick].uuid);
        snprintf(arch, sizeof arch, "%s", sl[pick].arch);
        if (sl[pick].has_dwarf)
            return tsym__module_open_macho(out, file, arch, NULL, NULL, err);
    } else {
        snprintf(uuid, sizeof uuid, "%s", bid ? bid : "");
    }
    msearch q = {.uuid = uuid};
    int have = 0;
    if (uuid[0]) {
        tsym__store_scan(s);
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
            if (tsym__store_layout_file(p, sizeof p, s->dirs[i], uuid))
                have = check_file(&q, p, 0);
        if (!have)
            have = scan_hits(&q, &s->files, 0);
    }
    /* the mismatch is the error returned, else the module's warning: also when another
     * file had the DWARF, a dSYM the user named and that was refused is named (8.1) */
    if (q.mismatch[0])
        tsym__store_count_told(s, "macho_uuid_mismatch", label, q.mismatch);
    const char *img = local ? file : q.symfile[0] ? q.symfile : NULL;
    if (!have && !img) {
        if (q.mismatch[0])
            return tt_error_set(err, TT_EFORMAT, label, TT_LOC_NONE, 0, "%s", q.mismatch);
        tsym__store_count(s, "sym_module_not_found", label, NULL);
        return tt_error_set(err, TT_ENOTFOUND, label, TT_LOC_NONE, 0,
                            "no Mach-O image or dSYM with UUID %s found",
                            uuid[0] ? uuid : "(none)");
    }
    int rc = tsym__module_open_macho(out, img, img && local ? arch : NULL, have ? q.found : NULL,
                                     uuid[0] ? uuid : NULL, err);
    if (rc) {
        tsym__store_count_told(s, tsym__store_bad_stat(err), label, err ? err->msg : NULL);
        return rc;
    }
    if (q.mismatch[0]) /* the dSYM passed over, named with why, as ELF's (store_search.c) */
        tsym__module_note(*out, q.mismatch);
    if (q.bad[0]) { /* the same for one that is not valid Mach-O */
        tsym__store_count_told(s, q.bad_stat, label, q.bad);
        tsym__module_note(*out, q.bad);
    }
    if (tsym_module_info_get(*out)->symtab_only)
        tsym__store_count(s, "macho_no_dwarf", label, NULL);
    return 0;
}
