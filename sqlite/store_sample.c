/* Row writers of sampled stacks (storage.md 3.7): stack frames, callsites, samples, and the
 * binary images of iOS reports (spec/ios.md 10). */
#include "tdb.h"


#include "tdb_int.h"

int tdb_binary_image_add(tdb_db *db, const tdb_binary_image *b, tt_error *err)
{
    sqlite3_stmt *st =
        tdb__prep(db, ST_BINIMG_ADD,
                  "INSERT OR IGNORE INTO binary_image (trace_id, report_id, module_id, "
                  "image_addr, image_vmaddr, image_size, name, arch, debug_file, "
                  "n_frames) VALUES (?,?,?,?,?,?,?,?,?,?)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, b->trace_id);
    b_text(db, st, 2, b->report_id);
    b_id(db, st, 3, b->module_id);
    b_i64(db, st, 4, (int64_t)b->image_addr);
    b_i64(db, st, 5, (int64_t)b->image_vmaddr);
    b_i64(db, st, 6, (int64_t)b->image_size);
    b_text(db, st, 7, b->name);
    b_text(db, st, 8, b->arch);
    b_text(db, st, 9, b->debug_file);
    b_i64(db, st, 10, b->n_frames);
    return tdb__step_done(db, st, NULL, err);
}

int tdb_binary_image_uuids(tdb_db *db, int64_t trace_id, tdb_uuid_fn fn, void *ctx,
                           tt_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT DISTINCT m.build_id FROM binary_image b JOIN module m ON "
                           "m.id = b.module_id WHERE b.trace_id = ?1 AND b.n_frames > 0 AND "
                           "m.build_id IS NOT NULL ORDER BY 1",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "binary image UUIDs");
    sqlite3_bind_int64(st, 1, trace_id);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (fn(ctx, (const char *)sqlite3_column_text(st, 0)))
            break;
    rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : tdb__sqlerr(db, err, "binary image UUIDs");
    sqlite3_finalize(st);
    return rc;
}

int tdb_frame_add(tdb_db *db, const tdb_frame *f, int64_t *id, tt_error *err)
{
    if (tdb__enum_check(TDB__E_FRAME_KIND, f->kind, err))
        return TT_EINVAL;
    sqlite3_stmt *st = tdb__prep(db, ST_FRAME_ADD,
                                 "INSERT INTO stack_frame (trace_id, name, raw_name, kind, rel_pc, "
                                 "module_id, symbol_set_id, file, line) VALUES (?,?,?,?,?,?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, f->trace_id);
    b_text(db, st, 2, f->name);
    b_text(db, st, 3, f->raw_name);
    b_text(db, st, 4, f->kind);
    b_int(db, st, 5, f->have_rel_pc, f->rel_pc);
    b_id(db, st, 6, f->module_id);
    b_id(db, st, 7, f->symbol_set_id);
    b_text(db, st, 8, f->file);
    b_int(db, st, 9, f->line > 0, f->line);
    return tdb__step_done(db, st, id, err);
}

int tdb_callsite_add(tdb_db *db, int64_t trace_id, int64_t parent_id, int64_t depth,
                     int64_t frame_id, int64_t *id, tt_error *err)
{
    sqlite3_stmt *st = tdb__prep(db, ST_CALLSITE_ADD,
                                 "INSERT INTO callsite (trace_id, parent_id, depth, frame_id) "
                                 "VALUES (?,?,?,?)",
                                 err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, trace_id);
    b_id(db, st, 2, parent_id);
    b_i64(db, st, 3, depth);
    b_ref(db, st, 4, frame_id);
    return tdb__step_done(db, st, id, err);
}

int tdb_sample_add(tdb_db *db, const tdb_sample *s, tt_error *err)
{
    sqlite3_stmt *st =
        tdb__prep(db, ST_SAMPLE_ADD,
                  "INSERT INTO sample (trace_id, utid, ts, dur, callsite_id, count, "
                  "weight, type, event, msg_id, is_interval, is_blocking, thread_ts, "
                  "thread_dur) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  err);
    if (!st)
        return TT_EIO;
    b_ref(db, st, 1, s->trace_id);
    b_ref(db, st, 2, s->utid);
    b_int(db, st, 3, s->have_ts, s->ts);
    b_i64(db, st, 4, s->dur);
    b_ref(db, st, 5, s->callsite_id);
    b_i64(db, st, 6, s->count);
    b_i64(db, st, 7, s->weight);
    b_text(db, st, 8, s->type ? s->type : "cpu");
    b_text(db, st, 9, s->event);
    b_int(db, st, 10, s->have_msg_id, s->msg_id);
    b_i64(db, st, 11, s->is_interval ? 1 : 0);
    b_i64(db, st, 12, s->is_blocking ? 1 : 0);
    b_int(db, st, 13, s->have_thread, s->thread_ts);
    b_int(db, st, 14, s->have_thread, s->thread_dur);
    return tdb__step_done(db, st, NULL, err);
}
