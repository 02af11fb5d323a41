sh symprof/mk.sh "$TT_TMP/symprof" && cd "$TT_TMP/symprof" && tracetool samples --format json --exe pprof samples.jsonl
