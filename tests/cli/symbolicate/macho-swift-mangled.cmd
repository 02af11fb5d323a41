tracetool symbolicate -e macho/mini-swift.macho -f 0x100000110
