: > "$TT_TMP/e.txt" && gzip -c "$TT_TMP/e.txt" > "$TT_TMP/e.txt.gz" && cd "$TT_TMP" && tracetool samples e.txt.gz; echo "rc=$?"; tracetool export --format folded e.txt
