tracetool analyze -o "$TT_TMP/m.db" -m an-map.txt an-v1.bin > /dev/null && tracetool diff --base-mapping an-map.txt "$TT_TMP/m.db" "$TT_TMP/m.db" 2>&1 | sed "s|$TT_TMP|TMP|g"
