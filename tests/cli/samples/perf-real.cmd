tracetool samples --top 5 ../../samples/perf-fib.txt.gz
