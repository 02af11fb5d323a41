tracetool analyze --jobs 0 -o "$TT_TMP/j0.db" an-v1.bin
