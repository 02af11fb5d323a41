tracetool beat --lenient --format json ../../samples/beat.bin
