tracetool beat --lenient -m ../../samples/methodMapping.txt ../../samples/beat.bin
