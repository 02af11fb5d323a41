# perf record without -g, perf script -F comm,pid,tid,ip,sym,dso (real perf 6.1): detected as perf, one sample per line
tracetool samples --top 1 perf-nog-pid-tid-oneline.txt | grep -E "^(input|[0-9]+ samples|==)"
