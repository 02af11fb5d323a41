tracetool html flame-spec34.folded
