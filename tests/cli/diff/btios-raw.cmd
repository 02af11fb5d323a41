gzip -dc ios-bt-point.db.gz > "$TT_TMP/p.db" && tracetool diff --top 3 "$TT_TMP/p.db" ios-bt-batch.db.gz | sed "s|$TT_TMP|TMP|g"
