tracetool flamegraph --chart --script none --minwidth 1 ../../samples/sampling.bin 2>/dev/null
