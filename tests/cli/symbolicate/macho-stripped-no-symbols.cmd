tracetool symbolicate -e macho/app_stripped -a -f 0x100004050
