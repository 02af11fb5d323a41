tracetool symbolicate --symbols . ../../samples/tombstone.txt
