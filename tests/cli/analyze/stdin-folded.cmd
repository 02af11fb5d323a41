tracetool analyze -o "$TT_TMP/a.db" - < ../../samples/stacks.folded | head -2
