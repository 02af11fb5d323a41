tracetool art detect-elf.bin
