tracetool beat -m ../../samples/methodMapping-obfuscated.txt --end-ms 6600 ../../samples/beat.bin
