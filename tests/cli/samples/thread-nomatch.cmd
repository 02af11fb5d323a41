tracetool samples --thread nosuch ../../samples/stacks.folded
