cp an-corrupt-db.dat "$TT_TMP/c.db"; tracetool analyze --append -o "$TT_TMP/c.db" an-v1.bin 2>&1 | sed "s|$TT_TMP|TMP|g"; cmp an-corrupt-db.dat "$TT_TMP/c.db" && echo unchanged
