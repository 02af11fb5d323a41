tracetool diff no-such.db an-v1.bin
