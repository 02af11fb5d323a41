tracetool symbolicate -e macho/corrupt-indirect-form0.macho 0x100000000
