tracetool samples ../../samples/stacks.folded
