tracetool symbolicate -e macho/app_stripped --format json 0x100004050 0x1000040a0 0x100000010
