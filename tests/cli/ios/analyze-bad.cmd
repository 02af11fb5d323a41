tracetool analyze -o "$TT_TMP/b.db" ios-lag-2001.json ios-truncated.json 2>&1 | sed "s|$TT_TMP|TMP|g"; ls "$TT_TMP/b.db" 2>/dev/null || echo no database
