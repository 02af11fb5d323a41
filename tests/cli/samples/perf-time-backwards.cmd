tracetool samples --top 1 perf-deltatime.txt | grep -E "^(input|==)"
