/* --dsym arguments (spec/ios.md 8.2, 4.1, 4.4): each [NAME=]PATH[:ARCH] is opened and its
 * slices read once here; the store's search, scan and binding use the record. */
#include "store_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void tsym_dsym_free(tsym_dsym *d)
{
    if (!d)
        return;
    free(d->name);
    free(d->path);
    free(d->file);
    free(d->slices);
    free(d);
}

int tsym_dsym_dup(tsym_dsym **out, const tsym_dsym *d)
{
    tsym_dsym *c = *out = calloc(1, sizeof *c);
    if (!c)
        return TT_ENOMEM;
    *c = *d;
    c->name = d->name ? tsym__store_dup(d->name) : NULL;
    c->path = d->path ? tsym__store_dup(d->path) : NULL;
    c->file = d->file ? tsym__store_dup(d->file) : NULL;
    c->slices = d->slices ? calloc(TSYM_MACHO_MAX_SLICES, sizeof *c->slices) : NULL;
    if ((d->name && !c->name) || (d->path && !c->path) || (d->file && !c->file) ||
        (d->slices && !c->slices)) {
        tsym_dsym_free(c);
        *out = NULL;
        return TT_ENOMEM;
    }
    if (d->slices)
        memcpy(c->slices, d->slices, d->n_slices * sizeof *c->slices);
    return 0;
}

/* The Mach-O file of d->path, its slices read; ARCH (want: as given, whole; d->arch cuts a
 * long one) checked against them. */
static int read_slices(tsym_dsym *d, const char *want, tt_error *err)
{
    char f[4096];
    if (tsym_dsym_file(f, sizeof f, d->path) || !tsym__store_is_file(f)) {
        d->dir = 1; /* a directory of dSYMs (scanned), or a bundle without its DWARF file */
        return 0;
    }
    /* a file the user named (or the DWARF file of a bundle) that is not Mach-O, or too
     * short to be, is refused with what is wrong with it (spec/ios.md 14), like any other
     * defect of its header: opening it says so */
    if (!(d->file = tsym__store_dup(f)) ||
        !(d->slices = calloc(TSYM_MACHO_MAX_SLICES, sizeof *d->slices)))
        return TT_ENOMEM;
    int rc = tsym_macho_slices(d->slices, TSYM_MACHO_MAX_SLICES, &d->n_slices, f, err);
    if (rc)
        return rc;
    if (d->n_slices > TSYM_MACHO_MAX_SLICES)
        d->n_slices = TSYM_MACHO_MAX_SLICES;
    if (!want)
        return 0;
    for (size_t i = 0; i < d->n_slices; i++)
        if (!strcmp(d->slices[i].arch, want))
            return 0;
    char list[TSYM_MACHO_MAX_SLICES * 80];
    tsym_macho_slice_list(list, sizeof list, d->slices, d->n_slices);
    return tt_error_set(err, TT_ENOTFOUND, f, TT_LOC_NONE, 0,
                        "no slice for architecture %s (slices: %s)", want, list);
}

/* tsym_dsym_open, *d set (the caller frees it) on error too when it was allocated. */
static int open_arg(tsym_dsym **dp, const char *arg, tt_error *err)
{
    tsym_dsym *d = *dp = calloc(1, sizeof *d);
    if (!d)
        return TT_ENOMEM;
    const char *path = arg, *eq = strchr(arg, '=');
    struct stat st;
    if (eq && eq != arg && stat(arg, &st) != 0) { /* NAME=PATH */
        path = eq + 1;
        if (!*path) /* stat("") would say ENOENT naming no file */
            return tt_error_set(err, TT_ENOTFOUND, arg, TT_LOC_NONE, 0,
                                "no PATH after NAME= (--dsym NAME=PATH: a dSYM bundle, its "
                                "DWARF file or a directory)");
        if (!(d->name = malloc((size_t)(eq - arg) + 1)))
            return TT_ENOMEM;
        memcpy(d->name, arg, (size_t)(eq - arg));
        d->name[eq - arg] = 0;
    }
    char f[4096], arch[sizeof d->arch];
    const char *colon = strrchr(path, ':'), *want = NULL;
    if (d->name && stat(path, &st) != 0 &&
        tsym__macho_split(f, sizeof f, arch, sizeof arch, path) && arch[0] && colon) {
        /* NAME=PATH:ARCH, the slice of a universal file bound to images without UUID */
        snprintf(d->arch, sizeof d->arch, "%s", colon + 1);
        want = colon + 1;
        d->path = malloc((size_t)(colon - path) + 1);
        if (d->path) {
            memcpy(d->path, path, (size_t)(colon - path));
            d->path[colon - path] = 0;
        }
    } else {
        d->path = tsym__store_dup(path);
    }
    if (!d->path)
        return TT_ENOMEM;
    if (stat(d->path, &st) != 0)
        return tt_error_set(err, TT_ENOTFOUND, d->path, TT_LOC_NONE, 0, "%s", strerror(errno));
    /* a file or bundle the user named: a corrupt Mach-O there is an error naming it and the
     * byte offset of its defect, never passed over silently (spec/ios.md 14) */
    return read_slices(d, want, err);
}

/* open_arg with out of memory said in err. */
static int open_said(tsym_dsym **out, const char *arg, tt_error *err)
{
    int rc = open_arg(out, arg, err);
    if (rc == TT_ENOMEM)
        tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    return rc;
}

int tsym_dsym_open(tsym_dsym **out, const char *arg, tt_error *err)
{
    int rc = open_said(out, arg, err);
    if (rc) {
        tsym_dsym_free(*out);
        *out = NULL;
    }
    return rc;
}

int tsym_store_add_dsym_opened(tsym_store *s, tsym_dsym *d, tt_error *err)
{
    tsym_dsym **nd = realloc(s->dsyms, (s->n_dsyms + 1) * sizeof *nd);
    if (!nd) {
        tsym_dsym_free(d);
        return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    }
    s->dsyms = nd;
    nd[s->n_dsyms++] = d;
    /* the next search scans again, now with this path */
    s->scanned_done = 0;
    for (size_t i = 0; i < s->files.len; i++)
        free(TT_VEC_AT(&s->files, scanned, i).path);
    s->files.len = 0;
    for (size_t i = 0; i < s->dfiles.len; i++)
        free(TT_VEC_AT(&s->dfiles, scanned, i).path);
    s->dfiles.len = 0;
    return 0;
}

int tsym_store_add_dsym(const tsym_dsym **out, tsym_store *s, const char *arg, tt_error *err)
{
    tsym_dsym *d;
    tt_error e = {0};
    if (out)
        *out = NULL;
    int rc = open_said(&d, arg, err ? err : &e);
    if (rc) {
        if (rc == TT_EFORMAT && d && d->file)
            tsym__store_count_bad(s, d->file, err ? err : &e, 1);
        tsym_dsym_free(d);
        return rc;
    }
    if ((rc = tsym_store_add_dsym_opened(s, d, err)))
        return rc;
    if (out)
        *out = d;
    return 0;
}

int tsym_store_bound(const tsym_store *s, const char *path)
{
    for (size_t i = 0; path && i < s->n_dsyms; i++)
        if (s->dsyms[i]->name && !strcmp(s->dsyms[i]->name, tsym__store_base_name(path)))
            return 1;
    return 0;
}
