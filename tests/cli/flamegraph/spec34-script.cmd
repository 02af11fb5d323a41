tracetool flamegraph --minwidth=4% --root=none flame-spec34.folded
