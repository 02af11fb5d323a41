cd "$TT_TMP" && gen_btrace --variant map-truncated s.bin m.bin && tracetool samples --top 2 --thread 4411 s.bin m.bin
