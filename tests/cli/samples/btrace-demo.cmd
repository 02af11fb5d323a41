tracetool samples --top 5 ../../samples/sampling.bin
