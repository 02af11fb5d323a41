tracetool samples --top 3 perf-notime.txt
