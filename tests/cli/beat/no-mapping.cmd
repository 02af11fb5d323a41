tracetool beat --end-ms 6600 ../../samples/beat.bin
