tracetool analyze an-v1.bin -m an-map.txt -o "$TT_TMP/a.db" --format json 2>/dev/null | head -c 1; tracetool query "$TT_TMP/a.db" "select count(*) as methods from method"
