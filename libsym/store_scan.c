/* Scanning the symbol stores and --dsym paths for plain file names anywhere below them
 * (spec/symbolication.md 4.2, spec/ios.md 8.2): build ids of ELF files, UUIDs of Mach-O
 * slices, in a deterministic order. */
#include "store_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCAN_DEPTH 8

/* ---- scanning (plain file names anywhere below a store, spec 4.2) ---- */

/* Records the slices sl (n) of Mach-O file p that have a UUID; 1 when one was (p then owned
 * by v). */
static int push_slices(tt_vec *v, char *p, const tsym_macho_slice *sl, size_t n)
{
    size_t pushed = 0;
    for (size_t i = 0; i < n; i++) {
        if (!sl[i].uuid[0])
            continue;
        scanned f = {.path = pushed ? tsym__store_dup(p) : p, .macho = 1,
                     .has_dwarf = sl[i].has_dwarf};
        if (!f.path)
            break;
        f.base = tsym__store_base_name(f.path);
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

/* Records every slice of a Mach-O file; 1 when p was one (p then owned by v). A file with a
 * Mach-O magic that is not valid Mach-O is passed over with a counted warning naming it and
 * the byte offset of its defect (spec/ios.md 14). */
static int scan_macho(tsym_store *s, tt_vec *v, char *p)
{
    tsym_macho_slice sl[TSYM_MACHO_MAX_SLICES];
    size_t n = 0;
    tt_error e;
    if (!tsym__macho_file(p))
        return 0;
    int rc = tsym_macho_slices(sl, TSYM_MACHO_MAX_SLICES, &n, p, &e);
    if (rc) {
        if (rc == TT_EFORMAT) /* unreadable: not a defect of the file */
            tsym__store_count_bad(s, p, &e, 0);
        return 0;
    }
    return push_slices(v, p, sl, n < TSYM_MACHO_MAX_SLICES ? n : TSYM_MACHO_MAX_SLICES);
}

/* 1 when file p starts with the ELF magic */
static int elf_magic(const char *p)
{
    unsigned char m[4];
    FILE *f = fopen(p, "rb");
    int yes = f && fread(m, 1, 4, f) == 4 && !memcmp(m, "\177ELF", 4);
    if (f)
        fclose(f);
    return yes;
}

static void scan_dir_into(tsym_store *s, tt_vec *v, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if ((de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..") ||
                                      !strcmp(de->d_name, ".build-id"))) ||
            tsym__store_is_tmp_name(de->d_name)) /* an entry being written (store_add.c) */
            continue;
        size_t n = strlen(dir) + strlen(de->d_name) + 2;
        char *p = malloc(n);
        if (!p)
            break;
        snprintf(p, n, "%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && depth < SCAN_DEPTH) {
            scan_dir_into(s, v, p, depth + 1);
        } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            scanned f = {.path = p};
            tt_error e;
            int r = tsym_elf_build_id(f.build_id, sizeof f.build_id, p, &e);
            /* an ELF file that cannot be read is kept, without build id, so that the
             * search for a module of its name names it with why (spec 4.3) */
            f.bad = r == TT_EFORMAT && elf_magic(p);
            if (r == 0 || r == TT_ENOTFOUND || f.bad) {
                f.base = tsym__store_base_name(p);
                if (tt_vec_push(v, &f))
                    continue;
            } else if (scan_macho(s, v, p)) {
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

void tsym__store_scan(tsym_store *s)
{
    if (s->scanned_done)
        return;
    s->scanned_done = 1;
    for (size_t i = 0; i < s->n_dsyms; i++) {
        size_t from = s->dfiles.len;
        const tsym_dsym *d = s->dsyms[i];
        if (d->dir) {
            scan_dir_into(s, &s->dfiles, d->path, 0);
        } else if (d->file) { /* its slices, read when it was added (store_dsym.c) */
            char *p = tsym__store_dup(d->file);
            if (p && !push_slices(&s->dfiles, p, d->slices, d->n_slices))
                free(p);
        }
        if (s->dfiles.len > from)
            qsort(&TT_VEC_AT(&s->dfiles, scanned, from), s->dfiles.len - from, sizeof(scanned),
                  cmp_scanned);
    }
    for (size_t i = 0; i < s->n_dirs; i++) {
        size_t from = s->files.len;
        scan_dir_into(s, &s->files, s->dirs[i], 0);
        /* deterministic order within a store (readdir order is not) */
        if (s->files.len > from)
            qsort(&TT_VEC_AT(&s->files, scanned, from), s->files.len - from, sizeof(scanned),
                  cmp_scanned);
    }
}
