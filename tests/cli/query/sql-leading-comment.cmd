tracetool --quiet analyze -o "$TT_TMP/q.db" -m an-map.txt an-v1.bin >/dev/null 2>&1 && tracetool query "$TT_TMP/q.db" "-- traces
select count(*) as traces from trace" && tracetool query "$TT_TMP/q.db" --format csv "--traces, as csv
select count(*) as traces from trace" --write && tracetool query --format=json "$TT_TMP/q.db" "-- one
select -1 as minus_one" && tracetool query "$TT_TMP/q.db" --bogus "select 1"; echo "exit $?"
