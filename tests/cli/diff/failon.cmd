sh ../cli/diff/mkpair.sh f regress && tracetool diff --fail-on 'startup.cold=+5%,fps=-2,method.self=+20%' "$TT_TMP/diff/f/base.db" "$TT_TMP/diff/f/new.db" | tail -5
