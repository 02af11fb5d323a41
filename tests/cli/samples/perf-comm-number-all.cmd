# every thread name ends in a number (perf script --tid, real perf 6.1): the pid/tid token, the time and perf's largest layouts bound the fields, "worker 1" stays the comm
for f in perf-tid-filter-pidtid.txt perf-tid-filter-default.txt.gz perf-tid-filter-timed.txt perf-untimed-workers.txt.gz; do tracetool samples --top 1 $f | grep -E "^(input|weight|==)"; done
