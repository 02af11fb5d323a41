cd "$TT_TMP" && rm -f export-foreign.db && python3 -c "import sqlite3; sqlite3.connect(\"export-foreign.db\").execute(\"create table t(x)\")" && tracetool export --format chrome export-foreign.db
