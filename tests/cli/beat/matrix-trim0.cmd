tracetool beat --format matrix --trim 0 --cost 1200 --end-ms 6600 ../../samples/beat.bin
