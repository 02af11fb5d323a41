tracetool samples --top 2 perf-modifiers.txt
