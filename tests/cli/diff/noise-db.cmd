sh ../cli/diff/mkpair.sh n noise && tracetool diff "$TT_TMP/diff/n/base.db" "$TT_TMP/diff/n/new.db" | sed "s|$TT_TMP|TMP|g"
