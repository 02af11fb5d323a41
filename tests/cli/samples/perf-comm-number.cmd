for f in perf-comm-tid-period.txt perf-comm-pid-tid.txt perf-comm-time.txt; do tracetool samples --top 1 $f | grep -E "^(input|weight|==)"; done
