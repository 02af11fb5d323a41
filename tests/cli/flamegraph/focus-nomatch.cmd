tracetool flamegraph --format tsv --focus "^nomatch$" flame-recursive.folded
