tracetool beat nosuch.bin
