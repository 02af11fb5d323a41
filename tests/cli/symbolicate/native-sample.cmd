tracetool symbolicate --symbols ../../samples/native ../../samples/native-tombstone.txt 2>/dev/null | sed -n "/#01/,/#04/p"
