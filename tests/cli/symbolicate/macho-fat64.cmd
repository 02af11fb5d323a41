tracetool symbolicate -e macho/mini-fat64.macho:x86_64 -a -f 0x1000000f0 0x100000110
