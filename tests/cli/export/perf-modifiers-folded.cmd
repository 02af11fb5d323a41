tracetool export --format folded perf-modifiers.txt
