tracetool export --format folded perf-deleted.txt
