tracetool symbolicate -e macho/corrupt-child-at-end.macho -i 0x1000
