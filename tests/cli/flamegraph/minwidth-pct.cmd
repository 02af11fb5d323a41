tracetool flamegraph --format tsv --minwidth 30% --truncate left --root=none flame-recursive.folded
