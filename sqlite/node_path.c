/* call_node.is_recursive (schema 6, tracetool-schema(5)): a node whose name is already on its
 * root-to-node path is nested in a call of that method, so top_stack_methods counts the
 * outermost call's total_dur only. Computed as the nodes are written (tdb_node_add), by the
 * 5 -> 6 migration and by merge for a source of schema 5 or older. */
#include "tdb.h"

#include <stdlib.h>

#include "tdb_int.h"

typedef struct pent {
    int64_t id;
    uint32_t name; /* UINT32_MAX: no name */
} pent;

/* Names seen while the path is empty again past this many are forgotten (memory stays
 * bounded by the largest tree, not the whole input). */
#define NAMES_KEEP 65536

void tdb__npath_free(tdb__npath *p)
{
    tt_vec_free(&p->path);
    tt_vec_free(&p->active);
    tt_intern_free(p->names);
    p->names = NULL;
}

static void pop(tdb__npath *p)
{
    pent *top = &TT_VEC_AT(&p->path, pent, p->path.len - 1);
    if (top->name != UINT32_MAX)
        TT_VEC_AT(&p->active, uint32_t, top->name)--;
    p->path.len--;
}

int tdb__npath_add(tdb__npath *p, int64_t id, int has_parent, int64_t parent, const char *name,
                   size_t n, int *nested)
{
    *nested = 0;
    if (!p->names) {
        tt_vec_init(&p->path, sizeof(pent));
        tt_vec_init(&p->active, sizeof(uint32_t));
        if (!(p->names = tt_intern_new()))
            return TT_ENOMEM;
    }
    /* a root, or a node whose parent is not on the path (out of pre-order): a new path */
    while (p->path.len && (!has_parent || TT_VEC_AT(&p->path, pent, p->path.len - 1).id != parent))
        pop(p);
    if (!p->path.len && tt_intern_count(p->names) > NAMES_KEEP) {
        tt_intern_free(p->names);
        p->active.len = 0;
        if (!(p->names = tt_intern_new()))
            return TT_ENOMEM;
    }
    pent e = {id, UINT32_MAX};
    if (name) {
        if (tt_intern_get(p->names, name, n, &e.name))
            return TT_ENOMEM;
        while (p->active.len <= e.name) {
            uint32_t zero = 0;
            if (!tt_vec_push(&p->active, &zero))
                return TT_ENOMEM;
        }
        uint32_t *on_path = &TT_VEC_AT(&p->active, uint32_t, e.name);
        *nested = *on_path > 0;
        ++*on_path;
    }
    if (!tt_vec_push(&p->path, &e)) {
        if (e.name != UINT32_MAX)
            TT_VEC_AT(&p->active, uint32_t, e.name)--;
        return TT_ENOMEM;
    }
    return 0;
}

int tdb__node_recursion(tdb_db *db, int64_t first_id, tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT id, parent_id, name FROM main.call_node WHERE id >= ?1 "
                           "ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "call_node.is_recursive");
    sqlite3_bind_int64(st, 1, first_id);
    tdb__npath p = {0};
    tt_vec nested; /* int64_t: the ids to flag, set once the scan is over */
    tt_vec_init(&nested, sizeof(int64_t));
    int rc, oom = 0;
    while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        int is = 0;
        const char *name = (const char *)sqlite3_column_text(st, 2);
        oom = tdb__npath_add(&p, id, sqlite3_column_type(st, 1) != SQLITE_NULL,
                             sqlite3_column_int64(st, 1), name,
                             (size_t)sqlite3_column_bytes(st, 2), &is) ||
              (is && !tt_vec_push(&nested, &id));
    }
    sqlite3_finalize(st);
    tdb__npath_free(&p);
    if (oom || rc != SQLITE_DONE) {
        tt_vec_free(&nested);
        return oom ? tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory")
                   : tdb__sqlerr(db, err, "call_node.is_recursive");
    }
    rc = 0;
    if (nested.len &&
        sqlite3_prepare_v2(db->h, "UPDATE main.call_node SET is_recursive = 1 WHERE id = ?1", -1,
                           &st, NULL) != SQLITE_OK)
        rc = tdb__sqlerr(db, err, "call_node.is_recursive");
    for (size_t i = 0; i < nested.len && !rc; i++) {
        sqlite3_bind_int64(st, 1, TT_VEC_AT(&nested, int64_t, i));
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = tdb__sqlerr(db, err, "call_node.is_recursive");
        sqlite3_reset(st);
    }
    if (nested.len)
        sqlite3_finalize(st);
    tt_vec_free(&nested);
    return rc;
}
