tracetool analyze -o "$TT_TMP/s.db" --symbols no-such-store beat-v1.txt
