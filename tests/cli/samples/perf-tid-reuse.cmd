tracetool samples --top 1 perf-tid-reuse.txt
