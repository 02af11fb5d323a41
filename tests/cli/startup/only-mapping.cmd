cd "$TT_TMP" && gen_startup mapping > only.map && tracetool startup only.map
