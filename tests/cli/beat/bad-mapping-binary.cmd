tracetool beat -m ../../samples/beat.bin ../../samples/beat.bin
