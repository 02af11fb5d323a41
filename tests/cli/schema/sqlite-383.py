"""The schema of a tracetool database uses only what SQLite 3.8.3 parses (storage.md 1): an
older reader cannot read any table of a file whose sqlite_master holds SQL it cannot parse.
Prints one line per construct newer than 3.8.3 found in DB's sqlite_master."""
import re
import sqlite3
import sys

# words of SQL newer than 3.8.3 (the version that added them): views, triggers and indexes
NEWER = [
    (r"\bOVER\s*\(|\bOVER\s+\w+\s*$|\bWINDOW\b", "window function (3.25)"),
    (r"\bFILTER\s*\(", "aggregate FILTER (3.30)"),
    (r"\bNULLS\s+(FIRST|LAST)\b", "NULLS FIRST/LAST (3.30)"),
    (r"\bIIF\s*\(", "iif() (3.32)"),
    (r"\bRETURNING\b", "RETURNING (3.35)"),
    (r"\bMATERIALIZED\b", "MATERIALIZED (3.35)"),
    (r"->", "-> operator (3.38)"),
    (r"\bIS\s+(NOT\s+)?DISTINCT\s+FROM\b", "IS DISTINCT FROM (3.39)"),
    (r"\b(RIGHT|FULL)\s+(OUTER\s+)?JOIN\b", "RIGHT/FULL JOIN (3.39)"),
    (r"\bDO\s+(UPDATE|NOTHING)\b", "upsert (3.24)"),
    (r"\bjson\w*\s*\(", "JSON function (3.9, an extension)"),
    (r"\b(unixepoch|format|concat|concat_ws|string_agg|octet_length|unhex)\s*\(",
     "newer built-in function"),
]


def main(path):
    c = sqlite3.connect(path)
    bad = 0
    rows = c.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL"
                     " ORDER BY type, name").fetchall()
    for typ, name, tbl, sql in rows:
        # comments and string literals are no syntax
        sql = re.sub(r"--[^\n]*|/\*.*?\*/|'(?:[^']|'')*'", " ", sql, flags=re.S)
        found = []
        if typ == "index":
            # cid -2: a column of the index that is an expression (3.9.0)
            for x in c.execute("PRAGMA index_xinfo(%s)" % ("'" + name.replace("'", "''") + "'")):
                if x[1] == -2:
                    found.append("index on an expression (3.9)")
                    break
        if typ == "table":
            if re.search(r"\)\s*(WITHOUT\s+ROWID\s*,\s*)?STRICT\s*$", sql, re.I) or \
               re.search(r"\bSTRICT\s*(,\s*WITHOUT\s+ROWID\s*)?$", sql, re.I):
                found.append("STRICT table (3.37)")
            if re.search(r"\bGENERATED\s+ALWAYS\b|\bAS\s*\(", sql, re.I):
                found.append("generated column (3.31)")
        for pat, what in NEWER:
            if re.search(pat, sql, re.I | re.M):
                found.append(what)
        for what in found:
            print("%s %s: %s" % (typ, name, what))
            bad = 1
    print("%d schema objects, %s" % (len(rows), "some newer than SQLite 3.8.3" if bad
                                      else "all readable by SQLite 3.8.3"))


main(sys.argv[1])
