tracetool flamegraph --format tsv perf-kernel-module.txt
