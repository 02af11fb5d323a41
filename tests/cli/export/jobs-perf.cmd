tracetool export --format folded --jobs 2 perf-variants.txt
