sh ../cli/diff/mkpair.sh r regress && tracetool diff "$TT_TMP/diff/r/base.db" "$TT_TMP/diff/r/new.db" | sed "s|$TT_TMP|TMP|g"; echo "rc=$?"
