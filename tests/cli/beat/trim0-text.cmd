tracetool beat --trim 0 -m ../../samples/methodMapping.txt -m ../../samples/ignoreMethodMapping.txt --end-ms 6600 ../../samples/beat.bin
