/* Every row a run of analyze wrote, table by table (analyze --format jsonl, storage.md 9): the
 * rows of its traces and the shared rows (mappings, methods, modules, symbols), for engines
 * that do not read SQLite. */
#include "tdb.h"

#include <stdlib.h>
#include <string.h>

#include "tdb_int.h"

/* The rows of one table that belong to traces with id >= ?1, by how the table reaches its
 * trace; a table that reaches none is shared and given whole. */
static const struct {
    const char *table, *sql;
} special[] = {
    {"trace", "SELECT * FROM trace WHERE id >= ?1 ORDER BY rowid"},
    {"call_node", "SELECT * FROM call_node WHERE tree_id IN (SELECT id FROM call_tree WHERE "
                  "trace_id >= ?1) ORDER BY rowid"},
    {"startup_segment", "SELECT * FROM startup_segment WHERE startup_id IN (SELECT id FROM "
                        "startup WHERE trace_id >= ?1) ORDER BY rowid"},
};

int tdb__has_column(tdb_db *db, const char *schema, const char *table, const char *col)
{
    sqlite3_stmt *st;
    int found = 0;
    if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM pragma_table_info(?1, ?2) WHERE name = ?3", -1,
                           &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, schema, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, col, -1, SQLITE_STATIC);
    found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

int tdb_dump_rows(tdb_db *db, int64_t first_trace, tdb_dump_fn fn, void *ctx, tt_error *err)
{
    sqlite3_stmt *tabs;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT "
                           "LIKE 'sqlite%' ORDER BY rowid",
                           -1, &tabs, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "dump");
    tt_buf names = {0};
    while (sqlite3_step(tabs) == SQLITE_ROW) {
        const char *n = (const char *)sqlite3_column_text(tabs, 0);
        if (n)
            tt_buf_put(&names, n, strlen(n) + 1);
    }
    sqlite3_finalize(tabs);
    int rc = 0;
    for (size_t off = 0; off < names.len && !rc; off += strlen(names.data + off) + 1) {
        const char *t = names.data + off;
        const char *sql = NULL;
        char *own = NULL;
        for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
            if (!strcmp(special[i].table, t))
                sql = special[i].sql;
        if (!sql) /* table names come from the schema itself, quoted */
            sql = own = tdb__has_column(db, "main", t, "trace_id")
                            ? sqlite3_mprintf("SELECT * FROM \"%w\" WHERE trace_id >= ?1 "
                                              "ORDER BY rowid", t)
                            : sqlite3_mprintf("SELECT * FROM \"%w\" ORDER BY rowid", t);
        sqlite3_stmt *st = NULL;
        if (own && sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
            /* a WITHOUT ROWID table (symbolized_pc) is scanned in primary key order */
            sqlite3_free(own);
            sql = own = sqlite3_mprintf("SELECT * FROM \"%w\"", t);
            st = NULL;
        }
        if (!sql || (!st && sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)) {
            rc = tdb__sqlerr(db, err, "dump");
        } else {
            if (sqlite3_bind_parameter_count(st))
                sqlite3_bind_int64(st, 1, first_trace);
            int ncol = sqlite3_column_count(st);
            const char *cols[64];
            tdb_value vals[64];
            if (ncol > 64)
                ncol = 64;
            for (int i = 0; i < ncol; i++)
                cols[i] = sqlite3_column_name(st, i);
            int s;
            while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
                tdb__values(st, ncol, vals);
                rc = fn(ctx, t, ncol, cols, vals);
            }
            if (!rc && s != SQLITE_DONE)
                rc = tdb__sqlerr(db, err, "dump");
        }
        sqlite3_finalize(st);
        sqlite3_free(own);
    }
    tt_buf_free(&names);
    return rc;
}
