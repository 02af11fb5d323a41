TRACETOOL_SYMBOL_PATH=.:no-such-store tracetool symbolicate ../../samples/tombstone.txt
