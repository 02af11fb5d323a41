tracetool flamegraph --format tsv --root=none --reverse flame-recursive.folded
