tracetool export --format folded --folded-root none ../../samples/perf-fib.txt.gz
