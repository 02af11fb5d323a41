tracetool flamegraph --format tsv --root=none --sort weight flame-recursive.folded
