tracetool diff an-v1.bin
