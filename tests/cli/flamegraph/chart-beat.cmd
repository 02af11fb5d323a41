tracetool flamegraph --flamechart --format tsv --max-frames 15 -m ../../samples/methodMapping.txt ../../samples/beat.bin
