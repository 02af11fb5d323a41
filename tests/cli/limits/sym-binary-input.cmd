tracetool symbolicate --symbols . an-v1.bin
