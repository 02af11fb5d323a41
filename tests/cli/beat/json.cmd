tracetool beat --format json -m ../../samples/methodMapping.txt --end-ms 6600 ../../samples/beat.bin
