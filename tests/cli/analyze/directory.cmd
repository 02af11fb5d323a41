mkdir -p "$TT_TMP/dir" && cp an-v1.bin an-map.txt an-v1.txt "$TT_TMP/dir/" && cd "$TT_TMP" && tracetool analyze -o a.db dir
