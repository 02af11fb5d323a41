tracetool export --format chrome ../../samples/stacks.folded
