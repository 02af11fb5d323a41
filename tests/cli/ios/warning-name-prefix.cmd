cp ios-lag-2001.json "$TT_TMP/report" && cp ios-lag-2001.json "$TT_TMP/rep" && cd "$TT_TMP" && tracetool export --format folded report rep 2>&1 >/dev/null
