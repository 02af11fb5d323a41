tracetool beat -m ../../samples/methodMapping-obfuscated.txt --proguard ../../samples/mapping.txt --end-ms 6600 ../../samples/beat.bin
