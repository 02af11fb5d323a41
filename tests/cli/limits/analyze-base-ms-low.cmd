tracetool analyze -o "$TT_TMP/x.db" --format json --base-ms -9223372036854 beat-v1.txt >/dev/null && tracetool query "$TT_TMP/x.db" "select min(ts), max(ts + dur) from slice"
