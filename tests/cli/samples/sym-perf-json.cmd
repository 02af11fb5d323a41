sh symprof/mk.sh "$TT_TMP/symprof" && cd "$TT_TMP/symprof" && tracetool samples --format json -e prof -e pprof perf.txt
