sh symprof/mk.sh "$TT_TMP/symprof" && cd "$TT_TMP/symprof" && tracetool export --format folded --folded-root none -e pprof samples.jsonl
