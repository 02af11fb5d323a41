tracetool analyze -o "$TT_TMP/x.db" --base-ms 9223372036854775807 beat-v1.txt
