tracetool samples --top 3 perf-oneline.txt
