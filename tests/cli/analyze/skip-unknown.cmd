tracetool analyze --skip-unknown -o "$TT_TMP/a.db" an-v1.bin an-unknown.txt | head -3
