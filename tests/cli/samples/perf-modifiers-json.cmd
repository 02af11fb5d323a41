tracetool samples --format json --top 1 --event cycles:ppp perf-modifiers.txt
