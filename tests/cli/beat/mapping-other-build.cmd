head -n 100 ../../samples/methodMapping.txt > $TT_TMP/short.txt && tracetool beat -m $TT_TMP/short.txt --end-ms 6600 --format matrix ../../samples/beat.bin
