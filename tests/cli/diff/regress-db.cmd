sh ../cli/diff/mkpair.sh r regress && tracetool diff "$TT_TMP/diff/r/base.db" "$TT_TMP/diff/r/new.db" > "$TT_TMP/r.out"; rc=$?; sed "s|$TT_TMP|TMP|g" "$TT_TMP/r.out"; echo "rc=$rc"
