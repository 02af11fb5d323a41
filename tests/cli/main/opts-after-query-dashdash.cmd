tracetool analyze -o "$TT_TMP/q.db" -m an-map.txt an-v1.bin >/dev/null && tracetool query --format csv "$TT_TMP/q.db" -- "-- a comment that looks like an option
select 2 as two"
