tracetool analyze -o "$TT_TMP/n.db" ios-bt-nostack.db.gz
