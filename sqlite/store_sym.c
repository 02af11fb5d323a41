/* Interned native modules and symbol sets (storage.md 3.7, 3.8): each is looked up first and
 * added only when missing; under recording (analyze --jobs) the lookup happens at replay. */
#include "tdb.h"


#include "tdb_int.h"

int tdb_module_get(tdb_db *db, const tdb_module *m, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_MODULE_KIND, m->kind, err))
        return TT_EINVAL;
    if (db->rec) /* matched at replay */
        return tdb__rec_module(db->rec, m, id, err);
    /* the columns besides the key do not depend on the order modules are met in (merge
     * applies the same rule): the smallest path and kind, the largest has_debug_info */
    sqlite3_stmt *st = tdb__prep(db, ST_MODULE_FIND,
                                 "SELECT id, ?3 < COALESCE(path, ?3 || 'x') OR ?4 < kind "
                                 "OR ?5 > COALESCE(has_debug_info, -1) "
                                 "FROM module WHERE build_id IS ?1 AND name = ?2",
                                 err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, m->build_id);
    b_text(db, st, 2, m->name);
    b_text(db, st, 3, m->path);
    b_text(db, st, 4, m->kind);
    b_int(db, st, 5, m->have_debug_info, m->has_debug_info);
    int step = sqlite3_step(st);
    int better = step == SQLITE_ROW && sqlite3_column_int(st, 1);
    if (step == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return tdb__sqlerr(db, err, "read");
    if (step == SQLITE_ROW && !better)
        return 0;
    if (step == SQLITE_ROW) {
        st = tdb__prep(db, ST_MODULE_UPDATE,
                       "UPDATE module SET path = COALESCE(MIN(path, ?2), path, ?2), "
                       "kind = MIN(kind, ?3), "
                       "has_debug_info = COALESCE(MAX(has_debug_info, ?4), has_debug_info, ?4) "
                       "WHERE id = ?1",
                       err);
        if (!st)
            return TT_EIO;
        b_i64(db, st, 1, *id);
        b_text(db, st, 2, m->path);
        b_text(db, st, 3, m->kind);
        b_int(db, st, 4, m->have_debug_info, m->has_debug_info);
        return tdb__step_done(db, st, NULL, err);
    }
    st = tdb__prep(db, ST_MODULE_ADD,
                   "INSERT INTO module (build_id, name, path, kind, has_debug_info) "
                   "VALUES (?,?,?,?,?)",
                   err);
    if (!st)
        return TT_EIO;
    b_text(db, st, 1, m->build_id);
    b_text(db, st, 2, m->name);
    b_text(db, st, 3, m->path);
    b_text(db, st, 4, m->kind);
    b_int(db, st, 5, m->have_debug_info, m->has_debug_info);
    return tdb__step_done(db, st, id, err);
}

int tdb_symbolized_pc_add(tdb_db *db, int64_t module_id, int64_t rel_pc,
                          const tdb_symbol *frames, size_t n, int64_t *set_id, tt_error *err)
{
    if (db->rec) /* matched at replay */
        return tdb__rec_sympc(db->rec, module_id, rel_pc, frames, n, set_id, err);
    sqlite3_stmt *st = tdb__prep(db, ST_SYMPC_FIND,
                                 "SELECT symbol_set_id FROM symbolized_pc "
                                 "WHERE module_id = ? AND rel_pc = ?",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, module_id);
    b_i64(db, st, 2, rel_pc);
    int found, rc = tdb__step_int(db, st, &found, set_id, err);
    if (rc || found)
        return rc;
    if (!db->next_symbol_set) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(db->h, "SELECT COALESCE(MAX(symbol_set_id), 0) + 1 FROM symbol",
                               -1, &q, NULL) != SQLITE_OK)
            return tdb__sqlerr(db, err, "read");
        rc = tdb__step_int(db, q, &found, &db->next_symbol_set, err);
        sqlite3_finalize(q);
        if (rc)
            return rc;
    }
    *set_id = db->next_symbol_set++;
    st = tdb__prep(db, ST_SYMBOL_ADD,
                   "INSERT INTO symbol (symbol_set_id, inline_depth, name, file, line, column_no, "
                   "is_inlined, symbol_name, is_approximate) VALUES (?,?,?,?,?,?,?,?,?)",
                   err);
    if (!st)
        return TT_EIO;
    for (size_t i = 0; i < n; i++) {
        const tdb_symbol *f = &frames[i];
        b_i64(db, st, 1, *set_id);
        b_i64(db, st, 2, (int64_t)i);
        b_text(db, st, 3, f->name ? f->name : "??");
        b_text(db, st, 4, f->file);
        b_int(db, st, 5, f->line > 0, f->line);
        b_int(db, st, 6, f->column > 0, f->column);
        b_i64(db, st, 7, f->is_inlined);
        b_text(db, st, 8, f->symbol_name);
        b_i64(db, st, 9, f->is_approximate);
        if ((rc = tdb__step_done(db, st, NULL, err)))
            return rc;
    }
    st = tdb__prep(db, ST_SYMPC_ADD,
                   "INSERT INTO symbolized_pc (module_id, rel_pc, symbol_set_id) VALUES (?,?,?)",
                   err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, module_id);
    b_i64(db, st, 2, rel_pc);
    b_i64(db, st, 3, *set_id);
    return tdb__step_done(db, st, NULL, err);
}
