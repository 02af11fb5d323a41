tracetool symbolicate -e macho/corrupt-unknown-form.macho -i 0x1000
