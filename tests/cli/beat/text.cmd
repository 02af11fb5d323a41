tracetool beat -m ../../samples/methodMapping.txt ../../samples/beat.bin
