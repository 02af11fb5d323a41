tracetool symbolicate -e macho/fat:armv7 0x100004050
