tracetool export --format folded ../../samples/sampling.bin
