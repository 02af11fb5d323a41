tracetool export --format folded perf-notime.txt
