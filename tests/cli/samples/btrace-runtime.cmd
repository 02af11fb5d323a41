tracetool samples --top 2 --keep-runtime-frames --frame-identity address --thread 4420 ../../samples/sampling.bin
