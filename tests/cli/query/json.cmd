tracetool analyze -o "$TT_TMP/q.db" -m an-map.txt an-v1.bin >/dev/null && tracetool query --format json "$TT_TMP/q.db" "select kind, cost_ms, stack_key, 0.5 as r from issue"
