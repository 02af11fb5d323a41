# perf record without -g, plain perf script and -F comm,tid,time,ip,sym (real perf 6.1): one line per sample, the first one "worker 1 10810 ...": every line counts for the layout, the comm keeps its number
for f in perf-nog-default.txt perf-nog-comm-tid-time.txt; do tracetool samples --top 1 $f | grep -E "^(input|==)"; done
