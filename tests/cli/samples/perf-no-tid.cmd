tracetool samples --top 1 perf-no-tid.txt | sed -n 5p && tracetool samples --format json perf-no-tid.txt | grep -o '"utid":0,"name":"[^"]*","tid":[a-z0-9-]*,"tid_bits":[0-9]*,"pid":[a-z0-9-]*'
