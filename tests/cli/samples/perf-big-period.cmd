tracetool samples --top 1 perf-big-period.txt | grep -E "^(input|==)"
