tracetool symbolicate -e rnglists-unchecked.so -f 0x1160
