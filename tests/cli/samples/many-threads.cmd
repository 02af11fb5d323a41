tracetool samples --top 2 perf-many-threads.txt
