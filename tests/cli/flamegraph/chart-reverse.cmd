tracetool flamegraph --chart --reverse ../../samples/sampling.bin 2>&1 | grep -v warning
