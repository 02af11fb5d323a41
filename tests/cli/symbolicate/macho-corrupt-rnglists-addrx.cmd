tracetool symbolicate -e macho/corrupt-rnglists-addrx.macho -i 0x1000
