tracetool export --format folded perf-deleted-oneline.txt
