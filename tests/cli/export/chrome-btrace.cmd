tracetool export --format chrome --thread main ../../samples/sampling.bin
