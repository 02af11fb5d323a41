sh ../cli/diff/mkpair.sh s same && tracetool diff --format json "$TT_TMP/diff/s/base.db" "$TT_TMP/diff/s/new.db" | sed "s|$TT_TMP|TMP|g"
