tracetool samples --top 5 perf-variants.txt
