tracetool samples --format json --top 3 --min-percent 5 ../../samples/perf-fib.txt.gz
