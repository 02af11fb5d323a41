tracetool symbolicate -e macho/app -C --format json 0x100004050 0x1000040c8
