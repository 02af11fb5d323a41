tracetool samples perf-bad.txt
