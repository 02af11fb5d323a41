head -50 startup/late-displayed.log > "$TT_TMP/plain.log" && cd "$TT_TMP" && tracetool startup plain.log 2>&1; echo "rc=$?"
