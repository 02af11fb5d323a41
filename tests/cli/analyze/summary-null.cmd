tracetool analyze -o "$TT_TMP/s.db" fps-reports-shuffled.jsonl | sed -n "/worst scenes/,/database/p" | sed "s|$TT_TMP|TMP|g"
