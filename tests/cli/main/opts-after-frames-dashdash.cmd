cp ../../samples/framestats.txt "$TT_TMP/-h" && cd "$TT_TMP" && tracetool frames --format csv -- -h | head -2
