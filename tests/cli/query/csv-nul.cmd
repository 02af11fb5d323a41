tracetool analyze -o "$TT_TMP/q.db" -m an-map.txt an-v1.bin >/dev/null && tracetool query --format csv "$TT_TMP/q.db" "select 'a' || char(0) || ',b' as x, 2 as y" | od -An -c
