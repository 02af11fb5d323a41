tracetool flamegraph --chart flame-spec34.folded
