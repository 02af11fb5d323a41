tracetool samples --top 1 perf-stderr.txt | grep -E "^(input|==)"; tracetool samples --top 1 perf-simpleperf-tracing-data.txt | grep -E "^(input|==)"
