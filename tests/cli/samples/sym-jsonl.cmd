sh symprof/mk.sh "$TT_TMP/symprof" && cd "$TT_TMP/symprof" && tracetool samples --top 3 -e pprof samples.jsonl
