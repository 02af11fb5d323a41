# exactly 2^64-1, perf's u64 maximum, is capped as a large period, not called above the u64
printf 'a 1 1.0: 18446744073709551615 cpu-clock:\n\t11 f (/x)\n\n' > "$TT_TMP/max.txt"; tracetool samples --top 1 "$TT_TMP/max.txt" 2>&1 >/dev/null | sed "s|$TT_TMP|TMP|g"
