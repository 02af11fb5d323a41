mkdir -p "$TT_TMP/empty" && tracetool report --threads point --symbols "$TT_TMP/empty" ios-lag-2001.json 2>/dev/null | sed -n "/Images without/,\$p"
