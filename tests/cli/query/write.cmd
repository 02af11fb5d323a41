tracetool analyze -o "$TT_TMP/q.db" -m an-map.txt an-v1.bin >/dev/null && tracetool query --write "$TT_TMP/q.db" "delete from stats" && tracetool query "$TT_TMP/q.db" "select count(*) from stats"
