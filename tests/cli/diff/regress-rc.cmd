sh ../cli/diff/mkpair.sh r1 regress && tracetool diff "$TT_TMP/diff/r1/base.db" "$TT_TMP/diff/r1/new.db" > /dev/null
