cd "$TT_TMP" && gen_btrace --variant truncated t.bin m.bin && tracetool samples --top 1 --thread main t.bin m.bin
