tracetool analyze -o "$TT_TMP/r.db" report-numbers.jsonl fps-reports-shuffled.jsonl >/dev/null 2>&1 && tracetool query "$TT_TMP/r.db" "SELECT raw_json FROM issue ORDER BY id"
