sh ../cli/diff/mkpair.sh rj regress && tracetool diff --format json "$TT_TMP/diff/rj/base.db" "$TT_TMP/diff/rj/new.db" 2>&1 | sed "s|$TT_TMP|TMP|g"
