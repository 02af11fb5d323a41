tracetool flamegraph --format tsv --root=none --fold-recursion flame-recursive.folded
