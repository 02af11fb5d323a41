tracetool beat --format matrix --cost 1200 ../../samples/beat.txt
