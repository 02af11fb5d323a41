tracetool flamegraph --format tsv --root=process --focus '^f$' flame-recursive.folded
