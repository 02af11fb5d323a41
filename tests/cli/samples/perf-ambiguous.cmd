tracetool samples --top 1 perf-ambiguous.txt
