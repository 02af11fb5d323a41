tracetool samples --top 1 perf-comm-cpu.txt | grep -E "^(input|==)"
