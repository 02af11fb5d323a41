tracetool flamegraph --source tree:x flame-spec34.folded
