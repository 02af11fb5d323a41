tracetool beat -m ../../samples/methodMapping.txt --end-ms 6600 ../../samples/beat.txt
