tracetool flamegraph --format tsv --root=none --max-frames 4 flame-recursive.folded
