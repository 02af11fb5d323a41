tracetool flamegraph --format tsv --thread nosuch ../../samples/perf-fib.txt.gz
