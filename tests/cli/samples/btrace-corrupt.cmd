cd "$TT_TMP" && gen_btrace --variant corrupt c.bin m.bin && tracetool samples --top 1 c.bin m.bin
