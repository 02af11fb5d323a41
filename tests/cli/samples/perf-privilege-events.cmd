tracetool samples --top 1 perf-privilege-events.txt | grep -E "^(input|==)"; tracetool samples --top 1 --event cpu-clock:u perf-privilege-events.txt | grep -E "^(input|==)"
