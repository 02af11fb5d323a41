tracetool analyze -o "$TT_TMP/a.db" -m an-map.txt an-v1.bin >/dev/null && tracetool diff "$TT_TMP/a.db" "$TT_TMP/a.db" --format json | head -c 12; echo
