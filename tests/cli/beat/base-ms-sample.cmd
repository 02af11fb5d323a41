tracetool beat --format matrix --base-ms 120000 --end-ms 126600 ../../samples/beat.bin
