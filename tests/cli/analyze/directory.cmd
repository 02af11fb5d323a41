mkdir -p "$TT_TMP/dir" && cp an-v1.bin an-map.txt an-v1.txt "$TT_TMP/dir/" && tracetool analyze -o "$TT_TMP/a.db" "$TT_TMP/dir" 2>&1 | sed "s|$TT_TMP|TMP|g"
