python3 -c "import sqlite3; sqlite3.connect(\"$TT_TMP/other.db\").execute(\"create table t(x)\")" && tracetool query "$TT_TMP/other.db" "select 1" 2>&1 | sed "s|$TT_TMP|TMP|g"
