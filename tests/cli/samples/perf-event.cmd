tracetool samples --top 3 --event cpu_atom/cycles/Pu perf-variants.txt
