/* Running SQL: errors, plain statements, and the prepared statements of the row writers
 * (storage.md 5.1): one per slot, prepared once and kept; values are only ever bound, never
 * written into SQL text. A recording handle (tdb_rec_new) records the rows instead (tdb_int.h:
 * the binders). */
#include "tdb.h"

#include "tdb_int.h"

int tdb__sqlerr(tdb_db *db, tt_error *err, const char *what)
{
    return tt_error_set(err, TT_EIO, db->path, 0, 0, "%s: %s", what,
                        db->h ? sqlite3_errmsg(db->h) : "out of memory");
}

int tdb__busy(sqlite3 *h) { return h && (sqlite3_errcode(h) & 0xff) == SQLITE_BUSY; }

int tdb__exec(tdb_db *db, const char *sql, tt_error *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        tt_error_set(err, TT_EIO, db->path, 0, 0, "%s", msg ? msg : sqlite3_errmsg(db->h));
        sqlite3_free(msg);
        return TT_EIO;
    }
    return 0;
}

/* Prepared on first use and kept (SQLITE_PREPARE_PERSISTENT) until tdb_commit or tdb_close. */
sqlite3_stmt *tdb__prep(tdb_db *db, int slot, const char *sql, tt_error *err)
{
    if (db->rec) {
        tdb__rec_row(db->rec, slot, sql);
        db->rec_slot = slot;
        return (sqlite3_stmt *)(void *)db->rec; /* a marker: never used as a statement */
    }
    if (!db->st[slot] &&
        sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &db->st[slot], NULL) !=
            SQLITE_OK) {
        tdb__sqlerr(db, err, "prepare");
        return NULL;
    }
    return db->st[slot];
}

int tdb__step_done(tdb_db *db, sqlite3_stmt *st, int64_t *rowid, tt_error *err)
{
    if (db->rec)
        return tdb__rec_end(db->rec, db->rec_slot, rowid, err);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return tdb__sqlerr(db, err, "write");
    if (rowid)
        *rowid = sqlite3_last_insert_rowid(db->h);
    return 0;
}

/* Reads need the database: a recording handle refuses them (before recording anything). */
int tdb__no_reads(tt_error *err)
{
    return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "no reads while recording rows");
}

/* One integer result, or *found = 0. */
int tdb__step_int(tdb_db *db, sqlite3_stmt *st, int *found, int64_t *v, tt_error *err)
{
    if (db->rec)
        return tdb__no_reads(err);
    int rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    if (*found)
        *v = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return tdb__sqlerr(db, err, "read");
    return 0;
}
