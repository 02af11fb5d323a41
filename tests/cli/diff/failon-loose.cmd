sh ../cli/diff/mkpair.sh fl regress && tracetool diff --fail-on 'method.self=+250%,startup.cold=+400ms,fps=-10' "$TT_TMP/diff/fl/base.db" "$TT_TMP/diff/fl/new.db" | tail -1
