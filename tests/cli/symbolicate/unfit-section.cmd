tracetool symbolicate -e elf-unfit-group.so 0x1000
