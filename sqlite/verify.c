/* What a tracetool database must be before it is read or appended to: every table of its
 * schema version a table (not a view, not missing), and no damaged page (PRAGMA quick_check).
 * A file is someone else's: its schema's SQL is not trusted. */
#include <stdio.h>
#include <string.h>

#include "tdb.h"
#include "tdb_int.h"

/* The tables of each schema version: since, the version whose migration created the table
 * (store.c). The golden test merge/hostile-schema drops each table of a new database in
 * turn, so a table missing here is found. */
static const struct {
    const char *name;
    int since;
} tables[] = {
    {"trace", 1},        {"trace_input", 1},      {"metadata", 1},   {"stats", 1},
    {"args", 1},         {"process", 1},          {"thread", 1},     {"method_mapping", 1},
    {"method", 1},       {"ignored_method", 5},   {"call_tree", 1},  {"call_node", 1},
    {"issue", 1},        {"ui_frame", 1},         {"scene_frame_stats", 1},
    {"startup", 1},      {"startup_segment", 1},  {"launch", 1},     {"module", 1},
    {"binary_image", 3}, {"stack_frame", 1},      {"callsite", 1},   {"sample", 1},
    {"slice", 1},        {"wakeup", 1},           {"symbol", 1},     {"symbolized_pc", 1},
};

void tdb__untrusted(sqlite3 *h)
{
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    /* functions with side effects never run from the file's views, triggers or defaults */
    sqlite3_db_config(h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
#else
    (void)h;
#endif
}

void tdb__defensive(sqlite3 *h)
{
#ifdef SQLITE_DBCONFIG_DEFENSIVE
    /* no statement can change the schema's text or write pages directly */
    sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
#else
    (void)h;
#endif
}

/* The type in sqlite_master of the object called name: "table", "view", ..., or "" when
 * none; 0 or an error. */
static int type_of(tdb_db *db, const char *name, char *type, size_t n, tt_error *err)
{
    sqlite3_stmt *st;
    type[0] = '\0';
    if (sqlite3_prepare_v2(db->h, "SELECT type FROM main.sqlite_master WHERE name = ?1 "
                                  "COLLATE NOCASE AND type IN ('table', 'view')",
                           -1, &st, NULL) != SQLITE_OK)
        return tdb__sqlerr(db, err, "cannot read the schema");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        snprintf(type, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return tdb__sqlerr(db, err, "cannot read the schema");
    return 0;
}

static int check_tables(tdb_db *db, int64_t version, tt_error *err)
{
    char type[16];
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (tables[i].since > version)
            continue;
        int rc = type_of(db, tables[i].name, type, sizeof type, err);
        if (rc)
            return rc;
        if (!strcmp(type, "table"))
            continue;
        if (type[0])
            return tt_error_set(err, TT_EFORMAT, db->path, 0, 0,
                                "not a tracetool database: %s is a %s, expected a table",
                                tables[i].name, type);
        return tt_error_set(err, TT_EFORMAT, db->path, 0, 0,
                            "not a tracetool database: no table %s (schema %lld has one)",
                            tables[i].name, (long long)version);
    }
    return 0;
}

/* PRAGMA quick_check(1): the first problem is enough to refuse the file. It reads every
 * page (no index against its table: that is integrity_check). */
static int quick_check(tdb_db *db, tt_error *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->h, "PRAGMA main.quick_check(1)", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const char *m = (const char *)sqlite3_column_text(st, 0);
            if (m && strcmp(m, "ok")) {
                /* "*** in database main ***\nPage 21: ...": the file is named already */
                const char *nl = strchr(m, '\n');
                if (!strncmp(m, "*** in database ", 16) && nl)
                    m = nl + 1;
                tt_error_set(err, TT_EFORMAT, db->path, 0, 0, "database is corrupt: %.*s",
                             (int)strcspn(m, "\n"), m);
            }
            rc = m && strcmp(m, "ok") ? TT_EFORMAT : 0;
            sqlite3_finalize(st);
            return rc;
        }
        sqlite3_finalize(st);
    }
    int code = sqlite3_errcode(db->h);
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
        return tt_error_set(err, TT_EFORMAT, db->path, 0, 0, "database is corrupt: %s",
                            sqlite3_errmsg(db->h));
    if (tdb__busy(db->h))
        return tt_error_set(err, TT_EIO, db->path, 0, 0, TDB_LOCKED_MSG);
    return tdb__sqlerr(db, err, "cannot read the database");
}

int tdb__check_content(tdb_db *db, int64_t version, int pages, tt_error *err)
{
    if (version <= 0)
        return 0;
    int rc = check_tables(db, version < TDB_SCHEMA_VERSION ? version : TDB_SCHEMA_VERSION, err);
    return rc || !pages ? rc : quick_check(db, err);
}
