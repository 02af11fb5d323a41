tracetool samples --format json --inverted --top 3 --thread main ../../samples/sampling.bin ../../samples/sampling-mapping.bin
