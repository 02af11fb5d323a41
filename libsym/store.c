/* Symbol store directories and the module cache (spec/symbolication.md 4.2, 5.5, 10); the
 * search order is in store_search.c and store_macho.c, the scan in store_scan.c, --dsym
 * arguments in store_dsym.c. */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    for (size_t i = 0; i < s->n_dsyms; i++)
        tsym_dsym_free(s->dsyms[i]);
    free(s->dsyms);
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

static int get(tsym_module **out, int *fresh, tsym_store *s, const char *path,
               const char *build_id, int device, tt_error *err)
{
    *out = NULL;
    *fresh = 0;
    if (!path && (!build_id || !*build_id))
        return tt_error_set(err, TT_EINVAL, NULL, TT_LOC_NONE, 0, "no module given");
    char key[4200];
    if (build_id && *build_id)
        snprintf(key, sizeof key, "B%s", build_id);
    else /* a device's name is not the host file of that name */
        snprintf(key, sizeof key, "%c%s", device && path[0] != '/' ? 'N' : 'P', path);
    entry *e = find_entry(s, key);
    if (!e) {
        *fresh = 1;
        entry ne = {.key = tsym__store_dup(key)};
        if (!ne.key)
            return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
        ne.rc = tsym__store_search(&ne.mod, s, path, build_id, device, &ne.err);
        ne.owner = 1;
        if (!ne.rc) {
            /* one index per build id: a path key whose module has a build id already
             * indexed reuses that index */
            const char *bid = tsym_module_info_get(ne.mod)->build_id;
            char bkey[TSYM_BUILD_ID_HEX_MAX + 1];
            snprintf(bkey, sizeof bkey, "B%s", bid);
            entry *same = bid[0] && key[0] != 'B' ? find_entry(s, bkey) : NULL;
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

int tsym_store_get(tsym_module **out, int *fresh, tsym_store *s, const char *path,
                   const char *build_id, tt_error *err)
{
    return get(out, fresh, s, path, build_id, 0, err);
}

int tsym_store_get_device(tsym_module **out, int *fresh, tsym_store *s, const char *path,
                          const char *build_id, tt_error *err)
{
    return get(out, fresh, s, path, build_id, 1, err);
}
