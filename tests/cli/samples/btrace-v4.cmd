cd "$TT_TMP" && gen_btrace --variant v4 sampling.bin sampling-mapping.bin && tracetool samples --top 2 --thread 4411 sampling.bin
