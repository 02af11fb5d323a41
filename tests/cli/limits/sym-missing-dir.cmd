tracetool symbolicate --symbols no-such-store ../../samples/tombstone.txt
