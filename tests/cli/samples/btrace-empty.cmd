cd "$TT_TMP" && gen_btrace --variant empty e.bin m.bin && tracetool samples e.bin m.bin
