tracetool export --format folded perf-oneline.txt
