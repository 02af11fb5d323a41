sh symprof/mk.sh "$TT_TMP/symprof" && cd "$TT_TMP/symprof" && tracetool symbolicate --symbols . --kind perf < perf-mmap-deleted.txt
