# perf script -F comm,period,ip,sym (real perf 6.1): the one number is the period, right-aligned in 10 columns after a blank (a tid takes 7): one thread per comm, weights are periods
tracetool samples --top 1 perf-comm-period.txt | grep -E "^(weight|[0-9]+ samples|==|samples)"; tracetool export --format folded perf-comm-period.txt
