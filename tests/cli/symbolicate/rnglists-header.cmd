tracetool symbolicate -e rnglists-header.so -f -i 0x1160
