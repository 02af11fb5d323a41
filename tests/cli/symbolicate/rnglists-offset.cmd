tracetool symbolicate -e rnglists-offset.so -f -i 0x1160
