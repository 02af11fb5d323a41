tracetool flamegraph --minwidth=abc flame-spec34.folded
