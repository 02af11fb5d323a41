tracetool samples --top 2 perf-exec.txt
