/* Symbol store directories and the module cache (spec/symbolication.md 4.2, 5.5, 10); the
 * search order is in store_search.c and store_macho.c, the scan in store_scan.c. */
#include "store_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct entry {
    char *key;
    tsym_module *mod; /* NULL: failed, see rc/err */
    int rc, owner;    /* owner: this entry frees mod (aliases do not) */
    tt_error err;
} entry;

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
        if (!(s->dirs[i] = tsym__store_dup(dirs[i]))) {
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
    free(s->dsym_archs);
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
        entry ne = {.key = tsym__store_dup(key)};
        if (!ne.key)
            return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
        ne.rc = tsym__store_search(&ne.mod, s, path, build_id, &ne.err);
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
        tsym__store_count(s, "sym_unverified_module", path, "module without build id: unverified");
    *out = e->mod;
    return 0;
}

int tsym_store_bound(const tsym_store *s, const char *path)
{
    for (size_t i = 0; path && i < s->n_dsyms; i++)
        if (s->dsym_names[i] && !strcmp(s->dsym_names[i], tsym__store_base_name(path)))
            return 1;
    return 0;
}

int tsym_store_add_dsym(tsym_store *s, const char *arg, tt_error *err)
{
    const char *path = arg, *eq = strchr(arg, '=');
    struct stat st;
    if (eq && eq != arg && stat(arg, &st) != 0)
        path = eq + 1; /* NAME=PATH */
    char f[4096], arch[16] = "", whole[4096];
    if (path != arg && stat(path, &st) != 0 && strlen(path) < sizeof whole &&
        tsym__macho_split(f, sizeof f, arch, sizeof arch, path) && arch[0]) {
        /* NAME=PATH:ARCH, the slice of a universal file bound to images without UUID */
        snprintf(whole, sizeof whole, "%.*s", (int)(strlen(path) - strlen(arch) - 1), path);
        path = whole;
    }
    if (stat(path, &st) != 0)
        return tt_error_set(err, TT_ENOTFOUND, path, TT_LOC_NONE, 0, "%s", strerror(errno));
    /* a file or bundle the user named: a corrupt Mach-O there is an error naming it and the
     * byte offset of its defect, never passed over silently (spec/ios.md 14) */
    tsym_macho_slice sl[TSYM_MACHO_MAX_SLICES];
    size_t n = 0;
    if (!tsym_dsym_file(f, sizeof f, path) && tsym__store_is_file(f) && tsym__macho_file(f)) {
        int rc = tsym_macho_slices(sl, TSYM_MACHO_MAX_SLICES, &n, f, err);
        if (rc) {
            if (rc == TT_EFORMAT)
                tsym__store_count_bad(s, f, err);
            return rc;
        }
        int has = 0;
        for (size_t i = 0; arch[0] && i < n && i < TSYM_MACHO_MAX_SLICES; i++)
            has |= !strcmp(sl[i].arch, arch);
        char list[TSYM_MACHO_MAX_SLICES * 18] = "";
        for (size_t i = 0, len = 0; i < n && i < TSYM_MACHO_MAX_SLICES; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                    sl[i].arch);
        if (arch[0] && !has)
            return tt_error_set(err, TT_ENOTFOUND, f, TT_LOC_NONE, 0,
                                "no slice for architecture %s (slices: %s)", arch, list);
    }
    char(*na)[16] = realloc(s->dsym_archs, (s->n_dsyms + 1) * sizeof *na);
    if (!na)
        return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    s->dsym_archs = na;
    snprintf(na[s->n_dsyms], sizeof na[0], "%s", arch);
    char **nd = realloc(s->dsyms, (s->n_dsyms + 1) * sizeof *nd);
    if (nd)
        s->dsyms = nd;
    char **nn = nd ? realloc(s->dsym_names, (s->n_dsyms + 1) * sizeof *nn) : NULL;
    if (!nn)
        return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    s->dsym_names = nn;
    nn[s->n_dsyms] = NULL;
    if (path != arg) {
        size_t k = (size_t)(eq - arg);
        if ((nn[s->n_dsyms] = malloc(k + 1))) {
            memcpy(nn[s->n_dsyms], arg, k);
            nn[s->n_dsyms][k] = 0;
        }
    }
    if (!(nd[s->n_dsyms] = tsym__store_dup(path)) || (path != arg && !nn[s->n_dsyms])) {
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
