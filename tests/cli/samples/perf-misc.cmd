tracetool samples --top 1 perf-misc.txt | grep -E "^(input|==)"
