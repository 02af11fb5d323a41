tracetool analyze -o "$TT_TMP/x.db" --base-ms 9223372036854 beat-v1.txt
