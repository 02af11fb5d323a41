tracetool samples --top 2 perf-rename.txt
