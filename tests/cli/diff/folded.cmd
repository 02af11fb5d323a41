sh ../cli/diff/mkpair.sh fd regress && tracetool diff --format folded-diff "$TT_TMP/diff/fd/base.db" "$TT_TMP/diff/fd/new.db"
