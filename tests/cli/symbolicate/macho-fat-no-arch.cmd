tracetool symbolicate -e macho/fat 0x100004050
