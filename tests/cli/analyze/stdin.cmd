tracetool analyze -o "$TT_TMP/a.db" -m an-map.txt - < an-v1.bin | head -3
