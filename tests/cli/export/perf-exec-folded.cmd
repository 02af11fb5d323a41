tracetool export --format folded perf-exec.txt
