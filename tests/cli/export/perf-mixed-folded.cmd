tracetool export --format folded perf-mixed.txt
