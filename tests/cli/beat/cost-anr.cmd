tracetool beat --format matrix --cost 5000 --end-ms 6600 ../../samples/beat.bin
