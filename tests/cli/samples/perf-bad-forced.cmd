tracetool samples --kind perf perf-bad.txt
