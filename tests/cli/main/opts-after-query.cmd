tracetool analyze an-v1.bin -o "$TT_TMP/q.db" -m an-map.txt >/dev/null && tracetool query "$TT_TMP/q.db" "select 1 as one, '-x' as two" --format json
