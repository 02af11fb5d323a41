gzip -dc ios-bt-wal.db.gz > "$TT_TMP/w.db" && head -c 1000 ios-bt-wal.db.gz > "$TT_TMP/w.db-wal" && tracetool samples "$TT_TMP/w.db" 2>"$TT_TMP/e"; echo "exit $?"; sed "s|$TT_TMP|TMP|g" "$TT_TMP/e"
