tracetool flamegraph --format tsv --thread fib-# --thread main --max-frames 10 ../../samples/sampling.bin 2>/dev/null
