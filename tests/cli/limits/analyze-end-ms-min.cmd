tracetool analyze -o "$TT_TMP/x.db" --base-ms 1000 --end-ms -9223372036854775808 beat-v1.txt
