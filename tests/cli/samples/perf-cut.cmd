tracetool samples --top 1 perf-cut.txt | grep -E "^(input|==)"; gzip -c perf-cut.txt | tracetool samples --top 1 - | grep -E "^=="
