tracetool analyze -o "$TT_TMP/f.db" ios-lag-2001.json >/dev/null 2>&1 && tracetool flamegraph -o "$TT_TMP/f.svg" "$TT_TMP/f.db" 2>&1 | sed "s|$TT_TMP|TMP|g"
