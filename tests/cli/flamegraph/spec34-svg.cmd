tracetool flamegraph --minwidth=4% --root=none --script=none flame-spec34.folded
