tracetool flamegraph --minwidth=4% --root=none --format=tsv flame-spec34.folded
