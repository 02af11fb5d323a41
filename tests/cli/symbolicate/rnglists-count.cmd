tracetool symbolicate -e rnglists-count.so -f -i 0x1160
