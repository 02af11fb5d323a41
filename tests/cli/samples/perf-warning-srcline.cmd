# perf script -F +srcline >f 2>&1 (real perf 6.1): perf's "Warning:" written inside a srcline line ("libc-start.c:360 (" ... "inlined)"): the layout is read around it as the samples are, every header keeps its tid
tracetool samples --top 1 --thread 29631 perf-warning-srcline.txt | grep -E "^(input|[0-9]+ samples|==|samples)"; tracetool export --format folded perf-warning-srcline.txt
