mkdir -p "$TT_TMP/same" && gen_diffpair --same "$TT_TMP/same" && cd "$TT_TMP/same" && tracetool diff --base-mapping base-map.txt --new-mapping new-map.txt base.bin new.bin
