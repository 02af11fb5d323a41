tracetool export --format chrome perf-ambiguous.txt
