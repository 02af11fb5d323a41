gzip -dc ios-bt-point.db.gz | head -c 9000 > "$TT_TMP/t.db"; tracetool samples "$TT_TMP/t.db" 2>&1 | sed "s|$TT_TMP|TMP|g"
