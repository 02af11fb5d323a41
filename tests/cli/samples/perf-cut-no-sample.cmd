# a cut file (no final newline) left with no complete sample: the error still says it was cut
printf 'inl2 29631 21888.830074:    2004008 cpu-clock:ppp: \n\t            11f6 sq+0x26 (inlined)' > "$TT_TMP/c.txt"; cd "$TT_TMP" && tracetool samples c.txt; echo "rc=$?"
