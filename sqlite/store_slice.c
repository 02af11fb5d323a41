/* Row writers of slices with their args and wakeups (storage.md 3.7), call trees (3.3) and
 * issues (3.4); slices and call nodes take explicit ids (tdb_next_id). */
#include "tdb.h"

#include <string.h>

#include "tdb_int.h"

int tdb_next_id(tdb_db *db, const char *table, int64_t *id, tt_error *err)
{
    const char *sql;
    if (!strcmp(table, "slice"))
        sql = "SELECT COALESCE(MAX(id), 0) + 1 FROM slice";
    else if (!strcmp(table, "call_node"))
        sql = "SELECT COALESCE(MAX(id), 0) + 1 FROM call_node";
    else if (!strcmp(table, "args"))
        sql = "SELECT COALESCE(MAX(arg_set_id), 0) + 1 FROM args";
    else
        return tt_error_set(err, TT_EINVAL, db->path, 0, 0, "no explicit ids for %s", table);
    int k = table[0] == 's' ? 0 : table[0] == 'c' ? 1 : 2;
    static const int slots[3] = {ST_SLICE_ADD, ST_NODE_ADD, ST_ARG_INT};
    if (db->rec)
        return tdb__rec_next_id(db->rec, slots[k], id, err);
    /* kept prepared: an importer asks once per stack it stores */
    if (!db->next_id_st[k] &&
        sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &db->next_id_st[k], NULL) !=
            SQLITE_OK)
        return tdb__sqlerr(db, err, "read");
    int found;
    return tdb__step_int(db, db->next_id_st[k], &found, id, err);
}

/* -1 means unknown for optional sampled-slice values */
static void b_opt(tdb_db *db, sqlite3_stmt *st, int i, int64_t v)
{
    b_int(db, st, i, v >= 0, v);
}

int tdb_slice_add(tdb_db *db, const tdb_slice *s, tt_error *err)
{
    if (tdb__enum_check(TDB__E_END_KIND, s->end_kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st =
        tdb__prep(db, ST_SLICE_ADD,
                  "INSERT INTO slice (id, trace_id, utid, ts, dur, depth, parent_id, "
                  "name, category, method_id, end_kind, self_dur, is_recursive, "
                  "frame_id, callsite_id, thread_dur, self_thread_dur, block_dur, "
                  "gap_before, gap_after, sample_count, msg_id, type, wakeup_utid, "
                  "alloc_objects, alloc_bytes, maj_flt, nv_csw, niv_csw, arg_set_id) "
                  "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, s->id);
    b_ref(db, st, 2, s->trace_id);
    b_ref(db, st, 3, s->utid);
    b_i64(db, st, 4, s->ts);
    b_i64(db, st, 5, s->dur);
    b_i64(db, st, 6, s->depth);
    b_id(db, st, 7, s->parent_id);
    b_text(db, st, 8, s->name);
    b_text(db, st, 9, s->category);
    b_id(db, st, 10, s->method_id);
    b_text(db, st, 11, s->end_kind);
    b_i64(db, st, 12, s->self_dur);
    b_i64(db, st, 13, s->is_recursive ? 1 : 0);
    b_id(db, st, 14, s->frame_id);
    b_id(db, st, 15, s->callsite_id);
    b_opt(db, st, 16, s->thread_dur);
    b_opt(db, st, 17, s->self_thread_dur);
    b_opt(db, st, 18, s->block_dur);
    b_opt(db, st, 19, s->gap_before);
    b_opt(db, st, 20, s->gap_after);
    b_opt(db, st, 21, s->sample_count);
    b_int(db, st, 22, s->have_msg_id, s->msg_id);
    b_text(db, st, 23, s->type);
    b_id(db, st, 24, s->wakeup_utid);
    for (int k = 0; k < TT_CTR_COUNT; k++) /* columns in TT_CTR_* order */
        b_int(db, st, 25 + k, (s->ctr_known >> k) & 1, (int64_t)s->ctr[k]);
    b_id(db, st, 25 + TT_CTR_COUNT, s->arg_set_id);
    return tdb__step_done(db, st, NULL, err);
}

/* One args row of type (int, real or string: the value given, the others NULL). */
static int arg_add(tdb_db *db, int64_t arg_set_id, const char *key, const char *type,
                   const int64_t *i, const double *d, const char *s, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_ARG_INT,
                                 "INSERT INTO args (arg_set_id, key, value_type, int_value, "
                                 "real_value, string_value) VALUES (?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, arg_set_id);
    b_text(db, st, 2, key);
    b_text(db, st, 3, type);
    b_int(db, st, 4, i != NULL, i ? *i : 0);
    b_real(db, st, 5, d != NULL, d ? *d : 0);
    b_text(db, st, 6, s);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_arg_int(tdb_db *db, int64_t arg_set_id, const char *key, int64_t v, tt_error *err)
{
    return arg_add(db, arg_set_id, key, "int", &v, NULL, NULL, err);
}

int tdb_arg_real(tdb_db *db, int64_t arg_set_id, const char *key, double v, tt_error *err)
{
    return arg_add(db, arg_set_id, key, "real", NULL, &v, NULL, err);
}

int tdb_arg_str(tdb_db *db, int64_t arg_set_id, const char *key, const char *v, tt_error *err)
{
    return arg_add(db, arg_set_id, key, "string", NULL, NULL, v ? v : "", err);
}

int tdb_wakeup_add(tdb_db *db, int64_t trace_id, int64_t wakee_slice_id, int64_t waker_utid,
                   int64_t waker_ts, const char *kind, tt_error *err)
{
    sqlite3_stmt *st =
        tdb__prep(db, ST_WAKEUP_ADD,
                  "INSERT INTO wakeup (trace_id, wakee_slice_id, waker_utid, waker_ts, "
                  "kind) VALUES (?,?,?,?,?)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_ref(db, st, 2, wakee_slice_id);
    b_ref(db, st, 3, waker_utid);
    b_i64(db, st, 4, waker_ts);
    b_text(db, st, 5, kind);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_tree_add(tdb_db *db, int64_t trace_id, const char *kind, int64_t issue_id,
                 int64_t utid, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_TREE_KIND, kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st = tdb__prep(db, ST_TREE_ADD,
                                 "INSERT INTO call_tree (trace_id, kind, issue_id, utid) "
                                 "VALUES (?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_text(db, st, 2, kind);
    b_id(db, st, 3, issue_id);
    b_id(db, st, 4, utid);
    return tdb__step_done(db, st, id, err);
}

int tdb_node_add(tdb_db *db, const tdb_node *n, tt_error *err)
{
    /* the writers give each tree's nodes in pre-order, parents first */
    int nested;
    if (tdb__npath_add(&db->npath, n->id, n->parent_id != 0, n->parent_id, n->name,
                       n->name ? strlen(n->name) : 0, &nested))
        return tt_error_set(err, TT_ENOMEM, db->path, 0, 0, "out of memory");
    sqlite3_stmt *st = tdb__prep(db, ST_NODE_ADD,
                                 "INSERT INTO call_node (id, tree_id, parent_id, depth, ordinal, "
                                 "name, method_id, count, total_dur, self_dur, self_count, "
                                 "arg_set_id, is_recursive) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, n->id);
    b_ref(db, st, 2, n->tree_id);
    b_id(db, st, 3, n->parent_id);
    b_i64(db, st, 4, n->depth);
    b_i64(db, st, 5, n->ordinal);
    b_text(db, st, 6, n->name);
    b_id(db, st, 7, n->method_id);
    b_i64(db, st, 8, n->count);
    b_int(db, st, 9, n->have_dur, n->total_dur);
    b_int(db, st, 10, n->have_dur, n->self_dur);
    b_int(db, st, 11, n->have_self_count, n->self_count);
    b_id(db, st, 12, n->arg_set_id);
    b_i64(db, st, 13, nested);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_issue_add(tdb_db *db, const tdb_issue *i, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_ISSUE_KIND, i->kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st = tdb__prep(db, ST_ISSUE_ADD,
                                 "INSERT INTO issue (trace_id, tag, detail, kind, scene, "
                                 "process_name, report_unix_ms, cost_ms, sub_type, stack_key_raw, "
                                 "stack_key_method_id, stack_key, stack_key_path, is_foreground, "
                                 "thread_stack, utid, ts, raw_json, arg_set_id) "
                                 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, i->trace_id);
    b_text(db, st, 2, i->tag);
    b_text(db, st, 3, i->detail);
    b_text(db, st, 4, i->kind);
    b_text(db, st, 5, i->scene);
    b_text(db, st, 6, i->process_name);
    b_int(db, st, 7, i->have_report_time, i->report_unix_ms);
    b_int(db, st, 8, i->have_cost, i->cost_ms);
    b_int(db, st, 9, i->have_sub_type, i->sub_type);
    b_text(db, st, 10, i->stack_key_raw);
    b_id(db, st, 11, i->stack_key_method_id);
    b_text(db, st, 12, i->stack_key);
    b_text(db, st, 13, i->stack_key_path);
    b_int(db, st, 14, i->have_foreground, i->is_foreground);
    b_text(db, st, 15, i->thread_stack);
    b_id(db, st, 16, i->utid);
    b_int(db, st, 17, i->have_ts, i->ts);
    b_text(db, st, 18, i->raw_json ? i->raw_json : "{}");
    b_id(db, st, 19, i->arg_set_id);
    return tdb__step_done(db, st, id, err);
}

int tdb_issue_set_tree(tdb_db *db, int64_t issue_id, int64_t tree_id, tt_error *err)
{
    sqlite3_stmt *st =
        tdb__prep(db, ST_ISSUE_TREE, "UPDATE issue SET call_tree_id = ? WHERE id = ?", err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, tree_id);
    b_ref(db, st, 2, issue_id);
    return tdb__step_done(db, st, NULL, err);
}
