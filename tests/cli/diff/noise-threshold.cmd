sh ../cli/diff/mkpair.sh n2 noise && tracetool diff --threshold 1% --min-ms 0 --fail-on 'method.self=+4%' "$TT_TMP/diff/n2/base.db" "$TT_TMP/diff/n2/new.db" | sed "s|$TT_TMP|TMP|g"
