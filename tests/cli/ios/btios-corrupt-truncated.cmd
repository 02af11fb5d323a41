gzip -dc ios-bt-point.db.gz | head -c 5120 > "$TT_TMP/t.db"; tracetool samples "$TT_TMP/t.db" 2>"$TT_TMP/e"; echo "exit $?"; sed "s|$TT_TMP|TMP|g" "$TT_TMP/e"
