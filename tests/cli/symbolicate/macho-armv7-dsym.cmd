tracetool symbolicate -e macho/armv7-dsym.macho -a -f 0x4010
