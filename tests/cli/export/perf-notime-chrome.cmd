tracetool export --format chrome perf-notime.txt
