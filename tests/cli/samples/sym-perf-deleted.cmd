sh symprof/mk.sh "$TT_TMP/symprof" && cd "$TT_TMP/symprof" && tracetool export --format folded -e pprof perf-mmap-deleted.txt
