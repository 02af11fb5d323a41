tracetool export --format folded perf-weird.txt
