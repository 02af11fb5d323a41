gzip -dc ios-bt-point.db.gz > "$TT_TMP/plain.db" && tracetool export --format folded -e macho/app.dSYM "$TT_TMP/plain.db" 2>/dev/null
